"""mt-metrics-eval's data layout (its ``data.py``'s ``EvalSet``) as an
input: a test set's references, system outputs, human scores and every
metric's scores, for one language pair, from an extracted data directory
(``mt-metrics-eval-v2``):

    DIR/TESTSET/references/LP.REF.txt
    DIR/TESTSET/system-outputs/LP/SYSTEM.txt
    DIR/TESTSET/human-scores/LP.NAME.seg.score
    DIR/TESTSET/metric-scores/LP/METRIC-REF.seg.score

A system output named as a reference (``refB``) is a human translation:
mt-metrics-eval leaves those out of the systems unless asked
(``include_human``), and never scores the reference the metrics use
against itself. Files of other levels (``sys``, ``doc``, ``domain``) and
the sources are not read."""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import InputError

_SEG = ".seg.score"


@dataclass(frozen=True)
class MtmeSet:
    """One test set and language pair of an mt-metrics-eval directory: each
    kind of file by name."""

    where: str
    references: dict[str, str]
    outputs: dict[str, str]
    human: dict[str, str]
    metrics: dict[str, str]

    def reference(self, name: str | None) -> tuple[str, str]:
        """The reference the variants score against (its name and file):
        ``name``, or the only one."""
        if name is None:
            if len(self.references) != 1:
                raise InputError(
                    f"{self.where} has references {', '.join(sorted(self.references))}: "
                    "choose one with --mtme-ref (WMT's standard one is in mt-metrics-eval's "
                    "meta_info.py)"
                )
            name = next(iter(self.references))
        return name, _pick(self.references, name, "reference", "--mtme-ref", self.where)

    def human_scores(self, name: str | None) -> str:
        """The segment-level human scores (``name``, or the only ones)."""
        if name is None:
            if len(self.human) != 1:
                listed = ", ".join(sorted(self.human)) or "none"
                raise InputError(
                    f"{self.where} has segment-level human scores {listed}: choose with "
                    "--mtme-human"
                )
            name = next(iter(self.human))
        return _pick(self.human, name, "human scores", "--mtme-human", self.where)

    def systems(self, reference: str, include_human: bool) -> dict[str, str]:
        """The system outputs to study, by name: the machine translations,
        and with ``include_human`` the human translations but the
        reference's own."""
        return {
            name: path
            for name, path in sorted(self.outputs.items())
            if name not in self.references or (include_human and name != reference)
        }

    def metric_scores(self, names: Sequence[str] | None) -> dict[str, str]:
        """The metrics' segment scores, every one or those ``names`` gives."""
        if names is None:
            return dict(sorted(self.metrics.items()))
        return {n: _pick(self.metrics, n, "metric scores", "--mtme-metrics", self.where)
                for n in names}  # fmt: skip


def _pick(found: dict[str, str], name: str, what: str, option: str, where: str) -> str:
    if name not in found:
        listed = ", ".join(sorted(found)[:12]) + (", ..." if len(found) > 12 else "")
        raise InputError(f"{option} {name}: no {what} of that name in {where} ({listed})")
    return found[name]


def _named(folder: str, prefix: str, suffix: str) -> dict[str, str]:
    """The files of a folder named PREFIX + NAME + SUFFIX, by NAME."""
    pattern = os.path.join(glob.escape(folder), f"{glob.escape(prefix)}*{glob.escape(suffix)}")
    return {os.path.basename(p)[len(prefix) : -len(suffix)]: p
            for p in sorted(glob.glob(pattern))}  # fmt: skip


def read_mtme(root: str, testset: str, lp: str) -> MtmeSet:
    """The files of ``testset`` and ``lp`` under an mt-metrics-eval data
    directory ``root``; a directory without references or system outputs
    for them is refused in one line naming it."""
    where = os.path.join(root, testset)
    if not os.path.isdir(where):
        raise InputError(f"--mtme {root}: no test set {testset} in it (no {where})")
    references = _named(os.path.join(where, "references"), f"{lp}.", ".txt")
    outputs = _named(os.path.join(where, "system-outputs", lp), "", ".txt")
    human = _named(os.path.join(where, "human-scores"), f"{lp}.", _SEG)
    metrics = _named(os.path.join(where, "metric-scores", lp), "", _SEG)
    label = f"{where} ({lp})"
    if not references:
        raise InputError(f"{label}: no references/{lp}.*.txt")
    if not outputs:
        raise InputError(f"{label}: no system-outputs/{lp}/*.txt")
    return MtmeSet(label, references, outputs, human, metrics)
