"""The practice table's coach reads the opponents' ranges from your seat only."""

from __future__ import annotations

import pytest

from tapete.core.cards import parse_cards
from tapete.core.hand import Hand
from tapete.core.rules import Rules
from tapete.server import coach
from tapete.server.views import hand_view

pytest.importorskip("tapete.bots")


def three_bet_hand(villain_cards: str) -> Hand:
    """Six players, p6 on the button; you are p2, the big blind, with 7-2 offsuit; p4 raises,
    p5 re-raises, the others fold to you."""
    hand = Hand(Rules(small_blind=1, big_blind=2), [200] * 6, button=5)
    others = iter(["KsKd", "QsJs", "9h9c", "AdKc", villain_cards])
    for p in range(6):
        hand.deal_hole(p, parse_cards("7c2d") if p == 1 else parse_cards(next(others)))
    hand.fold()  # p3
    hand.raise_to(6)  # p4
    hand.raise_to(20)  # p5
    hand.fold()  # p6
    hand.fold()  # p1, the small blind
    return hand


def test_ranges_come_from_actions_not_cards() -> None:
    reader = coach.Reader(1)
    a = three_bet_hand("AsAh")
    b = three_bet_hand("3s2s")
    seat = a.actor
    assert seat is not None and a.actor == b.actor
    ra = reader.ranges(reader.view(a, seat))
    rb = reader.ranges(reader.view(b, seat))
    assert [n for n, _, _ in ra] == [n for n, _, _ in rb] and len(ra) == 2
    for (_, wa, ta), (_, wb, tb) in zip(ra, rb, strict=True):
        assert (wa == wb).all() and ta == tb  # the opponents' cards change nothing
    # the re-raiser's range is narrower than the raiser's, both far from any two cards
    raiser, reraiser = (float(w.sum()) for _, w, _ in ra)
    assert reraiser < raiser < 0.5 * len(ra[0][1])


def test_advice_against_ranges_is_lower_for_junk_facing_a_three_bet() -> None:
    reader = coach.Reader(1)
    hand = three_bet_hand("AsAh")
    seat = hand.actor
    assert seat is not None
    view = reader.view(hand, seat)
    ranges = reader.ranges(view)
    read = coach.advice(view, 4000, seed=1, ranges=ranges)
    blind = coach.advice(view, 4000, seed=1)
    assert read["against"]["en"] == "against their likely ranges"
    assert blind["against"]["en"] == "against random hands"
    assert [r["name"] for r in read["ranges"]] == [n for n, _, _ in ranges]
    assert read["equity"] < blind["equity"]  # strong ranges: the hand is worth less
    assert "against their likely ranges" in read["verdict"]["en"]
    assert "contra sus rangos probables" in read["verdict"]["es"]


def first_in_hand(raise_first: bool = False) -> Hand:
    """Six players, p6 on the button: p3 (first to act) holds Q-T offsuit; with
    ``raise_first`` p3 raises and p4 folds, so that p5, the cutoff, is to act."""
    hand = Hand(Rules(small_blind=1, big_blind=2), [200] * 6, button=5)
    cards = iter(["KsKd", "9h9c", "QhTd", "AdKc", "3s2s", "8c7c"])
    for p in range(6):
        hand.deal_hole(p, parse_cards(next(cards)))
    if raise_first:
        hand.raise_to(6)  # p3
        hand.fold()  # p4
    return hand


def test_players_yet_to_act_hold_their_positions_opening_ranges() -> None:
    """Q-T offsuit first in: the five players behind have not acted. Each holds the range the
    bots open from that position, not any two cards; the big blind, who sees the flop free if
    nobody raises, holds any two, until someone raises."""
    from tapete.bots import ranges as R
    from tapete.bots.seats import open_width

    reader = coach.Reader(1)
    hand = first_in_hand()
    seat = hand.actor
    assert seat == 2
    view = reader.view(hand, seat)
    got = {name: (w, words) for name, w, words in reader.ranges(view)}
    assert list(got) == ["p1", "p2", "p4", "p5", "p6"]
    for p, name in ((0, "p1"), (3, "p4"), (4, "p5"), (5, "p6")):
        weights, words = got[name]
        assert (weights == R.top_range(open_width(view, p))).all()
        assert 0 < weights.sum() < 0.5 * R.N_COMBOS
        assert words.en.startswith("yet to act: about ") and "100 %" not in words.en
        assert words.es.startswith("aún no ha hablado: cerca del ")
    assert got["p4"][0].sum() < got["p5"][0].sum() < got["p6"][0].sum()  # later: wider
    assert "opening range from the hijack" in got["p4"][1].en
    assert "rango de apertura desde el botón" in got["p6"][1].es
    bb_weights, bb_words = got["p2"]
    assert bb_weights.sum() == R.N_COMBOS and "any two cards" in bb_words.en
    assert "cualquier mano" in bb_words.es

    advice = coach.advice(coach.Reader.view(hand, seat), 4000, seed=1, ranges=reader.ranges(view))
    assert [r["name"] for r in advice["ranges"]] == list(got)
    assert advice["equity"] < coach.advice(coach.Reader.view(hand, seat), 4000, seed=1)["equity"]

    raised = first_in_hand(raise_first=True)  # p3 raised, p4 folded: the cutoff to act
    seat = raised.actor
    assert seat == 4
    view = reader.view(raised, seat)
    got = {name: (w, words) for name, w, words in reader.ranges(view)}
    assert list(got) == ["p1", "p2", "p3", "p6"]
    assert got["p3"][0].sum() == reader.bot.opponent_range(view, 2).sum()  # read from acts
    assert got["p3"][1].en.startswith("about ")
    assert (got["p2"][0] == R.top_range(open_width(view, 1))).all()  # no free flop now
    assert got["p2"][1].en.startswith("yet to act: about ")


