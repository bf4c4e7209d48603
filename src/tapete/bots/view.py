"""What one seat may know about a hand, and what a bot answers.

A :class:`SeatView` is rebuilt from the seat's own event list (the observer's
``events_seen(hand.events, Viewer.bot(seat))``: other players' hole cards hidden) and the
public setup of the hand, a :class:`~tapete.core.setup.HandSetup` (rules, names, starting
stacks, button, forced bets). The legal options and the acting order come from replaying those
events with the engine, never from the dealer's hand object, so a bot cannot see what its seat
may not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tapete.core import events as ev
from tapete.core import view
from tapete.core.actions import BET, CALL, CHECK, FOLD, RAISE, Action
from tapete.core.betting import Legal
from tapete.core.cards import Card
from tapete.core.events import Event
from tapete.core.rules import Rules
from tapete.core.setup import HandSetup
from tapete.core.text import Text

if TYPE_CHECKING:
    from tapete.core.hand import Hand


@dataclass(frozen=True, slots=True)
class ActionSeen:
    """One betting action as every seat saw it."""

    street: int
    player: int
    action: str  # fold, check, call, bet, raise (tapete.core.actions)
    to: int
    added: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's answer: one engine :class:`~tapete.core.actions.Action` and why."""

    action: Action
    explanation: Text

    def apply(self, hand: Hand, player: int | None = None) -> Event:
        """Play this decision on ``hand`` (raises IllegalAction if it is not legal)."""
        return hand.apply(self.action, player)

    def is_legal(self, legal: Legal) -> bool:
        """Whether ``legal`` (the engine's options) allows this action, named as the street
        makes it: a bet opens the betting, a raise raises it."""
        kind = self.action.kind
        if kind == FOLD:
            return legal.fold
        if kind == CHECK:
            return legal.check
        if kind == CALL:
            return not legal.check
        to = self.action.to
        return (kind == (BET if legal.is_bet else RAISE) and to is not None
                and legal.min_to is not None and legal.max_to is not None
                and legal.min_to <= to <= legal.max_to)


def bet_or_raise(legal: Legal, to: int) -> Action:
    """A bet to ``to`` when it opens the street's betting, else a raise to ``to``."""
    return Action.bet(to) if legal.is_bet else Action.raise_to(to)


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may see, typed. Other players' ``holes`` are None unless shown."""

    seat: int
    setup: HandSetup  # the rules, players, stacks, button and forced bets: all public
    blinds: tuple[int, ...]  # each player's live blind, straddles included (Hand.blinds)
    preflop_order: tuple[int, ...]  # every player in preflop acting order (the engine's)
    hole: tuple[Card, ...]
    holes: tuple[tuple[Card, ...] | None, ...]  # own cards, and others' once shown
    board: tuple[Card, ...]
    street: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    totals: tuple[int, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    actions: tuple[ActionSeen, ...]
    actor: int | None
    legal: Legal | None  # the seat's options when it is to act
    done: bool
    net: tuple[int, ...] | None  # each player's result once the hand is over

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def button(self) -> int:
        return self.setup.button

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        return self.setup.stacks

    @property
    def hand_id(self) -> str:
        return self.setup.hand_id

    @property
    def n(self) -> int:
        return len(self.setup.stacks)

    @property
    def pot(self) -> int:
        return sum(self.totals)

    @property
    def big_blind(self) -> int:
        return self.setup.rules.big_blind

    def live(self) -> list[int]:
        """Players still in the hand (not folded)."""
        return [p for p in range(self.n) if not self.folded[p]]

    def opponents(self) -> list[int]:
        return [p for p in self.live() if p != self.seat]

    def street_actions(self, street: int | None = None) -> list[ActionSeen]:
        s = self.street if street is None else street
        return [a for a in self.actions if a.street == s]

    @classmethod
    def from_events(cls, setup: HandSetup, events: Sequence[Event], seat: int) -> SeatView:
        """Build the view from the hand's public ``setup`` and a seat's events; a hidden hole
        card in them stays hidden."""
        from tapete.core.hand import Hand, Phase

        for e in events:
            if isinstance(e, ev.HoleDealt) and e.cards is not None \
                    and not view.sees_hole(view.Viewer.bot(seat), e.player, shown=False):
                raise ValueError("a seat's events must not hold other players' hidden cards")
        replay = Hand.from_events(setup.rules, setup.stacks, events, **setup.hand_args())
        street = 0
        actions: list[ActionSeen] = []
        for e in events:
            if isinstance(e, ev.BoardDealt) and e.run == 0:
                street = e.street
            elif isinstance(e, ev.Acted):
                actions.append(ActionSeen(street, e.player, e.action, e.to, e.added, e.all_in))
        own = replay.hole[seat]
        legal = None
        if replay.phase is Phase.BETTING and replay.actor == seat:
            legal = replay.legal()
        return cls(
            seat=seat,
            setup=setup,
            blinds=tuple(replay.blinds),
            preflop_order=tuple(replay.acting_order(preflop=True)),
            hole=tuple(own) if own is not None else (),
            holes=tuple(tuple(h) if h is not None else None for h in replay.hole),
            board=tuple(replay.board),
            street=replay.street,
            stacks=tuple(replay.stacks),
            bets=tuple(replay.bets),
            totals=tuple(replay.totals),
            folded=tuple(replay.folded),
            all_in=tuple(replay.all_in),
            actions=tuple(actions),
            actor=replay.actor,
            legal=legal,
            done=replay.done,
            net=tuple(replay.net()) if replay.done else None,
        )

    @classmethod
    def of(cls, hand: Hand, seat: int) -> SeatView:
        """The view of ``seat`` in ``hand``: its events and the public setup, nothing else."""
        return cls.from_events(hand.setup, view.events_seen(hand.events, view.Viewer.bot(seat)),
                               seat)
