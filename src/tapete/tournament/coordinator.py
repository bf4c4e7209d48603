"""ONE live coordinator for every tournament the room runs: a multi-table tournament and the
practice sit-and-go, which is a one-table tournament with bots.

A :class:`Coordinator` drives a :class:`~tapete.tournament.live.LiveTournament` (the director,
pure and deterministic) and its tables (room tables in tournament mode, reached through the
small :class:`Tables` port the server implements): after each hand of a table it stores the
director's input, asks for the orders, and applies them (unseat, move, close, pay, deal). It
holds no SQL, no HTTP and no socket: its records go through :class:`StreamLog` (the room's log)
and its money through :class:`Bankroll`, both ports.

**The stream.** A tournament's inputs are the records of a stream of its own in the room's log
(``"tournament:<id>"``, or ``"sng:<table id>"`` for a sit-and-go), each stored before the
coordinator acts on it (before the bankroll move, before the orders reach a table): ``created``
(its settings and seed), ``registered`` / ``unregistered`` (a room tournament's buy-ins and
refunds), ``started`` (the seat draw), ``hand_over`` (a table's stacks and big blind's seat
after each hand), ``deal`` / ``answer`` (a deal the person proposed at a sit-and-go, and their
answer), ``prize`` and ``refund`` (each payment). A stream beside the tables' own logs rather
than records in a table's: a table restores from its log alone as any table does, and the
director's inputs keep one order across tables. The two kinds write the shapes they always
wrote (:class:`SitAndGo` overrides the shapes and the bankroll keys; a stored log of either
restores), and run the same code otherwise.

**A restart** (:meth:`Coordinator.replay`, :meth:`Coordinator.reask`, :meth:`Coordinator.settle`,
:meth:`Coordinator.reconcile`): the stream replayed into a new director (the same inputs, the
same orders), every bankroll move a record names asked for again (once per key), the chip
account derived from the director's stacks and the restored tables (the books must add up),
then what the director's last orders asked and a crash kept from the tables applied, each a
logged command of a table, so nothing is applied twice. A tournament that cannot go on is
settled by :meth:`Coordinator.give_up`: the rule of docs/rules.md ("Tournaments": every buy-in
back before the start; after it, each person's place's prize if out, else their share of the
prizes left by ICM of the director's last stacks), keyed.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from tapete.core.catalog import N_, t
from tapete.core.errors import BooksError
from tapete.core.text import Text
from tapete.tournament import deals, rulings
from tapete.tournament.live import LiveTournament, Orders, Seating
from tapete.tournament.model import Level, Schedule, TournamentRules, parse_levels

log = logging.getLogger("tapete.server")
GIVEN_UP = N_("This tournament could not go on after a restart: every buy-in was given back,"
              " or the prizes shared by the stacks (docs: Tournaments).")


# ---------------------------------------------------------------------------- the ports
class StreamLog(Protocol):
    """The room's log, as a tournament's stream uses it."""

    def append(self, table_id: str, first_seq: int,
               records: list[tuple[str, dict[str, Any]]]) -> Any: ...
    def close_table(self, table_id: str) -> None: ...


class Bankroll(Protocol):
    """The people's money: each move keyed, so asked for twice it is made once."""

    def take(self, player: str, amount: int, key: str) -> bool: ...
    def give(self, player: str, amount: int, key: str) -> None: ...


class Chips(Protocol):
    """The tournament's chip account: each entrant's chips off the tables."""

    restoring: bool

    def issue(self, player: str, amount: int) -> None: ...
    def settle(self, chips: dict[str, int], issued: int, on_tables: int) -> None: ...
    def off_tables(self) -> int: ...


class Seats(Protocol):
    big_blind_seat: int | None


class Table(Protocol):
    """A tournament's table as its coordinator drives it (a room table in tournament mode:
    each call a logged command of the table)."""

    hand_no: int
    next_level: dict[str, Any] | None
    players: dict[int, str]

    @property
    def hand(self) -> object | None: ...
    @property
    def table(self) -> Seats: ...
    def seat_of(self, player: str) -> int | None: ...
    def tournament_seat(self, player: str, name: str, seat: int, chips: int, *,
                        dealt_in: bool = True, agent: Any = None) -> None: ...
    def tournament_unseat(self, player: str) -> int: ...
    def tournament_deal(self, small_blind: int, big_blind: int, ante: int = 0, *,
                        big_blind_ante: bool = True, level: int = 0) -> None: ...
    def tournament_hold(self) -> None: ...
    def tournament_stacks(self) -> dict[str, int]: ...
    def table_chips(self) -> int: ...


