r"""The people: anonymous players with their bankrolls, their practice tables and their lobby.

A person's tabs at the practice door (``/ws``) are :class:`~tapete.server.session.Session`\ s,
the one session every table's WebSocket is served by: it parses each message into the models
of :mod:`tapete.server.protocol` (``docs/protocol.md`` lists every message and field) and
refuses anything else with ``{"type": "error", "code": ..., "message": {"en": ..., "es":
...}}``, changing nothing. What only the practice door has is here (:meth:`Player.command`):
the lobby's messages (sit, reset, a sit-and-go) and the practice table's policy, which checks
each command at the table and hands it to the table's owner as a job.

The person's tabs are sent ``state`` (the whole table as this seat sees it, with ``me``: the
money, see :meth:`Player.me`; a newer state replaces one not yet sent), ``hands`` (the hand
list: whole with ``reset: true`` when a tab connects, then each new hand once, ``reset:
false``), ``error`` and ``pong``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import msgspec

from tapete import words
from tapete.core.catalog import N_, t
from tapete.core.text import Text
from tapete.room.log import VARIANTS
from tapete.room.names import clean_name
from tapete.server import protocol
from tapete.server.config import Settings
from tapete.server.game import (
    BLINDS,
    MAX_BUY_IN_BB,
    MIN_BUY_IN_BB,
    STRUCTURES,
    Outbox,
    Refused,
    send,
)
from tapete.server.money import Purse
from tapete.server.practice import PracticeBots, PracticeTable, open_table
from tapete.server.protocol import (
    AddChips,
    ClientMessage,
    Coach,
    Deal,
    DealAnswer,
    LobbyState,
    Reset,
    RoomMessage,
    Sit,
    Sng,
    malformed,
)
from tapete.server.sitngo import MORE_OPPONENTS, SngTable, open_sng
from tapete.server.state import lobby_state
from tapete.server.storage import PlayerRow, Storage

if TYPE_CHECKING:
    from tapete.server.rooms import Room
    from tapete.server.session import Job, Running, Session

HANDS_KEPT = 50  # hands listed on the page
log = logging.getLogger("tapete.server")
# how the lobby writes amounts (whole chips), and what a ``sit`` may choose: encoded once
LOBBY_MONEY = msgspec.Raw(msgspec.json.encode(words.money_format()))
LOBBY_OPTIONS = msgspec.Raw(msgspec.json.encode({
    "structures": list(STRUCTURES), "variants": list(VARIANTS),
    "blinds": [list(b) for b in BLINDS], "min_buy_in_bb": MIN_BUY_IN_BB,
    "max_buy_in_bb": MAX_BUY_IN_BB}))

DEFAULT_NAME = N_("Hero")  # a player who gives no name


def _hands(reset: bool, hands: list[dict[str, Any]]) -> str:
    """A ``hands`` message, encoded: the whole list (``reset``) or new hands to put first."""
    listed: Any = hands  # each a HandSummary, as the storage keeps it
    return protocol.encode(protocol.Hands(type="hands", reset=reset, hands=listed))


def chosen_name(raw: str, lang: str) -> str:
    """The practice table's name for its person: the room's cleaning (:func:`clean_name`,
    refused in words as at a room table), or "Hero" in their language when they gave none."""
    if not raw.strip():
        return t(DEFAULT_NAME).in_lang(lang)
    try:
        return clean_name(raw)
    except Refused as exc:
        raise malformed(exc.message) from None


class Player:
    """One anonymous person: a bankroll (chips off the table), open tabs, maybe a table.

    ``stored`` says whether the player has a row in the database yet: a visitor gets an id in
    a signed cookie at once, and a row only with the first thing worth keeping (sitting down,
    a reset), so requests without a cookie create nothing."""

    def __init__(self, hub: Hub, row: PlayerRow, stored: bool = True,
                 hands: list[dict[str, Any]] | None = None) -> None:
        self.hub = hub
        self.id = row.id
        self.purse = Purse(hub.storage, row.id, row.bankroll,
                           hub.storage.ledger_length(row.id) if stored else 0)
        self.stored = stored
        self.sessions: set[Session] = set()  # its open tabs at the practice door
        self.game: PracticeTable | None = None
        self.notice: Text | None = None
        # the newest hands first: sent once to each tab, then one message per new hand
        self.hands: list[dict[str, Any]] = hands or []

    @property
    def outboxes(self) -> set[Outbox]:
        return {s.box for s in self.sessions}

    @property
    def bankroll(self) -> int:
        return self.purse.bankroll

    def me(self) -> dict[str, Any]:
        """The player's money as the page shows it now: off the table, on it (the stack as
        the board is shown, plus chips waiting for the hand's end) and in the pot."""
        at_table, in_pot = self.game.human_money() if self.game is not None else (0, 0)
        return {"bankroll": self.bankroll, "at_table": at_table, "in_pot": in_pot,
                "total": self.bankroll + at_table + in_pot,
                "starting": self.hub.settings.starting_bankroll, "version": self.purse.version}

    def _store(self) -> None:
        """Give the player a database row, the first time there is something to keep."""
        if not self.stored:
            self.hub.storage.new_player(self.id)
            self.purse.version = 1  # its ledger's first row
            self.stored = True
            self.hub.players[self.id] = self

    def lobby_state(self) -> LobbyState:
        return lobby_state(self.me(), LOBBY_OPTIONS, self.notice, LOBBY_MONEY)

    def send_state(self) -> None:
        """Every tab of the person is sent the state (their practice table's, or the
        lobby's), made and encoded once for all of them."""
        if self.game is not None:
            self.game.broadcast()
            return
        data = protocol.encode(self.lobby_state())
        for session in list(self.sessions):
            session.send_state(data)

    def hand_added(self, summary: dict[str, Any]) -> None:
        """A hand of the player's was stored: every tab gets it (the list is sent whole only
        when a tab opens)."""
        self.hands.insert(0, summary)
        del self.hands[HANDS_KEPT:]
        data = _hands(False, [summary])
        for box in self.outboxes:
            send(box, data)

    def attach(self, session: Session) -> None:
        self.sessions.add(session)
        box = session.box
        box.put(_hands(True, self.hands))
        if self.game is not None:
            self.game.sessions.add(session)
            self.game.wake()
        self.send_state()

    def detach(self, session: Session) -> None:
        self.sessions.discard(session)
        if self.game is not None:
            self.game.sessions.discard(session)
            self.game.wake()

    def need_game(self) -> PracticeTable:
        if self.game is None:
            raise Refused(t("You are not at a table."), "not_seated")
        return self.game

    def command(self, msg: ClientMessage | RoomMessage, stamp: float) -> tuple[Running, Job] | None:
        """A message of the practice door's (:class:`~tapete.server.session.Session` parsed
        it): the lobby's done here; a command at the practice table returned as the job its
        owner runs (None: nothing for the table to do)."""
        if isinstance(msg, Sit):
            return self._sit(msg)
        if isinstance(msg, Reset):
            if self.game is not None:
                raise Refused(t("Leave the table first, then reset your bankroll."), "seated")
            self._store()
            self.notice = None
            self._then_state(self.purse.reset(self.hub.settings.starting_bankroll))
        elif isinstance(msg, Sng):
            return self._sng(msg)
        elif isinstance(msg, Coach):
            self.need_game().set_coach(msg.on)
        elif isinstance(msg, Deal):
            sng = self._need_sng()
            return sng.running, sng.propose_deal(msg.kind)
        elif isinstance(msg, DealAnswer):
            sng = self._need_sng()
            return sng.running, sng.answer_deal(msg.yes)
        else:  # the table's commands: the practice table's policy checks and completes them
            game = self.need_game()
            if isinstance(msg, AddChips) and msg.amount <= 0:
                raise malformed(t("Add a positive amount."))
            job = game.job(msg, stamp, self.bankroll)
            return None if job is None else (game.running, job)
        return None

    def _need_sng(self) -> SngTable:
        game = self.need_game()
        if not isinstance(game, SngTable):
            raise Refused(t("Deals are made at a sit-and-go."), "no_deal")
        return game

    def _sng(self, msg: Sng) -> tuple[Running, Job]:
        """A practice sit-and-go (server/sitngo.py): the buy-in from the bankroll."""
        if self.game is not None:
            raise Refused(t("You are already at a table."), "seated")
        chosen = "" if msg.name is msgspec.UNSET else msg.name
        name = chosen_name(chosen, msg.lang)
        if name.casefold() in {n.casefold() for n, _ in (*_opponents(), *MORE_OPPONENTS)}:
            name = t("{name} (you)", name=name).in_lang(msg.lang)
        self._store()
        game, begin = open_sng(self.hub.room, self.id, self.hub.settings, name, msg.seats,
                               msg.speed, msg.buy_in, on_close=self._closed)
        self._seat(game)
        return game.running, begin

    def _seat(self, game: PracticeTable) -> None:
        """The person's practice table is theirs: every tab of theirs shows it."""
        self.game = game
        game.money = self.me
        game.sessions = set(self.sessions)
        self.notice = None
        game.wake()

    def _sit(self, msg: Sit) -> tuple[Running, Job]:
        if self.game is not None:
            raise Refused(t("You are already at a table."), "seated")
        structure = msg.structure
        blinds = msg.blinds
        if structure not in STRUCTURES:
            raise malformed(t("The game is nl, pl or fl."))
        if not 0 <= blinds < len(BLINDS):
            raise malformed(t("Unknown blinds."))
        bb = BLINDS[blinds][1]
        buy_in = MAX_BUY_IN_BB * bb if msg.buy_in is msgspec.UNSET else msg.buy_in
        buy_in = max(MIN_BUY_IN_BB * bb, min(buy_in, MAX_BUY_IN_BB * bb, self.bankroll))
        if buy_in > self.bankroll or buy_in < MIN_BUY_IN_BB * bb:
            raise Refused(t(
                "These blinds need at least {amount} chips: choose smaller blinds or reset your"
                " bankroll to 10,000.", amount=MIN_BUY_IN_BB * bb), "no_bankroll")
        lang = msg.lang
        chosen = "" if msg.name is msgspec.UNSET else msg.name
        name = chosen_name(chosen, lang)
        if name.casefold() in {n.casefold() for n, _ in _opponents()}:  # also a bot's name
            name = t("{name} (you)", name=name).in_lang(lang)
        hub = self.hub
        self._store()
        # a room table of the person's own (server/practice.py): the buy-in is a move of
        # the room's, stored in order with the person's other moves
        game, begin = open_table(hub.room, self.id, hub.settings, name, structure, blinds,
                                 buy_in, msg.variant, on_close=self._closed)
        self._seat(game)
        return game.running, begin

    def _then_state(self, stored: asyncio.Future[None]) -> None:
        """Show the state once a change of money is stored (whatever the outcome)."""
        def show(done: asyncio.Future[None]) -> None:
            if not done.cancelled() and done.exception() is not None:
                self.notice = t("A change of your money could not be stored.")
            self.send_state()

        stored.add_done_callback(show)

    def _closed(self, game: PracticeTable) -> None:
        """The person left the table: the lobby (with the chips back in the bankroll)."""
        if self.game is game:
            self.notice = game.notice
            self.game = None
            self.send_state()

    def resume(self, running: Any, kit: PracticeBots) -> None:
        """The practice table a restart found in the log with the person seated: theirs
        again, the hand in play where it stood (a sit-and-go's with its coordinator)."""
        sng = getattr(kit, "sng", None)
        game = PracticeTable(self.hub.room, running, kit, self.id, self.hub.settings,
                             on_close=self._closed) if sng is None else \
            SngTable(sng, self.hub.room, running, kit, self.id, self.hub.settings,
                     on_close=self._closed, resumed=True)
        notice = self.notice
        self._seat(game)
        self.notice = notice


