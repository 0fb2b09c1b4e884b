from collections import Counter

from bleukit.core.ngrams import count_ngrams, max_counts


def test_counts_every_order_up_to_max():
    c = count_ngrams(["a", "b", "a", "b"], 3)
    assert c[("a",)] == 2 and c[("a", "b")] == 2 and c[("b", "a")] == 1
    assert c[("a", "b", "a")] == 1 and c[("b", "a", "b")] == 1
    assert sum(c.values()) == 4 + 3 + 2


def test_order_longer_than_sentence():
    assert sum(count_ngrams(["x"], 18).values()) == 1
    assert count_ngrams([], 4) == Counter()


def test_string_of_characters_counts_substrings():
    as_tuples = count_ngrams(list("abab"), 3)
    as_string = count_ngrams("abab", 3)
    assert {"".join(k): v for k, v in as_tuples.items()} == dict(as_string)


def test_max_counts_clips_to_the_most_generous_reference():
    merged = max_counts([Counter({("the",): 2, ("cat",): 1}), Counter({("the",): 1, ("mat",): 3})])
    assert merged == {("the",): 2, ("cat",): 1, ("mat",): 3}
    assert max_counts([]) == {}


def test_count_ngrams_from_a_lowest_order():
    assert count_ngrams(["a", "b", "c"], 3, min_order=2) == {
        ("a", "b"): 1,
        ("b", "c"): 1,
        ("a", "b", "c"): 1,
    }
    assert count_ngrams("abc", 2, min_order=2) == {"ab": 1, "bc": 1}
    assert count_ngrams(["a"], 4, min_order=2) == {}
