"""Omaha equity, high (:func:`omaha_equity`) or hi-lo (:func:`omaha_hilo_equity`): each known
hand's share of the pot, exact or by Monte Carlo.

Every player holds a known hand of four cards (Omaha) or five (five-card Omaha), all of the
same size; a hand is the best five cards of exactly two of its own and three of the board
(:mod:`tapete.ranking.omaha`), for the high and for the eight-or-better low alike
(:mod:`tapete.ranking.low`). A player may hold an Omaha range instead
(:mod:`tapete.eval.omaha_ranges`: ``"AAxx"``, ``"KQJTds"``, ``random``); equity with ranges is
by Monte Carlo, each sample dealing every range one of its hands.

Hi-lo splits each pot in two halves: the best high takes one, the best
qualifying low the other; with no low the high takes it all, and tied hands share their half,
so a pot can be scooped (one hand takes both halves), split, or quartered (a low tied in two
is a quarter of the pot each).

Exact enumeration deals every rest of the board; it is the default when the board has three
cards or more (at most a few thousand boards) or when few cards are unknown (at most
:data:`EXACT_BOARDS` boards). Otherwise Monte Carlo samples boards with a seeded generator (the
same seed gives the same answer) and reports a 95 % interval. Both run in a numba kernel on the
bulk Omaha path (:mod:`tapete.ranking.omaha_bulk`): a flop takes about a millisecond,
every preflop board of a heads-up hand (1,086,008) about half a second.

Mistakes (a hand of another size among Omaha hands, a range, a card twice) raise
:class:`OmahaError`, a :class:`~tapete.eval.equity.EquityError` whose ``message`` is in English
and Spanish.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tapete.core.cards import CardError, format_cards, parse_cards
from tapete.core.catalog import t
from tapete.core.game import OMAHA, OMAHA5, Game
from tapete.core.text import Text
from tapete.eval.equity import EquityResult, PlayerEquity
from tapete.eval.omaha_ranges import OmahaError as OmahaError
from tapete.eval.omaha_ranges import omaha_range, range_size
from tapete.ranking._jit import below, njit, seed_state
from tapete.ranking.omaha_bulk import (
    _high5_many,
    _low_many,
    evaluate_omaha_hilo_many,
    omaha_tables,
)

__all__ = [
    "EXACT_BOARDS",
    "SAMPLES",
    "HiLoEquity",
    "HiLoResult",
    "OmahaError",
    "game_of",
    "omaha_equity",
    "omaha_hilo_equity",
    "omaha_size",
    "warm_up",
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


def _label(spec: HandSpec) -> str:
    return spec if isinstance(spec, str) else format_cards(spec)


def _is_range(spec: HandSpec) -> bool:
    """Whether a player's text is not cards (an Omaha range, or something else)."""
    if not isinstance(spec, str):
        return False
    try:
        parse_cards(spec, unique=False)
    except CardError:
        return True
    return False


def _count(spec: HandSpec) -> int | None:
    """How many cards a player's text or card numbers are, or a hand of the player's Omaha
    range has (0: ``random``, any size; None: neither, say a hold'em range)."""
    if isinstance(spec, str):
        try:
            return len(parse_cards(spec, unique=False))
        except CardError:
            return range_size(spec)
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
        if count == 0:  # random: a hand of any size
            continue
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
    hands = [() if _is_range(p) else _cards(p, t("hand {hand}", hand=_label(p)))
             for p in players]  # a range's hands are dealt later
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


U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

# the columns of the kernel's per-player sums
WINS, TIES, EQ, EQ2, HIGH, LOW, SCOOP = range(7)


@dataclass(frozen=True, slots=True)
class HiLoEquity:
    """One hand's hi-lo result; every share is of the whole pot, averaged over the boards."""

    hand: str
    #: the expected share of the pot: ``high + low``
    equity: float
    #: the share of boards on which this hand alone takes the whole pot
    scoop: float
    #: the expected share of the pot won with the high (the whole pot when no low qualifies)
    high: float
    #: the expected share of the pot won with the low
    low: float
    #: half-width of the 95 % interval on ``equity`` (Monte Carlo only)
    interval: float | None = None


