"""The practice table in a real browser: the system's Chromium, headless, driven by Playwright.

Playwright never downloads a browser here: the tests use /usr/bin/chromium (Debian's package)
and are skipped when it or Playwright is missing. Screenshots go to test-artifacts/web/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import ARTIFACTS as ALL_ARTIFACTS
from browser import LiveServer, chromium, require_chromium
from waiting import bound, until

playwright_sync = require_chromium()

from tapete.core import events as ev  # noqa: E402
from tapete.server import Settings, create_app  # noqa: E402
from tapete.server.app import rebuild  # noqa: E402

ARTIFACTS = ALL_ARTIFACTS / "web"
HANDS = 20


class Server(LiveServer):
    """The practice table's server for one browser test module (``settings`` override these:
    test_web_omaha deals another seed)."""

    def __init__(self, tmp: Path, **settings: Any) -> None:
        base: dict[str, Any] = dict(data_dir=tmp, think_delay=0.0, runout_delay=0.15,
                                    result_pause=0.05, deck_seed=11, action_time=120,
                                    time_bank=0, coach_samples=300)
        self.settings = Settings(**{**base, **settings})
        super().__init__(create_app(self.settings))

    def player(self) -> Any:
        (p,) = self.app.state.hub.players.values()
        return p

    def stored_hand(self, hand_id: str) -> Any:
        """The person's hand ``hand_id`` as stored (its row is written just after the page
        is told), rebuilt from its events."""
        p = self.player()
        until(lambda: self.app.state.storage.get_hand(p.id, hand_id) is not None)
        row = self.app.state.storage.get_hand(p.id, hand_id)
        assert row is not None
        return rebuild(row, for_player=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web")) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_sync, ARTIFACTS) as b:
        yield b


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


TURN = """() => { const vis = (id) => document.getElementById(id).offsetParent !== null;
  const c = document.getElementById('btn-call');
  return (vis('btn-call') && !c.disabled) || vis('btn-add') || vis('btn-back'); }"""


def wait_turn(page: Any) -> None:
    try:
        page.wait_for_function(TURN)
    except Exception:
        shot(page, "failed-wait")
        raise


def check_breakdown(page: Any, server: Server, hand_id: str) -> int:
    """The pot breakdown on the page is the engine's: amounts, winners, returns."""
    hand = server.stored_hand(hand_id)
    page.wait_for_selector(f"#tab-result[data-hand-id='{hand_id}']", state="attached")
    items = page.eval_on_selector_all(
        "#tab-result [data-testid=pot-breakdown] li",
        "els => els.map(e => ({kind: e.dataset.kind, amount: +e.dataset.amount,"
        " winners: e.dataset.winners, player: e.dataset.player, text: e.textContent}))")
    pots = [x for x in items if x["kind"] == "pot"]
    returned = [x for x in items if x["kind"] == "returned"]
    # the engine's record: chips awarded per pot and chips returned, from the stored events
    awards: dict[int, dict[int, int]] = {}
    for e in hand.events:
        if isinstance(e, ev.Awarded):
            awards.setdefault(e.pot, {}).setdefault(e.player, 0)
            awards[e.pot][e.player] += e.amount
    assert [x["amount"] for x in pots] == [sum(awards[i].values()) for i in sorted(awards)]
    for shown, i in zip(pots, sorted(awards), strict=True):
        names = [hand.names[q] for q in sorted(awards[i])]
        assert shown["winners"].split(",") == names
        # a sentence: "Ana wins the pot, 40", "Ana and Bruno split the main pot, 80" (words/)
        assert all(name in shown["text"] for name in names)
        assert (" wins " if len(names) == 1 else " split ") in shown["text"]
    assert [(x["player"], x["amount"]) for x in returned] == [
        (hand.names[e.player], e.amount) for e in hand.events if isinstance(e, ev.Returned)]
    return len(pots)


