"""The web replayer's routes: the page, and the hands it replays, each worked on apart.

A hand comes from the practice room's storage (``/replay/{hand_id}``), from an uploaded PHH or
PokerStars file (multi-hand files list their hands), from a shared link (:mod:`.sharelink`, in
the URL fragment ``#h=...``), or from a file that ``tapete replay FILE --open`` preloaded
(``/replay/f/{key}``, :mod:`.local`). The frames are :mod:`.timeline`'s, which is pure; this
module only reads requests and answers them.

What a visitor sends is bounded (a body of ``MAX_UPLOAD`` bytes, read with its cap; a link of
``MAX_LINK`` characters; an answer of ``MAX_RESPONSE`` bytes; and what :mod:`.timeline` bounds)
and worked on in a worker process (:mod:`.work`): the event loop that deals the tables only
reads the body and waits for the JSON text of the answer. Every answer is a model of
:mod:`.replay_protocol`, encoded with msgspec: nothing is sent that it does not describe.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

from tapete.core.catalog import N_, t
from tapete.core.text import Text
from tapete.history.formats import decode as decode_bytes
from tapete.server import replay_protocol as rp
from tapete.server import sharelink, work
from tapete.server.sharelink import MAX_LINK as MAX_LINK
from tapete.server.sharelink import encode as encode_hand
from tapete.server.timeline import MAX_EVENTS as MAX_EVENTS
from tapete.server.timeline import MAX_LISTED as MAX_LISTED
from tapete.server.timeline import ReplayInputError as ReplayInputError
from tapete.server.timeline import breakdown as breakdown
from tapete.server.timeline import file_answer as file_answer
from tapete.server.timeline import file_timeline as file_timeline
from tapete.server.timeline import parse_text as parse_text
from tapete.server.timeline import record_answer as record_answer
from tapete.server.timeline import street_equity as street_equity
from tapete.server.timeline import timeline as timeline
from tapete.server.timeline import timeline_answer as timeline_answer
from tapete.server.timeline import timeline_of_record as timeline_of_record

if TYPE_CHECKING:
    from tapete.server.storage import HandRow

MAX_UPLOAD = 8 * 1024 * 1024  # bytes of an uploaded file
MAX_RESPONSE = 16 * 1024 * 1024  # bytes of the JSON answer (1,500 frames of 9 players fit)
DEADLINE = 60.0  # seconds of work for one request (an 8 MB file takes a few)

log = logging.getLogger("tapete.server")


def link_answer(code: str) -> rp.Timeline:
    """The timeline of a shared link's code (raises :class:`ReplayInputError`)."""
    try:
        record = sharelink.decode(code)
    except sharelink.LinkError as exc:
        raise ReplayInputError(exc.message) from None
    return record_answer(record)


def decode_link(code: str) -> dict[str, Any]:
    """:func:`link_answer` as plain JSON values."""
    out: dict[str, Any] = msgspec.json.decode(rp.encode(link_answer(code)))
    return out


# ---------------------------------------------------------------------------- the work
# (each job runs in a worker process and answers with its status and JSON text)

def warm_up() -> float:
    """What a worker does before its first job when the server starts it (:func:`work.start`):
    load the equity kernels (hold'em's exact and Monte Carlo) and the evaluators' tables and
    kernels, hold'em's and Omaha's, which the first replay would otherwise wait for (seconds
    on a busy machine). Returns the seconds it took."""
    import time

    from tapete.eval import equity, omaha
    from tapete.ranking import bulk, omaha_bulk

    started = time.perf_counter()
    equity.warm_up()
    bulk.warm_up()
    omaha.warm_up()
    omaha_bulk.warm_up()
    return time.perf_counter() - started


def _answer(make: Callable[[], rp.Timeline | rp.FileAnswer], limit: int) -> tuple[int, bytes]:
    """The status and JSON text of what ``make`` gives, or of its refusal; an answer over
    ``limit`` bytes is refused."""
    try:
        body = rp.encode(make())
    except ReplayInputError as exc:
        return exc.status, rp.encode(rp.error(exc.message))
    if len(body) > limit:
        size = f"{limit // 1048576} MB" if limit >= 1048576 else f"{limit} bytes"
        return 422, rp.encode(rp.error(t("this replay would be too large to send (more than"
                                         " {size})", size=size)))
    return 200, body


def upload_job(data: bytes, name: str, index: int, limit: int) -> tuple[int, bytes]:
    """An uploaded file: its hands and the timeline of one (``/api/replay/upload``)."""
    def make() -> rp.FileAnswer:
        if not data.strip():
            raise ReplayInputError(t("the file is empty"))
        return file_answer(decode_bytes(data), name, index)

    return _answer(make, limit)


def file_job(text: str, name: str, index: int, limit: int) -> tuple[int, bytes]:
    """A preloaded file (``/api/replay/file/{key}``)."""
    return _answer(lambda: file_answer(text, name, index), limit)


