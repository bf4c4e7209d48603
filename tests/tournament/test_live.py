"""The live director, with tables that finish their hands in a random order: a seeded
simulation over core tables played by bots. Chips are conserved after every hand; after every
balancing step the tables differ by at most one player unless the fuller table is in a hand;
a player moved to balance never posts the small blind and is dealt every hand until the big
blind reaches them; every hand replays from its PHH text; the places are 1 to N and the
prizes add up to the pool. And the director's refusals."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete.bots import Bot, make_bot
from tapete.bots.match import play_hand
from tapete.core.cards import Deck
from tapete.core.hand import Hand
from tapete.core.table import Table
from tapete.history.phh import dumps, loads
from tapete.history.replay import replay
from tapete.tournament.live import LiveTournament, Orders
from tapete.tournament.model import TournamentError, TournamentRules, fast_schedule

STYLES = ["tag", "lag", "nit", "station", "maniac"]


@dataclass
class Sim:
    rules: TournamentRules
    live: LiveTournament
    rng: random.Random
    tables: dict[int, Table] = field(default_factory=dict)
    hands: dict[int, Hand] = field(default_factory=dict)  # the hand in play at each table
    bots: dict[str, Bot] = field(default_factory=dict)
    owed: dict[str, int] = field(default_factory=dict)  # moved to balance: name -> table
    problems: list[str] = field(default_factory=list)
    balancing_moves: int = 0
    breaks: int = 0
    big_blinds_reached: int = 0
    hand_for_hand_hands: int = 0
    dealt = 0

    def deal(self, k: int, level: int) -> None:
        tb = self.tables[k]
        tb.rules = self.rules.schedule.rules(level)
        self.dealt += 1
        hand = tb.start_hand(Deck(self.rng.randrange(2**32)), f"{self.dealt}-{k}")
        self.hands[k] = hand
        self.live.dealt(k, tb.big_blind_seat)
        if self.live.hand_for_hand:
            self.hand_for_hand_hands += 1
        # the players moved here to balance: dealt in, posting nothing until the big blind
        for name, table in list(self.owed.items()):
            if table != k:
                continue
            if name not in hand.names:
                # only the button's seat or one between the button and the big blind waits
                # (TDA): the big blind has not passed it
                seat = next(i for i, s in enumerate(tb.seats) if s is not None
                            and s.name == name)
                btn, bb, n = tb.button_seat, tb.big_blind_seat, len(tb.seats)
                assert btn is not None and bb is not None
                if not 0 <= (seat - btn) % n < (bb - btn) % n:
                    self.problems.append(f"{hand.hand_id}: {name}, moved in, not dealt in")
                    del self.owed[name]
                continue
            i = hand.names.index(name)
            posted = hand.blinds[i]
            if posted == tb.rules.big_blind or (posted and posted == hand.starting_stacks[i]
                                                and posted > tb.rules.small_blind):
                self.big_blinds_reached += 1
                del self.owed[name]
            elif posted and hand.n > 2:  # heads-up, the button posts the small blind
                self.problems.append(f"{hand.hand_id}: {name}, moved in, posted {posted}")

    def apply(self, orders: Orders) -> None:
        k = orders.table
        for name in orders.busted:
            tb = self.tables[k]
            tb.leave(next(i for i, s in enumerate(tb.seats) if s is not None and s.name == name))
            self.owed.pop(name, None)
        for m in orders.moves:
            src, dst = self.tables[m.from_table], self.tables[m.to_table]
            assert src.hand is None, "a move from a table in a hand"
            s = src.seats[m.from_seat]
            assert s is not None and s.name == m.player and s.chips == m.chips
            src.leave(m.from_seat)
            dst.sit(m.to_seat, m.player, m.chips, is_bot=True, dealt_in=m.dealt_in)
            self.owed.pop(m.player, None)
            if m.reason == "balance":
                self.balancing_moves += 1
                self.owed[m.player] = m.to_table
        for c in orders.closed:
            assert all(s is None for s in self.tables[c].seats)
            del self.tables[c]
            self.breaks += 1
        for k2 in orders.deal_now:
            self.deal(k2, orders.levels[k2])

    def check(self, orders: Orders) -> None:
        issued = len(self.live.entrants) * self.rules.starting_stack
        on_tables = sum(s.chips for tb in self.tables.values() for s in tb.seats
                        if s is not None)
        if on_tables != issued:  # a hand not yet played holds its seats' stacks
            self.problems.append(f"chips {on_tables} != {issued}")
        sizes = {k: sum(s is not None for s in tb.seats) for k, tb in self.tables.items()}
        if sizes != self.live.table_sizes():
            self.problems.append(f"sizes {sizes} != {self.live.table_sizes()}")
        for a in sizes:
            for b in sizes:
                if sizes[a] - sizes[b] > 1 and a not in self.hands:
                    self.problems.append(f"tables {sizes}, {a} between hands")


def run(players: int, seats: int, seed: int, deal_players: int = 0) -> Sim:
    rules = TournamentRules(fast_schedule(length=5), starting_stack=1500, seats=seats,
                            deal_players=deal_players)
    live = LiveTournament(rules, seed=seed)
    for i in range(players):
        live.register(f"id{i}", f"{STYLES[i % 5]}-{i + 1}", bot=True)
    sim = Sim(rules, live, random.Random(seed))
    sim.bots = {f"id{i}": make_bot(STYLES[i % 5], seed * 1000 + i) for i in range(players)}
    seating = live.start()
    assert len(seating) == players
    for k in live.tables:
        sim.tables[k] = Table(rules.schedule.rules(0), seats=seats, min_buy_in=1)
    for s in seating:
        sim.tables[s.table].sit(s.seat, s.player, s.chips, is_bot=True)
    for k in live.playing():
        sim.deal(k, 0)
    steps = 0
    while sim.hands and steps < 20_000:
        steps += 1
        k = sim.rng.choice(sorted(sim.hands))  # any table may finish first
        hand = sim.hands.pop(k)
        play_hand(hand, [sim.bots[name] for name in hand.names])
        record = loads(dumps(hand, table=str(k), max_seats=seats))
        res = replay(record, decisions=False)
        if res.error is not None or res.partial or res.finishing_stacks != list(
                record.finishing_stacks or []):
            sim.problems.append(f"{hand.hand_id}: replay {res.error}")
        tb = sim.tables[k]
        bb = tb.big_blind_seat
        tb.end_hand()
        stacks = {s.name: s.chips for s in tb.seats if s is not None}
        orders = live.hand_over(k, stacks, bb)
        for c in orders.closed:
            assert c not in sim.hands
        sim.apply(orders)
        if not orders.finished:
            sim.check(orders)
        assert sim.problems == [], sim.problems[:5]
        if orders.finished:
            break
    assert live.over, "the tournament did not end"
    return sim


def check_end(sim: Sim) -> None:
    live = sim.live
    n = len(live.entrants)
    assert sum(e.prize for e in live.entrants.values()) == live.prize_pool == n * 100
    assert all(e.place for e in live.entrants.values())
    places = sorted(e.place for e in live.entrants.values())
    assert places[0] == 1 and places[-1] <= n
    if live.deal is None:
        # ties aside, places are 1..n once each
        assert len(live.finished) == n
        winner = next(e for e in live.entrants.values() if e.place == 1)
        assert winner.prize == max(live.prizes())
        assert live.stacks()[winner.player] == n * sim.rules.starting_stack


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(7, 22), seats=st.sampled_from([6, 9]))
def test_tables_at_their_own_pace(seed: int, players: int, seats: int) -> None:
    sim = run(players, seats, seed)
    check_end(sim)


def test_a_three_table_tournament_breaks_down_to_the_final_table() -> None:
    sim = run(20, 9, 11)
    check_end(sim)
    assert sim.breaks == 2
    assert sim.balancing_moves > 0 and sim.big_blinds_reached > 0


def test_hand_for_hand_on_the_bubble() -> None:
    sim = run(45, 6, 2)  # 6 paid: the bubble (7 left) at two tables
    check_end(sim)
    assert sim.live.paid_places() == 6
    assert sim.hand_for_hand_hands >= 2
    bubble = [e for e in sim.live.entrants.values() if e.place == 7]
    assert bubble and all(e.prize == 0 for e in bubble)


def test_a_deal_at_the_final_table() -> None:
    sim = run(10, 6, 3, deal_players=3)
    check_end(sim)
    assert sim.live.deals_offered


def test_refusals() -> None:
    rules = TournamentRules(fast_schedule(), seats=6)
    live = LiveTournament(rules, seed=1)
    live.register("a", "Ann")
    with pytest.raises(TournamentError) as e:
        live.register("a", "Ann")
    assert e.value.message.es
    with pytest.raises(TournamentError):
        live.start()  # one player
    live.register("b", "Bea")
    live.start()
    with pytest.raises(TournamentError):
        live.register("c", "Cy")
    with pytest.raises(TournamentError):
        live.hand_over(1, {"a": 1, "b": 1}, 0)  # chips that do not add up
    with pytest.raises(TournamentError):
        LiveTournament(TournamentRules(fast_schedule(), rebuys=1, rebuy_chips=10,
                                       rebuy_levels=2))
