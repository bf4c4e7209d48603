"""Equity: exact enumeration against brute force and known figures, Monte Carlo, ranges."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from tapete.core.cards import parse_cards
from tapete.eval.equity import EquityError, equity, hand_vs_ranges
from tapete.ranking.bulk import evaluate_many


def test_ahkh_vs_qsqd_preflop_exact() -> None:
    r = equity(["AhKh", "QsQd"])
    assert r.exact and r.boards == 1_712_304
    ak, qq = r.players
    assert (ak.wins, ak.ties, qq.wins, qq.ties) == (787_966, 6_732, 917_606, 6_732)
    assert round(ak.equity * 100, 4) == 46.2145
    assert ak.equity + qq.equity == pytest.approx(1.0)
    assert r.to_json()["players"][0] == {
        "hand": "AhKh", "wins": 787_966, "ties": 6_732, "equity": ak.equity,
    }  # fmt: skip


def brute_force(holes: list[tuple[int, int]], board: tuple[int, ...], dead: tuple[int, ...]):  # type: ignore[no-untyped-def]
    """Every board through the bulk evaluator: (wins, ties, equity share) per player."""
    used = set(board) | set(dead) | {c for h in holes for c in h}
    live = [c for c in range(52) if c not in used]
    fills = np.array(list(combinations(live, 5 - len(board))), np.uint8).reshape(-1, 5 - len(board))
    boards = np.hstack([np.tile(np.array(board, np.uint8), (len(fills), 1)), fills])
    s = np.stack(
        [evaluate_many(np.hstack([np.tile(np.array(h, np.uint8), (len(boards), 1)), boards]))
         for h in holes], axis=1,
    ).astype(np.int64)  # fmt: skip
    best = s.max(axis=1, keepdims=True)
    at_best = s == best
    n_best = at_best.sum(axis=1, keepdims=True)
    wins = (at_best & (n_best == 1)).sum(axis=0)
    ties = (at_best & (n_best > 1)).sum(axis=0)
    share = (at_best / n_best).sum(axis=0) / len(boards)
    return len(boards), wins, ties, share


@pytest.mark.parametrize("seed", range(8))
def test_exact_matches_brute_force(seed: int) -> None:
    """Random hands, boards and dead cards; the preflop shortcut (rank patterns plus flush
    boards) must give exactly what dealing every board gives."""
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    street = rng.choice((0, 0, 0, 3, 4, 5))
    dead_n = rng.randrange(12, 20) if street == 0 else rng.randrange(0, 6)
    deck = list(range(52))
    if seed % 2:  # crowd one suit so that flush boards matter
        deck.sort(key=lambda c: (c & 3 != 2, rng.random()))
        hearts, rest = deck[:13], deck[13:]
        rng.shuffle(rest)
        deck = hearts[: 2 * players] + rest + hearts[2 * players :]
    else:
        rng.shuffle(deck)
    holes = [(deck[2 * i], deck[2 * i + 1]) for i in range(players)]
    k = 2 * players
    board = tuple(deck[k : k + street])
    dead = tuple(deck[k + street : k + street + dead_n])
    r = equity([list(h) for h in holes], board=board, dead=dead, exact=True)
    boards, wins, ties, share = brute_force(holes, board, dead)
    assert r.boards == boards
    assert [p.wins for p in r.players] == wins.tolist()
    assert [p.ties for p in r.players] == ties.tolist()
    assert [p.equity for p in r.players] == pytest.approx(share.tolist(), abs=1e-12)


def test_multiway_and_streets() -> None:
    r = equity(["AhKh", "QsQd", "7c6c"])
    assert r.boards == 1_370_754
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)
    flop = equity(["AhKh", "QsQd"], board="2h3h4s")
    assert flop.boards == 990 and flop.exact
    river = equity(["AhKh", "QsQd"], board="2h3h4s9d9c")
    assert river.boards == 1 and [p.equity for p in river.players] == [0.0, 1.0]
    # a board that plays for everyone: a split pot
    split = equity(["2c3d", "2h3s"], board="AsKsQsJsTs")
    assert [p.ties for p in split.players] == [1, 1]
    assert [p.equity for p in split.players] == [0.5, 0.5]


def test_ranges_exact_and_weights() -> None:
    r = equity(["AhKh", "QQ+,AKs"])
    assert r.exact
    assert r.players[0].equity == pytest.approx(0.3766879012138, abs=1e-10)  # OMPEval's figure
    # weights: the result is the weighted mix of the hand-vs-hand results
    mixed = equity(["AhKh", "QsQd:0.25, 7c6c"])
    a = equity(["AhKh", "QsQd"]).players[0].equity
    b = equity(["AhKh", "7c6c"]).players[0].equity
    assert mixed.players[0].equity == pytest.approx((0.25 * a + b) / 1.25, abs=1e-12)


def test_suit_symmetry_folding_changes_nothing() -> None:
    """AKs vs QQ, exact: the folded deals must give the plain average over all 22 deals."""
    r = equity(["AKs", "QQ"])
    total = 0.0
    deals = 0
    for ak in ("AcKc", "AdKd", "AhKh", "AsKs"):
        for qq in ("QcQd", "QcQh", "QcQs", "QdQh", "QdQs", "QhQs"):
            total += equity([ak, qq]).players[0].equity
            deals += 1
    assert r.boards == deals * 1_712_304
    assert r.players[0].equity == pytest.approx(total / deals, abs=1e-12)


def test_pokerfast_agrees_on_ranges() -> None:
    pf = pytest.importorskip("pokerfast.equity")
    if not pf.available():
        pytest.skip("pokerfast without its compiled OMPEval")
    for players, board in (
        (["AhKh", "TT+,AKs"], ""),
        (["QQ", "AKo", "76s"], ""),
        (["AsKd", "random"], "2c7h9d"),
    ):
        ours = [p.equity for p in equity(players, board=board, exact=True).players]
        theirs = pf.equity(players, board=board, exact=True)
        assert ours == pytest.approx(theirs, abs=1e-9)


def test_monte_carlo_is_seeded_and_close() -> None:
    exact = equity(["AhKh", "QsQd"]).players[0].equity
    a = equity(["AhKh", "QsQd"], exact=False, samples=200_000, seed=7)
    b = equity(["AhKh", "QsQd"], exact=False, samples=200_000, seed=7)
    c = equity(["AhKh", "QsQd"], exact=False, samples=200_000, seed=8)
    assert a == b and a != c and not a.exact and a.boards == 200_000
    p = a.players[0]
    assert p.interval is not None and 0.001 < p.interval < 0.003
    assert abs(p.equity - exact) < 2 * p.interval
    assert "interval95" in a.to_json()["players"][0]


def test_monte_carlo_ranges_nine_players_and_dead() -> None:
    r = equity(["AhAd"] + ["random"] * 8, exact=False, samples=50_000, seed=1)
    assert len(r.players) == 9 and sum(p.equity for p in r.players) == pytest.approx(1.0)
    assert 0.31 < r.players[0].equity < 0.37  # aces nine-handed: about 34.6 %
    r = equity(["KK", "AA:0.5, QQ"], board="2c7d9h", dead="3s", exact=False, samples=50_000)
    assert r.players[0].equity > 0.5
    # chunked with progress and unchunked give the same numbers (same random stream)
    seen: list[float] = []
    p1 = equity(["AKo", "random"], exact=False, samples=120_000, seed=3, progress=seen.append)
    p2 = equity(["AKo", "random"], exact=False, samples=120_000, seed=3)
    assert p1 == p2 and seen[-1] == 1.0 and seen == sorted(seen)


def test_hand_vs_ranges_for_bots() -> None:
    exact = equity(["AhKh", "QsQd"]).players[0].equity
    assert hand_vs_ranges("AhKh", ["QsQd"], samples=100_000, seed=1) == pytest.approx(
        exact, abs=0.006
    )
    ints = hand_vs_ranges(parse_cards("AhKh"), [None, "TT+"], parse_cards("2c7d9h"), 2000, 5)
    text = hand_vs_ranges("AhKh", ["random", "TT+"], "2c7d9h", 2000, 5)
    assert ints == text and 0.0 <= text <= 1.0
    # card removal: the hero's ace of hearts leaves three AKs combos to the opponent
    assert hand_vs_ranges("AhAd", ["AKs"], samples=20_000) > 0.85
    with pytest.raises(EquityError):
        hand_vs_ranges("AhAd", ["AhKh"], samples=10)
    with pytest.raises(EquityError):
        hand_vs_ranges("AhAh", ["random"], samples=10)


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (["AhKh", "AhQd"], {}, "appears twice"),
        (["AhKh", "QsQd"], {"board": "Ah2c3c"}, "appears twice"),
        (["AhKh", "QsQd"], {"board": "2c3c"}, "0, 3, 4 or 5"),
        (["AhKh"], {}, "2 to 9"),
        (["AA", "AA", "AA"], {}, "impossible"),
        (["AhKh", "XYZ"], {}, "cannot read"),
        (["AhKh", "QsQd"], {"dead": "Zz"}, "not a card"),
        (["AhKh", "AhKh:1"], {}, "appears twice"),
        (["KK", "AhAs, AcAd", "AhAd, AcAs"], {}, "impossible together"),
        (["AhAd", "AhKh, AdKd"], {}, "every combo uses a known card"),
        (["random", "random", "random"], {"exact": True}, "too many"),
    ],
)
def test_bad_input_is_one_line(players: list[str], kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(EquityError, match=message) as info:
        equity(players, **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_hand_vs_weights_matches_ranges() -> None:
    tt_text = "TT+,AKs"
    from tapete.eval.equity import hand_vs_weights
    from tapete.eval.ranges import ALL_COMBOS

    tt = parse_range_weights("TT+,AKs")
    got = hand_vs_weights("AhKh", [tt], "2c7d9h", 4000, 5)
    want = hand_vs_ranges("AhKh", ["TT+,AKs"], "2c7d9h", 4000, 5)
    assert got == want  # the same combos in the same order draw the same random stream
    two = hand_vs_weights("AhKh", [np.ones(1326), tt], "2c7d9h", 40_000, 5)
    assert two == pytest.approx(hand_vs_ranges("AhKh", [None, tt_text], "2c7d9h", 40_000), abs=0.01)
    with pytest.raises(EquityError):
        hand_vs_weights("AhKh", [np.zeros(1326)])
    with pytest.raises(EquityError):
        hand_vs_weights("AhKh", [np.ones(5)])
    assert len(ALL_COMBOS) == 1326


def parse_range_weights(text: str) -> np.ndarray:  # type: ignore[type-arg]
    from tapete.eval.ranges import ALL_COMBOS, parse_range

    r = parse_range(text)
    w = dict(zip(r.combos, r.weights, strict=True))
    return np.array([w.get(c, 0.0) for c in ALL_COMBOS])


# ---------------------------------------------------------------- loading the compiled kernels

def test_seconds_count_the_work_not_loading_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process's first question loads the kernels (the first run after an install compiles
    them): ``seconds`` leaves that out. Loading is made to take a second here."""
    import time

    import tapete.eval.equity as E

    def slow_load() -> None:
        time.sleep(1.0)

    for name, exact in (("_ready_exact", True), ("_ready_monte_carlo", False)):
        monkeypatch.setattr(E, name, slow_load)
        start = time.perf_counter()
        r = equity(["AKs", "QQ"], exact=exact, samples=1000)
        total = time.perf_counter() - start
        assert r.exact is exact
        assert 0 < r.seconds <= total - 1.0


