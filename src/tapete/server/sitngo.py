"""The practice sit-and-go: a one-table tournament at the practice table.

The person and 5 bots (6-max) or 8 bots (9-max), a starting stack of 1,500 and blinds from
10/20, levels by hands (``regular``: 10 hands a level, ``turbo``: 5). The table is a room
table in tournament mode (``TableConfig.tournament``, room/table.py): its chips come from the
sit-and-go's :class:`~tapete.room.money.ChipAccount`, and :class:`SitAndGo` is its
coordinator, over a :class:`~tapete.tournament.live.LiveTournament`: after each hand it
unseats the players knocked out and calls the next hand at its level. The person's buy-in is
taken from their bankroll when it starts (the bots' from the house) into the prize pool; at
the end the person's prize is paid to their bankroll, the move keyed by the table so a crash
pays it once. With 3 players or fewer left, the person still in, the person may propose a
deal (an ICM deal or a chip chop, :mod:`tapete.tournament.deals`); the next hand waits, each
bot answers by :func:`~tapete.tournament.deals.bot_accepts`, and the deal is made when the
person and every bot say yes. The page's state gains ``tournament``
(:class:`~tapete.server.protocol.TournamentInfo`).

A restart resumes a sit-and-go. Its coordinator's inputs are a stream of the room's log
(``"sng:<table id>"``, room/log.py; server/tournaments.py says why a stream): ``created``
(the person, their name, the seats, the speed, the buy-in, the seed: stored before the
buy-in is taken), ``started`` (the seat draw), ``hand_over`` (the stacks and the big blind's
seat after each hand), ``deal`` and ``answer`` (a deal proposed, and the person's answer)
and ``prize`` (the person's, before it is paid), each stored before it is acted on.
:func:`restore_all` (the room, at start-up) replays each stream into a new
:class:`SitAndGo` (the director is deterministic), asks the bankroll again for the buy-in
and the prize (each once per key), restores the table against a new chip account derived
from the director's stacks, and hands it to the person as a practice table is (held until
their page is back: :meth:`SngTable.resumed` then applies what the last input's orders asked
and a crash kept from the table, and the hands go on). A sit-and-go whose records cannot be
replayed is refunded by the rule of docs/rules.md ("Tournaments"), keyed.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from tapete.core.catalog import t
from tapete.core.errors import BooksError
from tapete.room.errors import Refused as RoomRefused
from tapete.room.log import OnCrash, Record, TableConfig
from tapete.room.money import ChipAccount
from tapete.room.table import restore
from tapete.server import bots as botmod
from tapete.server.config import Settings
from tapete.server.game import Refused
from tapete.server.practice import PracticeBots, PracticeTable
from tapete.server.tournaments import tournament_info
from tapete.tournament import deals, rulings
from tapete.tournament.live import LiveTournament, Orders
from tapete.tournament.model import Level, Schedule, TournamentError, TournamentRules

if TYPE_CHECKING:
    from collections.abc import Callable

    from tapete.room.table import RoomTable
    from tapete.server.rooms import Room, Running

SNG_STACK = 1_500
SPEEDS = {"regular": 10, "turbo": 5}  # hands a level
SNG_LEVELS = ((10, 20, 0), (15, 30, 0), (25, 50, 0), (40, 80, 0), (50, 100, 100),
              (75, 150, 150), (100, 200, 200), (150, 300, 300), (200, 400, 400),
              (300, 600, 600))
# the opponents of a 9-max sit-and-go: the practice table's five and three more
MORE_OPPONENTS = (("Fabio", "tag"), ("Gala", "lag"), ("Hugo", "nit"))
MIN_BUY_IN, MAX_BUY_IN = 1, 100_000
DEAL_KINDS = {"icm": "icm", "chop": "chip"}
STREAM = "sng"  # a sit-and-go's stream in the room's log: "sng:<table id>"
log = logging.getLogger("tapete.server")


def sng_rules(seats: int, speed: str, buy_in: int) -> TournamentRules:
    if seats not in (6, 9) or speed not in SPEEDS:
        raise Refused("malformed", t("A sit-and-go has 6 or 9 seats, regular or turbo."))
    levels = tuple(Level(sb, bb, a, SPEEDS[speed]) for sb, bb, a in SNG_LEVELS)
    return TournamentRules(Schedule(levels, by="hands"), starting_stack=SNG_STACK, seats=seats,
                           buy_in=buy_in)


class SngBots(PracticeBots):
    """The practice kit with ``seats - 1`` bots, whose chips are the sit-and-go's."""

    def __init__(self, table_id: str, settings: Settings, seats: int,
                 account: ChipAccount) -> None:
        self.table_id = table_id
        self.settings = settings
        self.bankroll = account  # type: ignore[assignment]
        self.sng: SitAndGo | None = None  # its coordinator (a restart hands it to the person)
        self.bots = {}
        self.agents = {}
        self.names, self.styles, self.why = {}, {}, {}
        seed = settings.deck_seed
        for seat, (name, style) in enumerate((*botmod.OPPONENTS, *MORE_OPPONENTS)[:seats - 1],
                                             start=1):
            pid = self.player(seat)
            bot = botmod.make(style, (seed or secrets.randbits(31)) * 10 + seat, name)
            self.bots[pid] = bot
            self.agents[pid] = self._agent(pid, bot)
            self.names[pid], self.styles[pid] = name, style


