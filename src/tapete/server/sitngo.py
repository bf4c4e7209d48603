"""The practice sit-and-go: a one-table tournament at the practice table.

The person and 5 bots (6-max) or 8 bots (9-max), a starting stack of 1,500 and blinds from
10/20, levels by hands (``regular``: 10 hands a level, ``turbo``: 5). The table is a room
table in tournament mode (``TableConfig.tournament``, room/table.py) whose chips come from
the sit-and-go's :class:`~tapete.room.money.ChipAccount`; its coordinator is the one every
tournament has (:class:`~tapete.tournament.coordinator.SitAndGo`): after each hand it unseats
the players knocked out and calls the next hand at its level. :class:`SngTable` is the
person's page of it and its hands on the table. The person's buy-in is taken from their
bankroll when it starts (the bots' from the house) into the prize pool; the person's prize
is paid to their bankroll once it is final (out, or the end), the move keyed by the table so
a crash pays it once. With 3 players or fewer left, the person still in, the person may
propose a deal (an ICM deal or a chip chop, :mod:`tapete.tournament.deals`); the next hand
waits, each bot answers by :func:`~tapete.tournament.deals.bot_accepts`, and the deal is
made when the person and every bot say yes. The page's state gains ``tournament``
(:class:`~tapete.server.protocol.TournamentInfo`).

A restart resumes a sit-and-go from its stream (``"sng:<table id>"``: the coordinator's
docstring lists its records): :func:`restore_all` (the room, at start-up) replays it, asks
the bankroll again for the buy-in and the prize (each once per key), restores the table
against a new chip account derived from the director's stacks, and hands it to the person as
a practice table is (held until their page is back: :meth:`SngTable.resumed` then applies
what the last input's orders asked and a crash kept from the table, and the hands go on). A
sit-and-go whose records cannot be replayed is refunded by the rule of docs/rules.md
("Tournaments"), keyed.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any, NoReturn

from tapete.core.catalog import t
from tapete.core.errors import BooksError
from tapete.room.errors import Refused
from tapete.room.log import OnCrash, Record, TableConfig
from tapete.room.money import ChipAccount
from tapete.room.table import RoomTable, restore
from tapete.server import bots as botmod
from tapete.server.config import Settings
from tapete.server.practice import PracticeBots, PracticeTable
from tapete.server.rooms import Room
from tapete.server.session import Job, Running
from tapete.tournament import rulings
from tapete.tournament.coordinator import DEAL_KINDS, SNG_STACK, Coordinator, SitAndGo, sng_rules
from tapete.tournament.model import TournamentError

# the opponents of a 9-max sit-and-go: the practice table's five and three more
MORE_OPPONENTS = (("Fabio", "tag"), ("Gala", "lag"), ("Hugo", "nit"))
MIN_BUY_IN, MAX_BUY_IN = 1, 100_000
STREAM = SitAndGo.STREAM  # a sit-and-go's stream in the room's log: "sng:<table id>"
log = logging.getLogger("tapete.server")


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


def _kit(settings: Settings, table_id: str, seats: int) -> SngBots:
    """The bots of a sit-and-go (seeded as the first time: a restart plays the same)."""
    return SngBots(table_id, settings, seats, ChipAccount())


def _plug(room: Room, sng: SitAndGo, kit: SngBots) -> SitAndGo:
    """The coordinator given the room's log and bankroll, its chip account, its bots."""
    account = ChipAccount()
    sng.log, sng.bankroll, sng.account = room.log, room.bankroll, account
    sng.bots = dict(kit.names)
    kit.bankroll = account  # type: ignore[assignment]
    kit.sng = sng
    return sng


class _OneTable:
    """A sit-and-go's one table, as its coordinator drives it (the ``Tables`` port): the
    person's page is told after each step."""

    def __init__(self, game: SngTable) -> None:
        self.game = game

    def table(self, number: int) -> RoomTable:
        return self.game.rt

    def open(self, number: int, table_id: str) -> None:
        return  # open already: the person's practice table

    def close(self, number: int, table_id: str) -> None:
        return  # one table: never closed by the director

    def agent(self, player: str, src: int | None) -> None:
        return None  # the bots' agents sit at the table from its start

    def moved(self, player: str, src: int, dst: int) -> None:
        return

    def poke(self, number: int) -> None:
        self.game._poke()

    def stepped(self) -> None:
        self.game.wake()
        self.game._schedule()


