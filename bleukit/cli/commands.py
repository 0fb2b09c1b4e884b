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
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TextIO

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from ..core.spec import SignificanceSpec, TestName
    from ..corpus.systems import SystemStatistics
    from ..metrics.base import AnyMetric

EXIT_USER_ERROR = 2
#: where options are added: a parser or one of its groups
_Group = argparse._ActionsContainer


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


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help with the descriptions and examples as written (they are
    wrapped by hand), at the terminal's width."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 30,
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
        # no abbreviations: --hyp FILE was taken as --hyp-col FILE, and the
        # hypotheses were then read from standard input
        kwargs.setdefault("allow_abbrev", False)
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
        epilog="bleukit COMMAND --help describes a command, with examples.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    # a known command gets its parser alone; otherwise (--help, a typo)
    # every command is listed
    names = [command] if command in _SUBCOMMANDS else list(_SUBCOMMANDS)
    for name in names:
        spec = _SUBCOMMANDS[name]
        # sacrebleu's -h is its own: its parser sees every argument after it
        command_parser = sub.add_parser(
            name,
            help=spec.help,
            description=spec.description,
            epilog=_examples(spec.examples),
            add_help=name != "sacrebleu",
        )
        if spec.options is not None and command in (None, name):
            spec.options(command_parser)
    return parser


def _examples(examples: tuple[str, ...]) -> str | None:
    return "examples:\n" + "".join(f"  {e}\n" for e in examples) if examples else None


#: what completion offers for an option's value (``_completion`` reads it)
_COMPLETE = "bleukit_complete"


def _completes(action: argparse.Action, kind: str) -> argparse.Action:
    """Mark what an option's value is, for shell completion: ``files``,
    ``variants`` (names and YAML files), ``set`` (KEY=VALUE overrides)."""
    setattr(action, _COMPLETE, kind)
    return action


def _add_variants(group: _Group, default: str, several: bool) -> None:
    """The variant option, spelled the same in every command: ``-v X -v Y``,
    ``--variant X``, ``--variants X,Y`` (one list: ``_requested``)."""
    what = "repeat it, or separate names with commas, for several" if several else "one variant"
    _completes(
        group.add_argument(
            "-v",
            "--variant",
            "--variants",
            dest="variant",
            action="append",
            metavar="VARIANT",
            help=f"built-in variant name or YAML file ({what}; default {default})",
        ),
        "variants",
    )


def _requested(args: argparse.Namespace) -> list[str] | None:
    """The variants given (-v/--variant/--variants, repeated or
    comma-separated), or None."""
    from ..config.model import split_variant_list

    if not args.variant:
        return None
    # a blank value stays one name: the loader's error says it is empty
    # (what an unset shell variable gives: -v "$VARIANT")
    return [
        n
        for value in args.variant
        for n in (split_variant_list(value) if value.strip() else [value])
    ]


def _add_quiet(group: _Group) -> None:
    group.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no warnings or notes on standard error (errors are still printed)",
    )


def _add_format(group: _Group, choices: tuple[str, ...], width: bool = True) -> None:
    group.add_argument(
        "--format",
        "-f",
        choices=choices,
        default=choices[0],
        help=f"output format: {', '.join(choices)} (default {choices[0]})",
    )
    if width:
        group.add_argument(
            "--width",
            "-w",
            type=int,
            default=2,
            metavar="N",
            help="decimals of the scores in text, Markdown and LaTeX output, 0-16 (default 2)",
        )


def _score_options(score: argparse.ArgumentParser) -> None:
    inputs = score.add_argument_group("input")
    _add_refs(inputs, required=False)
    _add_inputs(inputs, "hypothesis file(s), each scored separately (default: standard input)")
    inputs.add_argument(
        "--testset", "-t", help="a sacrebleu test set from its cache ($SACREBLEU), in place of -r"
    )
    inputs.add_argument("--langpair", help="the test set's language pair (SRC-TRG)")
    _completes(
        inputs.add_argument(
            "--parquet",
            metavar="PATH",
            help="a Parquet file or directory of parts, in place of -r/-i",
        ),
        "files",
    )
    inputs.add_argument("--hyp-col", default="hyp", help="--parquet: the hypothesis column (hyp)")
    inputs.add_argument(
        "--ref-col", action="append", metavar="COL", help="--parquet: a reference column (ref)"
    )
    variant = score.add_argument_group("variant")
    _add_variants(variant, "BLEUw4, or chosen by --lang", several=False)
    _add_lang(variant)
    _add_set(variant)
    output = score.add_argument_group("output")
    _add_format(output, ("text", "json"))
    output.add_argument("--sentence", action="store_true", help="score every segment separately")
    _completes(
        output.add_argument(
            "--out", metavar="OUT.parquet", help="--parquet --sentence: write the scores here"
        ),
        "files",
    )
    _add_quiet(output)
    interval = score.add_argument_group("confidence interval")
    interval.add_argument(
        "--confidence", "-ci", action="store_true", help="add a bootstrap confidence interval"
    )
    _add_resampling_args(interval, tests=False)
    _add_executor(score.add_argument_group("execution"))


