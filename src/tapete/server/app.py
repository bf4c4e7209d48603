"""The Starlette application: the page, the static files, the hand downloads, the WebSocket.

Identity is an anonymous id in a signed cookie (itsdangerous, through Starlette's session
middleware); the signing key is made once and kept (:func:`signing_key`: a private file in the
data directory next to an SQLite database, in the database when it is PostgreSQL), so
identities and bankrolls survive restarts.

What one client can cost is bounded (:mod:`.transport`): each WebSocket's send queue, the
messages it may send a second, how long it may leave its messages unread. The Host header must
name a host the server serves (:attr:`Settings.allowed_hosts`, through Starlette's
``TrustedHostMiddleware``: a DNS-rebinding page is answered 400), and a WebSocket's Origin must
be the page's own. An error inside a handler is logged and answered in words (500), never with
its text; the handlers that read the database do it in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import ipaddress
import logging
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from sqlalchemy import delete, select
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from tapete.core import events as ev
from tapete.core.catalog import N_, t
from tapete.core.text import Text
from tapete.room.errors import Refused as RoomRefused
from tapete.room.ports import Ports
from tapete.server import alone, cluster, coach, room_exports, sitngo, tournaments, work
from tapete.server.analysis import routes as analysis_routes
from tapete.server.config import Settings, make_key, read_key
from tapete.server.fanout import CLOSE_MOVED, moved_message, unavailable
from tapete.server.hub import Hub, Player
from tapete.server.practice import PracticeBots
from tapete.server.replayer import routes as replay_routes
from tapete.server.replayer import warm_up as replay_warm_up
from tapete.server.rooms import NO_TABLE, Room, RoomBankroll
from tapete.server.session import Running, Session
from tapete.server.storage import HandRow, Storage, meta_table
from tapete.server.stored import fair_deal
from tapete.server.stored import rebuild as rebuild
from tapete.server.supervise import Tasks
from tapete.server.transport import (
    CLOSE_POLICY,
    TOO_MANY_TABS,
    Outbox,
    Sockets,
    error_message,
    quiet_uvicorn,
    serve,
)

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
COOKIE = "tapete_id"
TEN_YEARS = 10 * 365 * 24 * 3600
VISITORS_EXPIRE = 30 * 24 * 3600  # a stored player who never played, idle this long, goes
MAX_LISTED = 200  # hands in /api/hands, newest first
SERVER_ERROR = N_("Something went wrong on the server; it has been logged. Try again.")
NO_HAND = N_("no such hand")
NO_IDENTITY = N_("No player identity: reload the page.")
FOREIGN_PAGE = N_("This request came from another site's page.")
NOT_JSON = N_("The request is not valid JSON.")
NOT_OPERATOR = N_("That is not the operator's token.")
TOO_MANY_FROM_ADDRESS = N_("Too many tables have been opened from your network: join a table"
                           " from the lobby, or open one later.")
log = logging.getLogger("tapete.server")


def _in_both(message: Text, sep: str = "\n") -> str:
    """A message in both languages, for a plain-text answer: English, then Spanish."""
    return f"{message.en}{sep}{message.es}\n"


def _player(request: Request, hub: Hub) -> Player:
    """The request's player. A request without a (valid) identity gets a new id in the signed
    cookie and is answered as a new visitor, kept nowhere: a player is stored when they first
    sit down or reset, so requests without a cookie cost nothing."""
    pid = request.session.get("pid")
    if not isinstance(pid, str) or not pid:
        pid = secrets.token_urlsafe(12)
        request.session["pid"] = pid
    p = hub.player(pid, create=True, keep=False)
    assert p is not None
    return p


def signing_key(settings: Settings, storage: Storage) -> str:
    """The key that signs identity cookies. Next to an SQLite database it is a file of its own
    (``cookie.key``, mode 0600, made once), so the hand database never holds it; an older
    install's key, kept in the database, moves to that file (its cookies stay valid) and
    leaves the database. PostgreSQL keeps it in the database, which several processes share.

    The database is asked whether it holds a key before :meth:`Storage.secret_key` reads it:
    that method makes a key when there is none, and a new install's key belongs in the file
    only."""
    if settings.secret_key:
        return settings.secret_key
    if not storage.sqlite:
        return storage.secret_key()
    path = settings.key_file()
    key = read_key(path)
    in_db = _key_in_database(storage)
    if key is None:
        key = make_key(path, storage.secret_key() if in_db else secrets.token_urlsafe(32))
    if in_db:  # moved: the file has it now (the row goes only if it is the same key)
        with storage.engine.begin() as conn:
            conn.execute(delete(meta_table).where(meta_table.c.key == "secret_key",
                                                  meta_table.c.value == key))
    return key


def _key_in_database(storage: Storage) -> bool:
    with storage.engine.connect() as conn:
        return conn.execute(select(meta_table.c.key).where(
            meta_table.c.key == "secret_key")).first() is not None


def operator(request: Request, settings: Settings) -> bool | None:
    """Whether the request is an operator's: it carries the operator token
    (``Authorization: Bearer TOKEN``, :attr:`Settings.operator_token`), compared in constant
    time. None: it carries a token that is not the one (answered 403, not quietly as
    anyone)."""
    kind, _, given = request.headers.get("authorization", "").partition(" ")
    if kind.lower() != "bearer" or not given.strip():
        return False
    token = settings.operator_token
    if token and hmac.compare_digest(given.strip().encode(), token.encode()):
        return True
    return None


def client_address(scope: Scope, trusted: tuple[str, ...] = ()) -> str:
    """Where a request comes from, as the rate limits count it: the connection's peer;
    behind a reverse proxy it trusts (``trusted``: :attr:`Settings.trusted_proxies`), the
    last address ``X-Forwarded-For`` names that is not one of them (what the proxy nearest
    the client saw; whatever the client wrote before it is not believed). Nobody is trusted
    by default: a client cannot name its own address. An IPv6 address counts as its /64 (one
    subscriber's block)."""
    client = scope.get("client")
    address = str(client[0]) if client else ""
    if trusted and _within(address, trusted):
        hops = [h.strip() for line in Headers(scope=scope).getlist("x-forwarded-for")
                for h in line.split(",") if h.strip()]
        while hops and _within(hops[-1], trusted):
            hops.pop()
        if hops:
            address = hops[-1]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


def _within(address: str, networks: tuple[str, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(n, strict=False) for n in networks)


def _same_origin(headers: Headers) -> bool:
    """A browser's request from this server's own page (or from no page: a program)."""
    origin = headers.get("origin")
    return not origin or urlparse(origin).netloc.lower() == headers.get("host", "").lower()


def _hostname(header: str) -> str:
    """The host of a Host header, without its port or an IPv6 address's brackets."""
    host = header.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.partition(":")[0]


class HostCheck(TrustedHostMiddleware):
    """Starlette's ``TrustedHostMiddleware`` (400 for a Host it does not serve), which also
    answers at the address the request came in on: an IP address is no DNS name a page can
    rebind, so ``--host 192.168.1.5`` answers at ``http://192.168.1.5:port/`` (the in-process
    test client's "testserver" is its own URL's host too)."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...]) -> None:
        super().__init__(app, allowed_hosts=list(allowed_hosts), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server = scope.get("server") if scope["type"] in ("http", "websocket") else None
        if server and _hostname(Headers(scope=scope).get("host", "")) == \
                str(server[0]).lower():
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


async def server_error(request: Request, exc: Exception) -> Response:
    """An error in a handler: logged, and answered in words, never with its text. Starlette
    raises the exception again once this answer is sent, and the server logs its traceback
    (uvicorn's "Exception in ASGI application"), so this line names only the request."""
    log.error("%s %s failed: %s (its traceback follows in the server's log)", request.method,
              request.url.path, type(exc).__name__)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": t(SERVER_ERROR).to_json()}, status_code=500)
    return PlainTextResponse(_in_both(t(SERVER_ERROR)), status_code=500)


def ports(settings: Settings, hub: Hub) -> Callable[[Room], Ports]:
    """One process or several nodes: the room's ports (room/ports.py), chosen here, once.
    Several nodes (``Settings.node_id``, ``tapete serve --database postgresql... --redis``):
    PostgreSQL leases, Redis fanout and the bankroll in PostgreSQL (server/cluster.py); one
    process: every table its own, delivery in memory, the bankroll it holds
    (server/alone.py)."""
    if settings.node_id is not None:
        return cluster.ports(hub, settings, settings.node_id)
    return alone.ports(RoomBankroll(hub), hub.storage.room_move_keys)


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    storage = Storage(settings.db_url(), settings.starting_bankroll)
    secret = signing_key(settings, storage)
    hub = Hub(settings, storage)
    room = Room(hub, ports=ports(settings, hub), think_ms=int(settings.think_delay * 1000),
                pause_ms=int(settings.result_pause * 1000), group_commit=True)
    hub.room = room
    # who runs a table, and what the other nodes are told (room/ports.py): from here on, the
    # same code for one process and for several nodes
    ownership, fanout = room.ownership, room.fanout
    room.practice_kit = lambda table_id: PracticeBots(table_id, settings, room.bankroll)
    room.tournaments = tournaments.Tournaments(room)  # restored at start-up
    room.restore_sngs = sitngo.restore_all
    limits = settings.limits
    quiet_uvicorn()

    async def index(request: Request) -> Response:
        _player(request, hub)
        resp = FileResponse(WEB_DIR / "table" / "index.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def me(request: Request) -> Response:
        """The person's money: their bankroll and their chips at tables, every table on
        every node, as the database holds them (each hand's start, plus chips brought
        since); a practice table's as its page shows them now."""
        p = _player(request, hub)
        await p.purse.flush()  # the moves this process made for them, stored
        out = p.me()
        row = await run_in_threadpool(storage.get_player, p.id) if p.stored else None
        if row is not None:
            here = out["at_table"] + out["in_pot"]  # the practice table's, live
            out["bankroll"] = row.bankroll
            out["at_table"] += max(0, row.at_table - here)
            out["total"] = out["bankroll"] + out["at_table"] + out["in_pot"]
        return JSONResponse(out)

    # the database is read in a worker thread: a slow query never holds up the tables
    async def hands(request: Request) -> Response:
        p = _player(request, hub)
        rows = await run_in_threadpool(storage.list_hands, p.id, MAX_LISTED)
        return JSONResponse([h.summary for h in rows])

    async def _row(request: Request) -> HandRow | None:
        p = _player(request, hub)
        return await run_in_threadpool(storage.get_hand, p.id,
                                       str(request.path_params["hand_id"]))

    async def hand_phh(request: Request) -> Response:
        row = await _row(request)
        if row is None:
            return PlainTextResponse(_in_both(t(NO_HAND), " / "), status_code=404)
        from tapete.history import phh

        def write() -> str:
            deal = fair_deal(row)
            return phh.dumps(rebuild(row), extra=None if deal is None else phh.fair_fields(deal))

        try:
            text = await run_in_threadpool(write)
        except phh.PhhError as exc:  # a hand PHH cannot express (a run twice)
            return PlainTextResponse(_in_both(t("this hand cannot be written as PHH: {why}",
                                                why=exc.message)), status_code=422)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="tapete-{row.hand_id}.phh"'})

    async def hand_json(request: Request) -> Response:
        row = await _row(request)
        if row is None:
            return JSONResponse({"error": t(NO_HAND).to_json()}, status_code=404)
        events = await run_in_threadpool(
            lambda: [ev.to_json(e) for e in rebuild(row).events])
        return JSONResponse({"hand_id": row.hand_id, "rules": row.rules,
                             "setup": row.setup, "summary": row.summary, "events": events})

    # ------------------------------------------------------------------ the room
    async def room_page(request: Request) -> Response:
        _player(request, hub)
        resp = FileResponse(WEB_DIR / "room" / "index.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def room_table_page(request: Request) -> Response:
        _player(request, hub)
        table_id = str(request.path_params["table_id"])
        if not await ownership.exists(table_id):
            return PlainTextResponse(_in_both(t(NO_TABLE)), status_code=404)
        resp = FileResponse(WEB_DIR / "table" / "index.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def over_limits(request: Request, pid: str) -> Response | None:
        """Whether ``pid`` may open tables (a table, or a tournament, which opens them), as
        one person and from one address (a new identity is one request away): counted over
        every node (Redis), or by this one. None: yes, and counted; else the 429 to send."""
        window = settings.tables_window_s
        if not await fanout.allow(f"open:{pid}", settings.tables_per_identity, window):
            return JSONResponse({"error": t("You have opened {made} tables: play at one of"
                                            " them.", made=settings.tables_per_identity
                                            ).to_json()}, status_code=429)
        address = client_address(request.scope, settings.trusted_proxies)
        if settings.tables_per_address and not await fanout.allow(
                f"open-from:{address}", settings.tables_per_address, window):
            return JSONResponse({"error": t(TOO_MANY_FROM_ADDRESS).to_json()},
                                status_code=429)
        return None

    async def room_tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse(room.listing())
        if not _same_origin(request.headers):
            return JSONResponse({"error": t(FOREIGN_PAGE).to_json()}, status_code=403)
        p = _player(request, hub)
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": t(NOT_JSON).to_json()}, status_code=400)
        try:
            config = room.table_config(body)
        except RoomRefused as exc:
            return JSONResponse({"error": exc.to_json()}, status_code=400)
        refused = await over_limits(request, p.id)
        if refused is not None:
            return refused
        try:
            table_id = room.create_for(p.id, config)
        except RoomRefused as exc:
            return JSONResponse({"error": exc.to_json()}, status_code=400)
        return JSONResponse({"table": table_id, "url": f"/t/{table_id}"}, status_code=201)

    async def table_ws(ws: WebSocket) -> None:
        """The one door of every table, served by one :class:`Session` per connection:
        ``/ws/t/{table_id}`` (a room table, a home game, a tournament's table) and ``/ws``,
        the alias of the person's own practice table (or sit-and-go), their lobby while they
        have none."""
        # a browser's page must be this server's own (its Host checked by HostCheck)
        if not _same_origin(ws.headers):
            await ws.close(code=4403)
            return
        pid = ws.session.get("pid") if "session" in ws.scope else None
        table_id = ws.path_params.get("table_id")
        running = room.get(str(table_id)) if table_id is not None else None
        person = hub.player(pid, create=True) if table_id is None and isinstance(pid, str) \
            and pid else None
        await ws.accept()
        if not isinstance(pid, str) or not pid or table_id is None and person is None:
            await ws.send_text(error_message("no_identity", t(NO_IDENTITY)))
            await ws.close(code=4401)
            return
        if table_id is None:
            assert person is not None
            await _practice_door(ws, person)
        else:
            await _room_door(ws, str(table_id), pid, running)

    async def _practice_door(ws: WebSocket, p: Player) -> None:
        if p.game is None:  # several nodes: their practice table may be elsewhere
            try:
                where = await ownership.practice_route(p.id)
            except Exception as exc:  # the database out of reach: try again later
                if not await unavailable(ws, ownership, exc, "practice"):
                    raise
                return
            if isinstance(where, str):
                await _moved(ws, where)
                return
            if where is not None:
                again = hub.player(p.id, create=True)  # sits at it again (restored here)
                assert again is not None
                p = again
        if len(p.sessions) >= limits.max_tabs:
            await ws.send_text(error_message("too_many_tabs", t(TOO_MANY_TABS)))
            await ws.close(code=CLOSE_POLICY)
            return
        session = Session(Outbox(limits), p.id, person=p)
        p.attach(session)
        fanout.changed()
        try:
            await serve(ws, session.box, lambda raw: session.handle(raw), session.sent)
        finally:
            p.detach(session)
            hub.forget(p)
            fanout.changed()

    async def _room_door(ws: WebSocket, table_id: str, pid: str,
                         running: Running | None) -> None:
        query = ws.query_params
        if running is None and query.get("watch") == "1" and query.get("records") == "1" \
                and await fanout.watch(ws, table_id, pid, limits):
            return  # a spectator watching from here a table another node runs
        if running is None:  # several nodes: the table may be elsewhere
            try:
                where = await ownership.route(table_id)
            except Exception as exc:  # the database out of reach: try again later
                if not await unavailable(ws, ownership, exc, table_id):
                    raise
                return
            if isinstance(where, str):
                await _moved(ws, where)
                return
            running = room.get(table_id) if where is not None else None
        # the connections served count (a redirect does not: a client following its table
        # after a node's death must not run out of them)
        if not await fanout.connects(pid):
            await ws.send_text(error_message("rate", t(TOO_MANY_TABS)))
            await ws.close(code=CLOSE_POLICY)
            return
        if running is None:
            await ws.send_text(error_message("no_table", t(NO_TABLE)))
            await ws.close(code=4404)
            return
        if running.tabs.get(pid, 0) >= limits.max_tabs:
            await ws.send_text(error_message("too_many_tabs", t(TOO_MANY_TABS)))
            await ws.close(code=CLOSE_POLICY)
            return
        try:
            after = max(0, int(query.get("after", "0")))
        except ValueError:
            after = 0
        box = Outbox(limits, batch=query.get("batch") == "1")
        await hub.load(pid)  # a stored player, loaded once for the states
        conn = Session(box, pid, part=room.part, running=running,
                       records=query.get("records") == "1",
                       every_state=query.get("states") != "turn")
        table_run = running

        def subscribe() -> None:  # a client that asks for no records is sent none of the past
            table = table_run.table
            table.subscribe(conn, after if conn.records else table.seq)

        try:
            if ownership.moved_away(table_id, running):
                raise RoomRefused(t(NO_TABLE))  # dropped here while the client came in
            await running.owner.call(subscribe)
        except RoomRefused as exc:
            if ownership.moved_away(table_id, running):
                await _moved(ws)  # dropped here meanwhile
                return
            await ws.send_text(error_message("no_spectators", exc.message))
            await ws.close(code=4403)
            return
        except Exception as exc:  # its backlog unread: the database out of reach
            if not await unavailable(ws, ownership, exc, table_id):
                raise
            return
        running.join(conn)
        fanout.changed()
        if ownership.moved_away(table_id, running):
            running.part(conn)  # dropped between the two: its new owner has it
            await _moved(ws)
            return
        conn.schedule_state()
        drain = asyncio.get_running_loop().create_task(conn.drain())
        try:
            await serve(ws, box, conn.handle)
        finally:
            drain.cancel()
            running.part(conn)
            fanout.changed()
            # a table dropped here (several nodes), or closed (Room.sweep), has no owner
            if room.tables.get(table_id) is running:
                with contextlib.suppress(Exception):
                    await running.owner.call(running.table.unsubscribe, conn)

    async def node_info(request: Request) -> Response:
        """This node: its tables (counted; the ids of those anyone may know of, every id for
        an operator: :func:`operator`), what went wrong at its tables (``room``: faults,
        database outages, tables closed for failing twice the same way) and, several nodes,
        its id, leases claimed, lost and released, and the writes of a lost lease refused."""
        everything = operator(request, settings)
        if everything is None:
            return JSONResponse({"error": t(NOT_OPERATOR).to_json()}, status_code=403)
        info = ownership.info(everything)
        info["room"] = dict(room.counts)
        return JSONResponse(info)

    async def presence(request: Request) -> Response:
        """Who is online in the room, and at each table anyone may know of; the private
        tables only counted (several nodes: every node's, merged through Redis; one node:
        its own)."""
        return JSONResponse(fanout.presence())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # visitors stored by older versions who never played go (a row per request once)
        await asyncio.to_thread(storage.expire_players, VISITORS_EXPIRE)
        # the bots' and the coach's numba kernels load in the background, once per process:
        # the first decision and the coach's first answer do not wait for them
        warm = coach.start_warm_up()
        if settings.warm_workers:  # the replayer's workers: running before any request
            work.start(replay_warm_up)
        await room.start()
        tasks = Tasks(ownership.faults)
        if settings.freeze_heap:  # supervised: started again if it ever dies
            tasks.keep(lambda: _tend_heap(warm), "the heap's tending")
        yield
        await tasks.stop()
        await room.stop()
        await hub.close()
        storage.close()
        work.shutdown()  # the replayer's worker processes

    routes: list[Any] = [
        Route("/", index),
        Route("/api/me", me),
        Route("/api/hands", hands),
        Route("/api/hands/{hand_id}.phh", hand_phh),
        Route("/api/hands/{hand_id}.json", hand_json),
        *replay_routes(WEB_DIR),  # the web replayer: /replay, /api/replay/...
        *analysis_routes(),  # its tournament equity: /api/icm
        WebSocketRoute("/ws", table_ws),  # the person's practice table: the same door
        Route("/room", room_page),
        Route("/api/room/tables", room_tables, methods=["GET", "POST"]),
        *room_exports.routes(room),  # a table's ledger and hand histories
        *tournaments.routes(room.tournaments, hub, _player, _same_origin, over_limits),
        Route("/api/room/node", node_info),
        Route("/api/room/presence", presence),
        Route("/t/{table_id}", room_table_page),
        WebSocketRoute("/ws/t/{table_id}", table_ws),
        Mount("/web", StaticFiles(directory=WEB_DIR), name="web"),
    ]
    middleware = [Middleware(Sockets, send_buffer=limits.send_buffer),  # outermost
                  Middleware(HostCheck, allowed_hosts=settings.allowed_hosts),
                  Middleware(SessionMiddleware, secret_key=secret, session_cookie=COOKIE,
                             max_age=TEN_YEARS, same_site="lax")]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={Exception: server_error})
    app.state.hub = hub
    app.state.room = room
    app.state.ownership = ownership
    app.state.storage = storage
    app.state.settings = settings
    return app


async def _moved(ws: WebSocket, url: str | None = None) -> None:
    """Several nodes: tell a client where its table is (None: try again) and let it go."""
    with contextlib.suppress(Exception):  # a client gone meanwhile
        await ws.send_text(moved_message(url))
        await ws.close(code=CLOSE_MOVED)


FULL_COLLECTION_S = 600.0  # how often the garbage collector's oldest generation is collected


async def _tend_heap(warm: threading.Thread) -> None:
    """The garbage collector on the server's schedule. Once the kernels are loaded and the
    tables restored, what start-up made lives as long as the process: ``gc.freeze`` moves it
    out of the collector's sight. Then the oldest generation is collected every
    ``FULL_COLLECTION_S``, not each time a quarter more objects survived (which, at 200 busy
    tables, was every few seconds): a full collection scans every connection's objects and
    held the event loop for 100 to 280 ms, a latency spike at every table. Reference counting
    frees almost everything at once; what waits for the next full collection is the few
    objects in reference cycles (a few hundred a collection at that load)."""
    await asyncio.to_thread(warm.join)
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1 << 30)  # the oldest generation: only when asked
    while True:
        await asyncio.sleep(FULL_COLLECTION_S)
        gc.collect()

