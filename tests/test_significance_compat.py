"""--compat sacrebleu against sacrebleu 2.6.0's own p-values and intervals on
WMT21 en-de (tests/golden/significance_sacrebleu.json, produced by
tests/golden/make_significance_golden.py), without NumPy: bleukit draws
NumPy's stream and computes its float32 arithmetic itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bleukit
from bleukit.significance.paired import SignificanceSpec, confidence, paired_test

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "significance_sacrebleu.json").read_text("utf-8")
)
SYSTEMS = GOLDEN["meta"]["systems"]
TOL = 1e-9


def _variant(case):
    # sacrebleu's BLEU (and its char form, by override), chrF, chrF++, TER
    name = "sacrebleu" if case["variant"].startswith("sacrebleu") else case["variant"]
    return bleukit.load_metric(name, **case["overrides"])


def _segments(wmt, variant, system, refs):
    prepared = wmt.prepared(variant, "newstest2021.en-de", refs)
    return variant.segment_stats(wmt.hyps("newstest2021.en-de", system), prepared)


def _id(case):
    return "-".join([case["variant"], "".join(case["refs"]), case.get("system", case["test"])])


PAIRED = [c for c in GOLDEN["cases"] if c["test"] in ("bs", "ar")]
CONF = [c for c in GOLDEN["cases"] if c["test"] == "confidence"]


@pytest.mark.golden
@pytest.mark.parametrize("case", PAIRED, ids=_id)
def test_paired_tests_equal_sacrebleu(case, wmt):
    variant = _variant(case)
    systems = [(s, _segments(wmt, variant, s, case["refs"])[0]) for s in SYSTEMS]
    spec = SignificanceSpec(case["test"], samples=case["samples"], compat="sacrebleu")
    rows = paired_test(variant, systems, len(case["refs"]), spec)
    for row, expected in zip(rows, case["results"]):
        assert row.result.score == pytest.approx(expected["score"], abs=TOL, rel=0)
        assert row.p_value == expected["p_value"]  # exactly
        assert row.interval.mean == pytest.approx(expected["mean"], abs=TOL, rel=0)
        assert row.interval.half_width == pytest.approx(expected["ci"], abs=TOL, rel=0)
    if case["variant"] == "sacrebleu":
        assert variant.signature(1).with_test(spec).sacrebleu == case["signature"]


@pytest.mark.golden
@pytest.mark.parametrize("case", CONF, ids=_id)
def test_confidence_equals_sacrebleu(case, wmt):
    variant = _variant(case)
    segments, nrefs = _segments(wmt, variant, case["system"], case["refs"])
    res = confidence(variant, segments, nrefs, SignificanceSpec(None, compat="sacrebleu"))
    assert res.result.score == pytest.approx(case["score"], abs=TOL, rel=0)
    assert res.interval.mean == pytest.approx(case["mean"], abs=TOL, rel=0)
    assert res.interval.half_width == pytest.approx(case["ci"], abs=TOL, rel=0)


def test_sacrebleu_compat_keeps_the_strict_p_value_quirk(wmt):
    # sacrebleu counts only strictly larger differences: a system against
    # itself gets p = 1/1001 in compat mode, p = 1 in the default mode
    variant = bleukit.load_variant("sacrebleu")
    seg, _ = _segments(wmt, variant, "UEdin", ["A"])
    spec = SignificanceSpec("bs", samples=1000, compat="sacrebleu")
    assert paired_test(variant, [("a", seg), ("b", seg)], 1, spec)[1].p_value == 1 / 1001
    spec = SignificanceSpec("bs", samples=1000)
    assert paired_test(variant, [("a", seg), ("b", seg)], 1, spec)[1].p_value == 1.0


def _golden(variant, test):
    (case,) = [c for c in PAIRED if c["variant"] == variant and c["test"] == test]
    return case


@pytest.mark.golden
@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("variant", ["chrF", "chrF++"])
def test_compare_prints_sacrebleus_chrf_p_values_and_intervals(variant, test, capsys):
    """``bleukit compare -v chrF++ --compat sacrebleu`` prints what
    ``sacrebleu -m chrf -cw 2 --paired-bs/--paired-ar`` computes."""
    from bleukit.cli import main

    data = Path(__file__).parent / "data" / "wmt"
    hyps = [str(data / f"newstest2021.en-de.hyp.{s}.txt") for s in SYSTEMS]
    ref = str(data / "newstest2021.en-de.ref.A.txt")
    argv = ["compare", "-v", variant, "-r", ref, "-i", *hyps, "--names", ",".join(SYSTEMS),
            "--compat", "sacrebleu", "-f", "json"]  # fmt: skip
    assert main([*argv, *(["--paired-ar"] if test == "ar" else [])]) == 0
    rows = json.loads(capsys.readouterr().out)
    case = _golden(variant, test)
    assert [r["system"] for r in rows] == SYSTEMS
    for row, expected in zip(rows, case["results"]):
        assert row["score"] == pytest.approx(expected["score"], abs=TOL, rel=0)
        assert row["p_value"] == expected["p_value"]  # exactly
        if test == "bs":
            assert row["ci_mean"] == pytest.approx(expected["mean"], abs=TOL, rel=0)
            assert row["ci_half_width"] == pytest.approx(expected["ci"], abs=TOL, rel=0)


@pytest.mark.golden
def test_score_confidence_prints_sacrebleus_chrf_interval(capsys):
    """``bleukit score -v chrF --confidence --compat sacrebleu`` is
    ``sacrebleu -m chrf -ci``."""
    from bleukit.cli import main

    data = Path(__file__).parent / "data" / "wmt"
    (case,) = [c for c in CONF if c["variant"] == "chrF" and c["system"] == "UF"]
    argv = ["score", "-v", "chrF", "-r", str(data / "newstest2021.en-de.ref.A.txt"),
            "-i", str(data / "newstest2021.en-de.hyp.UF.txt"), "--confidence",
            "--compat", "sacrebleu", "-f", "json"]  # fmt: skip
    assert main(argv) == 0
    (block,) = json.loads(capsys.readouterr().out)
    assert block["score"] == pytest.approx(case["score"], abs=TOL, rel=0)
    assert block["ci_mean"] == pytest.approx(case["mean"], abs=TOL, rel=0)
    assert block["ci_half_width"] == pytest.approx(case["ci"], abs=TOL, rel=0)


def test_chrf_interval_where_resamples_mix_float32_and_python_zeros(tmp_path, capsys):
    """Resamples without the one matching segment score a Python 0.0, the
    others NumPy float32: sacrebleu 2.6.0's statistics.mean fails on the
    mix; bleukit takes the mean over them as floats, in the library and in
    ``bleukit score --confidence --compat sacrebleu`` alike."""
    import statistics

    from bleukit.cli import main

    refs = ["the cat sat on the mat"] + ["xyz qqq"] * 19
    hyps = ["the cat sat on the mat"] + ["bbb www"] * 19
    chrf = bleukit.load_chrf("chrF")
    segments, nrefs = chrf.segment_stats(hyps, [refs])
    res = confidence(chrf, segments, nrefs, SignificanceSpec(None, compat="sacrebleu"))
    assert len({type(s) for s in res.scores}) == 2  # float32 and float: the case at hand
    assert res.interval.mean == statistics.mean(float(s) for s in res.scores)
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(refs) + "\n", "utf-8")
    hyp.write_text("\n".join(hyps) + "\n", "utf-8")
    argv = ["score", "-v", "chrF", "-r", str(ref), "-i", str(hyp), "--confidence",
            "--compat", "sacrebleu", "-f", "json"]  # fmt: skip
    assert main(argv) == 0
    (block,) = json.loads(capsys.readouterr().out)
    assert block["ci_mean"] == res.interval.mean
    assert block["ci_half_width"] == float(res.interval.half_width)


def _chrf_cli_cases():
    """tests/golden/make_chrf_cli_golden.py (its parsers) and the output of
    sacrebleu's command lines it recorded."""
    import importlib.util

    path = Path(__file__).parent / "golden" / "make_chrf_cli_golden.py"
    spec = importlib.util.spec_from_file_location("make_chrf_cli_golden", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    recorded = json.loads((path.parent / "sacrebleu_chrf_cli.json").read_text("utf-8"))
    return module, recorded["cases"]


CLI, CLI_CASES = _chrf_cli_cases()


@pytest.mark.golden
@pytest.mark.parametrize("case", CLI_CASES, ids=lambda c: c["name"])
def test_commands_print_what_sacrebleu_m_chrf_prints(case, capsys):
    """``bleukit compare|score -v chrF[++] --compat sacrebleu`` prints, at
    sacrebleu's precision, the scores, intervals and p-values that
    ``sacrebleu -m chrf --paired-bs|--paired-ar|-ci`` printed (recorded)."""
    from bleukit.cli import main

    assert main(CLI.bleukit_argv(case["bleukit"])) == 0
    ours = CLI.bleukit_rows(json.loads(capsys.readouterr().out))
    theirs = CLI.sacrebleu_rows(case["stdout"])
    assert len(theirs) == (3 if case["bleukit"][0] == "compare" else 1)
    assert ours == theirs


def test_ter_observed_score_is_sacrebleus_float_sum():
    """sacrebleu sums TER's float rows left to right: 5/3 as a float gives
    60.00000000000001, not 60, and its strict ">" reads the difference. A
    case hypothesis found live (tests_oracle/test_live_ter.py), with the
    p-value sacrebleu 2.6.0's PairedTest printed for it."""
    ter = bleukit.load_metric("TER")
    refs = [["", "", "", ""], ["", "", "", ""], ["", "", "a", "a a a a"]]
    systems = [("s0", ["", "", "", ""]), ("s1", ["", "", "", ""]), ("s2", ["", "", "", "a"])]
    prepared = ter.prepare_references(refs)
    stats = [(name, ter.segment_stats(h, prepared)[0]) for name, h in systems]
    spec = SignificanceSpec("ar", samples=300, seed=1, compat="sacrebleu",
                            confidence_samples=1000)  # fmt: skip
    rows = paired_test(ter, stats, prepared.nrefs, spec)
    assert rows[2].p_value == 0.0033222591362126247


ALL_PAIRS = json.loads(
    (Path(__file__).parent / "golden" / "all_pairs_sacrebleu.json").read_text("utf-8")
)


@pytest.mark.golden
def test_all_pairs_equal_sacrebleu_with_each_system_as_baseline(capsys):
    """Issue 24's acceptance: ``compare --all-pairs --compat sacrebleu`` on
    WMT22 en-ja for BLEU, chrF++ and TER gives every pair, in both orders,
    the p-value sacrebleu's --paired-bs printed with either system as its
    baseline (tests/golden/make_all_pairs_golden.py)."""
    from bleukit.cli import main

    meta = ALL_PAIRS["meta"]
    root = Path(__file__).parent / "data" / "wmt"
    hyps = [str(root / f"{meta['set']}.hyp.{s}.txt") for s in meta["systems"]]
    argv = ["compare", "--all-pairs", "--compat", "sacrebleu", "-v", "sacrebleu,chrF++,TER",
            "-r", str(root / f"{meta['set']}.ref.A.txt"), "-i", *hyps,
            "--names", ",".join(meta["systems"]), "-f", "json"]  # fmt: skip
    assert main(argv) == 0
    out = {d["variant"]: d for d in json.loads(capsys.readouterr().out)}
    for variant, theirs in ALL_PAIRS["pairs"].items():
        ours = {frozenset((p["system_a"], p["system_b"])): p for p in out[variant]["pairs"]}
        assert len(theirs) == 2 * len(ours) == 20
        for pair in theirs:
            assert ours[frozenset((pair["baseline"], pair["system"]))]["p_value"] == pair["p_value"]
