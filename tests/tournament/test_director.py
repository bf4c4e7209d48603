"""A simulated multi-table tournament, checked hand by hand and round by round: every hand
replays legally from its PHH text; chips are conserved across the whole tournament; after
every round's breaking and balancing the tables differ by at most one player; a player moved
to balance never posts the small blind and is dealt every hand until the big blind reaches
them; the blinds follow the schedule; hand-for-hand on the bubble; the payouts add up to the
prize pool. And the director alone: the seat draw, late entries, re-entries, rebuys and
add-ons, simultaneous knock-outs, deals."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tapete.core.hand import Hand
from tapete.history.phh import dumps, loads
from tapete.history.replay import replay
from tapete.tournament.director import Director, RoundReport, next_big_blind
from tapete.tournament.model import Schedule, TournamentRules, fast_schedule
from tapete.tournament.sim import HandInfo, SimResult, simulate

STYLES = ["tag", "lag", "nit", "station", "maniac"]


@dataclass
class Watch:
    rules: TournamentRules
    hands: int = 0
    rounds: int = 0
    balancing_moves: int = 0
    big_blinds_reached: int = 0
    hand_for_hand_rounds: int = 0
    # moved to balance, waiting for their big blind: name -> table
    owed: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def on_hand(self, hand: Hand, info: HandInfo) -> None:
        self.hands += 1
        # the PHH text replays legally to the same stacks
        record = loads(dumps(hand, table=str(info.table), max_seats=self.rules.seats))
        res = replay(record, decisions=False)
        if res.error is not None or res.partial or res.finishing_stacks != list(
                record.finishing_stacks or []):
            self.problems.append(f"{hand.hand_id}: replay {res.error}")
        assert record.extra.get("table") == str(info.table)
        assert sorted(record.seats or range(hand.n)) == sorted(hand.seats)
        # the blinds follow the schedule
        lv = self.rules.schedule.level(self.rules.schedule.index_at(info.round))
        r = hand.rules
        if (r.small_blind, r.big_blind, r.ante) != (lv.small_blind, lv.big_blind, lv.ante):
            self.problems.append(f"{hand.hand_id}: blinds {r} not level {info.level}")
        if max(hand.blinds) != lv.big_blind and hand.n > 2:
            self.problems.append(f"{hand.hand_id}: no big blind of {lv.big_blind}")
        for name, table in list(self.owed.items()):
            if table != info.table:
                continue
            if name not in hand.names:
                self.problems.append(f"{hand.hand_id}: {name}, moved in, was not dealt in")
                del self.owed[name]
                continue
            i = hand.names.index(name)
            posted = hand.blinds[i]
            if posted == r.big_blind or (posted and posted == hand.starting_stacks[i]
                                         and posted > r.small_blind):
                self.big_blinds_reached += 1
                del self.owed[name]
            elif posted:
                self.problems.append(f"{hand.hand_id}: {name}, moved in, posted {posted}")

    def on_round(self, director: Director, report: RoundReport) -> None:
        self.rounds += 1
        if report.hand_for_hand:
            self.hand_for_hand_rounds += 1
        if director.chips_in_play() != director.chips_issued:
            self.problems.append(f"round {report.round}: chips {director.chips_in_play()}"
                                 f" != {director.chips_issued}")
        sizes = director.table_sizes().values()
        if max(sizes) - min(sizes) > 1:
            self.problems.append(f"round {report.round}: tables {sorted(sizes)}")
        if len(director.tables) > 1 and len(director.left()) <= (len(director.tables) - 1) \
                * director.rules.seats:
            self.problems.append(f"round {report.round}: a table should have broken")
        for k in report.knockouts:
            self.owed.pop(k.name, None)
        for m in report.moves:
            self.owed.pop(m.name, None)
            if m.reason == "balance":
                self.balancing_moves += 1
                self.owed[m.name] = m.to_table
                table = director.tables[m.to_table]
                # the worst position: the big blind next, or no empty seat reached sooner
                if next_big_blind(table) != m.to_seat:
                    bb = table.big_blind_seat
                    assert bb is not None
                    n = len(table.seats)
                    sooner = [i for i, s in enumerate(table.seats) if s is None and i != bb
                              and (i - bb - 1) % n < (m.to_seat - bb - 1) % n]
                    assert not sooner, (m, sooner)


def run(players: int, seed: int, **kw: object) -> tuple[SimResult, Watch]:
    rules = TournamentRules(fast_schedule(length=6), starting_stack=3000, **kw)  # type: ignore[arg-type]
    watch = Watch(rules)
    res = simulate(rules, STYLES, players, seed=seed, on_hand=watch.on_hand,
                   on_round=watch.on_round)
    return res, watch


@pytest.mark.parametrize(("players", "seats", "seed"), [(45, 6, 1), (60, 9, 2)])
def test_a_simulated_multi_table_tournament(players: int, seats: int, seed: int) -> None:
    res, watch = run(players, seed, seats=seats)
    d = res.director
    assert watch.problems == []
    assert d.over and len(d.left()) == 0 or d.deal is not None
    assert len(d.tables) == 1
    assert watch.balancing_moves > 0 and watch.big_blinds_reached > 0
    # every place once, 1 to N, and the prizes add up to the pool
    places = sorted(p.place for p in d.players.values())
    assert places[0] == 1 and all(x > 0 for x in places)
    assert sum(p.prize for p in d.players.values()) == d.prize_pool == players * 100
    winner = next(p for p in d.players.values() if p.place == 1)
    assert winner.prize == max(d.prizes())
    assert d.chips_issued == players * 3000


def test_hand_for_hand_on_the_bubble() -> None:
    res, watch = run(45, 1, seats=6)
    d = res.director
    paid = d.paid_places()
    assert paid == 6
    bubble = [h for h in res.hands if h.hand_for_hand]
    assert bubble  # seven players left at two tables
    assert watch.hand_for_hand_rounds == len({h.round for h in bubble})
    out_on_the_bubble = [p for p in d.players.values() if p.place == paid + 1]
    assert out_on_the_bubble and all(p.prize == 0 for p in out_on_the_bubble)


def test_the_same_seed_is_the_same_tournament() -> None:
    a, _ = run(30, 7, seats=9)
    b, _ = run(30, 7, seats=9)
    assert [(p.name, p.place, p.prize) for p in a.director.finished] == \
        [(p.name, p.place, p.prize) for p in b.director.finished]
    assert [h.hand_id for h in a.hands] == [h.hand_id for h in b.hands]


def test_rebuys_add_ons_and_reentries_keep_the_books() -> None:
    res, watch = run(30, 3, seats=9, rebuy_levels=2, rebuys=2, rebuy_chips=3000,
                     add_on_chips=3000, late_levels=3, reentries=1)
    d = res.director
    assert watch.problems == []
    bought = sum(p.rebuys for p in d.players.values())
    add_ons = sum(p.add_on for p in d.players.values())
    assert add_ons > 0
    assert d.chips_issued == 3000 * (d.entries + bought + add_ons)
    assert d.prize_pool == 100 * (d.entries + bought + add_ons)
    assert sum(p.prize for p in d.players.values()) == d.prize_pool
    assert d.entries == 30 + sum(p.entries - 1 for p in d.players.values())


def test_seat_draw_and_late_entries() -> None:
    rules = TournamentRules(fast_schedule(), seats=9, late_levels=2)
    d = Director(rules, [f"p{i}" for i in range(20)], seed=5)
    assert sorted(d.table_sizes().values()) == [6, 7, 7]
    where = {(p.table, p.seat) for p in d.players.values()}
    assert len(where) == 20
    table, seat = d.register("late")
    assert d.table_sizes()[table] == 7  # a seat at one of the shortest tables
    assert d.tables[table].seats[seat] is not None
    assert d.chips_issued == 21 * rules.starting_stack and d.prize_pool == 2100


def test_knockouts_in_one_hand_finish_by_starting_stack_and_tie_when_equal() -> None:
    rules = TournamentRules(Schedule(fast_schedule().levels), seats=9)
    d = Director(rules, [f"p{i}" for i in range(6)], seed=1)
    out = d._place([("p1", 500, 1), ("p2", 900, 1), ("p3", 500, 1)])
    assert [(k.name, k.place, k.tied) for k in out] == [("p2", 4, 1), ("p1", 5, 2),
                                                        ("p3", 5, 2)]
    # hand-for-hand: the knock-outs at two tables in one round are one group
    out = d._place([("p4", 200, 1), ("p5", 200, 2)])
    assert [(k.name, k.place, k.tied) for k in out] == [("p4", 2, 2), ("p5", 2, 2)]
    d._finish()
    assert d.players["p0"].place == 1
    # 6 entries pay 65/35: the winner 390, the two tied for second share 210
    assert [d.players[x].prize for x in ("p0", "p4", "p5", "p2", "p1", "p3")] == \
        [390, 105, 105, 0, 0, 0]


def test_a_deal_ends_the_tournament() -> None:
    res, watch = run(20, 4, seats=9, deal_players=3, deal="chip")
    d = res.director
    offered = 3 in d.deals_offered or 2 in d.deals_offered
    assert offered
    assert sum(p.prize for p in d.players.values()) == d.prize_pool
    if d.deal is not None:
        assert sum(d.deal.values()) == sum(d.prizes()[:len(d.deal)])
