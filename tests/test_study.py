"""bleukit/meta/study.py: a study of variants against judgements made from
one of the variants itself (so that its agreement is known), the
orientation of lower-is-better scores, unrated segments, PERM-BOTH and the
clusters, grids and shortlists."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import InputError
from bleukit.core.resampling import Draws, randomization_selections
from bleukit.corpus.systems import collect
from bleukit.engines import ENGINES
from bleukit.meta import statistics
from bleukit.meta import study as s
from bleukit.meta.judgements import Judgements
from bleukit.meta.kernels import meta_kernels
from bleukit.meta.pairs import swap_tables

AVAILABLE = [e.name for e in ENGINES.entries() if e.component.unavailable() is None]

SYSTEMS = ("Facebook-AI", "UEdin", "Online-W", "HuaweiTSC")
N = 40


@pytest.fixture(scope="module")
def corpus(wmt):
    refs = [wmt.lines("newstest2021.en-de", "ref.A")[:N]]
    hyps = [(name, wmt.hyps("newstest2021.en-de", name)[:N]) for name in SYSTEMS]
    return hyps, refs


def judged_by(variant, hyps, refs, unrated=()):
    """Judgements that are the variant's own sentence scores (None on the
    segments in ``unrated``)."""
    stats = collect([variant], hyps, refs)
    scores = {}
    for name, _ in hyps:
        values = stats.sentence_values(variant.sentence_variant(), name)
        scores[name] = tuple(None if i in unrated else v for i, v in enumerate(values))
    return Judgements("test", scores, variant.higher_is_better, "tsv")


def study(variants, corpus, judgements, **settings):
    hyps, refs = corpus
    stats = collect(variants, hyps, refs)
    chosen = s.Settings(**{"samples": 50, "trials": 50, **settings})
    return s.run(variants, stats, judgements, chosen)


def test_a_metric_judged_by_itself_agrees_at_segment_level(corpus):
    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    result = study([chrf, bleu], corpus, judged_by(chrf, *corpus))
    mine, other = result.variants
    for name in ("kendall_like_item", "kendall_like_none", "acc_eq_item", "acc_eq_none",
                 "acc_eq_system"):  # fmt: skip
        assert mine.segment[name] == 1.0, name
        assert other.segment[name] < 1.0, name
    assert mine.intervals["kendall_like_item"] == (1.0, 1.0)
    assert result.best("acc_eq_item").name == "chrF"
    # the system scores: corpus chrF against the mean sentence chrF
    assert mine.system["pearson"] > 0.9 and not math.isnan(mine.system["soft_pairwise_accuracy"])
    assert result.segments == N and result.test_set == N
    assert mine.sentence_variant == "chrF" and other.sentence_variant.startswith("BLEUw4[")
    # chrF beats BLEU significantly where it is perfect
    sig = {x.statistic: x for x in result.significance}
    assert sig["kendall_like_item"].clusters == (1, 2)
    assert sig["kendall_like_item"].p[0, 1] <= 0.05


def test_lower_is_better_on_both_sides_agrees(corpus):
    ter = bleukit.load_metric("TER")
    judgements = judged_by(ter, *corpus)
    assert not judgements.higher_is_better
    result = study([ter], corpus, judgements, trials=0, samples=0)
    (mine,) = result.variants
    assert mine.segment["kendall_like_item"] == 1.0 and mine.segment["acc_eq_item"] == 1.0
    # human system scores oriented: minus the mean TER
    assert result.human_scores[0] == pytest.approx(
        -math.fsum(v for v in judgements.scores[SYSTEMS[0]]) / N
    )
    assert mine.system_scores[0] < 0 and mine.intervals == {} and result.significance == ()


def test_only_segments_rated_for_every_system_count(corpus):
    chrf = bleukit.load_metric("chrF")
    judgements = judged_by(chrf, *corpus, unrated={0, 5, 7})
    result = study([chrf], corpus, judgements, samples=0, trials=0)
    assert result.segments == N - 3
    hyps, refs = corpus
    # the metric's system score is its corpus score over the rated segments only
    kept = [i for i in range(N) if i not in {0, 5, 7}]
    expected = chrf.corpus_score([hyps[0][1][i] for i in kept], [[refs[0][i] for i in kept]])
    assert result.variants[0].system_scores[0] == pytest.approx(expected.score, abs=1e-12)
    none = Judgements("test", {name: (None,) * N for name in SYSTEMS})
    with pytest.raises(InputError, match="no segment is rated for every system"):
        study([chrf], corpus, none)
    with pytest.raises(InputError, match="no judgements of HuaweiTSC"):
        study([chrf], corpus, Judgements("x.tsv", {n: (1.0,) * N for n in SYSTEMS[:3]}))


def test_other_groupings_are_calibrated_on_request(corpus):
    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    judgements = judged_by(bleu, *corpus)
    plain = study([chrf], corpus, judgements, samples=0, trials=0)
    asked = study([chrf], corpus, judgements, samples=0, trials=0, calibrate=("system", "none"))
    (mine,) = asked.variants
    assert not {"acc_eq_system_calibrated", "acc_eq_none_calibrated"} & set(
        plain.variants[0].segment
    )
    assert plain.variants[0].epsilons == {}
    # the reference: tie calibration over each system's segments, or all
    stats = collect([chrf], *corpus)
    metric = [stats.sentence_values(chrf.sentence_variant(), name) for name in SYSTEMS]
    human = [list(judgements.scores[name]) for name in SYSTEMS]
    out = asked.to_dict()["variants"][0]
    for by in ("system", "none"):
        expected = statistics.calibrated_acc_eq(statistics.groups(metric, human, by))
        assert mine.segment[f"acc_eq_{by}_calibrated"] == expected.value
        assert mine.epsilons[by] == out[f"tie_epsilon_{by}"] == expected.epsilon
        assert mine.segment[f"acc_eq_{by}_calibrated"] >= mine.segment[f"acc_eq_{by}"]
    assert "tie_epsilon_system" not in plain.to_dict()["variants"][0]


def test_intervals_of_the_other_groupings_recount_each_resample(corpus):
    from bleukit.core.resampling import bootstrap_indices
    from bleukit.meta.pairs import pair_counts
    from bleukit.significance.paired import percentile_interval

    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    judgements = judged_by(bleu, *corpus)
    (mine,) = study([chrf], corpus, judgements, samples=30, trials=0, seed=4).variants
    stats = collect([chrf], *corpus)
    metric = [stats.sentence_values(chrf.sentence_variant(), name) for name in SYSTEMS]
    human = [list(judgements.scores[name]) for name in SYSTEMS]
    values = {"acc_eq_system": [], "kendall_like_none": []}
    for idx in bootstrap_indices(Draws.from_seed(N, 30, 4)):
        m = [[row[i] for i in idx] for row in metric]
        h = [[row[i] for i in idx] for row in human]
        by_system = [statistics.acc_eq(pair_counts(a, b)) for a, b in zip(m, h)]
        values["acc_eq_system"].append(statistics.mean(by_system))
        p = pair_counts([x for r in m for x in r], [x for r in h for x in r])
        values["kendall_like_none"].append(
            (p.con - p.dis - p.tie_metric) / (p.con + p.dis + p.tie_metric)
        )
    for name, samples in values.items():
        expected = percentile_interval(samples, 0.95)
        assert mine.intervals[name] == (expected.low, expected.high), name
    low, high = mine.intervals["acc_eq_none"]
    assert low <= high and "kendall_like_system" in mine.intervals
    assert "acc_eq_none_calibrated" not in mine.intervals
    # calibrated: each resample's pairs at the epsilon of all the data (the
    # humans' scores made coarse, so that it is not 0)
    coarse = {name: tuple(float(x > 30) for x in v) for name, v in judgements.scores.items()}
    (tied,) = study([chrf], corpus, Judgements("test", coarse, True, "tsv"), samples=30,
                    trials=0, seed=4, calibrate=("none",)).variants  # fmt: skip
    eps = tied.epsilons["none"]
    assert eps > 0
    calibrated = []
    for idx in bootstrap_indices(Draws.from_seed(N, 30, 4)):
        flat_m = [row[i] for row in metric for i in idx]
        flat_h = [coarse[name][i] for name in SYSTEMS for i in idx]
        calibrated.append(statistics.acc_eq(statistics.epsilon_pairs(flat_m, flat_h, eps)))
    expected = percentile_interval(calibrated, 0.95)
    assert tied.intervals["acc_eq_none_calibrated"] == (expected.low, expected.high)


def test_settings_are_checked():
    for bad in (s.Settings(samples=-1), s.Settings(level=1.5), s.Settings(threshold=-1),
                s.Settings(calibrate=("item",))):  # fmt: skip
        with pytest.raises(InputError):
            bad.check()


@pytest.mark.parametrize("engine", AVAILABLE)
def test_human_p_values_by_brute_force(engine):
    human = [[3.0, 1.0, 2.0], [1.0, 1.0, 4.0]]
    draws = Draws.from_seed(3, 200, 9)
    p = s.human_p_values(human, draws, meta_kernels(ENGINES.get(engine)))
    observed = sum(human[0]) - sum(human[1])
    deltas = []
    for sel, _ in randomization_selections(draws):
        a = sum(h0 if b else h1 for h0, h1, b in zip(human[0], human[1], sel))
        deltas.append(a - (sum(human[0]) + sum(human[1]) - a))
    assert p[0][1] == sum(d >= observed for d in deltas) / 200


@pytest.mark.parametrize("engine", AVAILABLE)
@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.floats(-1e6, 1e6, allow_nan=False) | st.sampled_from([0.1, -1e-300, 2.0**-60, 3e5]),
        min_size=1,
        max_size=40,
    ),
    st.integers(0, 12),
)
def test_exact_signed_trials_are_the_exact_sums_of_each_trial(engine, values, trials):
    """Every trial's signed sum of floats (``_ExactSums.signed_trials``: the
    scaled integers in 31-bit limbs, through the kernels) is the correctly
    rounded exact sum of the values, each negated where the trial swaps it,
    whatever the spread of their exponents (values of over 64 bits scaled)."""
    draws = Draws.from_seed(len(values), trials, 5)
    got = s._ExactSums(values).signed_trials(draws, meta_kernels(ENGINES.get(engine)))
    expected = [
        float(sum(Fraction(v) if b == 1 else -Fraction(v) for v, b in zip(values, sel)))
        for sel, _ in randomization_selections(draws)
    ]
    assert got == expected


def judged_apart(variant, hyps, refs):
    """A variant's own sentence scores as judgements, each system rated on
    other segments (system k skips every segment i with i % 4 == k); the
    first two systems share no segment after 20."""
    stats = collect([variant], hyps, refs)
    scores = {}
    for k, (name, _) in enumerate(hyps):
        values = stats.sentence_values(variant.sentence_variant(), name)
        skip = {i for i in range(N) if i % 4 == k or (k < 2 and i >= 20 and i % 2 == k)}
        scores[name] = tuple(None if i in skip else v for i, v in enumerate(values))
    return Judgements("test", scores, variant.higher_is_better, "tsv")


def test_rated_segments_score_each_system_on_its_own(corpus):
    """With --segments rated each system's metric and human scores are over
    its own rated segments, the segment-level pairs only those where both
    cells are rated, and every test runs."""
    from bleukit.meta.pairs import pair_counts

    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    judgements = judged_apart(chrf, *corpus)
    result = study([chrf, bleu], corpus, judgements, samples=30, trials=30, segments="rated",
                   calibrate=("none", "system"))  # fmt: skip
    hyps, refs = corpus
    assert result.segments == N and result.settings.segments == "rated"
    mine, other = result.variants
    for k, (name, lines) in enumerate(hyps):
        own = judgements.rated(name)
        mean = math.fsum(judgements.scores[name][i] for i in own) / len(own)
        assert result.human_scores[k] == mean
        expected = bleu.corpus_score([lines[i] for i in own], [[refs[0][i] for i in own]])
        assert other.system_scores[k] == pytest.approx(expected.score, abs=1e-12)
    # judged by itself, chrF agrees wherever pairs are rated on both sides
    for name in ("kendall_like_item", "kendall_like_none", "acc_eq_item", "acc_eq_none",
                 "acc_eq_system"):  # fmt: skip
        assert mine.segment[name] == 1.0, name
    # BLEU's pairs: only those of rated cells, not grouped
    sentence = bleu.sentence_variant()
    cells = [(v, judgements.scores[name][i])
             for name, _ in hyps
             for i, v in enumerate(collect([bleu], hyps, refs).sentence_values(sentence, name))
             if judgements.scores[name][i] is not None]  # fmt: skip
    p = pair_counts([c[0] for c in cells], [c[1] for c in cells])
    assert other.segment["acc_eq_none"] == statistics.acc_eq(p)
    # every test ran; chrF beats BLEU where it is perfect
    sig = {x.statistic: x for x in result.significance}
    assert set(sig) == set(result.settings.tested_statistics())
    assert sig["acc_eq_item"].p[0, 1] <= 0.05 and sig["kendall_like_none"].p[0, 1] <= 0.05
    assert all(0 <= x <= 1 for x in (*sig["acc_eq_system"].p.values(),
                                     *sig["acc_eq_system_calibrated"].p.values()))  # fmt: skip
    assert not math.isnan(mine.system["soft_pairwise_accuracy"])
    assert "acc_eq_none" in mine.intervals and "pearson" in mine.intervals


@pytest.mark.parametrize(
    ("variants", "streams"),
    [(["BLEUw4", "BLEUw4[smoothing=add-k.v1]", "BLEUw4[smoothing=exp.v1]"], 1), (["TER"], 2)],
)
def test_rated_metric_p_values_by_brute_force(wmt, corpus, variants, streams):
    """Each pair of systems' approximate randomization over the segments
    both are rated on (``--segments rated``): side A takes i's segments
    where the trial's bit is set and j's others, each side scored as a
    corpus of its lines, and the p-value is the share of trials whose
    difference reaches the observed one. Variants of equal statistics
    (BLEU's smoothings) are tested at once, each scoring the sums made once.
    BLEU's statistics are rows of integers; TER's against two references
    are not (an average length)."""
    hyps, refs = corpus
    refs = [*refs, wmt.lines("newstest2021.en-de", "ref.D")[:N]][:streams]
    metrics = [bleukit.load_metric(name) for name in variants]
    judgements = judged_apart(bleukit.load_metric("chrF"), *corpus)
    human = [[math.nan if x is None else x for x in judgements.scores[name]] for name, _ in hyps]
    pairs = s.pair_tests(human, s.Settings(trials=40, seed=3))
    stats = collect(metrics, hyps, refs)
    assert (stats.columns(metrics[0], SYSTEMS[0]).rows is None) == (streams == 2)
    tested = s.rated_metric_p_values(metrics, stats, range(N), pairs)
    for metric, p in zip(metrics, tested):
        sign = 1 if metric.higher_is_better else -1

        def score(lines, rows, metric=metric, sign=sign):
            return sign * metric.corpus_score(lines, [[r[k] for k in rows] for r in refs]).score

        for (i, j), (both, draws) in pairs.items():
            a, b = hyps[i][1], hyps[j][1]
            observed = score([a[k] for k in both], both) - score([b[k] for k in both], both)
            deltas = []
            for sel, _ in randomization_selections(draws):
                side_a = [a[k] if x else b[k] for k, x in zip(both, sel)]
                side_b = [b[k] if x else a[k] for k, x in zip(both, sel)]
                deltas.append(score(side_a, both) - score(side_b, both))
            assert p[i][j] == sum(d >= observed for d in deltas) / draws.count, (metric.name, i, j)
    if len(tested) > 1:  # add-k's p-values are its own (a pair's, at least)
        assert repr(tested[0]) != repr(tested[1])


def test_rated_metric_p_values_refuse_variants_of_other_statistics(corpus):
    hyps, refs = corpus
    metrics = [bleukit.load_metric("BLEUw4"), bleukit.load_metric("BLEUw4[max_order=3]")]
    stats = collect(metrics, hyps, refs)
    with pytest.raises(AssertionError):
        s.rated_metric_p_values(metrics, stats, range(N), {})


def test_a_measuring_pass_makes_a_batchs_sentence_scores_once(corpus):
    """A grid's sentence scores of one batch (BLEU of one smoothing at
    several orders) are made together for a system and handed out as often
    as the pass asks for them (two variants of one sentence variant here),
    each equal to the store's own; none is left when the pass is done."""
    hyps, refs = corpus
    names = ["BLEUw2", "BLEUw3", "BLEUw4", "BLEUw4[smoothing=floor.v1]", "chrF", "BLEUw3"]
    variants = [bleukit.load_metric(n) for n in names]
    stats = collect(variants, hyps, refs)
    batched = s._Sentences(stats, variants)
    asked = []
    original = stats.sentence_values_many
    stats.sentence_values_many = lambda vs, name: asked.append(len(vs)) or original(vs, name)
    for v in variants:
        sentence = v.sentence_variant()
        for name, _ in hyps:
            assert list(batched.values(sentence, name)) == stats.sentence_values(sentence, name)
    # one batch of three orders per system (exp smoothing and effective
    # order: BLEUw2-4's and the floor variant's own sentence variants)
    assert asked == [3] * len(hyps)
    assert batched._made == {}


