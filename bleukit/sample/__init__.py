"""The bundled sample: WMT21 news en-de, its first 200 segments, with two
references (A and C) and two systems (README.md here says where they come
from). ``bleukit sample`` scores it."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Traversable

_PREFIX = "newstest2021.en-de"
#: what ``bleukit sample`` says it scores
DESCRIPTION = "WMT21 news en-de, first 200 segments, references A and C"


def root() -> Traversable:
    """The folder the sample's files are in."""
    return resources.files(__name__)


def references() -> list[Traversable]:
    return [root() / f"{_PREFIX}.ref.{r}.200.txt" for r in ("A", "C")]


def systems() -> dict[str, Traversable]:
    """Each system's name and hypothesis file."""
    return {s: root() / f"{_PREFIX}.hyp.{s}.200.txt" for s in ("Facebook-AI", "UEdin")}
