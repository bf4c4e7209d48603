"""A room table in tournament mode: chips from the tournament's chip account, seats and
hands called by the coordinator (each a logged ``tourney`` record), what a player may not do
there, an away player dealt in and played for at once, and a restore that rebuilds it all."""

from __future__ import annotations

import random

import pytest

from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.room.clock import ManualClock
from tapete.room.errors import Refused
from tapete.room.log import EventLog, TableConfig
from tapete.room.money import ChipAccount
from tapete.room.table import RoomTable, restore

STACK = 1500


class Tourney:
    def __init__(self, players: int = 4, seed: int = 1, snapshot_every: int = 20) -> None:
        self.clock = ManualClock(1_000)
        self.log = EventLog()
        self.account = ChipAccount()
        self.config = TableConfig(tournament="t-1", min_buy_in=40, max_buy_in=200,
                                  act_ms=1_000, bank_ms=0, grace_base_ms=0, grace_per_bb_ms=0,
                                  grace_max_ms=0)
        self.rng = random.Random(seed)
        self.deck_rng = random.Random(seed + 1)
        self.ends: list[dict[str, int]] = []
        self.table_id = self.log.create_table(self.config, table_id="tt-1")
        self.snapshot_every = snapshot_every
        self.table = self.build()
        self.players = [f"p{i}" for i in range(players)]
        for i, p in enumerate(self.players):
            self.account.issue(p, STACK)
            self.table.tournament_seat(p, f"Player {i}", i, STACK, dealt_in=False)

    def build(self, restored: bool = False) -> RoomTable:
        kw = dict(clock=self.clock, deck=self.deck, snapshot_every=self.snapshot_every,
                  on_tournament=self.ended)
        if restored:
            return restore(self.log, self.table_id, self.account, **kw)  # type: ignore[arg-type]
        return RoomTable(self.log, self.table_id, self.config, self.account, **kw)  # type: ignore[arg-type]

    def deck(self) -> Deck:
        return Deck(seed=self.deck_rng.randrange(2**32))

    def ended(self, table: RoomTable) -> None:
        self.ends.append(table.tournament_stacks())

    def restart(self) -> None:
        self.log = EventLog(self.log.engine)
        self.table = self.build(restored=True)

    def chips(self) -> int:
        return self.account.off_tables() + self.table.table_chips()

    def play_hand(self, away: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        """Deal one hand (the coordinator has called it) and play it: random legal actions,
        the ``away`` players letting their clock run out."""
        t = self.table
        assert t.hand is None and t.poll()
        while t.hand is not None:
            hand = t.hand
            assert hand.actor is not None and t.turn_seq is not None
            player = t.hand_players[hand.actor]
            if player in away or player in t.absent:
                if player not in t.absent:
                    self.clock.advance(2_000)
                assert t.poll()
                continue
            legal = hand.legal()
            roll = self.rng.random()
            if legal.min_to is not None and legal.max_to is not None and roll < 0.3:
                action = Action.bet(legal.max_to) if legal.is_bet else \
                    Action.raise_to(legal.max_to)
            elif roll < 0.5 and legal.fold and not legal.check:
                action = Action.fold()
            else:
                action = Action.check_or_call(legal)
            t.act(player, t.turn_seq, action)


def state(t: RoomTable) -> object:
    return ([(s.name, s.chips, s.sitting_out) if s else None for s in t.table.seats],
            t.players, t.seq, t.next_level, sorted(t.absent), t.hand_no,
            t.table.button_seat, t.table.big_blind_seat, t.paid_in, t.paid_out)


def test_hands_are_dealt_when_the_coordinator_calls_them_at_its_levels() -> None:
    tt = Tourney()
    t = tt.table
    assert not t.poll()  # no hand called yet
    t.tournament_deal(10, 20, 0, level=1)
    tt.play_hand()
    assert t.hand_no == 1 and t.last_hand is not None
    assert (t.last_hand.rules.small_blind, t.last_hand.rules.big_blind) == (10, 20)
    assert len(tt.ends) == 1 and sum(tt.ends[0].values()) == 4 * STACK
    assert not t.poll()  # one hand per call
    t.tournament_deal(25, 50, 50, level=3)
    tt.play_hand()
    r = t.last_hand.rules
    assert (r.small_blind, r.big_blind, r.ante, r.big_blind_ante) == (25, 50, 50, True)
    assert tt.chips() == 4 * STACK == tt.account.issued
    t.tournament_deal(25, 50, 50)
    t.tournament_hold()
    assert not t.poll()
    kinds = [r.payload["action"] for r in tt.log.read(t.table_id) if r.kind == "tourney"]
    assert kinds == ["seat"] * 4 + ["deal", "deal", "deal", "hold"]


def test_a_player_moved_out_and_in_keeps_their_chips() -> None:
    tt = Tourney()
    t = tt.table
    t.tournament_deal(10, 20)
    tt.play_hand()
    p, stack = next((p, c) for p, c in t.tournament_stacks().items() if c > 0)
    assert t.tournament_unseat(p) == stack
    assert tt.account.balance(p) == stack and t.seat_of(p) is None
    t.tournament_seat(p, "Moved", 5, stack, dealt_in=True)
    assert tt.account.balance(p) == 0 and t.tournament_stacks()[p] == stack
    t.tournament_deal(10, 20)
    tt.play_hand()
    assert tt.chips() == 4 * STACK
    # a player in the hand in play cannot be moved; an account short of the stack refuses
    t.tournament_deal(10, 20)
    assert t.poll()
    with pytest.raises(Refused):
        t.tournament_unseat(t.hand_players[0])
    with pytest.raises(Refused):
        t.tournament_seat("ghost", "Ghost", 4, 100)


def test_what_a_player_may_not_do_at_a_tournament_table() -> None:
    tt = Tourney()
    t = tt.table
    attempts = [lambda: t.sit("x", "X", 100), lambda: t.add_chips("p0", 100),
                lambda: t.sit_out("p0"), lambda: t.leave("p0"),
                lambda: t.ask_straddle("p0", True), lambda: t.propose("p0", "bomb"),
                lambda: t.host_command("p0", "pause", {})]
    seq = t.seq
    for attempt in attempts:
        with pytest.raises(Refused) as e:
            attempt()
        assert e.value.code == "tournament"
        assert e.value.message.es and e.value.message.es != e.value.message.en
    assert t.seq == seq  # nothing stored
    with pytest.raises(Refused):
        t.sit_in("p0")  # not away
    with pytest.raises(Refused):
        t.tournament_deal(20, 10)
    cash = RoomTable(tt.log, tt.log.create_table(TableConfig()), TableConfig(), tt.account)
    with pytest.raises(Refused):
        cash.tournament_hold()


def test_an_away_player_is_dealt_in_posts_and_is_played_for_at_once() -> None:
    tt = Tourney(players=3)
    t = tt.table
    posted: list[int] = []
    for _ in range(6):
        t.tournament_deal(10, 20, 5)
        tt.play_hand(away={"p2"})
        hand = t.last_hand
        assert hand is not None
        assert "Player 2" in hand.names or t.tournament_stacks().get("p2", 0) == 0
        if "Player 2" in hand.names:
            posted.append(hand.blinds[hand.names.index("Player 2")])
            s = t.table.seats[2]
            assert s is not None and not s.sitting_out
        if len(t.tournament_stacks()) < 3 or any(v == 0 for v in t.tournament_stacks().values()):
            break
    assert "p2" in t.absent
    assert any(posted)  # blinds posted while away
    # at their turn an away player is acted for with no time passing
    t.sit_in("p2")
    assert "p2" not in t.absent
    assert tt.chips() == 3 * STACK


def test_a_restore_rebuilds_the_same_table() -> None:
    for snapshot_every in (0, 1):
        tt = Tourney(players=5, seed=3, snapshot_every=snapshot_every)
        t = tt.table
        for i in range(4):
            t.tournament_deal(10 * (i + 1), 20 * (i + 1), 5 * i, level=i + 1)
            tt.play_hand(away={"p4"} if i < 2 else set())
            if i == 1:
                p = next(p for p, c in t.tournament_stacks().items() if c > 0)
                stack = t.tournament_unseat(p)
                t.tournament_seat(p, "Moved", next(i for i, s in enumerate(t.table.seats)
                                                   if s is None), stack)
        t.tournament_deal(100, 200, 25, level=5)
        before = state(t)
        ends = len(tt.ends)
        tt.restart()
        assert state(tt.table) == before
        assert len(tt.ends) == ends  # not told again while replaying
        assert tt.chips() == 5 * STACK
        # mid-hand too: the same hand, the same player to act
        tt.table.poll()
        hand = tt.table.hand
        assert hand is not None
        mid = (state(tt.table), hand.events, hand.actor)
        tt.restart()
        h2 = tt.table.hand
        assert h2 is not None and (state(tt.table), h2.events, h2.actor) == mid
        tt.rng = random.Random(5)
        while tt.table.hand is not None:
            h = tt.table.hand
            assert h.actor is not None and tt.table.turn_seq is not None
            tt.table.act(tt.table.hand_players[h.actor], tt.table.turn_seq,
                         Action.check_or_call(h.legal()))
        assert len(tt.ends) == ends + 1 and tt.chips() == 5 * STACK
