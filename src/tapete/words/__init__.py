"""Every sentence about a hand, once, in English and Spanish.

The table's log and results, the web replayer, the hand lists and ``tapete replay``'s
account (its headings in :mod:`.account`) take their words from here (the PokerStars writer is
to follow): event lines, pot names, hand names with their kickers, results as sentences, rules
described, and money and numbers by locale. The messages are gettext catalogues read with
Babel (:mod:`.catalog`): English is the source, ``locale/es/LC_MESSAGES/tapete.po`` the
Spanish.
"""

from __future__ import annotations

from tapete.words.catalog import t, tc, tn
from tapete.words.hands import name, name_against, preflop_name, strength, why
from tapete.words.lines import (
    Narration,
    and_list,
    event_line,
    hand_starts,
    hands_count,
    log_json,
    log_lines,
    narration,
    not_in_file,
    players_count,
    pot_name,
    pot_result,
    returned,
    sentences,
    told_afresh,
)
from tapete.words.money import decimal, money, money_format, money_text, number, percent
from tapete.words.results import breakdown, pot_lines, shown_hands
from tapete.words.rules import describe as describe_rules
from tapete.words.rules import game_name, stakes

__all__ = [
    "Narration",
    "and_list",
    "breakdown",
    "decimal",
    "describe_rules",
    "event_line",
    "game_name",
    "hand_starts",
    "hands_count",
    "log_json",
    "log_lines",
    "money",
    "money_format",
    "money_text",
    "name",
    "name_against",
    "narration",
    "not_in_file",
    "number",
    "percent",
    "players_count",
    "pot_lines",
    "pot_name",
    "pot_result",
    "preflop_name",
    "returned",
    "sentences",
    "shown_hands",
    "stakes",
    "strength",
    "t",
    "tc",
    "tn",
    "told_afresh",
    "why",
]