def _opponents() -> tuple[tuple[str, str], ...]:
    from tapete.server.bots import OPPONENTS

    return OPPONENTS


class Hub:
    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.players: dict[str, Player] = {}
        self.room: Room = None  # type: ignore[assignment]  # the app plugs its room in

    def player(self, pid: str, create: bool = False, keep: bool = True) -> Player | None:
        """The player with this id: from memory, from the database, or (``create``: an id the
        server signed into a cookie) a new visitor who is stored only when they sit or reset.
        ``keep=False``: a visitor who is not stored is not kept in memory either (a plain
        page request); a connected tab keeps its player until it closes (:meth:`forget`)."""
        p = self.players.get(pid)
        if p is not None:
            self._practice(p)
            return p
        row = self.storage.get_player(pid)
        stored = row is not None
        if row is None:
            if not create:
                return None
            row = PlayerRow(pid, self.settings.starting_bankroll, 0)
        # (chips at tables are at the room's tables, each restored from its log: they stay)
        hands = [h.summary for h in self.storage.list_hands(pid, HANDS_KEPT)] if stored else []
        p = Player(self, row, stored=stored, hands=hands)
        if stored or keep:
            self.players[pid] = p
        self._practice(p)
        return p

    async def load(self, pid: str) -> None:
        """A stored player in memory before their connection's states are made: whether
        they are stored is read off the event loop (a visitor, the most of a burst of new
        connections, is kept nowhere and costs the loop no database read); a stored one is
        then loaded as :meth:`player` does, once (it stays in memory)."""
        if pid not in self.players and \
                await asyncio.to_thread(self.storage.get_player, pid) is None:
            return
        self.player(pid, create=True, keep=False)

    def _practice(self, p: Player) -> None:
        """A player whose practice table a restart restored sits at it again."""
        if p.game is None and self.room is not None:
            practice = self.room.practice.get(p.id)
            if practice is not None:
                p.resume(*practice)

    def forget(self, p: Player) -> None:
        """A visitor who never sat and has no tab open is kept nowhere."""
        if not p.stored and not p.outboxes and p.game is None and p.purse.pending == 0:
            self.players.pop(p.id, None)

    async def close(self) -> None:
        for p in list(self.players.values()):
            if p.game is not None:
                await p.game.stop()
        for p in list(self.players.values()):
            await p.purse.flush()