def test_rated_segments_of_fully_rated_systems_are_the_common_ones(corpus):
    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    judgements = judged_by(chrf, *corpus)
    common = study([chrf, bleu], corpus, judgements, samples=20, trials=20).to_dict()
    rated = study([chrf, bleu], corpus, judgements, samples=20, trials=20,
                  segments="rated").to_dict()  # fmt: skip
    wmt = study([chrf, bleu], corpus, judgements, samples=20, trials=20,
                segments="wmt").to_dict()  # fmt: skip
    assert rated["settings"].pop("segments") == "rated"
    assert common["settings"].pop("segments") == "common"
    assert wmt["settings"].pop("segments") == "wmt"
    for result in (rated, common, wmt):
        result.pop("protocol")
    assert rated == common == wmt


def test_wmt_protocol_scores_the_metric_on_the_whole_test_set(corpus):
    """--segments wmt (the default where systems are rated on other
    segments): each system's metric score is its corpus score on every
    segment, its human score the mean of its rated ones, and the segment
    level counts the rated cells as ``rated`` does, segments rated for no
    system included."""
    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    apart = judged_apart(chrf, *corpus)
    nobody = range(30, 34)
    scores = {name: tuple(None if i in nobody else x for i, x in enumerate(row))
              for name, row in apart.scores.items()}  # fmt: skip
    judgements = Judgements("test", scores, True, "tsv")
    wmt = study([chrf, bleu], corpus, judgements, samples=30, trials=30)
    rated = study([chrf, bleu], corpus, judgements, samples=30, trials=30, segments="rated")
    assert wmt.settings.segments == "wmt" and rated.segments == N - len(nobody)
    assert wmt.segments == N and wmt.to_dict()["protocol"].startswith("WMT's")
    hyps, refs = corpus
    for k, (name, lines) in enumerate(hyps):
        own = judgements.rated(name)
        assert wmt.human_scores[k] == math.fsum(scores[name][i] for i in own) / len(own)
        for v, variant in zip(wmt.variants, (chrf, bleu)):
            expected = variant.corpus_score(lines, refs).score
            assert v.system_scores[k] == pytest.approx(expected, abs=1e-12)
    for mine, theirs in zip(wmt.variants, rated.variants):
        assert mine.segment == theirs.segment
        assert not math.isnan(mine.system["soft_pairwise_accuracy"])
        assert "pearson" in mine.intervals and "acc_eq_item" in mine.intervals
    sig = {x.statistic: x for x in wmt.significance}
    assert set(sig) == set(wmt.settings.tested_statistics())


