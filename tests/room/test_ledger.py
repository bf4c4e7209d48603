"""A room table's ledger and hand histories (tapete.room.ledger, tapete.room.hands).

A real table is played through RoomTable: four people and a bot, 30 hands, with a rebuy
between hands and chips added during one, a player leaving and sitting again under another
name, one leaving during a hand, a crash that voids the hand in play, and a hand still in play
at the end. Its ledger must agree with the bankrolls (each net is the bankroll's change plus
the chips still at the table), balance, and settle; its hand histories, read back with
tapete's own PHH and PokerStars readers, must give every hand's result and board as played,
show only the cards the reader saw, and verify against their fair deals. The settlement's
fewest payments are checked against a brute-force search."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from roomfakes import FakeBank, random_action

from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.errors import BooksError
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.history import phh, pokerstars
from tapete.history.replay import replay
from tapete.room import hands as room_hands
from tapete.room.clock import ManualClock
from tapete.room.ledger import (
    EXACT_MOST,
    Ledger,
    Payment,
    ledger,
    settle,
    settle_exact,
    settle_greedy,
)
from tapete.room.log import EventLog, OnCrash, Record, TableConfig
from tapete.room.table import RoomTable, restore

ANA, BEA, CAI, DEE, BOT = "id-ana", "id-bea", "id-cai", "id-dee", "bot:robo"
START = 10_000


def is_bot(player: str) -> bool:
    return player.startswith("bot:")


def caller(setup: HandSetup, events: list[Any], p: int) -> Action:
    """The bot: checks or calls, whatever it costs."""
    hand = Hand.from_events(setup.rules, setup.stacks, events, **setup.hand_args())
    return Action.check_or_call(hand.legal())


class Game:
    """One table, played by random legal actions, its bot by the table (an agent)."""

    def __init__(self, seed: int, config: TableConfig | None = None) -> None:
        self.rng = random.Random(seed)
        self.deck_rng = random.Random(seed + 1)
        self.secret_rng = random.Random(seed + 2)
        self.clock = ManualClock(1_000)
        self.log = EventLog()
        self.bank = FakeBank({p: START for p in (ANA, BEA, CAI, DEE, BOT)})
        config = config or TableConfig(on_crash=OnCrash.VOID)
        self.table_id = self.log.create_table(config, table_id="ledger-table")
        self.table = RoomTable(self.log, self.table_id, config, self.bank, **self._kit())

    def _kit(self) -> dict[str, Any]:
        return {"clock": self.clock, "agents": {BOT: caller},
                "deck": lambda: Deck(seed=self.deck_rng.randrange(2**32)),
                "secret": lambda: self.secret_rng.randbytes(32)}

    def step(self) -> None:
        t = self.table
        hand = t.hand
        if hand is None:
            for player in list(t.players.values()):
                seat = t.seat_of(player)
                s = t.table.seats[seat] if seat is not None else None
                if s is not None and s.chips + s.pending_chips == 0:
                    t.add_chips(player, 100)  # busted: buys back in
                    return
            assert t.poll(), "no hand dealt"
            return
        assert hand.actor is not None and t.turn_seq is not None
        player = t.hand_players[hand.actor]
        if player in t.agents:
            assert t.poll()
        else:
            t.act(player, t.turn_seq, random_action(hand.legal(), self.rng))

    def play(self, hands: int) -> None:
        """Until hand ``hands`` is over (and no other dealt)."""
        while self.table.hand is not None or self.table.hand_no < hands:
            self.step()

    def play_into(self, hand: int) -> None:
        """Until hand ``hand`` is in play."""
        self.play(hand - 1)
        while self.table.hand is None:
            self.step()
        assert self.table.hand_no == hand

    def crash(self) -> None:
        """The process dies; the table comes back from its log (the hand in play voided)."""
        self.table = restore(EventLog(self.log.engine), self.table_id, self.bank, **self._kit())

    def chips_now(self) -> dict[str, int]:
        t = self.table
        out = {}
        for seat, player in t.players.items():
            s = t.table.seats[seat]
            assert s is not None
            out[player] = s.chips + s.pending_chips
        return out

    def records(self) -> list[Record]:
        return self.log.read(self.table_id)


@pytest.fixture(scope="module")
def game() -> Game:
    g = Game(seed=6)
    t = g.table
    t.sit(ANA, "Ana", 100)
    t.sit(BEA, 'Bea, "B"', 150)  # the CSV quotes it
    t.sit(CAI, "Cai", 100)
    t.sit(BOT, "Robo", 200)
    g.play(8)
    t.add_chips(BEA, 50)  # a rebuy between hands
    g.play_into(10)
    t.add_chips(CAI, 200)  # during a hand: what finds no room after it is refunded
    g.play(12)
    t.leave(CAI)
    g.play(15)
    t.sit(CAI, "Cid", 120)  # back, under another name
    t.sit(DEE, "=Dee", 100)  # a name a spreadsheet would take for a formula
    g.play_into(18)
    t.leave(ANA)  # during a hand: the seat empties at its end
    g.play_into(22)
    g.crash()  # hand 22 is voided
    g.play_into(31)  # 30 dealt, hand 31 still in play
    return g


# ---------------------------------------------------------------------------- the ledger

def test_the_played_table_s_ledger_agrees_with_the_bankrolls(game: Game) -> None:
    records = game.records()
    kinds = Counter(r.kind for r in records)
    assert kinds["void"] == 1 and kinds["refund"] >= 1 and kinds["left"] == 2
    chips = game.chips_now()
    book = ledger(records, is_bot, chips)
    # worked out from the records alone, the same ledger
    assert ledger(records, is_bot) == book
    names = [x.name.en for x in book.lines]
    assert names == ["Ana", 'Bea, "B"', "Cid", "=Dee", "the house"]
    assert book.lines[-1].name.es == "la casa" and book.lines[-1].house
    people = {ANA: 0, BEA: 1, CAI: 2, DEE: 3}
    for player, k in people.items():
        line = book.lines[k]
        assert line.players == {player}
        moved = game.bank.balance(player) - START  # cash-outs less buy-in and rebuys
        assert line.cash_out - line.buy_in - line.rebuys == moved
        assert line.at_table == chips.get(player, 0)
        assert line.net == moved + line.at_table
    house = book.lines[-1]
    assert house.net == game.bank.balance(BOT) - START + chips[BOT]
    # Ana left during hand 18: nothing at the table; Cai and Cid are one line
    assert not book.lines[0].seated and book.lines[0].at_table == 0
    cid = book.lines[2]
    assert cid.buy_in == 100 and cid.seated
    refunded = sum(r.payload["chips"] for r in records if r.kind == "refund"
                   and r.payload["player"] == CAI)
    left = sum(r.payload["chips"] for r in records if r.kind == "left"
               and r.payload["player"] == CAI)
    added = sum(r.payload["taken"] for r in records if r.kind == "chips"
                and r.payload["player"] == CAI)
    assert cid.rebuys == 120 + added and cid.cash_out == refunded + left
    bea = book.lines[1]
    assert bea.buy_in == 150 and bea.rebuys >= 1
    # the books: every chip won was lost at the table (no rake here)
    assert book.rake == 0
    assert sum(x.net for x in book.lines) + book.rake == 0
    # hands 1 to 30 but the voided 22; 31 is still in play
    assert book.hands == 29
    balances = [x.net for x in book.lines]
    assert_settles(balances, book.payments)
    assert len(book.payments) <= sum(1 for b in balances if b) - 1


def assert_settles(balances: list[int], payments: tuple[Payment, ...] | list[Payment]) -> None:
    after = list(balances)
    for p in payments:
        assert p.amount > 0 and balances[p.payer] < 0 < balances[p.payee]
        after[p.payer] += p.amount
        after[p.payee] -= p.amount
    assert after == [0] * len(balances)


def test_the_ledger_json_names_no_player_id_and_marks_the_reader(game: Game) -> None:
    book = ledger(game.records(), is_bot, game.chips_now())
    shown = book.to_json(viewer=CAI)
    text = json.dumps(shown)
    assert "id-" not in text and "bot:" not in text
    assert [x["you"] for x in shown["lines"]] == [False, False, True, False, False]
    assert [x["name"]["en"] for x in shown["lines"]][2] == "Cid"
    assert sum(x["net"] for x in shown["lines"]) + shown["rake"] == 0
    assert shown["hands"] == 29
    for p, q in zip(shown["settlement"], book.payments, strict=True):
        assert (p["from"], p["to"], p["amount"]) == tuple(q)
    assert not any(x["you"] for x in book.to_json(viewer=BOT)["lines"])  # the house is nobody's


def test_the_ledger_csv_parses_and_nets_to_zero(game: Game) -> None:
    book = ledger(game.records(), is_bot, game.chips_now())
    rows = list(csv.reader(io.StringIO(book.to_csv())))
    assert rows[0] == ["player", "buy-in", "rebuys", "cash-outs", "at the table", "net"]
    gap = rows.index([])
    lines = rows[1:gap]
    assert [r[0] for r in lines] == ["Ana", 'Bea, "B"', "Cid", "'=Dee", "the house"]
    assert sum(int(r[5]) for r in lines) == 0
    for r, x in zip(lines, book.lines, strict=True):
        assert [int(v) for v in r[1:]] == [x.buy_in, x.rebuys, x.cash_out, x.at_table, x.net]
    assert rows[gap + 1] == ["pays", "to", "chips"]
    paid = rows[gap + 2:]
    assert len(paid) == len(book.payments)
    names = [r[0] for r in lines]
    nets = dict(zip(names, (int(r[5]) for r in lines), strict=True))
    for payer, payee, amount in paid:
        nets[payer] += int(amount)
        nets[payee] -= int(amount)
    assert set(nets.values()) == {0}
    spanish = list(csv.reader(io.StringIO(book.to_csv("es"))))
    assert spanish[0] == ["jugador", "entrada", "recompras", "retiradas", "en la mesa", "neto"]
    assert spanish[5][0] == "la casa" and spanish[7] == ["paga", "a", "fichas"]


def rec(records: list[Record], kind: str, **payload: Any) -> None:
    records.append(Record(len(records) + 1, kind, payload, 0))


def made_records() -> list[Record]:
    """Records made by hand: a host's stack edits, a refund, rake, a voided hand, a hand in
    play, kinds the ledger does not know, and two people with the same name."""
    r: list[Record] = []
    rec(r, "sat", seat=0, player=ANA, name="Ana", chips=100, wait=False)
    rec(r, "sat", seat=1, player=BEA, name="Bo", chips=100, wait=False)
    rec(r, "sat", seat=2, player=BOT, name="Robo", chips=100, wait=False)
    rec(r, "chat", player=ANA, text="hola")  # a kind still to come: passed over
    rec(r, "start", hand_no=1, setup={"stacks": [100, 100, 100]}, players=[ANA, BEA, BOT])
    rec(r, "event", event={"type": "Raked", "pot": 0, "amount": 3})
    rec(r, "event", event={"type": "Ended", "stacks": [150, 47, 100]})
    rec(r, "end", hand_no=1)
    rec(r, "chips", seat=1, player=BEA, asked=90, taken=80)  # Bo: 127
    rec(r, "stack", seat=0, player=ANA, delta=-20, chips=130)  # the host takes 20 off
    rec(r, "stack", seat=1, player=BEA, delta=30, chips=157)  # and gives Bo 30
    rec(r, "start", hand_no=2, setup={"stacks": [130, 157, 100]}, players=[ANA, BEA, BOT])
    rec(r, "event", event={"type": "Posted", "player": 0, "amount": 1, "kind": "small blind"})
    rec(r, "void", hand_no=2)  # called off: nothing moved
    rec(r, "refund", seat=1, player=BEA, chips=7)  # Bo: 150
    rec(r, "left", seat=0, player=ANA, chips=130)
    rec(r, "sat", seat=0, player=CAI, name="bo", chips=60, wait=True)  # another "bo"
    rec(r, "host_kick", seat=2)  # another kind still to come
    rec(r, "start", hand_no=3, setup={"stacks": [60, 150, 100]}, players=[CAI, BEA, BOT])
    rec(r, "event", event={"type": "Ended", "stacks": [0, 210, 100]})  # no end: in play
    return r


def test_a_ledger_of_records_made_by_hand() -> None:
    book = ledger(made_records(), is_bot)
    got = [(x.name.en, x.buy_in, x.rebuys, x.cash_out, x.at_table, x.net, x.seated)
           for x in book.lines]
    assert got == [("Ana", 100, 0, 20 + 130, 0, 50, False),
                   ("Bo", 100, 80 + 30, 7, 150, -53, True),
                   ("bo (2)", 60, 0, 0, 60, 0, True),
                   ("the house", 100, 0, 0, 100, 0, True)]
    assert book.rake == 3 and book.hands == 1
    assert sum(x.net for x in book.lines) + book.rake == 0
    # the house is owed the rake: Bo pays Ana and the house
    assert sorted(book.payments) == [Payment(1, 0, 50), Payment(1, 3, 3)]
    live = ledger(made_records(), is_bot, {BEA: 150, CAI: 60, BOT: 100})
    assert live == book
    with pytest.raises(BooksError, match="does not balance"):
        ledger(made_records(), is_bot, {BEA: 151, CAI: 60, BOT: 100})
    assert ledger([], is_bot) == Ledger((), 0, 0, ())


# ---------------------------------------------------------------------------- the hands

def played_hands(records: list[Record]) -> dict[int, dict[str, Any]]:
    """Each finished hand as the raw records say it was played: its players' names, each
    name's result, its board, who showed."""
    out: dict[int, dict[str, Any]] = {}
    start: Record | None = None
    events: list[dict[str, Any]] = []
    for r in records:
        if r.kind == "start":
            start, events = r, []
        elif r.kind == "event":
            events.append(r.payload["event"])
        elif r.kind == "void":
            start = None
        elif r.kind == "end" and start is not None:
            setup = start.payload["setup"]
            ended = next(e["stacks"] for e in events if e["type"] == "Ended")
            names = setup["names"]
            out[start.payload["hand_no"]] = {
                "names": names, "players": start.payload["players"],
                "net": {n: a - b for n, a, b in zip(names, ended, setup["stacks"], strict=True)},
                "board": [c for e in events if e["type"] == "BoardDealt" for c in e["cards"]],
                "shown": {names[e["player"]] for e in events if e["type"] == "Shown"}}
            start = None
    return out


