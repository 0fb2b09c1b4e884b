"""The ``bleukit`` command: argument parsing, and a table from each
subcommand to a function that calls the library and formats what it
returns (the work itself, streaming included, lives in the library).

User errors print one line (``bleukit: error: ...``) and exit with status 2;
success exits 0. Every input is read and checked before anything is printed,
so a bad file never leaves half a report behind. Heavy modules are imported
only by the subcommand that needs them, to keep start-up fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from .chrf_variant import ChrfVariant
    from .report import AnyResult
    from .spec import SignificanceSpec, TestName
    from .system_stats import SystemStatistics
    from .variant import Variant

EXIT_USER_ERROR = 2


def _terminal_columns() -> int:
    """shutil.get_terminal_size().columns without importing shutil (with
    bz2 and lzma, about 5 ms of every start): $COLUMNS, the terminal's
    width, or 80."""
    import os

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse makes a formatter for every option it adds, and its own
        # finds the width with shutil
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one line instead of usage + error
        self.exit(EXIT_USER_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse swallows a failed write (--help > /dev/full exited 0): let
        # it reach main, which reports it
        if message:
            (file or sys.stderr).write(message)


def _flatten(values: list[list[str]] | None) -> list[str]:
    return [v for group in values or [] for v in group]


def _build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``command`` (None: of every command, with all their
    options): building every command's parser and options costs start-up
    time that one command never uses."""
    parser = _Parser(
        prog="bleukit",
        description="Reproducible, comparable, fast BLEU with complete signatures.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    # a known command gets its parser alone; otherwise (--help, a typo)
    # every command is listed
    names = [command] if command in _SUBCOMMANDS else list(_SUBCOMMANDS)
    for name in names:
        help, options = _SUBCOMMANDS[name]
        # sacrebleu's -h is its own: its parser sees every argument after it
        command_parser = sub.add_parser(name, help=help, add_help=name != "sacrebleu")
        if options is not None and command in (None, name):
            options(command_parser)
    return parser


def _score_options(score: argparse.ArgumentParser) -> None:
    score.add_argument(
        "--variant",
        "-v",
        help="built-in variant name or YAML file (default BLEUw4, or chosen by --lang)",
    )
    _add_lang(score)
    _add_refs(score, required=False)
    score.add_argument(
        "--testset", "-t", help="a sacrebleu test set from its cache ($SACREBLEU), in place of -r"
    )
    score.add_argument("--langpair", help="the test set's language pair (SRC-TRG)")
    score.add_argument(
        "--parquet", metavar="PATH", help="a Parquet file or directory of parts, in place of -r/-i"
    )
    score.add_argument("--hyp-col", default="hyp", help="--parquet: the hypothesis column (hyp)")
    score.add_argument(
        "--ref-col", action="append", metavar="COL", help="--parquet: a reference column (ref)"
    )
    score.add_argument("--out", metavar="OUT.parquet", help="--parquet --sentence: write here")
    _add_inputs(score, "hypothesis file(s), each scored separately (default: standard input)")
    _add_set(score)
    score.add_argument("--format", "-f", choices=("text", "json"), default="text")
    score.add_argument("--sentence", action="store_true", help="score every segment separately")
    score.add_argument("--width", "-w", type=int, default=2, help="decimals in text output")
    score.add_argument(
        "--confidence", "-ci", action="store_true", help="bootstrap confidence interval"
    )
    _add_resampling_args(score, tests=False)
    _add_executor(score)


def _compare_options(compare: argparse.ArgumentParser) -> None:
    compare.add_argument(
        "--variant",
        "-v",
        action="append",
        metavar="VARIANT",
        help="variant name or YAML file; repeat for one column per variant (default BLEUw4)",
    )
    _add_refs(compare)
    _add_inputs(compare, "hypothesis files; the first is the baseline", required=True)
    _add_lang(compare)
    _add_names(compare)
    _add_executor(compare)
    _add_set(compare)
    compare.add_argument(
        "--format", "-f", choices=("text", "json", "markdown", "latex", "csv"), default="text"
    )
    compare.add_argument("--width", "-w", type=int, default=2)
    _add_resampling_args(compare, tests=True)


def _agree_options(agree: argparse.ArgumentParser) -> None:
    agree.add_argument("variant_a", metavar="VARIANT_A", help="e.g. BLEUw4 (the word variant)")
    agree.add_argument("variant_b", metavar="VARIANT_B", help="e.g. BLEUc18")
    _add_refs(agree)
    _add_inputs(agree, "hypothesis files, one per system", required=True)
    _add_names(agree)
    _add_executor(agree)
    _add_set(agree)
    agree.add_argument(
        "--search-order",
        metavar="FIRST..LAST",
        help="try VARIANT_B at every max order in the range and report the best for each criterion",
    )
    agree.add_argument("--format", "-f", choices=("text", "json"), default="text")


def _matrix_options(matrix: argparse.ArgumentParser) -> None:
    _add_refs(matrix)
    _add_inputs(matrix, "hypothesis files, one per system", required=True)
    matrix.add_argument(
        "--variants",
        default="BLEUw4,BLEUc18",
        help="comma-separated variant names or YAML files (default BLEUw4,BLEUc18)",
    )
    _add_names(matrix)
    _add_executor(matrix)
    _add_set(matrix)
    matrix.add_argument(
        "--format", "-f", choices=("text", "json", "markdown", "latex"), default="text"
    )
    matrix.add_argument("--width", "-w", type=int, default=2)


def _report_options(report: argparse.ArgumentParser) -> None:
    _add_refs(report)
    _add_inputs(report, "hypothesis files; the first is the baseline", required=True)
    report.add_argument(
        "--variants", default="BLEUw4,BLEUc18", help="comma-separated variants (BLEUw4,BLEUc18)"
    )
    _add_names(report)
    _add_executor(report)
    _add_set(report)
    report.add_argument("--samples", type=int, default=1000, help="bootstrap resamples (1000)")
    report.add_argument("--seed", type=int, default=12345)
    report.add_argument("-o", "--output", required=True, help="the HTML file to write")


def _verify_options(verify: argparse.ArgumentParser) -> None:
    verify.add_argument("--signature", "-s", required=True)
    _add_refs(verify)
    verify.add_argument("-i", "--input", required=True, metavar="HYP")
    verify.add_argument("--expect", required=True, help="the published score, e.g. 31.2")


def _show_options(show: argparse.ArgumentParser) -> None:
    show.add_argument("variant")
    _add_set(show)
    show.add_argument("--nrefs", default="1", help="number of references for the signature")


def _signature_options(sig: argparse.ArgumentParser) -> None:
    sig.set_defaults(usage=sig)
    sig_sub = sig.add_subparsers(dest="sig_command", metavar="ACTION", parser_class=_Parser)
    parse = sig_sub.add_parser("parse", help="rebuild the variant a signature describes")
    parse.add_argument("signature")
    parse.add_argument("--format", "-f", choices=("yaml", "json"), default="yaml")


def _sample_options(sample: argparse.ArgumentParser) -> None:
    sample.add_argument(
        "--variant", "-v", action="append", help="variant(s) (default BLEUw4, BLEUc18)"
    )
    sample.add_argument("--paths", action="store_true", help="print the sample files' paths")


_Options = Callable[[argparse.ArgumentParser], None]

#: every command: its help line, and what adds its options
_SUBCOMMANDS: dict[str, tuple[str, _Options | None]] = {
    "score": ("score hypothesis files against references", _score_options),
    "compare": (
        "scores, intervals and paired significance tests against a baseline",
        _compare_options,
    ),
    "agree": (
        "how far two variants agree (Denoual & Lepage 2005): r, kappa, ranks",
        _agree_options,
    ),
    "matrix": (
        "every system under every variant: scores, ranks, Kendall tau, rank flips",
        _matrix_options,
    ),
    "report": ("a self-contained HTML report of several systems", _report_options),
    "verify": ("rescore with a published signature, check a claim", _verify_options),
    "variants": ("list built-in variants", None),
    "show": ("print a variant's complete YAML and signature", _show_options),
    "signature": ("work with signatures", _signature_options),
    "components": ("list registered components, plugins included", None),
    "sacrebleu": (
        "sacrebleu 2.6.0's command line and output (BLEU): bleukit sacrebleu ARGS...",
        None,
    ),
    "sample": ("score the bundled WMT21 en-de sample", _sample_options),
}


def _add_refs(parser: argparse.ArgumentParser, required: bool = True) -> None:
    parser.add_argument(
        "-r",
        "--ref",
        action="append",
        nargs="+",
        required=required,
        metavar="REF",
        help="reference file(s), each aligned line by line with the hypotheses",
    )


def _add_inputs(parser: argparse.ArgumentParser, help: str, required: bool = False) -> None:
    parser.add_argument(
        "-i", "--input", action="append", nargs="+", required=required, metavar="HYP", help=help
    )


def _add_set(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a variant field, e.g. --set max_order=2 --set lowercase=true",
    )


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", "-l", help="target language: picks the variant when --variant is not given"
    )


