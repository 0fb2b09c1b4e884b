"""Files that other tools load from bleukit's installation: the HF
``evaluate`` metric module (``evaluate.load(evaluate_path())``)."""

from __future__ import annotations

from pathlib import Path


def evaluate_path() -> str:
    """The path of the metric module for ``evaluate.load``: works offline,
    from the installed package (``pip install 'bleukit[evaluate]'``)."""
    return str(Path(__file__).parent / "evaluate" / "bleukit_bleu.py")
