"""Omaha equity (high only): each known hand's share of the pot, exact or by Monte Carlo.

Every player holds a known hand of four cards (Omaha) or five (five-card Omaha), all of the
same size; a hand is the best five cards of exactly two of its own and three of the board
(:mod:`tapete.eval.evaluator.omaha`). Ranges are hold'em's (:func:`tapete.eval.equity.equity`).

Exact enumeration deals every rest of the board; it is the default when the board has three
cards or more (at most a few thousand boards) or when few cards are unknown (at most
:data:`EXACT_BOARDS` boards). Otherwise Monte Carlo samples boards with a seeded generator (the
same seed gives the same answer) and reports a 95 % interval. Both run in plain Python on the
scalar evaluator: a flop takes milliseconds, a preflop sample some tens of microseconds.

Mistakes (a hand of another size among Omaha hands, a range, a card twice) raise
:class:`OmahaError`, a :class:`~tapete.eval.equity.EquityError` whose ``message`` is in English
and Spanish.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from itertools import combinations

from tapete.core.cards import CardError, format_cards, parse_cards
from tapete.core.catalog import t
from tapete.core.game import OMAHA, OMAHA5, Game
from tapete.core.text import Text
from tapete.eval.equity import EquityError, EquityResult, PlayerEquity
from tapete.eval.evaluator.omaha import best_of_parts, board_part, hole_part

__all__ = [
    "EXACT_BOARDS",
    "SAMPLES",
    "OmahaError",
    "game_of",
    "omaha_equity",
    "omaha_size",
]

#: ``exact=None`` enumerates a board of fewer than three cards when there are at most this
#: many boards to deal (a deep table, or many dead cards: a second or two of work)
EXACT_BOARDS = 20_000
#: the default number of Monte Carlo samples (a second or two heads-up; the 95 % interval is
#: about half a point of equity)
SAMPLES = 50_000
MIN_PLAYERS = 2
_GAMES = {4: OMAHA, 5: OMAHA5}

HandSpec = str | Sequence[int]


class OmahaError(EquityError):
    """Omaha hands that cannot be dealt: ``message`` says why in English and Spanish
    (``str(exc)`` is the English)."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


def _label(spec: HandSpec) -> str:
    return spec if isinstance(spec, str) else format_cards(spec)


def _count(spec: HandSpec) -> int | None:
    """How many cards a player's text or card numbers are (None: not cards, say a range)."""
    if isinstance(spec, str):
        try:
            return len(parse_cards(spec, unique=False))
        except CardError:
            return None
    return len(spec)


def omaha_size(players: Sequence[HandSpec]) -> int | None:
    """4 or 5 when the players hold Omaha hands (the first hand of four or five cards decides),
    None when none does (hold'em hands or ranges, for :func:`tapete.eval.equity.equity`).
    :class:`OmahaError` when an Omaha hand is mixed with a hand of another size or a range."""
    counts = [_count(p) for p in players]
    size = next((c for c in counts if c in _GAMES), None)
    if size is None:
        return None
    for spec, count in zip(players, counts, strict=True):
        if count is None:
            raise OmahaError(t("{hand} is not a hand of {size} cards: with Omaha hands, every "
                               "player holds {size} known cards", hand=repr(_label(spec)),
                               size=size))
        if count != size:
            raise OmahaError(t("hand {hand} has {cards} cards: with Omaha hands, every player "
                               "holds {size} known cards", hand=_label(spec), cards=count,
                               size=size))
    return size


def game_of(size: int) -> Game:
    """The game whose players hold ``size`` cards (:data:`~tapete.core.game.OMAHA`: 4,
    :data:`~tapete.core.game.OMAHA5`: 5)."""
    return _GAMES[size]


def _cards(spec: HandSpec, what: Text) -> tuple[int, ...]:
    if isinstance(spec, str):
        try:
            return parse_cards(spec, unique=False)
        except CardError as exc:
            raise OmahaError(t("{what}: {why}", what=what, why=exc.message)) from None
    cards = tuple(int(c) for c in spec)
    for c in cards:
        if not 0 <= c < 52:
            raise OmahaError(t("{what}: not a card number: {card} (0..51)", what=what,
                               card=str(c)))
    return cards


