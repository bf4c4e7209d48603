"""The five opponents at the practice table, through :func:`tapete.bots.make_bot`.

A bot sees only its seat's view and the legal options; its answer is turned into an engine
action here. Until the bot family is installed, a plain stand-in (check or call) keeps the
table running behind the same interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


class StandIn:
    """Checks when free, else calls: used only when :mod:`tapete.bots` cannot be imported."""

    name = "caller"

    def decide(self, hand: Hand, player: int) -> BotMove:
        if hand.legal().check:
            return BotMove("check", None, Text("I check: it is free", "Paso: es gratis"))
        return BotMove("call", None, Text("I call", "Igualo"))

    def hand_over(self, hand: Hand, player: int) -> None:
        return None


class RealBot:
    """A :mod:`tapete.bots` bot, fed its seat's view (rebuilt from its own events only)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def decide(self, hand: Hand, player: int) -> BotMove:
        from tapete.bots import SeatView

        d = self.bot.decide(SeatView.of(hand, player))
        return BotMove(d.action, d.amount, d.explanation)

    def hand_over(self, hand: Hand, player: int) -> None:
        from tapete.bots import SeatView

        self.bot.hand_over(SeatView.of(hand, player))


def make(style: str, seed: int, label: str = "") -> StandIn | RealBot:
    """The real bot of that style, or the stand-in when the bots are not installed."""
    try:
        from tapete.bots import make_bot
    except ImportError:
        return StandIn()
    return RealBot(make_bot(style, seed, label=label or None))


def decide(bot: StandIn | RealBot, hand: Hand, player: int) -> BotMove:
    return bot.decide(hand, player)
