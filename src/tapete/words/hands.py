"""Hands in words: what a hand makes ("a pair of fives"), with the kicker when the kicker
decides ("a pair of fives, ace kicker"), and one line of why when a kicker or a tie decides.

Strengths are the evaluator's (:mod:`tapete.ranking`): its ranks say which cards name a
hand and which are kickers. Spanish agrees in gender ("escalera a la reina", "reinas llenas"),
so each use of a rank is its own message context.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete.core.cards import Card, format_card
from tapete.core.game import HOLDEM, Game, best_hand
from tapete.core.text import Text
from tapete.ranking.tables import TABLES
from tapete.words.catalog import N_, NC_, t, tc

_ONE = (N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"),
        N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king"), N_("ace"))
_MANY = (N_("twos"), N_("threes"), N_("fours"), N_("fives"), N_("sixes"), N_("sevens"),
         N_("eights"), N_("nines"), N_("tens"), N_("jacks"), N_("queens"), N_("kings"),
         N_("aces"))
# a rank as the top of a straight or a flush ("queen high"; "a la reina")
_HIGH = (NC_("high", "two"), NC_("high", "three"), NC_("high", "four"), NC_("high", "five"),
         NC_("high", "six"), NC_("high", "seven"), NC_("high", "eight"), NC_("high", "nine"),
         NC_("high", "ten"), NC_("high", "jack"), NC_("high", "queen"), NC_("high", "king"),
         NC_("high", "ace"))
# the three of a full house ("queens" full of ...; "reinas llenas" de ...)
_FULL = (NC_("full", "twos"), NC_("full", "threes"), NC_("full", "fours"),
         NC_("full", "fives"), NC_("full", "sixes"), NC_("full", "sevens"),
         NC_("full", "eights"), NC_("full", "nines"), NC_("full", "tens"),
         NC_("full", "jacks"), NC_("full", "queens"), NC_("full", "kings"),
         NC_("full", "aces"))
# how many of a category's ranks name it; the rest are kickers
NAMED = (1, 1, 2, 1, 1, 1, 2, 1, 1)


def rank_one(rank: int) -> Text:
    """A rank, one card: "queen" / "reina"."""
    return t(_ONE[rank])


def rank_many(rank: int) -> Text:
    """A rank, several cards: "queens" / "reinas"."""
    return t(_MANY[rank])


def _high(rank: int) -> Text:
    return tc(*_HIGH[rank])


def ranks(strength: int) -> tuple[int, tuple[int, ...]]:
    """A strength's category and ranks: the ranks that name it first, then the kickers."""
    cat, rs = TABLES.class_info[strength]
    return int(cat), tuple(rs)


# each category's name, bare (a seat's label, a hand shown) and as said after "with" (a
# result: "with a pair of sevens"); the last is the royal flush
_BARE = (N_("{high} high"), N_("pair of {pair}"), N_("two pair, {high} and {low}"),
         N_("three of a kind, {three}"), N_("straight, {high} high"), N_("flush, {high} high"),
         N_("full house, {three} full of {two}"), N_("four of a kind, {four}"),
         N_("straight flush, {high} high"), N_("royal flush"))
_WITH = (NC_("with", "{high} high"), NC_("with", "a pair of {pair}"),
         NC_("with", "two pair, {high} and {low}"), NC_("with", "three of a kind, {three}"),
         NC_("with", "a straight, {high} high"), NC_("with", "a flush, {high} high"),
         NC_("with", "a full house, {three} full of {two}"), NC_("with", "four of a kind, {four}"),
         NC_("with", "a straight flush, {high} high"), NC_("with", "a royal flush"))


