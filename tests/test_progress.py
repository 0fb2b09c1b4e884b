"""The progress line: only on a terminal, only after a delay, erased."""

import io
from array import array

from bleukit.io import progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_silent_when_not_a_terminal(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    out = io.StringIO()
    p = progress.Progress("scoring", 10, out)
    p.advance(5)
    p.close()
    assert out.getvalue() == "" and p.done == 5


def test_shown_after_the_delay_and_erased(monkeypatch):
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    out = Terminal()
    monkeypatch.setattr(progress, "DELAY", 3600.0)
    p = progress.Progress("scoring", 10, out)
    p.advance(4)
    assert out.getvalue() == ""  # a short run shows nothing
    monkeypatch.setattr(progress, "DELAY", 0.0)
    p.advance(1)
    assert "bleukit: scoring: 5 lines of 10 (50%)" in out.getvalue()
    p.close()
    assert out.getvalue().endswith("\r\x1b[K")


def test_unknown_total(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    out = Terminal()
    p = progress.Progress("scoring", None, out)
    p.advance(1234)
    assert "1,234 lines," in out.getvalue() and "%" not in out.getvalue()


def test_a_phase_is_shown_on_a_terminal_only_and_erased(monkeypatch):
    import time

    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.01)
    out = Terminal()
    with progress.phase("resampling", out):
        time.sleep(0.1)
    text = out.getvalue()
    assert "\rbleukit: resampling, 0 s\x1b[K" in text and text.endswith("\r\x1b[K")
    quiet = io.StringIO()
    with progress.phase("resampling", quiet):
        time.sleep(0.05)
    assert quiet.getvalue() == ""
    monkeypatch.setattr(progress, "DELAY", 3600.0)
    short = Terminal()
    with progress.phase("resampling", short):
        pass
    assert short.getvalue() == ""  # a short phase shows nothing


def test_a_phase_with_planned_work_gives_done_total_rate_and_time_left(monkeypatch):
    import time

    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.01)
    monkeypatch.setattr(progress, "LONG", 0.0)  # any time left is long here
    out = Terminal()
    with progress.phase("resampling", out) as meter:
        progress.plan(10)
        progress.plan(10)
        assert progress.counter() is meter and meter.total == 20
        meter.add(5)
        time.sleep(0.1)
    text = out.getvalue()
    assert "bleukit: resampling: 5 of 20 (25%), " in text and " left\x1b[K" in text
    # said once, on a line of its own that the erasing leaves
    assert text.count("bleukit: resampling will take about ") == 1
    assert "(20 resamples or trials); the time grows with --samples\n" in text
    assert progress.counter() is None  # outside a phase nothing counts
    progress.plan(5)  # and planning is a no-op


def test_the_compiled_kernels_count_the_resamples_they_sum(monkeypatch):
    import pytest

    from bleukit.core.resampling import Columns, Draws
    from bleukit.core.stats import Stats
    from bleukit.engines import ENGINES, compiled
    from bleukit.metrics import load_metric

    engine = ENGINES.get("c")
    if engine.unavailable() is not None:
        pytest.skip("no compiled engine here")
    bleu = load_metric("BLEUw4")
    rows = [Stats(i % 7, i % 5, (i % 3, i % 2, 1, 0), (i % 7, 5, 4, 3), 1) for i in range(30)]
    cols = [Columns(rows, bleu), Columns(rows[::-1], bleu)]
    for gather in (0, 1 << 30):  # counted in blocks of 16 resamples; one by one
        monkeypatch.setattr(compiled, "_GATHER_BYTES", gather)
        with progress.phase("resampling", io.StringIO()) as meter:
            engine.bootstrap_rows(cols, Draws.from_seed(30, 37, 1))
            assert meter.done == 37
    kernel = __import__("bleukit._accel", fromlist=["_"])
    with pytest.raises(ValueError, match="8 bytes"):
        kernel.bootstrap_sums(Draws.from_seed(2, 5, 1).state, [array("I", [0, 0])], 1, 5, 0, 5,
                              True, 255, bytearray(4))  # fmt: skip


def test_stages_count_from_zero_under_their_own_name_and_unit(monkeypatch):
    import time

    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.01)
    monkeypatch.setattr(progress, "LONG", 0.0)
    out = Terminal()
    with progress.phase("meta-evaluation", out) as meter:
        progress.stage("measuring the variants", 4, "variants")
        progress.advance()
        # the resampling kernels count only in a stage of resamples
        assert progress.counter() is None
        time.sleep(0.05)
        progress.stage("testing the variants", 2, "variants")
        assert (meter.done, meter.total, meter.label) == (0, 2, "testing the variants")
        progress.advance(2)
        time.sleep(0.05)
    text = out.getvalue()
    assert "bleukit: meta-evaluation: measuring the variants: 1 of 4 (25%)" in text
    assert "measuring the variants will take about " in text and "(4 variants)\n" in text
    assert "--samples" not in text  # only resampling grows with it
    progress.advance()  # outside a phase: nothing
