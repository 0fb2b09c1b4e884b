"""Reading sacrebleu's signatures (``metrics/sacrebleu_signature``): what
sacrebleu 1.4.14, 1.5.1, 2.0.0 and 2.6.0 printed on the WMT data
(tests/golden/sacrebleu_signatures.json, make_sacrebleu_signature_golden.py)
is reproduced by ``verify`` from the printed line alone; every sacrebleu
signature bleukit writes reads back as its variant; malformed ones are one
clear error naming the field."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.analysis.verify import verify
from bleukit.cli import main
from bleukit.core.errors import ConfigError
from bleukit.core.record import replace
from bleukit.metrics import metric_for, read_signature
from bleukit.metrics.registry import load_any_config
from bleukit.metrics.sacrebleu_signature import SacrebleuSignature, parse_sacrebleu_signature
from bleukit.metrics.signatures import signature_for

HERE = Path(__file__).parent
DATA = HERE / "data" / "wmt"
CASES = json.loads((HERE / "golden" / "sacrebleu_signatures.json").read_text("utf-8"))["cases"]


@functools.cache
def lines(name: str) -> list[str]:
    return (DATA / name).read_text("utf-8")[:-1].split("\n")


def _split(line: str) -> tuple[str, str]:
    signature, _, rest = line.partition(" = ")
    return signature, rest.split()[0]


@functools.cache
def score(config: object, name: str, system: str, refs: tuple[str, ...], newline: bool) -> float:
    """bleukit's score, once per variant and data (the releases share most)."""
    end = "\n" if newline else ""
    streams = [[line + end for line in lines(f"{name}.ref.{r}.txt")] for r in refs]
    hyps = [h + end for h in lines(f"{name}.hyp.{system}.txt")]
    return metric_for(config).corpus_score(hyps, streams).score


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['sacrebleu']}:{_split(c['line'])[0]}")
def test_what_sacrebleu_printed_is_what_the_read_variant_scores(case):
    signature, claimed = _split(case["line"])
    sig = read_signature(signature)
    args, refs = case["args"], tuple(case["refs"])
    if sig.first_reference_only:
        refs = refs[:1]
    config, newline = sig.config, False
    if case["sacrebleu"].startswith("1.4") and "-sv" in args:
        # sacrebleu 1.4 wrote no smoothing value: the line cannot say it, the
        # reading says what it assumed, and the value run was the one unknown
        assert any("did not write it" in line for line in sig.assumed)
        config = replace(config, smoothing_value=float(args[args.index("-sv") + 1]))
    if case["sacrebleu"].startswith("1.") and "--chrf-whitespace" in args:
        # sacrebleu 1.x's command line kept each line's newline, which chrF
        # with space.true counts: said, and that newline is the one difference
        assert any("newline" in line for line in sig.assumed)
        newline = True
    ours = score(config, case["set"], case["system"], refs, newline)
    # 1e-9 on bleukit's 0-100 scale, whatever scale sacrebleu printed on
    assert ours == pytest.approx(float(claimed) / sig.scale, abs=1e-9, rel=0)


#: one line of each release and metric, checked end to end by verify
PLAIN = [c for c in CASES if "-sv" not in c["args"] and "--chrf-whitespace" not in c["args"]]
VERIFIED = list({(c["sacrebleu"], re.split(r"[+|]", c["line"])[0]): c for c in PLAIN}.values())


@pytest.mark.parametrize("case", VERIFIED, ids=lambda c: f"{c['sacrebleu']}:{_split(c['line'])[0]}")
def test_verify_reproduces_the_printed_line(case):
    signature, claimed = _split(case["line"])
    streams = [lines(f"{case['set']}.ref.{r}.txt") for r in case["refs"]]
    hyps = lines(f"{case['set']}.hyp.{case['system']}.txt")
    v = verify(signature, streams, hyps, claimed)
    assert abs(v.difference) / read_signature(signature).scale <= 1e-9
    # as a paper prints it
    assert f"{v.rescored:.2f}" == f"{float(claimed):.2f}"


# ---- every sacrebleu signature bleukit writes reads back as its variant -----

# MeCab's signatures name the loaded tagger's version (tested below on its own)
SACREBLEU_TOKENIZERS = ["13a.v1", "intl.v1", "zh.v1", "char.v1", "none.v1", "flores101.v1",
                        "flores200.v1", "spbleu-1k.v1"]  # fmt: skip
SMOOTHING = st.one_of(
    st.tuples(st.sampled_from(["exp.v1", "none.v1"]), st.none()),
    st.tuples(
        st.sampled_from(["floor.v1", "add-k.v1"]), st.integers(0, 300).map(lambda k: k / 100)
    ),
)


