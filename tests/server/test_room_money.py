"""The room's bankroll and the practice table's share one player's money: a room table's
move is decided on the bankroll the server holds in memory and stored in order with the
practice table's moves, so neither can make the other's move fail after it was promised.

Before this, a room buy-in was checked against memory and then made in the database: when the
practice table had given chips back in memory that were not stored yet, the database refused
the buy-in after the table had stored its record, and the table stopped with a books error
(and stopped again on every restore)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from test_server import settings

from tapete.server.hub import Hub
from tapete.server.rooms import RoomBankroll
from tapete.server.storage import Storage


def room(tmp: Path) -> tuple[Hub, Storage]:
    config = settings(tmp, starting_bankroll=1000)
    storage = Storage(config.db_url(), config.starting_bankroll)
    return Hub(config, storage), storage


async def _practice_then_room(tmp: Path) -> None:
    hub, storage = room(tmp)
    try:
        p = hub.player("alice", create=True)
        assert p is not None
        p._store()
        # the practice table: a buy-in of 900, stored
        p.purse.bankroll -= 900
        await p.purse.move("buy_in", -900, 900)
        # ... and its cash-out, decided in memory and held back on its way to the database
        gate = threading.Event()
        move = storage.move

        def slow_move(*args: Any, **kw: Any) -> Any:
            gate.wait(10)
            return move(*args, **kw)

        storage.move = slow_move  # type: ignore[method-assign]
        p.purse.bankroll += 900
        cashed = p.purse.move("cash_out", 900, -900)
        await asyncio.sleep(0.05)
        assert storage.get_player("alice").bankroll == 100  # type: ignore[union-attr]

        # a room table takes the whole bankroll the server shows: 1000
        bank = RoomBankroll(hub)
        assert bank.balance("alice") == 1000
        assert bank.take("alice", 1000, "t1:1")
        assert bank.take("alice", 1000, "t1:1")  # the same move asked again: nothing changes
        assert p.bankroll == 0
        assert not bank.take("alice", 1, "t1:2")  # memory holds nothing more
        gate.set()
        await cashed
        await p.purse.flush()
        row = storage.get_player("alice")
        assert row is not None and (row.bankroll, row.at_table) == (0, 0)
        assert storage.room_moves("alice") == -1000
        assert storage.books("alice") == []
        assert [r["kind"] for r in storage.ledger("alice")][-3:] == \
            ["buy_in", "cash_out", "room_in"]

        # a restore in a later process asks for the stored move again: nothing changes
        hub2 = Hub(hub.settings, storage)
        again = RoomBankroll(hub2)
        assert again.take("alice", 1000, "t1:1")
        again.give("alice", 1000, "t1:9")
        p2 = hub2.player("alice")
        assert p2 is not None
        await p2.purse.flush()
        assert storage.get_player("alice").bankroll == 1000  # type: ignore[union-attr]
        assert storage.room_moves("alice") == 0
        assert storage.books("alice") == []
    finally:
        storage.close()


def test_a_room_buy_in_is_stored_after_the_practice_tables_cash_out(tmp_path: Path) -> None:
    asyncio.run(_practice_then_room(tmp_path))
