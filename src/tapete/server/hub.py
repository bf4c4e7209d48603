"""The room: anonymous players with their bankrolls, their tables, and the message protocol.

Messages from the browser are JSON objects with a ``type``; each type has a fixed set of
fields with fixed types. Anything else (bad JSON, an unknown type or field, a wrong type, an
action out of turn or for an earlier decision, a seat that is not yours) is answered with
``{"type": "error", "code": ..., "message": {"en": ..., "es": ...}}`` and changes nothing.

=========== ======================================================= =========================
type        fields                                                  when
=========== ======================================================= =========================
sit         structure ("nl"|"pl"|"fl"), blinds (index), name?, buy_in?,  in the lobby
            lang? ("en"|"es": the default name's language)
act         seq (int), action (fold|check|call|bet|raise), amount?  your turn
pre         value (null | "check_fold" | "call_any")                not your turn
add_chips   amount                                                  seated
sit_in      post? (bool: post the missed blinds now; default: wait    seated
            for the big blind)
sit_out, leave, next                                                seated
coach       on (bool)                                               seated
reset                                                               in the lobby
ping                                                                any time
=========== ======================================================= =========================
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

from ..hand import HandError
from ..text import Text
from .config import Settings
from .game import (
    BLINDS,
    MAX_BUY_IN_BB,
    MIN_BUY_IN_BB,
    STRUCTURES,
    Game,
    Outbox,
    Refused,
)
from .storage import PlayerRow, Storage

MAX_MESSAGE = 4096
log = logging.getLogger("tapete.server")

# type -> {field: (types, required)}
SCHEMA: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "sit": {"structure": ((str,), True), "blinds": ((int,), True), "name": ((str,), False),
            "buy_in": ((int,), False), "lang": ((str,), False)},
    "act": {"seq": ((int,), True), "action": ((str,), True), "amount": ((int,), False)},
    "pre": {"value": ((str, type(None)), True)},
    "add_chips": {"amount": ((int,), True)},
    "sit_out": {}, "sit_in": {"post": ((bool,), False)}, "leave": {}, "next": {}, "reset": {},
    "ping": {},
    "coach": {"on": ((bool,), True)},
}
ACTIONS = ("fold", "check", "call", "bet", "raise")
DEFAULT_NAME = Text("Hero", "Héroe")  # a player who gives no name
YOU = Text(" (you)", " (tú)")  # after a name that is also a bot's
NAME_RE = re.compile(r"[^\w .'-]", re.UNICODE)


def malformed(en: str, es: str) -> Refused:
    return Refused("malformed", Text(en, es))


def parse(raw: str) -> dict[str, Any]:
    """Check a message's shape; raise :class:`Refused` with a clear reason if it is wrong."""
    if len(raw) > MAX_MESSAGE:
        raise malformed("The message is too long.", "El mensaje es demasiado largo.")
    try:
        msg = json.loads(raw)
    except ValueError:
        raise malformed("The message is not valid JSON.", "El mensaje no es JSON válido.") \
            from None
    if not isinstance(msg, dict):
        raise malformed("A message must be a JSON object.", "Un mensaje debe ser un objeto JSON.")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise malformed(f"Unknown message type {kind!r}.", f"Tipo de mensaje desconocido {kind!r}.")
    fields = SCHEMA[kind]
    for key, value in msg.items():
        if key == "type":
            continue
        if key in ("seat", "player", "actor"):
            raise Refused("forged", Text(
                "You can only act for your own seat; messages do not name a seat.",
                "Solo puedes actuar por tu asiento; los mensajes no indican asiento."))
        if key not in fields:
            raise malformed(f"Unexpected field {key!r} in {kind!r}.",
                            f"Campo inesperado {key!r} en {kind!r}.")
        types, _ = fields[key]
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
        if not ok:
            raise malformed(f"Field {key!r} has the wrong type.",
                            f"El campo {key!r} tiene un tipo incorrecto.")
    for key, (_, required) in fields.items():
        if required and key not in msg:
            raise malformed(f"Field {key!r} is missing in {kind!r}.",
                            f"Falta el campo {key!r} en {kind!r}.")
    if kind == "act" and msg["action"] not in ACTIONS:
        raise malformed(f"Unknown action {msg['action']!r}: fold, check, call, bet or raise.",
                        f"Acción desconocida {msg['action']!r}: fold, check, call, bet o raise.")
    if kind == "sit" and msg.get("lang", "en") not in ("en", "es"):
        raise malformed("The language is en or es.", "El idioma es en o es.")
    if kind == "pre" and msg["value"] not in (None, "check_fold", "call_any"):
        raise malformed("Pre-actions are check_fold and call_any.",
                        "Las preacciones son check_fold y call_any.")
    return msg


