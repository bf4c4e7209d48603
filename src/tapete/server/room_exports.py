"""A room table's ledger and hand histories over HTTP (docs/protocol.md, "A room table's
ledger and hand histories"):

- ``GET /api/room/tables/{table_id}/ledger``: the ledger as JSON
  (:meth:`Ledger.to_json <tapete.room.ledger.Ledger.to_json>`);
- ``GET /api/room/tables/{table_id}/ledger.csv``: the same as CSV (``?lang=es``: in Spanish);
- ``GET /api/room/tables/{table_id}/hands.phhs``: the finished hands, PHH, each with its fair
  deal (``tapete verify`` checks them);
- ``GET /api/room/tables/{table_id}/hands.txt``: the finished hands, PokerStars text.

Who may read them: whoever has sat at the table, at any time (the identity cookie's player
is the player of one of its ``sat`` records); anyone else is answered 403. A table that does
not exist, and a practice table (its person's alone), is 404. The hands are written as the
reader keeps them: their own hole cards, the others' where shown, and only the hands the reader
was dealt into, except for the table's host, who reads every hand (:mod:`tapete.room.hands`).
The ledger is the whole table's: settling up needs everyone's line.

The records are read in a worker thread (a database read, as every handler of the server's
that reads the database does). A table this process runs gives the chips of each player still
seated, taken with the number of its last record, and only the records up to that one are
read: both as they stood at one moment. A table it does not run (one a restart could not
restore) is read from the log alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tapete.core.catalog import N_, t
from tapete.room.errors import Refused
from tapete.room.hands import host_of, to_phhs, to_pokerstars
from tapete.room.ledger import ledger
from tapete.room.log import Record, TableConfig
from tapete.server.money import is_bot
from tapete.server.rooms import NO_TABLE, Room

NOT_A_PLAYER = N_("Only the players who have sat at this table can read its ledger and its"
                  " hands.")
# what one answer is made of: the records, the table's settings, the chips of the players
# still seated (None: worked out from the records), the reader's player id
Write = Callable[[list[Record], TableConfig, dict[str, int] | None, str, str], Response]


def routes(room: Room) -> list[Route]:
    """The four routes of a room table's ledger and hand histories."""

    async def serve(request: Request, write: Write) -> Response:
        table_id = str(request.path_params["table_id"])
        pid = request.session.get("pid")
        config: TableConfig | None = None
        chips: dict[str, int] | None = None
        upto: int | None = None
        running = room.tables.get(table_id)
        if running is not None and not running.table.broken:
            rt = running.table  # read in the event loop, between two of the table's commands
            config, upto = rt.config, rt.seq
            chips = {}
            for seat, player in rt.players.items():
                s = rt.table.seats[seat]
                if s is not None:
                    chips[player] = s.chips + s.pending_chips

        def work() -> Response:
            cfg = config
            if cfg is None:
                try:
                    cfg = room.log.config(table_id)
                except Refused:
                    return _error(NO_TABLE, 404)
            if cfg.practice:
                return _error(NO_TABLE, 404)
            records = room.log.read(table_id)
            if upto is not None:
                records = [r for r in records if r.seq <= upto]
            if not isinstance(pid, str) or not pid or not any(
                    r.kind == "sat" and r.payload.get("player") == pid for r in records):
                return _error(NOT_A_PLAYER, 403)
            return write(records, cfg, chips, pid, table_id)

        return await run_in_threadpool(work)

    def lang(request: Request) -> str:
        return "es" if request.query_params.get("lang") == "es" else "en"

    async def ledger_json(request: Request) -> Response:
        return await serve(request, lambda records, config, chips, pid, table: JSONResponse(
            ledger(records, is_bot, chips).to_json(pid)))

    async def ledger_csv(request: Request) -> Response:
        language = lang(request)
        return await serve(request, lambda records, config, chips, pid, table: Response(
            ledger(records, is_bot, chips).to_csv(language), media_type="text/csv",
            headers=_download(table, "ledger.csv")))

    async def hands_phhs(request: Request) -> Response:
        return await serve(request, lambda records, config, chips, pid, table: PlainTextResponse(
            to_phhs(records, pid, table=table, seats=config.seats,
                    every_hand=host_of(records) == pid),
            headers=_download(table, "hands.phhs")))

    async def hands_txt(request: Request) -> Response:
        return await serve(request, lambda records, config, chips, pid, table: PlainTextResponse(
            to_pokerstars(records, pid, table=table, seats=config.seats,
                          every_hand=host_of(records) == pid),
            headers=_download(table, "hands.txt")))

    base = "/api/room/tables/{table_id}"
    return [Route(f"{base}/ledger", ledger_json), Route(f"{base}/ledger.csv", ledger_csv),
            Route(f"{base}/hands.phhs", hands_phhs), Route(f"{base}/hands.txt", hands_txt)]


def _error(message: str, status: int) -> Response:
    return JSONResponse({"error": t(message).to_json()}, status_code=status)


def _download(table_id: str, what: str) -> dict[str, Any]:
    """The header that saves an answer as ``tapete-{table}-{what}``."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "", table_id)
    return {"Content-Disposition": f'attachment; filename="tapete-{safe}-{what}"'}
