"""What lasts between hands: seats, the button, blinds owed, sitting out, adding chips.

The table decides who is dealt in and who posts what, then hands a :class:`~tapete.core.hand.Hand`
explicit blinds; the hand itself knows nothing of empty seats.

Blinds move by the dead-button rule: the big blind advances to the next player dealt in every
hand, the small blind is the seat that had the big blind last hand (no small blind if that
player left), and the button is the seat that had the small blind (a dead button if that seat
is empty). So nobody pays the big blind twice in a row, heads-up transitions included; heads-up
the button posts the small blind.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from tapete.core.automation import ALL, Automation
from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.hand import Hand, HandError
from tapete.core.rules import Rules


class TimeOutPolicy(StrEnum):
    REMOVE = "remove"  # seed 001: a player who runs out of time is asked to leave the table
    SIT_OUT = "sit-out"  # practice table: the player is sat out and may come back


@dataclass(slots=True)
class Seat:
    name: str
    chips: int
    sitting_out: bool = False
    waiting_for_big_blind: bool = False  # new or returning: dealt in at the big blind
    post_now: bool = False  # returning/new player who chose to post instead of waiting
    missed_small: bool = False
    missed_big: bool = False
    pending_chips: int = 0  # asked for during a hand, added after it
    leave_after_hand: bool = False
    sit_out_after_hand: bool = False
    is_bot: bool = False
    style: str = ""


class Table:
    def __init__(
        self,
        rules: Rules,
        seats: int = 6,
        *,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        time_out_policy: TimeOutPolicy = TimeOutPolicy.REMOVE,
    ) -> None:
        if not 2 <= seats <= 10:
            raise HandError(t("a table has 2 to 10 seats"))
        for x in (min_buy_in, max_buy_in):
            if x is not None and (not isinstance(x, int) or isinstance(x, bool) or x <= 0):
                raise HandError(t("buy-in limits are whole, positive numbers of chips"))
        if min_buy_in is not None and max_buy_in is not None and min_buy_in > max_buy_in:
            raise HandError(t("the smallest buy-in is larger than the largest"))
        self.rules = rules
        self.seats: list[Seat | None] = [None] * seats
        self.min_buy_in = min_buy_in if min_buy_in is not None else rules.big_blind
        self.max_buy_in = max_buy_in
        self.time_out_policy = time_out_policy
        self.hand: Hand | None = None
        self.hand_seats: list[int] = []  # table seat of each hand player index
        self.button_seat: int | None = None
        self.small_blind_seat: int | None = None
        self.big_blind_seat: int | None = None
        self.last_dealt: set[int] = set()  # seats dealt in the previous hand
        self.hands_played = 0

    # ------------------------------------------------------------------ seating
    def sit(self, seat: int, name: str, chips: int, *, is_bot: bool = False, style: str = "",
            wait_for_big_blind: bool = True, dealt_in: bool = False) -> Seat:
        """Seat a player. ``dealt_in``: a tournament player moved from another table (TDA): owes
        no blind and is dealt in from the next hand, except between the button and the big
        blind (the small blind and the button's seats: dealt in there only where the seat was
        dealt last hand, as the dead button's rotation has it)."""
        self._check_seat(seat)
        if self.seats[seat] is not None:
            raise HandError(t("seat {seat} is taken", seat=str(seat + 1)))
        self._check_buy_in(chips, 0)
        s = Seat(name, chips, is_bot=is_bot, style=style)
        # the first hand of a table deals everyone in; later, a newcomer waits or posts
        if not dealt_in and (self.hands_played or self.hand is not None) \
                and self._dealt_candidates():
            s.waiting_for_big_blind = wait_for_big_blind
            s.post_now = not wait_for_big_blind
        self.seats[seat] = s
        return s

    def leave(self, seat: int) -> None:
        s = self._seat(seat)
        if self._in_hand(seat):
            s.leave_after_hand = True
        else:
            self.seats[seat] = None

    def sit_out(self, seat: int) -> None:
        s = self._seat(seat)
        if self._in_hand(seat):
            s.sit_out_after_hand = True
        else:
            s.sitting_out = True

    def sit_in(self, seat: int, post_dead: bool = False) -> None:
        """Come back: post the missed blinds now (``post_dead``) or wait for the big blind."""
        s = self._seat(seat)
        s.sitting_out = False
        s.sit_out_after_hand = False
        if s.missed_big or s.missed_small:
            s.post_now = post_dead
            s.waiting_for_big_blind = not post_dead

    def _in_hand(self, seat: int) -> bool:
        """The seat was dealt in the hand that :meth:`end_hand` has not yet applied. A hand
        that is over but not applied (its run-out still being shown) counts: its stacks are
        not the seats' yet."""
        return self.hand is not None and seat in self.hand_seats

    def add_chips(self, seat: int, amount: int) -> int:
        """Add chips between hands, up to the table maximum; during a hand (until
        :meth:`end_hand`) they wait for its end, and whatever the stack after the hand leaves
        no room for comes back from :meth:`end_hand`. Returns the chips taken now."""
        s = self._seat(seat)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise HandError(t("add a whole, positive number of chips"))
        have = s.chips + s.pending_chips
        if self.max_buy_in is not None:
            amount = min(amount, self.max_buy_in - have)
            if amount <= 0:
                raise HandError(t("{who} already has the table maximum", who=s.name))
        if self._in_hand(seat):
            s.pending_chips += amount
        else:
            s.chips += amount
        return amount

    # ------------------------------------------------------------------ hands
    def ready_count(self) -> int:
        return len(self._dealt_candidates())

    def _dealt_candidates(self) -> list[int]:
        return [i for i, s in enumerate(self.seats)
                if s is not None and not s.sitting_out and s.chips > 0]

    def start_hand(self, deck: Deck, hand_id: str = "", *, straddlers: Collection[int] = (),
                   restraddle: bool = False, bomb: int = 0, double_board: bool = False,
                   run_once: bool = True) -> Hand:
        """Deal the next hand. A home game's options (docs/rules.md, "Home games"):
        ``straddlers``: the table seats that asked to straddle: the player after the big blind
        straddles two big blinds when among them (three players or more), and with
        ``restraddle`` the player after a straddler re-straddles twice the straddle when among
        them too (never the small or big blind, four players or more); the table's automatic
        ``rules.straddle`` comes first. ``bomb``: a bomb pot's ante (no blinds, no straddle,
        no betting before the flop), ``double_board`` with it. ``run_once`` False: the hand
        waits for the run-out choice (:meth:`Hand.needs_runs`) instead of running once."""
        if self.hand is not None:  # over or not, its stacks are not applied (end_hand)
            raise HandError(t("a hand is already in progress"))
        ready = self._dealt_candidates()
        if len(ready) < 2:
            raise HandError(t("at least two players are needed"))
        n_seats = len(self.seats)

        def after(seat: int, pool: list[int]) -> int:
            return min(pool, key=lambda x: (x - seat - 1) % n_seats)

        def between(x: int, lo: int, hi: int) -> bool:
            """x strictly between lo and hi, clockwise."""
            return 0 < (x - lo) % n_seats < (hi - lo) % n_seats

        prev_bb = self.big_blind_seat
        if prev_bb is None:  # first hand: the button on the first player, blinds after it
            button_pos = ready[0]
            bb = ready[1] if len(ready) == 2 else ready[2]
            sb_pos = button_pos if len(ready) == 2 else ready[1]
            dealt = ready
        else:
            self._mark_missed(prev_bb)
            bb = after(prev_bb, ready)
            sb_pos = prev_bb
            button_pos = self.small_blind_seat if self.small_blind_seat is not None else prev_bb
            # a new or returning player comes in at the big blind, or posts one, but never
            # between the button and the big blind
            dealt = [x for x in ready if x == bb or (
                not self._waits(x) and not (self._owes(x) and (
                    x == button_pos or between(x, button_pos, bb))))]
            if len(dealt) < 2:  # too few without them: everyone plays
                dealt = ready
        if len(dealt) == 2:  # heads-up: the button posts the small blind
            sb_pos = button_pos = next(x for x in dealt if x != bb)
            sb: int | None = sb_pos
        else:
            # the small blind is the seat that had the big blind: none if that player is gone
            sb = sb_pos if sb_pos in dealt and sb_pos != bb and (
                prev_bb is None or sb_pos in self.last_dealt) else None
            if button_pos in (bb, sb):
                button_pos = ((sb if sb is not None else bb) - 1) % n_seats
        self.hand_seats = dealt
        idx = {seat: i for i, seat in enumerate(dealt)}
        n = len(dealt)
        blinds = [0] * n
        dead = [0] * n
        r = self.rules
        if sb is not None:
            blinds[idx[sb]] = r.small_blind
        blinds[idx[bb]] = r.big_blind
        straddles = [0] * n
        if r.straddle and n > 2:  # the table's automatic straddle, after the big blind
            u = (idx[bb] + 1) % n
            straddles[u] = r.straddle
        elif straddlers and n > 2:  # straddles the players asked for
            u, size = (idx[bb] + 1) % n, 2 * r.big_blind
            taken = {idx[bb]} | ({idx[sb]} if sb is not None else set())
            while u not in taken and dealt[u] in straddlers and not straddles[u] \
                    and self._seat(dealt[u]).chips > size + self._dead_owed(dealt[u]):
                straddles[u] = size
                taken.add(u)
                if not restraddle or n < 4:
                    break
                u, size = (u + 1) % n, 2 * size
        for seat in dealt:
            st = self._seat(seat)
            i = idx[seat]
            if seat != bb and seat != sb and not blinds[i]:
                # a straddle is live, like the big blind: it pays a big blind owed (docs/rules.md,
                # "Missed blinds"); the small blind owed is posted dead all the same
                if not straddles[i] and (st.missed_big or (st.post_now and not st.missed_small)):
                    blinds[i] = r.big_blind  # a live big blind, to come in out of turn
                if st.missed_small:
                    dead[i] = r.small_blind  # the small blind it missed, dead
            st.post_now = st.waiting_for_big_blind = False
            st.missed_big = st.missed_small = False
        # the player who acts last after the flop: on the button, or before a dead button
        button_index = min(range(n), key=lambda i: (button_pos - dealt[i]) % n_seats)
        self.button_seat, self.small_blind_seat, self.big_blind_seat = button_pos, sb_pos, bb
        self.last_dealt = set(dealt)
        if bomb:  # a bomb pot: its ante instead of the blinds and straddles
            blinds, straddles = [0] * n, [0] * n
        self.hand = Hand(
            r, [self._seat(x).chips for x in dealt], button=button_index, deck=deck,
            blinds=blinds, straddles=straddles, dead=dead,
            names=[self._seat(x).name for x in dealt], seats=dealt, hand_id=hand_id,
            automations=ALL if run_once else ALL & ~Automation.RUN_ONCE,
            bomb=bomb, double_board=double_board)  # dealing and the showdown play themselves
        return self.hand

    def _dead_owed(self, seat: int) -> int:
        """The dead small blind the player in ``seat`` posts on coming back, if owed."""
        return self.rules.small_blind if self._seat(seat).missed_small else 0

    def _waits(self, seat: int) -> bool:
        s = self._seat(seat)
        return s.waiting_for_big_blind and not s.post_now

    def _owes(self, seat: int) -> bool:
        """New to the table's rotation, or owing blinds: must post or wait for the big blind."""
        s = self._seat(seat)
        return s.post_now or s.missed_big or s.missed_small or seat not in self.last_dealt

    def _mark_missed(self, prev_bb: int) -> None:
        """Players sitting out (or out of chips) whom the big blind passes owe it and the small
        blind when they come back; one out in the small blind's place owes the small blind."""
        n_seats = len(self.seats)
        ready = self._dealt_candidates()
        bb = min(ready, key=lambda x: (x - prev_bb - 1) % n_seats) if ready else prev_bb
        k = (prev_bb + 1) % n_seats
        while k != bb:
            s = self.seats[k]
            if s is not None and (s.sitting_out or s.chips == 0):
                s.missed_big = s.missed_small = True
            k = (k + 1) % n_seats
        s = self.seats[prev_bb]
        if s is not None and (s.sitting_out or s.chips == 0):
            s.missed_small = True

    def time_out(self) -> None:
        """The player to act ran out of time: checked if free, else folded; then, by the room's
        policy, removed from the table or sat out after the hand."""
        hand = self._current()
        actor = hand.actor
        if actor is None:
            raise HandError(t("nobody is to act"))
        hand.time_out(actor)
        s = self._seat(self.hand_seats[actor])
        if self.time_out_policy is TimeOutPolicy.REMOVE:
            s.leave_after_hand = True
        else:
            s.sit_out_after_hand = True

    def end_hand(self) -> dict[int, int]:
        """Apply the finished hand: stacks, pending chips, players leaving or sitting out.

        Chips added during the hand go on the table up to the maximum, measured against the
        stack after the hand; the rest is not the table's. Returns those chips by seat (only
        seats with some), for whoever holds the player's money to take back, to the chip."""
        hand = self._current()
        if not hand.done:
            raise HandError(t("the hand is not over"))
        refused: dict[int, int] = {}
        for i, seat in enumerate(self.hand_seats):
            s = self._seat(seat)
            room = s.pending_chips if self.max_buy_in is None else \
                max(0, min(s.pending_chips, self.max_buy_in - hand.stacks[i]))
            if room < s.pending_chips:
                refused[seat] = s.pending_chips - room
            s.chips = hand.stacks[i] + room
            s.pending_chips = 0
            if s.sit_out_after_hand:
                s.sitting_out, s.sit_out_after_hand = True, False
            if s.leave_after_hand:
                self.seats[seat] = None
        self.hands_played += 1
        self.hand = None
        return refused

    # ------------------------------------------------------------------ mapping
    def player_of(self, seat: int) -> int | None:
        try:
            return self.hand_seats.index(seat) if self.hand is not None else None
        except ValueError:
            return None

    def seat_of(self, player: int) -> int:
        return self.hand_seats[player]

    def _current(self) -> Hand:
        if self.hand is None:
            raise HandError(t("no hand is in progress"))
        return self.hand

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise HandError(t("there is no seat {seat}", seat=str(seat + 1)))

    def _seat(self, seat: int) -> Seat:
        self._check_seat(seat)
        s = self.seats[seat]
        if s is None:
            raise HandError(t("seat {seat} is empty", seat=str(seat + 1)))
        return s

    def _check_buy_in(self, chips: int, have: int) -> None:
        if not isinstance(chips, int) or chips < self.min_buy_in:
            raise HandError(t("the smallest buy-in is {amount}", amount=str(self.min_buy_in)))
        if self.max_buy_in is not None and chips + have > self.max_buy_in:
            raise HandError(t("the largest buy-in is {amount}", amount=str(self.max_buy_in)))
