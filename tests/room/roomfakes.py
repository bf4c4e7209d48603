"""What the room tests share: a bankroll double, a client that checks every message it gets,
and a driver that plays random legal actions."""

from __future__ import annotations

import random
from typing import Any

from tapete.core import fair
from tapete.core.actions import Action
from tapete.core.betting import Legal
from tapete.core.cards import Deck
from tapete.core.rules import Rules
from tapete.room.clock import ManualClock
from tapete.room.log import EventLog, TableConfig
from tapete.room.table import RoomTable, restore


class Crash(BaseException):
    """The process dies here (not an Exception: nothing in the table may catch it)."""


class FakeBank:
    """A bankroll that applies each key once, as the protocol asks."""

    def __init__(self, players: dict[str, int]) -> None:
        self.balances = dict(players)
        self.keys: set[str] = set()
        self.crash_next = False

    def balance(self, player: str) -> int:
        return self.balances.get(player, 0)

    def _once(self, key: str) -> bool:
        if self.crash_next:
            self.crash_next = False
            raise Crash
        if key in self.keys:
            return False
        self.keys.add(key)
        return True

    def take(self, player: str, amount: int, key: str) -> bool:
        if key in self.keys:
            return True
        if self.balance(player) < amount:
            return False
        if self._once(key):
            self.balances[player] -= amount
        return True

    def give(self, player: str, amount: int, key: str) -> None:
        if self._once(key):
            self.balances[player] = self.balance(player) + amount

    def settled(self, table_id: str) -> bool:
        return True  # every move is made before take and give return

    def total(self) -> int:
        return sum(self.balances.values())


class Client:
    """A subscriber that checks what it receives: gap-free sequence numbers, no hole card of
    another seat before it is shown, no deck and no player id, chips conserved by every hand."""

    def __init__(self, player: str | None) -> None:
        self._player = player
        self.last = 0
        self.turn: int | None = None
        self.turn_seat: int | None = None
        self.you: int | None = None
        self.start_total = 0
        self.messages: list[dict[str, Any]] = []
        self.hands_ended = 0
        self.seen_hole = 0
        self.hole_cards = 2  # each player's, by the rules of the hand started
        self.crash_on_send = False
        self.commitment: str | None = None  # the hand's, as its start record published it
        self.revealed = 0  # hands whose deck and secret were revealed, and matched

    @property
    def player(self) -> str | None:
        return self._player

    def send(self, message: dict[str, Any]) -> None:
        if self.crash_on_send:
            self.crash_on_send = False
            raise Crash
        assert message["seq"] == self.last + 1, (message["seq"], self.last)
        self.last = message["seq"]
        self.messages.append(message)
        kind, data = message["kind"], message["data"]
        assert "player" not in data and "players" not in data
        # the deck only once the hand is over: revealed with the fair deal's secret, both
        # matching the commitment published when the hand began, before its first card
        assert "deck" not in data and "secret" not in data or kind == "end"
        if kind == "start":
            self.commitment = data.get("commitment")
        elif kind == "end" and "deck" in data:
            assert data["commitment"] == self.commitment
            assert fair.commitment(fair.read_deck(data["deck"]),
                                   fair.read_secret(data["secret"])) == self.commitment
            self.revealed += 1
        if kind == "start":
            self.you = data["you"]
            self.start_total = sum(data["setup"]["stacks"])
            self.hole_cards = Rules.from_json(data["setup"]["rules"]).game.hole_cards
        elif kind == "turn":
            self.turn, self.turn_seat = message["seq"], data["seat"]
        elif kind == "event":
            e = data["event"]
            if e["type"] == "HoleDealt":
                if e["player"] == self.you:
                    assert e["cards"] is not None and len(e["cards"]) == self.hole_cards
                    self.seen_hole += 1
                else:
                    assert e["cards"] is None, "another seat's hole cards"
            elif e["type"] == "Ended":
                assert sum(e["stacks"]) == self.start_total, "chips created or lost"
                self.hands_ended += 1


