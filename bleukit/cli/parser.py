"""The ``bleukit`` command line's parser: every command, its options, its
help and examples (``commands`` runs them). Options are spelled the same in
every command; shell completion (``completion``) is written from this
parser. Building one command's parser is all a run pays for at start-up.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
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
    names = [command] if command in SUBCOMMANDS else list(SUBCOMMANDS)
    for name in names:
        spec = SUBCOMMANDS[name]
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
COMPLETE = "bleukit_complete"


def _completes(action: argparse.Action, kind: str) -> argparse.Action:
    """Mark what an option's value is, for shell completion: ``files``,
    ``variants`` (names and YAML files), ``set`` (KEY=VALUE overrides)."""
    setattr(action, COMPLETE, kind)
    return action


def _add_variants(group: _Group, default: str, several: bool) -> None:
    """The variant option, spelled the same in every command: ``-v X -v Y``,
    ``--variant X``, ``--variants X,Y`` (one list: ``arguments.requested``)."""
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


def _add_scores(group: _Group) -> None:
    """External segment scores as metrics beside the variants."""
    _completes(
        group.add_argument(
            "--scores",
            action="append",
            default=[],
            metavar="NAME=FILE",
            help="another metric's segment scores (COMET, BLEURT...), studied, compared and "
            "ranked beside the variants as NAME: system<TAB>segment<TAB>score lines, "
            "mt-metrics-eval's 'system score' lines (*.seg.score), or a directory of one file "
            "per system, one score a line; a system's score is its segments' mean",
        ),
        "files",
    )
    group.add_argument(
        "--scores-about",
        action="append",
        default=[],
        metavar="NAME=TEXT",
        help="what the scores NAME are (model, version, references), kept in their signature "
        "beside the file's sha256",
    )
    group.add_argument(
        "--scores-lower",
        action="append",
        default=[],
        metavar="NAME",
        help="the scores NAME are better when lower (MetricX, an error count)",
    )


def _add_quiet(group: _Group) -> None:
    group.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no warnings or notes on standard error (errors are still printed)",
    )


def _add_format(
    group: _Group, choices: tuple[str, ...], width: bool = True, decimals: int = 2
) -> None:
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
            default=decimals,
            metavar="N",
            help=f"decimals of the scores in text, Markdown and LaTeX output, 0-16 "
            f"(default {decimals})",
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
    scores: bool = False,
) -> _Group:
    """What every command of several systems takes: references, systems
    and their names; the variants (``default``; None: the command names its
    own), with external scores beside them (``scores``); the output's
    format and --quiet. The output group, for more."""
    inputs = parser.add_argument_group("input")
    _add_refs(inputs)
    _add_inputs(inputs, hyp_help, required=True)
    _add_names(inputs)
    if default is not None:
        variants = parser.add_argument_group("variants")
        _add_variants(variants, default, several=True)
        _add_lang(variants)
        _add_set(variants)
        if scores:
            _add_scores(variants)
    output = parser.add_argument_group("output")
    if formats:
        _add_format(output, formats, width)
    _add_quiet(output)
    return output


def _compare_options(compare: argparse.ArgumentParser) -> None:
    formats = ("text", "json", "markdown", "latex", "csv")
    baseline = "hypothesis files; the first is the baseline (but see --all-pairs)"
    output = _system_options(compare, baseline, "BLEUw4, or chosen by --lang", formats, scores=True)
    output.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="VARIANT=TEXT",
        help="-f latex: the column label of a variant (default: its score name, BLEU for "
        "sacrebleu, where no other variant has it)",
    )
    output.add_argument(
        "--latex-interval",
        choices=("none", "pm", "ci"),
        default="none",
        help="-f latex: each score's interval as well, as +- its half-width (pm) or its bounds "
        "(ci); default none",
    )
    output.add_argument(
        "--latex-matrix",
        action="store_true",
        help="-f latex with --all-pairs: each metric's matrix of corrected p-values too, its "
        "upper triangle, systems numbered",
    )
    significance = compare.add_argument_group("significance")
    _add_resampling_args(significance, tests=True)
    _completes(
        significance.add_argument(
            "--human-agreement",
            metavar="FILE",
            help="beside each p-value, the estimated share of such deltas that humans agree "
            "with, from the curves bleukit meta --save-agreement wrote (Kocmi et al. 2024)",
        ),
        "files",
    )
    significance.add_argument(
        "--all-pairs",
        action="store_true",
        help="test every pair of systems, not each against the first; rank them in clusters",
    )
    significance.add_argument(
        "--correction",
        choices=("holm", "bonferroni", "bh", "none"),
        default=None,
        help="--all-pairs: how the p-values are corrected for testing every pair "
        "(default holm; bh: Benjamini-Hochberg)",
    )
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
    _system_options(matrix, "hypothesis files, one per system", _PAIR, formats, scores=True)
    _add_executor(matrix.add_argument_group("execution"))


def _report_options(report: argparse.ArgumentParser) -> None:
    output = _system_options(
        report, "hypothesis files; the first is the baseline", _PAIR, scores=True
    )
    _completes(
        output.add_argument("-o", "--output", required=True, help="the HTML file to write"),
        "files",
    )
    significance = report.add_argument_group("significance")
    significance.add_argument(
        "--samples", type=int, default=1000, help="bootstrap resamples (default 1000)"
    )
    significance.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    analysis = report.add_argument_group("analysis")
    analysis.add_argument(
        "--rows",
        type=int,
        default=1000,
        metavar="N",
        help="segments in the table of sentence scores (default 1000): past N, those where "
        "systems differ most, then evenly spaced ones; the analyses cover every segment",
    )
    _add_train(analysis)
    _add_words(analysis)
    _add_human(report.add_argument_group("agreement with people (optional)"), required=False)
    _add_executor(report.add_argument_group("execution"))


#: the variants ``meta`` studies by default
_META = "BLEUw4,BLEUc18,sacrebleu,chrF,chrF++,TER,NIST"


def _meta_options(meta: argparse.ArgumentParser) -> None:
    _add_human(meta.add_argument_group("human judgements"), required=False)
    mtme = meta.add_argument_group("mt-metrics-eval's data (instead of -H, -r and -i)")
    _completes(
        mtme.add_argument(
            "--mtme",
            metavar="DIR",
            help="an extracted mt-metrics-eval data directory (mt-metrics-eval-v2): the "
            "references, system outputs, human scores and every metric's segment scores of "
            "--testset and --lp in it",
        ),
        "files",
    )
    mtme.add_argument("--testset", metavar="NAME", help="with --mtme: the test set (wmt22)")
    mtme.add_argument("--lp", metavar="SRC-TGT", help="with --mtme: the language pair (de-en)")
    mtme.add_argument(
        "--mtme-ref",
        metavar="NAME",
        help="with --mtme: the reference the variants score against (refA; needed where there "
        "are several)",
    )
    mtme.add_argument(
        "--mtme-human",
        metavar="NAME",
        help="with --mtme: the segment-level human scores (mqm, wmt-z...; needed where there "
        "are several)",
    )
    mtme.add_argument(
        "--mtme-metrics",
        metavar="NAMES",
        help="with --mtme: the metrics' scores to study, comma-separated (COMET-22-refA,...; "
        "default every one in the directory)",
    )
    mtme.add_argument(
        "--include-human",
        action="store_true",
        help="with --mtme: the human translations (the other references) are systems too, "
        "scored against --mtme-ref (mt-metrics-eval's include_human)",
    )
    output = meta.add_argument_group("output")
    _add_format(output, ("text", "json", "markdown", "latex"), decimals=3)
    _add_quiet(output)
    _completes(
        output.add_argument(
            "--save-agreement",
            metavar="FILE",
            help="write the tested variants' delta-accuracy curves to FILE (JSON), for "
            "compare --human-agreement",
        ),
        "files",
    )
    inputs = meta.add_argument_group("input")
    _add_refs(inputs, required=False)
    _add_inputs(inputs, "hypothesis files, one per system, or a directory of them")
    _add_names(inputs)
    inputs.add_argument(
        "--exclude",
        metavar="SYSTEMS",
        help="systems to leave out of the study, comma-separated, by the names the files give "
        "them (outliers, as mt-metrics-eval's outlier systems; with --mtme, its system names)",
    )
    variants = meta.add_argument_group("variants")
    _add_variants(variants, _META, several=True)
    _add_scores(variants)
    _add_lang(variants)
    _add_set(variants)
    study = meta.add_argument_group("study")
    study.add_argument(
        "--search",
        nargs="+",
        metavar="FIELD=VALUES",
        help="a grid of variants from --search-base: every combination of the fields' values "
        "(comma-separated, or FIRST..LAST for numbers), e.g. tokenizer=13a.v1,char.v1 "
        "max_order=2..18",
    )
    _completes(
        study.add_argument(
            "--search-base",
            default="BLEUw4",
            metavar="VARIANT",
            help="the variant the grid changes (default BLEUw4)",
        ),
        "variants",
    )
    study.add_argument(
        "--samples", type=int, default=1000, help="bootstrap resamples of the segments "
        "(default 1000; 0: no intervals)"
    )  # fmt: skip
    study.add_argument(
        "--trials", type=int, default=1000, help="permutation trials for soft pairwise "
        "accuracy and PERM-BOTH (default 1000; 0: neither)"
    )  # fmt: skip
    study.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    study.add_argument("--level", type=float, default=0.95, help="interval level (default 0.95)")
    study.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="the human difference below which WMT's Kendall-like tau skips a pair "
        "(default 25 for raw DA, WMT's DARR; else 0, skipping ties only)",
    )
    study.add_argument(
        "--spa",
        choices=("corpus", "segments"),
        default="corpus",
        help="how soft pairwise accuracy tests the metric's side: corpus (default), "
        "approximate randomization of its corpus statistics, the score a paper reports; "
        "segments, a permutation test of its segment scores' mean, as mt-metrics-eval's "
        "PairwiseConfidenceError (Thompson et al. 2024) does",
    )
    study.add_argument(
        "--correlations",
        default="",
        metavar="NAMES",
        help="segment-level correlations to compute too, as mt-metrics-eval's "
        "AverageCorrelation: NAME_GROUPING, NAME one of pearson, spearman, kendall_b, "
        "kendall_c, tau_23, GROUPING one of none, item, system (e.g. pearson_none,"
        "kendall_b_item), comma-separated, or all; point values, without intervals or tests",
    )
    study.add_argument(
        "--calibrate",
        default="",
        metavar="GROUPINGS",
        help="also tie-calibrate acc_eq in these groupings, comma-separated: system "
        "(every pair of each system's segments, about 0.2 s a variant for 15 x 1,000) and "
        "none (every pair of all scores, exact, 0.2-2 s a variant for 15 x 1,000; its test "
        "about 0.2 s a pair of variants); by item it always is. Times are the C engine's: the "
        "reference engine (BLEUKIT_ENGINE=python) visits every pair in Python, minutes a "
        "variant at that size",
    )
    _add_executor(meta.add_argument_group("execution"))


def _add_human(human: _Group, required: bool) -> None:
    _completes(
        human.add_argument(
            "-H",
            "--human",
            required=required,
            metavar="FILE",
            help="the human judgements: Google's MQM segment averages or error annotations, "
            "WMT's DA segment scores, Appraise's DA+SQM export, or "
            "system<TAB>segment<TAB>score lines",
        ),
        "files",
    )
    human.add_argument(
        "--segments",
        choices=("auto", "common", "rated", "wmt"),
        default="auto",
        help="the protocol. wmt: WMT's and mt-metrics-eval's, each system's metric score on "
        "the whole test set, its human score the mean of its rated segments, segment pairs "
        "where both cells are rated; common: only the segments rated for every system, for "
        "the metric and the humans alike; rated: each system on its own rated segments, for "
        "the metric and the humans alike; auto (default): common where every system is rated "
        "on the same segments (MQM), else wmt",
    )
    human.add_argument(
        "--human-format",
        choices=("auto", "mqm-avg", "mqm", "wmt-da", "appraise", "tsv", "mtme"),
        default="auto",
        help="the judgements' format (default: told by their first line)",
    )
    human.add_argument(
        "--da-score",
        choices=("z", "raw"),
        default="z",
        help="DA's standardized (default) or raw score",
    )
    _completes(
        human.add_argument(
            "--docids",
            metavar="FILE",
            help="Appraise's DA+SQM: the test set's document id per line (sacrebleu's "
            "--echo docid, or mt-metrics-eval's documents/*.docs)",
        ),
        "files",
    )
    human.add_argument(
        "--pair",
        metavar="SRC-TGT",
        help="Appraise's DA+SQM: the language pair to read, as the file names it (eng-deu)",
    )
    human.add_argument(
        "--lower-is-better",
        action="store_true",
        help="the plain TSV's scores are penalties (lower is better)",
    )
    human.add_argument(
        "--mqm-weights",
        metavar="SPEC",
        help="MQM error weights, 'severity[/category...]:weight' separated by spaces "
        "(default Freitag et al. 2021's: Major:5 Minor:1 Neutral:0 "
        "Major/Non-translation!:25 Minor/Fluency/Punctuation:0.1)",
    )
    human.add_argument(
        "--alias",
        action="append",
        default=[],
        metavar="SYSTEM=JUDGED",
        help="the system named SYSTEM is JUDGED in the judgements, and is called so "
        "(e.g. --alias NVIDIA-NeMo=Nemo); without it, a system whose judged id is "
        "its name with a number (WMT's Online-A.1574) is matched where that id is the one",
    )


def _analyze_options(analyze: argparse.ArgumentParser) -> None:
    formats = ("text", "json", "markdown")
    _system_options(analyze, "hypothesis files; the first is the baseline", "BLEUw4", formats)
    _add_analysis(analyze.add_argument_group("analysis"))
    _add_executor(analyze.add_argument_group("execution"))


def _add_analysis(group: _Group) -> None:
    _add_train(group)
    _add_words(group)
    group.add_argument(
        "--examples",
        choices=("auto", "bleukit", "compare-mt"),
        default="auto",
        help="how the segments furthest ahead and behind are chosen: bleukit, the largest "
        "differences of each sign, ties by position; compare-mt, as its sentence examples, "
        "repeated segments (the same baseline, system and reference lines) left out and ties "
        "ordered by score; auto (default): compare-mt's with --words compare-mt",
    )
    group.add_argument(
        "--top", type=int, default=10, metavar="N", help="n-grams and segments listed (default 10)"
    )


def _add_words(group: _Group) -> None:
    group.add_argument(
        "--words",
        choices=("variant", "compare-mt"),
        default="variant",
        help="the words of the word and n-gram analyses and of the lengths: the first "
        "variant's tokens (default), or lines split on single spaces as compare-mt reads them; "
        "analyze without -v then scores with compare-mt's BLEU too (variant compare-mt), so "
        "that every table is compare-mt's",
    )


def _add_train(group: _Group) -> None:
    _completes(
        group.add_argument(
            "--train",
            metavar="FILE",
            help="word frequencies from this training corpus (default: from the references)",
        ),
        "files",
    )


def _verify_options(verify: argparse.ArgumentParser) -> None:
    verify.add_argument(
        "--signature",
        "-s",
        required=True,
        help="the signature published with the score: bleukit's, or sacrebleu's (2.x, 1.x)",
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
    parse.add_argument(
        "signature",
        help="bleukit's signature (long or short, any metric) or sacrebleu's (2.x, 1.x)",
    )
    _add_format(parse, ("yaml", "json"), width=False)


def _components_options(components: argparse.ArgumentParser) -> None:
    components.add_argument(
        "--names",
        metavar="KIND",
        choices=("tokenizer", "splitter", "reflen", "smoothing", "engine", "metric"),
        help="the names of one kind of component alone, one per line "
        "(tokenizer, splitter, reflen, smoothing, engine)",
    )


def _sample_options(sample: argparse.ArgumentParser) -> None:
    _add_variants(sample, "BLEUw4,BLEUc18", several=True)
    sample.add_argument("--paths", action="store_true", help="print the sample files' paths")


def _completion_options(completion: argparse.ArgumentParser) -> None:
    completion.add_argument("shell", choices=("bash", "zsh", "fish"), help="bash, zsh or fish")


_Options = Callable[[argparse.ArgumentParser], None]


class _Command:
    """A command: its line in ``bleukit --help``, what adds its options,
    the paragraph of its own --help, and examples. (A plain class: a
    NamedTuple took 0.4 ms of every start, and this module imports nothing
    of bleukit.)"""

    __slots__ = ("description", "examples", "help", "options")

    def __init__(
        self,
        help: str,
        options: _Options | None,
        description: str | None = None,
        examples: tuple[str, ...] = (),
    ) -> None:
        self.help = help
        self.options = options
        self.description = description
        self.examples = examples


#: every command
SUBCOMMANDS: dict[str, _Command] = {
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
        "scores, intervals and paired significance tests: against a baseline, or all pairs",
        _compare_options,
        """\
