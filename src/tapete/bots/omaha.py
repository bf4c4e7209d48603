"""Omaha for the five styles: preflop hand classes, nut-aware play after the flop, hi-lo.

:class:`~tapete.bots.strategy.StyleBot` plays hold'em with ranges of two-card combos; in an
Omaha game the engine offers (:func:`offered`: four or five hole cards, exactly two of them
with three of the board) it hands the decision to :func:`decide` here, with the same
:class:`~tapete.bots.style.Style` numbers, so one style is one set of numbers in every game.

**Preflop.** :func:`shape` scores a hand from what makes Omaha hands strong (the points are
:data:`PAIR_POINTS`, :data:`SUIT_POINTS`, :data:`GAP_POINTS` below):

- pairs by rank (aces 18 .. twos 3), a rank held three or four times counts once, less;
- suits: each suit held twice or more adds points by its top card (the ace, the nut flush
  blocker, counts most); at most two suits count (double-suited), a suit held three or four
  times counts less (it holds its own outs);
- connectedness: every two distinct ranks within four of each other add points, the closer
  the more (a rundown such as J-T-9-8 collects all six pairs), a little more when both are
  ten or higher (the straights that are the nuts), less when both are seven or lower;
- a dangler, a card that shares neither rank, suit nor a straight with the others, costs
  :data:`DANGLER` points (one of them for an ace);
- in hi-lo (``game.high_low``) low cards add points, ace-deuce most, and pairs other than
  aces count less (they win half a pot at best).

The score's place among random hands (:func:`percentile`: 0 is the best hand, 1 the worst,
from a fixed sample, so it is deterministic) is compared with the style's widths, as the hold'em
ranges are: the style's opening width by position times :data:`OPEN_WIDER` (Omaha equities run
closer, so every style plays more hands), its 3-bet and calling widths times
:data:`THREE_WIDER` and :data:`CALL_WIDER`. Raises are the engine's options: in pot-limit a
3-bet is the pot (``legal.max_to``), an open is the style's size or the pot, whichever is less.

**After the flop.** :func:`read` says what the hand is against this board: its strength, whether
it is the nuts (no two unseen cards beat it, the hand's own cards blocking), the share of unseen
two-card holdings that beat it, the board's threats (a flush, a straight, a pair), the draws
and how many outs make the nuts (the nut flush draw, wraps), the nut flush blocker, and in hi-lo
the low made, the nut low and the low draws. :func:`equity` deals a small seeded Monte Carlo
sample against the ranges the opponents' actions make plausible (:class:`OppRange`: a preflop
width, then made hands or draws for a bet or a call on each street). Pot odds, implied odds for
nut draws, the stack-to-pot ratio and the board's texture then decide, with the style's
thresholds; in hi-lo the equity counts half a pot for each half won (quartered or scooped).
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final, Protocol

from tapete.bots import ranges as R
from tapete.bots.seats import open_width, players_behind, position_name
from tapete.bots.style import OpponentStats, Style
from tapete.bots.view import Decision, SeatView
from tapete.core import events as ev
from tapete.core.betting import Legal
from tapete.core.cards import Card, format_cards
from tapete.core.catalog import N_, t, tn
from tapete.core.game import GAMES, Game, HandForm
from tapete.core.rules import Structure
from tapete.core.text import Text
from tapete.ranking import Category, category
from tapete.ranking.low import LOW_BIT, NO_LOW, low_ranks, omaha_low_of_masks
from tapete.ranking.omaha import BoardPart, best_of_parts, board_part, hole_part
from tapete.words.hands import name as hand_name
from tapete.words.hands import rank_many

__all__ = [
    "OppRange",
    "Read",
    "Shape",
    "StylePlayer",
    "decide",
    "equity",
    "offered",
    "percentile",
    "plays",
    "read",
    "shape",
    "weak",
]

# ---------------------------------------------------------------------------- the games


def plays(game: Game) -> bool:
    """Whether the Omaha strategy describes ``game``: four or five hole cards, exactly two of
    them with three of a board dealt three, one, one (high, or hi-lo when ``high_low``)."""
    return (game.form is HandForm.TWO_PLUS_THREE and game.hole_cards in (4, 5)
            and game.streets == (3, 1, 1))


def offered(game: Game) -> bool:
    """Whether ``game`` is an Omaha game the engine offers (:data:`tapete.core.game.GAMES`)
    that :func:`plays` describes: the games the styles play. A made-up game of the same shape
    is refused (:class:`~tapete.bots.ranges.NotHoldem`), as any game the bots were not built
    for."""
    return plays(game) and GAMES.get(game.name) == game


# ---------------------------------------------------------------------------- preflop

#: points of a pair by rank (twos .. aces)
PAIR_POINTS: Final = (3.0, 3.0, 3.0, 3.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 14.0, 18.0)
#: points of a suit held twice or more, by its top card: ace, king, queen, lower
SUIT_POINTS: Final = {12: 8.0, 11: 5.0, 10: 4.0}
SUIT_LOW: Final = 3.0
#: points of two distinct ranks by their distance (1: connected .. 4: three gaps)
GAP_POINTS: Final = {1: 4.0, 2: 3.0, 3: 2.0, 4: 1.0}
BROADWAY: Final = 8  # a ten: connected cards from here make the high straights
LOW_STRAIGHT: Final = 5  # a seven: connected cards up to here make the low straights
DANGLER: Final = 4.0
#: hi-lo: points of the best two low ranks held (ace-deuce, ace-trey, ace-four, trey-deuce;
#: ranks highest first) and of each low card (eight or lower)
LOW_POINTS: Final = {(12, 0): 12.0, (12, 1): 9.0, (12, 2): 6.0, (1, 0): 4.0}
LOW_CARD: Final = 1.5
HI_LO_PAIRS: Final = 0.6  # hi-lo: a pair other than aces wins half a pot at best
#: Omaha plays wider than hold'em with the same style
OPEN_WIDER: Final = 1.35
THREE_WIDER: Final = 1.2
CALL_WIDER: Final = 1.6

_PAIR_WORD = {12: N_("aces"), 11: N_("kings")}
_RUNDOWN = N_("a rundown")
_GAPPED = N_("a gapped rundown")
_THREE_CONNECTED = N_("three connected cards")
_DOUBLE = N_("double-suited")
_SINGLE_ACE = N_("suited to the ace")
_SINGLE = N_("single-suited")
_RAINBOW = N_("rainbow")
_DANGLER = N_("a dangler")
_LOW_CARDS = N_("good low cards")


@dataclass(frozen=True, slots=True)
class Shape:
    """What a starting hand is made of, and its score (higher is better)."""

    score: float
    pairs: tuple[int, ...]  # ranks held twice or more, highest first
    suits: int  # suits held twice or more (at most two count)
    suited_ace: bool  # an ace with another card of its suit: the nut flush draw
    run: int  # the most distinct ranks within a window of five (a rundown: four)
    gaps: int  # the missing ranks inside that window
    dangler: bool
    low: bool  # hi-lo: an ace with a deuce or trey, or three low cards

    def describe(self, hole: Sequence[Card]) -> Text:
        """"AsKsQdJd (a rundown, double-suited)": the cards and what they are."""
        parts: list[Text] = []
        if len(self.pairs) >= 2:
            parts.append(t("two pair, {high} and {low}", high=rank_many(self.pairs[0]),
                           low=rank_many(self.pairs[1])))
        elif self.pairs:
            r = self.pairs[0]
            parts.append(t(_PAIR_WORD[r]) if r in _PAIR_WORD else t("pair of {pair}",
                                                                     pair=rank_many(r)))
        if self.run >= 4:
            parts.append(t(_RUNDOWN if self.gaps == 0 else _GAPPED))
        elif self.run == 3 and self.gaps <= 1 and not self.pairs:
            parts.append(t(_THREE_CONNECTED))
        if self.suits >= 2:
            parts.append(t(_DOUBLE))
        elif self.suits == 1:
            parts.append(t(_SINGLE_ACE if self.suited_ace else _SINGLE))
        else:
            parts.append(t(_RAINBOW))
        if self.low:
            parts.append(t(_LOW_CARDS))
        if self.dangler:
            parts.append(t(_DANGLER))
        cards = format_cards(sorted(hole, reverse=True))
        return t("{cards} ({kind})", cards=cards, kind=Text.join(parts, ", "))


def _rank_mask(cards: Sequence[Card]) -> int:
    """14 bits: bit 0 an ace played low, bits 1..13 the twos .. the aces."""
    m = 0
    for c in cards:
        r = c >> 2
        m |= 1 << (r + 1)
        if r == 12:
            m |= 1
    return m


def shape(hole: Sequence[Card], high_low: bool = False) -> Shape:
    """The starting hand's classes and score (see the module's notes)."""
    ranks = [c >> 2 for c in hole]
    count = [0] * 13
    for r in ranks:
        count[r] += 1
    score = 0.0
    pairs = tuple(r for r in range(12, -1, -1) if count[r] >= 2)
    for r in pairs:
        pts = PAIR_POINTS[r] * (HI_LO_PAIRS if high_low and r != 12 else 1.0)
        score += pts - (6.0 if count[r] == 3 else 12.0 if count[r] == 4 else 0.0)
    by_suit: dict[int, list[int]] = {}
    for c in hole:
        by_suit.setdefault(c & 3, []).append(c >> 2)
    suit_scores = []
    for rs in by_suit.values():
        if len(rs) >= 2:
            top = max(rs)
            pts = SUIT_POINTS.get(top, SUIT_LOW) + top / 12
            suit_scores.append(pts - (1.0 if len(rs) == 3 else 3.0 if len(rs) >= 4 else 0.0))
    suit_scores.sort(reverse=True)
    score += sum(suit_scores[:2])
    suited_ace = any(12 in rs and len(rs) >= 2 for rs in by_suit.values())
    distinct = sorted(set(ranks))
    for a, b in combinations(distinct, 2):
        d = b - a
        if d in GAP_POINTS:  # low straights are seldom the nuts: they count less
            score += GAP_POINTS[d] * (1.0 if b > LOW_STRAIGHT else 0.7) + (
                1.0 if a >= BROADWAY else 0.0)
        elif a == 12 or b == 12:  # the ace low: a wheel straight, worth a little
            low = a if b == 12 else b
            if low <= 3:
                score += 0.5
    score += 0.5 * sum(1 for r in ranks if r >= BROADWAY)
    mask = _rank_mask(hole)
    run = gaps = 0
    for k in range(10):
        w = mask >> k & 0x1F
        n = w.bit_count()
        if n > run or (n == run and n and _span_gaps(w) < gaps):
            run, gaps = n, _span_gaps(w)
    dangler = False
    for i, c in enumerate(hole):
        r, s = c >> 2, c & 3
        others = [o for j, o in enumerate(hole) if j != i]
        if any(o >> 2 == r or o & 3 == s for o in others):
            continue
        if any(0 < abs((o >> 2) - r) <= 4 for o in others):
            continue
        if r == 12 and any(o >> 2 <= 3 for o in others):
            continue
        dangler = True
        score -= 1.0 if r == 12 else DANGLER
    low = False
    if high_low:
        lows = sorted({r for r in ranks if r <= 6 or r == 12}, reverse=True)
        best = max((LOW_POINTS.get((a, b), 0.0) for a, b in combinations(lows, 2)), default=0.0)
        score += best + LOW_CARD * len(lows)
        low = best >= LOW_POINTS[(12, 1)] or (12 in lows and len(lows) >= 3)
    return Shape(score, pairs, min(2, len(suit_scores)), suited_ace, run, gaps, dangler, low)


def _span_gaps(window: int) -> int:
    """The missing ranks between the lowest and highest bits of a five-bit window."""
    if not window:
        return 0
    lo = (window & -window).bit_length() - 1
    hi = window.bit_length() - 1
    return hi - lo + 1 - window.bit_count()


_SAMPLE: Final = 6000


@lru_cache(maxsize=8)
def ranked(cards: int, high_low: bool) -> tuple[tuple[float, tuple[Card, ...]], ...]:
    """A fixed sample of random hands of ``cards`` cards (a seeded deal: the same every run)
    with their scores, the best first: the scale of :func:`percentile`, and the hands the
    opponents' ranges are drawn from."""
    rng = random.Random(16 * cards + high_low)
    deck = list(range(52))
    hands = [tuple(rng.sample(deck, cards)) for _ in range(_SAMPLE)]
    return tuple(sorted(((shape(h, high_low).score, h) for h in hands), reverse=True))


