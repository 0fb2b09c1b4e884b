"""bleukit/meta/delta.py: Kocmi et al. (2024)'s curve of the accuracy of
"A beats B" over the metric delta, fitted by maximum likelihood."""

from __future__ import annotations

import math
import random

import pytest

from bleukit.core.errors import InputError
from bleukit.core.results import DeltaAccuracy, sigmoid
from bleukit.meta import delta as d


def test_the_curve_and_its_inverse():
    # the MT-Thresholds tool's BLEU curve (a in percent there): 88.3 / (1 + e^-0.966 delta)
    curve = DeltaAccuracy(0.8833, 0.9664, 10, 8)
    assert curve.accuracy(1.0) == pytest.approx(0.8833 / (1 + math.exp(-0.9664)))
    assert curve.accuracy(-1.0) == curve.accuracy(1.0)
    assert curve.delta_for(curve.accuracy(2.5)) == pytest.approx(2.5)
    assert curve.delta_for(0.9) is None  # never reached: a < 0.9
    assert curve.to_dict()["delta_for"]["0.9"] is None
    assert sigmoid(-800.0) == 0.0 and sigmoid(800.0) == 1.0


def test_system_pairs_leave_out_what_humans_tie():
    metric, human = [30.0, 28.0, 29.0, 29.0], [1.0, 0.5, 0.5, 2.0]
    # (0,1) agree at 2; (0,2) agree at 1; (0,3) disagree at 1; (1,2) tied by humans;
    # (1,3) agree at 1; (2,3) metric tie: disagree at 0
    assert d.system_pairs(metric, human) == [
        (2.0, True), (1.0, True), (1.0, False), (1.0, True), (0.0, False)
    ]  # fmt: skip
    with pytest.raises(InputError):
        d.system_pairs([1.0], [1.0, 2.0])


def test_the_fit_recovers_a_known_curve():
    rng = random.Random(4)
    truth = DeltaAccuracy(0.9, 0.8, 0, 0)
    pairs = []
    for _ in range(4000):
        delta = rng.uniform(0, 8)
        pairs.append((delta, rng.random() < truth.accuracy(delta)))
    curve = d.fit(pairs, "simulated")
    assert curve is not None and curve.source == "simulated" and curve.pairs == 4000
    assert curve.a == pytest.approx(0.9, abs=0.03) and curve.b == pytest.approx(0.8, rel=0.25)
    assert curve.agreed == sum(ok for _, ok in pairs)
    assert d.fit([(1.0, True)]) is None and d.fit([(0.0, True), (0.0, False)]) is None


def test_saved_curves_load_by_signature(tmp_path):
    curve = DeltaAccuracy(0.85, 1.2, 28, 22, "MQM (x.tsv)")
    path = str(tmp_path / "curves.json")
    d.save(path, [("BLEUw4", "bleukit|tok:13a.v1|nrefs:1|version:0.1.0", curve)])
    loaded = d.load(path)
    assert loaded == {"bleukit|tok:13a.v1|nrefs:1": curve}
    (tmp_path / "bad.json").write_text('{"curves": [{"a": 1}]}', encoding="utf-8")
    with pytest.raises(InputError, match="not a file of curves written by bleukit meta"):
        d.load(str(tmp_path / "bad.json"))
    (tmp_path / "junk.json").write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="not JSON"):
        d.load(str(tmp_path / "junk.json"))
    with pytest.raises(InputError, match="cannot read it"):
        d.load(str(tmp_path / "missing.json"))
