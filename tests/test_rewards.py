"""bleukit.rewards: TRL-style reward functions equal sentence_scores (text,
conversational completions, several references, token ids), pickle, and
refuse bad input in one line."""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import InputError
from bleukit.rewards import DEFAULT_VARIANT, SentenceReward

HYPS = ["the cat sat on the mat", "a dog ran", "it rains today", ""]
REFS_A = ["the cat sat on a mat", "a dog ran away", "it rained today", "nothing"]
REFS_B = ["a cat was on the mat", "the dog ran", "rain today", "none"]


@pytest.mark.parametrize("variant", [DEFAULT_VARIANT, "nltk[smoothing=nltk-method7]", "chrF++"])
def test_rewards_equal_sentence_scores(variant):
    reward = SentenceReward(variant, refs="reference")
    v = bleukit.load_metric(variant)
    expected = [r.score * 0.01 for r in v.sentence_scores(HYPS, [REFS_A])]
    assert reward(HYPS, reference=REFS_A, prompts=["p"] * 4) == expected


def test_conversational_completions_and_several_references():
    reward = SentenceReward(refs=["reference", "extra"], scale=1.0)
    chats = [[{"role": "assistant", "content": h}] for h in HYPS]
    # the first completion has three references, the others two
    first = [REFS_A[0], "the cat is on the mat"]
    got = reward(chats, reference=[first, *REFS_A[1:]], extra=REFS_B)
    v = bleukit.load_variant(DEFAULT_VARIANT)
    streams = [[first[0], *REFS_A[1:]], ["the cat is on the mat", *REFS_B[1:]],
               [REFS_B[0], None, None, None]]  # fmt: skip
    assert got == [r.score for r in v.sentence_scores(HYPS, streams)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 9), max_size=12), st.lists(st.integers(0, 9), max_size=12)
        ),
        min_size=1,
        max_size=8,
    )
)
def test_token_ids_are_matched_as_ids(pairs):
    """Ids as decimal words split on spaces: the n-grams of the ids, so the
    score equals that of text whose words stand one-to-one for the ids."""
    reward = SentenceReward(token_ids=True, scale=1.0)
    ids = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    got = reward(["ignored"] * len(ids), completion_ids=ids, reference=refs)
    words = "zero one two three four five six seven eight nine".split()
    v = bleukit.load_variant(DEFAULT_VARIANT, tokenizer="none.v1")
    text = [" ".join(words[i] for i in seq) for seq in ids]
    ref_text = [" ".join(words[i] for i in seq) for seq in refs]
    assert got == [r.score for r in v.sentence_scores(text, [ref_text])]


def test_token_ids_from_arrays_and_nested_references():
    array = pytest.importorskip("array")
    reward = SentenceReward(token_ids=True, scale=1.0)
    ids = [array.array("q", [5, 6, 7, 8]), [1, 2]]

    class Tensor(list):  # anything with tolist(), as a torch tensor has
        def tolist(self):
            return list(self)

    # ids whose code points would be whitespace below plane 1 (9, 32, 0x3000)
    spaces = [9, 32, 0x3000, 1048575]
    assert reward(["a"], completion_ids=[spaces], reference=[spaces])[0] == pytest.approx(100.0)
    got = reward(["a", "b"], completion_ids=[Tensor(ids[0]), ids[1]],
                 reference=[[[5, 6, 7, 8], [9]], Tensor([1, 2, 3])])  # fmt: skip
    assert got[0] == pytest.approx(100.0, abs=1e-9) and 0 < got[1] < 100


def test_rewards_pickle_and_carry_a_name():
    reward = SentenceReward("chrF", refs="solution", scale=2.0)
    clone = pickle.loads(pickle.dumps(reward))
    assert clone(HYPS, solution=REFS_A) == reward(HYPS, solution=REFS_A)
    assert clone.__name__ == "chrF_reward" and "chrF" in repr(clone)
    assert reward([], solution=[]) == []


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda r: r(HYPS, prompts=HYPS),
            "no keyword argument 'reference' (references); given: prompts",
        ),
        (lambda r: r(HYPS, reference=REFS_A[:2]), "'reference' has 2 values for 4 completions"),
        (lambda r: r([1, 2], reference=[1, 2]), "completion 0 is int"),
        (lambda r: r(["a"], reference=[3]), "reference[0] is int"),
        (lambda r: r([[{"role": "assistant"}]], reference=["a"]), "completion 0 is list"),
    ],
)
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises(InputError, match=re.escape(message)):
        call(SentenceReward())


def test_token_id_errors():
    reward = SentenceReward(token_ids=True)
    with pytest.raises(InputError, match="reads the keyword argument completion_ids"):
        reward(["a"], reference=[[1]])
    with pytest.raises(InputError, match="2 completion_ids for 1 completions"):
        reward(["a"], completion_ids=[[1], [2]], reference=[[1]])
    with pytest.raises(InputError, match=r"completion_ids\[0\] holds something other than int"):
        reward(["a"], completion_ids=[[1.5]], reference=[[1]])
    with pytest.raises(
        InputError, match=r"completion_ids\[0\]: token ids must be between 0 and 1048575"
    ):
        reward(["a"], completion_ids=[[1, 1048576]], reference=[[1]])
    with pytest.raises(InputError, match="must be between 0"):
        reward(["a"], completion_ids=[[1]], reference=[[-1]])
    with pytest.raises(InputError, match="chrF cannot count ids"):
        SentenceReward("chrF", token_ids=True)
    with pytest.raises(InputError, match="at least one reference column"):
        SentenceReward(refs=[])


def test_called_as_trl_grpo_trainer_calls_reward_functions():
    """GRPOTrainer calls reward_func(prompts=, completions=, completion_ids=,
    **dataset columns, trainer_state=, log_extra=, log_metric=)."""
    reward = SentenceReward(refs="reference")
    got = reward(
        prompts=["p"] * 4,
        completions=HYPS,
        completion_ids=[[1, 2]] * 4,
        reference=REFS_A,
        trainer_state=object(),
        log_extra=lambda *a: None,
        log_metric=lambda *a: None,
    )
    v = bleukit.load_variant(DEFAULT_VARIANT)
    assert got == [r.score * 0.01 for r in v.sentence_scores(HYPS, [REFS_A])]
    ids = SentenceReward(token_ids=True)(prompts=["p"], completions=["x"], completion_ids=[[3, 4]],
                                         reference=[[3, 4]], trainer_state=None)  # fmt: skip
    assert ids == [pytest.approx(1.0)]


@pytest.mark.parametrize("column", ["te", b"te", 7])
def test_a_reference_column_that_is_not_one_value_per_completion_is_refused(column):
    # a string column gave every completion one character of it as reference
    with pytest.raises(InputError, match="'reference' is .*: expected one value per completion"):
        SentenceReward()(["t", "e"], reference=column)


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), -float("inf")])
def test_a_scale_that_is_not_finite_is_refused(scale):
    with pytest.raises(InputError, match="scale must be a finite number"):
        SentenceReward(scale=scale)


@pytest.mark.parametrize("scale", ["0.01", None, True])
def test_a_scale_that_is_not_a_number_is_refused(scale):
    with pytest.raises(InputError, match="scale must be a number"):
        SentenceReward(scale=scale)
