"""The live tournament director: each table plays at its own pace.

Where :class:`~tapete.tournament.director.Director` plays every table in lockstep rounds,
:class:`LiveTournament` is told about one table's hand at a time (:meth:`LiveTournament.hand_over`,
between two hands of that table) and answers with :class:`Orders`: who busted and their
places, who moves where, which tables close, whether the table waits, which tables deal now
and at what level, a deal, the end. It owns no table: the caller (the server's coordinator, a
simulation) applies the orders to its tables and reports each hand's end. Pure and
deterministic: the seat draws come from the seeded ``random.Random``, the time (for levels by
minutes) is passed in as seconds of play, nothing is read or written.

The rulings are :mod:`tapete.tournament.rulings` (the same functions the lockstep director
uses), applied as tables come free (docs/rules.md, "Tournaments"):

* a **move** (balancing or breaking) is made only from a table that is between hands; the
  table it goes to may be in a hand (the player is dealt in from its next one);
* **balancing**: the player due the big blind next at the fullest table between hands moves
  to the worst seat of the shortest table, when they differ by more than one player; when the
  fullest tables are all in a hand, the move waits for one of them to finish it;
* **breaking**: when the players left fit in one table less, the highest-numbered table breaks
  as soon as it is between hands, its players drawn into the seats that keep the rest even;
* **hand-for-hand** on the bubble: every table waits until all are between hands, then all
  deal one hand; knock-outs in those hands are simultaneous (the larger starting stack
  finishes higher, equal stacks tie), and the tables wait again until all have finished;
* **levels**: a table's next hand plays the level of its own hand count (levels by hands) or
  of the seconds of play the caller gives (levels by minutes);
* **deals**: when the players left are ``deal_players`` or fewer and all in the money, the deal
  is offered once per count; everyone must accept (``accept``; bots by
  :func:`~tapete.tournament.deals.bot_accepts`).

Freezeouts only: rules with late registration, re-entries, rebuys or add-ons are refused.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from tapete.core.catalog import t
from tapete.tournament import deals, rulings
from tapete.tournament.model import TournamentError, TournamentRules

#: asked whether a player accepts a deal: (player id, the offer, the player's ICM equity)
DealAnswer = Callable[[str, int, Fraction], bool]


def bot_answer(player: str, offer: int, equity: Fraction) -> bool:
    return deals.bot_accepts(offer, equity)


@dataclass(slots=True)
class LiveSeat:
    player: str
    chips: int
    sitting_out: bool = False


@dataclass(slots=True)
class LiveTable:
    """The director's copy of one table: who sits where with what, the last big blind's
    seat, the hands dealt there, and whether it is in a hand now."""

    number: int
    seats: list[LiveSeat | None]
    big_blind_seat: int | None = None
    hands: int = 0
    busy: bool = False

    def players(self) -> list[str]:
        return [s.player for s in self.seats if s is not None]

    def size(self) -> int:
        return sum(s is not None for s in self.seats)

    def free(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]


@dataclass(slots=True)
class Entrant:
    player: str
    name: str
    bot: bool
    table: int | None = None
    seat: int | None = None
    place: int = 0  # 0 while in
    tied: int = 1
    prize: int = 0
    moves: int = 0


@dataclass(frozen=True, slots=True)
class Seating:
    table: int
    seat: int
    player: str
    chips: int


@dataclass(frozen=True, slots=True)
class LiveMove:
    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    chips: int
    dealt_in: bool
    reason: str  # "balance" or "break"


@dataclass(frozen=True, slots=True)
class Bust:
    player: str
    name: str
    place: int
    tied: int
    table: int


@dataclass(frozen=True, slots=True)
class Result:
    place: int
    player: str
    name: str
    prize: int


@dataclass(slots=True)
class Orders:
    """What the caller must do after a table's hand, in this order: unseat ``busted`` (no chips
    left) from ``table``, make the ``moves`` (unseat, then seat with ``chips`` and
    ``dealt_in``), close the ``closed`` tables (empty by then), deal the next hand at each table
    of ``deal_now`` at its level (``levels``: the level index, from 0). ``wait``: ``table``
    deals nothing now (it is told later, in the ``deal_now`` of another table's orders)."""

    table: int
    busted: list[str] = field(default_factory=list)
    places: list[Bust] = field(default_factory=list)
    moves: list[LiveMove] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)
    wait: bool = False
    deal_now: list[int] = field(default_factory=list)
    levels: dict[int, int] = field(default_factory=dict)
    hand_for_hand: bool = False
    deal: dict[str, int] | None = None
    finished: bool = False
    results: list[Result] = field(default_factory=list)