class Player:
    """One anonymous person: a bankroll (chips off the table), open tabs, maybe a table."""

    def __init__(self, hub: Hub, row: PlayerRow) -> None:
        self.hub = hub
        self.id = row.id
        self.bankroll = row.bankroll
        self.outboxes: set[Outbox] = set()
        self.game: Game | None = None
        self.notice: Text | None = None
        self.recent: list[dict[str, Any]] = []

    def me(self) -> dict[str, Any]:
        at_table = self.game.human_chips() if self.game is not None else 0
        return {"bankroll": self.bankroll, "at_table": at_table,
                "total": self.bankroll + at_table,
                "starting": self.hub.settings.starting_bankroll}

    def state(self) -> dict[str, Any]:
        if self.game is not None:
            return {**self.game.state(), **self._extra()}
        return self.lobby_state()

    def _extra(self) -> dict[str, Any]:
        return {"me": self.me()}

    def lobby_state(self) -> dict[str, Any]:
        return {
            "type": "state", "lobby": True, "me": self.me(),
            "options": {"structures": list(STRUCTURES), "blinds": [list(b) for b in BLINDS],
                        "min_buy_in_bb": MIN_BUY_IN_BB, "max_buy_in_bb": MAX_BUY_IN_BB},
            "history": self._history(),
            "notice": self.notice.to_json() if self.notice else None,
        }

    def _history(self) -> list[dict[str, Any]]:
        """Stored hands, and the last table's hands still being written."""
        stored = [h.summary for h in self.hub.storage.list_hands(self.id, 50)]
        ids = {h["hand_id"] for h in stored}
        fresh = [h for h in self.recent if h["hand_id"] not in ids]
        return sorted(fresh + stored, key=lambda h: -float(h["played_at"]))[:50]

    def send_state(self) -> None:
        if self.game is not None:
            self.game.broadcast()
            return
        data = json.dumps(self.lobby_state(), separators=(",", ":"))
        for box in self.outboxes:
            box.queue.put_nowait((data, None))

    def attach(self, box: Outbox) -> None:
        self.outboxes.add(box)
        if self.game is not None:
            self.game.outboxes.add(box)
            self.game.wake()
        self.send_state()

    def detach(self, box: Outbox) -> None:
        self.outboxes.discard(box)
        if self.game is not None:
            self.game.outboxes.discard(box)

    # ------------------------------------------------------------------ messages
    def handle(self, box: Outbox, raw: str) -> None:
        stamp = time.perf_counter()
        timed: float | None = None  # only actions are timed (click -> answer)
        try:
            msg = parse(raw)
            if msg["type"] == "act":
                timed = stamp
            self._dispatch(msg, stamp)
        except HandError as exc:  # the engine or the table said no: nothing changed
            self._error(box, Refused("illegal", exc.message), timed)
        except Refused as exc:
            self._error(box, exc, timed)
        except Exception:
            log.exception("message %.200r failed", raw)
            self._error(box, Refused("internal", Text(
                "The server could not handle that message.",
                "El servidor no pudo procesar ese mensaje.")), timed)

    def _error(self, box: Outbox, exc: Refused, timed: float | None) -> None:
        err = {"type": "error", "code": exc.code, "message": exc.message.to_json(),
               "seq": self.game.seq if self.game is not None else None}
        box.queue.put_nowait((json.dumps(err), timed))

    def _need_game(self) -> Game:
        if self.game is None:
            raise Refused("not_seated", Text("You are not at a table.", "No estás en una mesa."))
        return self.game

    def _dispatch(self, msg: dict[str, Any], stamp: float) -> None:
        kind = msg["type"]
        if kind == "ping":
            for box in self.outboxes:
                box.queue.put_nowait((json.dumps({"type": "pong"}), None))
            return
        if kind == "sit":
            self._sit(msg)
        elif kind == "reset":
            if self.game is not None:
                raise Refused("seated", Text(
                    "Leave the table first, then reset your bankroll.",
                    "Deja la mesa primero y luego reinicia tu saldo."))
            self.bankroll = self.hub.settings.starting_bankroll
            self.hub.storage.set_money(self.id, self.bankroll, 0)
            self.notice = None
        elif kind == "act":
            game = self._need_game()
            game._stamp = stamp
            try:
                game.act(msg["seq"], msg["action"], msg.get("amount"))
            finally:
                game._stamp = None
            return
        elif kind == "pre":
            self._need_game().set_pre_action(msg["value"])
            return
        elif kind == "add_chips":
            game = self._need_game()
            if msg["amount"] <= 0:
                raise malformed("Add a positive amount.", "Añade una cantidad positiva.")
            added = game.add_chips(msg["amount"], self.bankroll)
            self.bankroll -= added
            self.hub.storage.set_money(self.id, self.bankroll, game.human_chips())
        elif kind == "sit_out":
            self._need_game().sit_out()
            return
        elif kind == "sit_in":
            self._need_game().sit_in(bool(msg.get("post", False)))
            return
        elif kind == "leave":
            self._need_game().leave()
        elif kind == "next":
            self._need_game().next_hand()
            return
        elif kind == "coach":
            self._need_game().set_coach(msg["on"])
            return
        self.send_state()

    def _sit(self, msg: dict[str, Any]) -> None:
        if self.game is not None:
            raise Refused("seated", Text("You are already at a table.", "Ya estás en una mesa."))
        structure = msg["structure"]
        blinds = msg["blinds"]
        if structure not in STRUCTURES:
            raise malformed("The game is nl, pl or fl.", "El juego es nl, pl o fl.")
        if not 0 <= blinds < len(BLINDS):
            raise malformed("Unknown blinds.", "Ciegas desconocidas.")
        bb = BLINDS[blinds][1]
        buy_in = msg.get("buy_in", MAX_BUY_IN_BB * bb)
        buy_in = max(MIN_BUY_IN_BB * bb, min(buy_in, MAX_BUY_IN_BB * bb, self.bankroll))
        if buy_in > self.bankroll or buy_in < MIN_BUY_IN_BB * bb:
            raise Refused("no_bankroll", Text(
                f"These blinds need at least {MIN_BUY_IN_BB * bb:,} chips: choose smaller blinds"
                " or reset your bankroll to 10,000.",
                f"Estas ciegas necesitan al menos {MIN_BUY_IN_BB * bb:,} fichas: elige ciegas"
                " menores o reinicia tu saldo a 10.000.".replace(",", ".")))
        es = msg.get("lang") == "es"
        name = NAME_RE.sub("", msg.get("name") or "").strip()[:16] or DEFAULT_NAME.in_lang(
            "es" if es else "en")
        if name.lower() in {n.lower() for n, _ in _opponents()}:
            name += YOU.in_lang("es" if es else "en")
        hub = self.hub
        game = Game(hub.settings, hub.storage, self.id, name, structure, blinds, buy_in,
                    on_money=self._money_back, on_close=self._closed)
        self.bankroll -= buy_in
        hub.storage.set_money(self.id, self.bankroll, buy_in)
        game.bankroll_view = lambda: self.bankroll
        game.extra_state = self._extra
        game.outboxes = set(self.outboxes)
        self.game = game
        self.notice = None
        game.start()

    def _money_back(self, chips: int) -> None:
        self.bankroll += chips
        self.hub.storage.set_money(self.id, self.bankroll, 0)

    def _closed(self, game: Game) -> None:
        if self.game is game:
            self.notice = game.notice
            self.recent = list(game.history)
            self.game = None
            self.send_state()


def _opponents() -> tuple[tuple[str, str], ...]:
    from .bots import OPPONENTS

    return OPPONENTS


class Hub:
    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.players: dict[str, Player] = {}

    def player(self, pid: str) -> Player | None:
        p = self.players.get(pid)
        if p is not None:
            return p
        row = self.storage.get_player(pid)
        if row is None:
            return None
        if row.at_table:  # a table lost in a restart: its chips go back to the bankroll
            row = self.storage.cash_out(pid)
        p = Player(self, row)
        self.players[pid] = p
        return p

    async def close(self) -> None:
        for p in list(self.players.values()):
            if p.game is not None:
                await p.game.stop()