def test_pot_odds_are_the_call_over_the_pot_after_calling() -> None:
    """Calling 2 to win 3 (the blinds) needs 2 / (3 + 2) = 40 %."""
    hand = first_in_hand()
    seat = hand.actor
    assert seat is not None
    advice = coach.advice(coach.Reader.view(hand, seat), 500, seed=1)
    assert (advice["call"], advice["pot_odds"]) == (2, 40.0)
    assert advice["verdict"]["en"].startswith(
        "Pot odds: calling 2 to win 3 needs 40% equity; you have about ")
    assert advice["verdict"]["es"].startswith(
        "Precio: igualar 2 para ganar 3 necesita un 40% de equity; tienes cerca del ")


def test_pot_odds_of_a_short_all_in_count_only_what_it_can_win() -> None:
    """Heads-up, the button raises to 100 and the big blind has 28 chips left: calling them
    plays for 30 of the button's chips and its own 2, not for the 100 raised. 28 / (32 + 28) is
    47 %, not 28 / (102 + 28) = 22 %."""
    hand = Hand(Rules(small_blind=1, big_blind=2), [200, 30], button=0)
    hand.deal_hole(0, parse_cards("AsAh"))
    hand.deal_hole(1, parse_cards("7c2d"))
    hand.raise_to(100)  # the button, first to act heads-up
    seat = hand.actor
    assert seat == 1
    page = hand_view(hand, seat)  # what the page is sent
    assert page["legal"]["call"] == 28 and page["pot"] == 102
    view = coach.Reader.view(hand, seat)  # the coach reads the engine's view of the seat
    assert coach.winnable(view, 28) == 32
    advice = coach.advice(view, 500, seed=1)
    assert advice["pot_odds"] == 46.7
    assert advice["verdict"]["en"].startswith("Pot odds: calling 28 to win 32 needs 47% equity")
    assert advice["verdict"]["es"].startswith("Precio: igualar 28 para ganar 32 necesita un 47%")


WARM_THEN_ADVISE = """
import json
from tapete.core.cards import parse_cards
from tapete.core.hand import Hand
from tapete.core.rules import Rules
from tapete.server import coach
from tapete.server.views import hand_view
import tapete.eval.equity as E
from tapete.ranking import bulk

kernels = {"monte_carlo": E._monte_carlo, "rank_n": bulk._rank_n, "rank7": bulk._rank7}
thread = coach.start_warm_up()
assert coach.start_warm_up() is thread  # once per process
thread.join()
loaded = {k: len(d.signatures) for k, d in kernels.items()}
reader = coach.Reader(1)
hand = Hand(Rules(small_blind=1, big_blind=2), [200] * 3, button=2)
for p, cards in enumerate(["QhTd", "KsKd", "9h9c"]):
    hand.deal_hole(p, parse_cards(cards))
answers = []
for board in ("2c7d8h", "Ts", "Jd", ""):  # every player asks at every turn, and calls
    while hand.actor is not None:
        seat = hand.actor
        seen = reader.view(hand, seat)
        answers.append(coach.advice(coach.Reader.view(hand, seat), 500, ranges=reader.ranges(seen)))
        hand.check_or_call()
    if board:
        hand.deal_board(parse_cards(board))
print(json.dumps({
    "answers": len([a for a in answers if "ranges" in a]),
    "loaded": loaded,
    "after": {k: len(d.signatures) for k, d in kernels.items()},
    "misses": {k: sum(d.stats.cache_misses.values()) for k, d in kernels.items()},
    "nocache": type(E._exact._cache).__name__ == "NullCache",
}))
"""


def test_the_warm_up_starts_once_and_loads_what_advice_then_needs() -> None:
    """The server starts :func:`coach.start_warm_up` with the practice room: in a new process
    it loads the compiled kernels (from numba's cache on disk), so that advice at every street
    afterwards loads and compiles nothing more."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import tapete

    env = {**os.environ, "PYTHONPATH": str(Path(tapete.__file__).parents[1])}  # these sources
    for _attempt in range(2):  # the first may compile (sources just changed) and cache
        done = subprocess.run([sys.executable, "-c", WARM_THEN_ADVISE], capture_output=True,
                              text=True, timeout=600, env=env)
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout)
        assert got["answers"] == 12
        assert got["after"] == got["loaded"] == {"monte_carlo": 1, "rank_n": 1, "rank7": 1}
        if got["nocache"] or not any(got["misses"].values()):
            break
    if not got["nocache"]:
        assert got["misses"] == {"monte_carlo": 0, "rank_n": 0, "rank7": 0}  # from the disk


EXIT_WHILE_WARMING = """
import atexit
from tapete.server import coach
from tapete.server.views import hand_view
started = []
atexit.register(lambda: print("alive" if started[0].is_alive() else "done"))  # runs last
started.append(coach.start_warm_up())
"""


def test_a_process_that_exits_while_warming_up_waits_for_the_step_it_is_in() -> None:
    """Exiting while the warm-up thread is inside numba's compiler aborted the process
    ("terminate called without an active exception", status 134): at exit, the warm-up stops
    after the step it is in and is waited for."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import tapete

    env = {**os.environ, "PYTHONPATH": str(Path(tapete.__file__).parents[1])}  # these sources
    done = subprocess.run([sys.executable, "-c", EXIT_WHILE_WARMING], capture_output=True,
                          text=True, timeout=600, env=env)
    assert (done.returncode, done.stdout.strip()) == (0, "done"), done.stderr
