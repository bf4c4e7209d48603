"""Pot-limit Omaha hi-lo at the practice table, in a real browser (the system's Chromium).

A person sits at a PLO8 table and plays by clicking (checking or calling) until a showdown
splits a pot between a high hand and a different player's low. The page's breakdown of that
hand must be the engine's, half by half: the amounts, who won each half, and a sentence naming
the low. Four hole cards are dealt to every seat and fanned on the felt. Screenshots at
1366x768 and at a phone's width go to test-artifacts/web/.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_web_table import ARTIFACTS, TURN, Server, playwright_sync
from test_web_table import browser as browser  # noqa: F401 (the module's browser fixture)

from browser import settle
from tapete.core import events as ev

MOST_HANDS = 80  # a split high/low pot comes long before this at this seed


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("omaha"), deck_seed=5, runout_delay=0.05,
                coach_samples=200) as s:
        yield s


def split_hand(server: Server, hand_id: str) -> Any:
    """The stored hand ``hand_id`` when one of its pots' low half went to a player who won
    none of its high; else None."""
    hand = server.stored_hand(hand_id)
    return hand if split_pots(hand) else None


def halves(hand: Any) -> dict[int, dict[str, dict[int, int]]]:
    """Pot by pot, half by half ("high": the whole pot when no low qualified), what each
    player was awarded, from the stored events."""
    awards: dict[int, dict[str, dict[int, int]]] = {}
    for e in hand.events:
        if isinstance(e, ev.Awarded):
            half = awards.setdefault(e.pot, {}).setdefault(e.half or "high", {})
            half[e.player] = half.get(e.player, 0) + e.amount
    return awards


def split_pots(hand: Any) -> list[int]:
    """The pots whose low half went to someone who won no share of the high."""
    return [i for i, h in sorted(halves(hand).items())
            if "low" in h and set(h["low"]) - set(h.get("high", {}))]


def test_a_plo8_pot_splits_high_and_low_in_the_browser(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("[data-testid=lobby]:visible")
    page.check("input[name=structure][value=pl]")
    page.select_option("[data-testid=variant]", "omaha-hi-lo")
    page.select_option("[data-testid=blinds]", "0")
    page.fill("#name", "Olga")
    page.click("[data-testid=sit]")
    page.wait_for_selector("#room:visible")
    page.wait_for_function(TURN)
    # every seat dealt in holds four cards, fanned
    assert page.eval_on_selector_all("[data-testid=seat-0] .hole .card", "e => e.length") == 4
    assert page.eval_on_selector("[data-testid=seat-0] .hole",
                                 "e => e.classList.contains('many')")
    settle(page)  # the deal's animation over
    page.screenshot(path=str(ARTIFACTS / "omaha-hi-lo-table.png"))
    seen: set[str] = set()
    found = None
    while found is None:
        assert len(seen) < MOST_HANDS, "no pot split high/low"
        page.wait_for_function(TURN)
        history = server.player().hands
        if history and history[0]["hand_id"] not in seen:
            seen.add(history[0]["hand_id"])
            hand = split_hand(server, history[0]["hand_id"])
            if hand is not None:
                found = hand
                break
        # the page changes under the test (the hand ends, a state arrives): each click is
        # tried briefly and the loop looks again
        try:
            for button in ("btn-add", "btn-back"):
                if page.is_visible(f"[data-testid={button}]"):
                    page.click(f"[data-testid={button}]", timeout=1000)
            if page.is_visible("[data-testid=btn-call]") and \
                    page.is_enabled("[data-testid=btn-call]"):
                page.click("[data-testid=btn-call]", timeout=1000)  # check or call: showdowns
        except playwright_sync.Error:  # a TimeoutError too
            pass
    hand_id = found.hand_id
    page.wait_for_selector(f"#tab-result[data-hand-id='{hand_id}']", state="attached")
    items = page.eval_on_selector_all(
        "#tab-result [data-testid=pot-breakdown] li[data-kind=pot]",
        "els => els.map(e => ({amount: +e.dataset.amount, winners: e.dataset.winners,"
        " text: e.textContent}))")
    awards = halves(found)
    assert [x["amount"] for x in items] == [
        sum(sum(h.values()) for h in awards[i].values()) for i in sorted(awards)]
    split = split_pots(found)
    assert split
    for i in split:
        line = items[i]["text"]
        names = {found.names[q] for h in awards[i].values() for q in h}
        assert all(n in line for n in names), line
        assert "low" in line, line
    page.screenshot(path=str(ARTIFACTS / "omaha-hi-lo-split.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "omaha-hi-lo-phone.png"))
    assert errors == []