class LiveTournament:
    """One tournament whose tables play at their own pace. ``seats_per_table`` defaults to the
    rules' seats; ``accept`` answers deal offers for every player (bots' answers by default)."""

    def __init__(self, rules: TournamentRules, *, seed: int = 0,
                 seats_per_table: int | None = None, accept: DealAnswer | None = None) -> None:
        if (rules.late_levels or rules.reentries or rules.rebuy_levels or rules.rebuys
                or rules.add_on_chips):
            raise TournamentError(t("a live tournament is a freezeout: no late entries,"
                                    " re-entries, rebuys or add-ons"))
        self.rules = rules
        self.seats = seats_per_table or rules.seats
        if not 2 <= self.seats <= 10:
            raise TournamentError(t("a table has 2 to 10 seats"))
        self.rng = random.Random(seed)
        self.accept = accept or bot_answer
        self.entrants: dict[str, Entrant] = {}
        self.tables: dict[int, LiveTable] = {}
        self.started = False
        self.finished: list[Entrant] = []  # in order of elimination, first out first
        self.deal: dict[str, int] | None = None
        self.deals_offered: set[int] = set()
        self.hand_for_hand = False
        self._round: set[int] = set()  # tables still in this hand-for-hand hand
        self._pending: list[tuple[str, int, int]] = []  # (player, starting stack, table)
        self.moves: list[LiveMove] = []

    # ------------------------------------------------------------------ registration
    def register(self, player: str, name: str, bot: bool = False) -> None:
        if self.started:
            raise TournamentError(t("registration is closed"))
        if player in self.entrants or any(e.name == name for e in self.entrants.values()):
            raise TournamentError(t("every player needs a name of their own"))
        self.entrants[player] = Entrant(player, name, bot)

    def unregister(self, player: str) -> None:
        if self.started:
            raise TournamentError(t("registration is closed"))
        if self.entrants.pop(player, None) is None:
            raise TournamentError(t("not registered"))

    def start(self) -> list[Seating]:
        """The seat draw; every table with two players or more deals its first hand
        (:meth:`playing`)."""
        if self.started:
            raise TournamentError(t("the tournament has started"))
        if len(self.entrants) < 2:
            raise TournamentError(t("a tournament needs two players or more"))
        self.started = True
        count, cards = rulings.seat_draw(len(self.entrants), self.seats, self.rng)
        for k in range(1, count + 1):
            self.tables[k] = LiveTable(k, [None] * self.seats)
        out: list[Seating] = []
        for e, (k, seat) in zip(self.entrants.values(), cards, strict=True):
            self._place_at(e.player, k, seat, self.rules.starting_stack)
            out.append(Seating(k, seat, e.player, self.rules.starting_stack))
        for tb in self.tables.values():
            tb.busy = tb.size() >= 2
        return sorted(out, key=lambda s: (s.table, s.seat))

    # ------------------------------------------------------------------ questions
    @property
    def prize_pool(self) -> int:
        return len(self.entrants) * self.rules.buy_in

    def prizes(self) -> list[int]:
        """The prize of each place, first place first, one per entrant (0 past the paid)."""
        return rulings.prize_list(self.prize_pool, len(self.entrants), len(self.entrants),
                                  self.rules.payouts)

    def paid_places(self) -> int:
        return sum(1 for x in self.prizes() if x > 0)

    def left(self) -> list[Entrant]:
        return [e for e in self.entrants.values() if not e.place and self.started]

    @property
    def over(self) -> bool:
        return self.started and (self.deal is not None or len(self.left()) <= 1)

    def stacks(self) -> dict[str, int]:
        return {s.player: s.chips for tb in self.tables.values() for s in tb.seats
                if s is not None}

    def chips_in_play(self) -> int:
        return sum(self.stacks().values())

    def table_sizes(self) -> dict[int, int]:
        return {k: tb.size() for k, tb in self.tables.items()}

    def playing(self) -> list[int]:
        """The tables in a hand now."""
        return sorted(k for k, tb in self.tables.items() if tb.busy)

    def level_for(self, elapsed_s: int, hands_played: int) -> int:
        """The level (from 0) of a hand dealt after ``hands_played`` hands at its table
        (levels by hands) or ``elapsed_s`` seconds of play (levels by minutes)."""
        sched = self.rules.schedule
        return sched.index_at(hands_played if sched.by == "hands" else elapsed_s)

    def next_level(self, table: int, elapsed_s: int = 0) -> int:
        """The level of ``table``'s next hand."""
        return self.level_for(elapsed_s, self.tables[table].hands)

    def results(self) -> list[Result]:
        return sorted((Result(e.place, e.player, e.name, e.prize)
                       for e in self.entrants.values() if e.place),
                      key=lambda r: (r.place, r.name))

    def dealt(self, table: int, big_blind_seat: int | None) -> None:
        """The caller dealt ``table``'s hand with its big blind at ``big_blind_seat``: the worst
        seat of a player moved there meanwhile is counted from it. Optional after the first
        hand (the director works it out by the dead button), needed for the first."""
        tb = self.tables.get(table)
        if tb is None or not tb.busy:
            raise TournamentError(t("table {table} is not playing a hand", table=str(table)))
        tb.big_blind_seat = big_blind_seat

    def pause(self, table: int) -> None:
        """The caller did not deal the hand ``table`` was told to deal (a deal is being
        discussed, a break): the table is between hands again, until :meth:`resume`."""
        tb = self.tables.get(table)
        if tb is None or not tb.busy or table in self._round:
            raise TournamentError(t("table {table} is not playing a hand", table=str(table)))
        tb.busy = False

    def resume(self, elapsed_s: int = 0) -> Orders:
        """After a pause: the orders for the tables between hands (``table`` 0), as after a
        hand."""
        if not self.started or self.over:
            raise TournamentError(t("the tournament is over"))
        orders = Orders(0)
        self._after(orders, elapsed_s)
        return orders

    # ------------------------------------------------------------------ a hand's end
    def hand_over(self, table: int, stacks: Mapping[str, int], big_blind_seat: int | None,
                  elapsed_s: int = 0) -> Orders:
        """Table ``table`` finished a hand: ``stacks``, every player seated there and their
        chips now; ``big_blind_seat``, the seat that posted its big blind. Chips must be
        conserved (a tournament table takes no rake)."""
        tb = self.tables.get(table)
        if tb is None or not tb.busy:
            raise TournamentError(t("table {table} is not playing a hand", table=str(table)))
        if sorted(stacks) != sorted(tb.players()):
            raise TournamentError(t("the stacks reported are not the players at the table"))
        before = {s.player: s.chips for s in tb.seats if s is not None}
        if sum(stacks.values()) != sum(before.values()) or any(v < 0 for v in stacks.values()):
            raise TournamentError(t("the chips at table {table} do not add up",
                                    table=str(table)))
        tb.busy = False
        tb.hands += 1
        tb.big_blind_seat = big_blind_seat
        orders = Orders(table)
        group: list[tuple[str, int, int]] = []
        for i, s in enumerate(tb.seats):
            if s is None:
                continue
            s.chips = stacks[s.player]
            if s.chips == 0:
                tb.seats[i] = None
                e = self.entrants[s.player]
                e.table = e.seat = None
                orders.busted.append(s.player)
                group.append((s.player, before[s.player], table))
        if table in self._round:  # a hand-for-hand hand: wait for the others
            self._round.discard(table)
            self._pending += group
            if self._round:
                orders.wait = True
                orders.hand_for_hand = True
                return orders
            group, self._pending = self._pending, []
        if group:
            self._knock_out(group, orders)
        self._after(orders, elapsed_s)
        return orders

    def _knock_out(self, group: list[tuple[str, int, int]], orders: Orders) -> None:
        where = {p: k for p, _, k in group}
        out = rulings.places([(p, st) for p, st, _ in group], len(self.left()))
        for player, place, tied in out:
            e = self.entrants[player]
            e.place, e.tied = place, tied
            orders.places.append(Bust(player, e.name, place, tied, where[player]))
        for player, _, _ in sorted(out, key=lambda x: -x[1]):
            self.finished.append(self.entrants[player])

    def _after(self, orders: Orders, elapsed_s: int) -> None:
        if not self.over:
            self._offer_deal(orders)
        if self.over:
            self._finish(orders)
            return
        self._break(orders)
        self._balance(orders)
        paid = self.paid_places()
        self.hand_for_hand = rulings.hand_for_hand(len(self.tables), False, paid,
                                                   len(self.left()))
        orders.hand_for_hand = self.hand_for_hand
        idle = [k for k, tb in sorted(self.tables.items()) if not tb.busy]
        if self.hand_for_hand:
            if any(tb.busy for tb in self.tables.values()):
                go: list[int] = []
            else:  # every table between hands: one hand each, together
                go = [k for k in idle if self.tables[k].size() >= 2]
                self._round = set(go)
        else:
            go = [k for k in idle if self.tables[k].size() >= 2]
        for k in go:
            tb = self.tables[k]
            tb.busy = True
            orders.levels[k] = self.next_level(k, elapsed_s)
            tb.big_blind_seat = rulings.next_big_blind(tb)  # the caller may correct it
        orders.deal_now = go
        orders.wait = orders.table not in go

    def _offer_deal(self, orders: Orders) -> None:
        left = self.left()
        n = len(left)
        prizes = self.prizes()[:n]
        if not rulings.deal_due(self.rules.deal_players, n, self.deals_offered, False,
                                prizes):
            return
        if any(self.tables[e.table].busy for e in left if e.table is not None):
            return  # offered when every player left is between hands
        self.deals_offered.add(n)
        amounts = self.deal_offer(self.rules.deal)
        if all(self.accept(p, a, eq) for p, a, eq in amounts):
            self.take_deal({p: a for p, a, _ in amounts})
            orders.deal = dict(self.deal or {})

    def deal_offer(self, kind: str) -> list[tuple[str, int, Fraction]]:
        """The deal of ``kind`` ("icm" or "chip") for the players left: (player, amount,
        ICM equity), the amounts adding up to the prizes of the places left."""
        left = self.left()
        if len(left) < 2:
            raise TournamentError(t("the tournament is over"))
        stacks = self.stacks()
        players = [e.player for e in left]
        chips = [stacks[p] for p in players]
        prizes = self.prizes()[:len(left)]
        amounts = rulings.deal_amounts(kind, chips, prizes)
        equity = deals.icm_equity(chips, prizes)
        return list(zip(players, amounts, equity, strict=True))

    def take_deal(self, amounts: Mapping[str, int]) -> Orders:
        """End the tournament on a deal every player left agreed to (between hands)."""
        left = {e.player for e in self.left()}
        if set(amounts) != left or sum(amounts.values()) != sum(self.prizes()[:len(left)]):
            raise TournamentError(t("a deal shares the prizes left among the players left"))
        if any(self.tables[k].busy for k in self.tables
               if set(self.tables[k].players()) & left):
            raise TournamentError(t("a deal is made between hands"))
        self.deal = dict(amounts)
        orders = Orders(0, deal=dict(amounts))
        self._finish(orders)
        return orders

    def _finish(self, orders: Orders) -> None:
        left = self.left()
        stacks = self.stacks()
        if self.deal is not None:
            order = sorted(left, key=lambda e: -stacks.get(e.player, 0))
            for i, e in enumerate(order):
                e.place = i + 1
            self.finished += reversed(order)
        elif left:
            left[0].place = 1
            self.finished.append(left[0])
        won = rulings.awards([(e.player, e.place) for e in self.finished], self.prizes(),
                             self.deal)
        for e in self.entrants.values():
            e.prize = won.get(e.player, 0)
        for tb in self.tables.values():
            tb.busy = False
        orders.finished = True
        orders.wait = True
        orders.results = self.results()

    # ------------------------------------------------------------------ moves
    def _place_at(self, player: str, table: int, seat: int, chips: int) -> None:
        self.tables[table].seats[seat] = LiveSeat(player, chips)
        e = self.entrants[player]
        e.table, e.seat = table, seat

    def _move(self, orders: Orders, src: int, seat: int, dst: int, to: int, reason: str
              ) -> None:
        s = self.tables[src].seats[seat]
        assert s is not None and not self.tables[src].busy
        self.tables[src].seats[seat] = None
        self._place_at(s.player, dst, to, s.chips)
        self.entrants[s.player].moves += 1
        m = LiveMove(s.player, src, seat, dst, to, s.chips, True, reason)
        orders.moves.append(m)
        self.moves.append(m)

    def _break(self, orders: Orders) -> None:
        while rulings.break_due(len(self.tables), len(self.left()), self.seats):
            number = rulings.break_order(list(self.tables))[0]
            broken = self.tables[number]
            if broken.busy:
                return  # it breaks when its hand is over
            movers = [i for i, s in enumerate(broken.seats) if s is not None]
            rest = {k: tb for k, tb in self.tables.items() if k != number}
            cards = rulings.break_cards({k: tb.size() for k, tb in rest.items()},
                                        {k: tb.free() for k, tb in rest.items()},
                                        len(movers), self.rng)
            for i, (k, seat) in zip(movers, cards, strict=True):
                self._move(orders, number, i, k, seat, "break")
            del self.tables[number]
            orders.closed.append(number)

    def _balance(self, orders: Orders) -> None:
        while True:
            movable = {k for k, tb in self.tables.items() if not tb.busy}
            pair = rulings.balance_pair(self.table_sizes(), movable)
            if pair is None:
                return
            full, short = pair
            src = self.tables[full]
            seat = rulings.next_big_blind(src)
            if seat is None:
                seat = self.rng.choice([i for i, s in enumerate(src.seats) if s is not None])
            to = rulings.worst_seat(self.tables[short], self.rng)
            self._move(orders, full, seat, short, to, "balance")