def _add_executor(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--executor",
        choices=("local", "dask"),
        default="local",
        help="where the files' chunks are counted: this process (local, default) or the "
        "workers of a running Dask cluster (dask, with --scheduler; pip install 'bleukit[dask]')",
    )
    parser.add_argument("--scheduler", metavar="ADDR", help="--executor dask: tcp://host:8786")


def _add_names(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--names", help="comma-separated system names (default: file names)")


def _add_resampling_args(parser: argparse.ArgumentParser, tests: bool) -> None:
    if tests:
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--paired-bs", action="store_true", help="paired bootstrap (default)")
        which.add_argument("--paired-ar", action="store_true", help="approximate randomization")
        parser.add_argument(
            "--confidence-samples",
            type=int,
            default=1000,
            help="bootstrap resamples for the intervals with --paired-ar "
            "(default 1000; 0: no intervals)",
        )
    parser.add_argument(
        "--samples",
        type=int,
        default=None,
        help="resamples or trials (default 1000 for bootstrap, 10000 for --paired-ar)",
    )
    parser.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    parser.add_argument("--level", type=float, default=0.95, help="interval level (0.95)")
    parser.add_argument(
        "--compat",
        choices=("none", "sacrebleu"),
        default="none",
        help="sacrebleu: the same resamples, p-values and intervals as sacrebleu 2.6.0 "
        "(needs NumPy)",
    )


def _test_spec(args: argparse.Namespace, paired: bool) -> SignificanceSpec:
    from .spec import DEFAULT_SAMPLES, SignificanceSpec

    test: TestName | None = ("ar" if args.paired_ar else "bs") if paired else None
    samples = DEFAULT_SAMPLES[test or "bs"] if args.samples is None else args.samples
    return SignificanceSpec(
        test=test,
        samples=samples,
        seed=args.seed,
        level=args.level,
        compat=args.compat,
        confidence_samples=getattr(args, "confidence_samples", 1000) if test == "ar" else samples,
    )


def _read_inputs(
    ref_groups: list[list[str]], hyp_paths: list[str]
) -> tuple[list[list[str]], list[tuple[str, list[str]]]]:
    """All references and hypotheses, checked for equal line counts."""
    from .files import check_read_once, check_same_length, display_name, read_lines

    check_read_once([*_flatten(ref_groups), *hyp_paths])
    refs = [(p, read_lines(p)) for p in _flatten(ref_groups)]
    hyps = []
    for p in hyp_paths:
        name = display_name(p)
        hyps.append((name, read_lines(p)))
        check_same_length(name, hyps[-1][1], refs)
    return [lines for _, lines in refs], hyps


def _variant_names(requested: list[str] | None, lang: str | None) -> list[str]:
    """The variants asked for, or the one --lang picks (said on stderr)."""
    from .languages import variant_for_language

    if requested:
        return requested
    if lang:
        name, why = variant_for_language(lang)
        sys.stderr.write(f"bleukit: --lang {lang}: using variant {name} ({why})\n")
        return [name]
    return ["BLEUw4"]


def _warn_language(lang: str | None, variants: Sequence[Variant]) -> None:
    from .languages import tokenizer_warning

    for variant in variants if lang else ():
        warning = tokenizer_warning(lang, variant.config.tokenizer)  # type: ignore[arg-type]
        if warning:
            sys.stderr.write(f"bleukit: warning: {variant.name}: {warning}\n")


def _variants(names: Sequence[str], pairs: list[str]) -> list[Variant]:
    """The named BLEU variants with the --set overrides, all loaded (and
    checked) before any work."""
    from .errors import ConfigError
    from .variant import Variant

    out = []
    for variant in _any_variants(names, pairs):
        if not isinstance(variant, Variant):
            raise ConfigError(
                f"variant {variant.name}: chrF variants are scored by bleukit score, matrix, "
                "verify and sacrebleu -m chrf; this command takes BLEU variants only"
            )
        out.append(variant)
    return out


def _any_variants(names: Sequence[str], pairs: list[str]) -> list[Variant | ChrfVariant]:
    """The named variants of any metric with the --set overrides."""
    return [_any_variant(name, pairs) for name in names]


def _any_variant(name: str, pairs: list[str]) -> Variant | ChrfVariant:
    """A variant of any metric (BLEU or chrF) with the --set overrides."""
    from .chrf_variant import load_metric
    from .config import parse_override

    return load_metric(name, **dict(parse_override(p) for p in pairs))


def _check_width(width: int) -> None:
    if not 0 <= width <= 16:
        from .errors import InputError

        raise InputError("--width must be between 0 and 16")


def _system_names(args: argparse.Namespace, paths: list[str]) -> list[str]:
    import os

    from .errors import InputError

    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != len(paths):
            raise InputError(f"--names gives {len(names)} names for {len(paths)} systems")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise InputError(f"--names: each system needs its own name; {', '.join(twice)} repeats")
        return names
    # the file's name (as pathlib's Path.name, without importing pathlib)
    short = [os.path.basename(os.path.normpath(p)) for p in paths]
    return short if len(set(short)) == len(short) else paths


def _system_files(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The names and hypothesis files of a multi-system command."""
    hyp_paths = _flatten(args.input)
    return _system_names(args, hyp_paths), hyp_paths


def _collect(
    args: argparse.Namespace,
    variants: Sequence[Variant | ChrfVariant],
    on_chunk: Callable[[list[list[str]], list[list[str]]], None] | None = None,
) -> SystemStatistics:
    """The statistics of every system of a multi-system command under
    ``variants``; ``on_chunk`` sees every chunk."""
    names, paths = _system_files(args)
    return _collect_files(args, variants, _flatten(args.ref), paths, names, on_chunk)


def _collect_files(
    args: argparse.Namespace,
    variants: Sequence[Variant | ChrfVariant],
    ref_paths: list[str],
    hyp_paths: list[str],
    names: list[str],
    on_chunk: Callable[[list[list[str]], list[list[str]]], None] | None = None,
) -> SystemStatistics:
    """The statistics of hypothesis files (``names``) under ``variants``,
    the files read a chunk at a time (text is not kept), each chunk counted
    here or by the executor that --executor names (chosen here only)."""
    from .errors import InputError
    from .streaming import system_chunks
    from .system_stats import SystemStatistics

    if args.executor == "local" and args.scheduler:
        raise InputError("--scheduler goes with --executor dask")
    batch = max(v.engine.batch_lines() for v in variants)
    chunks = system_chunks(ref_paths, hyp_paths, batch, progress=True)
    if on_chunk is not None:
        chunks = _seen(chunks, on_chunk)
    if args.executor == "dask":
        if not args.scheduler:
            raise InputError("--executor dask needs --scheduler ADDR (e.g. tcp://host:8786)")
        from .dask import collect_chunks

        return collect_chunks(args.scheduler, variants, names, chunks)
    stats = SystemStatistics(variants, names)
    for refs, hyps in chunks:
        stats.add(refs, hyps)
    return stats


def _seen(
    chunks: Iterator[tuple[list[list[str]], list[list[str]]]],
    on_chunk: Callable[[list[list[str]], list[list[str]]], None],
) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    for refs, hyps in chunks:
        on_chunk(refs, hyps)
        yield refs, hyps


def _write_blocks(out: TextIO, blocks: list[object], fmt: str) -> None:
    from . import report

    if fmt == "json":
        out.write(report.dumps(blocks) + "\n")
    else:
        out.write("\n".join(map(str, blocks)) + "\n")


# ----------------------------------------------------------------- commands


def _cmd_score(args: argparse.Namespace, out: TextIO) -> None:
    from . import streaming
    from .errors import InputError
    from .variant import Variant

    if args.parquet is not None:
        _score_parquet(args, out)
        return
    if args.out is not None:
        raise InputError("--out goes with --parquet --sentence")
    args.ref = _score_references(args)
    (name,) = _variant_names(None if args.variant is None else [args.variant], args.lang)
    variant = _any_variant(name, args.set)
    _check_width(args.width)
    if args.executor != "local" and (args.sentence or args.confidence):
        raise InputError(
            "--executor: only corpus scores are computed on an executor; "
            "--sentence and --confidence run here (drop --executor)"
        )
    if not isinstance(variant, Variant):
        _score_chrf(args, variant, out)
        return
    _warn_language(args.lang, [variant])
    spec = _test_spec(args, paired=False) if args.confidence else None
    if spec is not None and args.sentence:
        raise InputError("--confidence applies to corpus scores, not to --sentence")
    hyp_paths = _hypothesis_paths(args)
    ref_paths = _flatten(args.ref)
    if args.sentence:
        _stream_sentence_scores(args, variant, ref_paths, hyp_paths, out)
        return
    blocks: list[object] = []
    if spec is None:
        if args.executor != "local" or args.scheduler:
            blocks = _collected_corpus_blocks(args, variant, ref_paths, hyp_paths)
        else:
            scores = streaming.corpus_scores(variant, ref_paths, hyp_paths, progress=True)
            blocks = [_corpus_block(args, variant.name, n, result) for n, result in scores]
        _write_blocks(out, blocks, args.format)
        return
    stats, files = _collect_hypothesis_files(args, variant, ref_paths, hyp_paths)
    _write_blocks(out, _confidence_blocks(args, variant, spec, stats, files), args.format)


def _confidence_blocks(
    args: argparse.Namespace,
    variant: Variant,
    spec: SignificanceSpec,
    stats: SystemStatistics,
    systems: list[tuple[str, str]],
) -> list[object]:
    """``score --confidence``: the bootstrap interval of every system (its
    key in ``stats``, its name) from statistics collected a chunk at a time."""
    from . import report
    from .significance import confidence

    sig = variant.signature(stats.nrefs).with_test(spec)
    blocks: list[object] = []
    for key, name in systems:
        res = confidence(variant, stats.segment_stats(variant, key), stats.nrefs, spec)
        if args.format == "json":
            blocks.append(report.confidence_json_object(variant.name, name, res, sig))
        else:
            blocks.append(report.confidence_text(variant.name, name, res, sig, args.width))
    return blocks


def _score_parquet(args: argparse.Namespace, out: TextIO) -> None:
    """``bleukit score --parquet``: a table read in record batches."""
    from . import arrow
    from .errors import InputError
    from .variant import Variant

    if args.ref or args.input or args.testset:
        raise InputError("--parquet reads hypotheses and references from the table: no -r, -i, -t")
    if args.executor != "local" or args.scheduler:
        raise InputError("--parquet runs here: drop --executor/--scheduler")
    _check_width(args.width)
    (name,) = _variant_names(None if args.variant is None else [args.variant], args.lang)
    variant = _any_variant(name, args.set)
    refs = args.ref_col or ["ref"]
    if args.confidence:
        if args.sentence or not isinstance(variant, Variant):
            raise InputError("--confidence: corpus BLEU only (no --sentence, no chrF)")
        from .system_stats import collect_chunks

        stats = collect_chunks([variant], ["0"], arrow.chunks(args.parquet, args.hyp_col, refs))
        if not stats.segments:
            raise InputError(f"{args.parquet}: no rows to score")
        spec = _test_spec(args, paired=False)
        blocks = _confidence_blocks(args, variant, spec, stats, [("0", args.parquet)])
        _write_blocks(out, blocks, args.format)
        return
    if args.sentence:
        if not args.out:
            raise InputError("--parquet --sentence writes a Parquet file: give --out OUT.parquet")
        rows = arrow.write_sentence_scores(variant, args.parquet, args.hyp_col, refs, args.out)
        sys.stderr.write(f"bleukit: wrote {rows} sentence scores to {args.out}\n")
        return
    if args.out:
        raise InputError("--out goes with --sentence (corpus scores are printed)")
    result = arrow.corpus_score(variant, args.parquet, args.hyp_col, refs)
    _write_blocks(out, [_corpus_block(args, variant.name, args.parquet, result)], args.format)


def _hypothesis_paths(args: argparse.Namespace) -> list[str]:
    """``bleukit score``'s hypothesis files: -i, else standard input where
    something is piped there (a terminal would wait for typing)."""
    from .errors import InputError

    paths = _flatten(args.input)
    if paths:
        return paths
    if sys.stdin is None or sys.stdin.isatty():
        raise InputError("no hypotheses: give -i FILE or pipe them on standard input")
    return ["-"]


def _score_references(args: argparse.Namespace) -> list[list[str]]:
    """The reference files: -r, or a test set's default references."""
    from .errors import InputError

    if args.testset is None:
        if args.langpair:
            raise InputError("--langpair goes with --testset")
        if not args.ref:
            raise InputError("no references: give -r REF... or --testset SET --langpair PAIR")
        return list(args.ref)
    if args.ref:
        raise InputError("give either -r or --testset, not both")
    if not args.langpair:
        raise InputError("--testset needs --langpair (SRC-TRG)")
    from .testsets import locate

    return [[str(p) for p in locate(args.testset, args.langpair).references]]


def _score_chrf(args: argparse.Namespace, variant: ChrfVariant, out: TextIO) -> None:
    """``bleukit score`` with a chrF variant: corpus scores of every
    hypothesis file, or sentence scores, every file streamed."""
    from .errors import InputError

    if args.confidence or args.compat != "none":
        raise InputError(
            f"--confidence/--compat: not available for chrF variants ({variant.name}) "
            "in bleukit score yet; bleukit sacrebleu -m chrf -ci gives sacrebleu's interval"
        )
    hyp_paths = _hypothesis_paths(args)
    if args.sentence:
        _stream_sentence_scores(args, variant, _flatten(args.ref), hyp_paths, out)
        return
    blocks = _collected_corpus_blocks(args, variant, _flatten(args.ref), hyp_paths)
    _write_blocks(out, blocks, args.format)


def _collected_corpus_blocks(
    args: argparse.Namespace,
    variant: Variant | ChrfVariant,
    ref_paths: list[str],
    hyp_paths: list[str],
) -> list[object]:
    """The corpus score of every hypothesis file, from statistics collected
    a chunk at a time (here, or on the executor --executor names)."""
    from .variant import Variant

    stats, files = _collect_hypothesis_files(args, variant, ref_paths, hyp_paths)
    blocks = []
    for key, name in files:
        if isinstance(variant, Variant):
            result: AnyResult = variant.score_stats(stats.total(variant, key), stats.nrefs)
        else:
            result = stats.chrf_score(variant, key)
        blocks.append(_corpus_block(args, variant.name, name, result))
    return blocks


def _collect_hypothesis_files(
    args: argparse.Namespace,
    variant: Variant | ChrfVariant,
    ref_paths: list[str],
    hyp_paths: list[str],
) -> tuple[SystemStatistics, list[tuple[str, str]]]:
    """``bleukit score``'s files collected under one variant, and per file
    its key in the statistics and its name (keys, not names: the same file
    may come twice)."""
    from .files import display_name

    keys = [str(i) for i in range(len(hyp_paths))]
    stats = _collect_files(args, [variant], ref_paths, hyp_paths, keys)
    return stats, list(zip(keys, map(display_name, hyp_paths)))


def _corpus_block(args: argparse.Namespace, variant: str, hyp: str, result: AnyResult) -> object:
    from . import report

    if args.format == "json":
        return report.corpus_json_object(variant, hyp, result)
    return report.corpus_text(variant, hyp, result, args.width)


def _stream_sentence_scores(
    args: argparse.Namespace,
    variant: Variant | ChrfVariant,
    ref_paths: list[str],
    hyp_paths: list[str],
    out: TextIO,
) -> None:
    """Sentence scores of every hypothesis file, the files read in step a
    batch at a time. Each file's output waits in a spool (memory, then a
    temporary file) and reaches ``out`` only when every segment has been
    read and scored, so an error (invalid UTF-8 late in a file, a short
    standard input) leaves no partial output."""
    from . import report, streaming
    from .files import Spool, display_name

    # a segment's JSON leaves out its block's signature keys, which are the
    # same whatever the number of references
    as_json = None
    if args.format == "json":
        as_json = report.SentenceJson(variant.signature(len(ref_paths)))
    spools = [Spool() for _ in hyp_paths]
    try:
        nrefs: set[int | str] = set()
        for batch in streaming.systems_sentence_scores(variant, ref_paths, hyp_paths, True):
            nrefs.add(batch.nrefs)
            for spool, results in zip(spools, batch.results):
                if as_json is None:
                    spool.write("".join(r.format(args.width) + "\n" for r in results))
                else:
                    spool.write(
                        (as_json.SEPARATOR if spool.size else "") + as_json.segments(results)
                    )
        sig = variant.signature(nrefs.pop() if len(nrefs) == 1 else "var")
        if as_json is None:
            comments = "".join(f"# {line}\n" for line in report.signature_lines(sig))
            for spool in spools:
                spool.copy_to(out)
                out.write(comments)
            return
        frames = report.SentenceJson(sig)
        out.write("[\n")
        for i, (path, spool) in enumerate(zip(hyp_paths, spools)):
            before, after = frames.frame(variant.name, display_name(path))
            out.write((frames.SEPARATOR if i else "") + before)
            spool.copy_to(out)
            out.write(after)
        out.write("\n]\n")
    finally:
        for spool in spools:
            spool.close()


def _cmd_compare(args: argparse.Namespace, out: TextIO) -> None:
    from .significance import paired_test
    from .tables import FORMATS, Column

    _check_width(args.width)
    spec = _test_spec(args, paired=True)
    variants = _variants(_variant_names(args.variant, args.lang), args.set)
    _warn_language(args.lang, variants)
    stats = _collect(args, variants)
    columns = []
    for variant in variants:
        systems = [(name, stats.segment_stats(variant, name)) for name in stats.systems]
        rows = paired_test(variant, systems, stats.nrefs, spec)
        columns.append(Column(variant.name, variant.signature(stats.nrefs).with_test(spec), rows))
    out.write(FORMATS[args.format](columns, args.width))


def _cmd_matrix(args: argparse.Namespace, out: TextIO) -> None:
    from . import matrix
    from .config import split_variant_list

    _check_width(args.width)
    variants = _any_variants(split_variant_list(args.variants), args.set)
    stats = _collect(args, variants)
    out.write(matrix.FORMATS[args.format](matrix.from_stats(variants, stats), args.width))


def _cmd_report(args: argparse.Namespace, out: TextIO) -> None:
    from .config import split_variant_list
    from .files import Spool, write_text_file
    from .html_report import side_by_side, write_report
    from .spec import SignificanceSpec

    variants = _variants(split_variant_list(args.variants), args.set)
    spec = SignificanceSpec("bs", samples=args.samples, seed=args.seed)
    # the side-by-side view's segments wait in a spool, one JSON line each,
    # until the scores are known: past 16M characters in a file, so a large
    # corpus's text is never all in memory
    with Spool() as spool:

        def spool_chunk(refs: list[list[str]], hyps: list[list[str]]) -> None:
            spool.write(
                "".join(segment + "\n" for segment in side_by_side(variants[0], refs, hyps))
            )

        stats = _collect(args, variants, spool_chunk)

        def page(fh: TextIO) -> None:
            write_report(fh, variants, stats, spec, spool.lines())

        # an existing report is never half-overwritten (files.write_text_file)
        size = write_text_file(args.output, page)
    out.write(f"wrote {args.output} ({size // 1024} KiB, {len(stats.systems)} systems)\n")


def _order_range(text: str) -> range:
    from .config import MAX_ORDER_LIMIT
    from .errors import InputError

    first, sep, last = text.partition("..")
    try:
        lo, hi = int(first), int(last)
    except ValueError:
        raise InputError(f"--search-order {text!r}: expected FIRST..LAST, e.g. 1..30") from None
    if not sep or not 1 <= lo <= hi <= MAX_ORDER_LIMIT:
        raise InputError(f"--search-order {text!r}: need 1 <= FIRST <= LAST <= {MAX_ORDER_LIMIT}")
    return range(lo, hi + 1)


def _cmd_agree(args: argparse.Namespace, out: TextIO) -> None:
    from .agreement import agree_stats, study_variants
    from .report import agreement_text, dumps, search_text

    a, b = _variants([args.variant_a, args.variant_b], args.set)
    orders = _order_range(args.search_order) if args.search_order else None
    study = agree_stats(a, b, _collect(args, study_variants(a, b, orders)), orders)
    if args.format == "json":
        out.write(dumps(study.to_dict()) + "\n")
        return
    lower = study.lower_a.name if study.lower_a else None
    out.write(agreement_text(a.name, b.name, lower, study.result))
    out.write(f"A: {a.signature(study.nrefs).long}\nB: {b.signature(study.nrefs).long}\n")
    if study.search:
        out.write(search_text(b.name, study.search, study.best_orders()))


def _cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    from .verify import verify

    streams, hyps = _read_inputs(args.ref, [args.input])
    v = verify(args.signature, streams, hyps[0][1], args.expect)
    score = f"{v.result.score:.{v.decimals + 2}f}"
    out.write(f"variant: {v.signature.long}\n")
    out.write(f"rescored: {v.result}\n")
    if v.reproduced:
        out.write(f"reproduced: {score} prints as {v.printed}, as claimed\n")
        return 0
    out.write(
        f"NOT reproduced: {score} prints as {v.printed}, claimed {args.expect} "
        f"(difference {v.difference:+.{v.decimals + 2}f})\n"
    )
    return 1


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> None:
    from .config import FAMILY_HELP, builtin_names
    from .loading import load_any_config

    for name in builtin_names():
        config = load_any_config(name)
        out.write(f"{name:<14} {config.description}\n")
    out.write(f"{'':<14} and {FAMILY_HELP}\n")


def _cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    from .report import signature_lines, variant_yaml

    variant = _any_variant(args.variant, args.set)
    nrefs = args.nrefs if args.nrefs == "var" else _positive_int(args.nrefs, "--nrefs")
    out.write(variant_yaml(variant.config))
    out.write("".join(f"# {line}\n" for line in signature_lines(variant.signature(nrefs))))


def _positive_int(text: str, what: str) -> int:
    from .errors import InputError

    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{what} must be a number or 'var', not {text!r}") from None
    if value < 1:
        raise InputError(f"{what} must be at least 1")
    return value


def _cmd_signature(args: argparse.Namespace, out: TextIO) -> None:
    from ._version import __version__
    from .report import dumps, variant_yaml
    from .signature import parse_signature

    if args.sig_command != "parse":
        args.usage.print_help(out)
        return
    from .chrf import is_chrf_signature, parse_chrf_signature
    from .config import CHRF_SCORING_FIELDS

    if is_chrf_signature(args.signature):
        chrf = parse_chrf_signature(args.signature)
        if args.format == "json":
            data = {"variant": {f: getattr(chrf.config, f) for f in CHRF_SCORING_FIELDS},
                    "nrefs": chrf.nrefs, **chrf.to_dict()}  # fmt: skip
            out.write(dumps(data) + "\n")
        else:
            out.write(variant_yaml(chrf.config) + f"# nrefs: {chrf.nrefs}\n")
        return
    sig = parse_signature(args.signature)
    if args.format == "json":
        variant = sig.config.scoring_dict()
        if sig.config.weights != "uniform":
            variant["weights"] = list(sig.config.weights)
        data = {"variant": variant, "nrefs": sig.nrefs, "version": sig.version, **sig.to_dict()}
        out.write(dumps(data) + "\n")
        return
    out.write(variant_yaml(sig.config))
    out.write(f"# nrefs: {sig.nrefs}\n# computed by bleukit {sig.version}\n")
    if sig.version != __version__:
        out.write(
            f"# this is bleukit {__version__}: components are versioned, so the same "
            "names compute the same numbers\n"
        )


def _cmd_components(args: argparse.Namespace, out: TextIO) -> None:
    from .engines import ENGINES, describe
    from .reflen import REF_LENGTHS
    from .smoothing import SMOOTHINGS
    from .tokenizers import SPLITTERS, TOKENIZERS

    engine = describe()  # a bad BLEUKIT_ENGINE stops before any output
    for registry in (TOKENIZERS, SPLITTERS, REF_LENGTHS, SMOOTHINGS, ENGINES):
        out.write(f"{registry.kind}s (entry-point group {registry.group}):\n")
        for entry in registry.entries():
            origin = "" if entry.origin == "builtin" else f"  [{entry.origin}]"
            out.write(f"  {entry.name:<18} {entry.description}{origin}\n")
        # a broken plugin is marked, not fatal: the rest of the list still helps
        for name, error in registry.broken().items():
            out.write(f"  {name:<18} BROKEN: {error}\n")
    out.write(f"engine: {engine}\n")


def _cmd_sample(args: argparse.Namespace, out: TextIO) -> None:
    from importlib import resources

    from .files import read_lines

    root = resources.files("bleukit.sample")
    prefix = "newstest2021.en-de"
    refs = [root / f"{prefix}.ref.{r}.200.txt" for r in ("A", "C")]
    systems = {s: root / f"{prefix}.hyp.{s}.200.txt" for s in ("Facebook-AI", "UEdin")}
    if args.paths:
        for p in [*refs, *systems.values()]:
            out.write(f"{p}\n")
        return
    streams = [read_lines(str(p)) for p in refs]
    # every variant loads (and may fail) before anything is written
    variants = _variants(args.variant or ["BLEUw4", "BLEUc18"], [])
    lines = [f"WMT21 news en-de, first 200 segments, references A and C ({root})"]
    for variant in variants:
        for system, path in systems.items():
            result = variant.corpus_score(read_lines(str(path)), streams)
            lines.append(f"{variant.name:<10} {system:<12} {result}")
        lines.append(f"{'':<10} signature: {variant.signature(len(streams)).long}")
    out.write("\n".join(lines) + "\n")


#: subcommand -> function(args, out) returning the exit status (None: 0)
COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int | None]] = {
    "score": _cmd_score,
    "compare": _cmd_compare,
    "agree": _cmd_agree,
    "matrix": _cmd_matrix,
    "report": _cmd_report,
    "verify": _cmd_verify,
    "variants": _cmd_variants,
    "show": _cmd_show,
    "signature": _cmd_signature,
    "components": _cmd_components,
    "sample": _cmd_sample,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; a failure to write the output (a full disk,
    a closed descriptor) is a one-line error and exit status 2."""
    try:
        code = _main(argv)
        sys.stdout.flush()
    except SystemExit:
        # --help, --version and usage errors print, then exit through argparse
        if _flush_failed():
            return EXIT_USER_ERROR
        raise
    except BrokenPipeError:
        # the reader went away (e.g. `| head`); nothing left to report
        _silence_stdout()
        sys.stderr.close()
        return 0
    except OSError as exc:  # reading is checked where files are read: this is writing
        _report_write_error(exc)
        return EXIT_USER_ERROR
    return code


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last
    flush of what could not be written does not fail again at exit."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _report_write_error(exc: OSError) -> None:
    _silence_stdout()
    sys.stderr.write(f"bleukit: error: cannot write the output: {exc.strerror or exc}\n")


def _flush_failed() -> bool:
    try:
        sys.stdout.flush()
    except OSError as exc:
        _report_write_error(exc)
        return True
    return False


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["sacrebleu"]:
        # sacrebleu's own options, parsed by its own parser
        from .compat.sacrebleu.cli import main as sacrebleu_main

        return sacrebleu_main(argv[1:])
    # the command is the first argument that is no option (--version is
    # the only option before it)
    parser = _build_parser(next((a for a in argv if not a.startswith("-")), ""))
    args = parser.parse_args(argv)
    out = sys.stdout
    if args.version:
        from ._version import __version__

        out.write(f"bleukit {__version__}\n")
        return 0
    if args.command is None:
        parser.print_help(out)
        return 0
    from .errors import BleukitError

    try:
        return COMMANDS[args.command](args, out) or 0
    except BleukitError as exc:
        sys.stderr.write(f"bleukit: error: {exc}\n")
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("bleukit: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
