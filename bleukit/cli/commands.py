"""What each ``bleukit`` command does: read its arguments (``arguments``),
call the library, print what it returns. The work itself (streaming,
executors, resampling, reports) lives in the library. Heavy modules are
imported only by the command that needs them, to keep start-up fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..core.errors import InputError
from ..io.progress import phase
from . import arguments as a

if TYPE_CHECKING:
    from ..core.spec import SignificanceSpec
    from ..corpus.systems import SystemStatistics
    from ..meta.judgements import Judgements
    from ..metrics.base import AnyMetric


def _write_blocks(out: TextIO, blocks: list[object], fmt: str) -> None:
    from ..report import text as report

    if fmt == "json":
        out.write(report.dumps(blocks) + "\n")
    else:
        out.write("\n".join(map(str, blocks)) + "\n")


def _corpus_block(args: argparse.Namespace, variant: str, hyp: str, result: Any) -> object:
    from ..report import text as report

    if args.format == "json":
        return report.corpus_json_object(variant, hyp, result)
    return report.corpus_text(variant, hyp, result, args.width)


def _confidence_blocks(
    args: argparse.Namespace,
    variant: AnyMetric,
    spec: SignificanceSpec,
    stats: SystemStatistics,
    systems: list[tuple[str, str]],
) -> list[object]:
    """``score --confidence``: every system's bootstrap interval (``systems``:
    its key in ``stats``, its name)."""
    from ..report import text as report
    from ..significance.paired import intervals

    sig = variant.signature(stats.nrefs).with_test(spec)
    with phase("resampling"):
        results = intervals(variant, stats, systems, spec)
    if args.format == "json":
        return [report.confidence_json_object(variant.name, r.system, r, sig) for r in results]
    return [report.confidence_text(variant.name, r.system, r, sig, args.width) for r in results]


def _collect(
    args: argparse.Namespace, variants: Sequence[AnyMetric], per_segment: bool = True
) -> SystemStatistics:
    """The statistics of a multi-system command's systems under ``variants``."""
    from ..executors.files import collect_files

    names, paths = a.systems(args)
    ref_paths = a.flatten(args.ref)
    return collect_files(variants, ref_paths, paths, names, a.execution(args), None, per_segment)


def cmd_score(args: argparse.Namespace, out: TextIO) -> None:
    if args.parquet is not None:
        _score_parquet(args, out)
        return
    if args.out is not None:
        raise InputError("--out goes with --parquet --sentence")
    ref_paths = a.reference_paths(args)
    variant = a.one_variant(args)
    a.check_width(args.width)
    execution = a.execution(args)
    if execution.executor != "local" and (args.sentence or args.confidence):
        raise InputError(
            "--executor: only corpus scores are computed on an executor; "
            "--sentence and --confidence run here (drop --executor)"
        )
    a.warn_language(args, [variant])
    spec = a.test_spec(args, paired=False) if args.confidence else None
    if spec is not None and args.sentence:
        raise InputError("--confidence applies to corpus scores, not to --sentence")
    hyp_paths = a.hypothesis_paths(args)
    if args.sentence:
        from ..report.sentences import write_sentence_scores

        warning = write_sentence_scores(out, variant, ref_paths, hyp_paths, args.format, args.width)
        if warning:
            a.note(args, f"warning: {warning}")
        return
    if spec is not None:
        from ..executors.files import file_statistics

        stats, files = file_statistics(variant, ref_paths, hyp_paths)
        _write_blocks(out, _confidence_blocks(args, variant, spec, stats, files), args.format)
        return
    from ..executors.files import file_scores

    scores = file_scores(variant, ref_paths, hyp_paths, execution)
    blocks = [_corpus_block(args, variant.name, name, result) for name, result in scores]
    _write_blocks(out, blocks, args.format)