@lru_cache(maxsize=8)
def _scores(cards: int, high_low: bool) -> tuple[float, ...]:
    return tuple(sorted(s for s, _ in ranked(cards, high_low)))


def percentile(hole: Sequence[Card], high_low: bool = False) -> float:
    """The hand's place among random hands of its size: 0 the best, 1 the worst."""
    return score_percentile(shape(hole, high_low).score, len(hole), high_low)


def score_percentile(score: float, cards: int, high_low: bool) -> float:
    xs = _scores(cards, high_low)
    mid = (bisect_left(xs, score) + bisect_right(xs, score)) / 2
    return 1.0 - mid / len(xs)


# ---------------------------------------------------------------------------- after the flop

_STRAIGHT: Final = tuple(0x1F << k for k in range(9, -1, -1))  # windows, the highest first


def straight_top(hole_mask: int, board_mask: int) -> int:
    """The highest straight two of the hole ranks and three of the board ranks make (9: to the
    ace .. 0: the wheel), -1 for none. Masks are :func:`_rank_mask`'s."""
    for i, w in enumerate(_STRAIGHT):
        miss = w & ~board_mask
        if miss.bit_count() <= 2 and not miss & ~hole_mask and (hole_mask & w).bit_count() >= 2:
            return 9 - i
    return -1


