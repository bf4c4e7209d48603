"""The tournament director: seats, levels, knock-outs, breaking and balancing tables.

A pure referee over :class:`~tapete.core.table.Table` objects: no clock, no randomness but
the seeded draw it is given, no I/O. The tables play in **rounds**: every table with two
players or more deals one hand (:meth:`Director.start_round`), the hands are played (by
bots, by people: not the director's business), then :meth:`Director.end_round` applies them:
knock-outs and their places, rebuys and re-entries, a deal when one is due, then the tables
are broken and balanced. The rulings (docs/rules.md, "Tournaments"):

* **Seat draw.** Seats are drawn at random (the seed), the tables filled evenly.
* **Levels.** A round's hands play the level in force when the round starts: levels by hands
  count rounds, levels by minutes the seconds of play the caller gives (breaks excluded).
* **Knock-outs.** Players knocked out in one hand finish in the order of their stacks when it
  started, the larger higher; equal stacks tie and share the prizes of their places (TDA).
  Outside hand-for-hand, the hands of a round end in table order (lower numbers first).
* **Hand-for-hand** on the bubble (one player more than the places paid, more than one
  table): the round's hands are played as one, so knock-outs in it at different tables are
  simultaneous, ordered by starting stack as if at one table (TDA).
* **Breaking.** When the players left fit in one table less, the next table in the breaking
  order (the highest number first) breaks, its players drawn at random into the seats that
  fill the other tables evenly; they are dealt in at once anywhere but between the button and
  the big blind (TDA), and owe no blind.
* **Balancing.** Whenever two tables differ by more than one player, the player due the big
  blind next at the fullest table (the one that breaks sooner on a tie) moves to the worst
  position at the shortest (the one that breaks later on a tie): the empty seat that gets
  the big blind soonest, taking the big blind at once if that seat is next, never the small
  blind's seat (TDA). Moving never skips the big blind: the player is
  dealt in every hand until the big blind reaches them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.hand import Hand
from tapete.core.table import Table
from tapete.tournament import deals, rulings
from tapete.tournament.model import TournamentError, TournamentRules
from tapete.tournament.rulings import next_big_blind as next_big_blind
from tapete.tournament.rulings import worst_seat as worst_seat

#: asked whether a player takes a rebuy, a re-entry or an add-on: (name, "rebuy" | "reentry"
#: | "add-on") -> yes or no
Chooser = Callable[[str, str], bool]
#: asked whether a player accepts a deal: (name, the offer, the player's ICM equity)
DealAnswer = Callable[[str, int, Fraction], bool]


@dataclass(slots=True)
class Player:
    name: str
    style: str = ""
    table: int | None = None
    seat: int | None = None
    entries: int = 1
    rebuys: int = 0
    add_on: bool = False
    place: int = 0  # 0 while in; else the best of the places it took (from 1)
    tied: int = 1  # how many shared its places
    prize: int = 0
    moves: int = 0


@dataclass(frozen=True, slots=True)
class Move:
    name: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str  # "balance" or "break"


@dataclass(frozen=True, slots=True)
class Knockout:
    name: str
    place: int
    tied: int
    table: int
    round: int


@dataclass(slots=True)
class RoundReport:
    round: int
    level: int
    hand_for_hand: bool
    knockouts: list[Knockout] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    broken: list[int] = field(default_factory=list)
    rebuys: list[str] = field(default_factory=list)
    reentries: list[str] = field(default_factory=list)
    deal: dict[str, int] | None = None


def _always(name: str, what: str) -> bool:
    return True


def _bot_answer(name: str, offer: int, equity: Fraction) -> bool:
    return deals.bot_accepts(offer, equity)


class Director:
    """Runs one tournament over its tables. ``names``: the players registered at the start
    (unique), with their bots' styles in ``styles`` (optional). ``seed`` draws the seats."""

    def __init__(self, rules: TournamentRules, names: Sequence[str], *, seed: int = 0,
                 styles: Sequence[str] | None = None, choose: Chooser = _always,
                 accept: DealAnswer | None = None) -> None:
        if len(set(names)) != len(names):
            raise TournamentError(t("every player needs a name of their own"))
        if len(names) < 2:
            raise TournamentError(t("a tournament needs two players or more"))
        self.rules = rules
        self.rng = random.Random(seed)
        self.choose = choose
        self.accept = accept
        self.players: dict[str, Player] = {}
        self.tables: dict[int, Table] = {}
        self.round = 0
        self.level = 0
        self.hand_for_hand = False
        self.entries = 0
        self.purchases = 0  # entries, rebuys and add-ons: each one buy-in into the pool
        self.chips_issued = 0
        self.finished: list[Player] = []  # in order of elimination, first out first
        self.deal: dict[str, int] | None = None
        self.deals_offered: set[int] = set()
        self.moves: list[Move] = []
        self._add_ons_done = False
        self._started_levels: set[int] = set()
        count, cards = rulings.seat_draw(len(names), rules.seats, self.rng)
        for k in range(1, count + 1):
            self.tables[k] = self._new_table()
        for i, (name, (table, seat)) in enumerate(zip(names, cards, strict=True)):
            style = styles[i] if styles is not None else ""
            self.players[name] = Player(name, style)
            self._seat(name, table, seat, dealt_in=False)
            self._buy(self.rules.starting_stack)
            self.entries += 1

    # ------------------------------------------------------------------ state
    def _new_table(self) -> Table:
        return Table(self.rules.schedule.rules(self.level), seats=self.rules.seats,
                     min_buy_in=1)

    def _seat(self, name: str, table: int, seat: int, *, dealt_in: bool = True,
              chips: int | None = None) -> None:
        p = self.players[name]
        stack = self.rules.starting_stack if chips is None else chips
        self.tables[table].sit(seat, name, stack, is_bot=True, style=p.style,
                               dealt_in=dealt_in)
        p.table, p.seat = table, seat

    def _buy(self, chips: int) -> None:
        self.chips_issued += chips
        self.purchases += 1

    @property
    def prize_pool(self) -> int:
        return self.purchases * self.rules.buy_in

    def left(self) -> list[Player]:
        return [p for p in self.players.values() if not p.place]

    def table_sizes(self) -> dict[int, int]:
        return {k: sum(s is not None for s in tb.seats) for k, tb in self.tables.items()}

    def stacks(self) -> dict[str, int]:
        return {s.name: s.chips for tb in self.tables.values() for s in tb.seats
                if s is not None}

    def chips_in_play(self) -> int:
        return sum(self.stacks().values())

    def open(self) -> bool:
        """Entries, rebuys or add-ons may still change the prize pool."""
        r = self.rules
        return (r.registration_open(self.level) or r.rebuy_open(self.level)
                or (r.add_on_chips > 0 and not self._add_ons_done))

    def prizes(self) -> list[int]:
        """The prize of each paid place, from the pool so far."""
        return rulings.prize_list(self.prize_pool, self.entries, len(self.players),
                                  self.rules.payouts)

    def paid_places(self) -> int:
        return sum(1 for x in self.prizes() if x > 0)

    @property
    def over(self) -> bool:
        return self.deal is not None or len(self.left()) <= 1

    def break_order(self) -> list[int]:
        """The tables in the order they break: the highest number first."""
        return rulings.break_order(list(self.tables))

    # ------------------------------------------------------------------ registration
    def register(self, name: str, style: str = "") -> tuple[int, int]:
        """A late entry, while registration is open: a full stack at a seat drawn among
        those that keep the tables even (a new table when every seat is taken)."""
        if not self.rules.registration_open(self.level):
            raise TournamentError(t("registration is closed"))
        if name in self.players:
            raise TournamentError(t("every player needs a name of their own"))
        self.players[name] = Player(name, style)
        self.entries += 1
        self._buy(self.rules.starting_stack)
        return self._draw_seat(name)

    def _draw_seat(self, name: str, chips: int | None = None) -> tuple[int, int]:
        sizes = self.table_sizes()
        smallest = min(sizes.values())
        if smallest >= self.rules.seats:
            number = max(self.tables) + 1
            self.tables[number] = self._new_table()
            sizes[number] = 0
            smallest = 0
        tables = [k for k, n in sizes.items() if n == smallest]
        table = self.rng.choice(tables)
        seat = self.rng.choice([i for i, s in enumerate(self.tables[table].seats) if s is None])
        self._seat(name, table, seat, chips=chips)
        return table, seat

    # ------------------------------------------------------------------ rounds
    def level_for(self, elapsed_seconds: int = 0) -> int:
        sched = self.rules.schedule
        return sched.index_at(self.round if sched.by == "hands" else elapsed_seconds)

    def start_round(self, deck: Callable[[int, int], Deck], elapsed_seconds: int = 0
                    ) -> list[tuple[int, Hand]]:
        """Deal one hand at every table with two players or more, at the level in force
        (``elapsed_seconds`` of play for levels by minutes). ``deck(table, round)`` gives each
        hand its deck. Returns (table, hand) pairs, in table order."""
        if self.over:
            raise TournamentError(t("the tournament is over"))
        self.level = self.level_for(elapsed_seconds)
        if (self.rules.add_on_chips and not self._add_ons_done
                and self.level >= self.rules.rebuy_levels):
            self._add_ons()
        sizes = self.table_sizes()
        paid = self.paid_places()
        self.hand_for_hand = rulings.hand_for_hand(len(self.tables), self.open(), paid,
                                                   len(self.left()))
        rules = self.rules.schedule.rules(self.level)
        out: list[tuple[int, Hand]] = []
        for k in sorted(self.tables):
            tb = self.tables[k]
            if sizes[k] < 2:
                continue
            tb.rules = rules
            out.append((k, tb.start_hand(deck(k, self.round), f"{self.round + 1}-{k}")))
        return out

    def _add_ons(self) -> None:
        self._add_ons_done = True
        for p in self.left():
            if p.table is not None and p.seat is not None and self.choose(p.name, "add-on"):
                self.tables[p.table].add_chips(p.seat, self.rules.add_on_chips)
                p.add_on = True
                self._buy(self.rules.add_on_chips)

    def end_round(self) -> RoundReport:
        """Apply every hand of the round, then knock-outs, a deal, breaking, balancing."""
        report = RoundReport(self.round, self.level, self.hand_for_hand)
        groups: list[list[tuple[str, int, int]]] = []  # (name, stack at the start, table)
        for k in sorted(self.tables):
            tb = self.tables[k]
            hand = tb.hand
            if hand is None:
                continue
            start = {tb.seat_of(i): hand.starting_stacks[i] for i in range(hand.n)}
            tb.end_hand()
            busted: list[tuple[str, int, int]] = []
            for seat, s in enumerate(tb.seats):
                if s is None or s.chips > 0:
                    continue
                if self._rebuy(s.name, seat, tb):
                    report.rebuys.append(s.name)
                    continue
                tb.leave(seat)
                p = self.players[s.name]
                p.table = p.seat = None
                if self._reentry(p):
                    report.reentries.append(p.name)
                    continue
                busted.append((s.name, start[seat], k))
            if busted:
                groups.append(busted)
        if self.hand_for_hand and groups:
            groups = [[x for g in groups for x in g]]
        for g in groups:
            report.knockouts.extend(self._place(g))
        self.round += 1
        if not self.over:
            self._offer_deal(report)
        if not self.over:
            self._break_tables(report)
            self._balance(report)
        else:
            self._finish()
        self.moves.extend(report.moves)
        return report

    def _rebuy(self, name: str, seat: int, tb: Table) -> bool:
        p = self.players[name]
        if not self.rules.rebuy_open(self.level) or p.rebuys >= self.rules.rebuys:
            return False
        if not self.choose(name, "rebuy"):
            return False
        p.rebuys += 1
        tb.add_chips(seat, self.rules.rebuy_chips)
        self._buy(self.rules.rebuy_chips)
        return True

    def _reentry(self, p: Player) -> bool:
        if not self.rules.registration_open(self.level) or p.entries > self.rules.reentries:
            return False
        if not self.choose(p.name, "reentry"):
            return False
        p.entries += 1
        self.entries += 1
        self._buy(self.rules.starting_stack)
        self._draw_seat(p.name)
        return True

    def _place(self, group: list[tuple[str, int, int]]) -> list[Knockout]:
        """Places for players knocked out together: the larger starting stack higher, equal
        stacks tied."""
        stacks = {name: (stack, table) for name, stack, table in group}
        out: list[Knockout] = []
        for name, place, tied in rulings.places([(n, st) for n, st, _ in group],
                                                len(self.left())):
            p = self.players[name]
            p.place, p.tied = place, tied
            out.append(Knockout(name, place, tied, stacks[name][1], self.round))
        for k in sorted(out, key=lambda k: -k.place):
            self.finished.append(self.players[k.name])
        return out

    def _offer_deal(self, report: RoundReport) -> None:
        left = self.left()
        n = len(left)
        r = self.rules
        prizes = self.prizes()[:n]
        if not rulings.deal_due(r.deal_players, n, self.deals_offered, self.open(), prizes):
            return
        self.deals_offered.add(n)
        stacks = self.stacks()
        names = [p.name for p in left]
        chips = [stacks[x] for x in names]
        amounts = rulings.deal_amounts(r.deal, chips, prizes)
        equity = deals.icm_equity(chips, prizes)
        answer = self.accept or _bot_answer
        if all(answer(x, a, e) for x, a, e in zip(names, amounts, equity, strict=True)):
            self.deal = dict(zip(names, amounts, strict=True))
            report.deal = dict(self.deal)

    def _finish(self) -> None:
        """The last places and every prize: ties share their places' prizes; a deal pays
        its amounts, the places by chips."""
        left = self.left()
        stacks = self.stacks()
        if left:
            if self.deal is not None:
                order = sorted(left, key=lambda p: -stacks.get(p.name, 0))
                for i, p in enumerate(order):
                    p.place = i + 1
                for p in reversed(order):
                    self.finished.append(p)
            else:
                left[0].place = 1
                self.finished.append(left[0])
        won = rulings.awards([(p.name, p.place) for p in self.finished], self.prizes(),
                             self.deal)
        for p in self.players.values():
            p.prize = won.get(p.name, 0)

    # ------------------------------------------------------------------ tables
    def _break_tables(self, report: RoundReport) -> None:
        seats = self.rules.seats
        while rulings.break_due(len(self.tables), len(self.left()), seats):
            number = self.break_order()[0]
            broken = self.tables.pop(number)
            report.broken.append(number)
            movers = [(i, s.name, s.chips) for i, s in enumerate(broken.seats) if s is not None]
            sizes = self.table_sizes()
            free = {k: [i for i, s in enumerate(tb.seats) if s is None]
                    for k, tb in self.tables.items()}
            cards = rulings.break_cards(sizes, free, len(movers), self.rng)
            for (old, name, chips), (k, i) in zip(movers, cards, strict=True):
                self._seat(name, k, i, chips=chips)
                self.players[name].moves += 1
                report.moves.append(Move(name, number, old, k, i, "break"))

    def _balance(self, report: RoundReport) -> None:
        while True:
            pair = rulings.balance_pair(self.table_sizes())
            if pair is None:
                return
            full, short = pair
            src = self.tables[full]
            seat = next_big_blind(src)
            if seat is None:
                seat = self.rng.choice([i for i, s in enumerate(src.seats) if s is not None])
            s = src.seats[seat]
            assert s is not None
            src.leave(seat)
            to = worst_seat(self.tables[short], self.rng)
            self._seat(s.name, short, to, chips=s.chips)
            self.players[s.name].moves += 1
            report.moves.append(Move(s.name, full, seat, short, to, "balance"))
