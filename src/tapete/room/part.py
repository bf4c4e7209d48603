"""What a table's parts (host, votes, chat, straddles, tournament seating) ask of the table.

:class:`~tapete.room.table.RoomTable` keeps the seats, the hand, the turn, the clock and the
money, and runs every command through one batch (``_run``: built, stored, then published).
Each feature is a small part with its own state, its own commands' steps and its own piece of
the table's snapshot: :mod:`~tapete.room.host`, :mod:`~tapete.room.votes`,
:mod:`~tapete.room.chat`, :mod:`~tapete.room.straddles`, :mod:`~tapete.room.seating`. A part
reaches the table through :class:`Table`, the few things of it a part reads or calls, so no
part imports the table's module.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.fair import FairDeal
from tapete.core.hand import Hand
from tapete.core.rules import Rules
from tapete.core.setup import HandSetup
from tapete.core.table import Table as EngineTable
from tapete.room.clock import Clock
from tapete.room.log import Record, TableConfig
from tapete.room.money import Bankroll

Batch = list[tuple[str, dict[str, Any]]]
PRE, POST = "pre", "post"  # the time banks: preflop's, postflop's
Step = Callable[[dict[str, Any], Batch], None]
MOST_CHIPS = 10**12  # the largest stack a host or a tournament may set

Agent = Callable[[HandSetup, list[ev.Event], int], Action]
"""A player the table plays for (a bot seat): given the hand's public setup, the events its
hand seat may see (the observer's ``tapete.core.view.events_seen``) and that hand seat, the
action it takes. A bot wraps
itself as ``lambda setup, events, p: bot.decide(SeatView.from_events(setup, events, p))``."""


class Policy(Protocol):
    """What the table asks its kind's policy (room/policy.py)."""

    def deals(self, table: Table) -> bool: ...

    def deal_at(self, table: Table) -> int: ...

    def think_ms(self, table: Table) -> int: ...

    def deck(self, table: Table) -> Deck: ...

    def held(self, table: Table) -> bool: ...

    def hand_ended(self, table: Table) -> None: ...


class VoteTimers(Protocol):
    """What the timers ask of the votes (room/votes.py)."""

    def poll(self, now: int, think_ms: int) -> bool: ...

    def due(self, think_ms: int) -> list[int]: ...


class HostRequests(Protocol):
    """What the seats ask of the host (room/host.py)."""

    def asks(self, player: str) -> bool: ...

    def request(self, command: dict[str, Any]) -> None: ...


class Table(Protocol):
    """The table as its parts see it."""

    table_id: str
    config: TableConfig
    clock: Clock
    bankroll: Bankroll
    table: EngineTable
    players: dict[int, str]
    leaving: set[int]
    agents: dict[str, Agent]
    hand_players: list[str]
    seq: int
    hand_no: int
    turn_seq: int | None
    turn_at: int
    grace_turn: int | None
    ended_at: int
    banks: dict[str, dict[str, int]]
    dealt: dict[str, int]
    paid_in: int
    paid_out: int
    raked: int
    rules: Rules
    deal: FairDeal | None
    last_deal: FairDeal | None
    last_hand: Hand | None
    last_players: list[str]
    recent_pots: deque[int]
    new_secret: Callable[[], bytes] | None
    _replaying: list[Record] | None

    @property
    def hand(self) -> Hand | None: ...

    @property
    def policy(self) -> Policy: ...

    @property
    def voting(self) -> VoteTimers: ...

    @property
    def hosting(self) -> HostRequests: ...

    @property
    def requests(self) -> dict[int, dict[str, Any]]: ...

    @property
    def kicked(self) -> set[str]: ...

    @property
    def paused(self) -> str | None: ...

    @property
    def over(self) -> bool: ...

    @property
    def absent(self) -> set[str]: ...

    @property
    def next_level(self) -> dict[str, Any] | None: ...

    def act(self, player: str, seq: int, action: Action) -> None: ...

    def start_hand(self) -> None: ...

    def _act(self, c: dict[str, Any], batch: Batch) -> None: ...

    def check_books(self) -> None: ...

    def seat_of(self, player: str) -> int | None: ...

    def _seated(self, player: str) -> int: ...

    def _name(self, seat: int) -> str: ...

    def _muted(self, player: str) -> bool: ...

    def _now(self) -> int: ...

    def _run(self, step: Step, command: dict[str, Any]) -> list[Record]: ...

    def _next_seq(self, batch: Batch) -> int: ...

    def _note(self, batch: Batch) -> None: ...

    def _hand_events(self, hand: Hand, before: int, batch: Batch,
                     bank: dict[str, Any] | None = None) -> None: ...

    def _sit(self, c: dict[str, Any], batch: Batch, dealt_in: bool | None = None) -> None: ...

    def _add_chips(self, c: dict[str, Any], batch: Batch) -> None: ...

    def _set_stack(self, seat: int, chips: int, batch: Batch) -> None: ...

    def _empty(self, seat: int, batch: Batch) -> None: ...

    def _drop(self, player: str) -> None: ...

    def _clock_stopped(self, ms: int) -> None: ...