class SitAndGo:
    """One sit-and-go's coordinator: the live tournament, its chip account, the deal. Its
    methods are the director's side of each input (the same live and in a replay); the
    table's side is :class:`SngTable`'s."""

    def __init__(self, table_id: str, rules: TournamentRules, speed: str, seed: int,
                 person: str = "", name: str = "") -> None:
        self.id = table_id
        self.rules = rules
        self.speed = speed
        self.seed = seed
        self.person = person
        self.person_name = name
        self.name = t("Sit-and-go, {seats} seats, {speed}", seats=rules.seats,
                      speed=t("turbo") if speed == "turbo" else t("regular"))
        self.live = LiveTournament(rules, seed=seed)
        self.account = ChipAccount()
        self.deal: dict[str, Any] | None = None  # the deal proposed: kind, amounts, answers
        self.deal_pending: str | None = None  # proposed during a hand: opened at its end
        self.paid = 0  # the person's prize, once paid
        self.seq = 0  # the last record of its stream
        self.last: Orders | None = None  # the orders of the last input

    @property
    def stream(self) -> str:
        return f"{STREAM}:{self.id}"

    def created(self) -> dict[str, Any]:
        return {"person": self.person, "name": self.person_name, "seats": self.rules.seats,
                "speed": self.speed, "buy_in": self.rules.buy_in, "seed": self.seed}

    def start(self, bots: dict[str, str]) -> list[tuple[str, str, int, int]]:
        """The draw, the person's seat turned to the page's seat 0: (player, name, seat,
        chips) for each."""
        live = self.live
        live.register(self.person, self.person_name)
        for pid, bot_name in bots.items():
            live.register(pid, bot_name, bot=True)
        seating = live.start()
        mine = next(s.seat for s in seating if s.player == self.person)
        live_table = live.tables[1]
        n = len(live_table.seats)
        live_table.seats = [live_table.seats[(i + mine) % n] for i in range(n)]
        out = []
        for i, s in enumerate(live_table.seats):
            if s is not None:
                e = live.entrants[s.player]
                e.seat = i
                out.append((s.player, e.name, i, s.chips))
        return out

    def hand_over(self, stacks: dict[str, int], big_blind_seat: int | None
                  ) -> tuple[Orders, bool]:
        """The table's hand is over: the orders, and whether a deal proposed during the hand
        opens now (the next hand waits)."""
        orders = self.live.hand_over(1, stacks, big_blind_seat)
        self.last = orders
        if not orders.finished and self.deal_pending is not None and 1 in orders.deal_now:
            self.live.pause(1)
            self.open_deal(self.deal_pending)
            self.deal_pending = None
            return orders, True
        return orders, False

    def propose(self, kind: str, now: bool) -> None:
        if now:  # between hands: the next one waits
            self.live.pause(1)
            self.open_deal(kind)
        else:
            self.deal_pending = kind  # opened once this hand is over

    def open_deal(self, kind: str) -> None:
        offer = self.live.deal_offer(DEAL_KINDS[kind])
        answers: dict[str, bool | None] = {
            p: (None if p == self.person else deals.bot_accepts(a, eq)) for p, a, eq in offer}
        self.deal = {"kind": kind, "amounts": {p: a for p, a, _ in offer},
                     "answers": answers, "open": True}

    def answer(self, yes: bool) -> Orders:
        deal = self.deal
        assert deal is not None
        deal["answers"][self.person] = bool(yes)
        deal["open"] = False
        if all(deal["answers"].values()):
            self.last = self.live.take_deal(deal["amounts"])
        else:
            self.last = self.live.resume()
        return self.last

    def prize_now(self) -> int:
        """The person's prize as it stands: their place's (shared with those tied) once out,
        the end's once over, else 0."""
        live = self.live
        if live.over:
            return live.entrants[self.person].prize
        won = rulings.awards([(e.player, e.place) for e in live.finished], live.prizes(), None)
        return won.get(self.person, 0) if live.entrants[self.person].place else 0


