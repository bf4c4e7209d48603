"""Where a seat sits at the table, as every bot reads it: the players to act behind it before
the flop, the name of its position, and how wide a range opens from it. Hold'em's strategy
(:mod:`tapete.bots.strategy`) and Omaha's (:mod:`tapete.bots.omaha`) share them."""

from __future__ import annotations

from tapete.bots.view import SeatView
from tapete.core.catalog import N_, t
from tapete.core.text import Text

__all__ = ["open_width", "players_behind", "position_name"]

# Opening range by the number of players still to act behind (blinds included).
_OPEN = {1: 0.40, 2: 0.45, 3: 0.28, 4: 0.21, 5: 0.17, 6: 0.14, 7: 0.12}
# the positions' names (message ids)
_BUTTON = N_("the button")
_SMALL_BLIND = N_("the small blind")
_BIG_BLIND = N_("the big blind")
_STRADDLE = N_("the straddle")
_BEFORE_BUTTON = {1: N_("the cutoff"), 2: N_("the hijack")}
_EARLY = N_("early position")


def players_behind(view: SeatView, seat: int) -> int:
    """How many players act after ``seat`` before the flop (the engine's acting order, as
    the view carries it: after the last straddle or the big blind, clockwise)."""
    return view.n - 1 - view.preflop_order.index(seat)


def position_name(view: SeatView, seat: int) -> Text:
    """The seat's place at the table: the button, the blinds (the two seats after it; heads-up
    the button's opponent is the big blind), a straddler, then the cutoff and the hijack
    before the button, else early position."""
    n = view.n
    after = (seat - view.button) % n
    if after == 0:
        return t(_BUTTON)
    if after == 2 or n == 2:
        return t(_BIG_BLIND)
    if after == 1:
        return t(_SMALL_BLIND)
    if view.setup.straddles[seat]:
        return t(_STRADDLE)
    return t(_BEFORE_BUTTON.get((view.button - seat) % n, _EARLY))


def open_width(view: SeatView, seat: int) -> float:
    if view.n == 2:
        return 0.8
    return _OPEN.get(players_behind(view, seat), 0.10)
