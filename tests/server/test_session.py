"""One door, one session: every table's WebSocket is served by one session class, and the
server has one refusal (``tapete.room.errors.Refused``: message, then code)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tapete.core.catalog import t
from tapete.room.errors import Refused


def test_one_refusal() -> None:
    """The practice table's messages and the room's are refused by one exception, its
    arguments in one order: the words, then the code for programs."""
    from tapete.server import game, protocol

    assert game.Refused is Refused
    with pytest.raises(Refused) as info:
        protocol.parse("not json")
    assert info.value.code == "malformed"
    assert info.value.message.en == "The message is not valid JSON."
    exc = Refused(t("You are not at a table."), "not_seated")
    assert exc.code == "not_seated" and exc.to_json()["en"] == "You are not at a table."


def test_the_persons_commands_at_a_practice_table_run_in_its_owners_task(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sitting down, acting, adding chips, sitting out and in, and leaving at a practice
    table are commands of the table's owner (one task runs the table, as at every room
    table): none of them runs outside its queue."""
    from starlette.testclient import TestClient

    from tapete.room.table import RoomTable
    from tapete.server import Settings, create_app

    app = create_app(Settings(data_dir=tmp_path, think_delay=0, runout_delay=0.01,
                              result_pause=0, deck_seed=7, action_time=30, time_bank=0,
                              coach_samples=200, idle_pace=0.01))
    outside: list[str] = []
    seen: set[str] = set()

    def watched(name: str) -> None:
        real = getattr(RoomTable, name)

        def run(self: RoomTable, *args: Any, **kwargs: Any) -> Any:
            if self.config.practice:
                seen.add(name)
                running = app.state.room.tables.get(self.table_id)
                if running is None or asyncio.current_task() is not running.task:
                    outside.append(name)
            return real(self, *args, **kwargs)

        monkeypatch.setattr(RoomTable, name, run)

    for name in ("sit", "act", "add_chips", "sit_out", "sit_in", "leave"):
        watched(name)

    def state(ws: Any, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(2000):
            m = ws.receive_json()
            if m["type"] == "state" and pred(m):
                return m
        raise AssertionError("the expected state never came")

    with TestClient(app) as c:
        c.get("/")
        with c.websocket_connect("/ws") as ws:
            state(ws, lambda s: s["lobby"])
            ws.send_text(json.dumps({"type": "sit", "structure": "nl", "blinds": 0,
                                     "buy_in": 100}))
            s = state(ws, lambda s: not s["lobby"] and s["decision"] is not None)
            legal = s["hand"]["legal"]
            ws.send_text(json.dumps({"type": "act", "seq": s["seq"],
                                     "action": "check" if legal["check"] else "call"}))
            state(ws, lambda s: s["decision"] is None)
            ws.send_text(json.dumps({"type": "add_chips", "amount": 50}))
            ws.send_text(json.dumps({"type": "sit_out"}))
            state(ws, lambda s: s["sitting_out"])
            ws.send_text(json.dumps({"type": "sit_in"}))
            state(ws, lambda s: not s["sitting_out"])
            ws.send_text(json.dumps({"type": "leave"}))
            state(ws, lambda s: s["lobby"])
    assert seen >= {"sit", "act", "add_chips", "sit_out", "sit_in", "leave"}, seen
    assert outside == []
