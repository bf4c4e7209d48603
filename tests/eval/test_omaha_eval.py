"""The Omaha evaluator (exactly two hole cards and three board cards) and Omaha equity.

The evaluator is checked against a brute force written here (every pair of hole cards with
every triple of board cards, each five ranked by the plain five-card evaluator) and against
hands worked out by hand; equity against an enumeration written here too, and the command line
against both languages' errors.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest

from tapete.cli import main
from tapete.core.cards import format_cards, parse_cards
from tapete.core.game import HOLDEM, OMAHA, OMAHA5, best_hand
from tapete.eval.equity import EquityError
from tapete.eval.omaha import (
    OmahaError,
    game_of,
    omaha_equity,
    omaha_hilo_equity,
    omaha_size,
)
from tapete.eval.omaha_ranges import omaha_range, range_size
from tapete.ranking import Category, category, evaluate
from tapete.ranking.omaha import evaluate_omaha

Capsys = pytest.CaptureFixture[str]


def brute_force(hole: Sequence[int], board: Sequence[int]) -> int:
    """The best of every two-of-the-hand, three-of-the-board five, ranked one by one."""
    best = 0
    for i in range(len(hole)):
        for j in range(i + 1, len(hole)):
            for a in range(len(board)):
                for b in range(a + 1, len(board)):
                    for c in range(b + 1, len(board)):
                        five = [hole[i], hole[j], board[a], board[b], board[c]]
                        best = max(best, evaluate(five))
    return best


@pytest.mark.parametrize("hole_size", [4, 5])
def test_the_evaluator_matches_brute_force(hole_size: int) -> None:
    rng = random.Random(20240 + hole_size)
    for k in range(2500):
        cards = rng.sample(range(52), hole_size + 5)
        hole, board = cards[:hole_size], cards[hole_size:hole_size + 3 + k % 3]
        expected = brute_force(hole, board)
        assert evaluate_omaha(hole, board) == expected, (hole, board)
        assert best_hand(OMAHA if hole_size == 4 else OMAHA5, hole, board) == expected


def test_the_evaluator_matches_brute_force_on_flush_heavy_deals() -> None:
    """Two suits only: flushes, straight flushes and the boards that almost make them."""
    rng = random.Random(7)
    two_suits = [c for c in range(52) if c & 3 in (0, 3)]
    for _ in range(1500):
        cards = rng.sample(two_suits, 9)
        assert evaluate_omaha(cards[:4], cards[4:]) == brute_force(cards[:4], cards[4:])


def _cat(hole: str, board: str) -> Category:
    return category(evaluate_omaha(parse_cards(hole), parse_cards(board)))


@pytest.mark.parametrize("hole, board, expected", [
    # four aces in the hand, a board of rags: two aces play, so one pair of aces
    ("AsAdAhAc", "2c7d9hJs4s", Category.ONE_PAIR),
    # a board of four hearts and one heart in the hand: no flush (two hole cards must play)
    ("Ah9c8c7d", "KhQhJhTh2c", Category.STRAIGHT),
    ("Ah9h8c7d", "KhQhJh2h3c", Category.FLUSH),
    # a board of five hearts: nobody has a flush without two hearts
    ("AsKsQd2c", "3h5h7h9hJh", Category.HIGH_CARD),
    # a straight on the board plays only with two hole cards that keep it
    ("AsAdKsKd", "5c6d7h8s9c", Category.ONE_PAIR),
    ("TsKdQcAh", "5c6d7h8s9c", Category.HIGH_CARD),  # one ten does not make it
    ("TsJd3c4c", "5c6d7h8s9c", Category.STRAIGHT),
    # trips on the board and a pair in the hand: a full house, never quads
    ("KsKd2c3c", "7c7d7hAs4d", Category.FULL_HOUSE),
    # quads on the board are at most a full house with a pocket pair
    ("AsAd2c3c", "7c7d7h7sKd", Category.FULL_HOUSE),
    ("Ks2d3c4c", "7c7d7h7sKd", Category.THREE_OF_A_KIND),  # three of the four sevens
    # one set card in the hand and trips on the board: four of a kind with a kicker
    ("7s2d3cAc", "7c7d7hKsQd", Category.FOUR_OF_A_KIND),
    # a hand of three of a kind is only a pair: one of them cannot play
    ("QsQdQh2c", "3c8d9hJs4s", Category.ONE_PAIR),
    # a straight flush needs its two cards from the hand
    ("9h8h2c2d", "ThJhQhKcAs", Category.STRAIGHT_FLUSH),
    ("9h8c2c2d", "ThJhQhKhAs", Category.STRAIGHT),
])
def test_hands_worked_by_hand(hole: str, board: str, expected: Category) -> None:
    assert _cat(hole, board) == expected
    assert evaluate_omaha(parse_cards(hole), parse_cards(board)) == brute_force(
        parse_cards(hole), parse_cards(board))


def test_omaha_ranks_below_holdem_on_the_same_cards() -> None:
    hole, board = parse_cards("AsAdAhAc"), parse_cards("2c7d9hJs4s")
    assert best_hand(HOLDEM, hole[:2], board) == evaluate_omaha(hole, board)  # the same pair
    four_aces = evaluate((*hole, *board[:3]))
    assert category(four_aces) == Category.FOUR_OF_A_KIND > category(evaluate_omaha(hole, board))


def test_the_evaluator_refuses_too_few_cards() -> None:
    with pytest.raises(ValueError):
        evaluate_omaha(parse_cards("As"), parse_cards("2c7d9h"))
    with pytest.raises(ValueError):
        evaluate_omaha(parse_cards("AsAdKsKd"), parse_cards("2c7d"))
    assert best_hand(OMAHA, parse_cards("AsAdKsKd"), parse_cards("2c7d")) == 0  # no hand yet


# ---------------------------------------------------------------------------- equity

def enumerated(hands: list[str], board: str) -> list[float]:
    """Each hand's share of the pot over every rest of the board, counted here."""
    holes = [parse_cards(h) for h in hands]
    known = parse_cards(board)
    used = {c for h in holes for c in h} | set(known)
    rest = [c for c in range(52) if c not in used]
    shares = [0.0] * len(hands)
    total = 0
    for extra in combinations(rest, 5 - len(known)):
        full = (*known, *extra)
        scores = [brute_force(h, full) for h in holes]
        top = max(scores)
        winners = [i for i, s in enumerate(scores) if s == top]
        for i in winners:
            shares[i] += 1 / len(winners)
        total += 1
    return [s / total for s in shares]


