"""The game as data: what a variant deals and how a hand is formed and ranked.

A :class:`Game` says how many hole cards each player gets, how many board cards each street
after preflop deals, how a player's hand is formed from hole and board (any five of them, as in
hold'em; or exactly two hole cards and three board cards, as in Omaha) and whether the pot is
played high or split high-low. :class:`~tapete.core.rules.Rules` carries one (``rules.game``);
the engine deals and settles from it, and every place that needs a hole-card count or the best
hand asks it (:func:`best_hand`) instead of assuming hold'em.

Five games are offered (:data:`GAMES`): hold'em (:data:`HOLDEM`), Omaha (:data:`OMAHA`: four
hole cards, exactly two of them and three board cards make the hand), five-card Omaha
(:data:`OMAHA5`) and their high-low eight-or-better forms (:data:`OMAHA_HI_LO`,
:data:`OMAHA5_HI_LO`: each pot is split between the best high and the best qualifying low,
docs/rules.md section 4). A game is only what is dealt and how the hand is formed: the betting
structure is the rules' (``Rules.structure``), so pot-limit Omaha is
``Rules(structure="pot-limit", game=OMAHA)`` and fixed-limit Omaha hi-lo (O8) is
``Rules(structure="fixed-limit", game=OMAHA_HI_LO)``. Adding a variant touches:

- here, a ``Game`` value in :data:`GAMES`; the engine deals, ends the streets and settles from
  it, and ``Rules.to_json`` carries it;
- for a new way to rank hands, :func:`best_hand` (the high) and :func:`best_low` (the
  eight-or-better low, from ``tapete.ranking.low``);
- outside the core, every place that deals with hole cards asks ``rules.game``: the bots
  (``tapete.bots.omaha`` for Omaha's games), the coach and the replayer's equity (hold'em's
  kernels, or ``tapete.eval.omaha``), the hand-history readers and writers (PHH's variant
  codes, PokerStars' game names), the words (hand names, low names, each half of a pot) and
  the tables (a room table's ``variant``). All-in insurance (``tapete.eval.insurance``)
  quotes high games only: a high-low pot has no one leader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from tapete.core.catalog import t
from tapete.core.text import Text

DECK_SIZE: Final = 52  # the cards a game deals from


class GameError(ValueError):
    """A game that cannot be read; ``message`` in English and Spanish."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


class HandForm(StrEnum):
    """How a player's five-card hand is formed."""

    ANY_FIVE = "any-five"  # the best five of the hole and board cards together (hold'em)
    TWO_PLUS_THREE = "two-plus-three"  # exactly two hole cards and three board cards (Omaha)


@dataclass(frozen=True, slots=True)
class Game:
    """A poker variant as data.

    ``hole_cards``: dealt to each player, face down, before the first betting round.
    ``streets``: the board cards each street after preflop deals, in order (hold'em: the flop
    3, the turn 1, the river 1). ``form``: how the hand is formed. ``high_low``: the pot is
    split between the best high and the best qualifying low hand (eight or better, formed as
    the high is: :func:`best_low`). ``max_players``: the most players one deck deals in
    (their hole cards and a complete board: 23 in hold'em, 11 in Omaha, 9 in five-card
    Omaha)."""

    name: str = "holdem"
    hole_cards: int = 2
    streets: tuple[int, ...] = (3, 1, 1)
    form: HandForm = HandForm.ANY_FIVE
    high_low: bool = False
    # worked out once from the fields above (every hand reads them): ``board_cards``, the
    # cards of a complete board; ``last_street``, the number of the last street (the river is
    # 3 in hold'em, preflop 0); street_of and cards_due for every board size
    board_cards: int = field(init=False, repr=False, compare=False)
    last_street: int = field(init=False, repr=False, compare=False)
    street_at: tuple[int, ...] = field(init=False, repr=False, compare=False)
    due_at: tuple[int, ...] = field(init=False, repr=False, compare=False)
    max_players: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "board_cards", sum(self.streets))
        object.__setattr__(self, "max_players", (DECK_SIZE - self.board_cards) // self.hole_cards)
        object.__setattr__(self, "last_street", len(self.streets))
        sizes = range(self.board_cards + 1)
        object.__setattr__(self, "street_at", tuple(self.street_of(k) for k in sizes))
        object.__setattr__(self, "due_at", tuple(self.cards_due(k) for k in sizes))

    def street_of(self, board_size: int) -> int:
        """The street the next board cards deal, on a board of ``board_size`` cards
        (1 the flop, 2 the turn, 3 the river in hold'em)."""
        dealt = 0
        for k, count in enumerate(self.streets):
            if board_size < dealt + count:
                return k + 1
            dealt += count
        return len(self.streets)

    def cards_due(self, board_size: int) -> int:
        """How many board cards the next street deals (0: the board is complete)."""
        dealt = 0
        for count in self.streets:
            dealt += count
            if board_size < dealt:
                return dealt - board_size
        return 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "hole_cards": self.hole_cards, "streets": list(self.streets),
                "form": self.form.value, "high_low": self.high_low}

    @staticmethod
    def from_json(data: object) -> Game:
        """A game from :meth:`to_json`'s form (or a known game's name); :class:`GameError`,
        naming the field, for anything else."""
        if isinstance(data, str):
            if data in GAMES:
                return GAMES[data]
            raise GameError(t("unknown game {game}", game=repr(data)))
        if not isinstance(data, dict):
            raise GameError(t("a game is a JSON object, not {data}", data=repr(data)))
        unknown = set(data) - {"name", "hole_cards", "streets", "form", "high_low"}
        if unknown:
            key = sorted(unknown)[0]
            raise GameError(t("unknown field {field} in a game", field=repr(key)))
        name = data.get("name", "holdem")
        hole = data.get("hole_cards", 2)
        streets = data.get("streets", [3, 1, 1])
        form = data.get("form", HandForm.ANY_FIVE.value)
        high_low = data.get("high_low", False)
        if not isinstance(name, str):
            raise GameError(t("game name: a text is needed"))
        if type(hole) is not int or hole < 1:
            raise GameError(t("hole_cards: a whole, positive number is needed"))
        if not isinstance(streets, list) or not all(type(x) is int and x > 0 for x in streets):
            raise GameError(t("streets: a list of whole, positive card counts is needed"))
        if form not in {f.value for f in HandForm}:
            raise GameError(t("form: {form} is not a way to form a hand", form=repr(form)))
        if type(high_low) is not bool:
            raise GameError(t("high_low: true or false"))
        game = Game(name, hole, tuple(streets), HandForm(str(form)), high_low)
        known = GAMES.get(name)
        return known if known == game else game  # a known game is its one value