def board_straight_top(board_mask: int) -> int:
    """The highest straight any two cards make on the board, -1 for none."""
    for i, w in enumerate(_STRAIGHT):
        if (w & ~board_mask).bit_count() <= 2:
            return 9 - i
    return -1


@lru_cache(maxsize=512)
def _holdings(board: tuple[Card, ...]) -> tuple[tuple[int, int, int], ...]:
    """Every two unseen cards' strength on ``board`` (an Omaha hand plays exactly two),
    strongest first: (strength, card, card). Public cards only, so the seats share it. Two
    cards of the same ranks rank alike unless they are suited in a suit the board shows three
    of, so each such class is ranked once."""
    bp = board_part(board)
    flush_suits = bp[1]
    rest = [c for c in range(52) if c not in board]
    known: dict[tuple[int, int, int], int] = {}
    out = []
    for a, b in combinations(rest, 2):
        suit = a & 3
        key = (a >> 2, b >> 2, suit if suit == b & 3 and suit in flush_suits else -1)
        s = known.get(key)
        if s is None:
            s = known[key] = best_of_parts(hole_part((a, b)), bp)
        out.append((s, a, b))
    out.sort(reverse=True)
    return tuple(out)


@lru_cache(maxsize=512)
def _by_card(board: tuple[Card, ...]) -> tuple[list[int], dict[Card, list[int]],
                                                 dict[tuple[Card, Card], int]]:
    """:func:`_holdings` for counting: every strength ascending, the strengths of the
    holdings that hold each card ascending, and each holding's strength."""
    every: list[int] = []
    card: dict[Card, list[int]] = {}
    pair: dict[tuple[Card, Card], int] = {}
    for s, a, b in reversed(_holdings(board)):
        every.append(s)
        card.setdefault(a, []).append(s)
        card.setdefault(b, []).append(s)
        pair[(a, b)] = pair[(b, a)] = s
    return every, card, pair


def beaten_share(hole: Sequence[Card], board: tuple[Card, ...], mine: int) -> float:
    """The share of the two-card holdings the hand does not block that beat ``mine``: all
    those above it, less those that hold one of the hand's cards (a holding of two of them
    taken away twice is given back once)."""
    every, card, pair = _by_card(board)
    beat = len(every) - bisect_right(every, mine)
    total = len(every)
    held = [c for c in hole if c in card]
    for c in held:
        xs = card[c]
        beat -= len(xs) - bisect_right(xs, mine)
        total -= len(xs)
    for a, b in combinations(held, 2):
        total += 1
        beat += pair[(a, b)] > mine
    return beat / max(1, total)


