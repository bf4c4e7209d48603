"""Old logs and snapshots restore: tests/data/room/tables.json holds two tables' records and
last snapshots as an earlier version of the room wrote them (a host's table with requests,
chat, mutes, straddles, votes, a pause, a stack set and a kick; a tournament's table with
its seating and levels), and the state that version restored from them. Today's code must
restore the same state from them, from the snapshot and from the first record alike, and
take the very same snapshot at the same point (docs: records on disk never change)."""

from __future__ import annotations

import importlib.util
import json
import pathlib
from typing import Any

import pytest

from tapete.room.clock import ManualClock
from tapete.room.log import EventLog, TableConfig
from tapete.room.table import RoomTable, restore

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "room"
_spec = importlib.util.spec_from_file_location("make_tables", DATA / "make_tables.py")
assert _spec is not None and _spec.loader is not None
make_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_tables)
TABLES = json.loads((DATA / "tables.json").read_text())["tables"]


def _log(old: dict[str, Any], upto: int | None = None, snapshot: bool = True) -> EventLog:
    log = EventLog()
    log.create_table(TableConfig.from_json(old["config"]), old["id"])
    for seq, kind, payload, at in old["records"]:
        if upto is None or seq <= upto:
            log.append(old["id"], seq, [(kind, payload)], at=at)
    if snapshot:
        log.save_snapshot(old["id"], old["snapshot"]["seq"], old["snapshot"]["state"])
    return log


def _restored(old: dict[str, Any], log: EventLog) -> RoomTable:
    return restore(log, old["id"], make_tables.Bank(), clock=ManualClock(old["clock_ms"]),
                   auto_start=False)


@pytest.mark.parametrize("old", TABLES, ids=[t["id"] for t in TABLES])
def test_an_old_log_and_snapshot_restore_the_same_table(old: dict[str, Any]) -> None:
    assert make_tables.summary(_restored(old, _log(old))) == old["summary"]


@pytest.mark.parametrize("old", TABLES, ids=[t["id"] for t in TABLES])
def test_an_old_log_replays_from_its_first_record(old: dict[str, Any]) -> None:
    assert make_tables.summary(_restored(old, _log(old, snapshot=False))) == old["summary"]


@pytest.mark.parametrize("old", TABLES, ids=[t["id"] for t in TABLES])
def test_the_same_point_gives_the_same_snapshot(old: dict[str, Any]) -> None:
    seq = old["snapshot"]["seq"]
    table = _restored(old, _log(old, upto=seq, snapshot=False))
    assert table.seq == seq
    assert json.loads(json.dumps(table.snapshot())) == old["snapshot"]["state"]