def replay(table_id: str, records: list[Record], bots: dict[str, str] | None = None
           ) -> SitAndGo:
    """A sit-and-go as its stream's records leave it (``bots``: their names, by id)."""
    if not records or records[0].kind != "created":
        raise BooksError(f"sit-and-go {table_id}: its stream does not begin with its settings")
    c = records[0].payload
    sng = SitAndGo(table_id, sng_rules(c["seats"], c["speed"], c["buy_in"]), c["speed"],
                   c["seed"], c["person"], c["name"])
    for r in records[1:]:
        p = r.payload
        if r.kind == "started":
            if bots is None:
                raise BooksError(f"sit-and-go {table_id}: no bots to start with")
            if [list(x) for x in sng.start(bots)] != p["seating"]:
                raise BooksError(f"sit-and-go {table_id}: the seat draw does not replay")
        elif r.kind == "hand_over":
            sng.hand_over(p["stacks"], p["big_blind_seat"])
        elif r.kind == "deal":
            sng.propose(p["kind"], p["now"])
        elif r.kind == "answer":
            sng.answer(p["yes"])
        elif r.kind in ("prize", "refund"):
            sng.paid = p["amount"]
        else:
            raise BooksError(f"sit-and-go {table_id}: a {r.kind!r} record at {r.seq}")
    sng.seq = records[-1].seq
    return sng