def link_job(data: bytes, limit: int) -> tuple[int, bytes]:
    """A shared link's code (``/api/replay/link``)."""
    return _answer(lambda: link_answer(data.decode("ascii", "replace")), limit)


def stored_job(row: HandRow, limit: int) -> tuple[int, bytes]:
    """A hand of the player's stored hands, the practice table's or a room table's
    (``/api/replay/hand/{id}``)."""
    from tapete.core import fair
    from tapete.server.stored import fair_deal, rebuild

    def make() -> rp.Timeline:
        hand = rebuild(row)
        out = timeline_answer(hand, title=f"#{row.number}", source="tapete",
                              share=encode_hand(hand), partial=not hand.done)
        deal = fair_deal(row)
        if deal is not None:  # dealt as committed? (the panel the PHH files have too)
            out.fairness = rp.fairness(fair.verify(hand.setup, hand.events, deal.deck,
                                                   deal.secret, deal.commitment))
        return out

    return _answer(make, limit)


# ---------------------------------------------------------------------------- routes

PAGE = "replayer/index.html"
_FILE_TOO_LARGE = N_("the file is too large (8 MB at most)")
_LINK_TOO_LONG = N_("this shared link is too long")


def _error(message: Text, status: int) -> Response:
    return Response(rp.encode(rp.error(message)), status_code=status,
                    media_type="application/json")


def _guard(handler: Any, too_large: str = _FILE_TOO_LARGE) -> Any:
    """Errors become a JSON message for the page, in words: never a traceback, nor the text of
    an exception (that goes to the log)."""
    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except ReplayInputError as exc:
            return _error(exc.message, exc.status)
        except work.BodyTooLarge:
            return work.error(t(too_large), 413, close=True)
        except (work.Busy, work.TooSlow, work.BodyTimeout, ClientDisconnect) as exc:
            return work.refusal(exc)
        except work.WorkerFailed as exc:
            log.error("replayer: %s failed in a worker: %s", request.url.path, exc)
        except Exception:
            log.exception("replayer: %s failed", request.url.path)
        return _error(t("the hand could not be replayed: {why}", why=t(work.INTERNAL)), 500)
    return wrapped


def _hand_index(request: Request) -> int:
    try:
        return int(request.query_params.get("hand", "0"))
    except ValueError:
        return 0


async def _in_worker(ticket: work.Ticket, job: Callable[..., tuple[int, bytes]], *args: Any
                     ) -> Response:
    status, body = await work.run(ticket, job, *args, MAX_RESPONSE, deadline=DEADLINE)
    return Response(body, status_code=status, media_type="application/json")


def routes(web_dir: Path) -> list[BaseRoute]:
    """The replayer's routes, for the practice room's app (``server/app.py``), which serves
    the pages from ``web_dir``."""
    from starlette.concurrency import run_in_threadpool

    async def page(request: Request) -> Response:
        resp = FileResponse(web_dir / PAGE)
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def stored(request: Request) -> Response:
        storage = request.app.state.storage
        pid = request.session.get("pid")
        with work.admit() as ticket:
            row = await run_in_threadpool(storage.get_hand, pid,
                                          str(request.path_params["hand_id"])) \
                if isinstance(pid, str) else None
            if row is None:
                return _error(t("no such hand among yours"), 404)
            return await _in_worker(ticket, stored_job, row)

    async def upload(request: Request) -> Response:
        with work.admit() as ticket:
            data = await work.read_body(request, MAX_UPLOAD)
            name = request.query_params.get("name", "upload")
            return await _in_worker(ticket, upload_job, data, name, _hand_index(request))

    async def link(request: Request) -> Response:
        with work.admit() as ticket:
            data = await work.read_body(request, MAX_LINK)
            return await _in_worker(ticket, link_job, data)

    async def preloaded(request: Request) -> Response:
        files: dict[str, tuple[str, str]] = getattr(request.app.state, "replay_files", {})
        got = files.get(str(request.path_params["key"]))
        if got is None:
            return _error(t("this file is no longer loaded"), 404)
        name, text = got
        with work.admit() as ticket:
            return await _in_worker(ticket, file_job, text, name, _hand_index(request))

    return [
        Route("/replay", page),
        Route("/replay/f/{key}", page),
        Route("/replay/{hand_id}", page),
        Route("/api/replay/hand/{hand_id}", _guard(stored)),
        Route("/api/replay/upload", _guard(upload), methods=["POST"]),
        Route("/api/replay/link", _guard(link, _LINK_TOO_LONG), methods=["POST"]),
        Route("/api/replay/file/{key}", _guard(preloaded)),
    ]


def preload(app: Any, name: str, text: str) -> str:
    """Keep a file's text in the app for ``/replay/f/{key}``; returns that path."""
    files: dict[str, tuple[str, str]] | None = getattr(app.state, "replay_files", None)
    if files is None:
        files = {}
        app.state.replay_files = files
    key = secrets.token_urlsafe(9)
    files[key] = (name, text)
    return f"/replay/f/{key}"
