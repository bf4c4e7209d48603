"""What the practice table and the room's tables share: the practice table's stakes, the
rules as the page reads them, a refusal the page is told of, and each seat's last action.

The practice table itself is a room table (``server/practice.py``); the room is
``server/rooms.py`` over ``tapete.room``.
"""

from __future__ import annotations

import logging
from typing import Any

from tapete.core import events as ev
from tapete.core.catalog import N_
from tapete.core.game import GAMES
from tapete.core.rules import Rules, Structure
from tapete.room.errors import Refused as Refused  # the one refusal (re-exported)
from tapete.server.transport import Outbox as Outbox  # re-exported: hub imports it from here

log = logging.getLogger("tapete.server")

HUMAN_SEAT = 0
SEATS = 6
BLINDS: tuple[tuple[int, int], ...] = ((1, 2), (5, 10), (25, 50), (50, 100))
STRUCTURES = {"nl": Structure.NO_LIMIT, "pl": Structure.POT_LIMIT, "fl": Structure.FIXED_LIMIT}
MIN_BUY_IN_BB = 20
MAX_BUY_IN_BB = 100
BOT_REBUY_BELOW_BB = 40


def make_rules(structure: str, blinds: int, variant: str = "holdem") -> Rules:
    sb, bb = BLINDS[blinds]
    return Rules(structure=STRUCTURES[structure], small_blind=sb, big_blind=bb,
                 game=GAMES[variant])


def rules_json(r: Rules) -> dict[str, Any]:
    return {"structure": r.structure.value, "variant": r.game.name,
            "hole_cards": r.game.hole_cards,
            "small_blind": r.small_blind, "big_blind": r.big_blind, "small_bet": r.small_bet,
            "big_bet": r.big_bet, "ante": r.ante, "decimals": r.decimals,
            "currency": r.currency}




def send(box: Outbox, data: str, stamp: float | None = None, state: bool = False) -> None:
    """Queue one message for a connection; ``state``: a whole state, which a later one
    replaces."""
    box.put(data, stamp, state=state)


def last_actions(n: int, events: list[ev.Event]) -> list[dict[str, Any] | None]:
    """Each player's last action on the current street (None: none yet): what a seat shows,
    "call 40", "raise to 120"; a call's amount is the chips it added, a bet's or a raise's
    the street total it made."""
    out: list[dict[str, Any] | None] = [None] * n
    start = len(events)  # only the street's events count: from the last board dealt on
    while start and not isinstance(events[start - 1], ev.BoardDealt):
        start -= 1
    for k in range(start, len(events)):
        e = events[k]
        if isinstance(e, ev.Acted):
            amount = e.added if e.action == ev.CALL else e.to if e.action in (
                ev.BET, ev.RAISE) else 0
            out[e.player] = {"action": e.action, "amount": amount, "all_in": e.all_in}
    return out


# what a bot's reasons say of a hand nobody saw: its strength stays hidden too
REASONS_HIDDEN = N_("reasons not shown: the hand was not shown")
