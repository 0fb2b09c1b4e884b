"""Corpus BLEU and chrF++, per-domain scores and sentence scores of a Spark
DataFrame on local[2] (docs/scale.md; run by tests/test_executors.py in
tox -e spark, where Java is installed)."""

import os
import sys

from pyspark.sql import SparkSession

import bleukit.spark

if __name__ == "__main__":
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame(
        [
            ("the cat sat on the mat", "the cat sat on a mat", "news"),
            ("a dog ran", "a dog ran away", "news"),
            ("it rains", "it rained", "chat"),
            ("good night", "good night", "chat"),
        ],
        "hyp string, ref string, domain string",
    ).repartition(2)
    bleu = bleukit.spark.corpus_score(df, hyp="hyp", refs="ref", variant="sacrebleu")
    chrf = bleukit.spark.corpus_score(df, hyp="hyp", refs="ref", variant="chrF++")
    print(f"{bleu.score:.2f} {chrf.score:.2f} {bleu.signature.short}")
    by_domain = bleukit.spark.corpus_score(df, hyp="hyp", refs="ref", by="domain")
    print({domain: round(r.score, 2) for domain, r in sorted(by_domain.items())})
    scored = bleukit.spark.sentence_scores(
        df, hyp="hyp", refs="ref", variant="sacrebleu[effective_order=true]", column="bleu"
    )
    print(sorted(round(row.bleu, 2) for row in scored.collect()))
    spark.stop()
