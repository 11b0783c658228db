"""The stderr progress bar: off unless asked for (or stderr is a terminal), and correct counts."""

import io

from pigtheory.progress import is_enabled, progress_bar, track


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_disabled_bar_writes_nothing():
    out = io.StringIO()
    with progress_bar(10, "x", enabled=False, stream=out) as bar:
        bar.update(10)
    assert out.getvalue() == "" and bar.done == 10


def test_default_follows_the_terminal():
    assert is_enabled(None, io.StringIO()) is False
    assert is_enabled(None, _Tty()) is True
    assert is_enabled(True, io.StringIO()) is True


def test_enabled_bar_draws_and_ends_the_line():
    out = io.StringIO()
    with progress_bar(4, "sweeps", enabled=True, stream=out, min_interval=0) as bar:
        for _ in range(4):
            bar.update()
    text = out.getvalue()
    assert text.endswith("\n") and "sweeps: [" in text and "4/4" in text and "#" * 30 in text


def test_track_yields_every_item():
    out = io.StringIO()
    assert list(track(iter("abc"), total=3, desc="t", enabled=True, stream=out)) == ["a", "b", "c"]
    assert "3/3" in out.getvalue()
    assert list(track([], enabled=True, stream=io.StringIO())) == []
