"""bleukit/io/mtme.py: mt-metrics-eval's data layout read by kind of file;
the choices a directory leaves open refused in one line (tests/test_scores.py
runs ``meta --mtme`` on a hand-made directory end to end)."""

from __future__ import annotations

import pytest

from bleukit.core.errors import InputError
from bleukit.io.mtme import read_mtme


def make(root, files):
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x\n", "utf-8")


def test_files_by_kind_and_name(tmp_path):
    make(tmp_path, ["t/references/de-en.refA.txt", "t/references/en-de.refA.txt",
                    "t/system-outputs/de-en/Online-A.txt", "t/system-outputs/de-en/refB.txt",
                    "t/system-outputs/de-en/refA.txt", "t/human-scores/de-en.mqm.seg.score",
                    "t/human-scores/de-en.mqm.sys.score", "t/human-scores/de-en.wmt-z.seg.score",
                    "t/metric-scores/de-en/COMET-22-refA.seg.score",
                    "t/metric-scores/de-en/COMET-22-refA.sys.score",
                    "t/references/de-en.refB.txt"])  # fmt: skip
    data = read_mtme(str(tmp_path), "t", "de-en")
    assert sorted(data.references) == ["refA", "refB"]
    assert sorted(data.human) == ["mqm", "wmt-z"] and list(data.metrics) == ["COMET-22-refA"]
    assert data.reference("refA")[0] == "refA"
    assert list(data.systems("refA", include_human=False)) == ["Online-A"]
    assert list(data.systems("refA", include_human=True)) == ["Online-A", "refB"]
    assert data.human_scores("mqm").endswith("de-en.mqm.seg.score")
    assert data.metric_scores(None) == data.metrics
    with pytest.raises(InputError, match="has segment-level human scores mqm, wmt-z: choose"):
        data.human_scores(None)
    with pytest.raises(InputError, match="has references refA, refB: choose one with --mtme-ref"):
        data.reference(None)


def test_a_directory_without_the_pair_is_refused(tmp_path):
    make(tmp_path, ["t/references/de-en.refA.txt"])
    with pytest.raises(InputError, match=r"\(en-de\): no references/en-de\.\*\.txt"):
        read_mtme(str(tmp_path), "t", "en-de")
    with pytest.raises(InputError, match=r"\(de-en\): no system-outputs/de-en/\*\.txt"):
        read_mtme(str(tmp_path), "t", "de-en")
    with pytest.raises(InputError, match="no test set u in it"):
        read_mtme(str(tmp_path), "u", "de-en")