def name(strength: int, *, after_with: bool = False) -> Text:
    """What a hand makes: "pair of fives", "ace high", "full house, kings full of nines"
    ("pareja de cincos", "carta alta, as"); ``after_with``: as said after "with", "a pair of
    fives"."""
    cat, r = ranks(strength)
    args: dict[str, Text] = {}
    if cat in (0, 1, 3, 7):
        key = {0: "high", 1: "pair", 3: "three", 7: "four"}[cat]
        args[key] = rank_one(r[0]) if cat == 0 else rank_many(r[0])
    elif cat == 2:
        args = {"high": rank_many(r[0]), "low": rank_many(r[1])}
    elif cat in (4, 5, 8):
        args = {"high": _high(r[0])}
    elif cat == 6:
        args = {"three": tc(*_FULL[r[0]]), "two": rank_many(r[1])}
    i = 9 if cat == 8 and r[0] == 12 else cat
    if after_with:
        return tc(*_WITH[i], **args)
    return t(_BARE[i], **args)


def deciding_kicker(strength: int, other: int) -> int | None:
    """The rank of ``strength``'s kicker that beats or loses to ``other``'s, when both hands
    have the same name (the same pair, the same top card) and a kicker tells them apart;
    else ``None``."""
    cat, r = ranks(strength)
    cat2, r2 = ranks(other)
    n = NAMED[cat]
    if cat != cat2 or r[:n] != r2[:n] or r == r2:
        return None
    for a, b in zip(r[n:], r2[n:], strict=True):
        if a != b:
            return a
    return None


def low_name(strength: int) -> Text:
    """An eight-or-better low (:func:`tapete.core.game.best_low`'s strength) as dealers read
    it, highest card first: "8-6-4-2-A low" ("bajo 8-6-4-2-A")."""
    from tapete.ranking.low import describe_low

    return Text(describe_low(strength, "en"), describe_low(strength, "es"))


def name_against(strength: int, others: Sequence[int], *, after_with: bool = False) -> Text:
    """The name of ``strength``, with its kicker where a kicker tells it from one of
    ``others``: "pair of fives, ace kicker" ("pareja de cincos, as de kicker")."""
    base = name(strength, after_with=after_with)
    kicker = next((k for k in (deciding_kicker(strength, o) for o in others) if k is not None),
                  None)
    if kicker is None:
        return base
    return t("{hand}, {kicker} kicker", hand=base, kicker=rank_one(kicker))


def why(winner: str, strength: int, losers: Sequence[tuple[str, int]]) -> Text | None:
    """One line of why, when a kicker decided: "kicker: ace against Auditor's queen"
    (the best loser of the same name); ``None`` when the hands' names tell it."""
    for who, other in sorted(losers, key=lambda x: -x[1]):
        mine = deciding_kicker(strength, other)
        if mine is not None:
            theirs = deciding_kicker(other, strength)
            assert theirs is not None
            return t("kicker: {mine} against {who}'s {theirs}", mine=rank_one(mine), who=who,
                     theirs=rank_one(theirs))
    return None


def tie() -> Text:
    """Why a pot was split: the hands are equal."""
    return t("a tie: their best five cards are of equal value")


def best(hole: Sequence[Card], board: Sequence[Card], game: Game = HOLDEM) -> int:
    """The strength of the best hand that ``hole`` makes with ``board`` in ``game``."""
    return best_hand(game, hole, board)


def strength(hole: Sequence[Card], boards: Sequence[Sequence[Card]],
             game: Game = HOLDEM) -> Text:
    """What ``hole`` makes on each board of three cards or more, " / " between the boards of a
    run-it-more-than-once: "a pair of fives / two pair, fives and twos"."""
    names = [name(best(hole, b, game)) for b in boards if len(b) >= 3]
    return Text.join(names, " / ")


def preflop_name(hole: Sequence[Card]) -> str:
    """Two hole cards the way players write them: "AKs", "T9o", "77"; more (Omaha) as their
    cards, highest first: "AsAdKsKd"."""
    if len(hole) != 2:
        return "".join(format_card(c) for c in sorted(hole, reverse=True))
    a, b = sorted(hole, reverse=True)
    ra, rb = format_card(a)[0], format_card(b)[0]
    if ra == rb:
        return ra + rb
    return ra + rb + ("s" if a % 4 == b % 4 else "o")
