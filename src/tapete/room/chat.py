"""The table's chat: a part of :class:`~tapete.room.table.RoomTable` (room/part.py).

A seated player talks to everyone, a spectator to the spectators (when the table allows);
each message is a ``chat`` record. The last lines, with the host's actions and the votes
shown among them (:meth:`ChatLog.note`), are the chat a state shows, kept in the table's
snapshot (``chat``).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from tapete.core.catalog import t
from tapete.room.errors import Refused
from tapete.room.log import Record
from tapete.room.part import Batch, Table

CHAT_MAX = 200  # characters in a chat message
CHAT_BURST, CHAT_WINDOW_MS = 5, 10_000  # at most this many messages in this long
CHAT_KEPT = 60  # the last chat messages and host actions a state shows


class ChatLog:
    """The chat's lines (``lines``) and when each player last talked (the flood limit, on
    the table's clock: not stored, a restart forgets it)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self._sent: dict[str, deque[int]] = {}

    def say(self, player: str, text: str) -> None:
        """Chat at the table: a seated player to everyone, a spectator to the spectators
        (when the host allows). Plain text, at most :data:`CHAT_MAX` characters, at most
        :data:`CHAT_BURST` messages in :data:`CHAT_WINDOW_MS`."""
        tb = self.t
        c = tb.config
        if not c.chat:
            raise Refused(t("chat is off at this table"))
        if not isinstance(text, str):
            raise Refused(t("a chat message is text"))
        text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
        if not text:
            raise Refused(t("a chat message needs some text"))
        if len(text) > CHAT_MAX:
            raise Refused(t("a chat message is at most {most} characters", most=CHAT_MAX),
                          code="too_long")
        seat = tb.seat_of(player)
        if seat is None and not (c.spectators and c.spectator_chat):
            raise Refused(t("spectators do not chat at this table"))
        if tb._muted(player):
            raise Refused(t("the host has muted you"), code="muted")
        now = tb.clock.now_ms()
        sent = self._sent.setdefault(player, deque(maxlen=CHAT_BURST))
        if len(sent) == CHAT_BURST and now - sent[0] < CHAT_WINDOW_MS:
            raise Refused(t("slow down: at most {n} messages in {s} seconds", n=CHAT_BURST,
                            s=CHAT_WINDOW_MS // 1000), code="flood")
        sent.append(now)
        name = "" if seat is None else tb._name(seat)
        tb._run(self.step, {"player": player, "seat": seat, "name": name, "text": text})

    def step(self, c: dict[str, Any], batch: Batch) -> None:
        batch.append(("chat", c))
        self.note(batch)

    def note(self, batch: Batch) -> None:
        """The record just built, among the chat's lines (the host's actions and the votes
        are shown with the messages)."""
        kind, payload = batch[-1]
        self.lines.append({**payload, "seq": self.t._next_seq(batch) - 1, "record": kind})

    def piece(self) -> dict[str, Any]:
        return {"chat": list(self.lines)}

    def load(self, state: dict[str, Any]) -> None:
        self.lines.extend(state["chat"])

    def hides(self, r: Record, viewer: str | None) -> bool:
        """The spectators' chat is the spectators' own: a seated viewer is sent only that
        there was a message (the numbering stays gap-free), not what it said."""
        return r.payload["seat"] is None and viewer is not None \
            and self.t.seat_of(viewer) is not None
