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

Not yet: a restart does not resume a sit-and-go (the coordinator lives in memory: the table
is restored from the log, but nobody calls its next hand).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from tapete.core.catalog import t
from tapete.core.errors import BooksError
from tapete.room.errors import Refused as RoomRefused
from tapete.room.log import OnCrash, TableConfig
from tapete.room.money import ChipAccount
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
    """One sit-and-go's coordinator: the live tournament, its chip account, the deal."""

    def __init__(self, table_id: str, rules: TournamentRules, speed: str, seed: int) -> None:
        self.id = table_id
        self.rules = rules
        self.speed = speed
        self.name = t("Sit-and-go, {seats} seats, {speed}", seats=rules.seats,
                      speed=t("turbo") if speed == "turbo" else t("regular"))
        self.live = LiveTournament(rules, seed=seed)
        self.account = ChipAccount()
        self.deal: dict[str, Any] | None = None  # the deal proposed: kind, amounts, answers
        self.deal_pending: str | None = None  # proposed during a hand: opened at its end
        self.paid = 0  # the person's prize, once paid


class SngTable(PracticeTable):
    """The person's sit-and-go table: the practice table's page, the tournament's rules."""

    def __init__(self, sng: SitAndGo, room: Room, running: Running, bots: PracticeBots,
                 person: str, settings: Settings, on_close: Callable[[PracticeTable], None]
                 ) -> None:
        self.sng = sng
        super().__init__(room, running, bots, person, settings, on_close)

    def begin(self, name: str, buy_in: int) -> None:  # the buy-in is taken by open_sng
        sng = self.sng
        rt = self.rt
        rt.on_tournament = lambda table: self._submit(self._coordinate)
        sng.live.register(self.player_id, name)
        for pid, bot_name in self.practice_bots.names.items():
            sng.live.register(pid, bot_name, bot=True)
        seating = sng.live.start()
        # the person's seat is the page's seat 0: the drawn seats turned round the table
        mine = next(s.seat for s in seating if s.player == self.player_id)
        live_table = sng.live.tables[1]
        n = len(live_table.seats)
        live_table.seats = [live_table.seats[(i + mine) % n] for i in range(n)]
        for i, s in enumerate(live_table.seats):
            if s is not None:
                e = sng.live.entrants[s.player]
                e.seat = i
                sng.account.issue(s.player, s.chips)
                self._seat(s.player, e.name, i, s.chips)
        self._deal_next(0)
        self.wake()

    def _seat(self, player: str, name: str, seat: int, chips: int) -> None:
        self._do(lambda: self.rt.tournament_seat(player, name, seat, chips, dealt_in=False))

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
        orders = sng.live.hand_over(1, rt.tournament_stacks(), rt.table.big_blind_seat)
        self._apply(orders)

    def _apply(self, orders: Orders) -> None:
        rt = self.rt
        sng = self.sng
        for p in orders.busted:
            rt.tournament_unseat(p)
        if any(b.player == self.player_id for b in orders.places):
            self._pay_place()  # out: the place's prize is final now (the person may go)
        if orders.finished:
            self._pay()
        elif sng.deal_pending is not None and 1 in orders.deal_now:
            sng.live.pause(1)
            self._open_deal(sng.deal_pending)
            sng.deal_pending = None
        elif 1 in orders.deal_now:
            self._deal_next(orders.levels[1])
        self.wake()
        self._schedule()

    def _pay_place(self) -> None:
        """The person is out: their place's prize (shared with those tied) is theirs now,
        paid at once, so leaving before the end loses nothing."""
        live = self.sng.live
        won = rulings.awards([(e.player, e.place) for e in live.finished], live.prizes(), None)
        prize = won.get(self.player_id, 0)
        if prize > 0 and not self.sng.paid:
            self.room.bankroll.give(self.player_id, prize, f"{self.rt.table_id}:sng-prize")
            self.sng.paid = prize

    def _pay(self) -> None:
        sng = self.sng
        me = sng.live.entrants[self.player_id]
        if sng.paid and me.prize != sng.paid:  # paid when out: the end must agree
            raise BooksError(f"sit-and-go {sng.id}: paid {sng.paid} when out, the end says"
                             f" {me.prize}")
        if me.prize > 0 and not sng.paid:
            self.room.bankroll.give(self.player_id, me.prize, f"{self.rt.table_id}:sng-prize")
            sng.paid = me.prize

    # ------------------------------------------------------------------ deals
    def propose_deal(self, kind: str) -> None:
        sng = self.sng
        live = sng.live
        if kind not in DEAL_KINDS:
            raise Refused("malformed", t("A deal is an ICM deal or a chip chop."))
        me = live.entrants[self.player_id]
        if live.over or me.place:
            raise Refused("no_deal", t("Only a player still in may propose a deal."))
        if not 2 <= len(live.left()) <= 3:
            raise Refused("no_deal", t("A deal may be proposed with three players left or"
                                       " fewer."))
        if (sng.deal is not None and sng.deal["open"]) or sng.deal_pending is not None:
            raise Refused("no_deal", t("A deal is proposed already: answer it."))
        if self.rt.hand is None and 1 in live.playing():  # between hands: the next one waits
            self._do(self.rt.tournament_hold)
            live.pause(1)
            self._open_deal(kind)
        else:
            sng.deal_pending = kind  # opened once this hand is over
        self._schedule()

    def _open_deal(self, kind: str) -> None:
        sng = self.sng
        offer = sng.live.deal_offer(DEAL_KINDS[kind])
        answers: dict[str, bool | None] = {
            p: (None if p == self.player_id else deals.bot_accepts(a, eq))
            for p, a, eq in offer}
        sng.deal = {"kind": kind, "amounts": {p: a for p, a, _ in offer},
                    "answers": answers, "open": True}

    def answer_deal(self, yes: bool) -> None:
        sng = self.sng
        deal = sng.deal
        if deal is None or not deal["open"]:
            raise Refused("no_deal", t("There is no deal to answer."))
        deal["answers"][self.player_id] = bool(yes)
        deal["open"] = False
        if all(deal["answers"].values()):
            self._apply(sng.live.take_deal(deal["amounts"]))
        else:
            self._apply(sng.live.resume())

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
        self.closed = True
        self.rt.auto_start = False
        self.rt.held = True
        self.room.close(self.rt.table_id)
        self.on_close(self)

    def state(self) -> dict[str, Any]:
        out = super().state()
        out["tournament"] = self.info()
        return out

    def info(self) -> dict[str, Any]:
        sng = self.sng
        return tournament_info(sng.live, sng.id, sng.name, "sng", 1, self.player_id,
                               self.rt.hand is not None, sng.deal)


def open_sng(room: Room, person: str, settings: Settings, name: str, seats: int, speed: str,
             buy_in: int, on_close: Callable[[PracticeTable], None]) -> SngTable:
    """A new sit-and-go for ``person``: the buy-in taken from their bankroll, the table
    seated by the draw, the first hand called."""
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
                   else secrets.randbits(31))
    kit = SngBots(table_id, settings, seats, sng.account)
    if not room.bankroll.take(person, buy_in, f"{table_id}:sng-buy-in"):
        raise Refused("no_bankroll", t("Your bankroll does not hold the buy-in."))
    try:
        running = room.open(config, table_id, kit)
        game = SngTable(sng, room, running, kit, person, settings, on_close)
        game.begin(name, buy_in)
    except (Refused, RoomRefused, TournamentError):
        room.close(table_id)
        room.bankroll.give(person, buy_in, f"{table_id}:sng-refund")
        raise
    room.practice[person] = (running, kit)
    return game