class Tables(Protocol):
    """The coordinator's hands on its tables, by number (the server's adapter): ``open`` a
    new one (empty) or ``close`` one the director closed; give ``dst`` a player's ``agent``
    (table ``src``'s, else the bots'); tell a player's tabs they ``moved``; ``poke`` a
    table's owner (look at the timers now: a deal, a bot's turn); ``stepped``: a step is
    over, the viewers are due a state."""

    def table(self, number: int) -> Table: ...
    def open(self, number: int, table_id: str) -> None: ...
    def close(self, number: int, table_id: str) -> None: ...
    def agent(self, player: str, src: int | None) -> Any: ...
    def moved(self, player: str, src: int, dst: int) -> None: ...
    def poke(self, number: int) -> None: ...
    def stepped(self) -> None: ...


# ---------------------------------------------------------------------------- the view
# the players left up to which states carry each one's ICM equity (exact ICM grows fast with
# the field: a final table's is instant, 20 players' with 4 paid takes a good part of a second)
ICM_MOST = 10


@functools.lru_cache(maxsize=256)
def _icm(stacks: tuple[int, ...], prizes: tuple[int, ...]) -> list[int]:
    """The ICM shares in whole chips, worked out once for each stacks and prizes (every
    viewer's state of a table between two hands shows the same)."""
    return deals.icm_deal(stacks, prizes)


def tournament_info(live: LiveTournament, tid: str, name: Text, kind: str, table: int,
                    player: str | None, in_hand: bool, deal: dict[str, Any] | None,
                    proposing: bool = False) -> dict[str, Any]:
    """A tournament as ``player`` sees it at table number ``table``: the protocol's
    ``TournamentInfo`` (docs/protocol.md). ``deal_allowed``: at a sit-and-go, whether
    ``player`` may propose a deal now (:func:`~tapete.tournament.rulings.may_propose`, none
    open nor ``proposing``); a room tournament offers people none."""
    sched = live.rules.schedule
    hands = live.tables[table].hands if table in live.tables else 0
    played = hands - 1 if in_hand else hands  # the hand in play counts as not played yet
    played = max(0, played)
    now = live.level_for(0, played)
    lv, nxt = sched.level(now), sched.level(now + 1)
    end = sum(sched.level(i).length for i in range(now + 1))
    left = live.left()
    stacks = live.stacks()
    prizes = live.prizes()
    equities: list[dict[str, Any]] = []
    players = [e for e in left if stacks.get(e.player, 0) > 0]
    if 2 <= len(players) <= ICM_MOST:
        whole = _icm(tuple(stacks[e.player] for e in players), tuple(prizes[:len(players)]))
        equities = [{"seat": e.seat, "name": e.name, "chips": stacks[e.player], "equity": w}
                    for e, w in zip(players, whole, strict=True)]
    deal_json: dict[str, Any] | None = None
    if deal is not None:
        deal_json = {"kind": deal["kind"], "open": deal["open"],
                     "amounts": [{"name": live.entrants[p].name, "amount": a,
                                  "answer": deal["answers"].get(p)}
                                 for p, a in deal["amounts"].items()],
                     "yours": deal["amounts"].get(player, 0)}
    me = live.entrants.get(player) if player else None
    return {
        "id": tid, "name": name.to_json(), "kind": kind, "level": now + 1,
        "small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante,
        "next_small_blind": nxt.small_blind, "next_big_blind": nxt.big_blind,
        "next_ante": nxt.ante,
        "hands_to_next_level": max(0, end - played) if sched.by == "hands" else 0,
        "entrants": len(live.entrants), "players_left": len(left),
        "prize_pool": live.prize_pool, "prizes": [x for x in prizes if x > 0],
        "equities": equities, "deal": deal_json,
        "place": (me.place or None) if me is not None else None,
        "prize": me.prize if me is not None and live.over else None,
        "finished": live.over,
        "results": [{"place": r.place, "name": r.name, "prize": r.prize}
                    for r in live.results()] if live.over else [],
        "hand_for_hand": live.hand_for_hand, "table_number": table,
        "tables": len(live.tables),
        "deal_allowed": kind == "sng" and me is not None and not me.place and not live.over
        and rulings.may_propose(len(left), prizes) and not proposing
        and not (deal is not None and deal["open"]),
    }