@dataclass(frozen=True, slots=True)
class Read:
    """What a hand is on this board (see :func:`read`)."""

    strength: int  # the high hand (the evaluator's 1..7462)
    nuts: bool  # no unseen two cards beat it
    beaten: float  # share of unseen two-card holdings that beat it
    flush_board: bool  # three or more of a suit on the board
    straight_board: bool  # a straight is possible
    paired_board: bool
    flush_draw: int  # 0 none, 1 a flush draw, 2 the nut flush draw
    straight_outs: int  # cards that make a straight the hand does not have yet
    nut_outs: int  # cards that make the nuts (the nut flush, the nut straight)
    blocker: bool  # the nut flush card of a suit the board shows three of, without the flush
    low: int  # hi-lo: the low made (1..56, 0 none)
    nut_low: bool  # ... and it is the best low possible
    low_draw: int  # hi-lo, before the river: 0 none, 1 a low draw, 2 the nut low draw

    @property
    def category(self) -> Category:
        return category(self.strength)

    def draw_outs(self) -> int:
        return self.straight_outs + (9 if self.flush_draw else 0)

    def words(self, high_low: bool) -> Text:
        """"flush, ace high, the nuts", "pair of nines, the nut flush draw, a wrap (13 outs)"."""
        made = hand_name(self.strength)
        if self.nuts:
            made = t("{hand}, the nuts", hand=made)
        elif self.beaten <= 0.01 and self.category >= Category.STRAIGHT:
            made = t("{hand}, close to the nuts", hand=made)
        parts = [made]
        if self.flush_draw == 2:
            parts.append(t("the nut flush draw"))
        elif self.flush_draw:
            parts.append(t("a flush draw"))
        if self.straight_outs >= 9:
            parts.append(t("a wrap ({n} outs)", n=self.straight_outs))
        elif self.straight_outs >= 4:
            parts.append(t("a straight draw ({n} outs)", n=self.straight_outs))
        if self.blocker:
            parts.append(t("the nut flush blocker"))
        if high_low:
            if self.low:
                word = "-".join("A" if r == 12 else str(r + 2) for r in low_ranks(self.low))
                low = t("a {cards} low", cards=word)
                parts.append(t("{low}, the nut low", low=low) if self.nut_low else low)
            elif self.low_draw == 2:
                parts.append(t("the nut low draw"))
            elif self.low_draw:
                parts.append(t("a low draw"))
        return Text.join(parts, ", ")


def _low_mask(cards: Sequence[Card]) -> int:
    m = 0
    for c in cards:
        m |= LOW_BIT[c]
    return m


def best_low(board_mask: int, dead_mask: int = 0) -> int:
    """The best low any two low ranks make with this board (0: none yet)."""
    best = NO_LOW
    for a, b in combinations(range(8), 2):
        s = omaha_low_of_masks((1 << a) | (1 << b), board_mask)
        if s > best:
            best = s
    return best


def read(hole: Sequence[Card], board: Sequence[Card], high_low: bool = False) -> Read:
    """The hand against the board (three to five cards): made hand, nuts, draws, low."""
    b = tuple(board)
    mine = best_of_parts(hole_part(hole), board_part(b))
    beaten = beaten_share(hole, b, mine)
    seen = set(hole) | set(b)
    hm, bm = _rank_mask(hole), _rank_mask(b)
    suits_b = [sum(1 for c in b if c & 3 == s) for s in range(4)]
    river = len(b) >= 5
    flush_draw = 0
    blocker = False
    for s in range(4):
        mine_s = [c >> 2 for c in hole if c & 3 == s]
        top_free = max((r for r in range(13) if r * 4 + s not in b), default=-1)
        if suits_b[s] >= 3 and category(mine) < Category.FLUSH and top_free * 4 + s in hole:
            blocker = True
        if not river and suits_b[s] == 2 and len(mine_s) >= 2:
            flush_draw = max(flush_draw, 2 if top_free in mine_s else 1)
    straight_outs = nut_outs = 0
    have = straight_top(hm, bm)
    if not river:
        for r in range(13):
            left = sum(1 for s in range(4) if r * 4 + s not in seen)
            if not left:
                continue
            nb = bm | 1 << (r + 1) | (1 if r == 12 else 0)
            top = straight_top(hm, nb)
            if top > have:
                straight_outs += left
                if top == board_straight_top(nb) and max(suits_b) < 2:
                    nut_outs += left
        if flush_draw == 2:
            nut_outs += 9
    low = NO_LOW
    nut_low = False
    low_draw = 0
    if high_low:
        lh, lb = _low_mask(hole), _low_mask(b)
        low = omaha_low_of_masks(lh, lb)
        if low:
            nut_low = low >= best_low(lb)
        elif not river and lb.bit_count() >= 1:
            free = [k for k in range(8) if not lb >> k & 1]
            mine_free = [k for k in free if lh >> k & 1]
            if len(mine_free) >= 2:
                low_draw = 2 if mine_free[:2] == free[:2] else 1
    return Read(mine, beaten == 0.0, beaten, max(suits_b) >= 3,
                board_straight_top(bm) >= 0, len({c >> 2 for c in b}) < len(b),
                flush_draw, straight_outs, nut_outs, blocker, low, nut_low, low_draw)


