"""A hand history in a format-neutral form, and its replay through the engine.

Every reader (PHH, PokerStars text) produces :class:`HandRecord`; :func:`replay` drives a
:class:`~tapete.core.hand.Hand` with it, so an illegal sequence in a file is reported, never
silently accepted, and every writer starts from a replayed hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Card
from tapete.core.catalog import t
from tapete.core.errors import MalformedAction
from tapete.core.money import amount_text
from tapete.core.rules import Rules
from tapete.core.text import Text

if TYPE_CHECKING:
    from tapete.core.hand import Hand
    from tapete.core.setup import HandSetup

# Steps, tagged tuples: ("hole", player, cards | None), ("board", cards), ("act", player,
# Action), ("show", player, cards | None), ("muck", player), ("runs", count).
# A show with None shows the cards the record already knows (unknown ones cannot settle a pot).
# A record that ends with a player who won without a showdown at a 7-2 bounty table not
# having shown is a hand they won unshown (Hand.lone_winner).
#
# A betting step carries a tapete.core.actions.Action. A file may not tell a check from a call
# (PHH's "cc") or a bet from a raise (PHH's "cbr"): the hand does, when it is played. So replay
# plays a record's check or call as whichever of the two the hand allows the player, and a bet
# or raise as one to that street total, whichever the street makes it; a reader that cannot
# tell writes CHECK_OR_CALL (a call) and bet_or_raise(to) (a bet), as the PHH reader does.
Step = tuple[Any, ...]

_new = tuple.__new__

FOLD: Final = Action.fold()
CHECK: Final = Action.check()
CALL: Final = Action.call()
# PHH's "cc", a check or a call: the file does not say which (see above)
CHECK_OR_CALL: Final = CALL


def bet_or_raise(to: int) -> Action:
    """PHH's "cbr": a bet or a raise to ``to``, the street total (see above). Built with
    tuple.__new__, all fields given (a named tuple's own __new__ is a Python function around
    it): a file of hands reads one for every bet."""
    return _new(Action, (ev.BET, to))


def from_phh_verb(verb: str, to: int | None = None) -> Action:
    """The action of a step written in PHH's verbs, ``"f"``, ``"cc"``, ``"cbr"`` and its
    amount (how records were written before they carried actions, and how shared links made
    before then wrote them: they still open)."""
    if verb == "f":
        return FOLD
    if verb == "cc":
        return CHECK_OR_CALL
    if verb == "cbr" and type(to) is int:
        return bet_or_raise(to)
    raise MalformedAction(t("unknown action {verb} {amount}", verb=repr(verb), amount=repr(to)))


def acted(e: ev.Acted) -> Action:
    """The action an engine event records (the amount only for a bet or a raise)."""
    kind = e.action
    if kind == ev.BET or kind == ev.RAISE:
        return Action(kind, e.to)
    return Action(kind)


@dataclass(slots=True)
class HandRecord:
    rules: Rules
    stacks: list[int]
    steps: list[Step]
    button: int | None = None
    blinds: list[int] | None = None
    antes: list[int] | None = None
    dead: list[int] | None = None
    names: list[str] | None = None
    seats: list[int] | None = None
    hand_id: str = ""
    source: str = ""
    finishing_stacks: list[int] | None = None
    # what the file itself says about the settlement, for reconciliation (optional)
    stated_pots: list[int] | None = None
    stated_rake: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # each step as the source file wrote it (e.g. "p3 cbr 700"), when the reader keeps it
    texts: list[str] | None = None
    # each player's straddle (0: none), as Hand(straddles=...) takes them; None: the blinds
    # above the big blind are the straddles
    straddles: list[int] | None = None
    # a bomb pot's ante (0: none) and a double board, as Hand(bomb=..., double_board=...) takes
    # them (docs/rules.md, "Home games")
    bomb: int = 0
    double_board: bool = False

    # written out (the dataclass keeps it): compiled, it costs a fifth of the generated one,
    # and a folder of hand histories makes one record a hand
    def __init__(self, rules: Rules, stacks: list[int], steps: list[Step],
                 button: int | None = None, blinds: list[int] | None = None,
                 antes: list[int] | None = None, dead: list[int] | None = None,
                 names: list[str] | None = None, seats: list[int] | None = None,
                 hand_id: str = "", source: str = "", finishing_stacks: list[int] | None = None,
                 stated_pots: list[int] | None = None, stated_rake: int | None = None,
                 extra: dict[str, Any] | None = None, texts: list[str] | None = None,
                 straddles: list[int] | None = None, bomb: int = 0,
                 double_board: bool = False) -> None:
        self.rules = rules
        self.stacks = stacks
        self.steps = steps
        self.button = button
        self.blinds = blinds
        self.antes = antes
        self.dead = dead
        self.names = names
        self.seats = seats
        self.hand_id = hand_id
        self.source = source
        self.finishing_stacks = finishing_stacks
        self.stated_pots = stated_pots
        self.stated_rake = stated_rake
        self.extra = extra if extra is not None else {}
        self.texts = texts
        self.straddles = straddles
        self.bomb = bomb
        self.double_board = double_board

    @staticmethod
    def from_setup(setup: HandSetup, steps: list[Step], source: str = "") -> HandRecord:
        """The record of a hand whose setup is known whole (a share link, a stored hand):
        every field of :class:`~tapete.core.setup.HandSetup` is taken as it is, so that
        :func:`~tapete.history.replay.replay` builds ``Hand.from_setup(setup)``."""
        return HandRecord(
            rules=setup.rules, stacks=list(setup.stacks), steps=steps, button=setup.button,
            blinds=list(setup.blinds), antes=list(setup.antes), dead=list(setup.dead),
            names=list(setup.names), seats=list(setup.seats), hand_id=setup.hand_id,
            source=source, straddles=list(setup.straddles), bomb=setup.bomb,
            double_board=setup.double_board)


def cards_or_none(cards: Sequence[Card] | None) -> tuple[Card, ...] | None:
    return tuple(cards) if cards is not None else None


def bounty_mismatch(record: HandRecord, hand: Hand) -> Text | None:
    """The 7-2 bounty payments a record states (``extra["bounty_payments"]``: (payer,
    collector, amount) each) when the replayed ``hand`` pays others, both said (docs/rules.md,
    "Home games"); None when they agree or the record states none."""
    stated = record.extra.get("bounty_payments")
    if stated is None or not hand.done:
        return None
    got = [(e.payer, e.player, e.amount) for e in hand.events if type(e) is ev.BountyPaid]
    if [tuple(x) for x in stated] == got:
        return None
    r = hand.rules

    def said(items: Sequence[Sequence[int]]) -> Text | str:
        return Text.join([t("{payer} → {who} {amount}", payer=hand.names[a],
                            who=hand.names[b], amount=amount_text(x, r.decimals, r.currency))
                          for a, b, x in items], ", ") if items else "-"

    return t("7-2 bounty payments: the file says {said}; the replay gives {got}",
             said=said(stated), got=said(got))