def test_common_on_a_small_share_of_the_test_set_says_what_it_loses(corpus):
    chrf = bleukit.load_metric("chrF")
    judgements = judged_by(chrf, *corpus, unrated=set(range(25)))
    result = study([chrf], corpus, judgements, samples=0, trials=0)
    assert result.settings.segments == "common" and result.segments == 15
    assert any(n.startswith("common keeps 15 of 40 segments (38%)") and "1.6 times" in n
               for n in result.notes)  # fmt: skip
    half = study([chrf], corpus, judged_by(chrf, *corpus, unrated=set(range(20))),
                 samples=0, trials=0)  # fmt: skip
    assert not any(n.startswith("common keeps") for n in half.notes)


def test_rated_segments_refuse_a_system_without_any(corpus):
    chrf = bleukit.load_metric("chrF")
    scores = {name: (1.0,) * N for name in SYSTEMS}
    scores[SYSTEMS[2]] = (None,) * N
    with pytest.raises(InputError, match="Online-W has no rated segment"):
        study([chrf], corpus, Judgements("test", scores), segments="rated")
    with pytest.raises(InputError, match="'some': expected one of common, rated, wmt, auto"):
        study([chrf], corpus, Judgements("test", scores), segments="some")


def test_perm_both_of_equal_variants_is_never_significant():
    draws = Draws.from_seed(5, 100, 1)
    scores, human = [1.0, 2.0, 3.0, 5.0, 4.0], [1.0, 2.0, 3.0, 4.0, 5.0]
    engine = meta_kernels(bleukit.load_metric("BLEUw4").engine)
    assert s.perm_both_system(scores, scores, human, "pearson", draws, engine) == 1.0
    matrix = [[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]]
    cells = Draws.from_seed(6, 100, 1)
    z = s.zscores(matrix)
    assert s.item_p_values([z, z], [(0, 1)], matrix, "acc_eq_item", 0.0, cells, engine) == [1.0]


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_perm_both_over_every_pair_recounts_each_trial(data):
    """PERM-BOTH of the statistics over every pair of a vector (by cell
    weights, linear in the swaps) equals recounting each trial's swapped
    z-scores, for each engine."""
    from bleukit.engines import ENGINES
    from bleukit.meta.pairs import pair_counts

    cell = st.sampled_from([0.0, 1.0, 2.0, 2.5, 4.0])
    shape = st.lists(st.lists(cell, min_size=5, max_size=5), min_size=3, max_size=3)
    a, b, human = data.draw(shape), data.draw(shape), data.draw(shape)
    draws = Draws.from_seed(15, 40, data.draw(st.integers(0, 99)))
    za = s.zscores(a)
    zb = s.zscores(b)
    flat_h = [x for row in human for x in row]

    def counts(v, by):
        groups = [range(15)] if by == "none" else [range(k, k + 5) for k in (0, 5, 10)]
        return [pair_counts([v[i] for i in g], [flat_h[i] for i in g]) for g in groups]

    def value(v, statistic):
        by = statistic.rsplit("_", 1)[1]
        if statistic == "kendall_like_system":  # the mean of the systems' taus
            return sum(Fraction(p.con - p.dis - p.tie_metric, p.con + p.dis + p.tie_metric)
                       for p in counts(v, by) if p.con + p.dis + p.tie_metric)  # fmt: skip
        if statistic.startswith("kendall"):
            return sum(p.con - p.dis - p.tie_metric for p in counts(v, by))
        return sum(p.con + p.tie_both for p in counts(v, by))

    def selections(statistic):
        if statistic != "kendall_like_system":
            return [sel for sel, _ in randomization_selections(draws)]
        # each system's cells from draws of its own
        own = [list(randomization_selections(d)) for d in s.system_draws(draws, 3, 5)]
        return [b"".join(parts[t][0] for parts in own) for t in range(draws.count)]

    for statistic in s.POOLED_TESTED:
        observed = value(zb, statistic) - value(za, statistic)
        diffs = []
        for sel in selections(statistic):
            v1 = [x if k else y for x, y, k in zip(zb, za, sel)]
            v2 = [y if k else x for x, y, k in zip(zb, za, sel)]
            diffs.append(value(v1, statistic) - value(v2, statistic))
        expected = sum(d >= observed for d in diffs) / len(diffs)
        for engine in ENGINES.names():
            got = s.pooled_p_values([za, zb], [(0, 1)], human, statistic, 0.0, draws,
                                    meta_kernels(ENGINES.get(engine)))  # fmt: skip
            assert got == [expected], (statistic, engine)
    assert math.isnan(s.pooled_p_values([za, zb], [(0, 1)], human, "kendall_like_none", 25.0,
                                        draws, meta_kernels(ENGINES.get("python")))[0])  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_pooled_p_values_of_several_pairs_are_each_pairs_own(data):
    """Pairs tested together get the p-values each gets alone, where the
    vectors leave out (NaN) other cells: a vector's pair counts per system
    are shared between vectors only where they leave out the same cells."""
    cell = st.sampled_from([0.0, 1.0, 2.0, 4.0, math.nan])
    shape = st.lists(st.lists(cell, min_size=5, max_size=5), min_size=3, max_size=3)
    vectors = [s.zscores(data.draw(shape)) for _ in range(3)]
    human = data.draw(shape)
    draws = Draws.from_seed(15, 30, data.draw(st.integers(0, 99)))
    kernels = meta_kernels(ENGINES.get(data.draw(st.sampled_from(AVAILABLE))))
    pairs = [(0, 1), (0, 2), (1, 2)]
    for statistic in ("kendall_like_system", "acc_eq_system"):
        together = s.pooled_p_values(vectors, pairs, human, statistic, 0.0, draws, kernels)
        alone = [s.pooled_p_values(vectors, [pair], human, statistic, 0.0, draws, kernels)[0]
                 for pair in pairs]  # fmt: skip
        assert list(map(repr, together)) == list(map(repr, alone)), statistic  # NaN too


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_pooled_statistics_of_a_grouping_share_their_weights(data):
    """Kendall-like tau and acc_eq of one grouping, their cell weights made
    in one pass for both (a pair the other way round negated), give each
    statistic's own p-values, pairs in either order, on every engine."""
    from bleukit.engines import ENGINES

    cell = st.sampled_from([0.0, 1.0, 2.0, 2.5, 4.0, math.nan])
    shape = st.lists(st.lists(cell, min_size=4, max_size=4), min_size=3, max_size=3)
    human = data.draw(shape)
    z = [s.zscores([[0.0 if math.isnan(x) else x for x in row] for row in data.draw(shape)])
         for _ in range(3)]  # fmt: skip
    draws = Draws.from_seed(12, 30, data.draw(st.integers(0, 99)))
    pair = st.tuples(st.integers(0, 2), st.integers(0, 2))
    for by in ("none", "system"):
        tests = [(f"{name}_{by}", data.draw(st.lists(pair, min_size=1, max_size=4)))
                 for name in ("kendall_like", "acc_eq")]  # fmt: skip
        for engine in ENGINES.names():
            kernels = meta_kernels(ENGINES.get(engine))
            shared = s._pooled_weights(z, tests, human, kernels)
            for (statistic, pairs), weights in zip(tests, shared):
                alone = s.pooled_p_values(z, pairs, human, statistic, 0.0, draws, kernels)
                given = s.pooled_p_values(z, pairs, human, statistic, 0.0, draws, kernels, weights)
                assert given == alone or all(map(math.isnan, given + alone)), (statistic, engine)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_perm_both_by_item_recounts_each_trial(data):
    """PERM-BOTH of Kendall-like tau and acc_eq grouped by item at epsilon 0
    (every pair of variants' trials from one kernel call) equals recounting
    each trial's swapped z-scores (bit c of a trial's draw swaps cell c),
    for each engine; both ways round in one call; NaN where the humans tie
    every pair (Kendall-like tau has no pair to count)."""
    from bleukit.engines import ENGINES
    from bleukit.meta.pairs import pair_counts

    cell = st.sampled_from([0.0, 1.0, 2.0, 2.5, 4.0])
    shape = st.lists(st.lists(cell, min_size=5, max_size=5), min_size=3, max_size=3)
    a, b, human = data.draw(shape), data.draw(shape), data.draw(shape)
    draws = Draws.from_seed(15, 40, data.draw(st.integers(0, 99)))
    za, zb = s.zscores(a), s.zscores(b)
    items = [[human[k][j] for k in range(3)] for j in range(5)]

    def value(v, statistic):
        counts = [pair_counts([v[5 * k + j] for k in range(3)], items[j]) for j in range(5)]
        if statistic.startswith("kendall"):
            return sum(p.con - p.dis - p.tie_metric for p in counts)
        return sum(p.con + p.tie_both for p in counts)

    rng = draws.rng()
    swaps = [rng.getrandbits(15) for _ in range(draws.count)]
    for statistic in ("kendall_like_item", "acc_eq_item"):
        expected = []
        for x, y in ((za, zb), (zb, za)):
            observed = value(y, statistic) - value(x, statistic)
            diffs = []
            for bits in swaps:
                kept = [bits >> c & 1 == 0 for c in range(15)]
                now_x = [p if k else q for p, q, k in zip(x, y, kept)]
                now_y = [q if k else p for p, q, k in zip(x, y, kept)]
                diffs.append(value(now_y, statistic) - value(now_x, statistic))
            expected.append(sum(d >= observed for d in diffs) / len(diffs))
        if statistic.startswith("kendall") and all(len(set(row)) == 1 for row in items):
            # every pair tied by the humans: no DARR pair, no test
            expected = [math.nan, math.nan]
        for engine in ENGINES.names():
            got = s.item_p_values([za, zb], [(0, 1), (1, 0)], human, statistic, 0.0, draws,
                                  meta_kernels(ENGINES.get(engine)))  # fmt: skip
            assert got == expected or all(map(math.isnan, got + expected)), (statistic, engine)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_perm_both_of_calibrated_acc_eq_calibrates_each_trial_again(data):
    """PERM-BOTH of acc_eq tie-calibrated by item: each trial's swapped
    z-scores calibrated again on their own (``statistics.calibrated_acc_eq``
    of each side), the share of trials reaching the observed difference;
    the same on both engines."""
    from bleukit.engines import ENGINES

    cell = st.sampled_from([0.0, 1.0, 2.0, 2.5, 4.0])
    shape = st.lists(st.lists(cell, min_size=4, max_size=4), min_size=3, max_size=3)
    a, b, human = data.draw(shape), data.draw(shape), data.draw(shape)
    draws = Draws.from_seed(12, 30, data.draw(st.integers(0, 99)))
    za, zb = s.zscores(a), s.zscores(b)

    def value(flat):
        rows = [flat[k : k + 4] for k in (0, 4, 8)]
        return statistics.calibrated_acc_eq(statistics.groups(rows, human, "item")).value

    observed = value(zb) - value(za)
    rng = draws.rng()
    diffs = []
    for _ in range(draws.count):
        bits = rng.getrandbits(12)
        v1 = [y if bits >> c & 1 else x for c, (x, y) in enumerate(zip(za, zb))]
        v2 = [x if bits >> c & 1 else y for c, (x, y) in enumerate(zip(za, zb))]
        diffs.append(value(v2) - value(v1))
    # the means of four items' shares: compared as the counts they are
    expected = sum(round((d - observed) * 4 * 3, 9) >= 0 for d in diffs) / draws.count
    for engine in ENGINES.names():
        assert (
            s.perm_both_calibrated(za, zb, human, draws, meta_kernels(ENGINES.get(engine)))
            == expected
        )
    assert s.perm_both_calibrated(za, za, human, draws, meta_kernels(ENGINES.get("c"))) == 1.0


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["none", "system"]), st.data())
def test_pairwise_test_of_calibrated_acc_eq_is_the_exact_sign_flip_tail(by, data):
    """Not grouped and by system, tie-calibrated acc_eq is tested by
    swapping pair outcomes at each variant's epsilon: its p-value is the
    binomial tail of the pairs only b gets right over those only a does,
    counted here pair by pair."""
    from bleukit.engines import ENGINES
    from bleukit.meta.pairs import _agrees_at
    from bleukit.meta.signflip import sign_flip_p_value

    cell = st.sampled_from([0.0, 1.0, 2.0, 2.5, 4.0])
    shape = st.lists(st.lists(cell, min_size=4, max_size=4), min_size=3, max_size=3)
    a, b, human = data.draw(shape), data.draw(shape), data.draw(shape)
    eps_a, eps_b = (data.draw(st.sampled_from([0.0, 0.5, 1.0, 2.0])) for _ in range(2))
    wins = losses = 0
    for (ma, h), (mb, _) in zip(statistics.groups(a, human, by), statistics.groups(b, human, by)):
        for i in range(len(h)):
            for j in range(i + 1, len(h)):
                ok_a = _agrees_at(ma[i] - ma[j], h[i] - h[j], eps_a)
                ok_b = _agrees_at(mb[i] - mb[j], h[i] - h[j], eps_b)
                wins += ok_b and not ok_a
                losses += ok_a and not ok_b
    expected = sign_flip_p_value(wins, losses)
    for engine in ENGINES.names():
        got = s.pairwise_calibrated((a, eps_a), (b, eps_b), human, by, Draws.from_seed(12, 5, 0),
                                    meta_kernels(ENGINES.get(engine)))  # fmt: skip
        assert got == expected