def _score_parquet(args: argparse.Namespace, out: TextIO) -> None:
    """``bleukit score --parquet``: a table read in record batches."""
    from ..corpus import parquet

    if args.ref or args.input or args.testset:
        raise InputError("--parquet reads hypotheses and references from the table: no -r, -i, -t")
    if args.executor != "local" or args.scheduler:
        raise InputError("--parquet runs here: drop --executor/--scheduler")
    a.check_width(args.width)
    variant = a.one_variant(args)
    refs = args.ref_col or ["ref"]
    if args.confidence:
        if args.sentence:
            raise InputError("--confidence applies to corpus scores, not to --sentence")
        stats = parquet.statistics(variant, args.parquet, args.hyp_col, refs)
        spec = a.test_spec(args, paired=False)
        blocks = _confidence_blocks(args, variant, spec, stats, [("0", args.parquet)])
        _write_blocks(out, blocks, args.format)
        return
    if args.sentence:
        if not args.out:
            raise InputError("--parquet --sentence writes a Parquet file: give --out OUT.parquet")
        rows = parquet.write_sentence_scores(variant, args.parquet, args.hyp_col, refs, args.out)
        sys.stderr.write(f"bleukit: wrote {rows} sentence scores to {args.out}\n")
        return
    if args.out:
        raise InputError("--out goes with --sentence (corpus scores are printed)")
    result = parquet.corpus_score(variant, args.parquet, args.hyp_col, refs)
    _write_blocks(out, [_corpus_block(args, variant.name, args.parquet, result)], args.format)


def cmd_compare(args: argparse.Namespace, out: TextIO) -> None:
    a.check_width(args.width)
    if args.correction is not None and not args.all_pairs:
        raise InputError("--correction applies to --all-pairs (a baseline test is not corrected)")
    spec = a.test_spec(args, paired=True)
    variants = a.variants(a.variant_names(args), args.set)
    a.warn_language(args, variants)
    variants += a.external(args, a.systems(args)[0], variants)
    labels = a.labels(args.label, variants)
    if args.all_pairs and args.human_agreement:
        raise InputError("--human-agreement goes with a baseline test, not --all-pairs")
    stats = _collect(args, variants)
    if args.all_pairs:
        from ..report.ranking import FORMATS as RANKING_FORMATS
        from ..significance.ranking import rank_all

        with phase("resampling every pair"):
            rankings = rank_all(variants, stats, spec, args.correction or "holm")
        if args.format == "latex":
            from ..report.paper import ranking_table

            out.write(ranking_table(rankings, labels, args.width, args.latex_interval,
                                    args.latex_matrix))  # fmt: skip
            return
        out.write(RANKING_FORMATS[args.format](rankings, args.width))
        return
    from ..report.tables import FORMATS
    from ..significance.paired import compare

    with phase("resampling"):
        columns = compare(variants, stats, spec)
    if args.human_agreement:
        columns = _with_agreement(columns, args.human_agreement)
    if args.format == "latex":
        from ..report.paper import comparison_table

        out.write(comparison_table(columns, labels, args.width, args.latex_interval))
        return
    out.write(FORMATS[args.format](columns, args.width))


def _with_agreement(columns: Sequence[Any], path: str) -> list[Any]:
    """Each comparison with the curve saved for its variant in ``path``."""
    import dataclasses

    from ..meta.delta import load, signature_key

    curves = load(path)
    out = []
    for column in columns:
        key = signature_key(column.signature.with_test(None).long)
        if key not in curves:
            raise InputError(
                f"--human-agreement {path}: no curve for {column.variant} ({key}); "
                "bleukit meta --save-agreement writes one per variant it tests"
            )
        out.append(dataclasses.replace(column, agreement=curves[key]))
    return out


def cmd_matrix(args: argparse.Namespace, out: TextIO) -> None:
    from ..analysis import matrix
    from ..report import matrix as matrix_formats

    a.check_width(args.width)
    # a matrix needs two variants: with --lang, its variant and chrF, which
    # needs no word segmentation in any language
    names = a.variant_names(args, default=("BLEUw4", "BLEUc18"), beside=("chrF",))
    variants = a.variants(names, args.set)
    a.warn_language(args, variants)
    variants += a.external(args, a.systems(args)[0], variants)
    stats = _collect(args, variants, per_segment=False)
    out.write(matrix_formats.FORMATS[args.format](matrix.from_stats(variants, stats), args.width))