@pytest.mark.parametrize("hands, board", [
    (["AsAdKsKd", "QhQdJhJd"], "2c7d9hTs"),
    (["AsAdKsKd", "QhQdJhJd", "8c7c6h5h"], "2c7d9h"),
    (["AsKsQsJs", "AhKhQhJh"], "2c3d4s"),  # split pots: the same ranks
    (["AsAdKsKd5c", "QhQdJhJd5d"], "2c7d9hTs"),
])
def test_exact_equity_matches_an_enumeration(hands: list[str], board: str) -> None:
    result = omaha_equity(hands, board)
    assert result.exact
    expected = enumerated(hands, board)
    for p, e in zip(result.players, expected, strict=True):
        assert p.equity == pytest.approx(e, abs=1e-12)
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)
    assert result.boards == result.weight


def test_known_flop_equity() -> None:
    r = omaha_equity(["AsAdKsKd", "QhQdJhJd"], "2c7d9h")
    assert r.exact and r.boards == 820  # 41 cards left, two to come
    assert [p.hand for p in r.players] == ["AsAdKsKd", "QhQdJhJd"]
    assert r.players[0].equity == pytest.approx(620 / 820)  # the queens need runner-runner help


def test_monte_carlo_is_seeded_and_close_to_exact() -> None:
    hands = ["AsAdKsKd", "QhQdJhJd"]
    a = omaha_equity(hands, samples=4000, seed=3)
    b = omaha_equity(hands, samples=4000, seed=3)
    c = omaha_equity(hands, samples=4000, seed=4)
    assert not a.exact and a.boards == 4000
    assert a == b and a != c  # the same seed, the same answer
    assert all(p.interval is not None and 0 < p.interval < 0.03 for p in a.players)
    # with three board cards known the answer is exact: sampling the same question lands near it
    exact = omaha_equity(hands, "2c7d9h").players[0].equity
    sampled = omaha_equity(hands, "2c7d9h", exact=False, samples=3000, seed=1).players[0]
    assert sampled.interval is not None
    assert abs(sampled.equity - exact) < 4 * sampled.interval
    # few cards unknown: a preflop question is enumerated by default (eleven hands of four
    # cards, each the four of one rank, two to queen: the kings and aces are left, 56 boards)
    deep = omaha_equity([format_cards(range(4 * r, 4 * r + 4)) for r in range(11)])
    assert deep.exact and deep.boards == 56
    assert sum(p.equity for p in deep.players) == pytest.approx(1.0)