def test_calibrated_statistics_are_tested_and_name_their_test(corpus):
    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    result = study([bleu, chrf], corpus, judged_by(chrf, *corpus), samples=0, trials=40,
                   calibrate=("none", "system"))  # fmt: skip
    tests = {x.statistic: x.test for x in result.significance}
    assert tests["acc_eq_item_calibrated"] == "perm-both-recalibrated"
    for name in ("acc_eq_none_calibrated", "acc_eq_system_calibrated"):
        assert tests[name] == "pairwise-permutation"
    assert tests["pearson"] == tests["acc_eq_none"] == "perm-both"
    assert set(tests) == set(result.settings.tested_statistics())
    # chrF judged by itself is better everywhere it is calibrated
    sig = {x.statistic: x for x in result.significance}
    for name in ("acc_eq_item_calibrated", "acc_eq_none_calibrated", "acc_eq_system_calibrated"):
        assert sig[name].order == (1, 0) and sig[name].p[1, 0] <= 0.05, name
        assert sig[name].clusters == (2, 1), name
    assert result.to_dict()["significance_tests"] == tests
    # without calibration by system or not grouped, those are not tested
    plain = study([bleu, chrf], corpus, judged_by(chrf, *corpus), samples=0, trials=20)
    assert "acc_eq_none_calibrated" not in {x.statistic for x in plain.significance}