def _same(read: object, config: object) -> None:
    fields = ("metric", *(f for f in vars(config) if f not in ("name", "description")))
    for f in fields:
        assert getattr(read, f, None) == getattr(config, f, None), f


@given(st.sampled_from(SACREBLEU_TOKENIZERS), st.booleans(), SMOOTHING, st.booleans(),
       st.sampled_from([1, 3, "var"]))  # fmt: skip
def test_bleu_signatures_read_back_as_their_variant(tok, lc, smooth, eff, nrefs):
    method, value = smooth
    overrides = {"tokenizer": tok, "lowercase": lc, "smoothing": method, "effective_order": eff}
    if value is not None:
        overrides["smoothing_value"] = value
    config = load_any_config("sacrebleu", overrides)
    text = signature_for(config, nrefs).sacrebleu
    read = parse_sacrebleu_signature(f"BLEU|{text}")
    _same(read.config, config)
    assert read.nrefs == nrefs and read.release == 2 and read.metric == "BLEU"
    assert any(line.startswith("order 4") for line in read.assumed)
    assert parse_sacrebleu_signature(text).config == read.config


@given(st.integers(1, 8), st.integers(0, 3), st.integers(1, 4), st.booleans(), st.booleans(),
       st.booleans(), st.booleans())  # fmt: skip
def test_chrf_signatures_read_back_as_their_variant(nc, nw, beta, lc, space, eps, short):
    config = load_any_config("chrF", {"char_order": nc, "word_order": nw, "beta": beta,
                                      "lowercase": lc, "whitespace": space,
                                      "eps_smoothing": eps})  # fmt: skip
    text = signature_for(config, 2).sacrebleu_format(short)
    read = parse_sacrebleu_signature(f"chrF{beta}{'+' * nw}|{text}")
    _same(read.config, config)
    assert read.nrefs == 2 and read.assumed == ()
    # without the score's name, beta is the one thing assumed
    unnamed = parse_sacrebleu_signature(text)
    assert unnamed.config.beta == 2 and "beta 2" in unnamed.assumed[0]


@given(st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_ter_signatures_read_back_as_their_variant(norm, punct, asian, case, short):
    config = load_any_config("TER", {"normalized": norm, "no_punct": punct,
                                     "asian_support": asian, "case_sensitive": case})  # fmt: skip
    text = signature_for(config, 1).sacrebleu_format(short)
    read = parse_sacrebleu_signature(text)
    _same(read.config, config)
    assert read.metric == "TER" and read.nrefs == 1


def test_defaults_keep_the_built_in_name():
    bleu = read_signature("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0")
    assert bleu.config == load_any_config("sacrebleu")
    chrf = parse_sacrebleu_signature("chrF2|#:1|c:mixed|e:yes|nc:6|nw:0|s:no|v:2.6.0")
    assert chrf.config == load_any_config("chrF")


def test_what_a_signature_states_beside_the_variant_is_kept():
    sig = parse_sacrebleu_signature(
        "BLEU+case.mixed+lang.en-de+numrefs.1+smooth.exp+test.wmt17+tok.13a+version.1.2.12"
    )
    assert sig.context == {"test": "wmt17", "lang": "en-de"} and sig.version == "1.2.12"
    assert "test: wmt17" in sig.notes()
    boot = parse_sacrebleu_signature("nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|"
                                     "smooth:exp|version:2.6.0")  # fmt: skip
    assert boot.context == {"bs": "1000", "seed": "12345"}


def test_later_and_unstated_releases_are_said():
    later = parse_sacrebleu_signature("#:1|c:lc|t:tercom|nr:no|pn:yes|as:no|v:2.7.0")
    assert any("2.7.0 is later" in line for line in later.assumed)
    unstated = parse_sacrebleu_signature("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp")
    assert unstated.version is None and any("states none" in a for a in unstated.assumed)


def test_mecab_and_spm_tokenizer_signatures_name_their_tokenizer():
    ja = parse_sacrebleu_signature("nrefs:1|case:mixed|eff:no|tok:ja-mecab-0.996-IPA|smooth:exp|"
                                   "version:2.6.0")  # fmt: skip
    assert ja.config.tokenizer == "ja-mecab.v1" and any("MeCab" in a for a in ja.assumed)
    spm = parse_sacrebleu_signature("nrefs:1|case:mixed|eff:no|tok:spm-flores|smooth:exp|"
                                    "version:2.2.0")  # fmt: skip
    assert spm.config.tokenizer == "flores101.v1"


def test_sacrebleu_1_chrf_reads_its_scale_and_first_reference():
    sig = parse_sacrebleu_signature("chrF3+numchars.4+space.false+version.1.5.1")
    assert (sig.scale, sig.first_reference_only, sig.nrefs) == (0.01, True, None)
    assert (sig.config.beta, sig.config.char_order) == (3, 4)
    assert sig.bleukit.nrefs == 1
    assert isinstance(read_signature(sig.text), SacrebleuSignature)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nrefs:1|case:mixed|eff:no|tok:13a|version:2.0.0", "lacks the field 'smooth'"),
        ("nrefs:1|case:mixed|eff:no|tok:foo|smooth:exp|version:2.0.0", "no bleukit tokenizer"),
        ("nrefs:1|case:upper|eff:no|tok:13a|smooth:exp", r"case:upper: expected one of mixed, lc"),
        ("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|zz:1", "unknown field 'zz'"),
        ("nrefs:1|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp", "appears twice"),
        ("nrefs:0|case:mixed|eff:no|tok:13a|smooth:exp", "nrefs:0"),
        ("nrefs:1|case:mixed|eff:no|tok:13a|smooth:floor[x]", "not a number"),
        ("chrF2|nrefs:1|case:mixed|eff:yes|nc:six|nw:0|space:no", "nc:six"),
        ("chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no", "word order 2"),
        ("BLEU2|nrefs:1|case:mixed", "'BLEU2' is not a score"),
        ("TER+tok.tercom-odd+version.1.5.1", "tok:tercom-odd"),
        ("nrefs:1|case:mixed|eff|tok:13a", "'eff' is not key:value"),
        ("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:abc", "version 'abc': expected"),
        ("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0\tx", r"version '2.0\\tx'"),
    ],
)
def test_malformed_signatures_are_one_config_error_naming_the_field(text, message):
    with pytest.raises(ConfigError, match=message) as error:
        read_signature(text)
    assert "\n" not in str(error.value) and text[:20] in str(error.value)


