"""The public API as a user's type checker sees it (tox -e typing runs
mypy --strict on this file): real types, not Any. ``assert_type`` fails the
type check when an expression has another type (Any included); at run time
it does nothing."""

from __future__ import annotations

from importlib import resources

from typing_extensions import assert_type

import bleukit
from bleukit.analysis.verify import Verification, verify
from bleukit.config.model import ConfigFields
from bleukit.core.record import replace
from bleukit.core.stats import Stats
from bleukit.corpus.streaming import corpus_scores
from bleukit.engines import Engine
from bleukit.metrics.base import Metric, MetricSignature
from bleukit.metrics.registry import METRICS, MetricSpec
from bleukit.metrics.simple import SimpleMetric
from bleukit.significance import Interval, SignificanceSpec, SystemResult, confidence, paired_test

variant = bleukit.load_variant("BLEUw4", max_order=2)
assert_type(variant, bleukit.Variant)
assert_type(variant.engine, Engine)
result = variant.corpus_score(["the cat sat"], [["the cat sat down"]])
assert_type(result, bleukit.BleuResult)
assert_type(result.score, float)
assert_type(result.counts, tuple[int, ...])
assert_type(replace(result, score=1.0), bleukit.BleuResult)
assert_type(variant.sentence_scores(["a"], [["a"]]), list[bleukit.BleuResult])
signature = result.signature
assert signature is not None
assert_type(signature, bleukit.Signature)
assert_type(signature.sacrebleu, str | None)
assert_type(bleukit.parse_signature(signature.long), bleukit.Signature)

segments, nrefs = variant.segment_stats(["a b"], [["a b"]])
assert_type(segments, list[Stats])
assert_type(nrefs, int | str)
spec = SignificanceSpec(None, samples=10)
assert_type(confidence(variant, segments, nrefs, spec), SystemResult)
rows = paired_test(variant, [("x", segments), ("y", segments)], nrefs, SignificanceSpec())
assert_type(rows, list[SystemResult])
assert_type(rows[0].interval, Interval | None)

sample = resources.files("bleukit.sample")
ref, hyp = (str(sample / f"newstest2021.en-de.{f}.200.txt") for f in ("ref.A", "hyp.UEdin"))
assert_type(corpus_scores(variant, [ref], [hyp]), list[tuple[str, bleukit.BleuResult]])
assert_type(verify(signature.long, [["a"]], ["a"], "100"), Verification)

try:
    bleukit.load_variant("no-such-variant")
except bleukit.BleukitError as exc:
    assert_type(exc, bleukit.BleukitError)

# a metric of any kind, and what a metric plugin builds on

metric_spec = METRICS.get("eed.v1")
assert_type(metric_spec, MetricSpec)
assert_type(metric_spec.name, str)
assert_type(metric_spec.scoring_fields, tuple[str, ...])
assert issubclass(metric_spec.config, ConfigFields)
eed = bleukit.load_metric("EED")
assert isinstance(eed, Metric) and isinstance(eed, SimpleMetric)
assert_type(eed.signature(1), MetricSignature)