class SngTable(PracticeTable):
    """The person's sit-and-go table: the practice table's page, the tournament's rules."""

    def __init__(self, sng: SitAndGo, room: Room, running: Running, bots: PracticeBots,
                 person: str, settings: Settings, on_close: Callable[[PracticeTable], None],
                 *, resumed: bool = False) -> None:
        self.sng = sng
        if resumed:  # first in its owner's queue: before the page's wake lets a hand be dealt
            running.owner.submit(self._resumed)
        super().__init__(room, running, bots, person, settings, on_close)
        sng.port = _OneTable(self)

    def hand_ended(self, table: RoomTable) -> None:
        """The table's policy tells of each hand's end: the coordinator's step runs next, on
        the table's owner."""
        self.running.owner.submit(lambda: self.sng.step(1))

    def begin(self, name: str, buy_in: int) -> None:  # the buy-in is taken by open_sng
        """The seat draw, the seats and the first hand called (the owner's command)."""
        sng = self.sng
        sng.start(lambda: sng.id)

    def _resumed(self) -> None:
        """After a restart (the owner's command, before any other of the page's): what the
        director's orders asked and a crash kept from the table, applied now (each a logged
        command of the table), then on."""
        self.sng.reconcile()

    # ------------------------------------------------------------------ deals
    def propose_deal(self, kind: str) -> Job:
        """The person proposes a deal: checked and stored by the table's owner, in order with
        the hands (refused in words when it may not be)."""
        sng = self.sng

        def propose() -> None:
            live = sng.live
            assert live is not None
            if kind not in DEAL_KINDS:
                raise Refused(t("A deal is an ICM deal or a chip chop."), "malformed")
            me = live.entrants[self.player_id]
            if live.over or me.place:
                raise Refused(t("Only a player still in may propose a deal."), "no_deal")
            if not rulings.may_propose(len(live.left()), live.prizes()):
                raise Refused(t("A deal may be proposed with three players left or"
                                " fewer, all of them in the money."), "no_deal")
            if (sng.deal is not None and sng.deal["open"]) or sng.deal_pending is not None:
                raise Refused(t("A deal is proposed already: answer it."), "no_deal")
            sng.propose(kind, self.rt.hand is None and 1 in live.playing())
            self._schedule()

        return propose

    def answer_deal(self, yes: bool) -> Job:
        """The person's answer to the deal open (the owner's command: the deal made, or the
        hands go on)."""
        sng = self.sng

        def answer() -> None:
            deal = sng.deal
            if deal is None or not deal["open"]:
                raise Refused(t("There is no deal to answer."), "no_deal")
            sng.answer(self.player_id, bool(yes))

        return answer

    # ------------------------------------------------------------------ the page
    def _seat_bots(self) -> None:  # the tournament seats them, once
        return

    def _left(self) -> None:  # knocked out: the person watches the rest
        return

    def _can_deal(self) -> bool:
        return not self.closed and not self.sng.finished and self.table.ready_count() >= 2

    def human_money(self) -> tuple[int, int]:
        return 0, 0  # tournament chips are not the bankroll's

    def sit_out(self) -> NoReturn:
        raise Refused(t("A tournament player is dealt in until out."), "tournament")

    def add_chips(self, amount: int, bankroll: int) -> NoReturn:
        raise Refused(t("A tournament player is dealt in until out."), "tournament")

    def leave(self) -> Job | None:
        """Once the person is out (or the tournament is over): back to the lobby (the
        owner's command). Before: refused (a tournament player is dealt in until out)."""
        live = self.sng.live
        assert live is not None
        if not (live.over or live.entrants[self.player_id].place):
            raise Refused(t("A tournament player is dealt in until out."), "tournament")
        if self.closed:
            return None

        def go() -> None:
            if self.closed:
                return
            self.closed = True  # deals no more
            self._held = True  # and its timers wait (room/policy.py)
            self.room.close(self.rt.table_id)
            self.on_close(self)

        return go

    def info(self) -> dict[str, Any] | None:
        sng = self.sng
        return sng.info(sng.name, 1, self.player_id, self.rt.hand is not None)