# ---- the command line -------------------------------------------------------


def _line(release: str, prefix: str, args: list[str]) -> dict:
    return next(c for c in CASES if c["sacrebleu"] == release and c["line"].startswith(prefix)
                and c["args"] == args)  # fmt: skip


def _files(case: dict) -> list[str]:
    refs = [str(DATA / f"{case['set']}.ref.{r}.txt") for r in case["refs"]]
    return ["-r", *refs, "-i", str(DATA / f"{case['set']}.hyp.{case['system']}.txt")]


def test_verify_reads_a_sacrebleu_line_and_says_what_it_assumed(capsys):
    case = _line("1.4.14", "BLEU+case.mixed", [])
    signature, claimed = _split(case["line"])
    code = main(["verify", "-s", signature, *_files(case), "--expect", f"{float(claimed):.1f}"])
    out = capsys.readouterr().out
    assert code == 0 and "reproduced:" in out and "NOT" not in out
    assert "variant: bleukit|tok:13a.v1|" in out and "assumed: order 4" in out


def test_verify_of_a_1x_chrf_line_on_its_0_to_1_scale(capsys):
    case = _line("1.5.1", "chrF2+numchars.6+space.false", ["-m", "chrf"])
    signature, claimed = _split(case["line"])
    code = main(["verify", "-s", signature, *_files(case), "--expect", f"{float(claimed):.4f}"])
    assert code == 0 and f"as {float(claimed):.4f}, as claimed" in capsys.readouterr().out


def test_verify_says_why_a_1x_chrf_with_whitespace_line_is_not_reproduced(capsys):
    case = _line("1.5.1", "chrF2+numchars.6+space.true", ["-m", "chrf", "--chrf-whitespace"])
    signature, claimed = _split(case["line"])
    code = main(["verify", "-s", signature, *_files(case), "--expect", f"{float(claimed):.4f}"])
    out = capsys.readouterr().out
    assert code == 1 and "NOT reproduced" in out and "sacrebleu 1.x's command line kept it" in out


def test_signature_parse_prints_the_variant_and_the_reading(capsys):
    code = main(["signature", "parse", "chrF2++|#:1|c:mixed|e:yes|nc:6|nw:2|s:no|v:2.0.0"])
    out = capsys.readouterr().out
    assert code == 0 and "word_order: 2" in out
    assert "# read as sacrebleu 2.0.0's chrF signature (2.x form)" in out
    assert "# bleukit signature: bleukit|metric:chrf.v1|nc:6|nw:2|" in out
    code = main(["signature", "parse", "-f", "json", "TER+tok.tercom-norm-punct-noasian-cased"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["variant"]["normalized"] and data["variant"]["case_sensitive"]
    assert data["sacrebleu"]["scale"] == 0.01 and data["sacrebleu"]["version"] is None


def test_a_bad_sacrebleu_signature_is_one_line_and_exit_2(capsys):
    code = main(["signature", "parse", "nrefs:1|case:mixed|eff:no|tok:13b|smooth:exp"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "sacrebleu's '13b'" in err