class SngTable(PracticeTable):
    """The person's sit-and-go table: the practice table's page, the tournament's rules."""

    def __init__(self, sng: SitAndGo, room: Room, running: Running, bots: PracticeBots,
                 person: str, settings: Settings, on_close: Callable[[PracticeTable], None]
                 ) -> None:
        self.sng = sng
        super().__init__(room, running, bots, person, settings, on_close)

    def _store(self, kind: str, payload: dict[str, Any]) -> None:
        """One record of the sit-and-go's stream, stored before anything acts on it."""
        sng = self.sng
        self.room.log.append(sng.stream, sng.seq + 1, [(kind, payload)])
        sng.seq += 1

    def begin(self, name: str, buy_in: int) -> None:  # the buy-in is taken by open_sng
        sng = self.sng
        probe = SitAndGo(sng.id, sng.rules, sng.speed, sng.seed, sng.person, sng.person_name)
        seating = probe.start(dict(self.practice_bots.names))
        self._store("started", {"seating": [list(x) for x in seating]})
        sng.start(dict(self.practice_bots.names))
        for player, player_name, seat, chips in seating:
            sng.account.issue(player, chips)
            self._seat(player, player_name, seat, chips)
        self._deal_next(0)
        self.wake()

    def resumed(self) -> None:
        """After a restart (the page is back): what the director's orders asked and a crash
        kept from the table, applied now (each a logged command of the table), then on."""
        sng = self.sng
        live = sng.live
        rt = self.rt
        tb = live.tables.get(1)
        for seat, p in sorted(rt.players.items()):  # knocked out, not yet unseated
            if tb is None or seat >= len(tb.seats) or tb.seats[seat] is None or \
                    tb.seats[seat].player != p:  # type: ignore[union-attr]
                self._do(lambda p=p: rt.tournament_unseat(p))  # type: ignore[misc]
        if tb is not None:
            for seat, st in enumerate(tb.seats):  # drawn, not yet seated
                if st is not None and rt.seat_of(st.player) is None:
                    self._seat(st.player, live.entrants[st.player].name, seat, st.chips)
        if live.entrants[self.player_id].place or live.over:
            self._pay_place()
        if live.over:
            self._pay()
        elif 1 in live.playing():
            if rt.hand is None and rt.next_level is None:
                if rt.hand_no > live.tables[1].hands:  # its end never reported
                    self._submit(self._coordinate)
                else:
                    self._deal_next(live.next_level(1))
        elif rt.hand is None and rt.next_level is not None:  # the director waits: so must it
            self._do(rt.tournament_hold)
        self.wake()
        self._schedule()

    def _seat(self, player: str, name: str, seat: int, chips: int) -> None:
        self._do(lambda: self.rt.tournament_seat(player, name, seat, chips, dealt_in=False))

    def hand_ended(self, table: RoomTable) -> None:  # the table's policy tells the coordinator
        self._submit(self._coordinate)

    def _submit(self, job: Callable[[], None]) -> None:
        self.running.owner.submit(job)

    # ------------------------------------------------------------------ the coordinator
    def _deal_next(self, level: int) -> None:
        lv = self.sng.rules.schedule.level(level)
        self.rt.tournament_deal(lv.small_blind, lv.big_blind, lv.ante, level=level + 1)

    def _coordinate(self) -> None:
        rt = self.rt
        sng = self.sng
        if rt.hand is not None or sng.live.over or 1 not in sng.live.playing():
            return
        stacks = rt.tournament_stacks()
        bb = rt.table.big_blind_seat
        self._store("hand_over", {"stacks": stacks, "big_blind_seat": bb})
        orders, opened = sng.hand_over(stacks, bb)
        self._apply(orders, opened)

    def _apply(self, orders: Orders, opened: bool = False) -> None:
        rt = self.rt
        for p in orders.busted:
            rt.tournament_unseat(p)
        if any(b.player == self.player_id for b in orders.places):
            self._pay_place()  # out: the place's prize is final now (the person may go)
        if orders.finished:
            self._pay()
        elif not opened and 1 in orders.deal_now:
            self._deal_next(orders.levels[1])
        self.wake()
        self._schedule()

    def _pay_place(self) -> None:
        """The person is out: their place's prize (shared with those tied) is theirs now,
        paid at once, so leaving before the end loses nothing."""
        prize = self.sng.prize_now()
        if prize > 0 and not self.sng.paid:
            self._store("prize", {"amount": prize})
            self.sng.paid = prize
        if self.sng.paid:  # asked for again after a restart: once per key
            self.room.bankroll.give(self.player_id, self.sng.paid,
                                    f"{self.rt.table_id}:sng-prize")

    def _pay(self) -> None:
        sng = self.sng
        me = sng.live.entrants[self.player_id]
        if sng.paid and me.prize != sng.paid:  # paid when out: the end must agree
            raise BooksError(f"sit-and-go {sng.id}: paid {sng.paid} when out, the end says"
                             f" {me.prize}")
        self._pay_place()

    # ------------------------------------------------------------------ deals
    def propose_deal(self, kind: str) -> None:
        sng = self.sng
        live = sng.live
        if kind not in DEAL_KINDS:
            raise Refused("malformed", t("A deal is an ICM deal or a chip chop."))
        me = live.entrants[self.player_id]
        if live.over or me.place:
            raise Refused("no_deal", t("Only a player still in may propose a deal."))
        if not rulings.may_propose(len(live.left()), live.prizes()):
            raise Refused("no_deal", t("A deal may be proposed with three players left or"
                                       " fewer, all of them in the money."))
        if (sng.deal is not None and sng.deal["open"]) or sng.deal_pending is not None:
            raise Refused("no_deal", t("A deal is proposed already: answer it."))
        now = self.rt.hand is None and 1 in live.playing()
        self._store("deal", {"kind": kind, "now": now})
        if now:  # between hands: the next one waits
            self._do(self.rt.tournament_hold)
        sng.propose(kind, now)
        self._schedule()

    def answer_deal(self, yes: bool) -> None:
        sng = self.sng
        deal = sng.deal
        if deal is None or not deal["open"]:
            raise Refused("no_deal", t("There is no deal to answer."))
        self._store("answer", {"yes": bool(yes)})
        self._apply(sng.answer(bool(yes)))

    # ------------------------------------------------------------------ the page
    def _seat_bots(self) -> None:  # the tournament seats them, once
        return

    def _left(self) -> None:  # knocked out: the person watches the rest
        return

    def _can_deal(self) -> bool:
        return not self.closed and not self.sng.live.over and self.table.ready_count() >= 2

    def human_money(self) -> tuple[int, int]:
        return 0, 0  # tournament chips are not the bankroll's

    def sit_out(self) -> None:
        raise Refused("tournament", t("A tournament player is dealt in until out."))

    def add_chips(self, amount: int, bankroll: int) -> int:
        raise Refused("tournament", t("A tournament player is dealt in until out."))

    def leave(self) -> None:
        """Once the person is out (or the tournament is over): back to the lobby. Before:
        refused (a tournament player is dealt in until out)."""
        sng = self.sng
        if not (sng.live.over or sng.live.entrants[self.player_id].place):
            raise Refused("tournament", t("A tournament player is dealt in until out."))
        if self.closed:
            return
        self.closed = True  # deals no more
        self._held = True  # and its timers wait (room/policy.py)
        self.room.close(self.rt.table_id)
        self.on_close(self)

    def state(self) -> dict[str, Any]:
        out = super().state()
        out["tournament"] = self.info()
        return out

    def info(self) -> dict[str, Any]:
        sng = self.sng
        return tournament_info(sng.live, sng.id, sng.name, "sng", 1, self.player_id,
                               self.rt.hand is not None, sng.deal,
                               proposing=sng.deal_pending is not None)


