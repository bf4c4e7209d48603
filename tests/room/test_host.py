"""A host's table (issue 14): approvals, pause, settings and stacks from the next hand, kick,
mute, chat, hand-over, the end of the game, and the players' votes (run it twice, bomb pots)
with straddles; each a record in the log, each refused in words with nothing changed when it
is not allowed, and all of it rebuilt the same by a restore."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from roomfakes import Client, FakeBank

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck, format_card
from tapete.room.clock import ManualClock
from tapete.room.errors import Refused
from tapete.room.log import EventLog, Game, TableConfig
from tapete.room.table import RoomTable, restore

HOST, A, B, C = "id-host", "id-a", "id-b", "id-c"


class Home:
    """A host's table: the host seated, a manual clock, seeded decks, a client per player
    and a spectator checking every message (roomfakes.Client)."""

    def __init__(self, seed: int = 1, **config: Any) -> None:
        self.clock = ManualClock(1_000)
        self.log = EventLog()
        self.bank = FakeBank(dict.fromkeys((HOST, A, B, C, "id-watch"), 1_000))
        decks = random.Random(seed)
        self.deck = lambda: Deck(seed=decks.randrange(2**32))
        self.config = TableConfig(**{"public": False, "auto_approve": False, **config})
        self.table = RoomTable.open(self.log, self.config, self.bank, clock=self.clock,
                                    deck=self.deck, auto_start=False, host=HOST)
        self.clients = {p: Client(p) for p in (HOST, A, B, C)}
        self.watcher = Client("id-watch")
        for c in [*self.clients.values(), self.watcher]:
            self.table.subscribe(c)
        self.table.sit(HOST, "Host", 200)
        self.total = self.bank.total() + self.table.table_chips()

    def host(self, action: str, **args: Any) -> None:
        self.table.host_command(HOST, action, args)

    def request(self) -> int:
        """The seq of the last request record."""
        return max(self.table.requests)

    def seat(self, *players: str) -> None:
        for i, p in enumerate(players):
            assert self.table.sit(p, f"P{i}", 200) is None
            self.host("approve", request=self.request())

    def conserved(self) -> bool:
        t = self.table
        return self.bank.total() + t.table_chips() + t.raked == self.total

    def actor(self) -> str:
        t = self.table
        assert t.hand is not None and t.hand.actor is not None
        return t.hand_players[t.hand.actor]

    def act(self, action: Callable[[Any], Action]) -> None:
        t = self.table
        assert t.hand is not None and t.turn_seq is not None
        t.act(self.actor(), t.turn_seq, action(t.hand.legal()))

    def play_out(self) -> None:
        """Check or call to the hand's end."""
        while self.table.hand is not None:
            if self.table.hand.actor is None:
                self.table.poll()
                continue
            self.act(Action.check_or_call)

    def shove(self) -> None:
        """Everyone all in, preflop."""
        t = self.table
        while t.hand is not None and t.hand.actor is not None:
            self.act(lambda legal: Action.raise_to(legal.max_to)
                     if legal.max_to is not None else Action.check_or_call(legal))

    def records(self, kind: str) -> list[dict[str, Any]]:
        return [r.payload for r in self.log.read(self.table.table_id) if r.kind == kind]

    def restored(self) -> RoomTable:
        return restore(EventLog(self.log.engine), self.table.table_id, self.bank,
                       clock=self.clock, deck=self.deck, auto_start=False)


def snapshot(home: Home) -> object:
    t = home.table
    return ([(r.seq, r.kind, r.payload) for r in home.log.read(t.table_id)],
            dict(home.bank.balances), t.players, t.seq, dict(t.requests), t.host, t.paused,
            dict(t.changes), sorted(t.muted), sorted(t.kicked), dict(t.votes),
            [(s.name, s.chips, s.pending_chips) if s else None for s in t.table.seats],
            [len(c.messages) for c in home.clients.values()])


def refused(home: Home, command: Callable[[], object], code: str | None = None) -> Refused:
    before = snapshot(home)
    with pytest.raises(Refused) as info:
        command()
    assert snapshot(home) == before
    message = info.value.message
    assert message.en and message.es and message.en != message.es
    if code is not None:
        assert info.value.code == code
    return info.value


def seats(t: RoomTable) -> object:
    return ([(s.name, s.chips, s.pending_chips, s.sitting_out) if s else None
             for s in t.table.seats], t.players, t.host, t.requests, t.paused, t.changes,
            t.kicked, t.muted, t.straddlers, t.over, t.config, t.seq, list(t.chat))


