"""The room in a real browser: three people (three browser contexts: three identities) and a
spectator at one private table opened from its link.

The host opens the table from the lobby's form (seats without the host's approval); the others
come by its link and take seats by clicking. They play 30 hands by clicking; one goes away
mid-hand and comes back; one lets the clock run out and is sat out. Every frame the spectator's
page receives is kept and checked against the table's log: no hole card is shown before the log
has shown it. Screenshots of each step go to test-artifacts/room/.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser import ARTIFACTS as ALL_ARTIFACTS
from browser import LiveServer, chromium, require_chromium
from waiting import bound

playwright_sync = require_chromium()

from tapete.server import Settings, create_app  # noqa: E402

ARTIFACTS = ALL_ARTIFACTS / "room"
HANDS = 30
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("room"), think_delay=0.0,
                        result_pause=0.6)
    with LiveServer(create_app(settings)) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_sync, ARTIFACTS) as b:
        yield b


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


MY_TURN = """() => { const b = document.getElementById('btn-call');
  return b.offsetParent !== null && !b.disabled; }"""
AWAY = "() => document.getElementById('away').offsetParent !== null"
HAND_NO = "() => (document.body.dataset.handId || '').split('-').pop()"


def hand_no(page: Any) -> int:
    got = page.evaluate(HAND_NO)
    return int(got) if got and got.isdigit() else 0


def click_turn(page: Any, k: int) -> bool:
    """If it is this page's turn, click: mostly check or call, sometimes a raise or a fold."""
    if not page.evaluate(MY_TURN):
        return False
    if k % 11 == 5 and page.locator("[data-testid=btn-raise]").is_visible():
        page.click("[data-testid=btn-raise]")
    elif k % 13 == 7 and page.locator("[data-testid=btn-fold]").is_enabled():
        page.click("[data-testid=btn-fold]")
    else:
        page.click("[data-testid=btn-call]")
    return True


def test_three_people_and_a_spectator_at_a_private_table(server: LiveServer,
                                                         browser: Any) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(3)]
    watcher_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    pages = [c.new_page() for c in contexts]
    errors: list[str] = []
    for pg in pages:
        pg.on("pageerror", lambda e: errors.append(str(e)))
    host, bea, cid = pages

    # the host opens a private table from the lobby: 10 s to act, no time bank
    host.goto(server.url + "room")
    host.check("[data-testid=private]")
    # a private table's creator hosts it; here the seats need no approval
    host.uncheck("[data-testid=approve-seats]")
    host.select_option("[data-testid=act-time]", "10")
    host.select_option("[data-testid=bank-time]", "0")
    host.select_option("[data-testid=seats]", "4")
    shot(host, "01-lobby-form")
    host.click("[data-testid=create]")
    host.wait_for_url("**/t/*")
    link = host.url
    table_id = link.rsplit("/", 1)[-1]
    # private: the lobby does not list it
    listed = json.loads(host.evaluate("fetch('/api/room/tables').then(r => r.text())"))
    assert all(t["table"] != table_id for t in listed)

    # the spectator comes by the link, on a phone; every frame it receives is kept
    watcher = watcher_ctx.new_page()
    frames: list[dict[str, Any]] = []

    def keep(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    watcher.on("websocket", keep)
    watcher.goto(link)

    for k, (pg, name) in enumerate(((host, "Host"), (bea, "Bea"), (cid, "Cid"))):
        if pg is not host:
            pg.goto(link)
        pg.wait_for_selector(f"[data-testid=sit-here-{k}]", state="visible")
        pg.click(f"[data-testid=sit-here-{k}]")
        pg.fill("[data-testid=seat-name]", name)
        if k == 0:
            shot(pg, "02-take-seat")
        pg.click("[data-testid=take-seat-ok]")
    for pg in pages:
        pg.wait_for_function("() => document.body.dataset.seated === '1'")
    shot(host, "03-seated")

    # play by clicking; once, mid-hand, Bea goes away and comes back; once Cid lets the
    # clock run out and is sat out
    away_done = timeout_done = fair_seen = False
    letting_run: int | None = None
    k = 0
    deadline = time.monotonic() + bound(900)  # a bound: the loop ends at HANDS hands
    while hand_no(host) <= HANDS and time.monotonic() < deadline:
        n = hand_no(host)
        if not away_done and n == 4 and host.evaluate("document.body.dataset.phase") == "betting":
            bea.goto("about:blank")  # the connection drops, mid-hand
            shot(host, "04-bea-away")
            time.sleep(1.0)
            bea.goto(link)
            bea.wait_for_function("() => document.body.dataset.seated === '1'")
            shot(bea, "05-bea-back")
            away_done = True
        if not timeout_done and letting_run is None and n >= 8 and cid.evaluate(MY_TURN):
            shot(cid, "06-cid-to-act")
            letting_run = n  # Cid does not click: the clock runs out
        if letting_run is not None and not timeout_done and cid.evaluate(AWAY):
            shot(cid, "07-cid-sat-out")
            assert "sitting out" in cid.inner_text("#away").lower()
            cid.click("[data-testid=btn-back]")
            timeout_done = True
        if not fair_seen and host.evaluate("document.body.dataset.phase") == "betting":
            # the hand's commitment (provably fair dealing), shown since before its cards
            badge = host.locator("[data-testid=fair-deal]")
            text, title = badge.inner_text(), badge.get_attribute("title") or ""
            digest = title.rsplit(" ", 1)[-1]
            assert badge.is_visible() and len(digest) == 64 and text.endswith(digest[:8]), \
                (text, title)
            fair_seen = True
        acted = False
        for pg in pages:
            if pg is cid and letting_run is not None and not timeout_done:
                continue  # Cid lets the clock run
            acted = click_turn(pg, k) or acted
            k += 1
        if k % 40 == 0:
            shot(host, f"10-hand-{n:02d}")
        if not acted:
            time.sleep(0.1)
    shot(host, "20-host-end")
    shot(watcher, "21-spectator-end")
    assert hand_no(host) > HANDS, "30 hands were not played in time"
    assert away_done and timeout_done and fair_seen
    assert errors == []
    # the hands tab lists this table's hands the host played, each to download and replay
    host.click("[data-testid=tab-hands]")
    host.wait_for_function(
        "() => document.querySelectorAll('#hand-list [data-testid=replay-link]').length >= 10")
    first = host.locator("#hand-list li").first
    assert (first.get_attribute("data-hand-id") or "").startswith(table_id + "-")
    shot(host, "22-host-hands")

    # the spectator never saw a hole card the log had not shown yet
    running = server.app.state.room.get(table_id)
    log = server.app.state.room.log
    shown_at: dict[tuple[str, int], int] = {}
    current = 0
    for r in log.read(table_id):
        if r.kind == "event" and r.payload["event"]["type"] == "Shown":
            shown_at[(f"{table_id}-{current}", r.payload["event"]["player"])] = r.seq
        if r.kind == "start":
            current = r.payload["hand_no"]
    states = [f for f in frames if f.get("type") == "state" and f.get("hand")]
    assert len(states) > HANDS
    seen_cards = 0
    for f in states:
        assert f["room"]["seated"] is False and f["hand"]["you"] is None
        for p, pl in enumerate(f["hand"]["players"]):
            if pl["cards"] is not None:
                seen_cards += 1
                at = shown_at.get((f["hand"]["hand_id"], p))
                assert at is not None and at <= f["room"]["seq"], (f["hand"]["hand_id"], p)
    assert seen_cards > 0  # showdowns were watched
    running.table.check_books()
    for c in [*contexts, watcher_ctx]:
        c.close()
