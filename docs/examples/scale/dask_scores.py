"""Corpus BLEU and chrF++, per-domain scores and sentence scores of a Dask
DataFrame on a local cluster of two worker processes (docs/scale.md; run
by tests/test_executors.py in tox -e dask)."""

import dask.dataframe as dd
import pandas as pd
from dask.distributed import Client, LocalCluster

import bleukit.dask

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        with Client(cluster):
            df = pd.DataFrame(
                {
                    "hyp": ["the cat sat on the mat", "a dog ran", "it rains", "good night"],
                    "ref": ["the cat sat on a mat", "a dog ran away", "it rained", "good night"],
                    "domain": ["news", "news", "chat", "chat"],
                }
            )
            ddf = dd.from_pandas(df, npartitions=2)
            bleu = bleukit.dask.corpus_score(ddf, hyp="hyp", refs="ref", variant="sacrebleu")
            chrf = bleukit.dask.corpus_score(ddf, hyp="hyp", refs="ref", variant="chrF++")
            print(f"{bleu.score:.2f} {chrf.score:.2f} {bleu.signature.short}")
            by_domain = bleukit.dask.corpus_score(ddf, hyp="hyp", refs="ref", by="domain")
            print({domain: round(r.score, 2) for domain, r in sorted(by_domain.items())})
            scored = bleukit.dask.sentence_scores(
                ddf, hyp="hyp", refs="ref", variant="sacrebleu[effective_order=true]", column="bleu"
            )
            print(scored["bleu"].round(2).compute().tolist())