def test_seats_and_rebuys_wait_for_the_host() -> None:
    home = Home()
    t = home.table
    assert t.sit(A, "Ann", 150) is None and t.sit(B, "Bob", 100) is None
    ask_a, ask_b = sorted(t.requests)
    assert home.bank.balance(A) == 1_000  # nothing taken before the host says yes
    refused(home, lambda: t.host_command(A, "approve", {"request": ask_a}), "not_host")
    refused(home, lambda: t.sit(A, "Ann", 150))  # asked already
    home.host("approve", request=ask_a)
    home.host("deny", request=ask_b)
    assert t.seat_of(A) is not None and t.seat_of(B) is None
    assert home.bank.balance(A) == 850 and home.bank.balance(B) == 1_000
    refused(home, lambda: home.host("approve", request=ask_b))  # answered
    assert home.clients[B].messages[-1]["kind"] == "host"
    assert home.clients[B].messages[-1]["data"]["yours"] is True  # B sees its own denial
    # a rebuy asks too; the host approves it between hands
    assert t.add_chips(A, 50) == 0
    home.host("approve", request=home.request())
    assert t.table.seats[t.seat_of(A) or 0].chips == 200  # type: ignore[union-attr]
    # auto-approve: a seat is taken at once
    home.host("auto_approve", on=True)
    assert t.sit(B, "Bob", 100) is not None
    assert home.conserved()
    assert seats(home.restored()) == seats(t)


def test_pause_between_hands_and_now_with_the_clock_stopped() -> None:
    home = Home(act_ms=1_000, bank_ms=0, bank_add_ms=0)
    home.seat(A)
    t = home.table
    t.policy.dealing = True
    assert t.poll() and t.hand is not None  # dealt
    home.host("pause", now=False)
    home.play_out()
    home.clock.advance(60_000)
    assert not t.poll() and t.hand is None and t.due_ms() is None  # no new hand
    home.host("resume")
    assert t.poll() and t.hand is not None
    home.host("pause", now=True)  # mid-hand: the clock stops
    refused(home, lambda: home.act(Action.check_or_call), "paused")
    home.clock.advance(600_000)
    assert not t.poll() and t.due_ms() is None
    home.host("resume")
    assert t.due_ms() == 1_000  # the player to act has their whole time still
    refused(home, lambda: home.host("resume"))
    assert seats(home.restored()) == seats(t)


def test_settings_change_from_the_next_hand() -> None:
    home = Home()
    home.seat(A)
    t = home.table
    t.start_hand()
    home.host("settings", changes={"small_blind": 5, "big_blind": 10, "min_buy_in": 100,
                                   "max_buy_in": 500})
    assert t.hand is not None and t.hand.rules.big_blind == 2
    refused(home, lambda: home.host("settings", changes={"big_blind": 0}))
    refused(home, lambda: home.host("settings", changes={"seats": 9}))  # not from a hand on
    refused(home, lambda: home.host("settings", changes={"bounty_72": 5, "variant": "omaha"}))
    home.play_out()
    t.start_hand()
    assert t.hand.rules.big_blind == 10 and t.config.max_buy_in == 500
    home.play_out()
    assert seats(home.restored()) == seats(t)


def test_a_stack_edit_moves_bankroll_chips_and_never_makes_any() -> None:
    home = Home()
    home.seat(A)
    t = home.table
    seat_a = t.seat_of(A)
    home.host("stack", seat=seat_a, chips=500)  # between hands: now, 300 from A's bankroll
    assert home.bank.balance(A) == 500 and t.table.seats[seat_a].chips == 500
    home.host("stack", seat=seat_a, chips=100)  # 400 back
    assert home.bank.balance(A) == 900
    # A's bankroll holds 900: a stack of 1,001 would make a chip from nothing
    refused(home, lambda: home.host("stack", seat=seat_a, chips=1_001), "no_chips")
    refused(home, lambda: home.host("stack", seat=seat_a, chips=-1))
    refused(home, lambda: home.host("stack", seat=seat_a, chips=10**13))
    refused(home, lambda: home.host("stack", seat=7, chips=10))
    refused(home, lambda: t.host_command(A, "stack", {"seat": seat_a, "chips": 1_000}),
            "not_host")
    t.start_hand()  # during a hand: from its end
    home.host("stack", seat=seat_a, chips=300)
    assert home.bank.balance(A) == 900
    home.play_out()
    s = t.table.seats[seat_a]
    assert s is not None and s.chips == 300
    assert [r["delta"] for r in home.records("stack")][:2] == [300, -400]
    assert home.conserved()
    t.check_books()
    assert seats(home.restored()) == seats(t)