def _system_options(
    parser: argparse.ArgumentParser,
    hyp_help: str,
    default: str | None,
    formats: tuple[str, ...] = (),
    width: bool = True,
) -> _Group:
    """What every command of several systems takes: references, systems
    and their names; the variants (``default``; None: the command names its
    own); the output's format and --quiet. The output group, for more."""
    inputs = parser.add_argument_group("input")
    _add_refs(inputs)
    _add_inputs(inputs, hyp_help, required=True)
    _add_names(inputs)
    if default is not None:
        variants = parser.add_argument_group("variants")
        _add_variants(variants, default, several=True)
        _add_lang(variants)
        _add_set(variants)
    output = parser.add_argument_group("output")
    if formats:
        _add_format(output, formats, width)
    _add_quiet(output)
    return output


def _compare_options(compare: argparse.ArgumentParser) -> None:
    formats = ("text", "json", "markdown", "latex", "csv")
    baseline = "hypothesis files; the first is the baseline"
    _system_options(compare, baseline, "BLEUw4, or chosen by --lang", formats)
    _add_resampling_args(compare.add_argument_group("significance"), tests=True)
    _add_executor(compare.add_argument_group("execution"))


def _agree_options(agree: argparse.ArgumentParser) -> None:
    _completes(
        agree.add_argument("variant_a", metavar="VARIANT_A", help="e.g. BLEUw4 (the word variant)"),
        "variants",
    )
    _completes(
        agree.add_argument("variant_b", metavar="VARIANT_B", help="e.g. BLEUc18"), "variants"
    )
    _system_options(agree, "hypothesis files, one per system", None, ("text", "json"), False)
    study = agree.add_argument_group("study")
    _add_set(study)
    study.add_argument(
        "--search-order",
        metavar="FIRST..LAST",
        help="try VARIANT_B at every max order in the range and report the best for each criterion",
    )
    _add_executor(agree.add_argument_group("execution"))


#: the default variants of matrix and report
_PAIR = "BLEUw4,BLEUc18; with --lang, the variant it picks"


def _matrix_options(matrix: argparse.ArgumentParser) -> None:
    formats = ("text", "json", "markdown", "latex")
    _system_options(matrix, "hypothesis files, one per system", _PAIR, formats)
    _add_executor(matrix.add_argument_group("execution"))


def _report_options(report: argparse.ArgumentParser) -> None:
    output = _system_options(report, "hypothesis files; the first is the baseline", _PAIR)
    _completes(
        output.add_argument("-o", "--output", required=True, help="the HTML file to write"),
        "files",
    )
    significance = report.add_argument_group("significance")
    significance.add_argument(
        "--samples", type=int, default=1000, help="bootstrap resamples (default 1000)"
    )
    significance.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    _add_executor(report.add_argument_group("execution"))


def _verify_options(verify: argparse.ArgumentParser) -> None:
    verify.add_argument(
        "--signature", "-s", required=True, help="the signature published with the score"
    )
    _add_refs(verify)
    _completes(
        verify.add_argument("-i", "--input", required=True, metavar="HYP", help="the hypotheses"),
        "files",
    )
    verify.add_argument("--expect", required=True, help="the published score, e.g. 31.2")


def _variants_options(variants: argparse.ArgumentParser) -> None:
    variants.add_argument("--names", action="store_true", help="the names alone, one per line")


def _show_options(show: argparse.ArgumentParser) -> None:
    _completes(show.add_argument("variant", help="built-in variant name or YAML file"), "variants")
    _add_set(show)
    show.add_argument(
        "--nrefs", default="1", help="number of references for the signature (default 1, or var)"
    )


def _signature_options(sig: argparse.ArgumentParser) -> None:
    sig.set_defaults(usage=sig)
    sig_sub = sig.add_subparsers(
        dest="sig_command", metavar="ACTION", parser_class=_Parser, help="parse"
    )
    parse = sig_sub.add_parser(
        "parse",
        help="rebuild the variant a signature describes",
        description="Print the variant a signature describes, as YAML that loads back as it.",
    )
    parse.add_argument("signature", help="a long or short signature (BLEU or chrF)")
    _add_format(parse, ("yaml", "json"), width=False)