def open_sng(room: Room, person: str, settings: Settings, name: str, seats: int, speed: str,
             buy_in: int, on_close: Callable[[PracticeTable], None]) -> SngTable:
    """A new sit-and-go for ``person``: its stream created, the buy-in taken from their
    bankroll, the table seated by the draw, the first hand called."""
    if type(buy_in) is not int or not MIN_BUY_IN <= buy_in <= MAX_BUY_IN:
        raise Refused("malformed", t("A buy-in is {smallest} to {largest} chips.",
                                     smallest=MIN_BUY_IN, largest=MAX_BUY_IN))
    rules = sng_rules(seats, speed, buy_in)
    if room.bankroll.balance(person) < buy_in:
        raise Refused("no_bankroll", t("Your bankroll does not hold the buy-in."))
    table_id = secrets.token_urlsafe(12)
    config = TableConfig(seats=seats, small_blind=10, big_blind=20, min_buy_in=20,
                         max_buy_in=SNG_STACK * seats, act_ms=max(100, int(
                             settings.action_time * 1000)), bank_ms=int(settings.time_bank * 1000),
                         bots=False, public=False, spectators=True, practice=True,
                         on_crash=OnCrash(settings.room_on_crash), tournament=table_id)
    sng = SitAndGo(table_id, rules, speed, settings.deck_seed if settings.deck_seed is not None
                   else secrets.randbits(31), person, name)
    kit = SngBots(table_id, settings, seats, sng.account)
    kit.sng = sng
    room.log.create_stream(sng.stream, {"kind": STREAM, "id": table_id})
    room.log.append(sng.stream, 1, [("created", sng.created())])
    sng.seq = 1
    if not room.bankroll.take(person, buy_in, f"{table_id}:sng-buy-in"):
        room.log.close_table(sng.stream)
        raise Refused("no_bankroll", t("Your bankroll does not hold the buy-in."))
    try:
        running = room.open(config, table_id, kit)
        game = SngTable(sng, room, running, kit, person, settings, on_close)
        game.begin(name, buy_in)
    except (Refused, RoomRefused, TournamentError):
        room.close(table_id)
        _refund(room, sng, buy_in, f"{table_id}:sng-refund")
        raise
    room.practice[person] = (running, kit)
    return game


def _refund(room: Room, sng: SitAndGo, amount: int, key: str) -> None:
    """Give ``amount`` back to the person (its record stored first: once per key) and close
    the stream."""
    try:
        room.log.append(sng.stream, sng.seq + 1, [("refund", {"amount": amount, "key": key})])
        sng.seq += 1
    except Exception:  # the stream takes no more: the key alone makes it once
        log.exception("sit-and-go %s: its refund was not stored", sng.id)
    if amount > 0:
        room.bankroll.give(sng.person, amount, key)
    room.log.close_table(sng.stream)


# ---------------------------------------------------------------------------- a restart
def restore_all(room: Room) -> None:
    """Every sit-and-go of the log not over, rebuilt from its stream and its table's log and
    handed to its person (the module docstring); one that cannot be is refunded by the rule
    (docs/rules.md, "Tournaments")."""
    settings = room.hub.settings
    open_ids = set(room.log.table_ids())
    for sid in room.log.stream_ids(STREAM):
        table_id = sid.split(":", 1)[1]
        records = room.log.read(sid)
        try:
            _restore_one(room, settings, table_id, records, table_id in open_ids)
        except Exception:
            log.exception("sit-and-go %s could not go on after a restart: refunded", table_id)
            _give_up(room, settings, table_id, records)