def cmd_report(args: argparse.Namespace, out: TextIO) -> None:
    from ..core.spec import SignificanceSpec
    from ..report.html import write_report_file

    a.check_output(args, "-o", args.output)
    variants = a.variants(a.variant_names(args, default=("BLEUw4", "BLEUc18")), args.set)
    a.warn_language(args, variants)
    spec = SignificanceSpec("bs", samples=args.samples, seed=args.seed)
    names, paths = a.systems(args)
    human = None
    if args.human:
        human = _judgements(args)
        names = _judged_names(args, names, human)
    elif args.alias:
        raise InputError("--alias goes with -H/--human")
    variants += a.external(args, names, variants)
    execution = a.execution(args)
    size, page = write_report_file(
        args.output, variants, a.flatten(args.ref), paths, names, spec, execution, args.rows,
        args.train, args.words, human, args.segments,
    )  # fmt: skip
    out.write(
        f"wrote {args.output} ({size // 1024} KiB, {len(names)} systems, "
        f"{len(page.shown):,} of {page.stats.segments:,} segments in its table)\n"
    )


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> None:
    from ..analysis.profile import analyze_files
    from ..report.analysis import FORMATS

    a.check_width(args.width)
    if args.top < 1:
        raise InputError(f"--top {args.top}: list at least one n-gram and segment")
    # compare-mt's words go with compare-mt's BLEU unless a variant is named,
    # so that every table is compare-mt's
    default = ("compare-mt",) if args.words == "compare-mt" else ("BLEUw4",)
    variants = a.variants(a.variant_names(args, default=default), args.set)
    a.warn_language(args, variants)
    names, paths = a.systems(args)
    if len(paths) < 2:
        raise InputError("analyze compares systems with the first: give at least two with -i")
    examples = args.examples
    if examples == "auto":
        examples = "compare-mt" if args.words == "compare-mt" else "bleukit"
    analysis, _ = analyze_files(
        variants, a.flatten(args.ref), paths, names, args.words, args.train, args.top,
        a.execution(args), examples,
    )  # fmt: skip
    out.write(FORMATS[args.format](analysis, args.width))


#: the variants ``meta`` studies by default (the issue's list: the usual
#: BLEU, character BLEU, sacrebleu's default, chrF, chrF++, TER, NIST)
_META_VARIANTS = ("BLEUw4", "BLEUc18", "sacrebleu", "chrF", "chrF++", "TER", "NIST")


def _judgements(args: argparse.Namespace) -> Judgements:
    """The human judgements -H names, read as the options say."""
    from ..io.files import count_lines, rereadable
    from ..meta.judgements import MQM_WEIGHTS, read_judgements

    # the test set's length, where the reference can be read twice: a
    # rating past its end is refused at its line, before it is laid out
    refs = a.flatten(args.ref)
    segments = count_lines(refs[0]) if refs and rereadable(refs[0]) else None
    return read_judgements(
        args.human, args.human_format, field=args.da_score,
        lower_is_better=args.lower_is_better, weights=args.mqm_weights or MQM_WEIGHTS,
        docids=args.docids, pair=args.pair, segments=segments,
    )  # fmt: skip


def _judged_names(
    args: argparse.Namespace, names: Sequence[str], judgements: Judgements
) -> list[str]:
    """The systems' judged names: each --alias SYSTEM=JUDGED applied, else
    the judged id of the file's name (WMT's ``Name.N``, where one), every
    one judged (checked before any file is read)."""
    alias = a.aliases(args.alias)
    unknown = sorted(set(alias) - set(names))
    if unknown:
        raise InputError(f"--alias names no system given: {', '.join(unknown)}")
    judged = [alias.get(n) or judgements.judged_name(n) for n in names]
    judgements.check_systems(judged)
    return judged


def _meta_inputs(args: argparse.Namespace) -> None:
    """``meta``'s references, systems, judgements and external scores: as
    given (-r, -i, -H, --scores), or from mt-metrics-eval's data layout
    (--mtme DIR --testset T --lp LP, ``io.mtme``), its metrics' segment
    scores as --scores beside any the user gives."""
    mtme = ("--testset", "--lp", "--mtme-ref", "--mtme-human", "--mtme-metrics")
    if args.mtme is None:
        given = [o for o in (*mtme, "--include-human") if getattr(args, o[2:].replace("-", "_"))]
        if given:
            raise InputError(f"{given[0]} goes with --mtme")
        missing = [
            o for o, v in (("-H", args.human), ("-r", args.ref), ("-i", args.input)) if not v
        ]
        if missing:
            raise InputError(f"meta needs {', '.join(missing)} (or --mtme DIR --testset --lp)")
        return
    from ..io.mtme import read_mtme

    given = [o for o, v in (("-H", args.human), ("-r", args.ref), ("-i", args.input),
                            ("--names", args.names)) if v]  # fmt: skip
    if given:
        raise InputError(f"--mtme reads the references, systems and human scores: not {given[0]}")
    if not (args.testset and args.lp):
        raise InputError("--mtme needs --testset and --lp (e.g. --testset wmt22 --lp de-en)")
    data = read_mtme(args.mtme, args.testset, args.lp)
    reference, ref_path = data.reference(args.mtme_ref)
    args.ref = [[ref_path]]
    args.human = data.human_scores(args.mtme_human)
    systems = data.systems(reference, args.include_human)
    if not systems:
        raise InputError(f"{data.where}: no system outputs but the references'")
    args.input = [list(systems.values())]
    args.names = ",".join(systems)
    scores = data.metric_scores(a.comma_list(args.mtme_metrics) if args.mtme_metrics else None)
    about = {p.partition("=")[0].strip() for p in args.scores_about}
    args.scores = [*(f"{n}={p}" for n, p in scores.items()), *args.scores]
    source = f"mt-metrics-eval {args.testset} {args.lp}"
    args.scores_about = [*args.scores_about, *(f"{n}={source}" for n in scores if n not in about)]


