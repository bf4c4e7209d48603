"""``tapete tournament``: the JSON (finishing order, payouts, each hand's table and level), a
PHH file for every hand with its table and seats, the SVG chart, and mistakes refused before
any hand is played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapete.cli import main
from tapete.history.phh import read_file
from tapete.history.replay import replay


def test_a_tournament_in_json_with_its_hands_and_chart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, chart = tmp_path / "hands", tmp_path / "chart.svg"
    assert main(["tournament", "--players", "24", "--seed", "3", "--level-hands", "6",
                 "--json", "--no-progress", "--phh", str(folder), "--chart", str(chart)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 24 and out["prize_pool"] == 2400
    assert sum(out["payouts"]) == 2400 == sum(f["prize"] for f in out["finish"])
    assert [f["place"] for f in out["finish"]][:4] == [1, 2, 3, 4]
    files = sorted(folder.glob("*.phh"))
    assert len(files) == len(out["hands"])
    levels = {h["level"] for h in out["hands"]}
    assert min(levels) == 1 and max(levels) > 3
    for h in out["hands"][:: max(1, len(out["hands"]) // 20)]:
        (hand,) = read_file(str(folder / f"{h['hand']}.phh"))
        assert hand.record is not None
        assert hand.record.extra["table"] == str(h["table"])
        assert hand.record.extra["_level"] == h["level"]
        res = replay(hand.record, decisions=False)
        assert res.error is None and not res.partial
    svg = chart.read_text("utf-8")
    assert svg.startswith("<svg") and "chip leader" in svg and "average stack" in svg


def test_a_custom_schedule_and_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--players", "12", "--levels", "50/100x4 100/200/200x4",
                 "--deal", "icm", "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sum(f["prize"] for f in out["finish"]) == out["prize_pool"]
    assert out["hands"][0]["level"] == 1


@pytest.mark.parametrize(("args", "said"), [
    (["--players", "1"], "--players must be at least 2"),
    (["--bots", "tag,shark"], "unknown bot 'shark'"),
    (["--chart", "x.png"], "--chart takes a .svg file name"),
    (["--levels", "50-100"], "a level is small blind/big blind"),
])
def test_mistakes_are_refused(args: list[str], said: str, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert main(["tournament", "--no-progress", *args]) == 2
    assert said in capsys.readouterr().err


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> None:
        self.text += s

    def flush(self) -> None:
        pass


def test_the_progress_line_shows_level_players_and_tables_on_a_terminal_only() -> None:
    from tapete.cli.tournament import Progress
    from tapete.tournament.model import TournamentRules, fast_schedule
    from tapete.tournament.sim import simulate

    rules = TournamentRules(fast_schedule(length=6), starting_stack=3000)
    tty, pipe = _Stream(True), _Stream(False)
    on_tty, on_pipe = Progress("en", tty), Progress("en", pipe)  # type: ignore[arg-type]

    def both(director: object, report: object) -> None:
        on_tty(director, report)  # type: ignore[arg-type]
        on_pipe(director, report)  # type: ignore[arg-type]

    simulate(rules, ["tag", "lag"], 20, seed=1, on_round=both)
    assert pipe.text == ""
    assert "level 1 (25/50, ante 0) · players left: 20 · tables: 3 · hand 1 " in tty.text
    last = tty.text.rstrip().rsplit("\r", 1)[-1]
    assert "players left: 1 · tables: 1 · hand" in last and tty.text.endswith("\n")