def _components_options(components: argparse.ArgumentParser) -> None:
    components.add_argument(
        "--names",
        metavar="KIND",
        choices=("tokenizer", "splitter", "reflen", "smoothing", "engine"),
        help="the names of one kind of component alone, one per line "
        "(tokenizer, splitter, reflen, smoothing, engine)",
    )


def _sample_options(sample: argparse.ArgumentParser) -> None:
    _add_variants(sample, "BLEUw4,BLEUc18", several=True)
    sample.add_argument("--paths", action="store_true", help="print the sample files' paths")


def _completion_options(completion: argparse.ArgumentParser) -> None:
    completion.add_argument("shell", choices=("bash", "zsh", "fish"), help="bash, zsh or fish")


_Options = Callable[[argparse.ArgumentParser], None]


class _Command(NamedTuple):
    """A command: its line in ``bleukit --help``, what adds its options,
    the paragraph of its own --help, and examples."""

    help: str
    options: _Options | None
    description: str | None = None
    examples: tuple[str, ...] = ()


#: every command
_SUBCOMMANDS: dict[str, _Command] = {
    "score": _Command(
        "score hypothesis files against references",
        _score_options,
        """\
Score hypothesis files against references under one variant: each file's
corpus score with its signature, or with --sentence every segment's score.
References come from -r files, a sacrebleu test set (--testset) or a
Parquet table (--parquet). Files are streamed; files of different lengths
are an error, never truncated.""",
        (
            "bleukit score -r ref.txt -i hyp.txt",
            "bleukit score -v chrF++ -r ref.A.txt ref.B.txt -i sys1.txt sys2.txt -f json",
            "bleukit score -v sacrebleu-sentence -r ref.txt -i hyp.txt --sentence",
            "bleukit score --lang ja -r ref.txt -i hyp.txt --confidence",
        ),
    ),
    "compare": _Command(
        "scores, intervals and paired significance tests against a baseline",
        _compare_options,
        """\
Score several systems under one or more variants and test each against the
first (the baseline): paired bootstrap resampling (default) or approximate
randomization. Prints scores, intervals and p-values as text, JSON,
Markdown, LaTeX or CSV, with each variant's signature.""",
        (
            "bleukit compare -r ref.txt -i base.txt sysA.txt sysB.txt",
            "bleukit compare -v BLEUw4,BLEUc18 -r ref.txt -i base.txt sysA.txt -f latex",
            "bleukit compare --paired-ar -r ref.txt -i base.txt sysA.txt",
        ),
    ),
    "agree": _Command(
        "how far two variants agree (Denoual & Lepage 2005): r, kappa, ranks",
        _agree_options,
        """\
Measure how far two variants agree on a set of systems (Denoual & Lepage
2005): the correlation of their scores, the agreement of their pairwise
decisions and of their rankings. --search-order tries VARIANT_B at every
n-gram order in a range.""",
        (
            "bleukit agree BLEUw4 BLEUc18 -r ref.txt -i sys1.txt sys2.txt sys3.txt",
            "bleukit agree BLEUw4 BLEUc18 -r ref.txt -i sys*.txt --search-order 1..30",
        ),
    ),
    "matrix": _Command(
        "every system under every variant: scores, ranks, Kendall tau, rank flips",
        _matrix_options,
        """\
Score every system under every variant (BLEU and chrF), sharing
tokenization and statistics between variants: the scores, each variant's
ranking, Kendall's tau between the rankings and the pairs of systems that
change order.""",
        (
            "bleukit matrix -r ref.txt -i sysA.txt sysB.txt sysC.txt",
            "bleukit matrix -v BLEUw4,sacrebleu,chrF -r ref.txt -i sys*.txt -f markdown",
            "bleukit matrix --lang zh -r ref.txt -i sys*.txt",
        ),
    ),
    "report": _Command(
        "a self-contained HTML report of several systems",
        _report_options,
        """\
Write one self-contained HTML file comparing several systems (the first is
the baseline): scores with intervals and paired tests under each variant,
and the segments side by side with their matched n-grams.""",
        (
            "bleukit report -r ref.txt -i base.txt sysA.txt -o report.html",
            "bleukit report -v BLEUw4,BLEUc18 -r ref.txt -i base.txt sysA.txt sysB.txt -o r.html",
        ),
    ),
    "verify": _Command(
        "rescore with a published signature, check a claim",
        _verify_options,
        """\
Rescore a hypothesis file with the variant a published signature describes
and check the claimed score at the precision it was printed with: exit 0
when it is reproduced, 1 when it is not.""",
        ("bleukit verify -s 'bk|t:13a.v1|...' -r ref.txt -i hyp.txt --expect 31.2",),
    ),
    "variants": _Command(
        "list built-in variants",
        _variants_options,
        """\
List the built-in variants, one line each: the name and what it computes.
The families BLEUwN, BLEUcM and BLEUcM-space exist for any order, and any
field can be overridden (--set KEY=VALUE, or NAME[key=value]).""",
        ("bleukit variants", "bleukit variants --names"),
    ),
    "show": _Command(
        "print a variant's complete YAML and signature",
        _show_options,
        """\
Print a variant's complete YAML (everything it extends resolved, every
override applied) and its signature; the YAML loads back as the same
variant.""",
        ("bleukit show BLEUc18", "bleukit show sacrebleu --set tokenizer=intl --nrefs 2"),
    ),
    "signature": _Command(
        "work with signatures",
        _signature_options,
        "Work with signatures: parse rebuilds the variant a signature describes.",
        ("bleukit signature parse 'bk|t:char.v1|sp:unicode.v1|c:m|n:18|w:u|r:closest.v1|...'",),
    ),
    "components": _Command(
        "list registered components, plugins included",
        _components_options,
        """\
List every registered component (tokenizers, splitters, reference-length
policies, smoothing methods, engines), plugins included; a broken plugin is
listed with its distribution and its error, the rest stay usable.""",
        ("bleukit components", "bleukit components --names tokenizer"),
    ),
    "sacrebleu": _Command(
        "sacrebleu 2.6.0's command line and output (BLEU, chrF): bleukit sacrebleu ARGS...",
        None,
    ),
    "sample": _Command(
        "score the bundled WMT21 en-de sample",
        _sample_options,
        "Score the bundled WMT21 en-de sample (200 segments, two systems, two references).",
        ("bleukit sample", "bleukit sample -v chrF,sacrebleu", "bleukit sample --paths"),
    ),
    "completion": _Command(
        "print a shell completion script (bash, zsh, fish)",
        _completion_options,
        """\
Print a completion script for bash, zsh or fish: commands, options, their
choices, files, and variant and component names (asked of bleukit as you
type, so plugins and YAML files are included).""",
        (
            'eval "$(bleukit completion bash)"      # in ~/.bashrc',
            'eval "$(bleukit completion zsh)"       # in ~/.zshrc',
            "bleukit completion fish > ~/.config/fish/completions/bleukit.fish",
        ),
    ),
}