HOLDEM: Final = Game()
#: four hole cards, exactly two of them with three board cards (pot-limit as a rule, but the
#: structure is the rules', not the game's)
OMAHA: Final = Game("omaha", 4, (3, 1, 1), HandForm.TWO_PLUS_THREE)
#: five-card Omaha: five hole cards, still exactly two of them
OMAHA5: Final = Game("omaha5", 5, (3, 1, 1), HandForm.TWO_PLUS_THREE)
#: Omaha hi-lo eight or better (PLO8 pot-limit, O8 fixed-limit): each pot split high/low
OMAHA_HI_LO: Final = Game("omaha-hi-lo", 4, (3, 1, 1), HandForm.TWO_PLUS_THREE, True)
#: five-card Omaha hi-lo eight or better
OMAHA5_HI_LO: Final = Game("omaha5-hi-lo", 5, (3, 1, 1), HandForm.TWO_PLUS_THREE, True)
GAMES: Final[dict[str, Game]] = {g.name: g for g in (HOLDEM, OMAHA, OMAHA5, OMAHA_HI_LO,
                                                     OMAHA5_HI_LO)}

# the hand evaluator, loaded at the first showdown (its tables take a tenth of a second)
_evaluate: Callable[[Sequence[int]], int] | None = None
_evaluate_omaha: Callable[[Sequence[int], Sequence[int]], int] | None = None
_evaluate_low: Callable[[Sequence[int]], int] | None = None
_evaluate_omaha_low: Callable[[Sequence[int], Sequence[int]], int] | None = None


def evaluator() -> Callable[[Sequence[int]], int]:
    """The evaluator of five to seven cards (:func:`tapete.ranking.evaluate`)."""
    global _evaluate
    if _evaluate is None:
        from tapete.ranking import evaluate

        _evaluate = evaluate
    return _evaluate


def omaha_evaluator() -> Callable[[Sequence[int], Sequence[int]], int]:
    """The evaluator of two hole cards and three board cards
    (:func:`tapete.ranking.omaha.evaluate_omaha`)."""
    global _evaluate_omaha
    if _evaluate_omaha is None:
        from tapete.ranking.omaha import evaluate_omaha

        _evaluate_omaha = evaluate_omaha
    return _evaluate_omaha


def best_hand(game: Game, hole: Sequence[int], board: Sequence[int]) -> int:
    """The strength of the best hand ``game`` lets a player form from ``hole`` and ``board``
    (the evaluator's scale: higher is better, equal is a tie). The board may be incomplete
    (five cards in all at least, for the any-five form; two plus three makes no hand, 0, from
    fewer than two hole cards or three board cards)."""
    if game.form is HandForm.ANY_FIVE:
        evaluate = _evaluate or evaluator()
        return evaluate((*hole, *board))
    if len(hole) < 2 or len(board) < 3:
        return 0
    return (_evaluate_omaha or omaha_evaluator())(hole, board)


def low_evaluators() -> tuple[Callable[[Sequence[int]], int],
                              Callable[[Sequence[int], Sequence[int]], int]]:
    """The eight-or-better low evaluators (:mod:`tapete.ranking.low`): of any five of
    five to seven cards, and of exactly two hole cards and three board cards."""
    global _evaluate_low, _evaluate_omaha_low
    if _evaluate_low is None or _evaluate_omaha_low is None:
        from tapete.ranking.low import evaluate_low, evaluate_omaha_low

        _evaluate_low, _evaluate_omaha_low = evaluate_low, evaluate_omaha_low
    return _evaluate_low, _evaluate_omaha_low


def best_low(game: Game, hole: Sequence[int], board: Sequence[int]) -> int:
    """The strength of the best eight-or-better low ``game`` lets a player form (A-5 lowball:
    straights and flushes do not count; higher is better, equal is a tie, 0: no qualifying
    low), formed as the high is: any five of the cards, or exactly two hole cards and three
    board cards. The board may be incomplete, as for :func:`best_hand`."""
    any_five, two_plus_three = low_evaluators()
    if game.form is HandForm.ANY_FIVE:
        return any_five((*hole, *board)) if len(hole) + len(board) >= 5 else 0
    if len(hole) < 2 or len(board) < 3:
        return 0
    return two_plus_three(hole, board)
