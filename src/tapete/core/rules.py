"""Room rules as one frozen object: structure, blinds, antes, straddle, caps, rake, display.

Everything that varies between card rooms lives here, so the betting and pot code never reads
a scattered flag. Amounts are integers of the table's smallest unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from tapete.core.catalog import t
from tapete.core.game import HOLDEM, Game, GameError, HandForm
from tapete.core.text import Text


class Structure(StrEnum):
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"

    @classmethod
    def parse(cls, text: str) -> Structure:
        key = text.strip().lower()
        aliases = {"nl": cls.NO_LIMIT, "pl": cls.POT_LIMIT, "fl": cls.FIXED_LIMIT,
                   "limit": cls.FIXED_LIMIT}
        if key in aliases:
            return aliases[key]
        return cls(key)


class MinRaise(StrEnum):
    """How large the smallest raise is.

    ``LAST_RAISE``: TDA Rule 45, a raise adds at least the largest full bet or raise increment
    of the street (no-limit everywhere). ``LAST_BET``: a raise adds at least the largest bet
    *total* of the street (the room's pot-limit rule: after a raise to 7 the smallest is to 14).
    """

    LAST_RAISE = "last-raise"
    LAST_BET = "last-bet"


class OddChip(StrEnum):
    """Who gets the chips a split pot cannot divide."""

    LEFT_OF_BUTTON = "left-of-button"  # first tied winner clockwise from the button, pot by pot


class RulesError(ValueError):
    """Room rules that cannot be played (a big blind of zero, a cap of one bet...);
    ``message`` in English and Spanish (``str(exc)`` is the English)."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one table.

    ``ante`` is paid by every player, unless ``big_blind_ante`` is set: then the big blind pays
    one ante for the whole table, of size ``ante``. ``straddle`` is a live third blind posted
    under the gun (0 for none). Fixed-limit bets are ``small_bet`` (preflop, flop) and
    ``big_bet`` (turn, river); they default to the big blind and twice the big blind.
    ``bet_cap`` counts bets per street (preflop the big blind is the first), ``None`` for no cap.
    ``rake_percent`` is a whole or decimal percentage given in basis points (``500`` = 5 %).
    ``rake_fixed`` is the rake of one hand as its history states it, pot by pot (main pot
    first): when set, exactly that is taken, whatever ``rake_bps``, the cap and "no flop, no
    drop" say (a hand history's rake is a fact of the hand, not a rule to recompute).
    ``decimals``/``currency`` only change how amounts are shown.
    ``hand_cap`` makes a cap game (PokerStars' "$80 Cap"): the most chips one player may put
    into one hand, antes and blinds included. A player who reaches it is all-in for the
    betting (nobody bets against chips that cannot be called), and the rest of the stack stays
    in front of them, theirs whatever happens; ``None`` for no cap.
    ``game`` is the variant as data (:class:`~tapete.core.game.Game`): hole cards, streets,
    how a hand is formed: hold'em (:data:`~tapete.core.game.HOLDEM`, the default), Omaha
    (:data:`~tapete.core.game.OMAHA`, :data:`~tapete.core.game.OMAHA5`), with any structure.
    ``bounty_72`` is a home game's 7-2 bounty (0 for none; hold'em only): a player who wins a
    pot, or part of one, with a seven and a deuce shown collects it from every other player
    dealt in, each paying what they have left when short (docs/rules.md, "Home games").
    """

    structure: Structure = Structure.NO_LIMIT
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    big_blind_ante: bool = False
    straddle: int = 0
    small_bet: int = 0
    big_bet: int = 0
    bet_cap: int | None = 4
    cap_heads_up: bool = True
    min_raise: MinRaise | None = None
    odd_chip: OddChip = OddChip.LEFT_OF_BUTTON
    rake_bps: int = 0
    rake_cap: int | None = None
    no_flop_no_drop: bool = True
    decimals: int = 0
    currency: str = ""
    extra: tuple[tuple[str, str], ...] = field(default=())
    rake_fixed: tuple[int, ...] | None = None
    hand_cap: int | None = None
    game: Game = HOLDEM
    bounty_72: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.structure, str) and not isinstance(self.structure, Structure):
            object.__setattr__(self, "structure", Structure.parse(self.structure))
        if isinstance(self.min_raise, str) and not isinstance(self.min_raise, MinRaise):
            object.__setattr__(self, "min_raise", MinRaise(self.min_raise))
        amounts = ("small_blind", "big_blind", "ante", "straddle", "small_bet", "big_bet",
                   "rake_bps", "decimals", "bounty_72")
        for name in amounts:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(t("{name} must be a whole number of chips, not {value}",
                                   name=name, value=repr(value)))
        if self.hand_cap is not None and (not isinstance(self.hand_cap, int)
                                          or isinstance(self.hand_cap, bool)
                                          or self.hand_cap <= 0):
            raise RulesError(t("hand_cap must be a whole, positive number of chips or None"))
        for name in ("bet_cap", "rake_cap"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value < 0):
                raise RulesError(t("{name} must be a whole, non-negative number or None",
                                   name=name))
        if self.big_blind <= 0:
            raise RulesError(t("the big blind must be at least one chip"))
        if not 0 <= self.small_blind <= self.big_blind:
            raise RulesError(t("the small blind must be between 0 and the big blind"))
        if self.ante < 0 or self.straddle < 0 or self.rake_bps < 0:
            raise RulesError(t("antes, straddles and rake cannot be negative"))
        if self.bounty_72 < 0:
            raise RulesError(t("the 7-2 bounty cannot be negative"))
        game = self.game
        if self.bounty_72 and (game.hole_cards != 2 or game.form is not HandForm.ANY_FIVE
                               or game.high_low):
            raise RulesError(t("the 7-2 bounty is a hold'em rule, not one of {game}",
                               game=game.name))
        if self.straddle and self.straddle < self.big_blind:
            raise RulesError(t("a straddle must be at least the big blind"))
        if self.bet_cap is not None and self.bet_cap < 2:
            raise RulesError(t("a bet cap must allow at least a bet and a raise"))
        if self.rake_fixed is not None:
            object.__setattr__(self, "rake_fixed", tuple(self.rake_fixed))
            if any(not isinstance(x, int) or x < 0 for x in self.rake_fixed):
                raise RulesError(t("a stated rake is whole, non-negative chips per pot"))
        if self.rake_bps > 10_000:
            raise RulesError(t("rake cannot be more than 100 %"))
        if self.structure is Structure.FIXED_LIMIT:
            if not self.small_bet:
                object.__setattr__(self, "small_bet", self.big_blind)
            if not self.big_bet:
                object.__setattr__(self, "big_bet", 2 * self.small_bet)

    @property
    def min_raise_rule(self) -> MinRaise:
        if self.min_raise is not None:
            return self.min_raise
        return MinRaise.LAST_BET if self.structure is Structure.POT_LIMIT else MinRaise.LAST_RAISE

    def fixed_bet(self, street: int) -> int:
        """The fixed-limit bet size on ``street`` (0 preflop .. 3 river)."""
        return self.small_bet if street < 2 else self.big_bet

    def cap(self, players: int, capped: bool = False) -> int | None:
        """The number of bets allowed on a fixed-limit street, or None for no cap.

        ``players`` counts the players still in the hand who are not all-in: with
        ``cap_heads_up`` off (Robert's Rules) two of them raise without limit, however many
        all-in players are still in the hand. ``capped``: the street already reached the cap
        while more than two could bet; it stays capped when a fold or an all-in leaves two."""
        if self.structure is not Structure.FIXED_LIMIT:
            return None
        if players <= 2 and not capped and not self.cap_heads_up:
            return None
        return self.bet_cap

    def rake(self, pot: int, saw_flop: bool) -> int:
        if not self.rake_bps or (self.no_flop_no_drop and not saw_flop):
            return 0
        r = pot * self.rake_bps // 10_000
        return r if self.rake_cap is None else min(r, self.rake_cap)

    def with_(self, **changes: object) -> Rules:
        return replace(self, **changes)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        """Every field, losslessly: ``Rules.from_json(r.to_json()) == r`` (enums by value,
        tuples as lists)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, StrEnum):
                value = value.value
            elif isinstance(value, Game):
                value = value.to_json()
            elif f.name == "extra":
                value = [[k, v] for k, v in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @staticmethod
    def from_json(data: object) -> Rules:
        """Rules from :meth:`to_json`'s form; a field left out takes its default. Anything
        else (an unknown field, a value of the wrong type) raises :class:`RulesError`."""
        if not isinstance(data, dict):
            raise _json_error(t("rules are a JSON object, not {data}", data=repr(data)))
        kinds = _JSON_KINDS
        kw: dict[str, Any] = {}
        for name, value in data.items():
            kind = kinds.get(name)
            if kind is None:
                raise _json_error(t("unknown rule {name}", name=repr(name)))
            kw[name] = _decode(name, kind, value)
        return Rules(**kw)

    def describe(self) -> str:
        name = {Structure.NO_LIMIT: "No-limit", Structure.POT_LIMIT: "Pot-limit",
                Structure.FIXED_LIMIT: "Fixed-limit"}[self.structure]
        s = f"{name} hold'em {self.small_blind}/{self.big_blind}"
        if self.ante:
            s += f", ante {self.ante}" + (" (big blind ante)" if self.big_blind_ante else "")
        if self.straddle:
            s += f", straddle {self.straddle}"
        if self.hand_cap is not None:
            s += f", capped at {self.hand_cap} a hand"
        return s


# how each field of Rules travels in JSON (Rules.from_json checks each against its kind)
_JSON_KINDS: dict[str, str] = {
    "structure": "structure", "small_blind": "int", "big_blind": "int", "ante": "int",
    "big_blind_ante": "bool", "straddle": "int", "small_bet": "int", "big_bet": "int",
    "bet_cap": "int?", "cap_heads_up": "bool", "min_raise": "min_raise?", "odd_chip": "odd_chip",
    "rake_bps": "int", "rake_cap": "int?", "no_flop_no_drop": "bool", "decimals": "int",
    "currency": "str", "extra": "pairs", "rake_fixed": "ints?", "hand_cap": "int?",
    "game": "game", "bounty_72": "int",
}
assert set(_JSON_KINDS) == {f.name for f in fields(Rules)}, "every rule travels in JSON"


def _is_int(value: object) -> bool:
    return type(value) is int


def _decode(name: str, kind: str, value: object) -> object:
    if kind.endswith("?"):
        if value is None:
            return None
        kind = kind[:-1]
    ok: bool
    out: object = value
    if kind == "int":
        ok = _is_int(value)
    elif kind == "bool":
        ok = type(value) is bool
    elif kind == "str":
        ok = isinstance(value, str)
    elif kind == "ints":
        ok = isinstance(value, list) and all(_is_int(x) for x in value)
        out = tuple(value) if ok and isinstance(value, list) else value
    elif kind == "pairs":
        ok = isinstance(value, list) and all(
            isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x)
            for x in value)
        out = tuple((x[0], x[1]) for x in value) if ok and isinstance(value, list) else value
    elif kind == "game":
        try:
            out = Game.from_json(value)
            ok = True
        except GameError:
            ok = False
    else:  # an enum, by value
        enum: type[StrEnum] = {"structure": Structure, "min_raise": MinRaise,
                               "odd_chip": OddChip}[kind]
        ok = isinstance(value, str) and value in {m.value for m in enum}
        out = enum(str(value)) if ok else value
    if not ok:
        raise _json_error(t("rule {name}: {value} is not a valid value", name=repr(name),
                            value=repr(value)))
    return out


def _json_error(message: Text) -> RulesError:
    """Rules JSON that cannot be read (the rules themselves are checked by Rules())."""
    return RulesError(message)