def _add_refs(group: _Group, required: bool = True) -> None:
    _completes(
        group.add_argument(
            "-r",
            "--ref",
            action="append",
            nargs="+",
            required=required,
            metavar="REF",
            help="reference file(s), each aligned line by line with the hypotheses",
        ),
        "files",
    )


def _add_inputs(group: _Group, help: str, required: bool = False) -> None:
    _completes(
        group.add_argument(
            "-i", "--input", action="append", nargs="+", required=required, metavar="HYP", help=help
        ),
        "files",
    )


def _add_set(group: _Group) -> None:
    _completes(
        group.add_argument(
            "--set",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="override a variant field, e.g. --set max_order=2 --set lowercase=true",
        ),
        "set",
    )


def _add_lang(group: _Group) -> None:
    group.add_argument(
        "--lang", "-l", help="target language: picks the variant when --variant is not given"
    )


def _add_executor(group: _Group) -> None:
    group.add_argument(
        "--executor",
        choices=("local", "dask"),
        default="local",
        help="where the files' chunks are counted: this process (local, default) or the "
        "workers of a running Dask cluster (dask, with --scheduler; pip install 'bleukit[dask]')",
    )
    group.add_argument("--scheduler", metavar="ADDR", help="--executor dask: tcp://host:8786")


def _add_names(group: _Group) -> None:
    group.add_argument(
        "--names", help="comma-separated system names (default: the files' names without extension)"
    )


def _add_resampling_args(group: _Group, tests: bool) -> None:
    if tests:
        which = group.add_mutually_exclusive_group()
        which.add_argument("--paired-bs", action="store_true", help="paired bootstrap (default)")
        which.add_argument("--paired-ar", action="store_true", help="approximate randomization")
        group.add_argument(
            "--confidence-samples",
            type=int,
            default=1000,
            help="bootstrap resamples for the intervals with --paired-ar "
            "(default 1000; 0: no intervals)",
        )
    group.add_argument(
        "--samples",
        type=int,
        default=None,
        help="resamples or trials (default 1000 for bootstrap, 10000 for --paired-ar)"
        if tests
        else "bootstrap resamples (default 1000)",
    )
    group.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    group.add_argument("--level", type=float, default=0.95, help="interval level (default 0.95)")
    group.add_argument(
        "--compat",
        choices=("none", "sacrebleu"),
        default="none",
        help="sacrebleu: the same resamples, p-values and intervals as sacrebleu 2.6.0 "
        "(needs NumPy)",
    )


