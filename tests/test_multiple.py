"""Multiple-testing corrections and ranking clusters
(bleukit/significance/multiple.py): hand-worked cases (R's ``p.adjust``
formulas) and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.errors import InputError
from bleukit.significance.multiple import CORRECTIONS, Cluster, adjust, clusters

P = [0.01, 0.02, 0.03, 0.04, 0.05]


def test_bonferroni_multiplies_by_the_number_of_tests_capped_at_one():
    assert adjust(P, "bonferroni") == pytest.approx([0.05, 0.1, 0.15, 0.2, 0.25])
    assert adjust([0.3, 0.5], "bonferroni") == [0.6, 1.0]


def test_holm_steps_down_and_stays_monotone():
    # sorted: 5 x 0.01, 4 x 0.02, 3 x 0.03, then max(0.09, 2 x 0.04), max(0.09, 0.05)
    assert adjust(P, "holm") == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])
    # order of the input is kept
    assert adjust([0.04, 0.01, 0.03], "holm") == pytest.approx([0.06, 0.03, 0.06])


def test_benjamini_hochberg_steps_up():
    # m p / k = 0.05 for every k
    assert adjust(P, "bh") == pytest.approx([0.05] * 5)
    # 0.01 x 3 / 1 = 0.03, 0.04 x 3 / 2 = 0.06, then min(0.06, 0.05 x 3 / 3 = 0.05)
    assert adjust([0.01, 0.04, 0.05], "bh") == pytest.approx([0.03, 0.05, 0.05])


def test_none_empty_and_bad_values():
    assert adjust(P, "none") == P
    assert adjust([], "holm") == []
    with pytest.raises(InputError, match="p-value 2 is nan"):
        adjust([0.1, float("nan")])
    with pytest.raises(InputError, match="p-value 1 is 1.5"):
        adjust([1.5])
    with pytest.raises(InputError, match="unknown correction 'sidak'"):
        adjust([0.1], "sidak")  # type: ignore[arg-type]


@given(st.lists(st.floats(0, 1), max_size=12), st.sampled_from(CORRECTIONS))
def test_corrections_never_lower_a_p_value_and_stay_in_range(p, method):
    out = adjust(p, method)
    assert len(out) == len(p)
    assert all(0 <= a <= 1 and a >= x - 1e-15 for a, x in zip(out, p))


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_lies_between_the_raw_and_bonferroni_and_bh_below_holm(p):
    holm, bonferroni, bh = adjust(p, "holm"), adjust(p, "bonferroni"), adjust(p, "bh")
    assert all(h <= b + 1e-15 for h, b in zip(holm, bonferroni))
    assert all(x <= h + 1e-15 for x, h in zip(bh, holm))


def _worse(pairs: set[tuple[int, int]]):
    return lambda a, b: (a, b) in pairs


def test_clusters_split_where_a_system_loses_to_every_one_above():
    scores = [30.0, 29.5, 25.0, 24.8, 10.0]
    # 2 loses to 0 and 1; 3 loses to 0 and 1 but not to 2; 4 loses to all
    beats = {(2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (4, 1), (4, 2), (4, 3)}
    out = clusters(scores, _worse(beats))
    assert out == [Cluster((0, 1), 1, 2), Cluster((2, 3), 3, 4), Cluster((4,), 5, 5)]
    assert [c.rank for c in out] == ["1-2", "3-4", "5"]


def test_a_system_not_worse_than_some_system_above_joins_the_cluster():
    # 2 is worse than 0 but not than 1: one cluster, though 0 beats 2
    out = clusters([3.0, 2.0, 1.0], _worse({(1, 0), (2, 0)}))
    assert out == [Cluster((0,), 1, 1), Cluster((1, 2), 2, 3)]
    out = clusters([3.0, 2.0, 1.0], _worse({(2, 0)}))
    assert out == [Cluster((0, 1, 2), 1, 3)]


def test_lower_is_better_ranks_the_smallest_first():
    out = clusters([40.0, 30.0, 35.0], _worse({(2, 1), (0, 1), (0, 2)}), higher_is_better=False)
    assert out == [Cluster((1,), 1, 1), Cluster((2,), 2, 2), Cluster((0,), 3, 3)]


@given(st.lists(st.floats(0, 100), max_size=8), st.data())
def test_clusters_partition_the_systems_in_score_order(scores, data):
    n = len(scores)
    pairs = data.draw(
        st.sets(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0))))
    )
    out = clusters(scores, _worse(pairs))
    members = [m for c in out for m in c.members]
    assert sorted(members) == list(range(n))
    assert [scores[m] for m in members] == sorted(scores, reverse=True)
    assert sum(c.last - c.first + 1 for c in out) == n
    # no significance at all: one cluster
    if n:
        assert len(clusters(scores, _worse(set()))) == 1