def check_hand(engine: Hand, played: dict[str, Any], viewer: str) -> None:
    assert engine.done
    assert dict(zip(engine.names, engine.net(), strict=True)) == played["net"]
    assert list(engine.board) == played["board"]
    me = played["names"][played["players"].index(viewer)] if viewer in played["players"] \
        else None
    known = {name for name, h in zip(engine.names, engine.hole, strict=True) if h is not None}
    assert known == played["shown"] | ({me} if me is not None else set())


def test_the_phhs_reads_back_as_played_and_verifies(game: Game) -> None:
    records = game.records()
    played = played_hands(records)
    assert sorted(played) == [n for n in range(1, 31) if n != 22]
    assert room_hands.finished(records)[0].hand().done
    text = room_hands.to_phhs(records, BEA, table="Home", seats=6, every_hand=True)
    found = phh.read_text(text, "hands.phhs")
    assert len(found) == 29
    shown = 0
    for item in found:
        assert item.record is not None, item.error
        assert item.record.extra.get("table") == "Home"
        number = int(item.record.hand_id)  # its section: the hand number at the table
        res = replay(item.record)
        assert res.error is None and res.engine is not None
        check_hand(res.engine, played[number], BEA)
        shown += bool(played[number]["shown"])
        verdict = phh.verify_record(item.record, res.engine, res.error)
        assert verdict.status.value == "verified", verdict.text().en
    assert shown  # some hand went to a showdown: its cards are in the file


