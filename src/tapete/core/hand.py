"""One hand of poker (hold'em, the game ``Rules.game`` describes): the state machine that
deals, referees and settles it.

The hand is pure: rules, seats and a deck (or cards given one deal at a time) go in, events
come out. Every change of state goes through :meth:`Hand.apply_unchecked`, so replaying the
event list rebuilds the same state (:meth:`Hand.from_events`).

Players are indexed 0..n-1 clockwise. ``button`` is the index of the player who acts last after
the flop (with a dead button, the player right of the empty button seat). By default the
players after the button post the small and big blind (heads-up: the button posts the small
blind); a table or a hand history may give each player's blinds explicitly.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final, NoReturn, cast

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.automation import DEFAULT as DEFAULT_AUTOMATIONS
from tapete.core.automation import Automation
from tapete.core.betting import (
    Legal,
    acting_order,
    big_blind_player,
    first_to_act,
    is_full_raise,
    options,
    preflop_opening,
    reaches_cap,
    reopen_step,
)
from tapete.core.cards import Card, Deck, format_card, format_cards
from tapete.core.catalog import t, tc
from tapete.core.errors import BooksError as BooksError
from tapete.core.errors import HandError as HandError
from tapete.core.errors import IllegalAction as IllegalAction
from tapete.core.errors import MalformedAction as MalformedAction
from tapete.core.events import Event
from tapete.core.game import DECK_SIZE, HandForm, best_hand, best_low, evaluator
from tapete.core.money import amount_text
from tapete.core.pots import Pot, build_pots, split, take_rake, uncalled
from tapete.core.rules import MinRaise, Rules, Structure
from tapete.core.setup import HandSetup
from tapete.core.text import Text


class Phase(StrEnum):
    DEAL = "deal"  # waiting for cards (hole or board) to be dealt
    BETTING = "betting"  # a player is to act
    SHOWDOWN = "showdown"  # betting is over; hands are shown or mucked
    DONE = "done"


# the phases as plain names: reading an enum member through its class costs a lookup, and the
# engine tests the phase at every step
# Final: the compiled engine reads them as constants (an enum member read as Phase.DEAL, or a
# plain module name, is a dictionary lookup each time)
_DEAL: Final = Phase.DEAL
_BETTING: Final = Phase.BETTING
_SHOWDOWN: Final = Phase.SHOWDOWN
_DONE: Final = Phase.DONE
_FIXED_LIMIT: Final = Structure.FIXED_LIMIT
_POT_LIMIT: Final = Structure.POT_LIMIT
_LAST_BET: Final = MinRaise.LAST_BET
# the event types, for the fold's dispatch (Hand.apply_unchecked)
_ACTED: Final = ev.Acted
_HOLE_DEALT: Final = ev.HoleDealt
_POSTED: Final = ev.Posted
_BOARD_DEALT: Final = ev.BoardDealt
_AWARDED: Final = ev.Awarded
_RETURNED: Final = ev.Returned
_ENDED: Final = ev.Ended
_SHOWN: Final = ev.Shown
_MUCKED: Final = ev.Mucked
_RAKED: Final = ev.Raked
_RUNS_CHOSEN: Final = ev.RunsChosen
_BOUNTY_PAID: Final = ev.BountyPaid
_MOST_RUNS: Final = 4  # the board runs at most four times (docs/rules.md section 4)
_BOMB: Final = ev.BOMB
_WHOLE: Final = ev.WHOLE
_HIGH: Final = ev.HIGH
_LOW: Final = ev.LOW
_ACTION_KINDS: Final = (ev.FOLD, ev.CHECK, ev.CALL, ev.BET, ev.RAISE)
_ANY_FIVE: Final = HandForm.ANY_FIVE
# the automations, as constants and plain bits (Hand.__init__ reads them for every hand)
_AUTO_DEFAULT: Final = DEFAULT_AUTOMATIONS
_AUTO_SHOWDOWN: Final = DEFAULT_AUTOMATIONS | Automation.SHOW
_DEAL_BIT: Final = int(Automation.DEAL)
_RUNS_BIT: Final = int(Automation.RUN_ONCE)
_SHOW_BIT: Final = int(Automation.SHOW)


@dataclass(frozen=True, slots=True)
class PotResult:
    """A settled pot: its chips (after rake), who could win it, who won what.

    ``winners`` and ``shares`` count every award of the pot, on every run and in both halves
    of a high-low pot. ``low_winners`` and ``low_shares`` are the part of them won with the
    low (a high-low game's low half, over all runs; empty in a high-only game and when no
    low qualified): the high half is ``shares`` less ``low_shares``."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]  # (player, chips) over all runs
    rake: int
    low_winners: tuple[int, ...]
    low_shares: tuple[tuple[int, int], ...]

    # written out (the dataclass keeps it): compiled, it costs a tenth of the generated one
    def __init__(self, amount: int, eligible: tuple[int, ...], winners: tuple[int, ...],
                 shares: tuple[tuple[int, int], ...], rake: int,
                 low_winners: tuple[int, ...] = (),
                 low_shares: tuple[tuple[int, int], ...] = ()) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "shares", shares)
        object.__setattr__(self, "rake", rake)
        object.__setattr__(self, "low_winners", low_winners)
        object.__setattr__(self, "low_shares", low_shares)


_STREET_NAMES = (("preflop", "preflop"), ("flop", "flop"), ("turn", "turn"), ("river", "river"))


def street_name(street: int, lang: str = "en") -> str:
    return _STREET_NAMES[street][1 if lang == "es" else 0]


# the evaluator (tapete.core.game.evaluator), kept here once loaded: read at every showdown
_evaluate: Callable[[Sequence[int]], int] | None = None


def _load_evaluator() -> Callable[[Sequence[int]], int]:
    global _evaluate
    _evaluate = evaluator()
    return _evaluate


def _whole_chips(amounts: Sequence[object]) -> bool:
    """Every amount a whole, non-negative number of chips (not a bool, not a float): checked
    over plain objects, so that a caller's bad value is refused clearly, not by a TypeError."""
    return all(type(x) is int and x >= 0 for x in amounts)


def _total(xs: list[int]) -> int:
    """``sum(xs)``, compiled to a loop over the list (the builtin is a generic call)."""
    t = 0
    for x in xs:
        t += x
    return t


def _nonzero(xs: tuple[int, ...]) -> bool:
    """``any(xs)``, compiled to a loop (a generator in any() is compiled to one)."""
    return any(x != 0 for x in xs)


@lru_cache(maxsize=32)
def _default_names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i + 1}" for i in range(n))


_SEATS = [tuple(range(n)) for n in range(24)]
# the events of every step are built with tuple.__new__, all fields given: a named tuple's own
# __new__ is a Python function around this (the engine records some thirty events a hand)
_new = tuple.__new__


def _seven_deuce(cards: Sequence[Card]) -> bool:
    """Exactly a seven and a deuce, any suits (the 7-2 bounty's hand)."""
    return len(cards) == 2 and sorted(c >> 2 for c in cards) == [0, 5]


def _bet_word(legal: Legal) -> Text:
    """The verb a bet of no amount was tried as: a bet where it would open the street."""
    return tc("action", "bet") if legal.is_bet else tc("action", "raise")


