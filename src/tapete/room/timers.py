"""The table's timers: a part of :class:`~tapete.room.table.RoomTable` (room/part.py).

The player to act has ``act_ms``, then their time bank for the street (preflop or postflop),
and a player with no connection the disconnect grace first; when it all runs out, the timers
check (when free) or fold for them. They also play for an agent whose turn it is (once it
has thought: the policy's ``think_ms``), answer the votes for those who cannot, and deal the
next hand when the policy says so and two players are ready. The table never reads the time
but through these (its clock), one step per :meth:`Timers.poll`.
"""

from __future__ import annotations

from tapete.core import view
from tapete.core.hand import Hand
from tapete.room.errors import Refused
from tapete.room.part import POST, PRE, Table


def pool(hand: Hand) -> str:
    """The time bank a decision draws on: preflop's or postflop's."""
    return PRE if hand.street == 0 else POST


class Timers:
    def __init__(self, table: Table) -> None:
        self.t = table
        # whether the policy held the timers when last asked (``TablePolicy.held``): once
        # released, the player to act starts afresh, with the disconnect grace
        self.held = False

    def deadline(self) -> int | None:
        """When the player to act runs out of time (clock milliseconds), or None."""
        tb = self.t
        hand = tb.hand
        if hand is None or hand.actor is None or tb.turn_seq is None:
            return None
        player = tb.hand_players[hand.actor]
        bank = tb.banks[player][pool(hand)]
        grace = self.grace_ms() if tb.grace_turn == tb.turn_seq else 0
        return tb.turn_at + tb.config.act_ms + grace + bank

    def grace_ms(self) -> int:
        """The disconnect grace for the hand in play: scaled to the pot."""
        hand = self.t.hand
        pot = hand.pot_total() if hand is not None else 0
        c = self.t.config
        return min(c.grace_max_ms, c.grace_base_ms + c.grace_per_bb_ms * (pot // c.big_blind))

    def bank_used(self, hand: Hand, now: int) -> int:
        """The time bank an action at ``now`` used."""
        tb = self.t
        player = tb.hand_players[hand.actor] if hand.actor is not None else ""
        grace = self.grace_ms() if tb.grace_turn == tb.turn_seq else 0
        over = now - tb.turn_at - tb.config.act_ms - grace
        return max(0, min(over, tb.banks[player][pool(hand)]))

    def _holds(self) -> bool:
        """Whether the policy holds the timers; the poll after it released them starts the
        turn's clock afresh, with the disconnect grace (the person was away)."""
        tb = self.t
        if tb.policy.held(tb):
            self.held = True
            return True
        if self.held:
            self.held = False
            tb.turn_at = tb.clock.now_ms()
            if tb.turn_seq is not None:
                tb.grace_turn = tb.turn_seq
        return False

    def may_deal(self) -> bool:
        tb = self.t
        return tb.policy.deals(tb) and tb.paused is None and not tb.over \
            and tb.table.ready_count() >= 2 \
            and (not tb.config.tournament or tb.next_level is not None)

    def poll(self) -> bool:
        """The timers: time the player to act out (or check or fold a player who is leaving),
        play for an agent whose turn it is, and start the next hand when two players are
        ready. One step per call; True when it took one (the owner polls again at once)."""
        tb = self.t
        if self._holds() or tb.paused == "now":
            return False
        now = tb.clock.now_ms()
        think = tb.policy.think_ms(tb)
        if tb.voting.poll(now, think):
            return True
        hand = tb.hand
        if hand is not None and hand.actor is not None:
            seat = tb.table.seat_of(hand.actor)
            deadline = self.deadline()
            if seat in tb.leaving or tb.hand_players[hand.actor] in tb.absent or (
                    deadline is not None and tb.clock.now_ms() >= deadline):
                tb._run(tb._act, {"seat": seat, "action": None, "timed_out": True,
                                  "used": tb.banks[tb.hand_players[hand.actor]][pool(hand)]})
                return True
            player = tb.hand_players[hand.actor]
            agent = tb.agents.get(player)
            if agent is not None and tb.turn_seq is not None and \
                    tb.clock.now_ms() >= tb.turn_at + think:
                action = agent(hand.setup, view.events_seen(
                    hand.events, view.Viewer.bot(hand.actor)), hand.actor)
                try:
                    tb.act(player, tb.turn_seq, action)
                except Refused:  # an agent that answers wrong runs out of time at once
                    tb._run(tb._act, {"seat": seat, "action": None, "timed_out": True,
                                      "used": tb.banks[player][pool(hand)]})
                return True
            return False
        if hand is None and self.may_deal() and now >= tb.policy.deal_at(tb):
            tb.start_hand()
            return True
        return False

    def due_ms(self) -> int | None:
        """Milliseconds until :meth:`poll` has something to do (0: now), None: nothing is
        timed (the table waits for a command)."""
        tb = self.t
        if tb.policy.held(tb) or tb.paused == "now":
            return None
        if self.held:
            return 0  # released: the clock starts afresh at the next poll
        hand = tb.hand
        now = tb.clock.now_ms()
        think = tb.policy.think_ms(tb)
        due = tb.voting.due(think)
        if hand is not None and hand.actor is not None and tb.turn_seq is not None:
            deadline = self.deadline()
            if deadline is not None:
                due.append(deadline)
            if tb.hand_players[hand.actor] in tb.absent:
                due.append(now)
            if tb.hand_players[hand.actor] in tb.agents:
                due.append(tb.turn_at + think)
        elif hand is None and self.may_deal():
            due.append(tb.policy.deal_at(tb))
        return max(0, min(due) - now) if due else None