def test_kick_mute_hand_over_and_the_end_of_the_game() -> None:
    home = Home()
    home.seat(A, B)
    t = home.table
    t.start_hand()
    home.host("kick", seat=t.seat_of(B))  # folded at its turn, gone at the hand's end
    while t.hand is not None:
        if not t.poll():
            home.act(Action.check_or_call)
    assert t.seat_of(B) is None
    assert home.bank.balance(B) == 800 + home.records("left")[-1]["chips"]
    refused(home, lambda: t.sit(B, "Bob", 100))  # removed for good
    home.host("mute", seat=t.seat_of(A), on=True)
    refused(home, lambda: t.say(A, "hello"), "muted")
    home.host("mute", seat=t.seat_of(A), on=False)
    t.say(A, "hello")
    home.host("host", seat=t.seat_of(A))
    assert t.host == A
    refused(home, lambda: home.host("end"), "not_host")
    t.start_hand()
    t.host_command(A, "end", {})
    assert t.players  # the hand in play is played out first
    home.play_out()
    assert not t.players and t.over
    assert home.conserved() and home.bank.total() == home.total - t.raked
    refused(home, lambda: t.sit(C, "Cat", 100))
    refused(home, lambda: t.host_command(A, "pause", {"now": False}))
    assert seats(home.restored()) == seats(t)


def test_chat_is_limited_plain_and_the_spectators_own() -> None:
    home = Home()
    home.seat(A)
    t = home.table
    t.say(A, "  <b>hi</b>\x00\n  there ")
    assert home.records("chat")[-1]["text"] == "<b>hi</b> there"  # the page shows it as text
    refused(home, lambda: t.say(A, "x" * 201), "too_long")
    refused(home, lambda: t.say(A, " \n "))
    refused(home, lambda: t.say(A, 5))  # type: ignore[arg-type]
    for i in range(4):
        t.say(A, f"message {i}")
    refused(home, lambda: t.say(A, "one too many"), "flood")
    home.clock.advance(10_000)
    t.say(A, "later")
    # a spectator's chat reaches the spectators only
    t.say("id-watch", "from the rail")
    last = home.watcher.messages[-1]
    assert last["kind"] == "chat" and last["data"]["text"] == "from the rail"
    assert all(m["data"].get("text") != "from the rail" for p in (HOST, A)
               for m in home.clients[p].messages)
    late = Client(C)  # a seated player who subscribes later is not sent it either
    home.host("auto_approve", on=True)
    t.sit(C, "Cat", 100)
    t.subscribe(late)
    assert all(m["data"].get("text") != "from the rail" for m in late.messages)
    home.host("spectators", allowed=True, chat=False)
    refused(home, lambda: t.say("id-watch", "again"))
    assert seats(home.restored()) == seats(t)


def run_it(home: Home, votes: dict[str, bool] | None) -> ev.Event:
    """Everyone all in preflop; the players vote (None: nobody does and time runs out)."""
    t = home.table
    t.start_hand()
    home.shove()
    assert t.votes, "the hand waits for the vote"
    vote = next(iter(t.votes))
    refused(home, lambda: t.vote(C, vote, True), "not_asked")
    if votes is None:
        home.clock.advance(t.config.act_ms)
        assert t.poll()
    else:
        for p, yes in votes.items():
            t.vote(p, vote, yes)
    assert t.hand is None and not t.votes
    last = t.last_hand
    assert last is not None
    return next(e for e in last.events if isinstance(e, ev.RunsChosen))


def top_up(home: Home, players: tuple[str, ...]) -> None:
    """Each of ``players`` back to 200 chips at least (a bust one that stood up sits again)."""
    t = home.table
    for p in players:
        seat = t.seat_of(p)
        s = t.table.seats[seat] if seat is not None else None
        if s is None:
            t.sit(p, "Back" + p[-1], 200)
        elif s.chips < 200:
            t.add_chips(p, 200)


def test_run_it_twice_only_when_everyone_in_the_hand_agrees() -> None:
    home = Home(run_it=2)
    home.seat(A)
    assert run_it(home, {HOST: True, A: True}).runs == 2
    decided = home.records("decided")
    assert decided[-1]["passed"] is True and decided[-1]["kind"] == "runs"
    home.host("auto_approve", on=True)  # the bust player buys back in at once
    top_up(home, (HOST, A))
    assert run_it(home, {HOST: True, A: False}).runs == 1
    top_up(home, (HOST, A))
    assert run_it(home, None).runs == 1  # time ran out
    assert home.conserved()
    assert seats(home.restored()) == seats(home.table)