def test_swap_tables_sum_to_the_statistics_difference():
    """With no cell swapped, a pair table's entries sum to b's statistic
    minus a's, in units of one pair."""
    from bleukit.meta import statistics as st

    human = [[1.0, 5.0, 2.0], [2.0, 5.0, 2.0], [3.0, 1.0, 2.0]]
    a = [[1.0, 1.0, 3.0], [2.0, 2.0, 2.0], [3.0, 3.0, 1.0]]
    b = [[3.0, 2.0, 1.0], [2.0, 3.0, 1.0], [1.0, 1.0, 1.0]]
    _, _, table = swap_tables(a, b, human, "darr", 0.0)
    darr = sum(st.darr_pairs(m, h, 0.0)[0] + st.darr_pairs(m, h, 0.0)[1]
               for m, h in st.groups(a, human, "item"))  # fmt: skip
    kl = st.kendall_like(b, human, 0.0) - st.kendall_like(a, human, 0.0)
    assert sum(table[0::4]) / darr == pytest.approx(kl)
    first, _, table = swap_tables(a, b, human, "acc_eq", 0.0)
    acc = st.grouped(b, human, "item", lambda m, h: st.acc_eq(st.pair_counts(m, h))) - st.grouped(
        a, human, "item", lambda m, h: st.acc_eq(st.pair_counts(m, h))
    )
    assert sum(table[0::4]) / len(first) == pytest.approx(acc)
    # swapping both cells of every pair exchanges a and b: the opposite sign
    assert sum(table[3::4]) == -sum(table[0::4])