# ---------------------------------------------------------------------------- the coordinator
BotNames = Callable[["Coordinator"], dict[str, str]]  # a tournament's bots: name by id


@dataclass(eq=False)
class Coordinator:
    """One tournament: its director, its stream, its tables, its payments. The records and
    keys are a room tournament's; :class:`SitAndGo` writes a sit-and-go's."""

    STREAM: ClassVar[str] = "tournament"
    KIND: ClassVar[str] = "mtt"
    PAYS_AT_ONCE: ClassVar[bool] = False  # a person out is paid then (else at the end)
    KEYS: ClassVar[dict[str, str]] = {"buy-in": "{id}:buy-in:{player}:{n}",
                                      "refund": "{id}:refund:{player}:{n}",
                                      "prize": "{id}:prize:{player}"}

    id: str
    rules: TournamentRules
    seed: int
    people: dict[str, str] = field(default_factory=dict)  # player id -> name
    entries: dict[str, int] = field(default_factory=dict)  # player id -> registrations
    bots: dict[str, str] = field(default_factory=dict)  # bot id -> name (drawn after people)
    live: LiveTournament | None = None
    tables: dict[int, str] = field(default_factory=dict)  # number -> room table id, open
    ids: dict[int, str] = field(default_factory=dict)  # every table it opened, closed too
    paid: dict[str, int] = field(default_factory=dict)
    seq: int = 0  # the last record of its stream
    deal: dict[str, Any] | None = None  # a deal proposed: kind, amounts, answers, open
    deal_pending: str | None = None  # proposed during a hand: opened at its end
    notice: Text | None = None  # why it ended early (refunded: docs/rules.md)
    # told after every step (tests: chips conserved at each)
    on_step: Callable[[Coordinator], None] | None = None
    log: StreamLog | None = None  # where its records go (None: a replay that stores nothing)
    bankroll: Bankroll | None = None
    account: Chips | None = None
    port: Tables | None = None

    # ------------------------------------------------------------------ questions
    @property
    def stream(self) -> str:
        return f"{self.STREAM}:{self.id}"

    @property
    def started(self) -> bool:
        return self.live is not None and self.live.started

    @property
    def finished(self) -> bool:
        return self.live is not None and self.live.over

    def prize_now(self, player: str) -> int:
        """``player``'s prize as it stands: their place's (shared with those tied) once out,
        the end's once over, else 0."""
        live = self.live
        if live is None:
            return 0
        if live.over:
            return live.entrants[player].prize
        if not live.entrants[player].place:
            return 0
        won = rulings.awards([(e.player, e.place) for e in live.finished], live.prizes(), None)
        return won.get(player, 0)

    def info(self, name: Text, number: int, player: str | None, in_hand: bool
             ) -> dict[str, Any] | None:
        if self.live is None:
            return None
        return tournament_info(self.live, self.id, name, self.KIND, number, player, in_hand,
                               self.deal, proposing=self.deal_pending is not None)

    # ------------------------------------------------------------------ its records' shapes
    def key(self, move: str, player: str, n: int = 0) -> str:
        """The bankroll key of a ``move`` ("buy-in", "refund", "prize") of ``player``'s
        (``n``: their entry's number)."""
        return self.KEYS[move].format(id=self.id, player=player, n=n)

    def _started_record(self, seating: list[Seating], by: str) -> dict[str, Any]:
        return {"by": by, "tables": {str(k): v for k, v in self.ids.items()},
                "seating": [[s.table, s.seat, s.player, s.chips] for s in seating]}

    def _hand_over_record(self, number: int, stacks: dict[str, int], bb: int | None
                          ) -> dict[str, Any]:
        return {"table": number, "stacks": stacks, "big_blind_seat": bb, "elapsed_s": 0}

    def _payment_record(self, player: str, amount: int, key: str | None = None
                        ) -> dict[str, Any]:
        out: dict[str, Any] = {"player": player, "amount": amount}
        if key is not None:
            out["key"] = key
        return out

    def _payee(self, payload: dict[str, Any]) -> str:
        return str(payload["player"])

    @classmethod
    def created(cls, tid: str, payload: dict[str, Any]) -> Coordinator:
        """The tournament its ``created`` record describes (subclasses: their own)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ storing
    def store(self, kind: str, payload: dict[str, Any]) -> None:
        """One record of the stream, stored (committed) before anything acts on it."""
        if self.log is not None:
            self.log.append(self.stream, self.seq + 1, [(kind, payload)])
        self.seq += 1

    def _port(self) -> Tables:
        assert self.port is not None
        return self.port

    def _table(self, number: int) -> Table:
        return self._port().table(number)

    # ------------------------------------------------------------------ registration
    def register(self, player: str, name: str) -> int:
        """A person registered (their record stored first); returns their entry's number."""
        n = self.entries.get(player, 0) + 1
        self.store("registered", {"player": player, "name": name, "n": n})
        self.entries[player] = n
        self.people[player] = name
        return n

    def unregister(self, player: str, refund: bool) -> None:
        n = self.entries[player]
        self.store("unregistered", {"player": player, "n": n, "refund": refund})
        del self.people[player]
        if refund and self.rules.buy_in:
            assert self.bankroll is not None
            self.bankroll.give(player, self.rules.buy_in, self.key("refund", player, n))

    # ------------------------------------------------------------------ the start
    def draw(self) -> LiveTournament:
        """The director with every entrant registered (people, then the bots), not started."""
        live = LiveTournament(self.rules, seed=self.seed)
        for pid, name in self.people.items():
            live.register(pid, name)
        for pid, name in self.bots.items():
            live.register(pid, name, bot=True)
        return live

    def seat_draw(self, live: LiveTournament) -> list[Seating]:
        return live.start()

    def start(self, new_id: Callable[[], str], by: str = "") -> None:
        """The seat draw (stored first), the tables opened (``new_id``: a room table's id for
        each) and seated, their first hands called."""
        live = self.draw()
        seating = self.seat_draw(live)
        self.ids = {k: new_id() for k in live.tables}
        self.store("started", self._started_record(seating, by))
        self.live = live
        port = self._port()
        for k in live.tables:
            if k not in self.tables:
                self.tables[k] = self.ids[k]
                port.open(k, self.ids[k])
        assert self.account is not None
        for s in seating:
            self.account.issue(s.player, s.chips)
            self._table(s.table).tournament_seat(s.player, live.entrants[s.player].name,
                                                 s.seat, s.chips, dealt_in=False)
        for k in live.playing():  # each poked: the first hand is dealt
            self._deal(k, live.next_level(k))
        self._stepped()

    def _deal(self, number: int, level: int) -> None:
        lv = self.rules.schedule.level(level)
        self._table(number).tournament_deal(lv.small_blind, lv.big_blind, lv.ante,
                                            level=level + 1)
        self._port().poke(number)

    def _stepped(self) -> None:
        if self.on_step is not None:
            self.on_step(self)
        self._port().stepped()

    # ------------------------------------------------------------------ each hand
    def step(self, number: int) -> None:
        """Table ``number``'s hand is over (on its owner, after the command): its input
        stored, the director's orders applied."""
        live = self.live
        if live is None or live.over or number not in self.tables:
            return
        rt = self._table(number)
        if rt.hand is not None or number not in live.playing():
            return
        seated = rt.tournament_stacks()
        # a player moved here whose seat is still on its way played no hand here
        stacks = {p: seated.get(p, live.stacks()[p]) for p in live.tables[number].players()}
        bb = rt.table.big_blind_seat
        self.store("hand_over", self._hand_over_record(number, stacks, bb))
        orders = live.hand_over(number, stacks, bb)
        self.apply(orders, self._open_pending(number, orders))

    def _open_pending(self, number: int, orders: Orders) -> bool:
        """A deal proposed during the hand opens now (the next hand waits): whether it did."""
        if orders.finished or self.deal_pending is None or number not in orders.deal_now:
            return False
        assert self.live is not None
        self.live.pause(number)
        self.open_deal(self.deal_pending)
        self.deal_pending = None
        return True

    def apply(self, orders: Orders, opened: bool = False) -> None:
        """The director's orders, applied to the tables (each a logged command of one)."""
        live = self.live
        assert live is not None
        port = self._port()
        for p in orders.busted:
            self._table(orders.table).tournament_unseat(p)
        for m in orders.moves:
            self._table(m.from_table).tournament_unseat(m.player)
            agent = port.agent(m.player, m.from_table)
            self._table(m.to_table).tournament_seat(m.player, live.entrants[m.player].name,
                                                    m.to_seat, m.chips, dealt_in=m.dealt_in,
                                                    agent=agent)
            port.moved(m.player, m.from_table, m.to_table)
        for k in orders.closed:
            port.close(k, self.tables.pop(k))
        if self.PAYS_AT_ONCE:
            for b in orders.places:
                if b.player in self.people:
                    self.pay_out(b.player)
        if orders.finished:
            self.pay()
        elif not opened:
            for k in orders.deal_now:
                self._deal(k, orders.levels[k])
        self._stepped()

    # ------------------------------------------------------------------ paying
    def pay_out(self, player: str) -> None:
        """``player``'s prize as it stands, its record stored first, the move keyed: paid
        once (asked for again, after a restart: once per key)."""
        prize = self.prize_now(player)
        if prize > 0 and player not in self.paid:
            self.store("prize", self._payment_record(player, prize))
            self.paid[player] = prize
        if player in self.paid and self.bankroll is not None:
            self.bankroll.give(player, self.paid[player], self.key("prize", player))

    def pay(self) -> None:
        """The end: each person's prize (one paid when out must agree with the end's)."""
        live = self.live
        assert live is not None
        for pid in self.people:
            prize = live.entrants[pid].prize
            if pid in self.paid and prize != self.paid[pid]:
                raise BooksError(f"tournament {self.id}: {pid} paid {self.paid[pid]} when"
                                 f" out, the end says {prize}")
            self.pay_out(pid)

    # ------------------------------------------------------------------ deals
    def deal_table(self) -> int:
        assert self.live is not None
        return min(self.live.tables)

    def propose(self, kind: str, now: bool) -> None:
        """A deal of ``kind`` proposed (its record stored first): opened now (between hands:
        the next hand waits) or once the hand in play is over."""
        self.store("deal", {"kind": kind, "now": now})
        if now:
            self._table(self.deal_table()).tournament_hold()
            self._port().poke(self.deal_table())
        self._propose(kind, now)

    def _propose(self, kind: str, now: bool) -> None:
        if now:
            assert self.live is not None
            self.live.pause(self.deal_table())
            self.open_deal(kind)
        else:
            self.deal_pending = kind

    def open_deal(self, kind: str) -> None:
        assert self.live is not None
        offer = self.live.deal_offer(DEAL_KINDS[kind])
        answers: dict[str, bool | None] = {
            p: (None if p in self.people else deals.bot_accepts(a, eq)) for p, a, eq in offer}
        self.deal = {"kind": kind, "amounts": {p: a for p, a, _ in offer},
                     "answers": answers, "open": True}

    def answer(self, player: str, yes: bool) -> None:
        """``player``'s answer to the deal open (stored first): made when everyone says yes,
        else the hands go on."""
        self.store("answer", {"yes": bool(yes)})
        self.apply(self._answer(player, yes))

    def _answer(self, player: str, yes: bool) -> Orders:
        deal, live = self.deal, self.live
        assert deal is not None and live is not None
        deal["answers"][player] = bool(yes)
        deal["open"] = False
        if all(deal["answers"].values()):
            return live.take_deal(deal["amounts"])
        return live.resume()

    # ------------------------------------------------------------------ a replay
    @classmethod
    def replay(cls, tid: str, records: list[Any], bots: BotNames) -> Coordinator:
        """The tournament as its stream's records leave it: the director fed every input
        again (it is deterministic). ``bots``: the names of its bots by id (the server's)."""
        if not records or records[0].kind != "created":
            raise BooksError(f"tournament {tid}: its stream does not begin with its settings")
        tour = cls.created(tid, records[0].payload)
        tour.bots = bots(tour)
        for r in records[1:]:
            tour._replay_one(r)
        tour.seq = records[-1].seq
        return tour

    def _replay_one(self, r: Any) -> None:
        p = r.payload
        if r.kind == "registered":
            self.entries[p["player"]] = p["n"]
            self.people[p["player"]] = p["name"]
        elif r.kind == "unregistered":
            self.people.pop(p["player"], None)
        elif r.kind == "started":
            live = self.draw()
            seating = self.seat_draw(live)
            self.ids = {int(k): v for k, v in p.get("tables", {"1": self.id}).items()}
            if self._started_record(seating, p.get("by", ""))["seating"] != p["seating"]:
                raise BooksError(f"tournament {self.id}: the seat draw does not replay")
            self.live = live
        elif r.kind == "hand_over":
            if self.live is None:
                raise BooksError(f"tournament {self.id}: a hand before the start")
            number = p.get("table", 1)
            self._open_pending(number, self.live.hand_over(
                number, p["stacks"], p["big_blind_seat"], p.get("elapsed_s", 0)))
        elif r.kind == "deal":
            self._propose(p["kind"], p["now"])
        elif r.kind == "answer":
            self._answer(next(iter(self.people)), p["yes"])
        elif r.kind in ("prize", "refund"):
            self.paid[self._payee(p)] = p["amount"]
        else:
            raise BooksError(f"tournament {self.id}: a {r.kind!r} record at {r.seq}")

    # ------------------------------------------------------------------ a restart
    def registrations(self, records: list[Any]) -> list[tuple[str, int]]:
        """Each buy-in the stream says was taken or due: (player, entry number)."""
        return [(r.payload["player"], r.payload["n"]) for r in records
                if r.kind == "registered"]

    def reask(self, records: list[Any]) -> None:
        """Every bankroll move the stream records, asked for again (each key once); a buy-in
        never taken and that cannot be: the entry is dropped (stored)."""
        assert self.bankroll is not None
        bankroll = self.bankroll
        if self.rules.buy_in:
            for pid, n in self.registrations(records):
                if not bankroll.take(pid, self.rules.buy_in, self.key("buy-in", pid, n)) and \
                        pid in self.people:  # never taken, and not there now
                    self.never_taken(pid, n)
        for r in records:
            p = r.payload
            if r.kind == "unregistered" and p["refund"] and self.rules.buy_in:
                bankroll.give(p["player"], self.rules.buy_in,
                              self.key("refund", p["player"], p["n"]))
            elif r.kind == "prize":
                pid = self._payee(p)
                bankroll.give(pid, p["amount"], self.key("prize", pid))
            elif r.kind == "refund":
                bankroll.give(self._payee(p), p["amount"], p["key"])

    def never_taken(self, player: str, n: int) -> None:
        """``player``'s buy-in was never taken and cannot be now: not registered."""
        self.store("unregistered", {"player": player, "n": n, "refund": False})
        del self.people[player]

    def given_up_before(self, records: list[Any]) -> bool:
        """Whether a restart found it given up already (a refund stored): if so each refund
        is asked for again (once per key) and its stream closed."""
        refunds = [r.payload for r in records if r.kind == "refund"]
        if not refunds:
            return False
        assert self.bankroll is not None
        for p in refunds:
            self.bankroll.give(self._payee(p), p["amount"], p["key"])
        self.notice = t(GIVEN_UP)
        if self.log is not None:
            self.log.close_table(self.stream)
        return True

    def settle(self, restored: dict[int, Table]) -> None:
        """The chip account of a restart: each entrant the director has off the restored
        tables holds their chips there (the books must add up, else ``BooksError``)."""
        live = self.live
        assert live is not None and self.account is not None
        seated = {p for rt in restored.values() for p in rt.players.values()}
        off = {s.player: s.chips for tb in live.tables.values() for s in tb.seats
               if s is not None and s.player not in seated}
        self.account.settle(off, len(live.entrants) * self.rules.starting_stack,
                            sum(rt.table_chips() for rt in restored.values()))

    def reconcile(self) -> None:
        """Apply what the director's last orders asked of the tables and a crash kept from
        them, each a logged command of the table: what was applied is not applied again."""
        live = self.live
        assert live is not None
        port = self._port()
        for k in list(self.tables):  # seated where the director has them no more
            rt = self._table(k)
            for seat, p in sorted(rt.players.items()):
                e = live.entrants[p]
                if (e.table, e.seat) != (k, seat):
                    rt.tournament_unseat(p)
                    port.poke(k)
        for k, tb in live.tables.items():  # not seated where the director has them
            if k not in self.tables:
                self.tables[k] = self.ids[k]
                port.open(k, self.ids[k])
            rt = self._table(k)
            for seat, s in enumerate(tb.seats):
                if s is not None and rt.seat_of(s.player) is None:
                    e = live.entrants[s.player]
                    rt.tournament_seat(s.player, e.name, seat, s.chips, dealt_in=e.moves > 0,
                                       agent=port.agent(s.player, None))
                    port.poke(k)
        for k in [k for k in self.tables if k not in live.tables]:  # closed by the director
            port.close(k, self.tables.pop(k))
        if self.PAYS_AT_ONCE:
            for pid in self.people:
                self.pay_out(pid)
        if live.over:
            self.pay()
        for k, tb in live.tables.items():  # due a hand: told to deal, or its end reported
            rt = self._table(k)
            if rt.hand is not None or live.over:
                continue
            if k in live.playing():
                if rt.next_level is None:
                    if rt.hand_no > tb.hands:
                        self.step(k)
                    else:
                        self._deal(k, live.next_level(k))
            elif rt.next_level is not None:  # the director waits: so must the table
                rt.tournament_hold()
                port.poke(k)
        self._stepped()

    def give_up(self, records: list[Any]) -> None:
        """The rule for a tournament that cannot go on (docs/rules.md, "Tournaments"): before
        the start every buy-in back; after it, each person paid their place's prize if out,
        else their share of the prizes left by ICM of the director's last stacks, as a deal
        would; keyed, so paid once. The stream is closed; ``notice`` says why."""
        assert self.bankroll is not None
        bankroll = self.bankroll
        owed: dict[str, tuple[int, str]] = {}
        live = self.live
        if live is None or not live.started:
            for pid in self.people:
                if self.rules.buy_in:
                    owed[pid] = (self.rules.buy_in, self.key("refund", pid, self.entries[pid]))
        else:
            if not live.over:
                for tb in live.tables.values():
                    tb.busy = False
                left = live.left()
                stacks = live.stacks()
                amounts = deals.icm_deal(tuple(stacks.get(e.player, 0) for e in left),
                                         tuple(live.prizes()[:len(left)]))
                live.take_deal({e.player: a for e, a in zip(left, amounts, strict=True)})
            for pid in self.people:
                prize = live.entrants[pid].prize
                if prize > 0:
                    owed[pid] = (prize, self.key("prize", pid))
        for pid, (amount, key) in owed.items():
            if pid in self.paid:
                bankroll.give(pid, self.paid[pid], key)  # asked again: once per key
            else:
                self.refund(pid, amount, key)
        self.notice = t(GIVEN_UP)
        if self.log is not None:
            self.log.close_table(self.stream)

    def refund(self, player: str, amount: int, key: str) -> None:
        """Give ``amount`` to ``player``, its record stored first: once per key."""
        try:
            self.store("refund", self._payment_record(player, amount, key))
        except Exception:  # the stream takes no more: the key alone makes it once
            log.exception("tournament %s: the refund of %s was not stored", self.id, player)
        self.paid[player] = amount
        if amount > 0 and self.bankroll is not None:
            self.bankroll.give(player, amount, key)

    @classmethod
    def longest_replay(cls, tid: str, records: list[Any], bots: BotNames
                       ) -> Coordinator | None:
        """The tournament as the longest beginning of its stream that replays leaves it."""
        for upto in range(len(records), 0, -1):
            try:
                tour = cls.replay(tid, records[:upto], bots)
            except Exception:
                continue
            tour.seq = records[-1].seq
            return tour
        return None