def _test_spec(args: argparse.Namespace, paired: bool) -> SignificanceSpec:
    from ..core.spec import DEFAULT_SAMPLES, SignificanceSpec

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
    from ..io.files import check_read_once, check_same_length, display_name, read_lines

    check_read_once([*_flatten(ref_groups), *hyp_paths])
    refs = [(p, read_lines(p)) for p in _flatten(ref_groups)]
    hyps = []
    for p in hyp_paths:
        name = display_name(p)
        hyps.append((name, read_lines(p)))
        check_same_length(name, hyps[-1][1], refs)
    return [lines for _, lines in refs], hyps


def _variant_names(
    args: argparse.Namespace, default: Sequence[str] = ("BLEUw4",), beside: Sequence[str] = ()
) -> list[str]:
    """The variants asked for (-v), else the one --lang picks (said on
    stderr) with ``beside`` it, else ``default``."""
    from ..tokenizers.languages import variant_for_language

    requested = _requested(args)
    if requested:
        return requested
    if args.lang:
        name, why = variant_for_language(args.lang)
        _note(args, f"--lang {args.lang}: using variant {name} ({why})")
        return [name, *(b for b in beside if b != name)]
    return list(default)


def _one_variant(args: argparse.Namespace) -> AnyMetric:
    """``bleukit score``'s variant: exactly one."""
    from ..core.errors import InputError

    names = _variant_names(args)
    if len(names) > 1:
        raise InputError(
            f"score takes one variant, not {len(names)} ({', '.join(names)}); "
            "bleukit matrix scores every system under several"
        )
    return _any_variant(names[0], args.set)


def _note(args: argparse.Namespace, text: str) -> None:
    """A line on standard error (``bleukit: ...``), unless --quiet."""
    if not getattr(args, "quiet", False):
        sys.stderr.write(f"bleukit: {text}\n")


def _warn_language(args: argparse.Namespace, variants: Sequence[AnyMetric]) -> None:
    """A warning for each word variant whose tokenizer cannot split the
    target language (--lang) or, without --lang, the script the first
    hypothesis file is mostly in (standard input is not looked at: it
    cannot be read twice)."""
    from ..io.files import sample_text
    from ..tokenizers.languages import SEGMENTING_TOKENIZERS, script_warning, tokenizer_warning

    # (a variant whose tokenizer segments any script is never warned about)
    words = [
        (v, v.language_tokenizer)
        for v in variants
        if v.language_tokenizer is not None and v.language_tokenizer not in SEGMENTING_TOKENIZERS
    ]
    paths = _flatten(args.input)
    sample = sample_text(paths[0]) if words and paths and not args.quiet else None
    lang = getattr(args, "lang", None)  # agree has no --lang
    for variant, tokenizer in words:
        warning = lang and tokenizer_warning(lang, tokenizer)
        if not warning and sample:
            warning = script_warning(sample, tokenizer)
        if warning:
            _note(args, f"warning: {variant.name}: {warning}")


def _variants(names: Sequence[str], pairs: list[str]) -> list[AnyMetric]:
    """The named variants of any metric with the --set overrides, all
    loaded (and checked) before any work."""
    return [_any_variant(name, pairs) for name in names]


def _any_variant(name: str, pairs: list[str]) -> AnyMetric:
    """A variant of any metric (BLEU, chrF...) with the --set overrides."""
    from ..config.model import parse_override
    from ..metrics import load_metric

    return load_metric(name, **dict(parse_override(p) for p in pairs))


def _check_width(width: int) -> None:
    if not 0 <= width <= 16:
        from ..core.errors import InputError

        raise InputError("--width must be between 0 and 16")


def _system_names(args: argparse.Namespace, paths: list[str]) -> list[str]:
    import os

    from ..core.errors import InputError

    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != len(paths):
            raise InputError(f"--names gives {len(names)} names for {len(paths)} systems")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise InputError(f"--names: each system needs its own name; {', '.join(twice)} repeats")
        return names
    # the file's name without its extension (.txt, .txt.gz), else its name,
    # else the path: the shortest that tells the systems apart
    names = [os.path.basename(os.path.normpath(p)) for p in paths]
    stems = [os.path.splitext(n[:-3] if n.endswith(".gz") else n)[0] or n for n in names]
    for candidate in (stems, names):
        if len(set(candidate)) == len(candidate):
            return candidate
    return paths


