"""``bleukit sacrebleu ARGS...`` (and ``bleukit-sacrebleu``): sacrebleu
2.6.0's command line, computed by bleukit, printing the same bytes for
BLEU: reference files as positionals, ``-i`` with one or more systems (or
tab-separated systems on standard input), ``-nr`` tab-separated references,
``-tok``, ``-lc``, ``-s``/``-sv``, ``-sl``, ``-b``, ``-w``, ``-f`` (JSON,
text, LaTeX, and the multi-system tables), ``-sh``, ``-ci``/``-cin``,
``--paired-bs``/``--paired-ar``/``-pbsn``/``-parn``, ``-q``, ``-l`` (the
target language picks the tokenizer).

Files are read as sacrebleu reads them (split on ``\\n``, trailing
whitespace removed, a byte-order mark kept; standard input with universal
newlines: ``reading``), so the numbers are sacrebleu's. Scores, tables,
intervals and paired tests read every file in step a chunk at a time and
keep statistics, not text (a paired test of two systems of a million
lines: 153 MiB, where holding the lines took 1.75 GB); ``-sl`` scores a
chunk at a time and holds its lines back in a spool (a million lines: 2.2
GB before); ``-d`` and
a test set's ``-ol``/``--subset`` read it whole. ``-m chrf`` and ``-m ter`` (and
``-m bleu chrf ter``) compute chrF, chrF++ and TER with the ``--chrf-*``
and ``--ter-*`` flags, in every mode above; ``-tok
flores101/flores200/spm/spBLEU-1K`` read sacrebleu's cached models;
``-t``, ``--echo``, ``--list``, ``-ol``, ``--subset``, ``-d`` read
sacrebleu's cached test sets (``bleukit.io.testsets``). What it will not do
(an unseeded ``SACREBLEU_SEED``) is an error naming the flag, with status 2;
nothing silently differs. Differences by design: no terminal colours, no
informational messages on standard error, errors as one line with status 2
(sacrebleu exits 1 or 17 with log lines), and ``--version`` names bleukit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

from ..._version import __version__
from ...core.errors import BleukitError, ConfigError, InputError
from ...corpus.streaming import lines_per_file
from ...metrics.base import AnyMetric
from .metrics import BLEU, SACREBLEU_TOKENIZERS, Score, sacrebleu_seed, tokenized_periods
from .reading import FileLines, StdinSystems, read_lines
from .tables import render

if TYPE_CHECKING:
    from ...core.results import Interval
    from ...core.spec import TestName
    from ...corpus.systems import SystemStatistics

PROG = "bleukit sacrebleu"
EMULATED = "2.6.0"
EXIT_USER_ERROR = 2
_FORMATS = ("json", "text", "latex")


class _Formatter(argparse.HelpFormatter):
    """argparse's own layout at the width argparse finds, without shutil:
    argparse makes a formatter for every option it adds, and its own imports
    shutil for the width (with bz2 and lzma, 5 ms of the drop-in's start).
    The width is shutil.get_terminal_size's: $COLUMNS, standard output's
    terminal, or 80."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            try:
                width = int(os.environ["COLUMNS"])
            except (KeyError, ValueError):
                try:
                    width = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
                except (AttributeError, ValueError, OSError):
                    width = 80
            width -= 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one line instead of usage + error
        self.exit(EXIT_USER_ERROR, f"{PROG}: error: {message} (see {PROG} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """sacrebleu 2.6.0's options, with its names, defaults and choices.
    Compatibility quirk: abbreviated options stay accepted (``--smooth-m``),
    as sacrebleu's parser accepts them and scripts use them; ``bleukit``'s
    own commands refuse abbreviations."""
    p = _Parser(
        prog=PROG,
        description=f"sacrebleu {EMULATED}'s command line, computed by bleukit "
        "(BLEU, chrF, TER; the same output, byte for byte)",
    )
    p.add_argument("--citation", "--cite", action="store_true", help="a test set's citation")
    p.add_argument("--list", action="store_true", help="test sets (needs sacrebleu)")
    p.add_argument("--test-set", "-t", help="test set(s), comma-separated, from the cache")
    p.add_argument("--language-pair", "-l", dest="langpair", help="SRC-TRG: picks the tokenizer")
    p.add_argument("--origlang", "-ol", help="documents of this original language (non-XX: others)")
    p.add_argument("--subset", help="documents of this subset (domain, country:XX)")
    p.add_argument("--download", help="fetch a test set (sacrebleu's code)")
    p.add_argument("--echo", nargs="+", help="print fields of the test set")
    p.add_argument("--input", "-i", nargs="*", default=None, help="system output file(s)")
    p.add_argument("refs", nargs="*", default=[], help="reference file(s), before -i")
    p.add_argument("--num-refs", "-nr", type=int, default=1, help="tab-separated references")
    p.add_argument("--encoding", "-e", default="utf-8", help="text encoding (utf-8)")
    p.add_argument("--metrics", "-m", choices=("bleu", "chrf", "ter"), nargs="+",
                   default=["bleu"], help="bleu, chrf, ter (bleu)")  # fmt: skip
    p.add_argument("--sentence-level", "-sl", action="store_true", help="score each sentence")
    p.add_argument("--smooth-method", "-s", choices=list(BLEU.SMOOTH_DEFAULTS), default="exp",
                   dest="bleu_smooth_method", help="BLEU smoothing (exp)")  # fmt: skip
    p.add_argument("--smooth-value", "-sv", type=float, dest="bleu_smooth_value",
                   help="value for floor (0.1) and add-k (1)")  # fmt: skip
    p.add_argument("--tokenize", "-tok", choices=SACREBLEU_TOKENIZERS, dest="bleu_tokenize",
                   help="tokenizer (13a; zh, ja-mecab, ko-mecab by -l)")  # fmt: skip
    p.add_argument("--lowercase", "-lc", action="store_true", dest="bleu_lowercase")
    p.add_argument("--force", action="store_true", dest="bleu_force",
                   help="no warning for tokenized-looking input")  # fmt: skip
    p.add_argument("--chrf-char-order", "-cc", type=int, default=6, help="chrF character order (6)")
    p.add_argument(
        "--chrf-word-order", "-cw", type=int, default=0, help="chrF word order (0; 2: chrF++)"
    )
    p.add_argument("--chrf-beta", type=int, default=2, help="chrF beta (2)")
    p.add_argument("--chrf-whitespace", action="store_true", help="chrF: whitespace in n-grams")
    p.add_argument("--chrf-lowercase", action="store_true", help="chrF: lowercase")
    p.add_argument("--chrf-eps-smoothing", action="store_true", help="chrF: eps smoothing")
    p.add_argument("--ter-case-sensitive", action="store_true", help="TER: keep case")
    p.add_argument("--ter-asian-support", action="store_true", help="TER: split Asian characters")
    p.add_argument("--ter-no-punct", action="store_true", help="TER: remove punctuation")
    p.add_argument("--ter-normalized", action="store_true", help="TER: Tercom's normalization")
    p.add_argument("--confidence", "-ci", action="store_true", help="bootstrap 95%% interval")
    p.add_argument("--confidence-n", "-cin", type=int, default=1000, help="its resamples")
    pair = p.add_mutually_exclusive_group()
    pair.add_argument("--paired-ar", "-par", action="store_true", help="approximate randomization")
    pair.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap")
    p.add_argument("--paired-ar-n", "-parn", type=int, default=10000, help="AR trials (10000)")
    p.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, help="resamples (1000)")
    p.add_argument("--paired-jobs", "-j", type=int, default=1, help="accepted; one process")
    p.add_argument("--quiet", "-q", action="store_true", help="no warnings")
    p.add_argument("--short", "-sh", action="store_true", help="short signature")
    p.add_argument("--score-only", "-b", action="store_true", help="print the score only")
    p.add_argument("--width", "-w", type=int, default=1, help="decimals (1)")
    p.add_argument(
        "--detail", "-d", action="store_true", help="scores per original language and subset"
    )
    p.add_argument("--no-color", "-nc", action="store_true", help="accepted (never coloured)")
    p.add_argument("--format", "-f", default="json", choices=_FORMATS, help="json (default)")
    p.add_argument("--version", "-V", action="version",
                   version=f"bleukit {__version__} (emulating sacrebleu {EMULATED})")  # fmt: skip
    return p


def _refuse(args: argparse.Namespace) -> None:
    """Flags bleukit cannot honour: one line naming them, status 2."""
    for flag, dest in (("--origlang", "origlang"), ("--subset", "subset"),
                       ("--detail", "detail")):  # fmt: skip
        if getattr(args, dest) and not (args.test_set and args.langpair):
            raise InputError(f"{flag} needs a test set (-t) and a language pair (-l)")
    if args.width < 0:
        raise ConfigError(f"-w {args.width}: the width must be at least 0")
    for value, flag in ((args.confidence_n, "-cin"), (args.paired_bs_n, "-pbsn"),
                        (args.paired_ar_n, "-parn")):  # fmt: skip
        if value < 1:
            raise ConfigError(f"{flag} {value}: the number of samples must be at least 1")


def _reference_files(args: argparse.Namespace) -> list[list[str]]:
    """Per test set (or once for files given), its reference files."""
    if args.test_set is None:
        if not args.refs:
            raise InputError("no reference file: give reference files before -i, or -t and -l")
        return [args.refs]
    if args.refs:
        raise InputError("give either a test set (-t) or reference files, not both")
    if args.langpair is None:
        raise InputError("-t needs a language pair (-l); --list lists a test set's pairs")
    # the test sets' module (with pathlib and urllib: 10 ms of a start) is
    # imported where a test set is asked for
    from ...io import testsets

    return [
        [str(p) for p in testsets.locate(name, args.langpair).references]
        for name in args.test_set.split(",")
    ]


class _Input:
    """The references and systems of a command line, read in step: files
    opened (and standard input's first line read) at once, so that a
    missing file or a wrong number of systems is found before any reading;
    then ``chunks``."""

    def __init__(self, args: argparse.Namespace, paired: bool) -> None:
        if args.num_refs != 1 and (len(args.refs) > 1 or args.test_set is not None):
            raise InputError(
                "-nr reads tab-separated references from one file; give only one, and no -t"
            )
        self._num_refs = args.num_refs
        self._refs: list[FileLines] = []
        self._files: list[FileLines] = []
        self._stdin: StdinSystems | None = None
        try:
            per_set = _reference_files(args)
            for k in range(max(map(len, per_set))):
                paths = [files[k] for files in per_set if k < len(files)]
                self._refs.append(FileLines(paths, args.encoding))
            self.names = self._systems(args, paired)
        except BaseException:
            self.close()
            raise

    def _systems(self, args: argparse.Namespace, paired: bool) -> list[str]:
        """The systems' names, once their input is open: one per -i file,
        or tab-separated fields of standard input."""
        if args.input is None:
            self._stdin = StdinSystems(args.encoding)
            n = self._stdin.width
            if paired:
                return ["Baseline"] + [f"System {i + 1}" for i in range(n - 1)]
            return [f"System {i + 1}" for i in range(n)]
        names: list[str] = []
        for path in args.input:
            if path in names:
                if paired and path == names[0]:
                    continue  # sacrebleu ignores a system given again as the baseline
                raise InputError(f"{path!r} names two systems; give each system once")
            self._files.append(FileLines([path], args.encoding))
            names.append(path)
        if paired and names:
            names[0] = f"Baseline: {names[0]}"
        return names

    def __enter__(self) -> _Input:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for stream in (*self._refs, *self._files):
            stream.close()

    @property
    def files(self) -> int:
        """How many files are read in step."""
        return len(self._refs) + (len(self._files) if self._stdin is None else 1)

    def _take(self, size: int | None) -> tuple[list[list[str]], list[list[str]]]:
        refs = [stream.take(size) for stream in self._refs]
        if self._num_refs != 1:
            done = self._refs[0].count - len(refs[0])
            refs = _split_references(refs[0], self._refs[0].where, done, self._num_refs)
        if self._stdin is not None:
            return refs, self._stdin.take(size)
        return refs, [stream.take(size) for stream in self._files]

    def chunks(self, size: int | None) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
        """The reference streams and each system's lines, ``size`` lines of
        each at a time (None: whole); once read, a system that is empty or
        of another length than the references is an error."""
        while True:
            refs, systems = self._take(size)
            lengths = {len(lines) for lines in (*refs, *systems)}
            if len(lengths) > 1:  # each file's length, for the error
                for stream in (*self._refs, *self._files):
                    stream.skip()
                if self._stdin is not None:
                    self._stdin.skip()
                break
            if lengths == {0}:
                break
            yield refs, systems
            if size is None or lengths != {size}:
                break
        self._check_lengths()

    def _check_lengths(self) -> None:
        streams = self._refs[0].count if self._refs else 0
        refs = [streams] * self._num_refs if self._num_refs != 1 else [r.count for r in self._refs]
        if self._stdin is not None:
            systems = [self._stdin.count] * self._stdin.width
        else:
            systems = [stream.count for stream in self._files]
        for length in systems:
            if not length:
                raise InputError("a system output is empty: nothing to score")
            if any(r != length for r in refs):
                raise InputError(
                    f"a system has {length} lines but the references have "
                    + ", ".join(map(str, refs))
                    + "; the streams need one segment per line, aligned"
                )


def _split_references(lines: list[str], path: str, done: int, num_refs: int) -> list[list[str]]:
    """-nr: each line's tab-separated references (``done``: the lines of
    the file before these)."""
    streams: list[list[str]] = [[] for _ in range(num_refs)]
    for lineno, line in enumerate(lines, done + 1):
        fields = line.split("\t", num_refs - 1)
        if len(fields) != num_refs:
            raise InputError(
                f"{path}: line {lineno}: expected {num_refs} tab-separated "
                f"references, found {len(fields)}"
            )
        for stream, field in zip(streams, fields):
            stream.append(field)
    return streams


def _check(args: argparse.Namespace, paired: bool, n: int) -> None:
    """What the number of systems rules out, before any reading."""
    if args.sentence_level:
        if n > 1:
            raise InputError("-sl scores one system only")
        if args.confidence or paired:
            raise InputError("-sl cannot be combined with -ci or paired tests")
    if paired and n == 1:
        raise InputError("paired tests need several systems given to -i")
    if n > 1 and args.confidence:
        raise InputError("-ci is for one system; use --paired-bs or --paired-ar for several")
    if n == 0:
        raise InputError("no system output given")


if TYPE_CHECKING:
    from .chrf import CHRF
    from .ter import TER

    Metric = BLEU | CHRF | TER


def _metrics(args: argparse.Namespace, refs: list[list[str]] | None) -> dict[str, Metric]:
    """The metrics asked for, by sacrebleu's upper-case name, in the order
    given (a name given twice counts once, as sacrebleu's dict), with the
    references they cache (None: none)."""
    trg = args.langpair.split("-")[1] if args.langpair and "-" in args.langpair else ""
    out: dict[str, Metric] = {}
    for name in args.metrics:
        if name == "bleu":
            out["BLEU"] = BLEU(
                lowercase=args.bleu_lowercase,
                force=args.bleu_force,
                tokenize=args.bleu_tokenize,
                smooth_method=args.bleu_smooth_method,
                smooth_value=args.bleu_smooth_value,
                effective_order=args.sentence_level,
                trg_lang=trg,
                references=refs,
            )
        elif name == "chrf":
            from .chrf import CHRF  # (imported for chrF alone: start-up)

            out["CHRF"] = CHRF(
                char_order=args.chrf_char_order,
                word_order=args.chrf_word_order,
                beta=args.chrf_beta,
                lowercase=args.chrf_lowercase,
                whitespace=args.chrf_whitespace,
                eps_smoothing=args.chrf_eps_smoothing,
                references=refs,
            )
        else:
            from .ter import TER

            out["TER"] = TER(
                normalized=args.ter_normalized,
                no_punct=args.ter_no_punct,
                asian_support=args.ter_asian_support,
                case_sensitive=args.ter_case_sensitive,
                references=refs,
            )
    return out


def _test_set_command(args: argparse.Namespace) -> str | None:
    """What --download, --list, --citation and --echo print (None: none of
    them was given)."""
    if args.download:
        from ...io import testsets

        testsets.download(args.download, args.langpair)
        return ""
    if args.list:
        return _list(args)
    if args.citation:
        if not args.test_set:
            raise InputError("--citation needs a test set (-t)")
        from ...io import testsets

        table = testsets.require_datasets("--citation")
        out = []
        for name in args.test_set.split(","):
            citation = getattr(table.get(name), "citation", None)
            if not citation:
                raise InputError(f"no citation for test set {name!r}")
            out.append(citation + "\n")
        return "".join(out)
    if args.echo:
        if args.langpair is None or args.test_set is None:
            raise InputError("--echo needs a test set (-t) and a language pair (-l)")
        return "".join(_echo(args, name) for name in args.test_set.split(","))
    return None


def _list(args: argparse.Namespace) -> str:
    """sacrebleu's --list: the test sets (for a pair), or a set's fields."""
    from ...io import testsets

    table = testsets.require_datasets("--list")
    if args.test_set:
        dataset = table.get(args.test_set)
        if dataset is None:
            raise InputError(f"unknown test set {args.test_set!r}")
        pairs = [args.langpair] if args.langpair else list(dataset.langpairs)
        return "".join(
            f"{pair}: {', '.join(testsets.locate(args.test_set, pair).fields)}\n" for pair in pairs
        )
    if args.langpair:
        src, _, trg = args.langpair.partition("-")
        names = [d.name for d in table.values()
                 if f"{src}-{trg}" in d.langpairs or f"{trg}-{src}" in d.langpairs]  # fmt: skip
        head = f"The available test sets for {args.langpair} are:"
    else:
        names, head = sorted(table, reverse=True), "The available test sets are:"
    lines = [head] + [f"{n:<30}: {table[n].description.strip()}" for n in sorted(names)]
    return "\n".join(lines) + "\n"


def _echo(args: argparse.Namespace, name: str) -> str:
    """sacrebleu's --echo: the fields' lines, tab-separated."""
    from ...io import testsets

    test_set = testsets.locate(name, args.langpair)
    fields = args.echo
    if "all" in fields:
        if len(fields) != 1:
            raise InputError("--echo all cannot be combined with other fields")
        fields = list(test_set.fields)
    streams = [read_lines(str(test_set.field(f)), "utf-8") for f in fields]
    if args.origlang or args.subset:
        streams = testsets.filter_segments(streams, name, args.langpair, args.origlang, args.subset)
    return "".join("\t".join(row) + "\n" for row in zip(*streams))


def run(args: argparse.Namespace) -> Iterator[str]:
    """What sacrebleu prints for these arguments, in pieces to print as
    they come: one, or with ``-sl`` each chunk's lines."""
    _refuse(args)
    listing = _test_set_command(args)
    if listing is not None:
        yield listing
        return
    paired = args.paired_bs or args.paired_ar
    if args.sentence_level and len(args.metrics) > 1:
        raise InputError("-sl takes one metric")
    with _Input(args, paired) as source:
        names = source.names
        _check(args, paired, len(names))
        # sacrebleu's filters and its documents' details read a test set
        # whole; the rest a chunk at a time, keeping statistics, not text,
        # or printing each chunk's sentence lines once they are scored
        if not (args.origlang or args.subset or args.detail):
            metrics = _metrics(args, None)
            size = lines_per_file(max(m.variant.batch_lines() for m in metrics.values()),
                                  source.files)  # fmt: skip
            if args.sentence_level:
                yield from _sentence_lines(args, next(iter(metrics.values())),
                                           source.chunks(size))  # fmt: skip
                return
            yield _scores(args, metrics, names, _collect(args, metrics, source.chunks(size)))
            return
        ((full_refs, full_systems),) = source.chunks(None)
    systems, refs = full_systems, full_refs
    if args.origlang or args.subset:
        from ...io import testsets

        kept = testsets.filter_segments(
            [*full_systems, *full_refs], args.test_set, args.langpair, args.origlang, args.subset
        )
        systems, refs = kept[: len(full_systems)], kept[len(full_systems) :]
        if systems and not systems[0]:
            raise InputError(f"test set {args.test_set!r} has no sentence in that subset")
    if args.sentence_level:
        yield from _sentence_lines(args, next(iter(_metrics(args, None).values())),
                                   [(refs, systems)])  # fmt: skip
        return
    metrics = _metrics(args, refs)
    if args.detail and args.format == "json":
        args.format = "text"  # as sacrebleu: the details are text
    text = _scores(args, metrics, names, _collect(args, metrics, [(refs, systems)]))
    if args.detail and len(systems) == 1:
        text += _detail(args, metrics, full_systems[0], full_refs)
    yield text


class _Collected:
    """Every system's statistics under every metric (``keys[k]`` is the
    k-th system's key), and per system how many of its lines end in a
    tokenized period (BLEU's warning)."""

    def __init__(self, stats: SystemStatistics, periods: list[int]) -> None:
        self.stats = stats
        self.keys = stats.systems
        self.periods = periods


def _collect(
    args: argparse.Namespace,
    metrics: dict[str, Metric],
    chunks: Iterable[tuple[list[list[str]], list[list[str]]]],
) -> _Collected:
    """The statistics of ``chunks`` (reference streams and each system's
    lines, in step): each segment's where a test resamples, else the sums."""
    from ...corpus.systems import SystemStatistics
    from ...io.memory import release_free_memory

    paired = args.paired_bs or args.paired_ar
    stats: SystemStatistics | None = None
    periods: list[int] = []
    read = 0
    for refs, systems in chunks:
        read += 1
        if stats is None:
            keys = [str(i) for i in range(len(systems))]  # (a path may name two systems)
            variants = [m.variant for m in metrics.values()]
            stats = SystemStatistics(variants, keys, per_segment=paired or args.confidence)
            periods = [0] * len(systems)
        stats.add(refs, systems)
        if not paired:  # (sacrebleu's paired tests do not warn)
            for k, lines in enumerate(systems):
                periods[k] += tokenized_periods(lines)
    assert stats is not None  # (chunks refuses empty systems)
    if read > 1:
        # the chunks' blocks, before resampling (io.memory); one chunk (a
        # test set) frees little, and ctypes costs 4 ms of a start
        release_free_memory()
    for metric in metrics.values():
        metric.num_refs = stats.nrefs
    return _Collected(stats, periods)


def _scores(
    args: argparse.Namespace, metrics: dict[str, Metric], names: list[str], data: _Collected
) -> str:
    """The scores of one system, the table of several, or a paired test."""
    if args.paired_bs or args.paired_ar:
        return _paired(args, metrics, names, data)
    if len(names) == 1:
        return _single(args, metrics, data)
    return _table(args, metrics, names, data)


def _detail(args: argparse.Namespace, metrics: dict[str, Metric], system: list[str],
            refs: list[list[str]]) -> str:  # fmt: skip
    """sacrebleu's -d: the scores of the documents of each original
    language, in all and in each subset the raw files annotate."""
    from ...io import testsets

    origlangs, subsets = testsets.document_labels(args.test_set, args.langpair)
    if args.origlang:
        origlangs = [args.origlang]
    if not origlangs:
        return "No subset information found. Consider using --origlang argument.\n"
    rows: dict[str, list[tuple[int, Score]]] = {}
    for origlang in origlangs:
        for subset in [None, *([args.subset] if args.subset is not None else subsets)]:
            hyp, *kept = testsets.filter_segments(
                [system, *refs], args.test_set, args.langpair, origlang, subset
            )
            if not hyp:
                continue
            key = f"origlang={origlang}"
            if subset is None:
                key += " domain=ALL"
            elif subset.startswith("country:"):
                key += f" country={subset[8:]}"
            else:
                key += f" domain={subset}"
            rows[key] = [(len(hyp), m.corpus_score(hyp, kept)) for m in metrics.values()]
    left = max(len(k) for k in rows) + 1
    name_width = max(len(score.name) for _, score in next(iter(rows.values())))
    return "".join(
        f"{key:<{left}}: sentences={n:<6} {score.name:<{name_width}} = "
        f"{score.score:.{args.width}f}\n"
        for key, scores in rows.items()
        for n, score in scores
    )


def _sentence_lines(
    args: argparse.Namespace,
    metric: Metric,
    chunks: Iterable[tuple[list[list[str]], list[list[str]]]],
) -> Iterator[str]:
    """-sl: each chunk's sentence scores of its one system against the
    chunk's references, as lines of text (the signature, which counts the
    references, once the first chunk's are given), held back until every
    line was read, as sacrebleu prints nothing when a file has another
    length: in memory, then in a temporary file (``io.files.Spool``)."""
    from ...io.files import Spool

    sig = None
    with Spool() as spool:
        for refs, systems in chunks:
            scores = metric.sentence_scores(systems[0], refs)
            if sig is None:
                sig = metric.get_signature().format(args.short)
            spool.write("".join(s.format(args.width, args.score_only, sig) + "\n" for s in scores))
        yield from spool.blocks()


def _single(args: argparse.Namespace, metrics: dict[str, Metric], data: _Collected) -> str:
    results = []
    key, stats = data.keys[0], data.stats
    n = args.confidence_n if args.confidence else 1
    for name in sorted(metrics):
        metric = metrics[name]
        metric._check_tokenized(data.periods[0])
        segments = stats.segment_stats(metric.variant, key) if n > 1 else ()
        score = metric._scored(stats.total(metric.variant, key), segments, stats.nrefs, n)
        sig = metric.get_signature().format(args.short if args.format != "json" else False)
        results.append(score.format(args.width, args.score_only, sig, args.format == "json"))
    if args.format == "json":
        if len(results) > 1:
            return "[\n" + ",\n".join(results) + "\n]\n"
        return results[0] + "\n"
    if len(results) == 1:
        return results[0] + "\n"
    # sacrebleu's print_single_results: lines aligned on their " = ", and a
    # line without one (-b) printed as it is, before the aligned ones
    plain = [line for line in results if "=" not in line]
    cuts = [line.index("=") - 1 for line in results if "=" in line]
    width = max(cuts, default=0)
    aligned = [
        f"{line[:cut]:>{width}}{line[cut:]}"
        for cut, line in zip(cuts, (x for x in results if "=" in x))
    ]
    return "".join(line + "\n" for line in [*plain, *aligned])


def _table(args: argparse.Namespace, metrics: dict[str, Metric], names: list[str],
           data: _Collected) -> str:  # fmt: skip
    columns: dict[str, list[str]] = {}
    sigs: dict[str, str] = {}
    stats = data.stats
    for key, periods in zip(data.keys, data.periods):
        for name in sorted(metrics):
            metrics[name]._check_tokenized(periods)
            total = stats.total(metrics[name].variant, key)
            score = metrics[name]._scored(total, (), stats.nrefs, 1)
            sigs[score.name] = metrics[name].get_signature().format(args.short)
            columns.setdefault(score.name, []).append(score.format(args.width, True))
    if args.format == "json":
        rows = [
            {"system": n, **{k: cells[i] for k, cells in columns.items()}}
            for i, n in enumerate(names)
        ]
        return json.dumps(rows, indent=4) + "\n"
    table = render({"System": names, **columns}, args.width, args.format)
    return _with_signatures(table, sigs)


def _with_signatures(table: str, sigs: dict[str, str], middle: str = "") -> str:
    lines = [table, "", *([middle] if middle else []), "-----------------",
             "Metric signatures", "-----------------"]  # fmt: skip
    lines += [f" - {name:<10} {sig}" for name, sig in sigs.items()]
    return "\n".join(lines) + "\n"


def _paired(args: argparse.Namespace, metrics: dict[str, Metric], names: list[str],
            data: _Collected) -> str:  # fmt: skip
    """sacrebleu's paired tests: the same resamples and trials, so the same
    p-values and intervals (BLEU through bleukit's exact sacrebleu mode)."""
    test: TestName = "bs" if args.paired_bs else "ar"
    samples = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    seed = sacrebleu_seed()
    stats, keys = data.stats, data.keys
    columns: dict[str, list[dict[str, Any]]] = {}
    sigs: dict[str, str] = {}
    for metric in metrics.values():  # sacrebleu's PairedTest: in the order given
        name = metric.variant.score_name
        columns[name] = _paired_metric(metric.variant, stats, keys, test, samples, seed)
        sig = metric.get_signature()
        sig.update("seed", str(seed))
        sig.update(test, samples)
        sigs[name] = sig.format(args.short)
    if args.format == "json":
        rows = [
            {"system": n, **{k: results[i] for k, results in columns.items()}}
            for i, n in enumerate(names)
        ]
        return json.dumps(rows, indent=4) + "\n"
    cells: dict[str, list[str]] = {}
    for name, results in columns.items():
        cells.update(_score_lines(name, results, args.width, args.format == "text"))
    table = render({"System": names, **cells}, args.width, args.format)
    baseline = names[0] if names[0].startswith("Baseline:") else ""
    return _with_signatures(table, sigs, _paired_text(test, samples, baseline))


def _paired_metric(variant: AnyMetric, stats: SystemStatistics, keys: list[str],
                   test: TestName, samples: int, seed: int) -> list[dict[str, Any]]:  # fmt: skip
    """One metric's column: bleukit's paired test in sacrebleu's mode (the
    same resamples and trials as sacrebleu's, for BLEU and chrF alike)."""
    from ...significance import paired_test
    from ...significance.paired import SignificanceSpec

    # sacrebleu's command line runs randomization without intervals
    spec = SignificanceSpec(test, samples=samples, seed=seed, compat="sacrebleu",
                            confidence_samples=samples if test == "bs" else 0)  # fmt: skip
    systems = [(key, stats.segment_stats(variant, key)) for key in keys]
    rows = paired_test(variant, systems, stats.nrefs, spec)
    return [_result(r.sacrebleu_score, r.p_value, r.interval) for r in rows]


def _result(
    score: float | None, p_value: float | None, interval: Interval | None
) -> dict[str, Any]:
    """sacrebleu's ``Result`` object as its JSON output writes it. chrF's
    bootstrap statistics are float32 values, which sacrebleu 2.6.0 fails to
    write as JSON (a TypeError); here they are written as floats."""
    mean = float(interval.mean) if interval else None
    ci = float(interval.half_width) if interval else None
    return {"score": score, "p_value": p_value, "mean": mean, "ci": ci}


def _score_lines(
    name: str, results: Sequence[dict[str, Any]], width: int, multiline: bool
) -> dict[str, list[str]]:
    """sacrebleu's cells of a paired test: score, (mean ± half-width) where
    there is an interval, and the p-value ("*" when at most 0.05) on a line
    of its own in the text table; the column title says "(μ ± 95% CI)"."""
    cells = []
    for r in results:
        text = f"{r['score']:.{width}f}"
        if r["mean"] is not None:
            text += f" ({r['mean']:.{width}f} ± {r['ci']:.{width}f})"
        if r["p_value"] is not None:
            p = f"(p = {r['p_value']:.4f})"
            text += ("\n" if multiline else " ") + (p if r["p_value"] > 0.05 else p + "*")
        cells.append(text)
    title = f"{name} (μ ± 95% CI)" if any(r["mean"] is not None for r in results) else name
    return {title: cells}


def _paired_text(test: str, samples: int, baseline: str) -> str:
    """sacrebleu's explanation printed under a paired test's table."""
    kind = "bootstrap resampling" if test == "bs" else "approximate randomization"
    unit = "resampling trials" if test == "bs" else "trials"
    head = f"Paired {kind} test with {samples} {unit}"
    rule = "-" * len(head)
    shown = (
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for "
        "each metric."
        if test == "bs"
        else "   Actual system score is provided for each metric."
    )
    return "\n".join([
        rule, head, rule,
        f" - Each system is pairwise compared to {baseline}.",
        shown,
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis "
        "is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are highlighted in red.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline '
        "but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the '
        "delta.",
        "",
    ])  # fmt: skip


def _write(text: str) -> None:
    """UTF-8 whatever the locale, as sacrebleu reopens its standard output."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(text)
    else:
        sys.stdout.flush()
        buffer.write(text.encode("utf-8"))
        buffer.flush()


@contextmanager
def _quiet_logger(quiet: bool) -> Iterator[None]:
    """-q: sacrebleu's warnings silenced while this command runs (and no
    longer: ``main`` may be called again in the same process)."""
    if not quiet:
        yield
        return
    import logging

    logger = logging.getLogger("bleukit.compat.sacrebleu")
    before = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(before)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    fmt = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if fmt in _FORMATS:
        args.format = fmt
    from ...io.messages import printed_warnings

    try:
        with printed_warnings(args.quiet), _quiet_logger(args.quiet):
            for text in run(args):
                _write(text)
    except BleukitError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
