"""SentencePiece tokenizers (bleukit.tokenizers.spm) on a model trained here
from the WMT references (no published model can be fetched offline).
tox -e tok installs sentencepiece and sets BLEUKIT_REQUIRE_SPM=1, which
makes its absence a failure; tox -e oracle compares with sacrebleu's
flores101/flores200/spm tokenizers on the same model, byte for byte."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import bleukit
from bleukit.core.errors import BleukitError
from bleukit.metrics.bleu.signature import parse_signature

DATA = Path(__file__).parent / "data" / "wmt"
REF = DATA / "newstest2021.en-de.ref.A.txt"
HYP = DATA / "newstest2021.en-de.hyp.UF.txt"

if not os.environ.get("BLEUKIT_REQUIRE_SPM"):
    pytest.importorskip("sentencepiece", reason="sentencepiece not installed (tox -e tok)")


def train(folder: Path, vocab: int) -> Path:
    import sentencepiece

    sentencepiece.SentencePieceTrainer.train(
        input=str(REF), model_prefix=str(folder / f"tiny{vocab}"), vocab_size=vocab,
        character_coverage=1.0, num_threads=1, minloglevel=2,
    )  # fmt: skip
    return folder / f"tiny{vocab}.model"


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spm")
    return train(folder, 300), train(folder, 500)


def lines(path: Path, n: int = 200) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:n]


def test_spm_tokenizes_as_the_model_encodes(models):
    import sentencepiece

    model = str(models[0])
    sp = sentencepiece.SentencePieceProcessor(model_file=model)
    hyps, refs = lines(HYP), lines(REF)
    v = bleukit.load_variant("sacrebleu", tokenizer="spm", tokenizer_model=model)
    assert v.tokenize(hyps[0]) == sp.encode(hyps[0].rstrip(), out_type=str)
    # the same score as pre-encoded text under no tokenization
    pre = bleukit.load_variant("sacrebleu", tokenizer="none")
    encoded = [
        [" ".join(sp.encode(x.rstrip(), out_type=str)) for x in side] for side in (hyps, refs)
    ]
    assert v.corpus_score(hyps, [refs]).score == pre.corpus_score(encoded[0], [encoded[1]]).score


def test_engines_agree(models):
    hyps, refs = lines(HYP), lines(REF)
    kw = {"tokenizer": "spm", "tokenizer_model": str(models[0])}
    c = bleukit.load_variant("BLEUw4", engine="auto", **kw)
    py = bleukit.load_variant("BLEUw4", engine="python", **kw)
    assert c.segment_stats(hyps, [refs]) == py.segment_stats(hyps, [refs])


def test_flores_models_come_from_sacrebleus_cache(models, tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with pytest.raises(BleukitError, match="flores200sacrebleuspm"):
        bleukit.load_variant("sacrebleu", tokenizer="flores200")
    (tmp_path / "models").mkdir()
    shutil.copy(models[0], tmp_path / "models" / "flores200sacrebleuspm")
    v = bleukit.load_variant("sacrebleu", tokenizer="flores200")
    by_path = bleukit.load_variant("sacrebleu", tokenizer="spm", tokenizer_model=str(models[0]))
    hyps, refs = lines(HYP), lines(REF)
    assert v.corpus_score(hyps, [refs]).score == by_path.corpus_score(hyps, [refs]).score
    sig = v.signature(1)
    assert sig.sacrebleu == "nrefs:1|case:mixed|eff:no|tok:flores200|smooth:exp|version:2.6.0"
    assert by_path.signature(1).sacrebleu is None  # sacrebleu cannot name a model file


def test_the_signature_names_the_model_by_its_digest(models):
    a = bleukit.load_variant("BLEUw4", tokenizer="spm", tokenizer_model=str(models[0]))
    b = bleukit.load_variant("BLEUw4", tokenizer="spm", tokenizer_model=str(models[1]))
    sa, sb = a.signature(1), b.signature(1)
    assert "|tok:spm.v1[sha256:" in sa.long and "|t:spm.v1[sha256:" in sa.short
    assert sa.long != sb.long and sa.digest != sb.digest
    parsed = parse_signature(sa.long)
    assert parsed.config.tokenizer_model == a.signature(1).long.split("[", 1)[1].split("]")[0]
    assert parse_signature(sa.short).config == parsed.config
    with pytest.raises(BleukitError, match="names a model by its digest"):
        bleukit.load_variant(
            "BLEUw4", tokenizer="spm", tokenizer_model=parsed.config.tokenizer_model
        )


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"tokenizer": "spm"}, "needs key 'tokenizer_model'"),
        ({"tokenizer": "13a", "tokenizer_model": "x.model"}, "takes no model"),
        ({"tokenizer": "spm", "tokenizer_model": "missing.model"}, "no such model file"),
        ({"tokenizer": "spm", "tokenizer_model": str(REF)}, "not a SentencePiece model"),
    ],
)
def test_bad_models_are_one_clear_error(overrides, message):
    with pytest.raises(BleukitError, match=message):
        bleukit.load_variant("BLEUw4", **overrides)


def test_compat_and_cli_take_sacrebleus_names(models, tmp_path, monkeypatch, capsys):
    from bleukit.compat.sacrebleu import BLEU
    from bleukit.compat.sacrebleu.cli import main

    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    (tmp_path / "models").mkdir()
    shutil.copy(models[0], tmp_path / "models" / "sacrebleu_tokenizer_spm.model")
    hyps, refs = lines(HYP), lines(REF)
    for name in ("spm", "flores101"):
        metric = BLEU(tokenize=name)
        metric.corpus_score(hyps, [refs])
        assert str(metric.get_signature()) == (
            "nrefs:1|case:mixed|eff:no|tok:flores101|smooth:exp|version:2.6.0"
        )
    assert main([str(REF), "-i", str(HYP), "-tok", "spm", "-b"]) == 0
    assert capsys.readouterr().out.strip()