def test_clusters_follow_mt_metrics_evals_rule():
    # 0 beats 1 significantly: 1 starts cluster 2; 2 is beaten by nothing in it
    p = {(0, 1): 0.01, (0, 2): 0.01, (1, 2): 0.3}
    assert s.assign_clusters([0, 1, 2], p, 0.05) == {0: 1, 1: 2, 2: 2}
    p = {(0, 1): 0.2, (0, 2): 0.04, (1, 2): 0.3}
    assert s.assign_clusters([0, 1, 2], p, 0.05) == {0: 1, 1: 1, 2: 2}


def test_grid_names_and_shortlist(corpus):
    names = s.grid_names("BLEUw4", [("max_order", [2, 3]), ("lowercase", [True, False])])
    assert names == [
        f"BLEUw4[max_order={n},lowercase={c}]" for n in (2, 3) for c in ("true", "false")
    ]
    assert [bleukit.load_metric(n).config.max_order for n in names] == [2, 2, 3, 3]
    with pytest.raises(InputError, match="names a field twice"):
        s.grid_names("BLEUw4", [("max_order", [2]), ("max_order", [3])])
    chrf = bleukit.load_metric("chrF")
    variants = [chrf, *(bleukit.load_metric(n) for n in names)]
    result = s.run(variants, collect(variants, *corpus), judged_by(chrf, *corpus),
                   s.Settings(samples=20, trials=20), listed=1)  # fmt: skip
    # the listed variant, and the grid's best for each statistic
    assert result.tested[0] == 0 and len(set(result.tested)) == len(result.tested) > 1
    best_pearson = max(range(1, 5), key=lambda k: result.variants[k].system["pearson"])
    assert best_pearson in result.tested
    untested = [k for k in range(5) if k not in result.tested]
    for k in untested:
        assert result.variants[k].intervals == {}
        assert math.isnan(result.variants[k].system["soft_pairwise_accuracy"])
    data = result.to_dict()
    assert [v["tested"] for v in data["variants"]] == [k in result.tested for k in range(5)]
    assert set(data["variants"][0]["system"]) == {*s.SYSTEM, s.SPA}
    assert set(data["variants"][0]["segment"]) == set(s.SEGMENT)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False) | st.sampled_from([0.1, 1e-300, 3.0]),
             min_size=1, max_size=40),
    st.data(),
)  # fmt: skip
def test_exact_sums_are_fsums_values(values, data):
    """The study's exact integer sums of resamples (the item statistics'),
    gathered in 31-bit limbs by either kernel, give math.fsum's floats, any
    values."""
    from bleukit.core.resampling import FlatResamples

    idx = data.draw(st.lists(st.integers(0, len(values) - 1), min_size=1, max_size=60))
    expected = math.fsum(values[i] for i in idx)
    for engine in AVAILABLE:
        resamples = s._Resamples(FlatResamples([idx]), meta_kernels(ENGINES.get(engine)))
        assert resamples.totals([s._ExactSums(values)]) == [[expected]]


