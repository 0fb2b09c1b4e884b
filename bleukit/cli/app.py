"""``bleukit``'s entry point: parse, run the command, and turn every
failure into one line on standard error. User errors exit with status 2;
success exits 0. Every input is read and checked before anything is
printed, so a bad file never leaves half a report behind."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import NoReturn


def run() -> NoReturn:
    """The ``bleukit`` executable (and ``python -m bleukit``): ``main``
    with the cyclic garbage collector paused while the command line loads
    its modules and parses, then the objects made so far frozen (no later
    collection walks them, nor the one at exit) before the command runs,
    and what the command made frozen after it.
    The collections of a start freed a few hundred objects and took 5 ms
    of a 75 ms ``bleukit score`` (issue 42). A library call of ``main`` leaves
    the collector alone."""
    import gc

    def resume() -> None:
        gc.freeze()
        gc.enable()

    gc.disable()
    try:
        code = main(ready=resume)
    finally:
        gc.enable()
    # the interpreter's collection at exit would walk every object the
    # command made (2-5 ms of a score); main has flushed what it wrote, and
    # the process's memory goes back to the system as it ends
    gc.freeze()
    sys.exit(code)


def main(argv: Sequence[str] | None = None, ready: Callable[[], None] | None = None) -> int:
    """Run the command line; a failure to write the output (a full disk,
    a closed descriptor) is a one-line error and exit status 2. ``ready``
    is called once the command is parsed, before it runs (``run``)."""
    # the parser is imported once the garbage collector is paused (run)
    from .parser import EXIT_USER_ERROR

    try:
        code = _main(argv, ready)
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


def _main(argv: Sequence[str] | None, ready: Callable[[], None] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["sacrebleu"]:
        # sacrebleu's own options, parsed by its own parser
        from ..compat.sacrebleu.cli import main as sacrebleu_main

        if ready is not None:
            ready()
        return sacrebleu_main(argv[1:])
    from .parser import EXIT_USER_ERROR, build_parser

    # the command is the first argument that is no option (--version is
    # the only option before it)
    parser = build_parser(next((a for a in argv if not a.startswith("-")), ""))
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
    from ..io.messages import printed_warnings
    from .commands import COMMANDS

    if ready is not None:
        ready()
    try:
        with printed_warnings(getattr(args, "quiet", False)):
            return COMMANDS[args.command](args, out) or 0
    except BleukitError as exc:
        sys.stderr.write(f"bleukit: error: {exc}\n")
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("bleukit: interrupted\n")
        return 130


if __name__ == "__main__":
    run()