def test_the_pokerstars_text_reads_back_as_played(game: Game) -> None:
    records = game.records()
    played = played_hands(records)
    # every hand (the host's file): Cai the hero of those Cai was dealt into
    text = room_hands.to_pokerstars(records, CAI, table="Home", seats=6, every_hand=True)
    read = list(pokerstars.read_text(text))
    assert [int(r.hand_id) for r in read if not isinstance(r, pokerstars.ParseError)] == \
        sorted(played)
    # Cai's own file: only the hands Cai was dealt into
    mine = sorted(n for n, h in played.items() if CAI in h["players"])
    assert 0 < len(mine) < len(played)
    own = room_hands.to_pokerstars(records, CAI, table="Home", seats=6)
    assert [int(r.hand_id) for r in pokerstars.read_text(own)
            if not isinstance(r, pokerstars.ParseError)] == mine
    assert own.count("Dealt to ") == len(mine)
    for record in read:
        assert not isinstance(record, pokerstars.ParseError), record.message.en
        res = replay(record)
        assert res.error is None and res.engine is not None and not res.mismatches
        check_hand(res.engine, played[int(record.hand_id)], CAI)
    assert text.count("Dealt to ") == sum(CAI in h["players"] for h in played.values())


def test_a_hand_phh_has_no_variant_for_is_left_out_and_said_so() -> None:
    g = Game(seed=5, config=TableConfig(variant="omaha"))  # no-limit Omaha
    g.table.sit(ANA, "Ana", 100)
    g.table.sit(BEA, "Bea", 100)
    g.play(2)
    text = room_hands.to_phhs(g.records(), ANA)
    lines = text.splitlines()
    assert lines[0].startswith("# hand 1 is left out: it cannot be written as PHH: ")
    assert lines[1].startswith("# la mano 1 queda fuera: no se puede escribir en PHH: ")
    assert len(lines) == 4
    assert "PokerStars Hand #2:  Omaha No Limit" in room_hands.to_pokerstars(g.records(), ANA)