def _restore_one(room: Room, settings: Settings, table_id: str, records: list[Record],
                 table_open: bool) -> None:
    c = records[0].payload if records else {}
    kit = SngBots(table_id, settings, int(c.get("seats", 6)), ChipAccount())
    sng = replay(table_id, records, dict(kit.names))
    kit.bankroll = sng.account  # type: ignore[assignment]
    kit.sng = sng
    bankroll = room.bankroll
    if any(r.kind == "refund" for r in records):  # given back already: asked for again
        for r in records:
            if r.kind == "refund":
                bankroll.give(sng.person, r.payload["amount"], r.payload["key"])
        room.log.close_table(sng.stream)
        return
    if not bankroll.take(sng.person, sng.rules.buy_in, f"{table_id}:sng-buy-in"):
        room.log.close_table(sng.stream)  # never taken, and it cannot be: never played
        if table_open:
            room.log.close_table(table_id)
        return
    if sng.paid:
        bankroll.give(sng.person, sng.paid, f"{table_id}:sng-prize")
    if not table_open or not sng.live.started or sng.live.over:
        if sng.live.started and not sng.live.entrants[sng.person].place and \
                not sng.live.over:
            raise BooksError(f"sit-and-go {table_id}: its table is gone, the person in")
        if not sng.live.started:
            raise BooksError(f"sit-and-go {table_id}: it never started")
        prize = sng.prize_now()
        if prize and not sng.paid:
            room.log.append(sng.stream, sng.seq + 1, [("prize", {"amount": prize})])
            bankroll.give(sng.person, prize, f"{table_id}:sng-prize")
        if table_open:
            room.log.close_table(table_id)
        room.log.close_table(sng.stream)
        return
    sng.account.restoring = True
    # held until the person's page is back (SngTable.resumed), dealing nothing till then
    rt = restore(room.log, table_id, sng.account, agents=kit.agents,
                 policy=room.practice_policy(kit, restored=True), on_hand=room._hand_over)
    seated = set(rt.players.values())
    off = {s.player: s.chips for tb in sng.live.tables.values() for s in tb.seats
           if s is not None and s.player not in seated}
    sng.account.settle(off, len(sng.live.entrants) * sng.rules.starting_stack,
                       rt.table_chips())
    running = room._run(rt, dict(kit.styles))
    room.practice[sng.person] = (running, kit)


def _give_up(room: Room, settings: Settings, table_id: str, records: list[Record]) -> None:
    """The rule for a sit-and-go that cannot go on: before the start the buy-in back; after
    it, the person's place's prize if out, else their ICM share of the prizes left by the
    director's last stacks (the longest beginning of the stream that replays); keyed."""
    names = dict(SngBots(table_id, settings, int(records[0].payload.get("seats", 6))
                         if records else 6, ChipAccount()).names)
    sng: SitAndGo | None = None
    for upto in range(len(records), 0, -1):
        try:
            sng = replay(table_id, records[:upto], names)
            break
        except Exception:
            continue
    if table_id in set(room.log.table_ids()):
        room.close(table_id)
        room.log.close_table(table_id)
    if sng is None:
        log.error("sit-and-go %s: not even its settings replay: nothing to refund", table_id)
        room.log.close_table(f"{STREAM}:{table_id}")
        return
    sng.seq = records[-1].seq
    if not sng.live.started:
        amount, key = sng.rules.buy_in, f"{table_id}:sng-refund"
    else:
        live = sng.live
        if not live.over and not live.entrants[sng.person].place:
            for tb in live.tables.values():
                tb.busy = False
            left = live.left()
            stacks = live.stacks()
            amounts = deals.icm_deal(tuple(stacks.get(e.player, 0) for e in left),
                                     tuple(live.prizes()[:len(left)]))
            live.take_deal({e.player: a for e, a in zip(left, amounts, strict=True)})
        amount, key = sng.paid or sng.prize_now(), f"{table_id}:sng-prize"
    _refund(room, sng, amount, key)
    p = room.hub.player(sng.person, create=True)
    if p is not None:
        p.notice = t("This tournament could not go on after a restart: every buy-in was"
                     " given back, or the prizes shared by the stacks (docs: Tournaments).")
