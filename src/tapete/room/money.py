"""Where a table's chips come from and go back to: a player's bankroll.

A table takes a buy-in (or chips added) from the bankroll and gives the chips back when the
player leaves, or when chips added during a hand find no room under the table maximum. Every
move carries a key unique to the table's log record that caused it (``"<table id>:<seq>"``),
and a bankroll must apply a key once only: :func:`tapete.room.table.restore` asks again for
every move its log records after the snapshot it starts from, so a move the crash interrupted
is made and one already made is not made twice. The server's ledger (``server/rooms.py``'s
``RoomBankroll``, through ``server/money.py``'s ``Purse``) plugs in behind this protocol.
"""

from __future__ import annotations

from typing import Protocol

from tapete.core.catalog import t
from tapete.room.errors import Refused


class Bankroll(Protocol):
    def balance(self, player: str) -> int:
        """The chips ``player`` holds off the tables."""
        ...

    def take(self, player: str, amount: int, key: str) -> bool:
        """Move ``amount`` chips from ``player``'s bankroll to the table; False (nothing
        moved) when the bankroll holds fewer. A key already applied returns True and moves
        nothing."""
        ...

    def give(self, player: str, amount: int, key: str) -> None:
        """Move ``amount`` chips from the table back to ``player``'s bankroll, once per key."""
        ...

    def settled(self, table_id: str) -> bool:
        """Whether every move asked for with a key of this table (``"<table id>:..."``) is
        stored where a crash cannot take it back. A bankroll that stores a move before it
        answers is always settled; one that writes moves behind (the server's) is not while
        it holds one. The table keeps a snapshot only when settled: a restore from a snapshot
        asks for no move made before it."""
        ...


class ChipAccount:
    """A tournament's chip account: each entrant's tournament chips off the tables (a
    :class:`Bankroll` for the tournament's tables). The tournament issues each entrant's
    starting stack into it (:meth:`issue`); the tables take chips from it and give them
    back, each keyed move made once.

    It lives in memory and is derived again after a restart (:meth:`settle`): the
    tournament's tables are restored against it while it is ``restoring`` (a take is never
    refused then: a table's replay may take a player's chips before the table they left gives
    them back), then each entrant's chips off the tables are set from the director's
    stacks, and the books must hold: chips off the tables and on them are the chips issued."""

    def __init__(self) -> None:
        self.chips: dict[str, int] = {}
        self.issued = 0
        self._keys: set[str] = set()
        self.restoring = False

    def settle(self, chips: dict[str, int], issued: int, on_tables: int) -> None:
        """After a restore: ``chips``, each entrant's chips off the tables; ``issued``, every
        chip issued; ``on_tables``, the chips the restored tables hold. Raises BooksError
        unless they add up."""
        from tapete.core.errors import BooksError

        if any(v < 0 for v in chips.values()) or sum(chips.values()) + on_tables != issued:
            raise BooksError(f"tournament chips: {sum(chips.values())} off the tables and"
                             f" {on_tables} on them, {issued} issued")
        self.chips = {p: v for p, v in chips.items() if v}
        self.issued = issued
        self.restoring = False

    def issue(self, player: str, amount: int) -> None:
        if type(amount) is not int or amount <= 0:
            raise Refused(t("add a whole, positive number of chips"))
        self.chips[player] = self.chips.get(player, 0) + amount
        self.issued += amount

    def balance(self, player: str) -> int:
        return self.chips.get(player, 0)

    def take(self, player: str, amount: int, key: str) -> bool:
        if key in self._keys:
            return True
        if self.balance(player) < amount and not self.restoring:
            return False
        self._keys.add(key)
        self.chips[player] = self.balance(player) - amount
        return True

    def give(self, player: str, amount: int, key: str) -> None:
        if key in self._keys:
            return
        self._keys.add(key)
        self.chips[player] = self.balance(player) + amount

    def settled(self, table_id: str) -> bool:
        return True

    def off_tables(self) -> int:
        return sum(self.chips.values())