def _without(
    exclude: str | None, names: Sequence[str], paths: Sequence[str]
) -> tuple[list[str], list[str]]:
    """The systems but those --exclude names (outliers a study leaves out,
    as mt-metrics-eval's outlier systems), each of which must be one."""
    if not exclude:
        return list(names), list(paths)
    dropped = set(a.comma_list(exclude))
    unknown = sorted(dropped - set(names))
    if unknown:
        raise InputError(f"--exclude names no system studied: {', '.join(unknown)}")
    kept = [(n, p) for n, p in zip(names, paths) if n not in dropped]
    if len(kept) < 2:
        raise InputError(f"--exclude leaves {len(kept)} system: a study needs two at least")
    return [n for n, _ in kept], [p for _, p in kept]


def cmd_meta(args: argparse.Namespace, out: TextIO) -> None:
    from ..executors.files import collect_files
    from ..io.memory import keep_freed_heap
    from ..meta.study import CORRELATIONS, Settings, grid_names, run
    from ..report.meta import FORMATS

    a.check_width(args.width)
    if args.save_agreement:
        a.check_output(args, "--save-agreement", args.save_agreement)
    listed = a.variant_names(args, default=_META_VARIANTS)
    grid = grid_names(args.search_base, a.search_axes(args.search)) if args.search else []
    variants = a.variants([*listed, *grid], args.set)
    a.warn_language(args, variants)
    _meta_inputs(args)
    judgements = _judgements(args)
    names, paths = a.system_files(args)
    names, paths = _without(args.exclude, names, paths)
    names = _judged_names(args, names, judgements)
    # external scores are listed variants: always tested, before the grid
    scores = a.external(args, names, variants)
    variants[len(listed) : len(listed)] = scores
    tested = len(listed) + len(scores)
    threshold = judgements.darr_threshold if args.threshold is None else args.threshold
    calibrate = tuple(a.comma_list(args.calibrate))
    correlations = tuple(a.comma_list(args.correlations))
    if "all" in correlations:
        correlations = CORRELATIONS
    settings = Settings(args.samples, args.trials, args.seed, args.level, threshold, calibrate,
                        args.segments, correlations, args.spa)  # fmt: skip
    settings.check()  # before the systems are read
    stats = collect_files(variants, a.flatten(args.ref), paths, names, a.execution(args))
    keep_freed_heap()  # the tests' kernels reuse their scratch's pages (io.memory)
    with phase("meta-evaluation"):
        study = run(variants, stats, judgements, settings, tested if grid else None)
    if args.save_agreement:
        from ..meta.delta import save

        curves = [(v.name, v.signature, v.delta) for v in study.variants if v.delta is not None]
        if not curves:
            raise InputError(
                "--save-agreement: no curve was fitted (give --trials or more systems)"
            )
        save(args.save_agreement, curves)
    out.write(FORMATS[args.format](study, args.width))


def cmd_agree(args: argparse.Namespace, out: TextIO) -> None:
    from ..analysis.agreement import agree_stats, study_variants
    from ..report.text import agreement_text, dumps, search_text

    va, vb = a.variants([args.variant_a, args.variant_b], args.set)
    a.warn_language(args, [va, vb])
    orders = a.order_range(args.search_order) if args.search_order else None
    stats = _collect(args, study_variants(va, vb, orders))
    with phase("agreement"):
        study = agree_stats(va, vb, stats, orders)
    if args.format == "json":
        out.write(dumps(study.to_dict()) + "\n")
        return
    lower = study.lower_a.name if study.lower_a else None
    out.write(agreement_text(va.name, vb.name, lower, study.result))
    out.write(f"A: {va.signature(study.nrefs).long}\nB: {vb.signature(study.nrefs).long}\n")
    if study.search:
        out.write(search_text(vb.name, study.search, study.best_orders()))


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    from ..analysis.verify import verify
    from ..io.files import read_aligned

    streams, hyps = read_aligned(a.flatten(args.ref), [args.input])
    v = verify(args.signature, streams, hyps[0][1], args.expect)
    score = f"{v.rescored:.{v.decimals + 2}f}"
    out.write(f"variant: {v.signature.bleukit.long}\n")
    out.write("".join(f"assumed: {line}\n" for line in v.signature.assumed))
    out.write(f"rescored: {v.result}\n")
    if v.reproduced:
        out.write(f"reproduced: {score} prints as {v.printed}, as claimed\n")
        return 0
    out.write(
        f"NOT reproduced: {score} prints as {v.printed}, claimed {args.expect} "
        f"(difference {v.difference:+.{v.decimals + 2}f})\n"
    )
    return 1


