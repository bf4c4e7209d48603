"""Logs written by the earlier code restore: tests/data/tourney/ holds a room's database with a
practice sit-and-go and a room tournament stopped mid-play by the two coordinators that came
before the one of tournament/coordinator.py (tests/data/tourney/make.py wrote it). The app
started on a copy of it finds both, plays both to the end, and pays each buy-in and prize
once, with the keys the earlier code used."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from test_server import next_state
from test_tournament_restart import finish_and_check, play, room, room_moves, running

from tapete.server.sitngo import SngTable

DATA = Path(__file__).resolve().parents[1] / "data" / "tourney"


def copy(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    about = json.loads((DATA / "fixture.json").read_text())
    for name in (about["db"], "cookie.key"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path, about


def test_a_stored_sit_and_go_and_tournament_restore_and_finish(tmp_path: Path) -> None:
    data, about = copy(tmp_path)
    sng, tour_about = about["sng"], about["tournament"]
    c: TestClient = running(data).__enter__()
    tid = tour_about["id"]
    tour = c.portal.call(lambda: room(c).tournaments.get(tid))  # type: ignore[union-attr]
    assert tour.started and not tour.finished and tour.seq > 3
    # the sit-and-go: found again as the person's practice table, played to the end
    for k, v in about["cookies"].items():
        c.cookies.set(k, v)
    start = sng["bankroll_before"]
    with c.websocket_connect("/ws") as ws:
        s = next_state(ws, lambda s: not s["lobby"])
        assert s["tournament"]["kind"] == "sng" and s["tournament"]["level"] >= 2
        assert s["tournament"]["id"] == sng["table"]
        assert s["me"]["bankroll"] == start - 100
        end = play(ws, lambda s: s["tournament"]["finished"] or (
            s["tournament"]["place"] is not None and s["hand"] is None))
        player = c.app.state.hub.players[sng["person"]]  # type: ignore[attr-defined]
        assert isinstance(player.game, SngTable) and player.game.sng.id == sng["table"]
        tr = end["tournament"]
        prize = tr["prize"] if tr["finished"] else next(
            (r["prize"] for r in tr["results"] if r["place"] == tr["place"]), None)
        if prize is None:  # out before the end: the place's prize was paid then
            prize = int(end["me"]["bankroll"]) - (start - 100)
        assert end["me"]["bankroll"] == start - 100 + prize
    # the room tournament: played to the end, each buy-in and prize once (its own checks)
    finish_and_check(c, tid, tour_about["bankroll_before"], data)
    moves = room_moves(data)
    assert moves[f"{sng['table']}:sng-buy-in"] == -100
    assert moves.get(f"{sng['table']}:sng-prize", 0) == prize
    assert sum(v for k, v in moves.items() if k.startswith(sng["table"])) == prize - 100