def _system_files(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The names and hypothesis files of a multi-system command."""
    hyp_paths = _flatten(args.input)
    return _system_names(args, hyp_paths), hyp_paths


def _collect(
    args: argparse.Namespace,
    variants: Sequence[AnyMetric],
    on_chunk: Callable[[list[list[str]], list[list[str]]], None] | None = None,
    per_segment: bool = True,
) -> SystemStatistics:
    """The statistics of every system of a multi-system command under
    ``variants``; ``on_chunk`` sees every chunk; ``per_segment``: as
    ``SystemStatistics`` (False: sums only, for corpus scores)."""
    names, paths = _system_files(args)
    return _collect_files(args, variants, _flatten(args.ref), paths, names, on_chunk, per_segment)


def _collect_files(
    args: argparse.Namespace,
    variants: Sequence[AnyMetric],
    ref_paths: list[str],
    hyp_paths: list[str],
    names: list[str],
    on_chunk: Callable[[list[list[str]], list[list[str]]], None] | None = None,
    per_segment: bool = True,
) -> SystemStatistics:
    """The statistics of hypothesis files (``names``) under ``variants``,
    the files read a chunk at a time (text is not kept), each chunk counted
    here or by the executor that --executor names (chosen here only)."""
    from ..core.errors import InputError
    from ..corpus.streaming import system_chunks
    from ..corpus.systems import SystemStatistics

    if args.executor == "local" and args.scheduler:
        raise InputError("--scheduler goes with --executor dask")
    batch = max(v.engine.batch_lines() for v in variants)
    chunks = system_chunks(ref_paths, hyp_paths, batch, progress=True)
    if on_chunk is not None:
        chunks = _seen(chunks, on_chunk)
    if args.executor == "dask":
        if not args.scheduler:
            raise InputError("--executor dask needs --scheduler ADDR (e.g. tcp://host:8786)")
        from ..dask import collect_chunks

        return collect_chunks(args.scheduler, variants, names, chunks, per_segment)
    stats = SystemStatistics(variants, names, per_segment)
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
    from ..report import text as report

    if fmt == "json":
        out.write(report.dumps(blocks) + "\n")
    else:
        out.write("\n".join(map(str, blocks)) + "\n")


# ----------------------------------------------------------------- commands


def _cmd_score(args: argparse.Namespace, out: TextIO) -> None:
    from ..core.errors import InputError
    from ..corpus import streaming

    if args.parquet is not None:
        _score_parquet(args, out)
        return
    if args.out is not None:
        raise InputError("--out goes with --parquet --sentence")
    args.ref = _score_references(args)
    variant = _one_variant(args)
    _check_width(args.width)
    if args.executor != "local" and (args.sentence or args.confidence):
        raise InputError(
            "--executor: only corpus scores are computed on an executor; "
            "--sentence and --confidence run here (drop --executor)"
        )
    _warn_language(args, [variant])
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
    variant: AnyMetric,
    spec: SignificanceSpec,
    stats: SystemStatistics,
    systems: list[tuple[str, str]],
) -> list[object]:
    """``score --confidence``: the bootstrap interval of every system (its
    key in ``stats``, its name) from statistics collected a chunk at a time."""
    from ..report import text as report
    from ..significance.paired import confidence

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
    from ..core.errors import InputError
    from ..corpus import parquet as arrow

    if args.ref or args.input or args.testset:
        raise InputError("--parquet reads hypotheses and references from the table: no -r, -i, -t")
    if args.executor != "local" or args.scheduler:
        raise InputError("--parquet runs here: drop --executor/--scheduler")
    _check_width(args.width)
    variant = _one_variant(args)
    refs = args.ref_col or ["ref"]
    if args.confidence:
        if args.sentence:
            raise InputError("--confidence applies to corpus scores, not to --sentence")
        from ..corpus.systems import collect_chunks

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
    from ..core.errors import InputError

    paths = _flatten(args.input)
    if paths:
        return paths
    if sys.stdin is None or sys.stdin.isatty():
        raise InputError("no hypotheses: give -i FILE or pipe them on standard input")
    return ["-"]


def _score_references(args: argparse.Namespace) -> list[list[str]]:
    """The reference files: -r, or a test set's default references."""
    from ..core.errors import InputError

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
    from ..io.testsets import locate

    return [[str(p) for p in locate(args.testset, args.langpair).references]]


def _collected_corpus_blocks(
    args: argparse.Namespace,
    variant: AnyMetric,
    ref_paths: list[str],
    hyp_paths: list[str],
) -> list[object]:
    """The corpus score of every hypothesis file, from statistics collected
    a chunk at a time (here, or on the executor --executor names)."""
    stats, files = _collect_hypothesis_files(args, variant, ref_paths, hyp_paths, False)
    return [
        _corpus_block(args, variant.name, name, stats.score(variant, key)) for key, name in files
    ]


def _collect_hypothesis_files(
    args: argparse.Namespace,
    variant: AnyMetric,
    ref_paths: list[str],
    hyp_paths: list[str],
    per_segment: bool = True,
) -> tuple[SystemStatistics, list[tuple[str, str]]]:
    """``bleukit score``'s files collected under one variant, and per file
    its key in the statistics and its name (keys, not names: the same file
    may come twice); ``per_segment``: as ``SystemStatistics``."""
    from ..io.files import display_name

    keys = [str(i) for i in range(len(hyp_paths))]
    stats = _collect_files(args, [variant], ref_paths, hyp_paths, keys, per_segment=per_segment)
    return stats, list(zip(keys, map(display_name, hyp_paths)))


def _corpus_block(args: argparse.Namespace, variant: str, hyp: str, result: Any) -> object:
    from ..report import text as report

    if args.format == "json":
        return report.corpus_json_object(variant, hyp, result)
    return report.corpus_text(variant, hyp, result, args.width)


def _stream_sentence_scores(
    args: argparse.Namespace,
    variant: AnyMetric,
    ref_paths: list[str],
    hyp_paths: list[str],
    out: TextIO,
) -> None:
    """Sentence scores of every hypothesis file, the files read in step a
    batch at a time. Each file's output waits in a spool (memory, then a
    temporary file) and reaches ``out`` only when every segment has been
    read and scored, so an error (invalid UTF-8 late in a file, a short
    standard input) leaves no partial output."""
    from ..corpus import streaming
    from ..io.files import Spool, display_name
    from ..report import text as report

    # a segment's JSON leaves out its block's signature keys, which are the
    # same whatever the number of references
    as_json = None
    if args.format == "json":
        as_json = report.SentenceJson(variant.signature(len(ref_paths)))
    spools = [Spool() for _ in hyp_paths]
    zeros = segments = 0
    try:
        nrefs: set[int | str] = set()
        for batch in streaming.systems_sentence_scores(variant, ref_paths, hyp_paths, True):
            nrefs.add(batch.nrefs)
            for spool, results in zip(spools, batch.results):
                segments += len(results)
                zeros += sum(r.score < 1e-9 for r in results) if variant.zero_without_match else 0
                if as_json is None:
                    spool.write("".join(r.format(args.width) + "\n" for r in results))
                else:
                    spool.write(
                        (as_json.SEPARATOR if spool.size else "") + as_json.segments(results)
                    )
        sig = variant.signature(nrefs.pop() if len(nrefs) == 1 else "var")
        # a quarter of zeros already moves an average of sentence scores
        if zeros and 4 * zeros >= segments:
            _note(
                args,
                f"warning: {variant.name}: {zeros:,} of {segments:,} sentence scores are 0: "
                "without smoothing, a sentence with no matching n-gram of one order scores 0; "
                "for sentence BLEU use -v sacrebleu-sentence or --set smoothing=exp",
            )
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
    from ..report.tables import FORMATS, Column
    from ..significance.paired import paired_test

    _check_width(args.width)
    spec = _test_spec(args, paired=True)
    variants = _variants(_variant_names(args), args.set)
    _warn_language(args, variants)
    stats = _collect(args, variants)
    columns = []
    for variant in variants:
        systems = [(name, stats.segment_stats(variant, name)) for name in stats.systems]
        rows = paired_test(variant, systems, stats.nrefs, spec)
        columns.append(Column(variant.name, variant.signature(stats.nrefs).with_test(spec), rows))
    out.write(FORMATS[args.format](columns, args.width))


def _cmd_matrix(args: argparse.Namespace, out: TextIO) -> None:
    from ..analysis import matrix
    from ..report import matrix as matrix_formats

    _check_width(args.width)
    # a matrix needs two variants: with --lang, its variant and chrF, which
    # needs no word segmentation in any language
    names = _variant_names(args, default=("BLEUw4", "BLEUc18"), beside=("chrF",))
    variants = _variants(names, args.set)
    _warn_language(args, variants)
    stats = _collect(args, variants, per_segment=False)
    out.write(matrix_formats.FORMATS[args.format](matrix.from_stats(variants, stats), args.width))


def _cmd_report(args: argparse.Namespace, out: TextIO) -> None:
    from ..core.spec import SignificanceSpec
    from ..io.files import Spool, write_text_file
    from ..report.html import side_by_side, write_report

    variants = _variants(_variant_names(args, default=("BLEUw4", "BLEUc18")), args.set)
    _warn_language(args, variants)
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
    from ..config.model import MAX_ORDER_LIMIT
    from ..core.errors import InputError

    first, sep, last = text.partition("..")
    try:
        lo, hi = int(first), int(last)
    except ValueError:
        raise InputError(f"--search-order {text!r}: expected FIRST..LAST, e.g. 1..30") from None
    if not sep or not 1 <= lo <= hi <= MAX_ORDER_LIMIT:
        raise InputError(f"--search-order {text!r}: need 1 <= FIRST <= LAST <= {MAX_ORDER_LIMIT}")
    return range(lo, hi + 1)


def _cmd_agree(args: argparse.Namespace, out: TextIO) -> None:
    from ..analysis.agreement import agree_stats, study_variants
    from ..report.text import agreement_text, dumps, search_text

    a, b = _variants([args.variant_a, args.variant_b], args.set)
    _warn_language(args, [a, b])
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
    from ..analysis.verify import verify

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
    from ..config.loading import load_any_config
    from ..config.model import FAMILY_HELP, builtin_names

    if args.names:
        out.write("".join(f"{name}\n" for name in builtin_names()))
        return
    for name in builtin_names():
        config = load_any_config(name)
        out.write(f"{name:<14} {config.description}\n")
    out.write(f"{'':<14} and {FAMILY_HELP}\n")


def _cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    from ..report.text import signature_lines, variant_yaml

    variant = _any_variant(args.variant, args.set)
    nrefs = args.nrefs if args.nrefs == "var" else _positive_int(args.nrefs, "--nrefs")
    out.write(variant_yaml(variant.config))
    out.write("".join(f"# {line}\n" for line in signature_lines(variant.signature(nrefs))))


def _positive_int(text: str, what: str) -> int:
    from ..core.errors import InputError

    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{what} must be a number or 'var', not {text!r}") from None
    if value < 1:
        raise InputError(f"{what} must be at least 1")
    return value


def _cmd_signature(args: argparse.Namespace, out: TextIO) -> None:
    from .._version import __version__
    from ..metrics.bleu.signature import parse_signature
    from ..report.text import dumps, variant_yaml

    if args.sig_command != "parse":
        args.usage.print_help(out)
        return
    from ..config.model import CHRF_SCORING_FIELDS
    from ..metrics.chrf.core import is_chrf_signature, parse_chrf_signature

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
    from ..core.reflen import REF_LENGTHS
    from ..core.registry import Registry
    from ..core.smoothing import SMOOTHINGS
    from ..engines import ENGINES, describe
    from ..tokenizers import SPLITTERS, TOKENIZERS

    registries: dict[str, Registry[Any]] = {
        "tokenizer": TOKENIZERS, "splitter": SPLITTERS, "reflen": REF_LENGTHS,
        "smoothing": SMOOTHINGS, "engine": ENGINES,
    }  # fmt: skip
    if args.names:
        out.write("".join(f"{name}\n" for name in registries[args.names].names()))
        return
    engine = describe()  # a bad BLEUKIT_ENGINE stops before any output
    for registry in registries.values():
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

    from ..io.files import read_lines

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
    variants = _variants(_requested(args) or ["BLEUw4", "BLEUc18"], [])
    lines = [f"WMT21 news en-de, first 200 segments, references A and C ({root})"]
    for variant in variants:
        for system, path in systems.items():
            result = variant.corpus_score(read_lines(str(path)), streams)
            lines.append(f"{variant.name:<10} {system:<12} {result}")
        lines.append(f"{'':<10} signature: {variant.signature(len(streams)).long}")
    out.write("\n".join(lines) + "\n")


def _cmd_completion(args: argparse.Namespace, out: TextIO) -> None:
    from .completion import script

    parser = _build_parser(None)
    out.write(script(args.shell, parser, _COMPLETE))


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
    "completion": _cmd_completion,
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
        from ..compat.sacrebleu.cli import main as sacrebleu_main

        return sacrebleu_main(argv[1:])
    # the command is the first argument that is no option (--version is
    # the only option before it)
    parser = _build_parser(next((a for a in argv if not a.startswith("-")), ""))
    args = parser.parse_args(argv)
    out = sys.stdout
    if args.version:
        from .._version import __version__

        out.write(f"bleukit {__version__}\n")
        return 0
    if args.command is None:
        parser.print_help(out)
        return 0
    from ..core.errors import BleukitError

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