def test_an_undefined_statistic_gets_no_test_and_no_cluster(corpus):
    """Constant human scores: the correlations and Kendall-like tau are
    undefined (NaN); they got a p-value of 0.0 (or NaN) and a second
    cluster. Now they are untested, the JSON is strict, and notes say why."""
    import json

    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    flat = Judgements("flat", {name: (2.0,) * N for name in SYSTEMS})
    result = study([chrf, bleu], corpus, flat, samples=20, trials=40)
    sig = {x.statistic: x for x in result.significance}
    for name in ("pearson", "spearman", "kendall_b", "kendall_c", "kendall_like_item"):
        assert all(math.isnan(v.value(name)) for v in result.variants)
        assert sig[name].untested and sig[name].p == {} and set(sig[name].clusters) == {0}
    assert not sig["acc_eq_item"].untested and sig["acc_eq_item"].p
    data = result.to_dict()
    text = json.dumps(data, allow_nan=False)  # strict: no NaN anywhere
    assert "pearson" in data["untested"] and "pearson" not in data["significance"]
    assert all(v["clusters"].get("pearson") is None for v in data["variants"])
    assert any("the humans score every system alike" in n for n in data["notes"])
    assert any("the humans tie every pair" in n for n in data["notes"]) and "NaN" not in text


