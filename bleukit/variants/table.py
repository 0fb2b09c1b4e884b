"""The built-in variants, validated (generated from the YAML files beside
this module by scripts/build_variant_table.py: do not edit)."""

from typing import Any

BUILTIN: dict[str, dict[str, Any]] = {
    "BLEUc18": {
        "name": "BLEUc18",
        "description": "Character 18-gram BLEU (Denoual & Lepage 2005): "
        "sacrebleu's char tokenization with whitespace dropped, "
        "otherwise as BLEUw4; needs no word segmentation.",
        "tokenizer": "char.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 18,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "BLEUc18-space": {
        "name": "BLEUc18-space",
        "description": "Character 18-gram BLEU with the space as a "
        "character (the other reading of Denoual & Lepage "
        "2005): each run of whitespace becomes one space, "
        "which takes part in the n-grams; otherwise as "
        "BLEUc18.",
        "tokenizer": "char-space.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 18,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "BLEUw4": {
        "name": "BLEUw4",
        "description": "Word 4-gram BLEU as Papineni et al. (2002) define it: "
        "mteval-v13a tokenization, case kept, closest reference "
        "length, uniform weights, no smoothing.",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "BLEUw4-shortest": {
        "name": "BLEUw4-shortest",
        "description": "BLEU with the shortest reference length, as "
        "NIST's mteval scripts before v13 (2009) computed "
        "it: 13a tokenization, case kept, no smoothing. "
        "This is BLEU, not the NIST metric (Doddington "
        "2002).",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "shortest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "GLEU": {
        "name": "GLEU",
        "description": "GLEU (Wu et al. 2016): the lesser of n-gram precision and "
        "recall over orders 1 to 4, summed over the corpus from each "
        "segment's best reference, on 13a tokens with case kept: HF "
        "evaluate's google_bleu (whose tokenizer_13a is these rules), "
        "NLTK's corpus_gleu on those tokens. 0-100.",
        "metric": "gleu.v1",
        "tokenizer": "13a.v1",
        "split": "unicode.v1",
        "lowercase": False,
        "min_order": 1,
        "max_order": 4,
    },
    "GLEU-nltk": {
        "name": "GLEU-nltk",
        "description": "GLEU as NLTK's corpus_gleu and sentence_gleu compute it "
        "on str.split() tokens (no tokenization), orders 1 to 4. "
        "0-100 (NLTK: 0-1).",
        "metric": "gleu.v1",
        "tokenizer": "none.v1",
        "split": "unicode.v1",
        "lowercase": False,
        "min_order": 1,
        "max_order": 4,
    },
    "NIST": {
        "name": "NIST",
        "description": "NIST (Doddington 2002) as mteval-v13a.pl -c computes it: its "
        "13a tokenization with case kept, n-grams up to 5 weighed by "
        "their information in all the references, NIST's brevity "
        "penalty. mteval's default lowercases A-Z first: --set "
        "lowercase=ascii. Not to be confused with the nist BLEU "
        "variant (BLEUw4-shortest).",
        "metric": "nist.v1",
        "tokenizer": "13a.v1",
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 5,
    },
    "TER": {
        "name": "TER",
        "description": "TER (Snover et al. 2006): words lowercased, no Tercom "
        "normalization, with punctuation, shifts searched as Tercom "
        "and sacrebleu 2.x do (sacrebleu's default TER). Lower is "
        "better.",
        "metric": "ter.v1",
        "normalized": False,
        "no_punct": False,
        "asian_support": False,
        "case_sensitive": False,
    },
    "chrF": {
        "name": "chrF",
        "description": "chrF (Popović 2015): character 6-gram F-score with beta 2, "
        "whitespace removed, mixed case, sacrebleu 2.x's "
        "effective-order averaging (sacrebleu's default chrF).",
        "metric": "chrf.v1",
        "char_order": 6,
        "word_order": 0,
        "beta": 2,
        "lowercase": False,
        "whitespace": False,
        "eps_smoothing": False,
    },
    "chrF++": {
        "name": "chrF++",
        "description": "chrF++ (Popović 2017): chrF with word unigrams and bigrams "
        "(sacrebleu's -m chrf -cw 2).",
        "metric": "chrf.v1",
        "char_order": 6,
        "word_order": 2,
        "beta": 2,
        "lowercase": False,
        "whitespace": False,
        "eps_smoothing": False,
    },
    "compare-mt": {
        "name": "compare-mt",
        "description": "compare-mt 0.2.10's corpus BLEU (scorers.BleuScorer) "
        "on its own words (lines stripped and split on single "
        "spaces): NLTK's per-segment totals of at least one, "
        "and an order with no match counted as precision 1.",
        "tokenizer": "none.v1",
        "tokenizer_model": None,
        "split": "compare-mt.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "compare-mt.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "at-least-one",
    },
    "hf-bleu": {
        "name": "hf-bleu",
        "description": "HF evaluate's bleu metric (tensorflow/nmt's compute_bleu) "
        "with its defaults: its tokenizer_13a (sacrebleu's 13a "
        "rules), case kept, the shortest reference length, order "
        "4, no smoothing. 0-100 (evaluate: 0-1).",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "shortest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "hf-bleu-smooth": {
        "name": "hf-bleu-smooth",
        "description": "HF evaluate's bleu with smooth=True: one added to "
        "the matches and the totals of every order, "
        "unigrams included (tensorflow/nmt); otherwise as "
        'hf-bleu. No other smoothing gives its numbers: "a '
        'b c" against "a b d" scores 70.7107.',
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "shortest.v1",
        "smoothing": "add-one-all.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "marian-bleu": {
        "name": "marian-bleu",
        "description": "Marian's --valid-metrics bleu (and bleu-detok, its "
        "deprecated alias) with a SentencePiece or factored "
        "vocabulary: its 13a rules, each Han, kana or Thai "
        "character a token, tokens split at ASCII whitespace "
        "only, one reference, no smoothing. Marian computes in "
        "float32 and scores the reference after a round trip "
        "through its vocabulary (SentencePiece's normalisation "
        "applied).",
        "tokenizer": "marian.v1",
        "tokenizer_model": None,
        "split": "ascii.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "mteval-bleu": {
        "name": "mteval-bleu",
        "description": "BLEU as NIST's mteval-v13a.pl -c computes it (its "
        "bleu_score): 13a tokenization with case kept, closest "
        "reference length, and its smoothing (t2t-exp.v1): the "
        "k-th order without a match counts 1/2^k matches, and "
        "an order without any n-gram counts as precision 1. "
        "Equal to BLEUw4 wherever every order has a match. "
        "mteval's default (A-Z lowercased) is "
        "mteval-bleu[lowercase=ascii].",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "t2t-exp.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "multi-bleu": {
        "name": "multi-bleu",
        "description": "Moses multi-bleu.perl on pre-tokenized text: tokens "
        "split on ASCII whitespace only, closest reference, no "
        "smoothing (zero matches score 0).",
        "tokenizer": "none.v1",
        "tokenizer_model": None,
        "split": "ascii.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "multi-bleu-detok": {
        "name": "multi-bleu-detok",
        "description": "Moses multi-bleu-detok.perl on raw text: "
        "mteval-v13a's tokenization, tokens split on "
        "ASCII whitespace, closest reference, no "
        "smoothing (= multi-bleu with tokenizer 13a).",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "ascii.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "nist": {
        "name": "nist",
        "description": "The old name of BLEUw4-shortest (BLEU with the shortest "
        "reference length, as mteval before v13), kept so that "
        "scripts and papers that name it still load the same variant "
        "and signature. It is BLEU, not the NIST metric.",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "shortest.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "nltk": {
        "name": "nltk",
        "description": "NLTK corpus_bleu defaults on whitespace-split text: uniform "
        "4-gram weights, no smoothing (method0), per-segment totals "
        "of at least one.",
        "tokenizer": "none.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "nltk-method0.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "at-least-one",
    },
    "nltk-auto-reweigh": {
        "name": "nltk-auto-reweigh",
        "description": "NLTK corpus_bleu (and sentence_bleu) with "
        "auto_reweigh=True: as nltk, but a corpus of h < "
        "4 hypothesis tokens weighs its first h orders "
        "1/h each. Equal to nltk on any corpus of four "
        "tokens or more.",
        "tokenizer": "none.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "auto-reweigh",
        "ref_length": "closest.v1",
        "smoothing": "nltk-method0.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "at-least-one",
    },
    "sacrebleu": {
        "name": "sacrebleu",
        "description": "sacrebleu 2.x defaults: 13a, mixed case, closest "
        "reference, exp smoothing, order 4, no effective order.",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "exp.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "sacrebleu-sentence": {
        "name": "sacrebleu-sentence",
        "description": "sacrebleu 2.x sentence BLEU: the sacrebleu "
        "variant with effective order, as sacrebleu's "
        "sentence_bleu and --sentence-level compute it.",
        "tokenizer": "13a.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "exp.v1",
        "smoothing_value": None,
        "effective_order": True,
        "totals": "exact",
    },
    "t2t-bleu": {
        "name": "t2t-bleu",
        "description": "tensor2tensor's bleu_hook.bleu_wrapper (t2t-bleu's "
        "BLEU_uncased): its bleu_tokenize with its quirks "
        "(t2t.v1: mteval-v14's international rules, but a "
        'backslash is never split off, "not a digit" is \\d, and '
        "the line is not stripped), lowercased, order 4, mteval's "
        "1/2^k for an order with no match and an order with no "
        "n-gram skipped (t2t-exp.v1). t2t returns a float32, so "
        "it agrees to float32 precision; BLEU_cased is "
        "t2t-bleu[lowercase=false].",
        "tokenizer": "t2t.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": True,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest.v1",
        "smoothing": "t2t-exp.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
    "torchtext": {
        "name": "torchtext",
        "description": "torchtext's bleu_score (torchtext.data.metrics) on "
        "whitespace-split tokens: order 4, uniform weights, the "
        "closest reference length with a tie going to the "
        "reference listed first, no smoothing. torchtext "
        "computes the precisions in float32, so it agrees to "
        "float32 precision; token lists go through "
        "bleukit.compat.torchtext.bleu_score.",
        "tokenizer": "none.v1",
        "tokenizer_model": None,
        "split": "unicode.v1",
        "lowercase": False,
        "max_order": 4,
        "weights": "uniform",
        "ref_length": "closest-first.v1",
        "smoothing": "none.v1",
        "smoothing_value": None,
        "effective_order": False,
        "totals": "exact",
    },
}
