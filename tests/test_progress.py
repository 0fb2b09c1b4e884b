"""The progress line: only on a terminal, only after a delay, erased."""

import io

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