WARM_THEN_ASK = """
import json, numpy as np
import tapete.eval.equity as E
from tapete.ranking import bulk
kernels = {"exact": E._exact, "monte_carlo": E._monte_carlo}
E.warm_up()
loaded = {k: len(d.signatures) for k, d in kernels.items()}
E.equity(["AKs", "QQ"])
E.equity(["AhKh", "TT+, AKs", "random"], board="2c7d9h", samples=1000)
E.hand_vs_ranges("AhKh", ["QQ+", None], board="2c7d9hTs")
E.hand_vs_weights("AhKh", [np.ones(1326)])
print(json.dumps({
    "nocache": type(E._exact._cache).__name__ == "NullCache",
    "hits": {k: sum(d.stats.cache_hits.values()) for k, d in kernels.items()},
    "misses": {k: sum(d.stats.cache_misses.values()) for k, d in kernels.items()},
    "loaded": loaded,
    "after": {k: len(d.signatures) for k, d in kernels.items()},
}))
"""


def test_warm_up_loads_from_the_disk_cache_what_questions_then_use() -> None:
    """In a new process, :func:`warm_up` loads the compiled kernels from numba's cache on disk
    (no compiling) with the very signatures that questions use: asking afterwards loads and
    compiles nothing more. The first process may have to compile them (sources just changed)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import tapete

    env = {**os.environ, "PYTHONPATH": str(Path(tapete.__file__).parents[1])}  # these sources
    for _attempt in range(2):
        done = subprocess.run([sys.executable, "-c", WARM_THEN_ASK], capture_output=True,
                              text=True, timeout=600, env=env)
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout)
        assert got["after"] == got["loaded"] == {"exact": 1, "monte_carlo": 1}
        if got["nocache"]:
            pytest.skip("numba has nowhere to write its cache here")
        if not any(got["misses"].values()):
            break
    assert got["misses"] == {"exact": 0, "monte_carlo": 0}
    assert got["hits"] == {"exact": 1, "monte_carlo": 1}
