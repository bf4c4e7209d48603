"""``tapete equity``: the table, the JSON and one-line errors."""

from __future__ import annotations

import json

import pytest

from tapete.cli import main


def test_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhKh", "QsQd", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["boards"] == 1_712_304
    ak, qq = out["players"]
    assert (ak["hand"], ak["wins"], ak["ties"]) == ("AhKh", 787_966, 6_732)
    assert (qq["hand"], qq["wins"], qq["ties"]) == ("QsQd", 917_606, 6_732)
    assert round(ak["equity"] * 100, 4) == 46.2145


def test_table_and_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhKh", "TT+, AKs", "random", "--board", "2c7d9h",
                 "--samples", "20000", "--seed", "3"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "TT+, AKs" in text and "± 95 %" in text and "20,000 boards, Monte Carlo, seed 3" in text
    assert main(["equity", "AKs", "QQ", "--exact"]) == 0
    assert "exact enumeration" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["AhAh", "QsQd"],
        ["AhKh", "QsQd", "--board", "Ah2c3c"],
        ["AhKh", "XYZ"],
        ["AhKh"],
        ["AA", "AA", "AA"],
        ["AhKh", "QsQd", "--board", "2c3c"],
        ["AhKh", "QsQd", "--samples", "0"],
        ["AhKh", "QsQd", "--dead", "1x"],
    ],
)
def test_bad_input_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("tapete equity: error: ")
    assert captured.err.count("\n") == 1


def test_the_time_reported_is_the_work_not_loading_the_kernels(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first ``tapete equity`` of a process loads the compiled kernels (and the first after
    an install compiles them, tens of seconds): the time it prints is the question's. Loading
    is made to take two seconds here; AKs against QQ takes milliseconds."""
    import time

    import tapete.eval.equity as E

    monkeypatch.setattr(E, "_ready_exact", lambda: time.sleep(2.0))
    assert main(["equity", "AKs", "QQ"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("41,095,296 boards, exact enumeration, ") and last.endswith(" s")
    assert float(last.rsplit(", ", 1)[1][:-2]) < 1.5
