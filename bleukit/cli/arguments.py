"""What a command's arguments ask for, in the library's terms: the
variants (with --lang and --set), the systems and their names, the
references, where chunks are counted, the significance test. Checks of
how options combine live here too, so each error names the options."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError

if TYPE_CHECKING:
    from ..core.spec import SignificanceSpec, TestName
    from ..executors import Execution
    from ..metrics.base import AnyMetric


def flatten(values: list[list[str]] | None) -> list[str]:
    """The values of an option given several times with several values."""
    return [v for group in values or [] for v in group]


def comma_list(text: str | None) -> list[str]:
    """An option's comma-separated names, stripped, each once, in order;
    blank ones dropped."""
    return list(dict.fromkeys(x.strip() for x in (text or "").split(",") if x.strip()))


def requested(args: argparse.Namespace) -> list[str] | None:
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


def note(args: argparse.Namespace, text: str) -> None:
    """A line on standard error (``bleukit: ...``), unless --quiet."""
    if not getattr(args, "quiet", False):
        sys.stderr.write(f"bleukit: {text}\n")


def test_spec(args: argparse.Namespace, paired: bool) -> SignificanceSpec:
    """The interval (and with ``paired``, the test) the options ask for."""
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


def variant_names(
    args: argparse.Namespace, default: Sequence[str] = ("BLEUw4",), beside: Sequence[str] = ()
) -> list[str]:
    """The variants asked for (-v), else the one --lang picks (said on
    stderr) with ``beside`` it, else ``default``."""
    from ..tokenizers.languages import variant_for_language

    names = requested(args)
    if names:
        return names
    if args.lang:
        name, why = variant_for_language(args.lang)
        note(args, f"--lang {args.lang}: using variant {name} ({why})")
        return [name, *(b for b in beside if b != name)]
    return list(default)


def variants(names: Sequence[str], pairs: list[str]) -> list[AnyMetric]:
    """The named variants of any metric (BLEU, chrF...) with the --set
    overrides, all loaded (and checked) before any work."""
    from ..config.model import parse_override
    from ..metrics import load_metric

    overrides = dict(parse_override(p) for p in pairs)
    return [load_metric(name, **overrides) for name in names]


def one_variant(args: argparse.Namespace) -> AnyMetric:
    """``bleukit score``'s variant: exactly one."""
    names = variant_names(args)
    if len(names) > 1:
        raise InputError(
            f"score takes one variant, not {len(names)} ({', '.join(names)}); "
            "bleukit matrix scores every system under several"
        )
    return variants(names, args.set)[0]


def warn_language(args: argparse.Namespace, metrics: Sequence[AnyMetric]) -> None:
    """A warning for each word variant whose tokenizer cannot split the
    target language (--lang) or, without --lang, the script the first
    hypothesis file is mostly in (standard input is not looked at: it
    cannot be read twice)."""
    from ..io.files import sample_text
    from ..tokenizers.languages import language_warnings

    paths = flatten(args.input)

    def sample() -> str | None:
        return sample_text(paths[0]) if paths and not args.quiet else None

    tokenizers = [(m.name, m.language_tokenizer) for m in metrics]
    # agree has no --lang
    for warning in language_warnings(tokenizers, getattr(args, "lang", None), sample):
        note(args, f"warning: {warning}")


def check_width(width: int) -> None:
    if not 0 <= width <= 16:
        raise InputError("--width must be between 0 and 16")


