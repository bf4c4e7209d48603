"""What a hand does by itself, and what it waits to be told (PokerKit's ``Automation`` flags
are the model).

A replay, a simulation or the practice table turns everything on; a live table can turn
dealing or the run-out choice off and is then asked: :meth:`Hand.needs_cards
<tapete.core.hand.Hand.needs_cards>` (then :meth:`~tapete.core.hand.Hand.deal`),
:meth:`~tapete.core.hand.Hand.needs_runs` (then :meth:`~tapete.core.hand.Hand.set_runs`) and
:meth:`~tapete.core.hand.Hand.needs_showdown` (then ``show``/``muck``/``settle``). The events
are the same whoever takes the step.
"""

from __future__ import annotations

from enum import IntFlag
from typing import Final


class Automation(IntFlag):
    """The steps a hand takes without being asked."""

    NONE = 0
    DEAL = 1  # hole and board cards are dealt from the deck as soon as they are due
    RUN_ONCE = 2  # once betting is over with cards to come, the board is run once unasked
    SHOW = 4  # the showdown plays itself: hands shown or mucked in order by the rules


# what a Hand does unless told otherwise: today's behaviour (the showdown is the caller's,
# unless auto_showdown)
DEFAULT: Final = Automation.DEAL | Automation.RUN_ONCE
ALL: Final = Automation.DEAL | Automation.RUN_ONCE | Automation.SHOW
