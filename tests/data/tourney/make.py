"""Writes tests/data/tourney/: a room's database holding a practice sit-and-go and a room
tournament stopped mid-play, as the code that wrote it left them (tests/server/
test_tournament_fixture.py restores them). Run from a checkout's root, with that checkout's
sources: ``PYTHONPATH=src python tests/data/tourney/make.py OUT_DIR``."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = ["tests", "tests/server"]
from starlette.testclient import TestClient  # noqa: E402
from test_server import my_turn, next_state, settings  # noqa: E402

from tapete.server import create_app  # noqa: E402
from tapete.server.rooms import bot_agent  # noqa: E402

PEOPLE = ("person-a", "person-b")
BODY = {"name": "Fixture", "seats": 6, "starting_stack": 1000, "buy_in": 100,
        "max_players": 12, "bots": 10, "levels": "50/100x2 100/200x2 200/400x2 400/800x2",
        "seed": 3}


def main(out: Path) -> None:
    data = Path(tempfile.mkdtemp())
    c = TestClient(create_app(settings(data))).__enter__()
    c.get("/")
    cookies = dict(c.cookies)
    room = c.app.state.room  # type: ignore[attr-defined]
    hub = c.app.state.hub  # type: ignore[attr-defined]
    portal = c.portal
    assert portal is not None
    with c.websocket_connect("/ws") as ws:
        lobby = next_state(ws, lambda s: s["lobby"])
        start = int(lobby["me"]["bankroll"])
        ws.send_text(json.dumps({"type": "sng", "seats": 6, "speed": "turbo", "buy_in": 100}))
        while True:
            s = next_state(ws)
            if my_turn(s) and s["tournament"]["level"] >= 2:
                break
            if my_turn(s):
                legal = s["hand"]["legal"]
                ws.send_text(json.dumps({"type": "act", "seq": s["seq"],
                                         "action": "check" if legal["check"] else "fold"}))
        person = next(p for p in hub.players.values() if p.game is not None).id
        sng = next(k for k, r in room.tables.items() if r.table.config.tournament)
    tours = room.tournaments
    before = {p: portal.call(lambda p=p: int(hub.player(p, create=True).bankroll))
              for p in PEOPLE}
    tour = portal.call(lambda: tours.create(PEOPLE[0], dict(BODY)))
    for i, p in enumerate(PEOPLE):
        portal.call(lambda p=p, i=i: tours.register(tour.id, p, f"Person {i}"))

    def agents() -> None:
        for table_id in tour.tables.values():
            r = room.tables[table_id]
            for i, p in enumerate(PEOPLE):
                r.table.agents[p] = bot_agent("tag", 100 + i)
            r.owner.submit(lambda: None)

    portal.call(agents)
    end = time.monotonic() + 120
    while not portal.call(lambda: any(room.tables[x].table.hand is not None
                                      and room.tables[x].table.hand_no >= 3
                                      for x in tour.tables.values())):
        assert time.monotonic() < end
        time.sleep(0.02)
    c.__exit__(None, None, None)
    out.mkdir(parents=True, exist_ok=True)
    db = data / "tapete.sqlite3"
    src, dst = sqlite3.connect(db), sqlite3.connect(out / db.name)
    src.backup(dst)  # one file, its write-ahead log folded in
    dst.execute("VACUUM")
    src.close()
    dst.close()
    shutil.copy(data / "cookie.key", out / "cookie.key")
    (out / "fixture.json").write_text(json.dumps({
        "db": db.name, "cookies": cookies, "sng": {"table": sng, "person": person,
                                                   "bankroll_before": start},
        "tournament": {"id": tour.id, "people": list(PEOPLE), "bankroll_before": before},
    }, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
