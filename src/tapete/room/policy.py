"""What a kind of table decides that its records do not: a :class:`TablePolicy`.

A table's records say what happened; its policy says what the table does next where the
records leave a choice, and the table asks it each time (its owner's task, never anyone
else): whether to deal the next hand once two players are ready, when, how long its bots
think before they play, which deck the next hand is dealt from, and whom to tell that a
tournament's hand ended. Nothing of it is stored: a restore builds the table with the same
policy again. One per kind of table:

- :class:`TablePolicy`: a room's table (and every test's): fixed pauses, deals whenever it
  can unless the node it runs on holds it back (several nodes: a table being handed over,
  or a node draining, deals no new hand);
- :class:`PracticePolicy`: a person's practice table (and a practice sit-and-go's): it
  deals while the person plays, at their page's pace (the bots think longer while the person
  watches, the next hand waits for the last one's result to be shown), and waits for their
  page (:class:`PracticeGame`) after a restart;
- :class:`TournamentPolicy`: a tournament's table: its coordinator is told of each hand's
  end.

Whatever the server learns that changes an answer (a page opened, a result shown), it keeps
on its side and pokes the table's owner: no one outside ``room/`` assigns a table's fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from tapete.core.cards import Deck
from tapete.room.part import Table as RoomTable  # what a policy reads of its table


class TablePolicy:
    """A table's choices: ``think_ms`` (an agent waits this long before it plays: people
    watch), ``pause_ms`` (between a hand's end and the next deal: its result shown), ``deck``
    (each hand's deck: fresh and shuffled unless a test or a seeded server gives its own),
    ``table_deck``: the same, given the table: a seeded server's decks follow its hands),
    ``deals`` (False: the table deals no hand by itself, a test deals with ``start_hand``)
    and ``held_back`` (the node's say: True for a table that must deal no new hand now)."""

    kind = "room"

    def __init__(self, *, think_ms: int = 0, pause_ms: int = 0,
                 deck: Callable[[], Deck] | None = None,
                 table_deck: Callable[[RoomTable], Deck] | None = None, deals: bool = True,
                 held_back: Callable[[str], bool] | None = None) -> None:
        self.think = think_ms
        self.pause = pause_ms
        self.new_deck: Callable[[], Deck] = deck if deck is not None else Deck
        self.table_deck = table_deck
        self.dealing = deals
        self.held_back = held_back

    def deals(self, table: RoomTable) -> bool:
        """Whether the table deals its next hand once two players are ready."""
        return self.dealing and (self.held_back is None or not self.held_back(table.table_id))

    def deal_at(self, table: RoomTable) -> int:
        """When (the table's clock) the next hand may be dealt: the pause after the last."""
        return table.ended_at + self.pause

    def think_ms(self, table: RoomTable) -> int:
        return self.think

    def deck(self, table: RoomTable) -> Deck:
        return self.new_deck() if self.table_deck is None else self.table_deck(table)

    def held(self, table: RoomTable) -> bool:
        """Whether the timers wait (no time-out, no agent's move, no deal) until released:
        when released, the player to act starts afresh, with the disconnect grace."""
        return False

    def hand_ended(self, table: RoomTable) -> None:
        """A tournament's table's hand ended (stored; never while a restore replays)."""


class TournamentPolicy(TablePolicy):
    """A tournament's table: its coordinator (``coordinate``) is told of each hand's end;
    it calls the next hand itself (:meth:`RoomTable.tournament_deal`)."""

    kind = "tournament"

    def __init__(self, coordinate: Callable[[Any], None], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.coordinate = coordinate

    def hand_ended(self, table: RoomTable) -> None:
        self.coordinate(table)


class PracticeGame(Protocol):
    """The person's side of a practice table (the server's view of it, once their page is
    there): what it says of the next hand."""

    def deals(self) -> bool:
        """Whether the next hand may be dealt (the person plays, their page is open, the
        last hand's result was shown)."""

    def deal_at(self) -> int | None:
        """When the next hand may be dealt (the table's clock), or None: the policy's pause
        after the hand's end."""

    def think_ms(self) -> int | None:
        """How long the bots think now (longer while the person only watches), or None."""

    def held(self) -> bool:
        """Whether the table waits for the person's page (a table a restart restored)."""

    def hand_ended(self, table: Any) -> None:
        """A sit-and-go's hand ended (``table``: the RoomTable): its coordinator's turn."""


class PracticePolicy(TablePolicy):
    """A person's practice table: until the person's page attaches (:meth:`attach`) the
    table deals nothing, and one a restart restored (``restored``) with the person seated
    holds its timers too: nothing moves their money before their page is back; then the page
    decides (:class:`PracticeGame`), the node's say on top."""

    kind = "practice"

    def __init__(self, *, restored: bool = False, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.restored = restored
        self.game: PracticeGame | None = None

    def attach(self, game: PracticeGame) -> None:
        self.game = game

    def deals(self, table: RoomTable) -> bool:
        return self.game is not None and self.game.deals() and super().deals(table)

    def deal_at(self, table: RoomTable) -> int:
        at = self.game.deal_at() if self.game is not None else None
        return super().deal_at(table) if at is None else at

    def think_ms(self, table: RoomTable) -> int:
        ms = self.game.think_ms() if self.game is not None else None
        return self.think if ms is None else ms

    def held(self, table: RoomTable) -> bool:
        if self.game is not None:
            return self.game.held()
        # a tournament's waits for its coordinator too (the sit-and-go's, with the page)
        return self.restored and (bool(table.config.tournament) or any(
            p not in table.agents for p in table.players.values()))

    def hand_ended(self, table: RoomTable) -> None:
        if self.game is not None:
            self.game.hand_ended(table)