@dataclass(frozen=True, slots=True)
class HiLoResult:
    boards: int
    players: tuple[HiLoEquity, ...]
    exact: bool
    #: the share of boards on which some hand has a qualifying low
    low_qualifies: float
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"boards": self.boards, "exact": self.exact, "hi_lo": True,
                               "low_qualifies": self.low_qualifies, "players": []}
        for p in self.players:
            row: dict[str, Any] = {"hand": p.hand, "equity": p.equity, "scoop": p.scoop,
                                   "high": p.high, "low": p.low}
            if p.interval is not None:
                row["interval95"] = p.interval
            out["players"].append(row)
        return out


@njit
def _showdowns(hands: U8, known: U8, rest: U8, idx: I64, count: int, exact: bool,
               state: Any, hilo: bool, ck: I64, cb: I64, ro: Any, fl: Any, pidx: U8, bb: Any,
               lb: I64, ol: U8, sums: F64, lows: F64) -> None:
    """Deal ``count`` boards and add each hand's results to ``sums`` (a row per hand, the
    columns :data:`WINS` .. :data:`SCOOP`) and the boards with a low to ``lows[0]``.

    Exact: the boards are the combinations of ``rest`` from ``idx`` on, in order, and ``idx``
    is left at the next one. Monte Carlo: random boards from the generator ``state``."""
    n = hands.shape[0]
    m = known.shape[0]
    need = idx.shape[0]
    r = rest.shape[0]
    boards = np.empty((n, 5), np.uint8)
    for j in range(n):
        for x in range(m):
            boards[j, x] = known[x]
    high = np.empty(n, np.uint16)
    low = np.zeros(n, np.uint8)
    deck = rest.copy()
    s = state[0]
    for _ in range(count):
        if exact:
            for x in range(need):
                c = rest[idx[x]]
                for j in range(n):
                    boards[j, m + x] = c
            x = need - 1  # the next combination
            while x >= 0 and idx[x] == r - need + x:
                x -= 1
            if x >= 0:
                idx[x] += 1
                for y in range(x + 1, need):
                    idx[y] = idx[y - 1] + 1
        else:
            for x in range(need):  # a partial shuffle: the first ``need`` of the deck
                s, k = below(s, r - x)
                k += x
                c = deck[k]
                deck[k] = deck[x]
                deck[x] = c
                for j in range(n):
                    boards[j, m + x] = c
        _high5_many(hands, boards, ck, cb, ro, fl, pidx, bb, high)
        top = 0
        for j in range(n):
            top = max(top, int(high[j]))
        kh = 0
        for j in range(n):
            kh += high[j] == top
        best_low = 0
        if hilo:
            _low_many(hands, boards, lb, ol, low)
            for j in range(n):
                best_low = max(best_low, int(low[j]))
        kl = 0
        if best_low:
            lows[0] += 1
            for j in range(n):
                kl += low[j] == best_low
        half = 0.5 if best_low else 1.0
        for j in range(n):
            hi = half / kh if high[j] == top else 0.0
            lo = 0.5 / kl if best_low and low[j] == best_low else 0.0
            share = hi + lo
            if high[j] == top:
                sums[j, WINS if kh == 1 else TIES] += 1
            sums[j, EQ] += share
            sums[j, EQ2] += share * share
            sums[j, HIGH] += hi
            sums[j, LOW] += lo
            if share == 1.0:
                sums[j, SCOOP] += 1
    state[0] = s


def warm_up() -> None:
    """Load (after an install: compile and cache) the equity kernel, so that a timing counts
    the work, not the loading."""
    tb = omaha_tables()
    h = np.arange(8, dtype=np.uint8).reshape(2, 4)
    _showdowns(h, np.arange(8, 13, dtype=np.uint8), np.zeros(0, np.uint8), np.zeros(0, np.int64),
               1, True, seed_state(0), True, tb.board_key, tb.card_bit, tb.board_offsets,
               tb.flush, tb.pair_index, tb.board_best, tb.low_bit, tb.omaha_low,
               np.zeros((2, 7)), np.zeros(1))