def test_the_sizes_and_mistakes_are_refused_in_both_languages() -> None:
    assert omaha_size(["AhKh", "QsQd"]) is None and omaha_size(["TT+", "random"]) is None
    assert omaha_size(["AsAdKsKd", "QhQdJhJd"]) == 4 and game_of(4) is OMAHA
    assert omaha_size(["AsAdKsKd5c", "QhQdJhJd5d"]) == 5 and game_of(5) is OMAHA5
    cases = [
        (["AsAdKsKd", "QhQdJh"], "hand QhQdJh has 3 cards", "la mano QhQdJh tiene 3 cartas"),
        (["AsAdKsKd", "QhQdJhJd5d"], "has 5 cards", "tiene 5 cartas"),
        (["AsAdKsKd", "TT+"], "'TT+' is not a hand of 4 cards", "'TT+' no es una mano de 4"),
        (["AsAdKsKd", "QhQdJhAs"], "card As appears twice (hand AsAdKsKd and hand QhQdJhAs)",
         "la carta As aparece dos veces (la mano AsAdKsKd y la mano QhQdJhAs)"),
        (["AsAdAsKd", "QhQdJhJd"], "hand AsAdAsKd: card As appears twice",
         "la mano AsAdAsKd: la carta As aparece dos veces"),
        (["AsAdKsKd"], "needs 2 to 11 players, not 1", "de 2 a 11 jugadores, no 1"),
    ]
    for hands, en, es in cases:
        with pytest.raises(OmahaError) as info:
            omaha_equity(hands)
        assert en in info.value.message.en and es in info.value.message.es, info.value.message
        assert isinstance(info.value, EquityError) and str(info.value) == info.value.message.en
    with pytest.raises(OmahaError) as info:
        omaha_equity(["AsAdKsKd", "QhQdJhJd"], board="2c7d")
    assert info.value.message.es == "un tablero tiene 0, 3, 4 o 5 cartas, no 2"
    with pytest.raises(OmahaError) as info:
        omaha_equity(["AsAdKsKd", "QhQdJhJd"], board="2c7d9h", dead="2c")
    assert "(el tablero y las cartas muertas)" in info.value.message.es
    with pytest.raises(OmahaError) as info:
        omaha_equity(["AsAdKsKd", "QhQdJhJd"], board="2c7x9h")
    assert info.value.message.en.startswith("the board: ")
    assert info.value.message.es.startswith("el tablero: ")
    with pytest.raises(OmahaError):
        omaha_equity(["AsAdKsKd", "QhQdJhJd"], exact=False, samples=0)


# ---------------------------------------------------------------------------- the command line