def systems(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The names (--names, else from the files' names) and hypothesis files
    of a command of several systems."""
    from ..io.files import system_names

    paths = flatten(args.input)
    if not args.names:
        return system_names(paths), paths
    names = [n.strip() for n in args.names.split(",")]
    if len(names) != len(paths):
        raise InputError(f"--names gives {len(names)} names for {len(paths)} systems")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"--names: each system needs its own name; {', '.join(twice)} repeats")
    return names, paths


def system_files(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """``systems``, where a lone -i DIR stands for the files in it (sorted,
    hidden ones skipped)."""
    from ..io.files import files_in

    paths = flatten(args.input)
    if len(paths) == 1 and os.path.isdir(paths[0]):
        args.input = [files_in(paths[0])]
    return systems(args)


def external(
    args: argparse.Namespace, systems: Sequence[str], variants: Sequence[AnyMetric]
) -> list[AnyMetric]:
    """The external scores --scores NAME=FILE names, as metrics of the
    ``systems`` (the names the command collects them under), each with what
    --scores-about says they are and which way --scores-lower says is
    better; a NAME given twice, or also a variant's name, is refused."""
    from ..metrics import external_scores

    files: dict[str, str] = {}
    for pair in args.scores:
        name, sep, path = pair.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise InputError(f"--scores {pair!r}: expected NAME=FILE")
        if name.strip() in files:
            raise InputError(f"--scores names {name.strip()} twice")
        files[name.strip()] = path.strip()
    about: dict[str, str] = {}
    for pair in args.scores_about:
        name, sep, text = pair.partition("=")
        if not sep or name.strip() not in files:
            raise InputError(f"--scores-about {pair!r}: expected NAME=TEXT for a --scores NAME")
        about[name.strip()] = text.strip()
    for name in args.scores_lower:
        if name.strip() not in files:
            raise InputError(f"--scores-lower {name!r}: no --scores of that name")
    lower = {name.strip() for name in args.scores_lower}
    taken = sorted(set(files) & {v.name for v in variants})
    if taken:
        raise InputError(f"--scores {taken[0]}: a variant of the run has that name")
    return [external_scores(name, path, systems, about.get(name, ""), name in lower)
            for name, path in files.items()]  # fmt: skip


def labels(pairs: Sequence[str], variants: Sequence[AnyMetric]) -> dict[str, str]:
    """Each variant's label in a paper table: --label VARIANT=TEXT, else
    its score name where no other variant has it (``report.paper``)."""
    from ..report.paper import default_labels

    out = default_labels([v.name for v in variants], [v.score_name for v in variants])
    names = set(out)
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not text.strip():
            raise InputError(f"--label {pair!r}: expected VARIANT=TEXT")
        if name.strip() not in names:
            raise InputError(f"--label {name.strip()}: no variant of that name in the run")
        out[name.strip()] = text.strip()
    return out


def aliases(pairs: Sequence[str]) -> dict[str, str]:
    """--alias SYSTEM=JUDGED, each system once."""
    out: dict[str, str] = {}
    for pair in pairs:
        system, sep, judged = pair.partition("=")
        if not sep or not system.strip() or not judged.strip():
            raise InputError(f"--alias {pair!r}: expected SYSTEM=JUDGED")
        if system.strip() in out:
            raise InputError(f"--alias names {system.strip()} twice")
        out[system.strip()] = judged.strip()
    return out


#: the most variants a --search grid may hold (each is counted and studied)
MAX_GRID = 10_000


def search_axes(texts: Sequence[str]) -> list[tuple[str, list[Any]]]:
    """--search FIELD=V1,V2 or FIELD=FIRST..LAST: each field's values, read
    as --set reads them."""
    from ..config.model import parse_override

    axes = []
    for text in texts:
        field, sep, values = text.partition("=")
        if not sep or not field.strip() or not values.strip():
            raise InputError(f"--search {text!r}: expected FIELD=V1,V2,... or FIELD=FIRST..LAST")
        first, dots, last = values.partition("..")
        if dots:
            try:
                span = range(int(first), int(last) + 1)
            except ValueError:
                raise InputError(f"--search {text!r}: FIRST..LAST must be numbers") from None
            if not span:
                raise InputError(f"--search {text!r}: FIRST is above LAST")
            # counted before it is built: a range of 10**8 values is no grid
            if len(span) > MAX_GRID:
                raise InputError(
                    f"--search {text!r}: {len(span):,} values; a grid holds at most "
                    f"{MAX_GRID:,} variants"
                )
            items = [str(x) for x in span]
        else:
            items = [v.strip() for v in values.split(",") if v.strip()]
        axes.append((field.strip(), [parse_override(f"{field.strip()}={v}")[1] for v in items]))
    size = math.prod(len(values) for _, values in axes)
    if size > MAX_GRID:
        raise InputError(
            f"--search: {' x '.join(str(len(v)) for _, v in axes)} = {size:,} variants; a grid "
            f"holds at most {MAX_GRID:,}"
        )
    return axes


def execution(args: argparse.Namespace) -> Execution:
    """Where --executor and --scheduler say chunks are counted."""
    from ..executors import Execution

    if args.executor == "local":
        if args.scheduler:
            raise InputError("--scheduler goes with --executor dask")
        return Execution()
    if not args.scheduler:
        raise InputError("--executor dask needs --scheduler ADDR (e.g. tcp://host:8786)")
    return Execution("dask", args.scheduler)


def hypothesis_paths(args: argparse.Namespace) -> list[str]:
    """``bleukit score``'s hypothesis files: -i, else standard input where
    something is piped there (a terminal would wait for typing)."""
    paths = flatten(args.input)
    if paths:
        return paths
    if sys.stdin is None or sys.stdin.isatty():
        raise InputError("no hypotheses: give -i FILE or pipe them on standard input")
    return ["-"]


def reference_paths(args: argparse.Namespace) -> list[str]:
    """``bleukit score``'s reference files: -r, or a test set's default
    references."""
    if args.testset is None:
        if args.langpair:
            raise InputError("--langpair goes with --testset")
        if not args.ref:
            raise InputError("no references: give -r REF... or --testset SET --langpair PAIR")
        return flatten(args.ref)
    if args.ref:
        raise InputError("give either -r or --testset, not both")
    if not args.langpair:
        raise InputError("--testset needs --langpair (SRC-TRG)")
    from ..io.testsets import locate

    return [str(p) for p in locate(args.testset, args.langpair).references]


def order_range(text: str) -> range:
    """--search-order FIRST..LAST."""
    from ..config.model import MAX_ORDER_LIMIT

    first, sep, last = text.partition("..")
    try:
        lo, hi = int(first), int(last)
    except ValueError:
        raise InputError(f"--search-order {text!r}: expected FIRST..LAST, e.g. 1..30") from None
    if not sep or not 1 <= lo <= hi <= MAX_ORDER_LIMIT:
        raise InputError(f"--search-order {text!r}: need 1 <= FIRST <= LAST <= {MAX_ORDER_LIMIT}")
    return range(lo, hi + 1)


def nrefs(text: str) -> int | str:
    """--nrefs: a positive number, or ``var``."""
    if text == "var":
        return text
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"--nrefs must be a number or 'var', not {text!r}") from None
    if value < 1:
        raise InputError("--nrefs must be at least 1")
    return value


#: the options whose values name files a command reads (``--parquet``'s
#: output has its own check: ``corpus.parquet``)
_INPUT_OPTIONS = ("ref", "input", "human", "docids", "human_agreement")


def _inputs(args: argparse.Namespace) -> list[str]:
    """Every file the command reads, as the options name them: references,
    hypotheses (a folder's files), judgements, document ids, curves,
    variant files."""
    from ..config.model import looks_like_path, split_name

    paths: list[str] = []
    for option in _INPUT_OPTIONS:
        value = getattr(args, option, None)
        if isinstance(value, str):
            paths.append(value)
        elif value:
            paths += flatten(value) if isinstance(value[0], list) else list(value)
    for path in list(paths):
        if os.path.isdir(path):
            paths += [os.path.join(path, f) for f in os.listdir(path)]
    paths += [n for n in requested(args) or [] if looks_like_path(split_name(n)[0])]
    return paths


def check_output(args: argparse.Namespace, option: str, output: str) -> None:
    """An output file is none of the command's inputs (a report written
    over a hypothesis file, curves over the judgements): the same file by
    device and inode, so a symbolic or hard link to an input is caught."""
    from ..io.files import same_file

    for path in _inputs(args):
        if same_file(output, path):
            shown = "" if output == path else f" (the same file as {path})"
            raise InputError(
                f"{option} {output}{shown} is an input of this command: writing there would "
                "destroy it; give another file"
            )
