"""The ``pigtheory sequential`` and ``pigtheory compare`` commands."""

import pytest

from pigtheory.cli import main


def test_sequential_command(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PIGTHEORY_CACHE_DIR", str(tmp_path))
    assert main(["sequential", "--piglet", "--goal", "2", "--out", str(tmp_path / "roll.npy")]) == 0
    out = capsys.readouterr().out
    assert "0.5714285714" in out
    assert (tmp_path / "roll.npy").exists()


def test_compare_command(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PIGTHEORY_CACHE_DIR", str(tmp_path))
    assert main(["compare", "optimal", "hold-at-5", "--goal", "12", "--dice", "2"]) == 0
    out = capsys.readouterr().out
    first = float(out.split("A first")[1].split()[0])
    assert 0.5 < first < 1
    assert main(["compare", "hold-at-4", "hold-at-4", "--goal", "12"]) == 0
    assert "average  0.500000" in capsys.readouterr().out


def test_bad_policy(capsys):
    assert main(["compare", "hold-at-4", "sometimes", "--goal", "8"]) == 2
    assert "policy must be" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["scoring-turns-3", "base-pace-race", "pace-race-20-8-25"])
def test_practical_names(text, capsys):
    assert main(["compare", "hold-at-10", text, "--goal", "40"]) == 0
