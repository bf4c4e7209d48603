"""The five opponents at the practice table, through :func:`tapete.bots.make_bot`.

A bot sees only its seat's view and the legal options; it answers with an engine
:class:`~tapete.core.actions.Action`, which the table plays with ``hand.apply``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tapete.bots import SeatView, make_bot
from tapete.core.actions import Action
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
    """A bot's move at the table: the engine action and the bot's reason."""

    play: Action
    why: Text

    @property
    def action(self) -> str:
        """fold, check, call, bet or raise."""
        return self.play.kind

    @property
    def amount(self) -> int | None:
        """The street total of a bet or raise (None for the others)."""
        return self.play.to


class RealBot:
    """A :mod:`tapete.bots` bot, fed its seat's view (rebuilt from its own events only)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def decide(self, hand: Hand, player: int) -> BotMove:
        d = self.bot.decide(SeatView.of(hand, player))
        return BotMove(d.action, d.explanation)

    def hand_over(self, hand: Hand, player: int) -> None:
        self.bot.hand_over(SeatView.of(hand, player))


def make(style: str, seed: int, label: str = "") -> RealBot:
    """The bot of that style."""
    return RealBot(make_bot(style, seed, label=label or None))


def decide(bot: RealBot, hand: Hand, player: int) -> BotMove:
    return bot.decide(hand, player)
