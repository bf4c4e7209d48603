"""One practice table: a person and five bots, run by an asyncio task.

The server is the only referee. The browser gets its own seat's view (``Hand.view``), never
the hand; every action it sends goes through the engine, and each decision carries a sequence
number so an action meant for an earlier decision is refused as stale.

While the person sits out (or waits for the big blind) the five bots keep playing, as a real
room keeps dealing to the others, at ``Settings.idle_pace``; the person misses the blinds that
pass and comes back at the big blind or posts them (:meth:`Table.sit_in`'s ``post_dead``).
With no tab open, a table whose person sits out stops dealing until one is.

The loop deals a hand, asks the player to act (with an action timer and a time bank) or asks
a bot (in a worker thread, after a configurable thinking pause), and shows an all-in run-out
street by street: the engine deals the rest of the board at once, and the table replays those
events as frames with a pause between them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tapete import words
from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck, format_card
from tapete.core.catalog import N_, t
from tapete.core.errors import MalformedAction
from tapete.core.game import GAMES
from tapete.core.hand import Hand, HandError, Phase
from tapete.core.rules import Rules, Structure
from tapete.core.table import Table, TimeOutPolicy
from tapete.core.text import Text
from tapete.server import bots as botmod
from tapete.server import coach
from tapete.server.config import Settings
from tapete.server.money import Purse
from tapete.server.stored import hand_row
from tapete.server.transport import Outbox as Outbox  # re-exported: hub imports it from here
from tapete.server.views import hand_view

log = logging.getLogger("tapete.server")

HUMAN_SEAT = 0
SEATS = 6
BLINDS: tuple[tuple[int, int], ...] = ((1, 2), (5, 10), (25, 50), (50, 100))
STRUCTURES = {"nl": Structure.NO_LIMIT, "pl": Structure.POT_LIMIT, "fl": Structure.FIXED_LIMIT}
MIN_BUY_IN_BB = 20
MAX_BUY_IN_BB = 100
BOT_REBUY_BELOW_BB = 40


def make_rules(structure: str, blinds: int, variant: str = "holdem") -> Rules:
    sb, bb = BLINDS[blinds]
    return Rules(structure=STRUCTURES[structure], small_blind=sb, big_blind=bb,
                 game=GAMES[variant])


def rules_json(r: Rules) -> dict[str, Any]:
    return {"structure": r.structure.value, "variant": r.game.name,
            "hole_cards": r.game.hole_cards,
            "small_blind": r.small_blind, "big_blind": r.big_blind, "small_bet": r.small_bet,
            "big_bet": r.big_bet, "ante": r.ante, "decimals": r.decimals,
            "currency": r.currency}




class Refused(Exception):
    """A message the table will not carry out; nothing changed. ``code`` is for programs."""

    def __init__(self, code: str, message: Text) -> None:
        super().__init__(message.en)
        self.code = code
        self.message = message


@dataclass(slots=True)
class Decision:
    seq: int
    player: int
    started: float
    bank: float
    waiter: asyncio.Future[None]


def send(box: Outbox, data: str, stamp: float | None = None, state: bool = False) -> None:
    """Queue one message for a connection; ``state``: a whole state, which a later one
    replaces."""
    box.put(data, stamp, state=state)


def last_actions(n: int, events: list[ev.Event]) -> list[dict[str, Any] | None]:
    """Each player's last action on the current street (None: none yet): what a seat shows,
    "call 40", "raise to 120"; a call's amount is the chips it added, a bet's or a raise's
    the street total it made."""
    out: list[dict[str, Any] | None] = [None] * n
    for e in events:
        if isinstance(e, ev.BoardDealt):
            out = [None] * n
        elif isinstance(e, ev.Acted):
            amount = e.added if e.action == ev.CALL else e.to if e.action in (
                ev.BET, ev.RAISE) else 0
            out[e.player] = {"action": e.action, "amount": amount, "all_in": e.all_in}
    return out


# what a bot's reasons say of a hand nobody saw: its strength stays hidden too
REASONS_HIDDEN = N_("reasons not shown: the hand was not shown")


class Game:
    """A practice table for one person (all their browser tabs share it)."""

    def __init__(self, settings: Settings, purse: Purse, name: str,
                 structure: str, blinds: int, buy_in: int,
                 on_close: Callable[[Game, asyncio.Future[None]], None],
                 on_hand: Callable[[dict[str, Any]], None], variant: str = "holdem") -> None:
        self.settings = settings
        self.purse = purse  # the person's bankroll; the chips at the table are the table's
        self.player_id = purse.player_id
        self.structure = structure
        self.blinds = blinds
        self.variant = variant
        self.rules = make_rules(structure, blinds, variant)
        bb = self.rules.big_blind
        self.table = Table(self.rules, SEATS, min_buy_in=MIN_BUY_IN_BB * bb,
                           max_buy_in=MAX_BUY_IN_BB * bb, time_out_policy=TimeOutPolicy.SIT_OUT)
        self.table.sit(HUMAN_SEAT, name, buy_in)
        self.session = secrets.token_hex(8)  # hand ids are unique across every session stored
        self.seed_base = settings.deck_seed
        self.bots: dict[int, botmod.RealBot] = {}
        for i, (bname, style) in enumerate(botmod.OPPONENTS, start=1):
            seed = (settings.deck_seed or secrets.randbits(31)) * 10 + i
            self.bots[i] = botmod.make(style, seed, bname)
            self.table.sit(i, bname, MAX_BUY_IN_BB * bb, is_bot=True, style=style)
        self.on_close = on_close  # with the chips back to the bankroll, once stored
        self.on_hand = on_hand  # a hand of the person's was stored: its summary
        self.outboxes: set[Outbox] = set()
        # decisions are numbered from a random start, so that an action meant for another
        # table (or this table before a restart) never matches one of this table's
        self.seq = secrets.randbits(40)
        self.decision: Decision | None = None
        self.pre_action: str | None = None
        self.time_bank = settings.time_bank
        self.coach_on = False
        self.coach_advice: dict[int, dict[str, Any]] = {}
        self._coaching: set[int] = set()  # decisions whose advice is being worked out
        # the coach's reading of the opponents, from the human's seat only
        self.reader: coach.Reader | None = coach.Reader(settings.deck_seed or 0)
        self.leaving = False
        self.closed = False
        self.hand_no = 0
        self.hand: Hand | None = None
        self.human_index: int | None = None
        self.frames: list[dict[str, Any]] = []
        self.frame: dict[str, Any] | None = None
        self.explanations: list[dict[str, Any]] = []
        self.last_result: dict[str, Any] | None = None
        self.last_view: dict[str, Any] | None = None
        self.frame_events = 0
        self.notice: Text | None = None
        self.sat_out_reason: Text | None = None
        self._holding = False  # a hand's result is being stored: the page waits for it
        self.extra_state: Callable[[], dict[str, Any]] = dict
        self._wake = asyncio.Event()
        self._skip_pause = asyncio.Event()
        self._stamp: float | None = None
        self.task: asyncio.Task[None] | None = None
        self.latencies: list[float] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bots_told: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        self.closed = True
        self._wake.set()
        if self.decision is not None and not self.decision.waiter.done():
            self.decision.waiter.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    def human_money(self) -> tuple[int, int]:
        """The person's chips as the page shows them: (at the table, in the pot). At the
        table: the stack, as the board is shown during a run-out (the result follows the
        cards), plus chips added during the hand; in the pot: what the stack put in."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None:
            return 0, 0
        hand, hi = self.table.hand, self.human_index
        if hand is None or hi is None:
            return s.chips + s.pending_chips, 0
        if self.frame is not None:
            p = self.frame["players"][hi]
            return int(p["stack"]) + s.pending_chips, int(p["total"])
        if hand.done:
            return hand.stacks[hi] + s.pending_chips, 0
        return hand.stacks[hi] + s.pending_chips, hand.totals[hi]

    async def _run(self) -> None:
        try:
            while not self.closed:
                self._between_hands()
                if self.closed:
                    break
                if not self._can_deal():
                    self.broadcast()
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                await self._play_hand()
                if self.closed or self.leaving:
                    continue
                pause = self.settings.result_pause
                if self._idle():  # the bots play on: at a pace the page can follow
                    pause = max(pause, self.settings.idle_pace)
                self._skip_pause.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._skip_pause.wait(), pause)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug: tell the player, keep the chips safe
            log.exception("the practice table stopped")
            self.notice = t("The table stopped because of an error; your chips are safe.")
            self._close()

    def _can_deal(self) -> bool:
        """Deal while the person plays, and while they sit out with a tab open (the bots play
        on); a person with no chips who has not sat out is waited for (add chips)."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None or self.table.ready_count() < 2:
            return False
        if s.sitting_out:
            return bool(self.outboxes)
        return s.chips > 0

    def _idle(self) -> bool:
        """The person is not dealt in the next (or current) hand: the bots play alone."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None:
            return True
        if self.hand is not None:
            return self.human_index is None
        return s.sitting_out or s.sit_out_after_hand or s.waiting_for_big_blind

    def wake(self) -> None:
        """A tab opened (or something changed): a table that waits looks again."""
        self._wake.set()

    def _between_hands(self) -> None:
        if self.leaving:
            self._close()
            return
        bb = self.rules.big_blind
        for seat, (bname, style) in enumerate(botmod.OPPONENTS, start=1):
            s = self.table.seats[seat]
            if s is None:
                self.table.sit(seat, bname, MAX_BUY_IN_BB * bb, is_bot=True, style=style)
            elif s.chips < BOT_REBUY_BELOW_BB * bb:
                self.table.add_chips(seat, MAX_BUY_IN_BB * bb - s.chips)

    def _close(self) -> None:
        """The person leaves (or the table stopped): between hands their seat holds what they
        have; during a hand (a table that stopped on an error) the hand is void and the seat
        still holds its stack from before it. Either way that goes back to the bankroll."""
        if self.closed:
            return
        self.closed = True
        s = self.table.seats[HUMAN_SEAT]
        back = s.chips + s.pending_chips if s is not None else 0
        self.purse.bankroll += back
        self.on_close(self, self.purse.move("cash_out", back, -back))

    # ------------------------------------------------------------------ one hand
    def _deck(self) -> Deck:
        if self.seed_base is None:
            return Deck()
        return Deck(seed=self.seed_base * 100_003 + self.hand_no)

    async def _play_hand(self) -> None:
        if self._bots_told is not None:
            with contextlib.suppress(Exception):
                await self._bots_told
            self._bots_told = None
        self.hand_no += 1
        hand = self.table.start_hand(self._deck(), hand_id=f"{self.session}-{self.hand_no}")
        self.hand = hand
        self.human_index = self.table.player_of(HUMAN_SEAT)
        self.explanations = []
        self.coach_advice = {}
        self.frame = None
        self.frames = []
        self.notice = None
        self.broadcast()
        while not hand.done:
            actor = hand.actor
            if actor is None:
                if hand.phase is Phase.SHOWDOWN:
                    hand.settle()
                    continue
                raise RuntimeError(f"the hand stopped with nobody to act ({hand.phase})")
            if actor == self.human_index:
                await self._human_turn(hand, actor)
            else:
                await self._bot_turn(hand, actor)
            await self._play_frames()
            if self.closed:
                return
        await self._finish_hand(hand)

    async def _human_turn(self, hand: Hand, actor: int) -> None:
        pre = self.pre_action
        if self.leaving or pre is not None:
            self.pre_action = None
            legal = hand.legal()
            before = len(hand.events)
            if self.leaving or pre == "check_fold":
                hand.apply(Action.check() if legal.check else Action.fold(), actor)
            else:  # call any
                hand.apply(Action.check_or_call(legal), actor)
            self._progress(hand, before)
            return
        self.seq += 1
        loop = asyncio.get_running_loop()
        d = Decision(self.seq, actor, time.monotonic(), self.time_bank, loop.create_future())
        self.decision = d
        self.broadcast()
        if self.coach_on:
            self._coach(d.seq)
        total = self.settings.action_time + d.bank
        done, _ = await asyncio.wait({d.waiter}, timeout=total)
        if self.decision is d:  # nobody answered in time
            self.decision = None
            self.time_bank = 0.0
            before = len(hand.events)
            self.table.time_out()
            self.sat_out_reason = t("You ran out of time: your hand was checked or folded and you"
                                    " are sitting out.")
            self._progress(hand, before)

    async def _bot_turn(self, hand: Hand, actor: int) -> None:
        seat = self.table.seat_of(actor)
        bot = self.bots[seat]
        legal = hand.legal()
        work = asyncio.to_thread(botmod.decide, bot, hand, actor)
        delay = self.settings.think_delay
        if self.human_index is None:  # the person is not in this hand: a watchable pace
            delay = max(delay, self.settings.idle_pace)
        if delay > 0:
            move, _ = await asyncio.gather(work, asyncio.sleep(delay))
        else:
            move = await work
        if self.closed or hand.done or hand.actor != actor:
            return
        before = len(hand.events)
        try:
            hand.apply(move.play, actor)
        except HandError as exc:
            log.warning("bot %s made an illegal move %r: %s", seat, move, exc)
            hand.apply(Action.check() if legal.check else Action.fold(), actor)
        last = hand.events[before] if len(hand.events) > before else None
        self.explanations.append({
            "seat": seat, "player": actor, "name": hand.names[actor], "street": hand.street,
            "action": words.log_lines(hand, [last])[0].to_json() if last else None,
            "why": move.why.to_json()})
        self._progress(hand, before)

    # ------------------------------------------------------------------ the person's messages
    def act(self, seq: Any, action: Any, amount: Any) -> None:
        d = self.decision
        hand = self.hand
        if d is None or hand is None or hand.done:
            raise Refused("not_your_turn", t("It is not your turn to act."))
        if seq != d.seq:
            raise Refused("stale", t("That action was for an earlier decision; the table has"
                                     " moved on."))
        try:  # the page's action, read by the one codec (an amount only for a bet or raise)
            move = Action.from_wire({"action": action} if amount is None
                                    else {"action": action, "amount": amount})
        except MalformedAction as exc:
            raise Refused("malformed", exc.message) from None
        before = len(hand.events)
        try:
            hand.apply(move, d.player)
        except HandError as exc:
            raise Refused("illegal", exc.message) from None
        self.decision = None
        used = time.monotonic() - d.started
        self.time_bank = max(0.0, d.bank - max(0.0, used - self.settings.action_time))
        d.waiter.set_result(None)
        self._progress(hand, before)

    def set_pre_action(self, value: Any) -> None:
        if value not in (None, "check_fold", "call_any"):
            raise Refused("malformed", t("Pre-actions are check/fold and call any."))
        self.pre_action = value
        self.broadcast()

    def sit_out(self) -> None:
        self.table.sit_out(HUMAN_SEAT)
        self.broadcast()

    def sit_in(self, post: bool = False) -> None:
        """Come back. Blinds missed while sitting out are owed: by default the person waits
        for the big blind; ``post`` posts them (a live big blind and a dead small blind) and
        is dealt in at the next hand."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None:
            raise Refused("no_seat", t("You are not seated."))
        if s.chips + s.pending_chips <= 0:
            raise Refused("no_chips", t("Add chips first."))
        self.table.sit_in(HUMAN_SEAT, post_dead=post)
        self.sat_out_reason = None
        self._wake.set()
        self.broadcast()

    def add_chips(self, amount: int, bankroll: int) -> int:
        """Take up to ``amount`` from the bankroll to the table; returns the chips taken."""
        amount = min(amount, bankroll)
        if amount <= 0:
            raise Refused("no_bankroll", t("Your bankroll is empty: reset it to 10,000."))
        try:
            added = self.table.add_chips(HUMAN_SEAT, amount)
        except HandError as exc:
            raise Refused("illegal", exc.message) from None
        self._wake.set()
        return added

    def leave(self) -> None:
        self.leaving = True
        if self.hand is not None and self.human_index is None:
            self._close()  # not in this hand (sitting out): the bots' hand is not waited for
        elif self.hand is not None:  # the hand is played out (and settled) first
            d = self.decision
            if d is not None:  # answer the pending decision: check if free, else fold
                hand = self.hand
                before = len(hand.events)
                legal = hand.legal()
                hand.apply(Action.check() if legal.check else Action.fold(), d.player)
                self.decision = None
                d.waiter.set_result(None)
                self._progress(hand, before)
        else:
            self._close()
        self._wake.set()

    def set_coach(self, on: bool) -> None:
        self.coach_on = on
        if on and self.decision is not None:
            self._coach(self.decision.seq)
        self.broadcast()

    def next_hand(self) -> None:
        self._skip_pause.set()

    def _coach(self, seq: int) -> None:
        """Work out the advice for a decision in a worker thread: once per decision, however
        often the coach is switched on and off."""
        hand = self.hand
        if hand is None or self.human_index is None:
            return
        if seq in self.coach_advice or seq in self._coaching:
            return
        self._coaching.add(seq)
        reader = self.reader
        seen = coach.Reader.view(hand, self.human_index)  # the seat's view, as the engine has it

        def advise() -> dict[str, Any]:
            # the reader's ranges are hold'em's; in Omaha the coach reads random hands
            ranges = reader.ranges(seen) if reader is not None and self.variant == "holdem" \
                else None
            return coach.advice(seen, self.settings.coach_samples, ranges=ranges)

        async def work() -> None:
            try:
                advice = await asyncio.to_thread(advise)
            finally:
                self._coaching.discard(seq)
            self.coach_advice[seq] = advice
            if self.decision is not None and self.decision.seq == seq:
                self.broadcast()

        self._background(work())

    # ------------------------------------------------------------------ run-outs
    def _progress(self, hand: Hand, before: int) -> None:
        """Show what an action did. When it ended betting with board cards still to come, the
        engine has dealt them all: show them street by street (the loop plays the frames)."""
        new = hand.events[before:]
        boards = [before + i for i, e in enumerate(new) if isinstance(e, ev.BoardDealt)]
        if hand.done and boards:
            cuts = [boards[0]] + [i + 1 for i in boards]
            self.frames = [self._frame(hand, k) for k in cuts]
            self.frame = self.frames.pop(0)
            self.frame_events = int(self.frame.pop("_events", 0))
        elif hand.done:  # the result is shown once it is stored (_finish_hand)
            return
        self.broadcast()

    def _frame(self, hand: Hand, upto: int) -> dict[str, Any]:
        part = Hand.from_events(
            hand.rules, hand.starting_stacks, hand.events[:upto], button=hand.button,
            blinds=hand.blinds, antes=hand.antes, dead=hand.dead, names=hand.names,
            seats=hand.seats, hand_id=hand.hand_id)
        view = hand_view(part, self.human_index)
        # the hands that will be shown are tabled for the run-out (all-in: cards face up)
        for p, cards in hand.shown.items():
            view["players"][p]["cards"] = [format_card(c) for c in cards]
        view["phase"] = "runout"
        view["_events"] = upto
        return view

    async def _play_frames(self) -> None:
        while self.frames:
            await asyncio.sleep(self.settings.runout_delay)
            self.frame = self.frames.pop(0)
            self.frame_events = int(self.frame.pop("_events", 0))
            self.broadcast()
        if self.frame is not None:
            await asyncio.sleep(self.settings.runout_delay)
            self.frame = None

    # ------------------------------------------------------------------ after the hand
    async def _finish_hand(self, hand: Hand) -> None:
        hi = self.human_index
        self.pre_action = None
        seats = list(self.table.hand_seats)
        # chips added during the hand that the stack after it leaves no room for: back to
        # the bankroll, to the chip
        refund = self.table.end_hand().get(HUMAN_SEAT, 0)
        watchers = [(self.bots[seat], i) for i, seat in enumerate(seats) if seat in self.bots]

        reader = self.reader

        def tell_bots() -> None:
            for bot, i in watchers:
                bot.hand_over(hand, i)
            if reader is not None and hi is not None:
                reader.hand_over(hand, hi)

        # the bots learn from the hand before they play the next one
        self._bots_told = asyncio.get_running_loop().create_task(asyncio.to_thread(tell_bots))
        self.time_bank = min(self.settings.time_bank, self.time_bank + 2.0)
        lines = words.pot_lines(hand)
        net = hand.net()[hi] if hi is not None else 0
        hidden = t(REASONS_HIDDEN).to_json()
        breakdown = words.breakdown(hand).to_json()
        result = {
            "hand_id": hand.hand_id,
            "number": self.hand_no,
            "played": hi is not None,  # False: a hand the person watched, not stored as theirs
            "pots": lines,
            "breakdown": breakdown,
            "shown": words.shown_hands(hand),
            "board": [format_card(c) for c in hand.board],
            "net": net,
            # the bots' reasons, only for the hands that were shown: a reason ("a bluff",
            # "for value") tells a hand's strength as surely as its cards
            "explanations": [
                e if e["player"] in hand.shown else {**e, "why": hidden, "hidden": True}
                for e in self.explanations],
            "log": [line.to_json() for line in words.log_lines(hand)],
        }
        if hi is None:  # a hand the person watched (sitting out): not one of their hands
            self.last_result = result
            self.last_view = hand_view(hand, hi)
            self.hand = None
            self.broadcast()
            return
        row = hand_row(hand, hi, player_id=self.player_id, session=self.session,
                       number=self.hand_no, played_at=time.time(), structure=self.structure,
                       breakdown=breakdown)
        # the hand, its result and any refund are stored in one transaction, in order with
        # every other change of the person's money; the page sees the result only then
        self.purse.bankroll += refund
        self._holding = True
        try:
            await self.purse.move("result", refund, net - refund, hand=row)
        except Exception:  # logged by the purse; the table stops and the hand is void
            self.notice = t("The hand could not be stored; it is void.")
            raise
        finally:
            self._holding = False
        self.last_result = result
        self.last_view = hand_view(hand, hi)
        self.on_hand(row.summary)
        self.hand = None
        self.broadcast()

    def _background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ what the page sees
    def state(self) -> dict[str, Any]:
        table = self.table
        hand = self.hand
        hi = self.human_index
        view: dict[str, Any] | None = None
        log_lines: list[dict[str, str]] | None = None
        if hand is not None:
            view = self.frame if self.frame is not None else hand_view(hand, hi)
            if self.decision is None or self.frame is not None:
                view.pop("legal", None)
            upto = self.frame_events if self.frame is not None else len(hand.events)
            log_lines = [x.to_json() for x in words.log_lines(hand, hand.events[:upto])]
            for p, last in enumerate(last_actions(hand.n, hand.events[:upto])):
                view["players"][p]["last_action"] = last
        elif self.last_view is not None:
            view = self.last_view
        seats: list[dict[str, Any] | None] = []
        for i, s in enumerate(table.seats):
            if s is None:
                seats.append(None)
                continue
            seats.append({"seat": i, "name": s.name, "bot": s.is_bot, "style": s.style,
                          "chips": s.chips, "sitting_out": s.sitting_out,
                          "leaving": s.leave_after_hand, "you": i == HUMAN_SEAT})
        d = self.decision
        decision: dict[str, Any] | None = None
        if d is not None and self.frame is None:
            elapsed = time.monotonic() - d.started
            decision = {"seq": d.seq, "action_time": self.settings.action_time,
                        "time_left": max(0.0, self.settings.action_time - elapsed),
                        "bank": d.bank if elapsed <= self.settings.action_time
                        else max(0.0, d.bank - (elapsed - self.settings.action_time))}
            if hand is not None:
                decision["summary"] = hand.legal().summary().to_json()
        me = table.seats[HUMAN_SEAT]
        return {
            "type": "state",
            "lobby": False,
            "seq": d.seq if d is not None else None,
            "rules": {**rules_json(self.rules), "key": self.structure, "blinds": self.blinds},
            "seats": seats,
            "button_seat": table.button_seat,
            "sb_seat": table.small_blind_seat,
            "bb_seat": table.big_blind_seat,
            "hand": view,
            "live": hand is not None,
            "log": log_lines,
            "decision": decision,
            "pre_action": self.pre_action,
            "coach_on": self.coach_on,
            "coach": self.coach_advice.get(d.seq) if d is not None and self.coach_on else None,
            "last_result": self._result_for_page(),
            "sitting_out": bool(me and (me.sitting_out or me.sit_out_after_hand)),
            # blinds missed while sitting out: come back at the big blind, or post them
            "owes_blinds": bool(me and (me.missed_big or me.missed_small)),
            "waiting_for_big_blind": bool(me and me.waiting_for_big_blind and not me.post_now),
            "sat_out_reason": self.sat_out_reason.to_json() if self.sat_out_reason else None,
            "waiting": hand is None and not self._can_deal(),
            "leaving": self.leaving,
            "time_bank": self.time_bank,
            "notice": self.notice.to_json() if self.notice else None,
            # how amounts are written, per language, for the page's live amounts (the slider)
            "money": words.money_format(self.rules.decimals, self.rules.currency),
        }

    def _result_for_page(self) -> dict[str, Any] | None:
        """The last hand's result; the bots' reasons only while the coach is on."""
        r = self.last_result
        if r is None or self.coach_on:
            return r
        return {**r, "explanations": []}

    def broadcast(self) -> None:
        """Send the current state to every tab of this player (only this seat's view)."""
        if not self.outboxes or self._holding:
            return
        if self.hand is not None and self.hand.done and self.frame is None:
            return  # over, and its result not yet stored: _finish_hand shows it
        extra = self.extra_state()
        data = json.dumps({**self.state(), **extra}, separators=(",", ":"))
        stamp, self._stamp = self._stamp, None
        for box in self.outboxes:
            send(box, data, stamp, state=True)