def random_action(legal: Legal, rng: random.Random) -> Action:
    roll = rng.random()
    if legal.min_to is not None and legal.max_to is not None and roll < 0.2:
        to = legal.min_to if rng.random() < 0.6 else rng.randint(legal.min_to, legal.max_to)
        return Action.bet(to) if legal.is_bet else Action.raise_to(to)
    if roll < 0.45 and legal.fold and not legal.check:
        return Action.fold()
    return Action.check_or_call(legal)


PLAYERS = [f"id-{i}" for i in range(6)]
BANKROLL = 100_000


class Room:
    """One table, six seated clients and a spectator, a manual clock and seeded decks; the
    same seeds play the same game, however often the table is thrown away and restored."""

    def __init__(self, seed: int, config: TableConfig | None = None, players: int = 6,
                 timeouts: bool = False) -> None:
        # timeouts: now and then the player to act lets the clock run out, and a player sat
        # out for it comes back between hands
        self.timeouts = timeouts
        self.rng = random.Random(seed)
        self.deck_rng = random.Random(seed + 1)
        self.secret_rng = random.Random(seed + 2)  # the fair deals' secrets
        self.clock = ManualClock(1_000)
        self.log = EventLog()
        self.bank = FakeBank({p: BANKROLL for p in PLAYERS[:players]})
        self.config = config if config is not None else TableConfig()
        # a fixed id, so that two rooms with one seed store the very same records
        table_id = self.log.create_table(self.config, table_id=f"table-{seed}")
        self.table = RoomTable(self.log, table_id, self.config, self.bank, clock=self.clock,
                               deck=self.deck, secret=self.secret)
        self.clients = {p: Client(p) for p in PLAYERS[:players]}
        self.spectator = Client(None)
        for c in [*self.clients.values(), self.spectator]:
            self.table.subscribe(c)
        for i, p in enumerate(PLAYERS[:players]):
            self.table.sit(p, f"Player {i + 1}", 200)
        self.total = self.bank.total() + self.table.table_chips()

    def deck(self) -> Deck:
        return Deck(seed=self.deck_rng.randrange(2**32))

    def secret(self) -> bytes:
        return self.secret_rng.randbytes(32)

    def restart(self) -> None:
        """Throw the table away and rebuild it from a fresh log over the same database; the
        clients come back from the last sequence number they saw."""
        self.log = EventLog(self.log.engine)
        self.table = restore(self.log, self.table.table_id, self.bank, clock=self.clock,
                             deck=self.deck, secret=self.secret)
        for c in [*self.clients.values(), self.spectator]:
            self.table.subscribe(c, after=c.last)

    def conserved(self) -> bool:
        return self.bank.total() + self.table.table_chips() + self.table.raked == self.total

    def step(self) -> None:
        """One command: top up a busted player, start a hand, or act for the player to act
        (by the turn number that client received)."""
        t = self.table
        hand = t.hand
        if hand is None:
            for p in self.clients:
                seat = t.seat_of(p)
                s = t.table.seats[seat] if seat is not None else None
                if s is not None and s.chips + s.pending_chips == 0:
                    t.add_chips(p, 200)
                    return
                if self.timeouts and s is not None and s.sitting_out:  # back, posting or not
                    t.sit_in(p, post=self.rng.random() < 0.5)
                    return
            t.poll()
            return
        if self.timeouts and self.rng.random() < 0.03:  # the player to act lets the clock run out
            deadline = t.deadline()
            assert deadline is not None
            self.clock.advance(deadline - self.clock.now_ms())
        seq = t.seq
        t.poll()  # a timeout, or a player who is leaving checked or folded for at once
        if t.seq != seq or t.hand is None:
            return
        hand = t.hand
        assert hand.actor is not None
        seat = t.table.seat_of(hand.actor)
        player = t.players[seat]
        client = self.clients[player]
        assert client.turn_seat == seat
        assert client.turn is not None
        t.act(player, client.turn, random_action(hand.legal(), self.rng))
