"""Run a command and measure it: exit status, wall seconds, peak resident
memory (MiB) and its output.

The peak is the kernel's ``ru_maxrss`` of the command's process, read by a
small launcher that forks it. Linux carries a process's high-water mark
across ``exec``, so a child forked straight from a benchmark script counts
the script's own memory at fork time: a command run from a parent holding
500 MB reports 513 MB for ``python -c pass``, 13 MB from GNU time. The
launcher is GNU time (``/usr/bin/time``, about 2 MB) where it is installed,
else a Python started without site packages (``python -S``, about 9 MB: that
floor is in every figure then).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

_GNU_TIME = "/usr/bin/time"
#: a launcher when GNU time is missing: fork, exec, wait4, report
_PYTHON_LAUNCHER = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.execvp(sys.argv[2], sys.argv[2:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "with open(sys.argv[1], 'w') as fh:\n"
    "    fh.write(f'{usage.ru_maxrss} {usage.ru_utime} {usage.ru_stime}')\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


@dataclass(frozen=True)
class Run:
    """A finished command: exit status, wall seconds, peak RSS (MiB), its
    standard output and error, and its CPU seconds (user and system)."""

    code: int
    wall: float
    peak_mib: float
    stdout: bytes
    stderr: bytes
    cpu: float = 0.0


def launcher() -> str:
    """Which launcher measures the commands (said in each benchmark's output)."""
    return "GNU time" if os.path.exists(_GNU_TIME) else "python -S (a floor of about 9 MiB)"


def measure(argv: list[str], stdin: bytes | None = None, timeout: float | None = None) -> Run:
    """Run ``argv`` from a small launcher (see the module docstring)."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as report:
        if os.path.exists(_GNU_TIME):
            wrapped = [_GNU_TIME, "-q", "-o", report.name, "-f", "%M %U %S", *argv]
        else:
            wrapped = [sys.executable, "-S", "-c", _PYTHON_LAUNCHER, report.name, *argv]
        start = time.perf_counter()
        proc = subprocess.run(wrapped, input=stdin, capture_output=True, timeout=timeout)
        wall = time.perf_counter() - start
        text = report.read().strip().splitlines()
    # GNU time writes "Command exited with non-zero status N" before the figures
    kib, user, system = text[-1].split() if text else ("0", "0", "0")
    return Run(proc.returncode, wall, int(kib) / 1024, proc.stdout, proc.stderr,
               float(user) + float(system))  # fmt: skip