def test_play_twenty_hands_by_clicking(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 860}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("[data-testid=lobby]:visible")
    assert page.inner_text("[data-testid=bankroll]").endswith("10,000")
    shot(page, "01-lobby")
    page.check("input[name=structure][value=nl]")
    page.select_option("[data-testid=blinds]", "0")
    page.fill("#name", "Zoe")
    page.click("[data-testid=sit]")
    page.wait_for_selector("#room:visible")

    plan = ["call", "fold", "min", "half", "call", "slider", "pot", "fold", "typed",
            "threeq", "call", "fold", "allin", "call", "keyboard"]
    done_hands: set[str] = set()
    step = 0
    reloaded = switched = runout_shot = False
    pots_checked = side_pots = 0
    t0 = time.monotonic()
    while len(server.player().hands) < HANDS:
        assert time.monotonic() - t0 < bound(600), "the browser test is too slow"
        wait_turn(page)
        # check every finished hand's pot breakdown against the engine
        history = server.player().hands
        if history and history[0]["hand_id"] not in done_hands:
            hid = history[0]["hand_id"]
            done_hands.add(hid)
            n = check_breakdown(page, server, hid)
            pots_checked += 1
            side_pots += n > 1
        if page.is_visible("[data-testid=btn-add]"):
            page.click("[data-testid=btn-add]")
            page.wait_for_selector("[data-testid=btn-add]", state="hidden")
            continue
        if page.is_visible("[data-testid=btn-back]"):
            page.click("[data-testid=btn-back]")
            page.wait_for_selector("[data-testid=btn-back]", state="hidden")
            continue
        seq = page.evaluate("document.body.dataset.seq")
        if step == 6 and not reloaded:
            # reload in the middle of a hand: the same decision is waiting after it
            shot(page, "02-before-reload")
            page.reload()
            wait_turn(page)
            assert page.evaluate("document.body.dataset.seq") == seq
            reloaded = True
        if step == 9 and not switched:
            page.click("[data-testid=lang-toggle]")
            assert page.inner_text("[data-testid=btn-fold]") == "Retirarse"
            assert page.inner_text("[data-testid=lang-toggle]") == "English"
            # cards are named in the page's language for screen readers
            labels = page.eval_on_selector_all("[data-testid=seat-0] .card",
                                               "els => els.map(e => e.getAttribute('aria-label'))")
            assert labels and all(" de " in x for x in labels), labels
            assert page.evaluate("document.title") == "tapete · Mesa de práctica"
            shot(page, "03-spanish")
            page.click("[data-testid=lang-toggle]")
            assert page.inner_text("[data-testid=btn-fold]") == "Fold"
            switched = True
        kind = plan[step % len(plan)]
        step += 1
        # the sizing controls show only when there is an amount to choose
        can_raise = page.is_visible("[data-testid=btn-raise]") and page.is_visible(
            "[data-testid=preset-min]")
        fold_ok = page.is_enabled("[data-testid=btn-fold]")
        if kind == "fold" and fold_ok:
            page.click("[data-testid=btn-fold]")
        elif kind in ("min", "half", "threeq", "pot", "allin") and can_raise:
            sel = {"min": "preset-min", "half": "preset-half", "threeq": "preset-3q",
                   "pot": "preset-pot", "allin": "preset-allin"}[kind]
            page.click(f"[data-testid={sel}]")
            amount = int(page.input_value("[data-testid=raise-input]"))
            lo = int(page.get_attribute("[data-testid=raise-slider]", "min") or 0)
            hi = int(page.get_attribute("[data-testid=raise-slider]", "max") or 0)
            assert lo <= amount <= hi
            if kind == "allin":
                assert amount == hi
            if kind == "min":
                assert amount == lo
            page.click("[data-testid=btn-raise]")
        elif kind == "slider" and can_raise:
            slider = page.locator("[data-testid=raise-slider]")
            slider.focus()
            for _ in range(3):
                page.keyboard.press("ArrowRight")
            box = slider.bounding_box()
            page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2)
            amount = int(page.input_value("[data-testid=raise-input]"))
            assert int(page.get_attribute("[data-testid=raise-slider]", "min") or 0) <= amount
            page.click("[data-testid=btn-raise]")
        elif kind == "typed" and can_raise:
            hi = int(page.get_attribute("[data-testid=raise-slider]", "max") or 0)
            page.fill("[data-testid=raise-input]", str(hi * 10))  # too much: clamped
            page.locator("[data-testid=raise-input]").dispatch_event("change")
            assert int(page.input_value("[data-testid=raise-input]")) == hi
            # the bounds are explained on tap (and in the tooltip)
            assert "smallest" in (page.get_attribute("[data-testid=bounds-info]", "title") or "")
            if not page.is_visible("[data-testid=bounds]"):
                page.click("[data-testid=bounds-info]")
            assert page.is_visible("[data-testid=bounds]")
            assert page.inner_text("[data-testid=bounds]").strip()
            page.click("[data-testid=preset-min]")
            page.click("[data-testid=btn-raise]")
        elif kind == "keyboard":
            page.keyboard.press("c")
        else:
            page.click("[data-testid=btn-call]")
        # the click is answered: the decision goes away or changes
        page.wait_for_function(
            f"() => document.body.dataset.seq !== {seq!r}"
            " || document.getElementById('decide').hidden")
        if step == 3:
            shot(page, "04-table")
        if not runout_shot and page.evaluate("document.body.dataset.phase") == "runout":
            shot(page, "04b-all-in-run-out")  # the board is dealt street by street
            runout_shot = True
    shot(page, "05-after-20-hands")
    assert reloaded and switched
    assert pots_checked >= 10
    # the session's hand list offers each hand as PHH
    page.click("[data-testid=tab-hands]")
    links = page.locator("[data-testid=phh-link]")
    assert links.count() >= HANDS
    href = links.first.get_attribute("href")
    text = page.request.get(server.url.rstrip("/") + href).text()
    assert "variant = 'NT'" in text and "actions = [" in text
    shot(page, "06-hand-list")
    assert not errors, errors
    page.close()


def test_phone_width_and_four_colours(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="es-ES",
                            is_mobile=True, has_touch=True)
    page.goto(server.url)
    page.wait_for_selector("#room:visible, [data-testid=lobby]:visible")
    # the browser's language picks Spanish when nothing was chosen before
    assert page.inner_text("[data-testid=lang-toggle]") == "English"
    page.wait_for_selector("[data-testid=lobby]:visible")
    shot(page, "07-phone-lobby")
    page.click("[data-testid=sit]")
    wait_turn(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width
    page.click("[data-testid=four-color]")
    assert page.evaluate("document.body.classList.contains('four-color')")
    shot(page, "08-phone-table")
    page.close()


def test_coach_reads_ranges(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 860}, locale="es-ES")
    page.goto(server.url)
    page.wait_for_selector("[data-testid=lobby]:visible")
    page.click("[data-testid=sit]")
    page.check("[data-testid=coach-toggle]")
    wait_turn(page)
    page.wait_for_function(
        "document.getElementById('coach').textContent.includes('contra sus rangos probables')")
    text = page.inner_text("[data-testid=coach]")
    assert "Equity" in text or "equity" in text
    shot(page, "09-coach")
    page.close()