def test_the_run_out_vote_offers_the_runs_the_deck_can_deal() -> None:
    """docs/rules.md RUN-3 at a room table: the vote offers the runs the hand allows
    (``Hand.max_runs``). A room seats nine at most and runs three times at most, so a full
    table of Omaha all in preflop, 16 cards left, is the edge: three boards of five."""
    home = Home(run_it=3, variant="omaha", game=Game.POT_LIMIT, seats=9, auto_approve=True)
    t = home.table
    others = [f"id-p{k}" for k in range(1, 9)]
    for k, p in enumerate(others, 1):
        home.bank.balances[p] = 1_000
        home.total += 1_000
        t.sit(p, f"P{k}", 200)
    t.start_hand()
    assert t.hand is not None and t.hand.n == 9
    home.shove()
    assert t.hand is not None and t.hand.max_runs() == 3
    vote = next(iter(t.votes))
    assert t.votes[vote]["runs"] == 3 and home.records("vote")[-1]["runs"] == 3
    for p in [HOST, *others]:
        t.vote(p, vote, True)
    last = t.last_hand
    assert t.hand is None and last is not None
    assert next(e for e in last.events if isinstance(e, ev.RunsChosen)).runs == 3
    assert [len(b) for b in last.boards] == [5, 5, 5]
    assert home.conserved()
    assert seats(home.restored()) == seats(t)


def test_bomb_pots_every_n_hands_and_by_vote_and_straddles() -> None:
    home = Home(bomb_every=3, bomb_ante=10, bomb_vote=True, double_board=True,
                straddle=True, restraddle=True, auto_approve=True)
    t = home.table
    for p, name in ((A, "Ann"), (B, "Bob"), (C, "Cat")):
        t.sit(p, name, 200)
    # the two seats after the big blind straddle 4 and re-straddle 8
    for p in (HOST, A, B, C):
        t.ask_straddle(p, True)
    refused(home, lambda: t.ask_straddle(A, True))
    bombs, straddles = [], []
    for _ in range(3):
        t.start_hand()
        assert t.hand is not None
        bombs.append((t.hand.setup.bomb, t.hand.setup.double_board))
        straddles.append(sorted(x for x in t.hand.setup.straddles if x))
        home.play_out()
    assert bombs == [(0, False), (0, False), (10, True)]
    assert straddles[:2] == [[4, 8], [4, 8]] and straddles[2] == []
    # by vote: more than half of the players seated
    t.propose(A, "bomb")
    refused(home, lambda: t.propose(B, "bomb"))
    vote = next(iter(t.votes))
    t.vote(B, vote, True)
    assert t.votes and not t.bomb_next  # two of four: not more than half yet
    t.vote(C, vote, True)
    assert not t.votes and t.bomb_next
    t.start_hand()
    assert t.hand is not None and t.hand.setup.bomb == 10
    home.play_out()
    t.propose(A, "bomb")
    vote = next(iter(t.votes))
    t.vote(B, vote, False)
    t.vote(C, vote, False)
    assert not t.votes and not t.bomb_next
    assert home.conserved()
    assert seats(home.restored()) == seats(t)


def test_a_restore_from_a_snapshot_keeps_the_host_table() -> None:
    home = Home(run_it=2)
    home.seat(A)
    t = home.table
    t.snapshot_every = 1
    home.host("mute", seat=t.seat_of(A), on=True)
    home.host("settings", changes={"big_blind": 4})
    home.host("pause", now=False)
    t.start_hand()
    home.play_out()
    assert home.log.last_snapshot(t.table_id) is not None
    again = home.restored()
    assert seats(again) == seats(t)


def test_the_7_2_bounty_is_paid_at_a_table_that_plays_it() -> None:
    home = Home(bounty_72=5, auto_approve=True)
    t = home.table
    t.sit(A, "Ann", 200)
    t.sit(B, "Bob", 200)
    # each player is dealt both hole cards in turn from the seat after the button: a
    # 7-2 for whoever is dealt first, aces for nobody, a board that pairs the seven
    t.policy.new_deck = lambda: Deck.stacked("7c 2d Kd Ks Qh Qs 7d 7h 3s 8c 9d Jc 4h")
    t.start_hand()
    hand = t.hand
    assert hand is not None
    first = next(p for p in range(hand.n) if
                 {format_card(c) for c in hand.hole[p] or ()} == {"7c", "2d"})
    home.play_out()
    last = t.last_hand
    assert last is not None
    paid = [e for e in last.events if isinstance(e, ev.BountyPaid)]
    assert paid and all(e.player == first for e in paid), last.events
    assert sum(e.amount for e in paid) == 5 * (last.n - 1)
    assert home.conserved()
    assert seats(home.restored()) == seats(t)
