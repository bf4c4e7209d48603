"""A player's money while the server holds it: decided in memory, stored in order.

The server decides with the bankroll it holds in memory (a buy-in is refused at once if the
bankroll is short); each change is also a move of chips for the database
(:meth:`Storage.move`: amounts, never absolute values, in one transaction with its ledger row and,
for a hand's result, the hand). The moves of one player are written one after another, in the
order they were made, by one writer task: a reset asked for after a hand is written after that
hand's result, never before, so a restart never brings old figures back. What the page is shown
waits for the write (:meth:`Purse.move` returns a future): nothing is said that a crash could
take back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

from tapete.room.errors import Refused as RoomRefused
from tapete.room.ports import Here
from tapete.server.storage import HandRow, Storage

log = logging.getLogger("tapete.server")


@dataclass(slots=True)
class _Move:
    kind: str
    bankroll: int
    at_table: int
    hand: HandRow | None
    done: asyncio.Future[None]
    key: str = ""  # a room table's move: made once per key (Storage.move_once)


@dataclass(slots=True, eq=False)
class Purse:
    """``bankroll``: the chips off the table, as the server holds them now. ``version``: how
    many changes of money the player has had, counting the ones still being written: the
    length of the ledger once they are (the page is told it with the money, so what it shows
    can be checked against the books)."""

    storage: Storage
    player_id: str
    bankroll: int
    version: int = 0
    _queue: list[_Move] = field(default_factory=list)
    _writer: asyncio.Task[None] | None = None

    def move(self, kind: str, bankroll: int = 0, at_table: int = 0,
             hand: HandRow | None = None) -> asyncio.Future[None]:
        """Queue a move of chips (the caller has already changed what it holds in memory);
        the future is done once it is stored (or failed, logged)."""
        return self._put(_Move(kind, bankroll, at_table, hand,
                               asyncio.get_running_loop().create_future()))

    def room(self, key: str, bankroll: int, at_table: int = 0) -> asyncio.Future[None]:
        """Queue a room table's move of ``bankroll`` chips (negative: to the table), made
        once per ``key`` (``at_table``: what it changes of the chips at tables); the caller
        has already changed :attr:`bankroll`. It is written in order with the player's other
        moves, so the database's bankroll never runs ahead of or behind the one the server
        decides with."""
        return self._put(_Move("room", bankroll, at_table, None,
                               asyncio.get_running_loop().create_future(), key))

    def reset(self, starting: int) -> asyncio.Future[None]:
        """Back to the starting bankroll (only off a table), after every move before it."""
        self.bankroll = starting
        return self._put(_Move("reset", 0, 0, None, asyncio.get_running_loop().create_future()))

    def _put(self, m: _Move) -> asyncio.Future[None]:
        self.version += 1
        self._queue.append(m)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())
        return m.done

    async def _write(self) -> None:
        while self._queue:
            m = self._queue[0]
            try:
                if m.kind == "reset":
                    await asyncio.to_thread(self.storage.reset_bankroll, self.player_id)
                elif m.key:
                    made = await asyncio.to_thread(self.storage.move_once, m.key,
                                                   self.player_id, m.bankroll, m.at_table)
                    if made is None:  # a bug: memory allowed what the books refuse
                        raise RuntimeError(f"the database refused the room move {m.key} of"
                                           f" {m.bankroll:+} for {self.player_id}")
                else:
                    row = await asyncio.to_thread(self.storage.move, self.player_id, m.kind,
                                                  m.bankroll, m.at_table, m.hand)
                    if row is None:  # a bug: the books would not add up; say so loudly
                        raise RuntimeError(f"the database refused {m.kind} {m.bankroll:+} /"
                                           f" {m.at_table:+} for {self.player_id}")
            except Exception as exc:
                log.exception("could not store a %s for player %s", m.kind, self.player_id)
                if not m.done.done():
                    m.done.set_exception(exc)
            else:
                if not m.done.done():
                    m.done.set_result(None)
            finally:
                self._queue.pop(0)

    @property
    def pending(self) -> int:
        return len(self._queue)

    async def flush(self) -> None:
        """Wait until every queued move is stored (the server is stopping)."""
        writer = self._writer
        if writer is not None:
            with contextlib.suppress(Exception):
                await writer


BOT_PREFIX = "bot:"  # a bot's player id starts with it


def is_bot(player: str) -> bool:
    return player.startswith(BOT_PREFIX)


def seat_chips(room: Here | None, player: str, key: str) -> bool:
    """Whether the room move ``key`` brings chips to a person's seat at a cash table, or
    takes them back: a record of the table's (``{table}:{seq}``) that is no tournament's.
    Those chips count in the person's ``at_table`` (:meth:`Storage.move_once`), as each
    hand's result does (:meth:`Storage.save_hands`); a bot's, a tournament's buy-ins and
    prizes do not."""
    table_id, _, seq = key.rpartition(":")
    if is_bot(player) or not seq.isdigit() or not table_id or ":" in table_id or room is None:
        return False
    running = room.tables.get(table_id)
    if running is not None:
        return not running.table.config.tournament
    try:  # a table being restored: its settings are in its log
        return not room.log.config(table_id).tournament
    except RoomRefused:
        return False
