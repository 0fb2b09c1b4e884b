"""Where the chunks of a corpus read from files are counted: in this
process, or by the workers of a running Dask cluster. This package is the
one place an executor is chosen (``files``); commands, reports and analyses
say where with an ``Execution`` and never see which executor counted.
(Data frames on Dask, Ray or Spark are scored through ``bleukit.dask``,
``bleukit.ray`` and ``bleukit.spark`` themselves.)"""

from __future__ import annotations

from typing import Literal

from ..core.record import Record


class Execution(Record):
    """Where chunks are counted: ``local`` (this process) or ``dask`` (the
    workers of the cluster whose scheduler listens at ``scheduler``)."""

    executor: Literal["local", "dask"] = "local"
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.executor not in ("local", "dask"):
            raise ValueError(f"unknown executor {self.executor!r} (local or dask)")
        if (self.executor == "dask") != bool(self.scheduler):
            raise ValueError("the dask executor, and it alone, takes a scheduler address")


LOCAL = Execution()