def test_kendall_like_tau_at_a_da_threshold_is_untested_not_nan(corpus):
    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    result = study([chrf, bleu], corpus, judged_by(bleu, *corpus), threshold=25.0, trials=30)
    data = result.to_dict()
    for name in ("kendall_like_none", "kendall_like_system"):
        assert name in data["untested"] and name not in data["significance_tests"]
    assert any("not defined at a threshold other than 0 (25)" in n for n in data["notes"])


def test_a_study_too_small_to_separate_says_so(corpus):
    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    hyps, refs = corpus
    two = study([chrf, bleu], (hyps[:2], refs), judged_by(bleu, hyps[:2], refs), trials=20)
    assert all(abs(v.system["pearson"]) == 1 for v in two.variants)
    assert any(n.startswith("2 systems: every system-level correlation is +1 or -1")
               for n in two.notes)  # fmt: skip
    assert any("1/2^2 = 0.2500" in n for n in two.notes)
    four = study([chrf, bleu], corpus, judged_by(bleu, *corpus), trials=20)
    assert any("1/2^4 = 0.0625" in n for n in four.notes)
    assert not any("every system-level correlation" in n for n in four.notes)
    untested = study([chrf, bleu], corpus, judged_by(bleu, *corpus), trials=0, samples=0)
    assert not any("PERM-BOTH" in n for n in untested.notes)


@pytest.mark.parametrize("threshold", [math.nan, math.inf, -1.0])
def test_a_threshold_is_a_finite_number_at_least_zero(threshold):
    with pytest.raises(InputError, match="expected a finite number, 0 or more"):
        s.Settings(threshold=threshold).check()


def test_williams_test_beside_perm_both(corpus):
    """System-level Pearson's r is also tested by the Williams test, from
    the variants' r's and their correlation with each other over the
    systems; where it separates nothing, a note says how many systems it
    would need."""
    from bleukit.meta.williams import williams_p

    variants = [bleukit.load_metric(n) for n in ("chrF", "BLEUw4", "TER")]
    result = study(variants, corpus, judged_by(variants[0], *corpus), samples=0, trials=20)
    w = result.williams
    assert w is not None and w.test == "williams" and len(w.p) == 3
    for (x, y), p in w.p.items():
        a, b = result.variants[x], result.variants[y]
        assert a.system["pearson"] >= b.system["pearson"]
        between = statistics.pearson(a.system_scores, b.system_scores)
        assert p == williams_p(a.system["pearson"], b.system["pearson"], between, len(SYSTEMS))
    data = result.to_dict()["williams"]
    assert data["statistic"] == "pearson" and len(data["pairs"]) == 3
    first, second = w.order[:2]
    separated = w.p[first, second] <= s.ALPHA
    assert separated != any("not separated by the Williams test" in n for n in result.notes)
    hyps, refs = corpus
    three = study(variants, (hyps[:3], refs), judged_by(variants[0], hyps[:3], refs),
                  samples=0, trials=20)  # fmt: skip
    assert three.williams is None and three.to_dict()["williams"] is None


def test_segment_correlations_on_request(corpus):
    """--correlations adds mt-metrics-eval's segment-level correlations as
    point values: judged by itself, chrF correlates perfectly; they get no
    test, and their best is called the highest, untested."""
    from bleukit.report.meta import best_lines

    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    names = ("pearson_none", "kendall_b_item", "tau_23_system")
    result = study([chrf, bleu], corpus, judged_by(chrf, *corpus), samples=0, trials=20,
                   correlations=names)  # fmt: skip
    mine, other = result.variants
    assert mine.segment["pearson_none"] == pytest.approx(1.0, abs=1e-12)
    assert mine.segment["tau_23_system"] == 1.0 and other.segment["tau_23_system"] < 1.0
    assert not any(sig.statistic in names for sig in result.significance)
    assert any(
        line.startswith("highest pearson none (untested): chrF") for line in best_lines(result)
    )
    with pytest.raises(InputError, match="correlation 'pearson_items': expected one of"):
        s.Settings(correlations=("pearson_items",)).check()


def test_soft_pairwise_accuracy_of_segment_scores_as_mt_metrics_eval(corpus):
    """--spa segments tests the metric's segment scores as the humans' are,
    with the same draws: a metric judged by its own sentence scores gets
    exactly 1, on common and on rated segments; the corpus test (the
    default) differs; the output names the test."""
    from bleukit.report.meta import about

    chrf = bleukit.load_metric("chrF")
    for judgements in (judged_by(chrf, *corpus), judged_apart(chrf, *corpus)):
        mine = study([chrf], corpus, judgements, samples=0, trials=40, spa="segments")
        assert mine.variants[0].system["soft_pairwise_accuracy"] == 1.0
        assert any(line.startswith("Soft pairwise accuracy (--spa segments)")
                   for line in about(mine))  # fmt: skip
    corpus_test = study([chrf], corpus, judged_by(chrf, *corpus), samples=0, trials=40)
    assert corpus_test.variants[0].system["soft_pairwise_accuracy"] < 1.0
    with pytest.raises(InputError, match="spa 'words': expected corpus or segments"):
        s.Settings(spa="words").check()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_counted_pairs_are_the_pair_counts(data):
    """A system's pairs in PERM-BOTH by system (``_counted_pairs``): all its
    rated pairs for acc_eq, those the humans do not tie for Kendall-like
    tau, as ``pair_counts`` classifies them (NaN, -0.0, ties)."""
    from bleukit.meta.pairs import pair_counts, rated

    n = data.draw(st.integers(0, 30))
    cell = st.sampled_from([0.0, -0.0, 1.0, 2.5, -1.0, math.nan])
    metric = data.draw(st.lists(cell, min_size=n, max_size=n))
    human = data.draw(st.lists(cell, min_size=n, max_size=n))
    p = pair_counts(*rated(metric, human))
    assert s._counted_pairs(metric, human, False) == p.total
    assert s._counted_pairs(metric, human, True) == p.con + p.dis + p.tie_metric
