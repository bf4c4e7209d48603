"""Hand ranges for the bots: preflop order, ranges as weights over the 1,326 starting hands,
narrowing by board class, and Monte Carlo equity against ranges with the scalar evaluator.

A range is a list of 1,326 float weights indexed by :data:`COMBOS`. Board classes are cached
per board (they depend on public cards only), so the six seats of a duplicate match share them.

Ranges are hold'em's by nature: a combo is two hole cards, and a hand is the best five of the
combo and a board of up to five cards (the any-five form of :data:`tapete.core.game.HOLDEM`).
So this module evaluates ``combo + board`` directly and does not ask ``rules.game``; a bot that
reads ranges first asks :func:`reads` whether the game is one they describe, and refuses
another (:class:`NotHoldem`) rather than misread it.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

import numpy as np
import numpy.typing as npt

from tapete.core.cards import RANKS, Card
from tapete.core.catalog import N_, t
from tapete.core.game import Game, HandForm
from tapete.core.text import Text
from tapete.eval.equity import hand_vs_ranges as _hand_vs_ranges
from tapete.eval.ranges import Range as _Range
from tapete.ranking import CLASSES, Category, category, evaluate
from tapete.ranking.bulk import evaluate_many

# The 169 starting-hand classes, strongest first: ordered by a blend of all-in equity against
# one and against three random hands (Monte Carlo, 30,000 and 12,000 deals per class).
_ORDER_TEXT = (
    "AA KK QQ JJ TT 99 AKs AQs 88 AKo AJs KQs AQo ATs 77 AJo KJs ATo A9s KQo KTs A8s QJs KJo "
    "A7s 66 K9s QTs A9o A6s KTo A5s JTs QJo A4s A8o Q9s K8s 55 A3s QTo A7o K7s A2s A5o JTo J9s "
    "K9o Q8s K6s A6o K5s A4o Q9o T9s J8s K8o Q7s 44 K4s A3o K3s T8s K7o J9o Q8o Q6s A2o J7s K2s "
    "K6o T9o T7s 98s Q5s Q4s K5o J8o 33 K4o Q3s Q7o 97s 87s J6s T8o Q2s J5s Q6o T6s 98o K3o J7o "
    "J4s 96s K2o 22 J3s Q5o 76s 86s T7o Q4o T5s 97o J2s T4s J6o 95s Q3o 87o 65s J5o 85s 75s T3s "
    "Q2o T6o T2s J4o 94s 96o J3o 86o 93s 84s 64s 54s 76o T5o 74s J2o T4o 92s 95o 83s 75o 65o "
    "85o 53s T3o 73s 82s 43s T2o 63s 94o 52s 93o 54o 84o 72s 74o 62s 42s 92o 64o 32s 53o 83o "
    "73o 63o 82o 43o 52o 62o 42o 72o 32o"
)
PREFLOP_ORDER: tuple[str, ...] = tuple(_ORDER_TEXT.split())

COMBOS: tuple[tuple[Card, Card], ...] = tuple(
    (a, b) for a in range(51, -1, -1) for b in range(a - 1, -1, -1))
COMBO_INDEX: dict[tuple[Card, Card], int] = {c: i for i, c in enumerate(COMBOS)}
N_COMBOS = len(COMBOS)  # 1326
COMBO_ARRAY = np.array(COMBOS, np.int64)
COMBO_MASK = np.array([(1 << a) | (1 << b) for a, b in COMBOS], np.int64)
Weights = npt.NDArray[np.float64]


def reads(game: Game) -> bool:
    """Whether ranges of two-card combos describe ``game``: two hole cards, a five-card board,
    the best five of the seven, high only (hold'em)."""
    return (game.hole_cards == 2 and game.board_cards == 5 and game.form is HandForm.ANY_FIVE
            and not game.high_low)


class NotHoldem(ValueError):
    """A bot that reads hold'em ranges was asked to play another game; ``message`` in English
    and Spanish."""

    def __init__(self, game: Game) -> None:
        self.message = t("{game}: this bot reads hold'em ranges (two hole cards, the best five"
                         " of seven) and does not play this game", game=game.name)
        super().__init__(self.message.en)


def class_name(a: Card, b: Card) -> str:
    """``(As, Kd)`` -> "AKo"; pairs have no suffix."""
    ra, rb = a >> 2, b >> 2
    if ra < rb:
        ra, rb = rb, ra
    if ra == rb:
        return RANKS[ra] * 2
    return RANKS[ra] + RANKS[rb] + ("s" if (a & 3) == (b & 3) else "o")


def _percentiles() -> tuple[list[float], dict[str, float]]:
    counts = {name: 6 if len(name) == 2 else (4 if name[2] == "s" else 12)
              for name in PREFLOP_ORDER}
    entry: dict[str, float] = {}
    cum = 0
    for name in PREFLOP_ORDER:
        cum += counts[name]
        entry[name] = cum / N_COMBOS
    return [entry[class_name(a, b)] for a, b in COMBOS], entry


# COMBO_PCT[i]: the smallest "top x" fraction of hands that contains combo i (AA: 0.0045).
COMBO_PCT, CLASS_PCT = _percentiles()


def hand_percentile(hole: Sequence[Card]) -> float:
    return CLASS_PCT[class_name(hole[0], hole[1])]


def top_range(width: float, capped: float = 0.0, cap_weight: float = 1.0) -> Weights:
    """The top ``width`` fraction of hands; the top ``capped`` of them only at ``cap_weight``
    (a caller who would have raised the very best hands). A new array each call."""
    return np.array(_top_range(round(width, 3), round(capped, 3), round(cap_weight, 2)))


@lru_cache(maxsize=1024)
def _top_range(width: float, capped: float, cap_weight: float) -> tuple[float, ...]:
    out = []
    for p in COMBO_PCT:
        if p <= width + 1e-9:
            out.append(cap_weight if p <= capped + 1e-9 else 1.0)
        else:
            out.append(0.0)
    return tuple(out)


def full_range() -> Weights:
    return np.ones(N_COMBOS)

# ---------------------------------------------------------------------------- board classes
MONSTER, TWO_PAIR, TOP_PAIR, WEAK_PAIR, DRAW, AIR = range(6)
CLASS_WORDS = (  # message ids: t(CLASS_WORDS[c])
    N_("very strong hands"),
    N_("two pairs"),
    N_("top pairs"),
    N_("weak pairs"),
    N_("draws"),
    N_("air"),
)
_CAT = [Category.HIGH_CARD] + [category(s) for s in range(1, CLASSES + 1)]


def straight_outs(mask: int) -> int:
    """How many ranks would complete a straight with the ranks in ``mask`` (bit r: rank r);
    0 when the ranks already hold one."""
    return int(_OUTS[mask])


def classify(hole: tuple[Card, Card], board: Sequence[Card], info: BoardInfo) -> int:
    """The class (MONSTER..AIR) of a hand on a board of 3 to 5 cards."""
    a, b = hole
    s = evaluate((a, b, *board))
    cat = _CAT[s]
    ra, rb = a >> 2, b >> 2
    counts = info.rank_counts
    top = info.top
    if cat >= Category.STRAIGHT:
        if info.strength is not None and s == info.strength:
            return AIR  # the board plays
        return MONSTER
    cls = AIR
    if cat == Category.THREE_OF_A_KIND:
        if counts[ra] == 3 or counts[rb] == 3:
            cls = AIR  # the trips are on the board
        elif ra == rb:
            cls = MONSTER  # a set
        else:
            cls = TWO_PAIR  # trips with one card
    elif cat == Category.TWO_PAIR:
        if ra != rb and counts[ra] and counts[rb]:
            cls = TWO_PAIR
        elif ra == rb:
            cls = TOP_PAIR if ra > top else WEAK_PAIR
        elif counts[ra] or counts[rb]:
            cls = TOP_PAIR if max(ra if counts[ra] else -1, rb if counts[rb] else -1) == top \
                else WEAK_PAIR
    elif cat == Category.ONE_PAIR:
        if ra == rb:
            cls = TOP_PAIR if ra > top else WEAK_PAIR
        elif counts[ra] or counts[rb]:
            hit = ra if counts[ra] else rb
            cls = TOP_PAIR if hit == top else WEAK_PAIR
    if cls == AIR and len(board) < 5:
        sa, sb = a & 3, b & 3
        suits = info.suits
        flush_draw = suits[sa] + 1 + (sb == sa) >= 4 or suits[sb] + 1 + (sa == sb) >= 4
        outs = straight_outs(info.mask | 1 << ra | 1 << rb)
        if flush_draw or (outs >= 2 and info.outs < 2):
            cls = DRAW
    return cls


class BoardInfo:
    __slots__ = ("board", "mask", "outs", "rank_counts", "strength", "suit_max", "suits", "top")

    def __init__(self, board: Sequence[Card]) -> None:
        self.board = tuple(board)
        self.rank_counts = [0] * 13
        self.suits = [0] * 4
        mask = 0
        for c in board:
            self.rank_counts[c >> 2] += 1
            self.suits[c & 3] += 1
            mask |= 1 << (c >> 2)
        self.mask = mask
        self.top = max(c >> 2 for c in board)
        self.suit_max = max(self.suits)
        self.outs = straight_outs(mask)
        self.strength = evaluate(board) if len(board) == 5 else None

    @property
    def paired(self) -> bool:
        return max(self.rank_counts) >= 2

    @property
    def wet(self) -> bool:
        """Flush or straight draws are likely (two or more of a suit with cards to come, or
        connected ranks)."""
        if len(self.board) < 5 and self.suit_max >= 2:
            return True
        if self.suit_max >= 3:
            return True
        ranks = sorted({c >> 2 for c in self.board})
        return any(ranks[i + 2] - ranks[i] <= 4 for i in range(len(ranks) - 2))

    def texture(self) -> Text:
        if self.suit_max >= 3 and len(self.board) >= 3:
            return t("a suited board")
        if self.paired:
            return t("a paired board")
        if self.wet:
            return t("a wet board")
        return t("a dry board")


@lru_cache(maxsize=256)
def board_info(board: tuple[Card, ...]) -> BoardInfo:
    return BoardInfo(board)


def _straight_tables() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    masks = np.arange(1 << 13, dtype=np.int64)

    def has(m: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        low = (m << 1) | ((m >> 12) & 1)
        out = np.zeros(m.shape, np.bool_)
        for lo in range(10):
            out |= ((low >> lo) & 31) == 31
        return out

    made = has(masks)
    outs = np.zeros(masks.shape, np.int64)
    for r in range(13):
        free = ((masks >> r) & 1) == 0
        outs += free & has(masks | (1 << r))
    outs[made] = 0
    return made, outs


_MADE, _OUTS = _straight_tables()
_CAT_ARRAY = np.array([int(c) for c in _CAT], np.int64)


@lru_cache(maxsize=256)
def board_classes(board: tuple[Card, ...]) -> npt.NDArray[np.int64]:
    """The class of every combo on ``board`` (6 where a combo shares a card with it): the same
    answer as :func:`classify`, for all 1,326 combos at once."""
    info = board_info(board)
    dead = 0
    for c in board:
        dead |= 1 << c
    idx = np.nonzero((COMBO_MASK & dead) == 0)[0]
    hands = np.empty((len(idx), 2 + len(board)), np.uint8)
    hands[:, :2] = COMBO_ARRAY[idx]
    hands[:, 2:] = board
    s = evaluate_many(hands).astype(np.int64)
    cat = _CAT_ARRAY[s]
    a = COMBO_ARRAY[idx, 0]
    b = COMBO_ARRAY[idx, 1]
    ra, rb = a >> 2, b >> 2
    counts = np.array(info.rank_counts, np.int64)
    ca, cb = counts[ra], counts[rb]
    top = info.top
    pocket = ra == rb
    hits = (ca > 0) | (cb > 0)
    cls = np.full(len(idx), AIR, np.int64)
    on_board = (ca == 3) | (cb == 3)
    trips = (cat == Category.THREE_OF_A_KIND) & ~on_board
    cls[trips & pocket] = MONSTER
    cls[trips & ~pocket] = TWO_PAIR
    tp = cat == Category.TWO_PAIR
    both = tp & ~pocket & (ca > 0) & (cb > 0)
    cls[both] = TWO_PAIR
    cls[tp & pocket & (ra > top)] = TOP_PAIR
    cls[tp & pocket & (ra <= top)] = WEAK_PAIR
    one = tp & ~pocket & ~both & hits
    hit = np.maximum(np.where(ca > 0, ra, -1), np.where(cb > 0, rb, -1))
    cls[one & (hit == top)] = TOP_PAIR
    cls[one & (hit != top)] = WEAK_PAIR
    op = cat == Category.ONE_PAIR
    cls[op & pocket & (ra > top)] = TOP_PAIR
    cls[op & pocket & (ra <= top)] = WEAK_PAIR
    paired = op & ~pocket & hits
    hit1 = np.where(ca > 0, ra, rb)
    cls[paired & (hit1 == top)] = TOP_PAIR
    cls[paired & (hit1 != top)] = WEAK_PAIR
    strong = cat >= Category.STRAIGHT
    cls[strong] = MONSTER
    if info.strength is not None:
        cls[strong & (s == info.strength)] = AIR
    if len(board) < 5:
        suits = np.array(info.suits, np.int64)
        sa, sb = a & 3, b & 3
        same = (sa == sb).astype(np.int64)
        flush_draw = (suits[sa] + 1 + same >= 4) | (suits[sb] + 1 + same >= 4)
        outs = _OUTS[info.mask | (1 << ra) | (1 << rb)]
        draws = flush_draw | ((outs >= 2) & (info.outs < 2))
        cls[(cls == AIR) & draws] = DRAW
    out = np.full(N_COMBOS, 6, np.int64)
    out[idx] = cls
    out.flags.writeable = False
    return out


def narrow(weights: Weights, board: tuple[Card, ...], factors: Sequence[float]) -> None:
    """Multiply each combo's weight by ``factors[class]`` on this board (in place)."""
    f = np.array([*factors, 0.0])
    weights *= f[board_classes(board)]


def composition(weights: Weights, board: tuple[Card, ...]) -> list[float]:
    """The share of each class (MONSTER..AIR) in a range on a board."""
    sums = np.bincount(board_classes(board), weights=weights, minlength=7)[:6]
    total = float(sums.sum())
    return [float(x) / total for x in sums] if total else [0.0] * 6


def range_words(weights: Weights, board: tuple[Card, ...]) -> Text:
    """"top pairs and draws": the one or two largest classes of a range on a board, or its
    width before the flop ("about 20 % of hands")."""
    if len(board) < 3:
        pct = round(100 * float(np.sum(weights)) / N_COMBOS)
        return t("about {pct} % of hands", pct=pct)
    comp = composition(weights, board)
    order = sorted(range(6), key=lambda c: -comp[c])
    words = t(CLASS_WORDS[order[0]])
    if comp[order[1]] >= 0.2:
        words = t("{first} and {second}", first=words, second=t(CLASS_WORDS[order[1]]))
    return words


def describe(weights: Weights, board: tuple[Card, ...]) -> Text:
    """"a range of top pairs and draws"."""
    w = range_words(weights, board)
    return t("a range of {words}", words=w)


def hand_class(hole: Sequence[Card], board: Sequence[Card]) -> int:
    a, b = hole
    return classify((a, b), board, board_info(tuple(board)))


# ---------------------------------------------------------------------------- equity
class Sampler:
    """Draws combos from a range in proportion to their weights."""

    __slots__ = ("combos", "cum", "total")

    def __init__(self, weights: Weights, dead: set[Card]) -> None:
        combos = []
        ws = []
        for i, w in enumerate(weights.tolist()):
            if w > 0.0:
                c = COMBOS[i]
                if c[0] not in dead and c[1] not in dead:
                    combos.append(c)
                    ws.append(w)
        if not combos:  # a range emptied by the board or our cards: any two cards
            combos = [c for c in COMBOS if c[0] not in dead and c[1] not in dead]
            ws = [1.0] * len(combos)
        self.combos = combos
        self.cum = list(accumulate(ws))
        self.total = self.cum[-1]


def equity(
    hole: Sequence[Card], board: Sequence[Card], ranges: Sequence[Weights],
    samples: int, rng: random.Random,
) -> float:
    """Monte Carlo share of the pot ``hole`` wins against one hand from each range: the
    compiled kernel of :mod:`tapete.eval.equity`, seeded from ``rng``; where the ranges cannot
    all be held at once, plain Python samples what can be."""
    dead = 0
    for c in (*hole, *board):
        dead |= 1 << c
    free = (COMBO_MASK & dead) == 0
    rs = []
    for weights in ranges:
        keep = free & (weights > 0.0)
        if not keep.any():  # emptied by the cards we see: any two cards
            keep = free
            weights = np.ones(N_COMBOS)
        combos = tuple(map(tuple, COMBO_ARRAY[keep].tolist()))
        rs.append(_Range("bot", combos, tuple(weights[keep].tolist())))
    try:
        return float(_hand_vs_ranges(tuple(hole), rs, tuple(board), samples,
                                     rng.randrange(1 << 31)))
    except ValueError:  # ranges that cannot all be held at once: sample what can be
        pass
    return equity_py(hole, board, ranges, samples // 4, rng)


def equity_py(
    hole: Sequence[Card], board: Sequence[Card], ranges: Sequence[Weights],
    samples: int, rng: random.Random,
) -> float:
    """The same estimate in plain Python with the scalar evaluator (slower: fewer samples)."""
    dead0 = {*hole, *board}
    samplers = [Sampler(w, dead0) for w in ranges]
    h0, h1 = hole
    board = tuple(board)
    need = 5 - len(board)
    rnd = rng.random
    got = 0.0
    done = 0
    for _ in range(samples):
        dead = set(dead0)
        opp: list[tuple[Card, Card]] = []
        for s in samplers:
            combos, cum, total = s.combos, s.cum, s.total
            for _try in range(12):
                a, b = combos[bisect_right(cum, rnd() * total) if len(combos) > 1 else 0]
                if a not in dead and b not in dead:
                    break
            else:
                break
            dead.add(a)
            dead.add(b)
            opp.append((a, b))
        if len(opp) < len(samplers):
            continue
        runout = board
        if need:
            extra: list[Card] = []
            while len(extra) < need:
                c = int(rnd() * 52)
                if c not in dead:
                    dead.add(c)
                    extra.append(c)
            runout = board + tuple(extra)
        me = evaluate((h0, h1, *runout))
        best = 0
        ties = 0
        for a, b in opp:
            v = evaluate((a, b, *runout))
            if v > best:
                best = v
                ties = 1
            elif v == best:
                ties += 1
        done += 1
        if me > best:
            got += 1.0
        elif me == best:
            got += 1.0 / (ties + 1)
    return got / done if done else 0.5
