"""Sentence and corpus scores of a pandas DataFrame's columns, in place of
``df.apply`` row by row (docs/integrations.md; run by tests/test_frames.py
in tox -e dask)."""

import pandas as pd

import bleukit.frames

if __name__ == "__main__":
    df = pd.DataFrame(
        {
            "hyp": ["the cat sat on the mat", "a dog ran", "it rains"],
            "ref": ["the cat sat on a mat", "a dog ran away", "it rained"],
            "more_refs": [["a cat was on the mat"], [], ["rain", "it is raining"]],
        }
    )
    # instead of df.apply(lambda row: sacrebleu.sentence_bleu(row.hyp, [row.ref]).score, axis=1)
    df["bleu"] = bleukit.frames.sentence_scores(df["hyp"], df["ref"])
    df["chrf"] = bleukit.frames.sentence_scores(df["hyp"], df["ref"], variant="chrF")
    corpus = bleukit.frames.corpus_score(df["hyp"], (df["ref"], df["more_refs"]))
    print(df[["bleu", "chrf"]].round(2).values.tolist())
    print(f"{corpus.score:.2f} {corpus.signature.short}")