def cmd_variants(args: argparse.Namespace, out: TextIO) -> None:
    from ..config.model import builtin_names
    from ..metrics.registry import family_help, load_any_config, metric_builtins

    names = builtin_names(metric_builtins())
    if args.names:
        out.write("".join(f"{name}\n" for name in names))
        return
    for name in names:
        config = load_any_config(name)
        out.write(f"{name:<14} {config.description}\n")
    families = family_help()
    if families:
        out.write(f"{'':<14} and {families}\n")


def cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    from ..report.text import signature_lines, variant_yaml

    (variant,) = a.variants([args.variant], args.set)
    signature = variant.signature(a.nrefs(args.nrefs))
    out.write(variant_yaml(variant.config))
    out.write("".join(f"# {line}\n" for line in signature_lines(signature)))


def cmd_signature(args: argparse.Namespace, out: TextIO) -> None:
    from ..metrics import read_signature
    from ..report.text import dumps, variant_yaml

    if args.sig_command != "parse":
        args.usage.print_help(out)
        return
    sig = read_signature(args.signature)
    if args.format == "json":
        out.write(dumps(sig.described()) + "\n")
        return
    out.write(variant_yaml(sig.config) + "".join(f"# {line}\n" for line in sig.notes()))


def cmd_components(args: argparse.Namespace, out: TextIO) -> None:
    from ..config.model import registries
    from ..engines import describe
    from ..metrics.registry import METRICS

    kinds = {**registries(), "metric": METRICS}
    if args.names:
        out.write("".join(f"{name}\n" for name in kinds[args.names].names()))
        return
    engine = describe()  # a bad BLEUKIT_ENGINE stops before any output
    for registry in kinds.values():
        out.write(f"{registry.kind}s (entry-point group {registry.group}):\n")
        for entry in registry.entries():
            origin = "" if entry.origin == "builtin" else f"  [{entry.origin}]"
            out.write(f"  {entry.name:<18} {entry.description}{origin}\n")
        # a broken plugin is marked, not fatal: the rest of the list still helps
        for name, error in registry.broken().items():
            out.write(f"  {name:<18} BROKEN: {error}\n")
    out.write(f"engine: {engine}\n")


def cmd_sample(args: argparse.Namespace, out: TextIO) -> None:
    from .. import sample
    from ..io.files import read_lines

    refs, systems = sample.references(), sample.systems()
    if args.paths:
        out.write("".join(f"{p}\n" for p in [*refs, *systems.values()]))
        return
    streams = [read_lines(str(p)) for p in refs]
    # every variant loads (and may fail) before anything is written
    variants = a.variants(a.requested(args) or ["BLEUw4", "BLEUc18"], [])
    lines = [f"{sample.DESCRIPTION} ({sample.root()})"]
    for variant in variants:
        for system, path in systems.items():
            result = variant.corpus_score(read_lines(str(path)), streams)
            lines.append(f"{variant.name:<10} {system:<12} {result}")
        lines.append(f"{'':<10} signature: {variant.signature(len(streams)).long}")
    out.write("\n".join(lines) + "\n")


def cmd_completion(args: argparse.Namespace, out: TextIO) -> None:
    from .completion import script
    from .parser import COMPLETE, build_parser

    out.write(script(args.shell, build_parser(None), COMPLETE))


#: subcommand -> function(args, out) returning the exit status (None: 0)
COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int | None]] = {
    "score": cmd_score,
    "compare": cmd_compare,
    "agree": cmd_agree,
    "matrix": cmd_matrix,
    "report": cmd_report,
    "analyze": cmd_analyze,
    "meta": cmd_meta,
    "verify": cmd_verify,
    "variants": cmd_variants,
    "show": cmd_show,
    "signature": cmd_signature,
    "components": cmd_components,
    "sample": cmd_sample,
    "completion": cmd_completion,
}