def test_the_command_line_detects_omaha_hands(capsys: Capsys) -> None:
    assert main(["equity", "AsAdKsKd", "QhQdJhJd", "--board", "2c7d9h"]) == 0
    out = capsys.readouterr().out
    assert "AsAdKsKd" in out and "75.610%" in out and "820 boards, exact enumeration" in out
    assert main(["equity", "AsAdKsKd", "QhQdJhJd", "--samples", "2000", "--seed", "5",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False and data["boards"] == 2000
    assert [p["hand"] for p in data["players"]] == ["AsAdKsKd", "QhQdJhJd"]
    assert main(["equity", "AsAdKsKd5c", "QhQdJhJd5d", "--board", "2c7d9hTs", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["boards"] == 38
    assert main(["equity", "AhKh", "QsQd", "--board", "2c7d9hTs"]) == 0  # hold'em as before
    assert "44 boards" in capsys.readouterr().out


@pytest.mark.parametrize("lang, expected", [
    ("en", "tapete equity: error: hand QhQdJh has 3 cards: with Omaha hands, every player "
           "holds 4 known cards\n"),
    ("es", "tapete equity: error: la mano QhQdJh tiene 3 cartas: con manos de Omaha, cada "
           "jugador tiene 4 cartas conocidas\n"),
])
def test_the_command_line_refuses_mixed_hands(capsys: Capsys, lang: str, expected: str) -> None:
    assert main(["equity", "AsAdKsKd", "QhQdJh", "--lang", lang]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == expected


def test_the_command_line_refuses_a_card_twice(capsys: Capsys) -> None:
    assert main(["equity", "AsAdKsKd", "QhQdJhJd", "--board", "Qh2c3c", "--lang", "es"]) == 2
    err = capsys.readouterr().err
    assert err == ("tapete equity: error: la carta Qh aparece dos veces (el tablero y la mano "
                   "QhQdJhJd)\n")


# ---------------------------------------------------------------------------- hi-lo equity

def enumerated_hilo(hands: list[str], board: str) -> list[tuple[float, float, float, float]]:
    """Each hand's (equity, scoop, high, low) over every rest of the board, counted here with
    the brute forces: the high half to the best high, the low half to the best qualifying low
    (none: the high takes the pot), ties sharing their half."""
    from test_omaha_low import brute_omaha_low

    holes = [parse_cards(h) for h in hands]
    known = parse_cards(board)
    used = {c for h in holes for c in h} | set(known)
    rest = [c for c in range(52) if c not in used]
    sums = [[0.0] * 4 for _ in hands]
    total = 0
    for extra in combinations(rest, 5 - len(known)):
        full = (*known, *extra)
        highs = [brute_force(h, full) for h in holes]
        lows = [brute_omaha_low(h, full) for h in holes]
        qualifying = [lo for lo in lows if lo is not None]
        best_low = min(qualifying) if qualifying else None
        high_half = 0.5 if best_low is not None else 1.0
        high_winners = [i for i, s in enumerate(highs) if s == max(highs)]
        low_winners = [i for i, lo in enumerate(lows) if best_low is not None and lo == best_low]
        for i in range(len(hands)):
            hi = high_half / len(high_winners) if i in high_winners else 0.0
            lo = 0.5 / len(low_winners) if i in low_winners else 0.0
            sums[i][0] += hi + lo
            sums[i][1] += hi + lo == 1.0
            sums[i][2] += hi
            sums[i][3] += lo
        total += 1
    return [(e / total, s / total, h / total, lo / total) for e, s, h, lo in sums]


@pytest.mark.parametrize("hands, board", [
    (["As2dKsKd", "QhQdJhJd"], "3c7d8hTs"),  # a low for one hand only
    (["As2dKsKd", "Ac2cQhQd", "3h4h9c9d"], "5c7d8h"),  # lows tied, lows counterfeited
    (["AsKs2d3d", "AhKh2c3c"], "4s5d9h"),  # the same ranks: split high, split low
    (["As2d3sKdQc", "Ah4h5cJdJc"], "6c7d8hKs"),  # five cards a hand
])  # fmt: skip
def test_exact_hilo_equity_matches_an_enumeration(hands: list[str], board: str) -> None:
    result = omaha_hilo_equity(hands, board)
    assert result.exact
    expected = enumerated_hilo(hands, board)
    for p, (eq, scoop, high, low) in zip(result.players, expected, strict=True):
        assert p.equity == pytest.approx(eq, abs=1e-12)
        assert p.scoop == pytest.approx(scoop, abs=1e-12)
        assert p.high == pytest.approx(high, abs=1e-12)
        assert p.low == pytest.approx(low, abs=1e-12)
        assert p.equity == pytest.approx(p.high + p.low)
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)


@pytest.mark.parametrize("hands, board, expected", [
    # quartered: three kings take the high half, the two A-2 lows tie for the low half
    # (8-4-3-2-A each), a quarter of the pot apiece
    (["As2sKhKd", "Ac2cQhQd"], "3d4h8cKc9s", [(0.75, 0, 0.5, 0.25), (0.25, 0, 0, 0.25)]),
    # one low card on the board: no low, the high (a broadway straight) takes the whole pot
    (["AsKs2d3d", "8h8c7h7c"], "9sTdJhQc2c", [(1, 1, 1, 0), (0, 0, 0, 0)]),
    # a straight and the best low in one hand: a scoop
    (["As2d3h4c", "QhQsJhJd"], "5s6d7hKcKd", [(1, 1, 0.5, 0.5), (0, 0, 0, 0)]),
    # the same high (9-T with 6-7-8), one low (2-3 with 6-7-8): the high half split
    (["9sTs2c3c", "9hThQsJs"], "6c7d8hKsKd", [(0.75, 0, 0.25, 0.5), (0.25, 0, 0.25, 0)]),
])  # fmt: skip
def test_hilo_pots_worked_by_hand(hands: list[str], board: str,
                                  expected: list[tuple[float, float, float, float]]) -> None:
    result = omaha_hilo_equity(hands, board)
    assert result.boards == 1
    got = [(p.equity, p.scoop, p.high, p.low) for p in result.players]
    assert got == [tuple(float(x) for x in e) for e in expected]


def test_hilo_monte_carlo_is_seeded_and_close_to_exact() -> None:
    hands = ["As2dKsKd", "QhQdJhJd", "Ah3h4c5c"]
    a = omaha_hilo_equity(hands, samples=3000, seed=3)
    assert not a.exact and a.boards == 3000
    assert a == omaha_hilo_equity(hands, samples=3000, seed=3)
    assert a != omaha_hilo_equity(hands, samples=3000, seed=4)
    exact = omaha_hilo_equity(hands, "2c7d9h")
    sampled = omaha_hilo_equity(hands, "2c7d9h", exact=False, samples=3000, seed=1)
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert s.interval is not None and abs(s.equity - e.equity) < 4 * s.interval
    # the high-only equity is the hi-lo one on boards that never make a low
    high = omaha_equity(hands, "KcTs9s")
    no_low = omaha_hilo_equity(hands, "KcTs9s")
    assert no_low.low_qualifies == 0.0
    for h, p in zip(high.players, no_low.players, strict=True):
        assert p.equity == pytest.approx(h.equity) and p.low == 0.0
    data = no_low.to_json()
    assert data["hi_lo"] is True and data["boards"] == no_low.boards
    assert [p["hand"] for p in data["players"]] == hands


def test_the_hilo_command_line(capsys: Capsys) -> None:
    assert main(["equity", "AsAdKsKd", "QhQdJhJd", "--board", "2c7d9h", "--hi-lo"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["hand", "equity", "scoop", "high", "low"]
    assert "820 boards, exact enumeration" in out and "a low on" in out
    assert main(["equity", "As2dKsKd", "QhQdJhJd", "--board", "2c7d9h", "--hi-lo", "--lang",
                 "es"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["mano", "equity", "bote", "entero", "alto", "bajo"]
    assert "820 tableros, enumeración exacta" in out and "hay bajo en el" in out
    assert main(["equity", "As2dKsKd", "QhQdJhJd", "--hi-lo", "--samples", "500",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hi_lo"] is True and data["exact"] is False and data["boards"] == 500
    expected = omaha_hilo_equity(["As2dKsKd", "QhQdJhJd"], exact=False, samples=500)
    assert [p["equity"] for p in data["players"]] == [p.equity for p in expected.players]
    assert main(["equity", "AhKh", "QsQd", "--hi-lo", "--lang", "es"]) == 2
    assert capsys.readouterr().err == ("tapete equity: error: --hi-lo es de Omaha: da manos de "
                                       "cuatro (o cinco) cartas\n")


# ---------------------------------------------------------------------------- Omaha ranges

def _suit_counts(hand: Sequence[int]) -> list[int]:
    """A hand's cards per suit, most first."""
    return sorted((sum(1 for c in hand if c & 3 == s) for s in range(4)), reverse=True)


def test_range_classes_match_a_filter_of_every_hand() -> None:
    """Each class is the hands a plain filter of all 270,725 four-card hands keeps."""
    hands = np.array(list(combinations(range(51, -1, -1), 4)), np.int64)
    r = np.sort(hands >> 2, axis=1)
    s = -np.sort(-np.stack([((hands & 3) == k).sum(axis=1) for k in range(4)], axis=1), axis=1)
    ace, king, queen, jack, ten, nine, eight = 12, 11, 10, 9, 8, 7, 6

    def ranks_are(*want: int) -> np.ndarray:
        return (r == np.array(want)).all(axis=1)

    double, single, rainbow = (s[:, 0] == 2) & (s[:, 1] == 2), (s[:, 0] == 2) & (s[:, 1] == 1), (
        s[:, 3] == 1)
    filters = {
        "AAxx": (r == ace).sum(axis=1) >= 2,
        "AAKKds": ranks_are(king, king, ace, ace) & double,
        "KQJTss": ranks_are(ten, jack, queen, king) & single,
        "JT98r": ranks_are(eight, nine, ten, jack) & rainbow,
        "AKxxds": (r == ace).any(axis=1) & (r == king).any(axis=1) & double,
    }
    expected = {name: set(map(tuple, hands[mask].tolist())) for name, mask in filters.items()}
    for name in filters:
        assert set(omaha_range(name, 4)) == expected[name], name
    assert len(expected["AAxx"]) == 6961 and len(expected["AAKKds"]) == 6
    assert len(omaha_range("random", 4)) == 270_725
    # case, commas and exact hands; a hand named twice is one hand
    assert omaha_range("aakkDS, AsAdKsKd AhAcKhKc", 4) == omaha_range("AAKKds", 4)
    assert omaha_range("AsAdKsKd", 4) == [tuple(sorted(parse_cards("AsAdKsKd"), reverse=True))]
    five = omaha_range("AAKKQds", 5)
    assert five and all(_suit_counts(h)[:2] in ([2, 2], [3, 2]) for h in five)
    assert range_size("AAxx") == 4 and range_size("AAxxx, KQJT9") == 5
    assert range_size("random") == 0 and range_size("AAxx, AAxxx") is None
    assert range_size("TT+") is None and range_size("AKs") is None


def test_range_mistakes_are_refused_in_both_languages() -> None:
    cases = [
        ("AAxz", 4, "'AAxz' is not an Omaha hand or class", "'AAxz' no es una mano ni una"),
        ("AAxxx", 4, "'AAxxx' is a hand of 5 cards, not 4", "'AAxxx' es una mano de 5 cartas"),
        ("AAAAA", 5, "no hand is in the Omaha range 'AAAAA'", "ninguna mano está en el rango"),
        ("AAKKQr", 5, "is not an Omaha hand or class", "no es una mano ni una clase de Omaha"),
    ]
    for text, size, en, es in cases:
        with pytest.raises(OmahaError) as info:
            omaha_range(text, size)
        assert en in info.value.message.en and es in info.value.message.es, info.value.message
    with pytest.raises(OmahaError) as info:
        omaha_equity(["AsAdKsKd", "QQxx"], exact=True)
    assert info.value.message.es == "la equity de Omaha con rangos es solo por Monte Carlo"
    with pytest.raises(OmahaError) as info:
        omaha_equity(["AsAdKsKd", "AAKKds"], "Ac7d9h")
    assert "no hand of the range 'AAKKds' is left" in info.value.message.en


def test_range_equity_is_the_average_over_its_hands() -> None:
    """A range's hands are dealt uniformly among those that miss the known cards: its equity
    is the mean of the exact equities of its live hands, within the sampling interval."""
    board = "2c7d9h"
    live = [h for h in omaha_range("QQJJds", 4) if not set(h) & set(parse_cards("AsAdKsKd2c7d9h"))]
    mean = sum(omaha_equity(["AsAdKsKd", list(h)], board).players[0].equity for h in live)
    mean /= len(live)
    r = omaha_equity(["AsAdKsKd", "QQJJds"], board, samples=6000, seed=2)
    assert not r.exact and r.players[1].hand == "QQJJds"
    assert r.players[0].interval is not None
    assert abs(r.players[0].equity - mean) < 4 * r.players[0].interval
    assert r == omaha_equity(["AsAdKsKd", "QQJJds"], board, samples=6000, seed=2)
    hl = omaha_hilo_equity(["As2dKsKd", "A2xx", "random"], board, samples=3000, seed=1)
    assert sum(p.equity for p in hl.players) == pytest.approx(1.0)
    assert all(p.equity == pytest.approx(p.high + p.low) for p in hl.players)
    assert main(["equity", "AsAdKsKd", "QQxx", "--board", board, "--samples", "2000"]) == 0
