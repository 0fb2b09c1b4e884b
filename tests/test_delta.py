"""bleukit/meta/delta.py: Kocmi et al. (2024)'s curve of the accuracy of
"A beats B" over the metric delta, fitted by maximum likelihood."""

from __future__ import annotations

import json
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


@pytest.mark.once  # 4 s of pure-Python numerics, the same on every Python
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
    with pytest.raises(InputError, match="curve 1: 'signature' and 'source' are text"):
        d.load(str(tmp_path / "bad.json"))
    (tmp_path / "bad.json").write_text('{"curves": 3}', encoding="utf-8")
    with pytest.raises(InputError, match="not a file of curves written by bleukit meta"):
        d.load(str(tmp_path / "bad.json"))
    (tmp_path / "junk.json").write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="not JSON"):
        d.load(str(tmp_path / "junk.json"))
    with pytest.raises(InputError, match="cannot read it"):
        d.load(str(tmp_path / "missing.json"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('"signature": 5', "'signature' and 'source' are text"),
        ('"a": NaN', "NaN is not a number JSON allows"),
        ('"b": Infinity', "Infinity is not a number JSON allows"),
        ('"a": 7', "a 7 is no accuracy of the curve"),
        ('"a": 0.2', "a 0.2 is no accuracy of the curve"),
        ('"b": -1', "b -1 is no slope"),
        ('"pairs": -3', "22 of -3 pairs agreed"),
        ('"agreed": 29', "29 of 28 pairs agreed"),
        ('"pairs": 2.5', "pairs 2.5 is no whole number"),
        ('"a": true', "a True is no finite number"),
    ],
)
def test_a_malformed_curve_is_refused_naming_what_is_wrong(tmp_path, change, message):
    """Curves are checked as ``fit`` makes them: before, a NaN printed
    ``nan%``, an a of 7 an agreement of 675%, and a numeric signature a
    traceback."""
    good = {"signature": "bleukit|tok:13a.v1", "a": 0.85, "b": 1.2, "pairs": 28,
            "agreed": 22, "source": "x"}  # fmt: skip
    key, value = change.split(": ")
    text = json.dumps({"curves": [good]}).replace(
        f"{key}: {json.dumps(good[key.strip(chr(34))])}", f"{key}: {value}"
    )
    assert value in text
    path = tmp_path / "curves.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=f"curves.json: (curve 1: )?(not JSON \\()?{message}"):
        d.load(str(path))
