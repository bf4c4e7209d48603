"""Practice opponents that see only their seat's view and answer through ``legal()``.

>>> from tapete.bots import make_bot, SeatView
>>> bot = make_bot("tag", seed=1)
>>> # decision = bot.decide(SeatView.of(hand, hand.actor)); hand.apply(decision.action)

Five styles share one strategy (:mod:`tapete.bots.strategy`): ``tag``, ``lag``, ``nit``,
``station``, ``maniac``; in the Omaha games the engine offers (pot-limit Omaha, five-card Omaha,
and hi-lo where the engine deals it) the same styles play :mod:`tapete.bots.omaha`, chosen from
the hand's ``rules.game``; two baselines: ``random`` and ``caller``. A bot answers with a
:class:`Decision`: one :class:`tapete.core.actions.Action` (the engine's, as every surface plays
it) and its explanation in English and Spanish.
"""

from __future__ import annotations

import random
from typing import Protocol

from tapete.bots.baselines import CallerBot, RandomBot
from tapete.bots.strategy import StyleBot
from tapete.bots.style import STYLES, OpponentStats, Style
from tapete.bots.view import ActionSeen, Decision, SeatView

__all__ = [
    "BOT_NAMES",
    "ActionSeen",
    "Bot",
    "CallerBot",
    "Decision",
    "OpponentStats",
    "RandomBot",
    "STYLES",
    "SeatView",
    "Style",
    "StyleBot",
    "make_bot",
]

BOT_NAMES: tuple[str, ...] = (*STYLES, "random", "caller")


class Bot(Protocol):
    name: str

    def decide(self, view: SeatView) -> Decision: ...

    def hand_over(self, view: SeatView) -> None: ...


def make_bot(name: str, seed: int | None = None, *, label: str | None = None) -> Bot:
    """A bot by style name (``tag``, ``lag``, ``nit``, ``station``, ``maniac``, ``random``,
    ``caller``), deterministic for a given ``seed``. ``label`` names it at the table."""
    key = name.strip().lower()
    rng = random.Random(seed)
    if key in STYLES:
        return StyleBot(STYLES[key], rng, label or key)
    if key == "random":
        return RandomBot(rng, label or key)
    if key == "caller":
        return CallerBot(rng, label or key)
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")