def open_sng(room: Room, person: str, settings: Settings, name: str, seats: int, speed: str,
             buy_in: int, on_close: Callable[[PracticeTable], None]) -> tuple[SngTable, Job]:
    """A new sit-and-go for ``person``: its stream created, the buy-in taken from their
    bankroll; and the job its table's owner runs to seat the table by the draw and call the
    first hand (refused: the buy-in back, the table closed)."""
    if type(buy_in) is not int or not MIN_BUY_IN <= buy_in <= MAX_BUY_IN:
        raise Refused(t("A buy-in is {smallest} to {largest} chips.",
                        smallest=MIN_BUY_IN, largest=MAX_BUY_IN), "malformed")
    if sng_rules(seats, speed, buy_in) is None:
        raise Refused(t("A sit-and-go has 6 or 9 seats, regular or turbo."), "malformed")
    if room.bankroll.balance(person) < buy_in:
        raise Refused(t("Your bankroll does not hold the buy-in."), "no_bankroll")
    table_id = secrets.token_urlsafe(12)
    config = TableConfig(seats=seats, small_blind=10, big_blind=20, min_buy_in=20,
                         max_buy_in=SNG_STACK * seats, act_ms=max(100, int(
                             settings.action_time * 1000)), bank_ms=int(settings.time_bank * 1000),
                         bots=False, public=False, spectators=True, practice=True,
                         on_crash=OnCrash(settings.room_on_crash), tournament=table_id)
    created = {"person": person, "name": name, "seats": seats, "speed": speed,
               "buy_in": buy_in, "seed": settings.deck_seed if settings.deck_seed is not None
               else secrets.randbits(31)}
    kit = _kit(settings, table_id, seats)
    sng = _plug(room, SitAndGo.created(table_id, created), kit)
    room.log.create_stream(sng.stream, {"kind": STREAM, "id": table_id})
    sng.store("created", created)
    if not room.bankroll.take(person, buy_in, sng.key("buy-in", person, 1)):
        room.log.close_table(sng.stream)
        raise Refused(t("Your bankroll does not hold the buy-in."), "no_bankroll")
    try:
        running = room.open(config, table_id, kit)
        game = SngTable(sng, room, running, kit, person, settings, on_close)
    except (Refused, TournamentError):
        room.close(table_id)
        sng.refund(person, buy_in, sng.key("refund", person, 1))
        room.log.close_table(sng.stream)
        raise
    room.practice[person] = (running, kit)

    def begin() -> None:
        try:
            game.begin(name, buy_in)
        except (Refused, TournamentError):  # not seated: the buy-in back, the lobby
            game.closed = True
            sng.refund(person, buy_in, sng.key("refund", person, 1))
            room.log.close_table(sng.stream)
            loop = asyncio.get_running_loop()
            loop.call_soon(room.close, table_id)
            loop.call_soon(game.on_close, game)
            raise

    return game, begin


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


def _seats(records: list[Record]) -> int:
    return int(records[0].payload.get("seats", 6)) if records else 6


def _restore_one(room: Room, settings: Settings, table_id: str, records: list[Record],
                 table_open: bool) -> None:
    kit = _kit(settings, table_id, _seats(records))
    sng = SitAndGo.replay(table_id, records, lambda _: dict(kit.names))
    assert isinstance(sng, SitAndGo)
    _plug(room, sng, kit)
    if sng.given_up_before(records):
        return
    sng.reask(records)
    live = sng.live
    if sng.person not in sng.people:  # its buy-in never taken, and it cannot be: never played
        room.log.close_table(sng.stream)
        if table_open:
            room.log.close_table(table_id)
        return
    if not table_open or live is None or not live.started or live.over:
        if live is None or not live.started:
            raise BooksError(f"sit-and-go {table_id}: it never started")
        if not live.entrants[sng.person].place and not live.over:
            raise BooksError(f"sit-and-go {table_id}: its table is gone, the person in")
        sng.pay_out(sng.person)
        if table_open:
            room.log.close_table(table_id)
        room.log.close_table(sng.stream)
        return
    assert isinstance(sng.account, ChipAccount)
    sng.account.restoring = True
    # held until the person's page is back (SngTable._resumed), dealing nothing till then
    rt = restore(room.log, table_id, sng.account, agents=kit.agents,
                 policy=room.practice_policy(kit, restored=True), on_hand=room._hand_over)
    sng.settle({1: rt})
    sng.tables = {1: table_id}
    running = room._run(rt, dict(kit.styles))
    room.practice[sng.person] = (running, kit)


def _give_up(room: Room, settings: Settings, table_id: str, records: list[Record]) -> None:
    """The rule for a sit-and-go that cannot go on (the coordinator's ``give_up``): before
    the start the buy-in back; after it, the person's place's prize if out, else their ICM
    share of the prizes left by the director's last stacks (the longest beginning of the
    stream that replays); keyed."""
    kit = _kit(settings, table_id, _seats(records))
    sng: Coordinator | None = SitAndGo.longest_replay(table_id, records,
                                                      lambda _: dict(kit.names))
    if table_id in set(room.log.table_ids()):
        room.close(table_id)
        room.log.close_table(table_id)
    if sng is None:
        log.error("sit-and-go %s: not even its settings replay: nothing to refund", table_id)
        room.log.close_table(f"{STREAM}:{table_id}")
        return
    assert isinstance(sng, SitAndGo)
    _plug(room, sng, kit)
    sng.give_up(records)
    p = room.hub.player(sng.person, create=True)
    if p is not None:
        p.notice = sng.notice
