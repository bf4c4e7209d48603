"""What a room table's own records say, in words: the host's actions and the players' votes,
shown among the table's chat (``tapete.room.table``'s ``host``, ``vote`` and ``decided``
records). Each record carries the names it needs (a seat's player, a request's name), so a
line is written from the record alone; amounts are whole chips, written as ``rules`` writes
money."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tapete.core.rules import Rules
from tapete.core.text import Text
from tapete.words.catalog import N_, t, tn
from tapete.words.lines import and_list
from tapete.words.money import money_text

# the names of the settings a host changes (room/table.py NEXT_HAND)
SETTING_NAMES: Mapping[str, str] = {
    "game": N_("the betting"), "variant": N_("the game"),
    "small_blind": N_("the small blind"), "big_blind": N_("the big blind"),
    "min_buy_in": N_("the smallest buy-in"), "max_buy_in": N_("the largest buy-in"),
    "act_ms": N_("the time to act"), "straddle": N_("straddles"),
    "restraddle": N_("re-straddles"), "bomb_every": N_("a bomb pot every so many hands"),
    "bomb_ante": N_("the bomb pot's ante"), "bomb_vote": N_("bomb pots by vote"),
    "double_board": N_("bomb pots on two boards"), "bounty_72": N_("the 7-2 bounty"),
    "run_it": N_("the most runs of the board"),
}
_VALUES: Mapping[str, str] = {"nl": N_("no-limit"), "pl": N_("pot-limit"),
                              "fl": N_("fixed-limit"), "holdem": N_("hold'em"),
                              "omaha": N_("Omaha"), "omaha-hi-lo": N_("Omaha hi-lo")}
_MONEY = ("small_blind", "big_blind", "min_buy_in", "max_buy_in", "bomb_ante", "bounty_72")


def _value(key: str, value: Any, rules: Rules) -> Text | str:
    if isinstance(value, bool):
        return t("on") if value else t("off")
    if key in _MONEY and isinstance(value, int):
        return money_text(value, rules)
    if key == "act_ms" and isinstance(value, int):
        return tn("{n} second", "{n} seconds", value // 1000, n=value // 1000)
    if isinstance(value, str) and value in _VALUES:
        return t(_VALUES[value])
    return str(value)


def change(key: str, value: Any, rules: Rules) -> Text:
    """One setting's new value: "the big blind: 10" ("la ciega grande: 10")."""
    name = t(SETTING_NAMES[key]) if key in SETTING_NAMES else Text(key, key)
    return t("{setting}: {value}", setting=name, value=_value(key, value, rules))


def host_line(p: Mapping[str, Any], rules: Rules) -> Text:
    """A ``host`` record's payload (``action`` and its details) as a sentence."""
    a, name = p["action"], str(p.get("name", ""))
    if a == "host":
        return t("{name} is the host", name=name) if name else \
            t("The table's creator is its host")
    if a == "approve":
        chips = money_text(p.get("chips", 0), rules)
        return t("The host lets {name} sit down with {chips}", name=name, chips=chips) \
            if p.get("kind") == "seat" else \
            t("The host lets {name} add {chips}", name=name, chips=chips)
    if a == "deny":
        return t("The host turns down {name}'s request", name=name)
    if a == "auto_approve":
        return t("Seats and chips need no approval now") if p["on"] else \
            t("Seats and chips wait for the host's approval now")
    if a == "pause":
        return t("The host pauses the game: the clock is stopped") if p["now"] else \
            t("The host pauses the game after this hand")
    if a == "resume":
        return t("The game goes on")
    if a == "settings":
        return t("From the next hand: {changes}", changes=and_list(
            [change(k, v, rules) for k, v in sorted(p["changes"].items())]))
    if a == "stack":
        return t("The host sets {name}'s stack to {chips}", name=name,
                 chips=money_text(p["chips"], rules))
    if a == "kick":
        return t("The host removes {name} from the table", name=name)
    if a == "mute":
        return t("The host mutes {name}", name=name) if p["on"] else \
            t("The host lets {name} chat again", name=name)
    if a == "spectators":
        if not p["allowed"]:
            return t("The table is closed to spectators")
        return t("Spectators may watch and chat among themselves") if p["chat"] else \
            t("Spectators may watch, without chat")
    return t("The host ends the game: the hand in play is the last")


def vote_line(p: Mapping[str, Any]) -> Text:
    """A ``vote`` record: a vote opens."""
    if p["kind"] == "runs":
        return tn("All in: run the board {n} time? Everyone in the hand must agree",
                  "All in: run the board {n} times? Everyone in the hand must agree",
                  p["runs"], n=p["runs"])
    return t("{name} asks for a bomb pot next hand: more than half of the table must agree",
             name=str(p.get("name", "")))


def decided_line(p: Mapping[str, Any]) -> Text:
    """A ``decided`` record: the vote's result (``closed``: closed undecided, its hand called
    off or the table closed)."""
    if p.get("closed"):
        return t("The vote is closed: its hand was called off") if p["kind"] == "runs" \
            else t("The vote is closed: the table closed")
    if p["kind"] == "runs":
        return tn("Everyone agrees: the board runs {n} time",
                  "Everyone agrees: the board runs {n} times", p.get("runs", 2),
                  n=p.get("runs", 2)) if p["passed"] else t("The board runs once")
    return t("Bomb pot next hand") if p["passed"] else t("No bomb pot")