# ---------------------------------------------------------------------------- the kinds
LEVELS = "25/50x6 50/100x6 75/150/150x6 100/200/200x6 150/300/300x6 200/400/400x6 300/600/600x6"


@dataclass(eq=False)
class RoomTournament(Coordinator):
    """A room's multi-table tournament: people register (the buy-in from their bankroll,
    keyed), bots fill, it starts when full or when its creator says so."""

    name: str = ""
    creator: str = ""
    max_players: int = 0
    bot_count: int = 0
    levels: str = LEVELS

    @classmethod
    def created(cls, tid: str, c: dict[str, Any]) -> RoomTournament:
        rules = TournamentRules(parse_levels(c["levels"]), starting_stack=c["starting_stack"],
                                seats=c["seats"], buy_in=c["buy_in"])
        return cls(tid, rules, c["seed"], name=c["name"], creator=c["creator"],
                   max_players=c["max_players"], bot_count=c["bots"], levels=c["levels"])

    def summary(self) -> dict[str, Any]:
        live = self.live
        return {
            "id": self.id, "name": self.name, "seats": self.rules.seats,
            "buy_in": self.rules.buy_in, "starting_stack": self.rules.starting_stack,
            "max_players": self.max_players, "bots": self.bot_count,
            "registered": sorted(self.people.values()), "started": self.started,
            "finished": self.finished,
            "players_left": len(live.left()) if live is not None and live.started else None,
            "tables": {str(k): v for k, v in sorted(self.tables.items())},
            "results": [{"place": r.place, "name": r.name, "prize": r.prize}
                        for r in live.results()] if live is not None and live.over else [],
            "notice": self.notice.to_json() if self.notice is not None else None,
        }


