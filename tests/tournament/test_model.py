"""The schedule: levels by hands or by minutes, breaks, the big-blind ante, the blinds
doubling after the last level; and Table.sit(dealt_in=True), how a moved player comes in."""

from __future__ import annotations

from tapete.core.cards import Deck
from tapete.core.table import Table
from tapete.tournament.model import Level, Schedule, TournamentRules, fast_schedule
from tapete.tournament.sim import simulate


def test_levels_by_hands_and_by_minutes() -> None:
    s = Schedule((Level(25, 50, 0, 3), Level(50, 100, 100, 2)), by="hands")
    assert [s.index_at(h) for h in range(7)] == [0, 0, 0, 1, 1, 2, 2]
    assert s.level(2) == Level(100, 200, 200, 2) and s.level(3) == Level(200, 400, 400, 2)
    r = s.rules(1)
    assert (r.small_blind, r.big_blind, r.ante, r.big_blind_ante) == (50, 100, 100, True)
    m = Schedule((Level(25, 50, 0, 15), Level(50, 100, 100, 15)), by="minutes",
                 breaks=((1, 10),))
    assert m.index_at(15 * 60 - 1) == 0 and m.index_at(15 * 60) == 1
    assert m.break_after(1) == 10 and m.break_after(2) == 0


def test_a_tournament_by_minutes_counts_its_breaks_on_the_clock() -> None:
    rules = TournamentRules(fast_schedule(by="minutes", length=5), starting_stack=3000)
    res = simulate(rules, ["tag", "lag", "maniac"], 18, seed=2, seconds_per_hand=60)
    first = {}
    for h in res.hands:
        first.setdefault(h.level, h)
    # five hands a level; the clock jumps by the 5-minute break after level 4
    assert first[1].round == 5 and first[4].round == 20
    assert first[4].clock - first[3].clock == 5 * 60 + 5 * 60
    assert sum(p.prize for p in res.director.players.values()) == res.director.prize_pool


def test_a_player_moved_in_owes_no_blind_and_takes_the_big_blind_when_it_comes() -> None:
    table = Table(fast_schedule().rules(0), seats=9, min_buy_in=1)
    for seat in (0, 2, 4, 6):
        table.sit(seat, f"p{seat}", 1000)
    table.start_hand(Deck(1))  # button 0, blinds 2 and 4
    assert (table.small_blind_seat, table.big_blind_seat) == (2, 4)
    while table.hand is not None and not table.hand.done:
        table.hand.fold()
    table.end_hand()
    table.sit(5, "moved", 1000, dealt_in=True)  # right after the big blind: the next one
    table.sit(3, "broken", 1000, dealt_in=True)  # between the button (2) and the small blind
    table.sit(1, "cutoff", 1000, dealt_in=True)  # before the button: dealt in, no blind
    hand = table.start_hand(Deck(2))
    assert table.big_blind_seat == 5
    i = hand.names.index("moved")
    assert hand.blinds[i] == 50
    assert "broken" not in hand.names  # never dealt between the button and the big blind
    assert hand.blinds[hand.names.index("cutoff")] == 0
