"""Every sentence about a hand, once, in English and Spanish.

The table log, the table's results, the web replayer and (in time) ``tapete replay``'s account
and the PokerStars writer all take their words from here: event lines, pot names, hand names,
results, rules described, and money and numbers formatted by locale.
"""

from __future__ import annotations

from tapete.words.lines import (
    event_line,
    hand_starts,
    pot_result,
    preflop_name,
    returned,
    sentences,
    strength,
)

__all__ = [
    "event_line",
    "hand_starts",
    "pot_result",
    "preflop_name",
    "returned",
    "sentences",
    "strength",
]
