"""The Starlette application: the page, the static files, the hand downloads, the WebSocket.

Identity is an anonymous id in a signed cookie (itsdangerous, through Starlette's session
middleware); the signing key is made once and kept in the database, so identities and
bankrolls survive restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import events as ev
from ..hand import Hand
from .config import Settings
from .game import Outbox, rules_from_json
from .hub import Hub, Player
from .storage import HandRow, Storage

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
COOKIE = "tapete_id"
TEN_YEARS = 10 * 365 * 24 * 3600


def _player(request: Request, hub: Hub) -> Player:
    pid = request.session.get("pid")
    p = hub.player(pid) if isinstance(pid, str) else None
    if p is None:
        row = hub.storage.new_player()
        request.session["pid"] = row.id
        p = hub.player(row.id)
        assert p is not None
    return p


def rebuild(row: HandRow, for_player: bool = True) -> Hand:
    """A stored hand, replayed from its events; the cards the player never saw stay hidden."""
    setup = dict(row.setup)
    you = setup.pop("you", None)
    events = [ev.from_json(e) for e in row.events]
    if for_player:
        shown = {e.player for e in events if isinstance(e, ev.Shown)}
        events = [ev.HoleDealt(e.player, None)
                  if isinstance(e, ev.HoleDealt) and e.player != you and e.player not in shown
                  else e for e in events]
    stacks = setup.pop("stacks")
    return Hand.from_events(rules_from_json(row.rules), stacks, events, **setup)


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    storage = Storage(settings.db_url(), settings.starting_bankroll)
    secret = settings.secret_key or storage.secret_key()
    hub = Hub(settings, storage)

    async def index(request: Request) -> Response:
        _player(request, hub)
        resp = FileResponse(WEB_DIR / "table" / "index.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def me(request: Request) -> Response:
        return JSONResponse(_player(request, hub).me())

    async def hands(request: Request) -> Response:
        p = _player(request, hub)
        return JSONResponse([h.summary for h in storage.list_hands(p.id, 200)])

    def _row(request: Request) -> HandRow | None:
        p = _player(request, hub)
        return storage.get_hand(p.id, str(request.path_params["hand_id"]))

    async def hand_phh(request: Request) -> Response:
        row = _row(request)
        if row is None:
            return PlainTextResponse("no such hand / no existe esa mano\n", status_code=404)
        from ..history import phh

        try:
            text = phh.dumps(rebuild(row))
        except Exception as exc:  # a hand PHH cannot express (a dead blind)
            return PlainTextResponse(f"this hand cannot be written as PHH: {exc}\n"
                                     f"esta mano no se puede escribir en PHH: {exc}\n",
                                     status_code=422)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="tapete-{row.hand_id}.phh"'})

    async def hand_json(request: Request) -> Response:
        row = _row(request)
        if row is None:
            return JSONResponse({"error": {"en": "no such hand", "es": "no existe esa mano"}},
                                status_code=404)
        hand = rebuild(row)
        return JSONResponse({"hand_id": row.hand_id, "rules": row.rules,
                             "setup": row.setup, "summary": row.summary,
                             "events": [ev.to_json(e) for e in hand.events]})

    async def ws_endpoint(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin and urlparse(origin).netloc != ws.headers.get("host"):
            await ws.close(code=4403)
            return
        pid = ws.session.get("pid") if "session" in ws.scope else None
        p = hub.player(pid) if isinstance(pid, str) else None
        await ws.accept()
        if p is None:
            await ws.send_json({"type": "error", "code": "no_identity", "message": {
                "en": "No player identity: reload the page.",
                "es": "Sin identidad de jugador: recarga la página."}})
            await ws.close(code=4401)
            return
        box = Outbox()

        async def writer() -> None:
            while True:
                data, stamp = await box.queue.get()
                await ws.send_text(data)
                if stamp is not None and p.game is not None:
                    p.game.latencies.append(_now() - stamp)

        task = asyncio.get_running_loop().create_task(writer())
        p.attach(box)
        try:
            while True:
                raw = await ws.receive_text()
                p.handle(box, raw)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            p.detach(box)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await hub.close()
        storage.close()

    from .analysis import routes as analysis_routes
    from .replayer import routes as replay_routes

    routes: list[Any] = [
        Route("/", index),
        Route("/api/me", me),
        Route("/api/hands", hands),
        Route("/api/hands/{hand_id}.phh", hand_phh),
        Route("/api/hands/{hand_id}.json", hand_json),
        *replay_routes(),  # the web replayer: /replay, /api/replay/...
        *analysis_routes(),  # its tournament equity: /api/icm
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/web", StaticFiles(directory=WEB_DIR), name="web"),
    ]
    middleware = [Middleware(SessionMiddleware, secret_key=secret, session_cookie=COOKIE,
                             max_age=TEN_YEARS, same_site="lax")]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.hub = hub
    app.state.storage = storage
    app.state.settings = settings
    return app


def _now() -> float:
    import time

    return time.perf_counter()