def _deal(players: Sequence[HandSpec], board: HandSpec, dead: HandSpec, *, hilo: bool,
          exact: bool | None, samples: int, seed: int,
          progress: Callable[[float], None] | None) -> tuple[F64, float, int, bool]:
    """``(sums, boards with a low, boards, exact)``: the kernel's sums over every board or the
    samples, run in 50 steps for ``progress``."""
    hands, b, rest = _prepare(players, board, dead)
    if any(_is_range(p) for p in players):
        if exact:
            raise OmahaError(t("Omaha equity with ranges is by Monte Carlo only"))
        if samples < 1:
            raise OmahaError(t("Monte Carlo needs at least one sample"))
        ranged, with_low = _sample_ranges(players, hands, b, rest, hilo, samples, seed)
        if progress is not None:
            progress(1.0)
        return ranged, with_low, samples, False
    need = 5 - len(b)
    boards = math.comb(len(rest), need)
    if exact is None:
        exact = len(b) >= 3 or boards <= EXACT_BOARDS
    if not exact and samples < 1:
        raise OmahaError(t("Monte Carlo needs at least one sample"))
    total = boards if exact else samples
    tb = omaha_tables()
    h = np.array(hands, np.uint8)
    sums = np.zeros((len(hands), 7))
    lows = np.zeros(1)
    idx = np.arange(need, dtype=np.int64)
    state = seed_state(seed)
    step = max(1, total // 50)
    known = np.array(b, np.uint8)
    deck = np.array(rest, np.uint8)
    done = 0
    while done < total:
        count = min(step, total - done)
        _showdowns(h, known, deck, idx, count, exact,
                   state, hilo, tb.board_key, tb.card_bit, tb.board_offsets, tb.flush,
                   tb.pair_index, tb.board_best, tb.low_bit, tb.omaha_low, sums, lows)
        done += count
        if progress is not None:
            progress(done / total)
    return sums, float(lows[0]), total, exact


_NO_HANDS: npt.NDArray[np.uint8] = np.zeros((0, 4), np.uint8)


@lru_cache(maxsize=64)
def _range_array(text: str, size: int) -> npt.NDArray[np.uint8]:
    """:func:`omaha_range`'s hands as one array, read-only, made once per range: ``random``
    is every hand (270,725 of four cards), and turning that list into an array took most of
    a replayed street's time."""
    out = np.array(omaha_range(text, size), np.uint8).reshape(-1, size)
    out.setflags(write=False)
    return out


def _sample_ranges(players: Sequence[HandSpec], hands: list[tuple[int, ...]],
                   board: tuple[int, ...], rest: list[int], hilo: bool, samples: int,
                   seed: int) -> tuple[F64, float]:
    """The kernel's sums (see :func:`_showdowns`) by Monte Carlo when some players hold ranges:
    each sample deals every narrow range a hand of it (uniformly among its hands that collide
    with no known card, drawn again while two players' hands collide), then the hands of the
    players who may hold anything (``random``: every hand of the cards left) and the rest of
    the board straight from the cards left, in numpy; the hands are ranked on the bulk path.

    Dealing ``random`` from the deck gives the same distribution as drawing it from its range
    and drawing again on a collision (every narrow range's hands leave the same number of
    cards), but never draws again: with eight unknown hands at a table of nine, the draws
    again took half a minute a street (issue 29)."""
    size = omaha_size(players) or 4
    live = np.zeros(52, bool)
    live[rest] = True
    rng = np.random.default_rng(seed)
    n = len(players)
    everything = math.comb(52, size)  # the hands of a range that holds them all
    choices: list[npt.NDArray[np.uint8]] = []
    free: list[int] = []  # the players dealt from the deck
    for j, (p, h) in enumerate(zip(players, hands, strict=True)):
        if h:
            choices.append(np.array([h], np.uint8))
            continue
        text = p if isinstance(p, str) else ""
        cand = _NO_HANDS if text.strip().lower() in ("random", "any") else \
            _range_array(text, size)
        if cand is _NO_HANDS or len(cand) == everything:  # every hand: dealt from the deck
            free.append(j)
            choices.append(_NO_HANDS)
            continue
        cand = cand[live[cand].all(axis=1)]
        if not len(cand):
            raise OmahaError(t("no hand of the range {text} is left with these cards",
                               text=repr(text)))
        choices.append(cand)
    # the narrow ranges' hands are drawn (a known hand is its one hand, and its cards are
    # not live: no range's hand has them)
    drawn = [j for j in range(n) if not hands[j] and j not in free]
    bits = {j: np.bitwise_or.reduce(np.uint64(1) << choices[j].astype(np.uint64), axis=1)
            for j in drawn}
    picks = np.zeros((samples, n), np.int64)
    for j in drawn:
        picks[:, j] = rng.integers(0, len(choices[j]), samples)
    used = np.zeros(samples, np.uint64)
    for _ in range(1000):
        used = np.zeros(samples, np.uint64)
        clash = np.zeros(samples, bool)
        for j in drawn:
            m = bits[j][picks[:, j]]
            clash |= (used & m) != 0
            used |= m
        if not clash.any():
            break
        rows = np.flatnonzero(clash)
        for j in drawn:
            c = choices[j]
            if len(c) > 1:
                picks[rows, j] = rng.integers(0, len(c), len(rows))
    else:
        raise OmahaError(t("the ranges leave too few hands that do not share a card"))
    need = 5 - len(board)
    keys = rng.random((samples, 52))
    keys[:, ~live] = 2.0
    taken = ((used[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    keys[taken] = 2.0
    order = np.argsort(keys, axis=1)[:, :need + size * len(free)].astype(np.uint8)
    boards = np.empty((samples, 5), np.uint8)
    boards[:, :len(board)] = board
    boards[:, len(board):] = order[:, :need]
    dealt = {j: order[:, need + size * k:need + size * (k + 1)] for k, j in enumerate(free)}
    high = np.empty((n, samples), np.int64)
    low = np.zeros((n, samples), np.int64)
    for j, c in enumerate(choices):
        hi, lo = evaluate_omaha_hilo_many(dealt[j] if j in dealt else c[picks[:, j]], boards)
        high[j] = hi
        if hilo:
            low[j] = lo
    top = high.max(axis=0)
    is_top = high == top
    kh = is_top.sum(axis=0)
    best_low = low.max(axis=0)
    has_low = best_low > 0
    is_low = (low == best_low) & has_low
    kl = np.maximum(is_low.sum(axis=0), 1)
    hi_share = np.where(is_top, np.where(has_low, 0.5, 1.0) / kh, 0.0)
    lo_share = np.where(is_low, 0.5 / kl, 0.0)
    share = hi_share + lo_share
    sums = np.zeros((n, 7))
    sums[:, WINS] = (is_top & (kh == 1)).sum(axis=1)
    sums[:, TIES] = (is_top & (kh > 1)).sum(axis=1)
    sums[:, EQ] = share.sum(axis=1)
    sums[:, EQ2] = (share * share).sum(axis=1)
    sums[:, HIGH] = hi_share.sum(axis=1)
    sums[:, LOW] = lo_share.sum(axis=1)
    sums[:, SCOOP] = (share == 1.0).sum(axis=1)
    return sums, float(has_low.sum())


def _interval(sums: F64, j: int, n: int) -> float:
    """Half-width of the 95 % interval on hand ``j``'s mean share over ``n`` samples."""
    mean = sums[j, EQ] / n
    var = max(sums[j, EQ2] / n - mean * mean, 0.0) * (n / max(n - 1, 1))
    return 1.959963984540054 * math.sqrt(var / n)


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
    ``exact=True`` always enumerates (preflop heads-up: a million boards, about a second).
    Raises :class:`OmahaError`."""
    warm_up()
    started = time.perf_counter()
    sums, _, total, exact = _deal(players, board, dead, hilo=False, exact=exact,
                                  samples=samples, seed=seed, progress=progress)
    out = tuple(
        PlayerEquity(_label(p), float(sums[j, WINS]), float(sums[j, TIES]),
                     float(sums[j, EQ]) / total, None if exact else _interval(sums, j, total))
        for j, p in enumerate(players))
    return EquityResult(total, out, exact, float(total), time.perf_counter() - started)


def omaha_hilo_equity(
    players: Sequence[HandSpec],
    board: HandSpec = (),
    dead: HandSpec = (),
    *,
    exact: bool | None = None,
    samples: int = SAMPLES,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> HiLoResult:
    """Each Omaha hand's hi-lo (eight or better) equity: its share of the pot, how often it
    scoops, and its shares won with the high and with the low. The arguments are
    :func:`omaha_equity`'s. Raises :class:`OmahaError`."""
    warm_up()
    started = time.perf_counter()
    sums, lows, total, exact = _deal(players, board, dead, hilo=True, exact=exact,
                                     samples=samples, seed=seed, progress=progress)
    out = tuple(
        HiLoEquity(_label(p), float(sums[j, EQ]) / total, float(sums[j, SCOOP]) / total,
                   float(sums[j, HIGH]) / total, float(sums[j, LOW]) / total,
                   None if exact else _interval(sums, j, total))
        for j, p in enumerate(players))
    return HiLoResult(total, out, exact, lows / total, time.perf_counter() - started)
