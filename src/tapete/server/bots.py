"""The five opponents at the practice table, through :func:`tapete.bots.make_bot`.

A bot sees only its seat's view and the legal options; its answer is turned into an engine
action here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tapete.bots import SeatView, make_bot
from tapete.core.hand import Hand
from tapete.core.text import Text

# name, style: five opponents with distinct styles
OPPONENTS: tuple[tuple[str, str], ...] = (
    ("Ana", "tag"),
    ("Bruno", "lag"),
    ("Carla", "nit"),
    ("Diego", "station"),
    ("Elena", "maniac"),
)


@dataclass(frozen=True, slots=True)
class BotMove:
    action: str  # fold, check, call, raise
    amount: int | None
    why: Text


class RealBot:
    """A :mod:`tapete.bots` bot, fed its seat's view (rebuilt from its own events only)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def decide(self, hand: Hand, player: int) -> BotMove:
        d = self.bot.decide(SeatView.of(hand, player))
        return BotMove(d.action, d.amount, d.explanation)

    def hand_over(self, hand: Hand, player: int) -> None:
        self.bot.hand_over(SeatView.of(hand, player))


def make(style: str, seed: int, label: str = "") -> RealBot:
    """The bot of that style."""
    return RealBot(make_bot(style, seed, label=label or None))


def decide(bot: RealBot, hand: Hand, player: int) -> BotMove:
    return bot.decide(hand, player)