class Hand:
    """A hand in progress or finished. See the module docstring for the conventions."""

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        *,
        button: int | None = None,
        deck: Deck | Sequence[Card] | None = None,
        blinds: Sequence[int] | None = None,
        antes: Sequence[int] | None = None,
        dead: Sequence[int] | None = None,
        names: Sequence[str] | None = None,
        seats: Sequence[int] | None = None,
        hand_id: str = "",
        auto_showdown: bool = False,
        straddles: Sequence[int] | None = None,
        automations: Automation | None = None,
        bomb: object = 0,
        double_board: object = False,
        _record: bool = True,
    ) -> None:
        """A hand from its rules, each player's stack and the forced bets.

        ``blinds``, ``antes``, ``dead`` and ``straddles`` give one amount per player (0 for
        none), in player order; each defaults to what ``rules`` says for the seats after the
        ``button``.

        ``straddles``: each player's straddle, a live blind above the big blind posted before
        the deal (``ev.STRADDLE``, after the blinds, the smaller first). A re-straddle is a
        second straddle: blinds 1/2, straddles 4 and 8 is ``blinds=[1, 2, 0, 0],
        straddles=[0, 0, 4, 8]`` (four players, button 3). The last straddle (the largest)
        acts last preflop, and every player faces it in full. A straddler's entry in
        ``blinds`` is 0 or the same amount (``hand.blinds`` lists every live blind, the
        straddles included; ``hand.straddles`` says which are straddles). A hand-history
        reader passes the straddles it reads. Without ``straddles``: with ``blinds`` given,
        the blinds above the big blind are the straddles (how records written before
        ``straddles`` existed say them); without ``blinds`` either, ``rules.straddle`` is
        posted by the player after the big blind (three players or more), as a table does.

        ``automations`` (:class:`~tapete.core.automation.Automation`): the steps the hand takes
        by itself. The default deals from the deck and runs the board once, and leaves the
        showdown to the caller unless ``auto_showdown``; a live table may turn dealing or the
        run-out choice off and answer :meth:`needs_cards`, :meth:`needs_runs` and
        :meth:`needs_showdown` itself.

        ``bomb``: a bomb pot's ante (docs/rules.md, "Home games"): every player posts it
        (``ev.BOMB``; a short stack what it has, all-in), nobody posts a blind, a straddle or
        an ante, and there is no betting before the flop. ``double_board``: two boards are
        dealt from the flop on (``boards[0]`` and ``boards[1]``, each street's cards to both
        before its betting), and each wins half of every pot, as two runs do; such a hand is
        never run again (:meth:`needs_runs`).
        """
        n = len(stacks)
        if not 2 <= n <= 23:
            raise HandError(t("a hand needs 2 to 23 players, not {n}", n=n))
        if not _whole_chips(stacks) or 0 in stacks:
            raise HandError(t("every player needs a whole, positive number of chips"))
        self.rules = rules
        game = rules.game
        if n > game.max_players:  # Omaha: 11 players, five-card Omaha: 9 (hold'em: 23 above)
            raise HandError(t("{game} deals {cards} cards to each player: one deck is enough "
                              "for {most} players at most, not {n}", game=game.name,
                              cards=game.hole_cards, most=game.max_players, n=n))
        # the game as data (Rules.game), read once: what is dealt, when the board is complete
        self.game = game
        # typed object: a caller's bad value is refused clearly, never by a TypeError
        if type(bomb) is not int or bomb < 0:
            raise HandError(t("a bomb pot's ante is a whole, non-negative number of chips"))
        if type(double_board) is not bool:
            raise HandError(t("double_board: true or false"))
        self.bomb: int = bomb
        self.double_board: bool = double_board
        if double_board:
            most = (DECK_SIZE - 2 * game.board_cards) // game.hole_cards  # two boards dealt
            if n > most:
                raise HandError(t("a double board of {game} deals {cards} cards to each "
                                  "player: one deck is enough for {most} players at most, "
                                  "not {n}", game=game.name, cards=game.hole_cards, most=most,
                                  n=n))
        self._hole_cards = game.hole_cards
        self._board_cards = game.board_cards
        self._last_street = game.last_street
        self._any_five = game.form is _ANY_FIVE
        self._high_low = game.high_low
        self._street_at = game.street_at
        self._due_at = game.due_at
        self.n = n
        self.starting_stacks = tuple(stacks)
        self.button = (n - 1 if button is None else button) % n
        self.names = tuple(names) if names is not None else _default_names(n)
        self.seats = tuple(seats) if seats is not None else _SEATS[n]
        self.hand_id = hand_id
        # the flags as plain booleans, advance() reads them at every step (and an IntFlag's
        # operators cost a Python call each: none is used for the default)
        if automations is None:
            self.automations = _AUTO_SHOWDOWN if auto_showdown else _AUTO_DEFAULT
            self.auto_showdown = auto_showdown
            self._auto_deal = self._auto_runs = True
        else:
            self.automations = automations
            bits = int(automations)
            self.auto_showdown = bits & _SHOW_BIT != 0
            self._auto_deal = bits & _DEAL_BIT != 0
            self._auto_runs = bits & _RUNS_BIT != 0
        self._runs_chosen = False
        if isinstance(deck, Deck):
            all_cards = deck.cards()
            self.deck: tuple[Card, ...] | None = all_cards[len(all_cards) - deck.remaining:]
        else:
            self.deck = tuple(deck) if deck is not None else None
        self._deck_next = 0
        self.blinds, self.antes, self.dead, self.straddles = self._forced(blinds, antes, dead,
                                                                          straddles, self.bomb)
        # the live blinds that are not straddles
        self._has_straddles = any(self.straddles)
        self._plain_blinds = self.blinds if not self._has_straddles else tuple(
            0 if s else b for b, s in zip(self.blinds, self.straddles, strict=True))
        self.events: list[Event] = []
        # state, changed only by apply_unchecked
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.totals = [0] * n
        self.folded = [False] * n
        self.all_in = [False] * n
        self.hole: list[tuple[Card, ...] | None] = [None] * n
        self.dealt = [False] * n
        self.boards: list[list[Card]] = [[], []] if self.double_board else [[]]
        self.street = 0
        self.phase = _DEAL
        self.actor: int | None = None
        self.acted = [False] * n
        self.reopen_at = [0] * n
        self.level = 0
        self.full_level = 0
        self.increment = rules.big_blind
        self.largest_bet = 0
        self.bets_count = 0
        # fixed limit: the street reached its cap while more than two players could bet (it
        # stays capped when a fold or an all-in leaves two: Rules.cap)
        self._capped = False
        self.aggressor: int | None = None
        self.aggressor_street = -1
        self.betting_over = False
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.mucked: set[int] = set()
        self.returned = [0] * n
        self.won = [0] * n
        self.rake = 0
        # the 7-2 bounty (Rules.bounty_72): each player's net of the payments (BountyPaid), and
        # whether a player who won without a showdown chose not to show (see lone_winner)
        self._bounty = rules.bounty_72
        self.bounty = [0] * n
        self._declined = False
        self.results: list[PotResult] = []
        self.saw_flop = False
        # dead money: dead blinds, and an ante one player posts for the table (big-blind ante)
        self.dead_in = [0] * n
        self._single_ante = n - self.antes.count(0) == 1
        # a cap game (Rules.hand_cap): the chips above the cap stay behind, out of the hand; a
        # player is all-in when only those are left
        cap = rules.hand_cap
        self._floor = [0] * n if cap is None else [x - cap if x > cap else 0 for x in stacks]
        # speed: the rule switches read on every action, and legal() kept until the next event
        self._structure = rules.structure
        self._decimals = rules.decimals
        self._currency = rules.currency
        self._fixed = self._structure is _FIXED_LIMIT
        # rules.min_raise_rule, read here without a call (the rules are Python, not compiled)
        mr = rules.min_raise
        self._last_bet = mr is _LAST_BET if mr is not None else rules.structure is _POT_LIMIT
        self._legal: Legal | None = None
        # running counts kept by apply_unchecked, so that no step rescans the players: dealt in,
        # not folded, and neither folded nor all-in (able to act)
        self._dealt_count = 0
        self._live = n
        self._able = n
        # memos of pure functions of the state: the pots (cleared by the events that change
        # contributions, folds or all-ins) and each player's strength on the finished boards
        self._pots: list[Pot] | None = None
        self._strengths: dict[int, tuple[int, ...]] = {}
        self._lows: dict[int, tuple[int, ...]] = {}  # a high-low game's lows, the same way
        if _record:
            self._post_forced()
            self.advance()

    # ------------------------------------------------------------------ setup
    def _forced(
        self, blinds: Sequence[int] | None, antes: Sequence[int] | None,
        dead: Sequence[int] | None, straddles: Sequence[int] | None, bomb: int = 0,
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        n, r, b = self.n, self.rules, self.button
        if bomb:  # a bomb pot: its ante is every forced bet but the dead blinds
            none = [0] * n
            for forced in (blinds, straddles, antes):
                if forced is not None and (len(forced) != n or any(forced)):
                    raise HandError(t("a bomb pot has no blinds, straddles or antes: every "
                                      "player posts the bomb pot's ante and nothing else"))
            blinds, straddles, antes = none, none, none
        given = straddles is not None
        if straddles is not None:
            st = list(straddles)
        elif blinds is not None:
            if len(blinds) != n or not _whole_chips(blinds):  # before reading them as ints
                raise HandError(t("{field}: one non-negative amount per player is needed",
                                  field="blinds"))
            # a record without straddles: its blinds above the big blind are the straddles
            bb_amount = r.big_blind
            st = [x if type(x) is int and x > bb_amount else 0 for x in blinds]
        else:
            st = [0] * n
        if blinds is None:
            bl = [0] * n
            sb = b if n == 2 else (b + 1) % n
            bb = (sb + 1) % n
            bl[sb] = r.small_blind
            bl[bb] = r.big_blind
            if straddles is None and r.straddle and n > 2:
                st[(bb + 1) % n] = r.straddle
            blinds = bl
        for name, seq in (("blinds", blinds), ("straddles", st)):
            if len(seq) != n or (given or name == "blinds") and not _whole_chips(seq):
                raise HandError(t("{field}: one non-negative amount per player is needed",
                                  field=name))
        live = list(blinds)
        for p in range(n) if any(st) else ():
            if st[p]:
                if live[p] and live[p] != st[p]:
                    raise HandError(t(
                        "{who} cannot post both a blind of {blind} and a straddle of {straddle}",
                        who=self.names[p], blind=str(live[p]), straddle=str(st[p])))
                live[p] = st[p]
        if antes is None:
            an = [0] * n
            if r.ante:
                if r.big_blind_ante:
                    # the big blind pays it, not a straddle
                    under = tuple(0 if st[p] else live[p] for p in range(n))
                    an[big_blind_player(under if any(under) else tuple(live), b,
                                        r.small_blind == r.big_blind)] = r.ante
                else:
                    an = [r.ante] * n
            antes = an
        dead = dead if dead is not None else [0] * n
        for name, seq in (("antes", antes), ("dead", dead)):
            if len(seq) != n or not _whole_chips(seq):
                raise HandError(t("{field}: one non-negative amount per player is needed",
                                  field=name))
        return tuple(live), tuple(antes), tuple(dead), tuple(st)

    def _post_forced(self) -> None:
        n, b, rules = self.n, self.button, self.rules
        order = [(b + 1 + k) % n for k in range(n)]  # from the first seat after the button
        bomb = self.bomb
        if bomb:  # a bomb pot: every player's ante, live like a blind everyone posts
            for p in order:
                self._post(p, bomb, _BOMB)
        # regular antes first (a short stack pays the ante before the blind); a big-blind ante
        # after the blind (TDA: the blind has priority)
        bb_ante = rules.big_blind_ante
        antes = _nonzero(self.antes)
        if antes and not bb_ante:
            for p in order:
                if self.antes[p]:
                    self._post(p, self.antes[p], ev.ANTE)
        if _nonzero(self.dead):
            for p in order:
                if self.dead[p]:
                    self._post(p, self.dead[p], ev.DEAD)
        big_blind = rules.big_blind
        small_blind = rules.small_blind
        blinds = self._plain_blinds
        for p in order:
            x = blinds[p]
            if not x:
                continue
            if x >= big_blind:
                kind = ev.BIG_BLIND
            elif x == small_blind:
                kind = ev.SMALL_BLIND
            else:
                kind = ev.BLIND
            self._post(p, x, kind)
        straddles = self.straddles
        if self._has_straddles:  # then the straddles, a re-straddle after the straddle
            for _, _, p in sorted((straddles[p], k, p) for k, p in enumerate(order)
                                  if straddles[p]):
                self._post(p, straddles[p], ev.STRADDLE)
        if antes and bb_ante:
            for p in order:
                if self.antes[p]:
                    self._post(p, self.antes[p], ev.ANTE)

    def _post(self, player: int, amount: int, kind: str) -> None:
        free = self.stacks[player] - self._floor[player]
        paid = amount if amount < free else free
        if paid > 0:
            self.apply_unchecked(_new(_POSTED, (player, paid, kind, paid == free)))

    # ------------------------------------------------------------------ setup as data
    @classmethod
    def from_setup(cls, setup: HandSetup, deck: Deck | Sequence[Card] | None = None,
                   auto_showdown: bool = False) -> Hand:
        """The hand ``setup`` describes, dealt from ``deck`` (None: cards given as dealt)."""
        return cls(setup.rules, setup.stacks, deck=deck, auto_showdown=auto_showdown,
                   **setup.hand_args())

    @property
    def setup(self) -> HandSetup:
        """This hand's setup: ``Hand.from_setup(hand.setup, deck)`` starts the same hand."""
        return HandSetup(self.rules, self.starting_stacks, self.button, self._plain_blinds,
                         self.straddles, self.antes, self.dead, self.names, self.seats,
                         self.hand_id, self.bomb, self.double_board)

    # ------------------------------------------------------------------ replay
    @classmethod
    def from_events(
        cls, rules: Rules, stacks: Sequence[int], events: Sequence[Event], **setup: Any
    ) -> Hand:
        """Rebuild a hand by folding its events over the setup (no validation, no dealing)."""
        hand = cls(rules, stacks, _record=False, **setup)
        for e in events:
            hand.apply_unchecked(e)
        return hand

    # ------------------------------------------------------------------ the fold
    def apply_unchecked(self, e: Event) -> None:
        """The only place state changes: fold one event into the state, **unchecked**.

        Only for an event the rules already allowed: one this hand (or one like it) recorded,
        or one a replay built after :meth:`legal` allowed the action (its ``to`` within
        ``min_to``..``max_to``, ``all_in`` when it takes :meth:`live_stack`) or
        :meth:`needs_cards` asked for the cards (the street from :meth:`board_street`). An
        event the rules would refuse corrupts the hand. It takes no automatic step: call
        :meth:`advance` once no player is to act. Everything else goes through the checked
        methods (:meth:`apply`, :meth:`deal_hole`, :meth:`deal_board`, ...).

        Each event type has its handler, chosen by the event's type, the commonest first (a
        compiled direct call each); every handler is part of this fold and changes nothing
        else."""
        self.events.append(e)
        self._legal = None
        t = type(e)
        if t is _ACTED:
            self._apply_action(cast(ev.Acted, e))
        elif t is _HOLE_DEALT:
            self._on_hole_dealt(cast(ev.HoleDealt, e))
        elif t is _POSTED:
            self._on_posted(cast(ev.Posted, e))
        elif t is _BOARD_DEALT:
            self._on_board_dealt(cast(ev.BoardDealt, e))
        elif t is _AWARDED:
            self._on_awarded(cast(ev.Awarded, e))
        elif t is _RETURNED:
            self._on_returned(cast(ev.Returned, e))
        elif t is _ENDED:
            self._on_ended(cast(ev.Ended, e))
        elif t is _SHOWN:
            self._on_shown(cast(ev.Shown, e))
        elif t is _MUCKED:
            self._on_mucked(cast(ev.Mucked, e))
        elif t is _RAKED:
            self._on_raked(cast(ev.Raked, e))
        elif t is _RUNS_CHOSEN:
            self._on_runs_chosen(cast(ev.RunsChosen, e))
        elif t is _BOUNTY_PAID:
            self._on_bounty_paid(cast(ev.BountyPaid, e))

    def _set_all_in(self, p: int) -> None:
        if not self.all_in[p]:
            self.all_in[p] = True
            if not self.folded[p]:
                self._able -= 1

    def _on_posted(self, e: ev.Posted) -> None:
        p = e.player
        self.stacks[p] -= e.amount
        self.totals[p] += e.amount
        kind = e.kind
        if kind != ev.DEAD and kind != ev.ANTE:
            self.bets[p] += e.amount
        elif kind == ev.DEAD or self._single_ante:
            self.dead_in[p] += e.amount
        if self.stacks[p] == self._floor[p]:
            self._set_all_in(p)
        self._pots = None

    def _on_hole_dealt(self, e: ev.HoleDealt) -> None:
        p = e.player
        self.hole[p] = e.cards
        if not self.dealt[p]:
            self.dealt[p] = True
            self._dealt_count += 1
        if self._dealt_count == self.n:
            if self.bomb:  # a bomb pot: no betting before the flop
                self._close_street()
            else:
                self._open_betting(preflop=True)

    def _on_board_dealt(self, e: ev.BoardDealt) -> None:
        boards = self.boards
        boards[e.run].extend(e.cards)
        self.saw_flop = True
        if not self.betting_over:
            if self.double_board and len(boards[1]) < len(boards[0]):
                return  # the second board's cards of this street first, then the betting
            self.street = e.street
            self._open_betting(preflop=False)
        else:
            if e.street > self.street:
                self.street = e.street
            size = self._board_cards
            if all(len(b) == size for b in self.boards):
                self.phase = _SHOWDOWN

    def _on_returned(self, e: ev.Returned) -> None:
        self.stacks[e.player] += e.amount
        self.totals[e.player] -= e.amount
        self.returned[e.player] += e.amount
        if self.bets[e.player] >= e.amount:
            self.bets[e.player] -= e.amount
        self._pots = None

    def _on_runs_chosen(self, e: ev.RunsChosen) -> None:
        self._runs_chosen = True
        base = self.boards[0]
        self.boards = [list(base) for _ in range(e.runs)]

    def _on_shown(self, e: ev.Shown) -> None:
        self.shown[e.player] = e.cards
        self.hole[e.player] = e.cards

    def _on_mucked(self, e: ev.Mucked) -> None:
        self.mucked.add(e.player)

    def _on_awarded(self, e: ev.Awarded) -> None:
        self.stacks[e.player] += e.amount
        self.won[e.player] += e.amount

    def _on_raked(self, e: ev.Raked) -> None:
        self.rake += e.amount

    def _on_bounty_paid(self, e: ev.BountyPaid) -> None:
        self.stacks[e.payer] -= e.amount
        self.stacks[e.player] += e.amount
        self.bounty[e.payer] -= e.amount
        self.bounty[e.player] += e.amount

    def _on_ended(self, e: ev.Ended) -> None:
        self.phase = _DONE
        self.actor = None

    def _open_betting(self, preflop: bool) -> None:
        n = self.n
        if not preflop:
            self.bets = [0] * n
            self.level = self.full_level = self.largest_bet = 0
            self.increment = self.rules.big_blind
            self.bets_count = 0
        self._capped = False
        self.acted = [False] * n
        self.reopen_at = [0] * n
        if preflop:
            # a blind posted all-in short still makes the others face the full blind
            rules = self.rules
            self.level, self.increment, self.bets_count = preflop_opening(
                self._plain_blinds, self.straddles, rules.big_blind)
            self.full_level = self.largest_bet = self.level
            if self._fixed:
                self._note_cap()
            # first to act: the player after the last straddle, or the largest live blind
            start = first_to_act(n, self.button, self._plain_blinds, self.straddles, True,
                                 rules.small_blind == rules.big_blind) - 1
        else:
            start = self.button
        self.phase = _BETTING
        self.actor = self._next_actor(start)
        if self.actor is None:
            self._close_street()

    def _next_actor(self, after: int) -> int | None:
        # the next player who must answer: one facing a bet (when nobody else can act, only
        # if some live player has put in more), or one who has not acted while someone else
        # can still bet; the running count of players able to act avoids rescans
        if self._live < 2:
            return None
        n = self.n
        folded, all_in, bets, acted = self.folded, self.all_in, self.bets, self.acted
        able = self._able
        level = self.level
        for k in range(1, n + 1):
            p = (after + k) % n  # clockwise, ending at `after`
            if folded[p] or all_in[p]:
                continue
            if bets[p] < level:
                if able < 2:
                    top = max((bets[q] for q in range(n) if q != p and not folded[q]),
                              default=0)
                    if bets[p] < top:
                        return p
                    continue
                return p
            if not acted[p] and able >= 2:
                return p
        return None

    def _apply_action(self, e: ev.Acted) -> None:
        p = e.player
        if e.action == ev.FOLD:
            if not self.folded[p]:
                self.folded[p] = True
                self._live -= 1
                if not self.all_in[p]:
                    self._able -= 1
        else:
            self.stacks[p] -= e.added
            self.bets[p] += e.added
            self.totals[p] += e.added
            if self.stacks[p] == self._floor[p]:
                self._set_all_in(p)
            level = self.level
            if e.to > level:
                inc = e.to - level
                fixed = self._fixed
                if fixed or self._last_bet:
                    rules = self.rules
                    full = is_full_raise(e.to, level, self.full_level, self.increment,
                                         self.largest_bet, rules.big_blind,
                                         rules.fixed_bet(self.street) if fixed else 0, fixed,
                                         self._last_bet)
                else:  # is_full_raise's answer under TDA 45, read without the call
                    full = inc >= self.increment
                if full:
                    if inc > self.increment:
                        self.increment = inc
                    self.full_level = e.to
                    if e.to > self.largest_bet:
                        self.largest_bet = e.to
                    self.bets_count += 1
                    if self._fixed:
                        self._note_cap()
                self.level = e.to
                self.aggressor = p
                self.aggressor_street = self.street
        self._pots = None
        self.acted[p] = True
        if self._fixed or self._last_bet:
            rules = self.rules
            step = reopen_step(self.level, self.increment, self.largest_bet, rules.big_blind,
                               rules.fixed_bet(self.street), self._fixed, self._last_bet)
        else:
            step = self.increment  # reopen_step's answer under TDA 45, read without the call
        self.reopen_at[p] = self.level + step
        nxt = self._next_actor(p)
        self.actor = nxt
        if nxt is None:
            self._close_street()

    def _note_cap(self) -> None:
        if reaches_cap(self.bets_count, self.rules.bet_cap, self._able):
            self._capped = True

    def _close_street(self) -> None:
        self.actor = None
        if self._live < 2:
            # settles at once in advance; at a 7-2 bounty table, once the winner chose to show
            # or not (lone_winner)
            self.phase = _SHOWDOWN if self._bounty else _DEAL
            self.betting_over = True
            return
        last = self.street == self._last_street
        if last or self._able < 2:
            self.betting_over = True
        if last:
            self.phase = _SHOWDOWN
        else:
            self.phase = _DEAL

    # ------------------------------------------------------------------ automatic steps
    def advance(self) -> None:
        """Take the steps that need nobody's decision: returns, dealing from the deck, settling.
        Every checked method calls it; a replay that records events with
        :meth:`apply_unchecked` calls it once nobody is to act."""
        returned = False  # uncalled chips are looked for once: no step below changes the bets
        while True:
            phase = self.phase
            if phase is _BETTING or phase is _DONE:
                return
            dealt = self._dealt_count == self.n
            if dealt and not returned:
                returned = True
                if self._return_uncalled():
                    continue
            if dealt and self._live == 1 and not self._bounty:
                self._settle()
                return
            if phase is _DEAL:
                if not dealt and self.deck is not None and self._auto_deal:
                    # every player's hole cards in one pass, in the order needs_cards gives
                    n, b = self.n, self.button
                    count = self._hole_cards
                    for p in (*range(b + 1, n), *range(b + 1)):
                        if not self.dealt[p]:
                            self.apply_unchecked(_new(_HOLE_DEALT, (p, self._draw(count))))
                    continue
                need = self.needs_cards()
                if need is None or self.deck is None or not self._auto_deal:
                    return
                kind, who, count = need
                cards = self._draw(count)
                if kind == "hole":
                    self.apply_unchecked(_new(_HOLE_DEALT, (who, cards)))
                else:
                    self.apply_unchecked(_new(_BOARD_DEALT, (self.board_street(who), cards, who)))
                continue
            if phase is _SHOWDOWN:
                if self.auto_showdown:
                    self._table_hands()
                if self._showdown_decided():
                    self._settle()
                return
            return

    def _return_uncalled(self) -> bool:
        # called only between streets: once a street is closed nobody can call it any more.
        # Only this street's live bets can call a bet: antes and dead blinds never match one
        # (a big-blind ante is dead money), so the bets, not the hand totals, are compared.
        p, amount = uncalled(self.bets)
        if amount:
            self.apply_unchecked(_new(_RETURNED, (p, amount)))
            return True
        return False

    def _draw(self, count: int) -> tuple[Card, ...]:
        assert self.deck is not None
        if self._deck_next + count > len(self.deck):
            raise HandError(t("the deck ran out of cards"))
        out = self.deck[self._deck_next:self._deck_next + count]
        self._deck_next += count
        return out

    def needs_cards(self) -> tuple[str, int, int] | None:
        """What must be dealt next: ("hole", player, count) or ("board", run, count), or None
        (the counts are the game's: 2 hole cards, then 3, 1 and 1 board cards in hold'em)."""
        if self.phase is not _DEAL:
            return None
        if self._dealt_count < self.n:
            n = self.n
            for k in range(n):
                p = (self.button + 1 + k) % n
                if not self.dealt[p]:
                    return ("hole", p, self._hole_cards)
        if self._live < 2 or (not self._auto_runs and self.needs_runs()):
            return None
        boards = self.boards
        if self.double_board:  # street by street: each street's cards to both boards
            run = 1 if len(boards[1]) < len(boards[0]) else 0
            size = len(boards[run])
            return ("board", run, self._due_at[size]) if size < self._board_cards else None
        for run, board in enumerate(boards):
            if len(board) < self._board_cards:
                return ("board", run, self._due_at[len(board)])
        return None

    def needs_runs(self) -> bool:
        """Whether the hand waits for the run-out choice (:meth:`set_runs`: once, or more
        times): betting is over with two or more players in and cards to come, and the
        :data:`~tapete.core.automation.Automation.RUN_ONCE` automation is off."""
        return not self._auto_runs and not self._runs_chosen and self.betting_over \
            and self.phase is _DEAL and self._live >= 2 and len(self.boards) == 1 \
            and len(self.boards[0]) < self._board_cards and self._dealt_count == self.n

    def needs_showdown(self) -> int | None:
        """The player to show or muck next (:meth:`show`, :meth:`muck`, or :meth:`settle` for
        the rules' choice), or None when the showdown is not waiting for anyone."""
        if self.phase is not _SHOWDOWN or self._showdown_decided():
            return None
        order = self.showdown_order()
        return order[0] if order else None

    def deal(self) -> None:
        """Deal from the deck what :meth:`needs_cards` says is due (a hand whose
        :data:`~tapete.core.automation.Automation.DEAL` automation is off)."""
        need = self.needs_cards()
        if need is None or self.deck is None:
            raise HandError(t("no cards are due now"))
        kind, who, count = need
        cards = self._draw(count)
        if kind == "hole":
            self.apply_unchecked(_new(_HOLE_DEALT, (who, cards)))
        else:
            self.apply_unchecked(_new(_BOARD_DEALT, (self.board_street(who), cards, who)))
        self.advance()

    def clone(self) -> Hand:
        """An independent copy, deck included, to play on without touching this hand: the
        setup and the events folded again (a hand is some thirty events)."""
        other = Hand.from_events(self.rules, self.starting_stacks, self.events,
                                 deck=self.deck, automations=self.automations,
                                 **self.setup.hand_args())
        other._deck_next = self._deck_next
        other.results = list(self.results)
        return other

    def live_stack(self, player: int) -> int:
        """The chips ``player`` may still put in this hand: the stack, less (in a cap game)
        the chips above the cap that stay behind."""
        return self.stacks[player] - self._floor[player]

    def board_street(self, run: int) -> int:
        """The street the next board cards of ``run`` deal (1 flop, 2 turn, 3 river)."""
        return self._street_at[len(self.boards[run])]

    # ------------------------------------------------------------------ dealing by hand
    def deal_hole(self, player: int, cards: Sequence[Card] | None = None) -> None:
        """Deal a player's hole cards (None: face down, unknown) when the hand has no deck."""
        need = self.needs_cards()
        if need is None or need[0] != "hole":
            raise HandError(t("no hole cards are due now"))
        if self.dealt[player]:
            raise HandError(t("{who} already has cards", who=self.names[player]))
        c = self._check_new_cards(cards, self._hole_cards) if cards is not None else None
        self.apply_unchecked(_new(_HOLE_DEALT, (player, c)))
        self.advance()

    def deal_board(self, cards: Sequence[Card]) -> None:
        need = self.needs_cards()
        if need is None or need[0] != "board":
            raise HandError(t("no board cards are due now"))
        _, run, count = need
        c = self._check_new_cards(cards, count)
        self.apply_unchecked(_new(_BOARD_DEALT, (self.board_street(run), c, run)))
        self.advance()

    def _check_new_cards(self, cards: Sequence[Card], count: int) -> tuple[Card, ...]:
        c = tuple(cards)
        if len(c) != count:
            raise HandError(t("{due} cards are due, not {given}", due=count, given=len(c)))
        seen = set(self.visible_cards())
        for x in c:
            if x in seen or c.count(x) > 1:
                raise HandError(t("{card} is already in play", card=format_card(x)))
        return c

    def visible_cards(self) -> list[Card]:
        out: list[Card] = []
        for h in self.hole:
            if h:
                out.extend(h)
        for b in self.boards:
            out.extend(x for x in b if x not in out)
        return out

    def set_runs(self, runs: object) -> None:
        """Run the rest of the board ``runs`` times (players agreed; only when nobody can bet):
        1 to :meth:`max_runs`. Anything else is refused (:class:`IllegalAction`, saying what
        is legal) and changes nothing."""
        if self.double_board:
            raise HandError(t("a double board is not run again: each board runs once"))
        if not self.betting_over or self.phase is not _DEAL or len(self.boards) != 1 \
                or len(self.boards[0]) == self._board_cards:
            raise HandError(t("the board can be run more than once only when betting is over"))
        most = self.max_runs()
        # typed object: a caller's bad value is refused clearly, never by a TypeError
        chosen = runs if type(runs) is int else 0
        if not 1 <= chosen <= most:
            legal = t("once only") if most == 1 else t("1 to {most} times", most=most)
            need = self._board_cards - len(self.boards[0])
            raise IllegalAction(t(
                "the board cannot be run {runs} times: the deck has {left} cards left, "
                "{need} a run, and the board runs at most {cap} times. Legal: {legal}.",
                runs=chosen if type(runs) is int else repr(runs), left=self._cards_left(),
                need=need, cap=_MOST_RUNS, legal=legal))
        self.apply_unchecked(ev.RunsChosen(chosen))
        self.advance()

    def max_runs(self) -> int:
        """The most times the rest of the board can be run now (:meth:`set_runs`): four at
        most, and no more than the cards left in the deck deal (the engine burns no card: a
        run of the whole board in hold'em takes 5). 1 when the board is complete, or on a
        double board (never run again). The room asks it before offering a vote."""
        need = self._board_cards - len(self.boards[0])
        if need <= 0 or self.double_board:
            return 1
        most = self._cards_left() // need
        return _MOST_RUNS if most > _MOST_RUNS else most if most > 1 else 1

    def _cards_left(self) -> int:
        """The cards not dealt yet: the deck's rest, or, when the cards are given as dealt, a
        full deck less the hole cards of every player dealt in and the board."""
        if self.deck is not None:
            return len(self.deck) - self._deck_next
        return DECK_SIZE - self._dealt_count * self._hole_cards \
            - sum(len(b) for b in self.boards)

    # ------------------------------------------------------------------ betting
    def legal(self) -> Legal:
        """The legal options of the player to act (raises HandError if nobody is to act)."""
        if self._legal is not None:
            return self._legal
        p = self.actor
        if p is None or self.phase is not _BETTING:
            raise HandError(t("nobody is to act now"))
        # a raise needs an opponent who could put in more than the current bet (seed 000:
        # Chuck cannot raise "because Andy has no chips left to call or raise")
        opponent = False
        folded, all_in, bets, stacks, level, floor = (self.folded, self.all_in, self.bets,
                                                      self.stacks, self.level, self._floor)
        for q in range(self.n):
            if q != p and not folded[q] and not all_in[q] \
                    and bets[q] + stacks[q] - floor[q] > level:
                opponent = True
                break
        # positional, in the order of options()'s parameters (keywords cost more per call)
        self._legal = legal = options(
            self.rules, p, self.street, level, self.full_level, self.increment,
            self.largest_bet, self.bets_count, self._able, self._capped, bets[p],
            stacks[p] - floor[p], _total(self.totals),
            not self.acted[p] or level >= self.reopen_at[p], opponent, self._last_bet,
            self._structure, self._decimals, self._currency,
        )
        return legal

    def _check_turn(self, player: object) -> Legal:
        # legal() is kept only while a player is to act (every event clears it), so when it is
        # there the phase needs no test. ``player`` is checked here, whatever its type: a
        # caller's bad value gets a clear IllegalAction, never a TypeError
        asked: int | None = None
        if player is not None:
            if type(player) is not int or not 0 <= player < self.n:
                raise IllegalAction(t("there is no player {player} in this hand (0..{last})",
                                      player=repr(player), last=str(self.n - 1)))
            asked = player
        legal = self._legal
        if legal is None:
            if self.phase is not _BETTING or self.actor is None:
                raise IllegalAction(t("no betting action is possible now"))
            legal = self.legal()
        if asked is not None and asked != legal.player:
            raise IllegalAction(t("it is not {name}'s turn: {who} is to act ({legal})",
                                  name=self.names[asked], who=self.names[legal.player],
                                  legal=legal.summary()), legal)
        return legal

    def _refuse(self, tried: Text | str, legal: Legal, why: Text | None) -> NoReturn:
        who, s = self.names[legal.player], legal.summary()
        if why is None:
            raise IllegalAction(t("{who} cannot {action}. Legal: {legal}.", who=who,
                                  action=tried, legal=s), legal)
        raise IllegalAction(t("{who} cannot {action} ({why}). Legal: {legal}.", who=who,
                              action=tried, why=why, legal=s), legal)

    def fold(self, player: object = None) -> None:
        legal = self._check_turn(player)
        if not legal.fold:
            self._refuse(tc("action", "fold"), legal, t("checking is free"))
        p = legal.player
        self.apply_unchecked(_new(_ACTED, (p, ev.FOLD, self.bets[p], 0, False, False)))
        if self.phase is not _BETTING:  # nothing happens by itself while a player is to act
            self.advance()

    def check(self, player: object = None) -> None:
        legal = self._check_turn(player)
        if not legal.check:
            self._refuse(tc("action", "check"), legal,
                         t("there is a bet of {amount} to call", amount=self._ct(self.level)))
        p = legal.player
        self.apply_unchecked(_new(_ACTED, (p, ev.CHECK, self.bets[p], 0, False, False)))
        if self.phase is not _BETTING:
            self.advance()

    def call(self, player: object = None) -> None:
        legal = self._check_turn(player)
        if legal.check:
            self._refuse(tc("action", "call"), legal, t("there is no bet to call"))
        p = legal.player
        self.apply_unchecked(_new(_ACTED, (p, ev.CALL, legal.call_to, legal.call,
                                           legal.call_all_in, False)))
        if self.phase is not _BETTING:
            self.advance()

    def check_or_call(self, player: object = None) -> None:
        legal = self._check_turn(player)
        if legal.check:
            self.check(player)
        else:
            self.call(player)

    def raise_to(self, amount: object, player: object = None) -> None:
        """Bet or raise to ``amount``, this street's total (never the chips added by a click)."""
        legal = self._check_turn(player)
        if type(amount) is int:
            to = amount
        elif isinstance(amount, numbers.Integral) and not isinstance(amount, bool):
            to = int(amount)  # a numpy integer, say
        else:
            self._refuse_raise(legal, repr(amount), t("amounts are whole chips"))
        lo, hi = legal.min_to, legal.max_to
        if lo is None or hi is None or not lo <= to <= hi:
            why = (legal.explain_no_raise() if lo is None or hi is None
                   else legal.explain_min() if to < lo else legal.explain_max())
            self._refuse_raise(legal, self._ct(to), why)
        p = legal.player
        added = to - self.bets[p]
        kind = ev.BET if legal.is_bet else ev.RAISE
        self.apply_unchecked(_new(_ACTED, (p, kind, to, added,
                                           added == self.stacks[p] - self._floor[p], False)))
        if self.phase is not _BETTING:
            self.advance()

    def _refuse_raise(self, legal: Legal, amount: Text | str, why: Text) -> NoReturn:
        tried = t("bet {amount}", amount=amount) if legal.is_bet else \
            t("raise to {amount}", amount=amount)
        self._refuse(tried, legal, why)

    def bet(self, amount: object, player: object = None) -> None:
        """Open the betting: the same as :meth:`raise_to` (which names a bet or a raise)."""
        self.raise_to(amount, player)

    def apply(self, action: Action, player: object = None) -> Event:
        """Play one :class:`~tapete.core.actions.Action` for the player to act (``player``,
        when given, must be that player) and return the event it recorded.

        Validated against :meth:`legal` exactly as :meth:`act` is, with the same messages: an
        illegal action raises :class:`IllegalAction` and changes nothing. A bet and a raise
        are one thing to the engine (it records which one the street makes it)."""
        before = len(self.events)
        kind = action.kind
        if kind == ev.FOLD:
            self.fold(player)
        elif kind == ev.CHECK:
            self.check(player)
        elif kind == ev.CALL:
            self.call(player)
        elif kind == ev.BET or kind == ev.RAISE:
            if action.to is None:
                legal = self._check_turn(player)
                self._refuse(_bet_word(legal), legal, t("an amount is needed"))
            self.raise_to(action.to, player)
        else:
            raise MalformedAction(t("unknown action {action}", action=repr(kind)))
        return self.events[before]

    def act(self, action: str, amount: object = None, player: object = None) -> None:
        """Generic entry point: "fold", "check", "call", "check_or_call", "bet"/"raise" + amount
        (an :class:`~tapete.core.actions.Action` through :meth:`apply`)."""
        a = action.lower().replace("-", "_")
        if a in ("check_or_call", "cc"):
            self.check_or_call(player)
            return
        if a in ("bet", "raise", "raise_to", "cbr"):
            if amount is None:
                legal = self._check_turn(player)
                self._refuse(_bet_word(legal), legal, t("an amount is needed"))
            self.raise_to(amount, player)
            return
        if a not in _ACTION_KINDS:
            raise IllegalAction(t("unknown action {action}", action=repr(action)))
        self.apply(Action(a), player)

    def time_out(self, player: object = None) -> None:
        """The player to act ran out of time: checked if checking is free, else folded."""
        legal = self._check_turn(player)
        p = legal.player
        if legal.check:
            self.apply_unchecked(ev.Acted(p, ev.CHECK, self.bets[p], 0, timed_out=True))
        else:
            self.apply_unchecked(ev.Acted(p, ev.FOLD, self.bets[p], 0, timed_out=True))
        self.advance()

    def _ct(self, amount: int) -> Text:
        """An amount of this hand's chips in every language."""
        return amount_text(amount, self.rules.decimals, self.rules.currency)

    def acting_order(self, preflop: bool | None = None) -> list[int]:
        """Every player in the order they act on a street (preflop: after the last straddle
        or the big blind; after the flop: from the first after the button), folded and all-in
        players included (:func:`tapete.core.betting.acting_order`). ``preflop`` defaults to
        the street the hand is on."""
        rules = self.rules
        return acting_order(self.n, self.button, self._plain_blinds, self.straddles,
                            self.street == 0 if preflop is None else preflop,
                            rules.small_blind == rules.big_blind)

    # ------------------------------------------------------------------ showdown
    def showdown_order(self) -> list[int]:
        """Who shows first: the last aggressor of the final betting round, else the first
        player left of the button; then clockwise. Only players still to show or muck."""
        n = self.n
        first = (self.button + 1) % n
        if self.aggressor is not None and self.aggressor_street == self.street \
                and not self.folded[self.aggressor]:
            first = self.aggressor
        order = [(first + k) % n for k in range(n)]
        return [p for p in order if not self.folded[p] and p not in self.shown
                and p not in self.mucked]

    def _showdown_open(self) -> bool:
        return self.betting_over and self.phase in (_DEAL, _SHOWDOWN) and (
            self._live >= 2 or self.lone_winner() is not None)

    def lone_winner(self) -> int | None:
        """At a 7-2 bounty table (``Rules.bounty_72``), the player left alone in the hand, the
        others folded or mucked, who has not shown: the hand waits for them to show
        (:meth:`show`: a 7-2 collects the bounty) or not (:meth:`muck`: they win unshown);
        :meth:`settle` shows a 7-2 and nothing else. None otherwise (docs/rules.md, "Home
        games")."""
        if not self._bounty or self.phase is not _SHOWDOWN or self._declined or self.shown \
                or self._live - len(self.mucked) != 1:
            return None
        folded, mucked = self.folded, self.mucked
        return next(p for p in range(self.n) if not folded[p] and p not in mucked)

    def show(self, player: int, cards: Sequence[Card] | None = None) -> None:
        """Show a hand (cards needed only when they were dealt face down in this record)."""
        if not self._showdown_open() or self.folded[player] or player in self.shown \
                or player in self.mucked:
            raise HandError(t("{who} cannot show cards now", who=self.names[player]))
        known = self.hole[player]
        if cards is None:
            if known is None:
                raise HandError(t("{who}'s cards are unknown: name them",
                                  who=self.names[player]))
            c = known
        else:
            c = tuple(cards)
            if known is not None and sorted(c) != sorted(known):
                raise HandError(t("{who} holds {held}, not {given}", who=self.names[player],
                                  held=format_cards(known), given=format_cards(c)))
            if known is None:
                c = self._check_new_cards(c, self._hole_cards)
        self.apply_unchecked(ev.Shown(player, c))
        self.advance()

    def muck(self, player: int) -> None:
        """Give up the hand at showdown without showing (not the last player in a pot)."""
        if not self._showdown_open() or self.folded[player] or player in self.shown \
                or player in self.mucked:
            raise HandError(t("{who} cannot muck now", who=self.names[player]))
        if self.lone_winner() == player:  # they win without showing (no bounty)
            self._declined = True
            self.advance()
            return
        for pot in self.pots():
            if player in pot.eligible and not any(
                    q != player and not self.folded[q] and q not in self.mucked
                    for q in pot.eligible):
                # the last contender of a pot wins it: mucking would leave it to nobody
                raise HandError(t("{who} is the last player in a pot of {amount} and cannot"
                                  " muck", who=self.names[player], amount=self._ct(pot.amount)))
        self.apply_unchecked(ev.Mucked(player))
        self.advance()

    def _showdown_decided(self) -> bool:
        # every live player has shown, or one is left, who wins without showing (at a 7-2
        # bounty table, once they chose to show or not). Only live players show or muck
        # (after the betting), and never both: counting is enough.
        left = self._live - len(self.mucked)
        if left == 1:
            return not self._bounty or self._declined or len(self.shown) == 1
        return len(self.shown) >= left

    def settle(self) -> None:
        """Finish the showdown automatically (see :meth:`_decide_one`)."""
        if self.phase is not _SHOWDOWN:
            raise HandError(t("there is no showdown to settle now"))
        self._table_hands()
        self.advance()

    def _table_hands(self) -> None:
        """Players show or muck in showdown order until the showdown is decided. The order
        and the pots do not change meanwhile, so both are computed once."""
        if self._showdown_decided():
            return
        pots = self.pots()
        for p in self.showdown_order():
            if self.lone_winner() == p:  # the rules' choice: a 7-2 is shown to collect
                hole = self.hole[p]
                if hole is not None and _seven_deuce(hole):
                    self.apply_unchecked(_new(_SHOWN, (p, hole)))
                else:
                    self._declined = True
                return
            self._decide_one(p, pots)
            if self._showdown_decided():
                return

    def _decide_one(self, p: int, pots: list[Pot]) -> None:
        """Player ``p``, next in showdown order, shows a hand that can still win or tie a pot
        it is in, or mucks one that cannot. Once a player is all-in and the betting is over,
        every hand is tabled (TDA Rule 16), so nobody mucks."""
        hole = self.hole[p]
        if hole is None:
            raise HandError(t("{who}'s cards are unknown", who=self.names[p]))
        show = any(self.all_in) or not self.shown or not self._can_muck(p)
        if not show:
            mine = self._strength(p, hole)
            shown = self.shown
            for pot in pots:
                if p not in pot.eligible:
                    continue
                rivals = [self._strength(q, shown[q]) for q in pot.eligible if q in shown]
                if not rivals or any(all(m >= s[r] for s in rivals)
                                     for r, m in enumerate(mine)):
                    show = True
                    break
                if self._high_low and self._can_win_low(p, pot.eligible):
                    show = True
                    break
        if show:
            self.apply_unchecked(_new(_SHOWN, (p, hole)))
        else:
            self.apply_unchecked(_new(_MUCKED, (p,)))

    def _strength(self, p: int, cards: tuple[Card, ...]) -> tuple[int, ...]:
        """Player p's strength on each run's board, evaluated once a hand: called only at
        the showdown, when the boards are complete and p's cards are known for good."""
        s = self._strengths.get(p)
        if s is None:
            boards = self.boards
            if not self._any_five:  # the game forms the hand its own way (best_hand)
                game = self.game
                s = tuple(best_hand(game, cards, b) for b in boards)
            else:  # any five of the seven: the evaluator directly
                evaluate = _evaluate or _load_evaluator()
                if len(boards) == 1:
                    s = (evaluate((*cards, *boards[0])),)
                else:
                    s = tuple(evaluate((*cards, *b)) for b in boards)
            self._strengths[p] = s
        return s

    def _low_strength(self, p: int) -> tuple[int, ...]:
        """Player p's eight-or-better low on each run's board (0: none), in a high-low game;
        evaluated once, at the showdown, as :meth:`_strength`."""
        s = self._lows.get(p)
        if s is None:
            hole = self.hole[p]
            if hole is None:
                raise HandError(t("{who}'s cards are unknown", who=self.names[p]))
            game = self.game
            s = tuple(best_low(game, hole, b) for b in self.boards)
            self._lows[p] = s
        return s

    def _can_win_low(self, p: int, eligible: tuple[int, ...]) -> bool:
        """Whether p's low wins or ties the low half against the hands shown in a pot."""
        mine = self._low_strength(p)
        rivals = [self._low_strength(q) for q in eligible if q in self.shown]
        return any(m and all(m >= s[r] for s in rivals) for r, m in enumerate(mine))

    def _can_muck(self, p: int) -> bool:
        return any(q != p and not self.folded[q] and q not in self.mucked for q in range(self.n))

    # ------------------------------------------------------------------ settling
    def pots(self) -> list[Pot]:
        """The pots as they stand (uncalled chips not yet returned count in the last one).

        Dead money (dead blinds, a big-blind ante) matches nobody's bet: the levels are cut
        from the live contributions and the dead chips go to the main pot (TDA)."""
        if self._pots is None:  # cleared by every event that changes what the pots depend on
            self._pots = self._build_pots()
        return list(self._pots)

    def _build_pots(self) -> list[Pot]:
        return build_pots(self.totals, self.folded, self.all_in, self.dead_in)

    def _settle(self) -> None:
        n = self.n
        pots = take_rake(self.pots(), self.rules, self.saw_flop)
        first = (self.button + 1) % n
        # a hand the others folded is won whole, a double board's too (runs are chosen only
        # with two players or more in the hand)
        runs = len(self.boards) if self._live > 1 else 1
        folded, mucked = self.folded, self.mucked
        contenders = [p for p in range(n) if not folded[p] and p not in mucked]
        strength: dict[int, tuple[int, ...]] = {}  # player -> strength on each run's board
        high_low = self._high_low
        if len(contenders) > 1:
            for p in contenders:
                h = self.hole[p]
                if h is None:
                    raise HandError(t("a hand with unknown cards cannot be settled"))
                strength[p] = self._strength(p, h)
        for i, pot in enumerate(pots):
            if pot.rake:
                self.apply_unchecked(_new(_RAKED, (i, pot.rake)))
            eligible = [p for p in pot.eligible if p in contenders]
            if not eligible:  # muck() never leaves a pot without a live player
                raise BooksError(f"pot {i} has no live player to win it")
            if high_low and len(eligible) > 1:
                self.results.append(self._settle_high_low(i, pot, eligible, strength, first))
                continue
            shares: dict[int, int] = {}
            winners_all: set[int] = set()
            per_run, odd = divmod(pot.amount, runs)
            for r in range(runs):
                amount = per_run + (odd if r == 0 else 0)
                if len(eligible) == 1:
                    winners = eligible
                else:
                    best = max(strength[p][r] for p in eligible)
                    winners = [p for p in eligible if strength[p][r] == best]
                if len(winners) == 1:  # the usual case: nothing to split
                    awards: Iterable[tuple[int, int]] = ((winners[0], amount),)
                else:
                    awards = split(amount, winners, first, n).items()
                for p, x in awards:
                    if x:
                        self.apply_unchecked(_new(_AWARDED, (i, p, x, r, _WHOLE)))
                        shares[p] = shares.get(p, 0) + x
                winners_all.update(winners)
            self.results.append(PotResult(
                pot.amount, pot.eligible, tuple(sorted(winners_all)),
                tuple(sorted(shares.items())), pot.rake))
        if self._bounty:
            self._pay_bounties(first)
        self._check_books()
        self.apply_unchecked(_new(_ENDED, (tuple(self.stacks),)))

    def _pay_bounties(self, first: int) -> None:
        """The 7-2 bounty (docs/rules.md, "Home games"): a player who shows a seven and a
        deuce and wins chips another player put in (a pot or part of one, at the showdown or
        uncontested; not only the chips of their own that nobody matched) collects
        ``Rules.bounty_72`` from every other player dealt in but another such winner, once a
        hand, whatever the runs, boards and pots; a payer short of it pays what they have
        left (in a cap game, of the chips they may put in). Winners are paid, and payers
        pay, in seat order from the first left of the button."""
        n = self.n
        order = [(first + k) % n for k in range(n)]
        totals, won, shown = self.totals, self.won, self.shown
        winners: list[int] = []
        for p in order:
            if p in shown and _seven_deuce(shown[p]):
                matched = max(totals[q] for q in range(n) if q != p)
                own = totals[p] - matched if totals[p] > matched else 0
                if won[p] > own:
                    winners.append(p)
        bounty = self._bounty
        for w in winners:
            for q in order:
                if q == w or q in winners:
                    continue
                have = self.stacks[q] - self._floor[q]
                paid = bounty if bounty < have else have
                if paid > 0:
                    self.apply_unchecked(_new(_BOUNTY_PAID, (q, w, paid)))

    def _settle_high_low(self, i: int, pot: Pot, eligible: list[int],
                         strength: dict[int, tuple[int, ...]], first: int) -> PotResult:
        """Pot ``i`` of a high-low game, contested by ``eligible``: each run's share of it
        splits between the best high (half, and the odd chip) and the best qualifying low
        (the other half); no low qualifies: the high takes the run's share whole. Ties split
        within each half by the seat rule, the low half's odd chips first to the winners who
        took none of the high half's: players tied for both halves share the run's share as
        evenly as possible, one odd chip each at most (docs/rules.md section 4, HL-6)."""
        n = self.n
        shares: dict[int, int] = {}
        low_shares: dict[int, int] = {}
        winners_all: set[int] = set()
        low_all: set[int] = set()
        lows = {p: self._low_strength(p) for p in eligible}
        per_run, odd = divmod(pot.amount, len(self.boards))
        for r in range(len(self.boards)):
            amount = per_run + (odd if r == 0 else 0)
            best = max(strength[p][r] for p in eligible)
            high = [p for p in eligible if strength[p][r] == best]
            best_low = max(lows[p][r] for p in eligible)
            halves: list[tuple[str, int, list[int]]] = [(_HIGH, amount, high)]
            if best_low:
                low = [p for p in eligible if lows[p][r] == best_low]
                halves = [(_HIGH, amount - amount // 2, high), (_LOW, amount // 2, low)]
                low_all.update(low)
            had_odd: list[int] = []  # who took an odd chip of the high half's tie
            for half, chips, winners in halves:
                parts = split(chips, winners, first, n, had_odd)
                if half == _HIGH and len(winners) > 1:
                    even = chips // len(winners)
                    had_odd = [p for p, x in parts.items() if x > even]
                for p, x in parts.items():
                    if x:
                        self.apply_unchecked(_new(_AWARDED, (i, p, x, r, half)))
                        shares[p] = shares.get(p, 0) + x
                        if half == _LOW:
                            low_shares[p] = low_shares.get(p, 0) + x
                winners_all.update(winners)
        return PotResult(pot.amount, pot.eligible, tuple(sorted(winners_all)),
                         tuple(sorted(shares.items())), pot.rake, tuple(sorted(low_all)),
                         tuple(sorted(low_shares.items())))

    def _check_books(self) -> None:
        start, stacks = sum(self.starting_stacks), _total(self.stacks)
        won, totals, rake = _total(self.won), _total(self.totals), self.rake
        put_in = start - stacks + won
        paid_out = won + rake
        if totals != paid_out or put_in != totals:
            raise BooksError(f"books do not balance: contributions {totals}, "
                             f"awards {won}, rake {rake}")
        if stacks + rake != start:
            raise BooksError("chips were created or lost")
        if self._bounty:  # the bounty payments net to zero, and each player's chips add up
            bounty = self.bounty
            if _total(bounty) != 0:
                raise BooksError(f"the bounty payments do not net to zero: {bounty}")
            for p in range(self.n):
                if self.starting_stacks[p] - self.stacks[p] + self.won[p] + bounty[p] \
                        != self.totals[p]:
                    raise BooksError(f"player {p}'s chips do not add up")

    # ------------------------------------------------------------------ reading
    @property
    def done(self) -> bool:
        return self.phase is _DONE

    @property
    def board(self) -> list[Card]:
        return self.boards[0]

    def pot_total(self) -> int:
        return _total(self.totals)

    def net(self) -> list[int]:
        """Each player's result: finishing stack minus starting stack."""
        return [s - s0 for s, s0 in zip(self.stacks, self.starting_stacks, strict=True)]