def _prepare(players: Sequence[HandSpec], board: HandSpec, dead: HandSpec
             ) -> tuple[list[tuple[int, ...]], tuple[int, ...], list[int]]:
    """The hands, the board and the cards left in the deck, checked."""
    size = omaha_size(players)
    if size is None:
        raise OmahaError(t("Omaha equity needs hands of 4 or 5 known cards"))
    game = _GAMES[size]
    if not MIN_PLAYERS <= len(players) <= game.max_players:
        raise OmahaError(t("Omaha equity with {size} cards a hand needs {least} to {most} "
                           "players, not {n}", size=size, least=MIN_PLAYERS,
                           most=game.max_players, n=len(players)))
    hands = [_cards(p, t("hand {hand}", hand=_label(p))) for p in players]
    b = _cards(board, t("the board"))
    d = _cards(dead, t("the dead cards"))
    if len(b) not in (0, 3, 4, 5):
        raise OmahaError(t("a board has 0, 3, 4 or 5 cards, not {n}", n=len(b)))
    seen: dict[int, int] = {}  # card -> the place it was first seen in
    places = [(t("the board"), b), (t("the dead cards"), d)]
    places += [(t("hand {hand}", hand=_label(p)), h) for p, h in zip(players, hands,
                                                                      strict=True)]
    for k, (where, cards) in enumerate(places):
        for c in cards:
            first = seen.get(c)
            card = format_cards((c,))
            if first == k:
                raise OmahaError(t("{what}: {why}", what=where,
                                   why=t("card {card} appears twice", card=card)))
            if first is not None:
                raise OmahaError(t("card {card} appears twice ({first} and {second})",
                                   card=card, first=places[first][0], second=where))
            seen[c] = k
    rest = [c for c in range(52) if c not in seen]
    if len(rest) < 5 - len(b):
        raise OmahaError(t("not enough cards in the deck for everyone"))
    return hands, b, rest


def omaha_equity(
    players: Sequence[HandSpec],
    board: HandSpec = (),
    dead: HandSpec = (),
    *,
    exact: bool | None = None,
    samples: int = SAMPLES,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> EquityResult:
    """Each Omaha hand's equity (high only), as :func:`tapete.eval.equity.equity` reports it.

    ``players`` are known hands of 4 (or all of 5) cards: ``"AsAdKsKd"`` or card numbers.
    ``exact=None`` enumerates when the board has three cards or more, or when there are at most
    :data:`EXACT_BOARDS` boards to deal, and samples ``samples`` boards (seeded) otherwise;
    ``exact=True`` always enumerates (preflop heads-up: a million boards, about a minute).
    Raises :class:`OmahaError`."""
    started = time.perf_counter()
    hands, b, rest = _prepare(players, board, dead)
    n = len(hands)
    parts = [hole_part(h) for h in hands]
    need = 5 - len(b)
    boards = math.comb(len(rest), need)
    if exact is None:
        exact = len(b) >= 3 or boards <= EXACT_BOARDS
    wins = [0.0] * n
    ties = [0.0] * n
    eq = [0.0] * n
    eq2 = [0.0] * n
    everyone = range(n)

    def showdown(full: Sequence[int]) -> None:
        bp = board_part(full)
        scores = [best_of_parts(p, bp) for p in parts]
        top = max(scores)
        best = [i for i in everyone if scores[i] == top]
        if len(best) == 1:
            i = best[0]
            wins[i] += 1
            eq[i] += 1
            eq2[i] += 1
            return
        share = 1 / len(best)
        for i in best:
            ties[i] += 1
            eq[i] += share
            eq2[i] += share * share

    if exact:
        step = max(1, boards // 50)
        for k, extra in enumerate(combinations(rest, need), 1):
            showdown((*b, *extra))
            if progress is not None and k % step == 0:
                progress(k / boards)
        players_out = tuple(
            PlayerEquity(_label(p), wins[i], ties[i], eq[i] / boards)
            for i, p in enumerate(players))
        return EquityResult(boards, players_out, True, float(boards),
                            time.perf_counter() - started)

    if samples < 1:
        raise OmahaError(t("Monte Carlo needs at least one sample"))
    rng = random.Random(seed)
    sample = rng.sample
    step = max(1, samples // 50)
    for k in range(1, samples + 1):
        showdown((*b, *sample(rest, need)))
        if progress is not None and k % step == 0:
            progress(k / samples)
    out = []
    for i, p in enumerate(players):
        mean = eq[i] / samples
        var = max(eq2[i] / samples - mean * mean, 0.0) * (samples / max(samples - 1, 1))
        half = 1.959963984540054 * math.sqrt(var / samples)
        out.append(PlayerEquity(_label(p), wins[i], ties[i], mean, half))
    return EquityResult(samples, tuple(out), False, float(samples),
                        time.perf_counter() - started)
