"""A table's rules in words: "No-limit hold'em 1/2, ante 1 (big blind ante), straddle 4"."""

from __future__ import annotations

from tapete.core.rules import Rules, Structure
from tapete.core.text import Text
from tapete.words.catalog import t
from tapete.words.money import money_text


def game_name(rules: Rules) -> Text:
    """ "No-limit hold'em" ("Hold'em sin límite")."""
    if rules.structure is Structure.POT_LIMIT:
        return t("Pot-limit hold'em")
    if rules.structure is Structure.FIXED_LIMIT:
        return t("Fixed-limit hold'em")
    return t("No-limit hold'em")


def stakes(rules: Rules) -> Text:
    """The blinds: "$0.50/$1" ("0,50 $/1 $")."""
    return t("{small}/{big}", small=money_text(rules.small_blind, rules),
             big=money_text(rules.big_blind, rules))


def describe(rules: Rules) -> Text:
    """The game, its stakes and what else is posted or capped: "No-limit hold'em 1/2, ante 1
    (big blind ante), straddle 4, capped at 100 a hand"."""
    out = t("{game} {stakes}", game=game_name(rules), stakes=stakes(rules))
    if rules.ante:
        ante = money_text(rules.ante, rules)
        if rules.big_blind_ante:
            out = t("{rules}, ante {ante} (big blind ante)", rules=out, ante=ante)
        else:
            out = t("{rules}, ante {ante}", rules=out, ante=ante)
    if rules.straddle:
        out = t("{rules}, straddle {straddle}", rules=out,
                straddle=money_text(rules.straddle, rules))
    if rules.hand_cap is not None:
        out = t("{rules}, capped at {cap} a hand", rules=out,
                cap=money_text(rules.hand_cap, rules))
    return out