# ---------------------------------------------------------------------------- settlement

def fewest(balances: list[int]) -> int:
    """The fewest payments that square ``balances``, by trying every way: the first party
    with a balance is squared against each party of the other sign in turn."""
    ds = [b for b in balances if b]

    def search(i: int) -> int:
        while i < len(ds) and ds[i] == 0:
            i += 1
        if i == len(ds):
            return 0
        best = len(ds)
        for j in range(i + 1, len(ds)):
            if ds[i] * ds[j] < 0:
                ds[j] += ds[i]
                best = min(best, 1 + search(i + 1))
                ds[j] -= ds[i]
        return best

    return search(0)


def zero_sum(most: int, span: int = 60) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(-span, span), max_size=most - 1).map(lambda xs: [*xs, -sum(xs)])


@settings(max_examples=150, deadline=None)
@given(zero_sum(7, span=12))
def test_the_exact_settlement_is_the_fewest_payments(balances: list[int]) -> None:
    payments = settle_exact(balances)
    assert_settles(balances, payments)
    assert len(payments) == fewest(balances)
    assert len(payments) <= len(settle_greedy(balances))


@settings(max_examples=60, deadline=None)
@given(zero_sum(12))
def test_the_exact_settlement_is_no_longer_than_the_greedy(balances: list[int]) -> None:
    exact, greedy = settle_exact(balances), settle_greedy(balances)
    assert_settles(balances, exact)
    assert_settles(balances, greedy)
    assert len(exact) <= len(greedy) <= max(0, sum(1 for b in balances if b) - 1)


@settings(max_examples=40, deadline=None)
@given(zero_sum(24, span=10_000))
def test_every_settlement_squares_everyone_in_fewer_payments_than_people(
        balances: list[int]) -> None:
    payments = settle(balances)
    assert_settles(balances, payments)
    assert len(payments) <= max(0, sum(1 for b in balances if b) - 1)


def test_the_exact_settlement_beats_the_greedy_where_groups_square_apart() -> None:
    balances = [6, -3, -3, 4, -4]  # {6, -3, -3} and {4, -4}
    assert len(settle_greedy(balances)) == 4
    exact = settle_exact(balances)
    assert_settles(balances, exact)
    assert len(exact) == 3 == fewest(balances)
    # fifteen parties in seven pairs and a three: exact; sixteen: the greedy's
    pairs = [x for k in range(1, 7) for x in (k * 10 + 1, -(k * 10 + 1))]
    fifteen = [*pairs, 5, 2, -7]
    assert len(fifteen) == EXACT_MOST
    assert len(settle(fifteen)) == 15 - 7
    with pytest.raises(ValueError):
        settle([1, -2])
    with pytest.raises(ValueError):
        settle_exact([1] * 8 + [-1] * 8)
    assert settle([]) == [] and settle([0, 0]) == []