SNG_STACK = 1_500
SPEEDS = {"regular": 10, "turbo": 5}  # hands a level
SNG_LEVELS = ((10, 20, 0), (15, 30, 0), (25, 50, 0), (40, 80, 0), (50, 100, 100),
              (75, 150, 150), (100, 200, 200), (150, 300, 300), (200, 400, 400),
              (300, 600, 600))
DEAL_KINDS = {"icm": "icm", "chop": "chip"}


def sng_rules(seats: int, speed: str, buy_in: int) -> TournamentRules | None:
    """A sit-and-go's rules (None: not 6 or 9 seats, regular or turbo)."""
    if seats not in (6, 9) or speed not in SPEEDS:
        return None
    levels = tuple(Level(sb, bb, a, SPEEDS[speed]) for sb, bb, a in SNG_LEVELS)
    return TournamentRules(Schedule(levels, by="hands"), starting_stack=SNG_STACK, seats=seats,
                           buy_in=buy_in)


@dataclass(eq=False)
class SitAndGo(Coordinator):
    """The practice sit-and-go: a one-table tournament of one person and bots, on the
    person's practice table (its id is the tournament's). Its stream (``"sng:<table id>"``)
    keeps the shapes it always had: ``created`` names the person (their entry, the buy-in
    keyed ``<id>:sng-buy-in``), ``started`` lists (player, name, seat, chips) with the person
    turned to seat 0 (the practice page's seat), ``hand_over`` has no table, ``prize`` and
    ``refund`` no player (the person's)."""

    STREAM: ClassVar[str] = "sng"
    KIND: ClassVar[str] = "sng"
    PAYS_AT_ONCE: ClassVar[bool] = True
    KEYS: ClassVar[dict[str, str]] = {"buy-in": "{id}:sng-buy-in", "refund": "{id}:sng-refund",
                                      "prize": "{id}:sng-prize"}

    speed: str = "regular"
    person: str = ""
    person_name: str = ""

    @classmethod
    def created(cls, tid: str, c: dict[str, Any]) -> SitAndGo:
        rules = sng_rules(c["seats"], c["speed"], c["buy_in"])
        if rules is None:
            raise BooksError(f"sit-and-go {tid}: its settings are not a sit-and-go's")
        sng = cls(tid, rules, c["seed"], speed=c["speed"], person=c["person"],
                  person_name=c["name"])
        sng.people = {sng.person: sng.person_name}
        sng.entries = {sng.person: 1}
        return sng

    def created_record(self) -> dict[str, Any]:
        return {"person": self.person, "name": self.person_name, "seats": self.rules.seats,
                "speed": self.speed, "buy_in": self.rules.buy_in, "seed": self.seed}

    @property
    def name(self) -> Text:
        return t("Sit-and-go, {seats} seats, {speed}", seats=self.rules.seats,
                 speed=t("turbo") if self.speed == "turbo" else t("regular"))

    def _started_record(self, seating: list[Seating], by: str) -> dict[str, Any]:
        names = {**self.people, **self.bots}
        return {"seating": [[s.player, names[s.player], s.seat, s.chips] for s in seating]}

    def _hand_over_record(self, number: int, stacks: dict[str, int], bb: int | None
                          ) -> dict[str, Any]:
        return {"stacks": stacks, "big_blind_seat": bb}

    def _payment_record(self, player: str, amount: int, key: str | None = None
                        ) -> dict[str, Any]:
        return {"amount": amount} if key is None else {"amount": amount, "key": key}

    def _payee(self, payload: dict[str, Any]) -> str:
        return self.person

    def registrations(self, records: list[Any]) -> list[tuple[str, int]]:
        return [(self.person, 1)]  # its ``created``

    def never_taken(self, player: str, n: int) -> None:
        del self.people[player]  # never played: nothing is owed (the caller closes it)

    def seat_draw(self, live: LiveTournament) -> list[Seating]:
        """The draw, the person's seat turned to the page's seat 0."""
        live.start()
        mine = live.entrants[self.person].seat
        assert mine is not None
        tb = live.tables[1]
        n = len(tb.seats)
        tb.seats = [tb.seats[(i + mine) % n] for i in range(n)]
        out = []
        for i, s in enumerate(tb.seats):
            if s is not None:
                live.entrants[s.player].seat = i
                out.append(Seating(1, i, s.player, s.chips))
        return out