# ---------------------------------------------------------------------------- ranges

#: the share of bets after the flop a player makes without a hand near the top of the board
#: or a draw, a priori
BLUFFS: Final = 0.2


def weak(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """Whether a hand shown down is one that bets only as a bluff: below the top
    :data:`CALLED_TOP` of the final board's two-card holdings."""
    b = tuple(board)
    return best_of_parts(hole_part(hole), board_part(b)) < _threshold(b, CALLED_TOP)


@dataclass(frozen=True, slots=True)
class OppRange:
    """The hands an opponent plausibly holds: preflop, the top ``width`` of hands (the top
    ``capped`` of them kept only ``cap_weight`` of the time: a caller who would have raised
    them); after the flop, for each street it bet or raised (``aggressive``) or called
    (``called``), a made hand near the top of that street's board (:data:`AGGRESSIVE_TOP`,
    :data:`CALLED_TOP`: nut-aware, not by category) or a draw, else a bluff or a float kept
    only ``bluff`` or ``floats`` of the time."""

    width: float = 1.0
    capped: float = 0.0
    cap_weight: float = 1.0
    aggressive: tuple[int, ...] = ()
    called: tuple[int, ...] = ()
    raised: tuple[int, ...] = ()  # of the aggressive streets, those it raised (tighter)
    bluff: float = BLUFFS
    floats: float = 0.3
    draws: float = 0.8  # how often a draw bets or raises (fewer from a player who seldom bluffs)


def opponent_range(view: SeatView, p: int, loose: float = 1.0,
                   bluffs: float = BLUFFS) -> OppRange:
    """What ``p``'s actions this hand say of its cards; ``loose`` and ``bluffs`` are the reads
    of past hands: how much wider than a typical player it enters
    (:meth:`~tapete.bots.strategy.StyleBot._reads`, 1 a priori) and the share of the hands it
    showed after betting that were :func:`weak` (:data:`BLUFFS` a priori): its bets without
    the goods are kept that often."""
    raises = 0
    level = 0
    width, capped, cap_w = 1.0, 0.0, 1.0
    for a in view.actions:
        if a.street != 0:
            break
        if a.action in (ev.BET, ev.RAISE):
            raises += 1
            if a.player == p:
                level = 2
                width = {1: 0.30, 2: 0.12}.get(raises, 0.06)
                capped = 0.0
        elif a.action == ev.CALL and a.player == p and level <= 1:
            level = 1
            width, capped, cap_w = {0: (0.65, 0.05, 0.4), 1: (0.45, 0.06, 0.4)}.get(
                raises, (0.25, 0.03, 0.5))
    aggressive = tuple(s for s in range(1, view.street + 1) if any(
        a.street == s and a.player == p and a.action in (ev.BET, ev.RAISE)
        for a in view.actions))
    raised = tuple(s for s in aggressive if any(
        a.street == s and a.player == p and a.action == ev.RAISE for a in view.actions))
    called = tuple(s for s in range(1, view.street + 1) if s not in aggressive and any(
        a.street == s and a.player == p and a.action == ev.CALL for a in view.actions))
    return OppRange(min(1.0, width * loose), capped, cap_w, aggressive, called, raised,
                    bluff=min(1.0, bluffs), floats=min(1.0, 0.3 * loose),
                    draws=min(1.0, DRAWS * bluffs / BLUFFS))


def _has_draw(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """A flush draw or eight straight outs or more (before the river)."""
    for s in range(4):
        if sum(1 for c in board if c & 3 == s) == 2 and sum(1 for c in hole if c & 3 == s) >= 2:
            return True
    return _straight_ranks(_rank_mask(hole), _rank_mask(board)) >= 2


@lru_cache(maxsize=1 << 16)
def _straight_ranks(hole_mask: int, board_mask: int) -> int:
    """How many ranks, coming, give the hand a higher straight than it has."""
    have = straight_top(hole_mask, board_mask)
    return sum(1 for r in range(13)
               if straight_top(hole_mask, board_mask | 1 << (r + 1) | (r == 12)) > have)


def _fits(h: Sequence[Card], spec: OppRange, board: tuple[Card, ...], high_low: bool,
          parts: dict[int, BoardPart], rng: random.Random) -> bool:
    """Whether a hand of the range's preflop width also fits its actions after the flop (a
    weighted coin for bluffs and floats)."""
    hp = hole_part(h)
    for street, keep in ([(s, spec.bluff) for s in spec.aggressive]
                         + [(s, spec.floats) for s in spec.called]):
        sb = board[: street + 2]
        bp = parts.get(street)
        if bp is None:
            bp = parts[street] = board_part(sb)
        top = CALLED_TOP
        if street in spec.aggressive:
            top = RAISED_TOP if street in spec.raised else AGGRESSIVE_TOP
        if best_of_parts(hp, bp) >= _threshold(sb, top):
            continue
        if street < 3 and _has_draw(h, sb) and (street in spec.called
                                                 or rng.random() < spec.draws):
            continue
        if high_low and omaha_low_of_masks(_low_mask(h), _low_mask(sb)):
            continue
        if rng.random() < (keep if street < 3 else keep * RIVER_BLUFFS):
            continue
        return False
    return True


#: a bet after the flop holds a made hand in the top share of two-card holdings on that board
#: (a hand plays six pairs: about three hands in ten hold one), a raise a narrower share, a
#: call a wider one; draws bet less often for a player whose bets are seldom bluffs;
#: bluffs on the river are rarer than the draws and bluffs before it
AGGRESSIVE_TOP: Final = 0.06
RAISED_TOP: Final = 0.03
CALLED_TOP: Final = 0.15
DRAWS: Final = 0.8  # the share of draws that bet or raise, a priori
RIVER_BLUFFS: Final = 0.5


@lru_cache(maxsize=2048)
def _threshold(board: tuple[Card, ...], top: float) -> int:
    """The strength of the weakest two-card holding in the ``top`` share on ``board``."""
    held = _holdings(board)
    return held[min(len(held) - 1, int(top * len(held)))][0]


#: Monte Carlo deals per equity estimate, and opponent hands drawn per range (a pool the deals
#: pick from), with the most tries to fill a pool
SAMPLES: Final = 80
POOL: Final = 24
TRIES: Final = 120


def _pool(spec: OppRange, known: set[Card], size: int, board: tuple[Card, ...],
          high_low: bool, rng: random.Random) -> list[tuple[Card, ...]]:
    """Hands of ``size`` cards, none of them ``known``, that ``spec`` holds: drawn from the
    top ``width`` of :func:`ranked`'s hands, then kept if they fit the actions (the last
    tries when few do: a range the board has emptied still holds something)."""
    hands = ranked(size, high_low)
    top = max(1, round(spec.width * len(hands)))
    capped = round(spec.capped * len(hands))
    out: list[tuple[Card, ...]] = []
    tried: list[tuple[Card, ...]] = []
    parts: dict[int, BoardPart] = {}
    for _ in range(TRIES):
        i = rng.randrange(top)
        h = hands[i][1]
        if known.intersection(h) or (i < capped and rng.random() > spec.cap_weight):
            continue
        if _fits(h, spec, board, high_low, parts, rng):
            out.append(h)
            if len(out) >= POOL:
                break
        else:
            tried.append(h)
    if not out and not tried:  # every hand of the width collides with the known cards
        deck = [c for c in range(52) if c not in known]
        return [tuple(rng.sample(deck, size))]
    return out or tried[-POOL:]


def equity(hole: Sequence[Card], board: Sequence[Card], ranges: Sequence[OppRange],
           rng: random.Random, *, high_low: bool = False, samples: int | None = None) -> float:
    """The hand's share of the pot against one hand from each range (Monte Carlo, ``rng``
    seeded by the caller): ties split; in hi-lo each half goes to its best hand, the high
    taking all when no low qualifies. ``samples``: :data:`SAMPLES` unless given. On the river
    each drawn hand is ranked once."""
    b = tuple(board)
    known = set(hole) | set(b)
    deck = [c for c in range(52) if c not in known]
    mine = hole_part(hole)
    my_low = _low_mask(hole)
    river = len(b) == 5
    bp_river = board_part(b) if river else None
    lb_river = _low_mask(b)
    # per drawn hand: its cards, its pairs, its low ranks, and on the river its high and low
    pools = []
    for r in ranges:
        pool = []
        for h in _pool(r, known, len(hole), b, high_low, rng):
            hp, lm = hole_part(h), _low_mask(h)
            hi = best_of_parts(hp, bp_river) if bp_river else 0
            lo = omaha_low_of_masks(lm, lb_river) if river and high_low else 0
            pool.append((h, hp, lm, hi, lo))
        pools.append(pool)
    me_river = best_of_parts(mine, bp_river) if bp_river else 0
    my_low_river = omaha_low_of_masks(my_low, lb_river) if river and high_low else 0
    need = 5 - len(b)
    total = 0.0
    done = 0
    for _ in range(samples or SAMPLES):
        used: set[Card] = set()
        opps = []
        for pool in pools:
            pick = pool[rng.randrange(len(pool))]
            if used.intersection(pick[0]):
                break
            used.update(pick[0])
            opps.append(pick)
        if len(opps) < len(pools):
            continue
        if river:
            me, theirs = me_river, [o[3] for o in opps]
            my, lows = my_low_river, [o[4] for o in opps]
        else:
            rest = [c for c in deck if c not in used]
            full = b + tuple(rng.sample(rest, need))
            bp = board_part(full)
            me, theirs = best_of_parts(mine, bp), [best_of_parts(o[1], bp) for o in opps]
            my, lows = 0, []
            if high_low:
                lb = _low_mask(full)
                my, lows = omaha_low_of_masks(my_low, lb), [omaha_low_of_masks(o[2], lb)
                                                            for o in opps]
        total += _share(me, theirs, my, lows)
        done += 1
    return total / done if done else 0.0


def _share(me: int, theirs: list[int], my_low: int, lows: list[int]) -> float:
    """The share of one pot: the high split among the best highs; with a low that qualifies
    (``lows`` empty: high only), half to the high and half to the best lows."""
    top = max(theirs)
    high = 1.0 if me > top else 0.0 if me < top else 1.0 / (1 + theirs.count(me))
    best = max(lows, default=NO_LOW)
    best = max(best, my_low)
    if best == NO_LOW:
        return high
    low = 0.0 if my_low < best else 1.0 / (1 + lows.count(best))
    return (high + low) / 2


# ---------------------------------------------------------------------------- deciding

class StylePlayer(Protocol):
    """The bot an Omaha decision is made for: :class:`~tapete.bots.strategy.StyleBot`, which
    hands its decisions in an Omaha game to :func:`decide`. Its style, its seeded generator and
    its reads of the opponents, and the hold'em strategy's own ways to read, size and word an
    action, so that one style plays alike in every game."""

    style: Style
    rng: random.Random
    stats: dict[str, OpponentStats]

    def _reads(self, view: SeatView, p: int) -> tuple[float, float, float]: ...

    def _softness(self, view: SeatView, players: list[int]) -> float: ...

    def _raise(self, view: SeatView, legal: Legal, to: int, why: Text) -> Decision: ...

    def _call(self, view: SeatView, legal: Legal, why: Text) -> Decision: ...

    def _fold(self, legal: Legal, why: Text) -> Decision: ...

    def _commit(self, view: SeatView, legal: Legal, hand: str | Text, price: float, eq: float,
                involved: list[int], versus: Text) -> Decision: ...

    def _price_call(self, view: SeatView, legal: Legal, eq: float, need: float, eq_txt: Text,
                    price: float) -> Decision: ...

    def _bet_at(self, view: SeatView, opps: list[int]) -> tuple[float, float]: ...

    def _bet(self, view: SeatView, legal: Legal, frac: float, info: R.BoardInfo,
             eq_txt: Text, purpose: Text) -> Decision: ...


def decide(bot: StylePlayer, view: SeatView, legal: Legal) -> Decision:
    """The style's answer in an Omaha game (preflop classes, then the nut-aware read)."""
    if view.street == 0:
        return _preflop(bot, view, legal)
    return _postflop(bot, view, legal)


def _pct(x: float) -> int:
    return round(100 * x)


def _pot_raise(bot: StylePlayer, view: SeatView, legal: Legal, frac: float, why: Text) -> Decision:
    """Raise (or bet) ``frac`` of the pot after calling, the legal maximum at most."""
    to = legal.call_to + round(frac * (view.pot + legal.call))
    return bot._raise(view, legal, to, why)


def _preflop(bot: StylePlayer, view: SeatView, legal: Legal) -> Decision:
    st = bot.style
    rng = bot.rng
    seat = view.seat
    bb = view.big_blind
    hl = view.rules.game.high_low
    sh = shape(view.hole, hl)
    p = score_percentile(sh.score, len(view.hole), hl)
    hand = sh.describe(view.hole)
    acts = view.street_actions(0)
    raises = [a for a in acts if a.action in (ev.BET, ev.RAISE)]
    limpers = sum(1 for a in acts if a.action == ev.CALL) if not raises else 0
    pos = position_name(view, seat)
    jitter = 0.85 + 0.3 * rng.random()
    chips_total = legal.stack + legal.bet
    can_raise = legal.can_raise
    behind = players_behind(view, seat)

    if not raises:
        width = min(1.0, open_width(view, seat) * st.open * OPEN_WIDER)
        width *= 0.8 if limpers else 1.0
        if st.exploit:  # loose players behind: open wider
            order = view.preflop_order
            width = min(1.0, width * bot._softness(view, [
                q for q in order[order.index(seat) + 1:] if not view.folded[q]]))
        in_range = p <= width * jitter
        why_in = t("{hand} is in my top {pct} % from {position}", hand=hand, pct=_pct(width),
                   position=pos)
        if legal.check:
            if can_raise and p <= width * 0.35 * jitter:
                return _pot_raise(bot, view, legal, 1.0, t(
                    "{hand} is strong enough to punish the limpers", hand=hand))
            return bot._call(view, legal, t("{hand}, free to see the flop", hand=hand))
        if in_range and can_raise and (not st.limp or p <= 0.05):
            size = round((st.open_size + limpers + (0.5 if behind == 1 else 0)) * bb)
            return bot._raise(view, legal, size, why_in)
        if in_range or (behind == 1 and p <= width * 1.6
                        and legal.call * 4 <= legal.pot_after_call):
            return bot._call(view, legal, why_in)
        return bot._fold(legal, t("{hand} is outside my top {pct} % from {position}",
                                  hand=hand, pct=_pct(width), position=pos))

    last = raises[-1]
    price = legal.call / (legal.pot_after_call or 1)
    n_raises = len(raises)
    if n_raises == 1:
        attack, defend = st.three * THREE_WIDER, st.call * CALL_WIDER
        if behind == 0:
            defend *= 1.5
        size_bb = last.to / bb
        if size_bb > 4:
            defend *= (4 / size_bb) ** 0.5
        what = t("an open from {position}", position=position_name(view, raises[0].player))
    elif n_raises == 2:
        attack, defend = st.four * THREE_WIDER, st.call3 * CALL_WIDER
        what = t("a 3-bet")
    else:
        attack, defend = st.jam * 0.6, st.jam * 0.5
        what = t("a {n}-bet", n=n_raises + 1)
    if st.exploit:  # a loose raiser's range is weak: re-raise and defend wider
        soft = bot._softness(view, [last.player])
        attack *= soft
        defend *= soft
    if legal.call >= 0.35 * chips_total or last.all_in:
        return _preflop_committed(bot, view, legal, hand, price)
    attack *= jitter
    defend *= jitter
    if can_raise and p <= attack:
        return bot._raise(view, legal, legal.max_to or 0, t(
            "{hand} is in my top {pct} % against {what}", hand=hand, pct=_pct(attack),
            what=what))
    if p <= attack + defend:
        return bot._call(view, legal, t(
            "{hand} is in my calling range against {what}; the price is {pct} %",
            hand=hand, what=what, pct=_pct(price)))
    if can_raise and n_raises == 1 and sh.suited_ace and p <= 0.5 \
            and rng.random() < st.bluff * 0.15:
        return bot._raise(view, legal, legal.max_to or 0, t("a 3-bet bluff with {hand}",
                                                            hand=hand))
    return bot._fold(legal, t("{hand} is too weak against {what}", hand=hand, what=what))


def _involved(view: SeatView) -> list[int]:
    seat = view.seat
    out = sorted({a.player for a in view.street_actions(0)
                  if a.action in (ev.CALL, ev.BET, ev.RAISE) and a.player != seat
                  and not view.folded[a.player]})
    return out or view.opponents()


def _range(bot: StylePlayer, view: SeatView, p: int) -> OppRange:
    loose = bot._reads(view, p)[0]
    st = bot.stats.get(view.names[p]) if bot.style.adapt else None
    if st is None:
        return opponent_range(view, p, loose)
    # the weak share of its bets shown down, BLUFFS a priori (worth six showdowns)
    return opponent_range(view, p, loose, (st.bet_weak + BLUFFS * 6) / (st.bet_shown + 6))


def _preflop_committed(bot: StylePlayer, view: SeatView, legal: Legal, hand: Text,
                       price: float) -> Decision:
    """A call that commits the stack: equity against the ranges of the players in."""
    involved = _involved(view)
    ranges = [_range(bot, view, q) for q in involved]
    eq = equity(view.hole, (), ranges, bot.rng, high_low=view.rules.game.high_low)
    versus = tn("{n} player's range", "{n} players' ranges", len(involved))
    return bot._commit(view, legal, hand, price, eq, involved, versus)


def _postflop(bot: StylePlayer, view: SeatView, legal: Legal) -> Decision:
    st = bot.style
    rng = bot.rng
    hl = view.rules.game.high_low
    opps = view.opponents()
    k = len(opps)
    rd = read(view.hole, view.board, hl)
    ranges = [_range(bot, view, q) for q in opps]
    eq = equity(view.hole, view.board, ranges, rng, high_low=hl)
    norm = min(1.0, eq * (k + 1) / 2) if k > 1 else eq
    pot = view.pot
    price = legal.call / (pot + legal.call) if legal.call else 0.0
    versus = tn("{n} player's range", "{n} players' ranges", k)
    eq_txt = t("{hand}: {equity} % equity against {versus}", hand=rd.words(hl),
               equity=_pct(eq), versus=versus)
    others = [view.stacks[q] for q in opps]
    eff = min(legal.stack, max(others, default=legal.stack))
    spr = eff / max(1, pot)
    river = view.street >= view.rules.game.last_street
    limit = view.rules.structure is Structure.FIXED_LIMIT
    info = R.board_info(view.board)
    nut_draw = not river and (rd.nut_outs >= 8 or rd.low_draw == 2)
    draw = not river and (rd.draw_outs() >= 8 or rd.low_draw > 0)
    # a strong hand that is not the nuts on a board that threatens it plays for less
    nutted = rd.nuts or (hl and rd.nut_low and rd.category >= Category.TWO_PAIR)
    if not rd.nuts and rd.beaten > 0.08 and (rd.flush_board or rd.paired_board):
        norm *= 0.9
    if not legal.check:
        implied = 0.06 if nut_draw and not limit and spr > 1.5 else 0.0
        need = price + st.call_margin - implied
        if legal.can_raise and (norm >= st.raise_at or (nutted and norm >= st.bet_at)):
            frac = 1.0 if norm >= 0.8 or spr <= 2 else st.sizes[2]
            return _pot_raise(bot, view, legal, frac, t("{equity}; raising for value",
                                                         equity=eq_txt))
        if legal.can_raise and nut_draw and rd.draw_outs() >= 12 and spr > 1 \
                and rng.random() < st.bluff_raise * 1.5:
            return _pot_raise(bot, view, legal, 1.0, t("{equity}; a semi-bluff with my draw",
                                                       equity=eq_txt))
        return bot._price_call(view, legal, eq, need, eq_txt, price)

    folds, bet_at = bot._bet_at(view, opps)
    if legal.can_raise and (norm >= bet_at or (nutted and not river)):
        small, medium, large = st.sizes
        frac = large if norm >= 0.8 or (info.wet and norm >= 0.7) else medium
        if norm < 0.65 and not info.wet:
            frac = small
        return bot._bet(view, legal, min(1.0, frac), info, eq_txt, t("for value"))
    aggressor = any(a.player == view.seat and a.action in (ev.BET, ev.RAISE)
                    for a in view.actions if a.street == view.street - 1)
    bluff = st.bluff * (1.5 if aggressor else 1.0) * (1.4 if draw else 1.0)
    bluff *= (1.4 if rd.blocker else 1.0) * 0.4 ** (k - 1)
    bluff *= min(2.0, max(0.1, (folds / 0.4) ** 2))  # players who fold less see fewer
    if rd.category in (Category.ONE_PAIR, Category.TWO_PAIR) and not draw:
        bluff *= 0.4  # something to show down
    if legal.can_raise and rng.random() < bluff:
        frac = st.sizes[1] if info.wet else st.sizes[0]
        return bot._bet(view, legal, min(1.0, frac), info, eq_txt, t("as a bluff"))
    return bot._call(view, legal, t("{equity}, not enough to bet", equity=eq_txt))

