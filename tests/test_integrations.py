"""bleukit.integrations: where the evaluate modules lie, and how they read
evaluate's references (the modules themselves run in tox -e evaluate)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleukit.core.errors import InputError
from bleukit.integrations import evaluate_path, reference_streams


def test_each_metric_has_its_evaluate_module():
    assert Path(evaluate_path()).name == "bleukit_bleu.py"
    assert Path(evaluate_path("chrf")).is_file() and Path(evaluate_path("bleu")).is_file()
    with pytest.raises(InputError, match="no evaluate module for 'ter' \\(bleu or chrf\\)"):
        evaluate_path("ter")


def test_references_per_prediction_become_streams():
    assert reference_streams([["a", "b"], ["c", "d"]], "uneven") == [["a", "c"], ["b", "d"]]
    assert reference_streams(["a", "c"], "uneven") == [["a", "c"]]
    assert reference_streams([], "uneven") == []
    with pytest.raises(ValueError, match="^uneven$"):
        reference_streams([["a", "b"], ["c"]], "uneven")