Score several systems under one or more variants and test each against the
first (the baseline): paired bootstrap resampling (default) or approximate
randomization. Prints scores, intervals and p-values as text, JSON,
Markdown, LaTeX or CSV, with each variant's signature.

--all-pairs tests every pair of systems instead, corrects the p-values for
testing them together (Holm by default) and ranks the systems in clusters
as WMT's findings papers do: a cluster ends where the next system is
significantly worse than every system above it.""",
        (
            "bleukit compare -r ref.txt -i base.txt sysA.txt sysB.txt",
            "bleukit compare -v BLEUw4,BLEUc18 -r ref.txt -i base.txt sysA.txt -f latex",
            "bleukit compare --paired-ar -r ref.txt -i base.txt sysA.txt",
            "bleukit compare --all-pairs -v BLEUw4,TER -r ref.txt -i sys1.txt sys2.txt sys3.txt",
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
Write one self-contained HTML file comparing several systems: per variant
the systems ranked in significance clusters with intervals and every
pair's corrected p-value; compare-mt's analyses against the first system
(the baseline) as charts; and a table of smoothed sentence scores with a
diff view of two systems beside the references.""",
        (
            "bleukit report -r ref.txt -i base.txt sysA.txt -o report.html",
            "bleukit report -v BLEUw4,BLEUc18 -r ref.txt -i base.txt sysA.txt sysB.txt -o r.html",
        ),
    ),
    "analyze": _Command(
        "why systems differ: compare-mt's analyses over every segment",
        _analyze_options,
        """\
Analyse several systems against the first (the baseline), as compare-mt
does, over every segment: each variant's score by reference-length and
length-ratio bucket, word F-measure by word frequency (in the references,
or a training corpus given with --train), the n-grams each system matches
more and less often than the baseline, and the segments where they differ
most in smoothed sentence scores.""",
        (
            "bleukit analyze -r ref.txt -i base.txt sysA.txt",
            "bleukit analyze -v BLEUw4,chrF -r ref.txt -i base.txt sysA.txt -f markdown",
            "bleukit analyze --words compare-mt --train ref.txt -r ref.txt -i sys1.txt sys2.txt",
        ),
    ),
    "meta": _Command(
        "which variant agrees best with human judgements: the WMT metrics task's statistics",
        _meta_options,
        """\
Meta-evaluate metric variants against human judgements of the same systems
(Google's MQM, WMT's DA, or a plain TSV): per variant the WMT metrics
task's statistics at system level (Pearson, Spearman, Kendall tau-b and
tau-c, pairwise accuracy, soft pairwise accuracy) and segment level (WMT's
Kendall-like tau and acc_eq, with tie calibration, grouped by item, by
system or not at all), bootstrap intervals, the best variant for each
statistic, and the significance clusters among variants (PERM-BOTH; acc_eq
tie-calibrated by system or not grouped: pair outcomes swapped at each
variant's epsilon, as mt-metrics-eval's PairwisePermutationSigDiff).
--search adds a grid of variants; the grid's statistics share one counting
pass per tokenization, and its best variants are tested beside the listed ones.""",
        (
            "bleukit meta -H mqm.avg_seg_scores.tsv -r ref.txt -i systems/",
            "bleukit meta -H mqm.tsv -r ref.txt -i sys*.txt -v BLEUw4,chrF -f json",
            "bleukit meta -H scores.tsv -r ref.txt -i systems/ --search tokenizer=13a.v1,char.v1 "
            "max_order=2..18 smoothing=none.v1,exp.v1",
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
        help="sacrebleu: the same resamples, p-values and intervals as sacrebleu 2.6.0",
    )
