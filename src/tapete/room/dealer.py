"""The hand in play: a part of :class:`~tapete.room.table.RoomTable` (room/part.py).

It deals a hand (a ``start`` record: the setup, the whole deck and the secret of a fair
deal, the player of each hand seat, at the level a tournament called or with the host's
changes from this hand on, a bomb pot when one is due), plays the actions on it (an
``event`` record for each of the hand's own events, a ``turn`` for each new decision, a
``runs`` vote when the players all in may run it more than once), and ends it (``end``, the
fair deal revealed; the refunds, the host's stacks and the seats leaving after it) or calls
it off (``void``). The hand's state is the engine's (:class:`~tapete.core.hand.Hand`); the
table keeps who plays each hand seat, the turn and the books.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.errors import HandError
from tapete.core.fair import FairDeal
from tapete.core.hand import Hand
from tapete.room.errors import Refused
from tapete.room.host import Host
from tapete.room.log import TableConfig
from tapete.room.part import Batch, Table
from tapete.room.seating import Seating
from tapete.room.shuffle import shuffle
from tapete.room.straddles import Straddles
from tapete.room.timers import Timers, pool
from tapete.room.votes import Votes


class Dealer:
    def __init__(self, table: Table, host: Host, votes: Votes, seating: Seating,
                 straddles: Straddles, timers: Timers) -> None:
        self.t = table
        self.host, self.votes, self.seating = host, votes, seating
        self.straddles, self.timers = straddles, timers

    # ------------------------------------------------------------------ commands
    def start_hand(self) -> None:
        tb = self.t
        if tb.hand is not None:
            raise Refused(t("a hand is already in play"))
        if tb.table.ready_count() < 2:
            raise Refused(t("two players are needed"))
        command: dict[str, Any] = {"deck": list(tb.policy.deck(tb).cards())}
        if tb.config.fair:  # the secret; the commitment is computed from both
            secret = tb.new_secret() if tb.new_secret is not None else None
            command["secret"] = shuffle(command["deck"], secret).secret.hex()
        tb._run(self.start, command)

    def act(self, player: str, seq: int, action: Action) -> None:
        tb = self.t
        if not isinstance(action, Action):
            raise Refused(t("an action is needed"))
        seat = tb._seated(player)
        if self.host.paused == "now":
            raise Refused(t("the host has paused the game: wait for it to resume"),
                          code="paused")
        hand = tb.hand
        if hand is None or hand.actor is None or tb.turn_seq is None:
            raise Refused(t("nobody is to act now"))
        if type(seq) is not int or seq != tb.turn_seq:
            raise Refused(t("decision {seq} is over (already played, perhaps from another tab):"
                            " the decision now is {now}", seq=str(seq), now=str(tb.turn_seq)),
                          code="stale")
        if tb.table.seat_of(hand.actor) != seat:
            raise Refused(t("it is not your turn: {who} is to act", who=hand.names[hand.actor]))
        used = self.timers.bank_used(hand, tb.clock.now_ms())
        # an illegal action raises in the hand before anything changes (Hand.apply)
        tb._run(self.act_step, {"seat": seat, "action": action.to_wire(), "timed_out": False,
                                "used": used})

    # ------------------------------------------------------------------ steps
    def start(self, c: dict[str, Any], batch: Batch) -> None:
        tb = self.t
        if self.host.changes:  # the host's changes, from this hand on
            tb.config = TableConfig.from_json({**tb.config.to_json(), **self.host.changes})
            self.host.changes = {}
            tb.rules = tb.table.rules = tb.config.rules()
            tb.table.min_buy_in = tb.config.min_buy_in
            tb.table.max_buy_in = tb.config.max_buy_in
        if tb.config.tournament:  # the coordinator's level, for this hand only
            lv = self.seating.next_level
            if lv is None:
                raise Refused(t("the tournament has not called for a hand at this table"))
            tb.rules = tb.table.rules = dataclasses.replace(
                tb.config.rules(), small_blind=lv["small_blind"],
                big_blind=lv["big_blind"], ante=lv["ante"],
                big_blind_ante=lv["big_blind_ante"] and lv["ante"] > 0)
            self.seating.next_level = None
        tb.hand_no += 1
        cfg = tb.config
        bomb = cfg.bomb_ante if self.votes.bomb_next or (
            cfg.bomb_every and tb.hand_no % cfg.bomb_every == 0) else 0
        self.votes.bomb_next = False
        deck = Deck.stacked(tuple(c["deck"]))
        hand = tb.table.start_hand(
            deck, hand_id=f"{tb.table_id}-{tb.hand_no}",
            straddlers={s for s, p in tb.players.items() if p in self.straddles.players},
            restraddle=cfg.restraddle, bomb=bomb, double_board=bool(bomb) and cfg.double_board,
            run_once=cfg.run_it == 1)
        tb.hand_players = [tb.players[s] for s in tb.table.hand_seats]
        for p in tb.hand_players:
            tb.dealt[p] += 1
            if tb.dealt[p] % cfg.bank_every == 0:
                tb.banks[p] = {k: min(cfg.bank_max_ms, b + cfg.bank_add_ms)
                               for k, b in tb.banks[p].items()}
        start: dict[str, Any] = {"hand_no": tb.hand_no, "deck": c["deck"],
                                 "setup": hand.setup.to_json(), "players": tb.hand_players}
        tb.deal = None
        if "secret" in c:
            tb.deal = FairDeal.make(c["deck"], bytes.fromhex(c["secret"]))
            start["secret"] = c["secret"]
            start["commitment"] = tb.deal.commitment
        batch.append(("start", start))
        self.events(hand, 0, batch)

    def act_step(self, c: dict[str, Any], batch: Batch) -> None:
        tb = self.t
        hand = tb.hand
        assert hand is not None and hand.actor is not None
        player = tb.hand_players[hand.actor]
        before = len(hand.events)
        bank = pool(hand)
        try:
            if c["timed_out"]:
                tb.table.time_out()
            else:
                hand.apply(Action.from_wire(c["action"]))
        except HandError as exc:
            raise Refused(exc.message, code="illegal") from None
        if tb.config.tournament:  # never sat out: away, dealt in, played for at once
            if c["timed_out"]:
                s = tb.table.seats[c["seat"]]
                assert s is not None
                s.sit_out_after_hand = False
                self.seating.absent.add(player)
            else:
                self.seating.absent.discard(player)
        tb.banks[player][bank] -= c["used"]
        self.events(hand, before, batch, bank={"pool": bank, "used": c["used"]})

    def events(self, hand: Hand, before: int, batch: Batch,
               bank: dict[str, Any] | None = None) -> None:
        """The hand's events from ``before`` as records, then what they lead to: the next
        turn, a vote on the run-out, or the hand's end."""
        tb = self.t
        for e in hand.events[before:]:
            payload: dict[str, Any] = {"event": ev.to_json(e)}
            if isinstance(e, ev.Acted) and bank is not None:
                payload["bank"] = bank
            batch.append(("event", payload))
        if hand.done:
            tb.turn_seq = None
            tb.raked += sum(e.amount for e in hand.events if isinstance(e, ev.Raked))
            tb.recent_pots.append(hand.pot_total())
            tb.last_hand, tb.last_players = hand, list(tb.hand_players)
            tb.last_deal = tb.deal
            tb.ended_at = tb._now()
            refused = tb.table.end_hand()
            end: dict[str, Any] = {"hand_no": tb.hand_no}
            if tb.deal is not None:  # revealed: anyone can check the hand against it now
                end.update(tb.deal.to_json())
            batch.append(("end", end))
            self.after_hand(refused, batch)
        elif hand.actor is not None:
            tb.turn_seq = tb._next_seq(batch)
            batch.append(("turn", {"seat": tb.table.seat_of(hand.actor)}))
        elif hand.needs_runs():  # all in with cards to come: run it more than once?
            live = [p for p in range(hand.n) if not hand.folded[p]]
            self.votes.start("runs", [tb.hand_players[p] for p in live], tb.config.act_ms,
                             batch, runs=min(tb.config.run_it, hand.max_runs()),  # the deck's
                             seats=[tb.table.hand_seats[p] for p in live])

    def after_hand(self, refused: dict[int, int], batch: Batch) -> None:
        tb = self.t
        for seat, chips in sorted(refused.items()):
            tb.paid_out += chips
            batch.append(("refund", {"seat": seat, "player": tb.players[seat],
                                     "chips": chips}))
        for seat, chips in sorted(self.host.stack_edits.items()):
            if seat in tb.players and seat not in tb.leaving:
                tb._set_stack(seat, chips, batch)
        self.host.stack_edits = {}
        for seat in sorted(tb.leaving | (set(tb.players) if self.host.over else set())):
            tb._empty(seat, batch)
        tb.hand_players = []
        tb.check_books()

    def void(self, c: dict[str, Any], batch: Batch) -> None:
        """Call off the hand in play: the seats keep the stacks they had when it began (the
        table applies a hand's stacks only at its end), chips added during it join them up
        to the maximum, and whoever was to sit out or leave does."""
        tb = self.t
        hand = tb.hand
        assert hand is not None
        batch.append(("void", c))
        # what was pending in the hand goes with it: its run-it-twice vote (one record each)
        self.votes.close(batch, ("runs",))
        refused: dict[int, int] = {}
        top = tb.config.max_buy_in
        for seat in tb.table.hand_seats:
            s = tb.table.seats[seat]
            assert s is not None
            room = max(0, min(s.pending_chips, top - s.chips))
            if room < s.pending_chips:
                refused[seat] = s.pending_chips - room
            s.chips += room
            s.pending_chips = 0
            if s.sit_out_after_hand:
                s.sitting_out, s.sit_out_after_hand = True, False
        tb.table.hand = None
        tb.table.hands_played += 1
        tb.turn_seq = None
        self.after_hand(refused, batch)
