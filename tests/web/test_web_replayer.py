"""The web replayer in a real browser: the system's Chromium, headless, driven by Playwright.

As in test_web_table.py, Playwright never downloads a browser: /usr/bin/chromium (or
$TAPETE_CHROMIUM) is launched by path, and the tests are skipped without it. Each shown pot
and equity is checked against the engine (pots of the hand folded to that point, equity from
tapete.eval.equity). Screenshots go to test-artifacts/web-replayer/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import ARTIFACTS as ALL_ARTIFACTS
from browser import LiveServer, chromium, require_chromium
from samples import ABC, ALL_IN_ACES_KINGS, stored_row
from waiting import until

playwright_sync = require_chromium()

from tapete.core import events as ev  # noqa: E402
from tapete.core.hand import Hand  # noqa: E402
from tapete.eval.equity import equity  # noqa: E402
from tapete.history import pokerstars  # noqa: E402
from tapete.history.record import HandRecord  # noqa: E402
from tapete.history.replay import replay  # noqa: E402
from tapete.server import Settings, create_app  # noqa: E402

ARTIFACTS = ALL_ARTIFACTS / "web-replayer"
DATA = Path(__file__).resolve().parents[1] / "data" / "pokerstars"
SIDE_POTS = DATA / "hhsmithy_cash_nlhe_two_side_pots_rake.txt"
TEN_HANDS = DATA / "hhsmithy_cash_nlhe_10_hands_rake.txt"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("replayer"), think_delay=0.0,
                              coach_samples=100))
    with LiveServer(app) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_sync, ARTIFACTS) as b:
        yield b


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def engine_hand() -> Hand:
    (record, *_) = list(pokerstars.read_file(str(SIDE_POTS)))
    assert isinstance(record, HandRecord)
    hand = replay(record).engine
    assert hand is not None and hand.done
    return hand


def engine_cuts(hand: Hand) -> list[int]:
    """How many events each frame shows: the start, then one per event, the hole cards of
    every player together."""
    cuts = [0]
    for k, e in enumerate(hand.events):
        if isinstance(e, ev.HoleDealt) and k + 1 < len(hand.events) \
                and isinstance(hand.events[k + 1], ev.HoleDealt):
            continue
        cuts.append(k + 1)
    return cuts


def known_cards(hand: Hand) -> list[tuple[int, ...] | None]:
    known: list[tuple[int, ...] | None] = [None] * hand.n
    for e in hand.events:
        if isinstance(e, (ev.HoleDealt, ev.Shown)) and e.cards is not None:
            known[e.player] = tuple(e.cards)
    return known


def step(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.step"))


def shown_pots(page: Any) -> list[tuple[int, str]]:
    return [(int(x["a"]), x["e"]) for x in page.eval_on_selector_all(
        "[data-testid=pot]", "els => els.map(e => ({a: e.dataset.amount, e: e.dataset.eligible}))")]


def shown_equity(page: Any, n: int) -> list[float | None]:
    out: list[float | None] = []
    for p in range(n):
        v = page.get_attribute(f"[data-testid=seat-{p}] [data-testid=equity]", "data-equity")
        out.append(None if v is None else float(v))
    return out


def open_upload(page: Any, server: LiveServer, path: Path) -> None:
    page.goto(server.url + "replay")
    page.wait_for_selector("[data-testid=welcome]:visible")
    page.set_input_files("[data-testid=file-input]", str(path))
    page.wait_for_selector("#room:visible")
    page.wait_for_function("document.body.dataset.step === '0'")


def test_side_pots_step_through_against_the_engine(server: LiveServer, browser: Any) -> None:
    hand = engine_hand()
    cuts = engine_cuts(hand)
    known = known_cards(hand)
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_upload(page, server, SIDE_POTS)
    shot(page, "01-start")
    exact_checked = ranged = 0
    for f, cut in enumerate(cuts):
        assert step(page) == f
        state = Hand.from_events(hand.rules, hand.starting_stacks, hand.events[:cut],
                                 button=hand.button, blinds=hand.blinds, antes=hand.antes,
                                 names=hand.names)
        # the pots on the felt are the engine's, with who may win each
        assert shown_pots(page) == [(p.amount, ",".join(hand.names[q] for q in p.eligible))
                                    for p in state.pots()], f
        total = page.get_attribute("[data-testid=pot-total]", "data-amount") \
            if state.pot_total() else None
        assert total is None or int(total) == state.pot_total()
        stacks = [int(page.get_attribute(f"[data-testid=seat-{p}] .stack", "data-amount") or -1)
                  for p in range(hand.n)]
        assert stacks == state.stacks
        # equity: exact from tapete.eval.equity once every live hand is known
        live = [p for p in range(hand.n) if not state.folded[p]]
        got = shown_equity(page, hand.n)
        if state.done or len(live) < 2:
            assert all(x is None for x in got)
        elif all(known[p] is not None for p in live):
            board = state.boards[0]
            want = equity([known[p] or () for p in live], board)
            for p, pe in zip(live, want.players, strict=True):
                assert got[p] == pytest.approx(pe.equity, abs=1e-9), (f, p)
            assert page.get_attribute(f"[data-testid=seat-{live[0]}] [data-testid=equity]",
                                      "class") == "eq"
            exact_checked += 1
        else:
            vals = [got[p] for p in live]
            assert all(v is not None for v in vals)
            assert sum(v for v in vals if v is not None) == pytest.approx(1.0, abs=1e-6)
            assert "range" in (page.get_attribute(
                f"[data-testid=seat-{live[0]}] [data-testid=equity]", "class") or "")
            ranged += 1
        # at a decision, the legal range and why
        if state.actor is not None and state.phase.value == "betting":
            assert page.is_visible("[data-testid=decision]")
            assert page.inner_text("[data-testid=legal]") == state.legal().summary().en
        if f == 12:
            shot(page, "02-all-in-preflop")
        if f < len(cuts) - 1:
            page.keyboard.press("ArrowRight")
    assert exact_checked >= 10 and ranged >= 3
    shot(page, "03-end")
    # the breakdown in words, pot by pot, as the engine settled it
    items = page.eval_on_selector_all(
        "[data-testid=pot-breakdown] li",
        "els => els.map(e => ({kind: e.dataset.kind, amount: +e.dataset.amount,"
        " winners: e.dataset.winners, player: e.dataset.player, text: e.textContent}))")
    pots = [x for x in items if x["kind"] == "pot"]
    assert [x["amount"] for x in pots] == [r.amount for r in hand.results]
    assert [x["winners"] for x in pots] == [",".join(hand.names[q] for q in r.winners)
                                            for r in hand.results]
    assert pots[0]["text"].startswith("CrSilva.11 wins the main pot, €5.37, with a straight")
    assert [(x["player"], x["amount"]) for x in items if x["kind"] == "returned"] == [
        ("templargio", 969)]
    assert page.inner_text("[data-testid=event-text]") == (
        "Hand over: CrSilva.11 wins €5.37 and templargio wins €13.58")
    # back one action, Home, streets by number keys
    page.keyboard.press("ArrowLeft")
    assert step(page) == len(cuts) - 2
    page.keyboard.press("Home")
    assert step(page) == 0
    page.keyboard.press("3")
    turn = next(i for i, c in enumerate(cuts) if c and hand.events[c - 1] == ev.BoardDealt(
        2, tuple(hand.boards[0][3:4])))
    assert step(page) == turn
    page.click("[data-testid=street-1]")
    assert page.inner_text("[data-testid=event-text]") == "Flop: 8s Qh Ks"
    page.keyboard.press("End")
    assert step(page) == len(cuts) - 1
    # Spanish
    page.click("[data-testid=lang-toggle]")
    assert page.inner_text("[data-testid=lang-toggle]") == "English"
    assert page.inner_text("[data-testid=pot-breakdown] li").startswith(
        "CrSilva.11 gana el bote principal, 5,37\u00a0€")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert "subida mínima" in page.inner_text("[data-testid=legal-why]")
    shot(page, "04-spanish")
    page.click("[data-testid=lang-toggle]")
    # autoplay moves on by itself, space pauses it
    page.select_option("[data-testid=speed]", "4")
    page.keyboard.press("Space")
    page.wait_for_function("+document.body.dataset.step >= 5")
    page.keyboard.press("Space")
    paused = step(page)
    time.sleep(0.6)
    assert step(page) == paused
    assert not errors, errors
    page.close()


def test_deep_link_opens_at_the_step(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 800}, locale="en-US")
    open_upload(page, server, SIDE_POTS)
    # the keys go to the page, not to a text field that has the focus (the page leaves them
    # to it); the page shows the step, then writes it in its address and share link: waited for
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(19):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.dataset.step === '19'")
    assert until(lambda: "s=19" in page.url), page.url
    url = page.url
    assert "#h=" in url
    pots = shown_pots(page)
    tail = url.split("/replay", 1)[1].split("#", 1)[1]
    assert until(lambda: page.input_value("[data-testid=share-link]").endswith(tail)), \
        page.input_value("[data-testid=share-link]")
    page.close()
    other = browser.new_page(viewport={"width": 1100, "height": 800}, locale="en-US")
    other.goto(url)
    other.wait_for_function("document.body.dataset.step === '19'")
    assert shown_pots(other) == pots == [(562, "mofdis,CrSilva.11,Lenorina,templargio"),
                                         (524, "Lenorina,templargio")]
    shot(other, "05-deep-link")
    other.close()


def test_multi_hand_file_and_errors(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 800}, locale="es-ES")
    open_upload(page, server, TEN_HANDS)
    # the browser's language picks Spanish
    assert page.inner_text("[data-testid=lang-toggle]") == "English"
    options = page.eval_on_selector_all("[data-testid=hand-list] option", "els => els.length")
    assert options == 10
    first = page.inner_text("[data-testid=hand-title]")
    page.select_option("[data-testid=hand-list]", "3")
    page.wait_for_function(f"document.getElementById('hand-title').textContent !== {first!r}")
    assert page.input_value("[data-testid=hand-list]") == "3"
    shot(page, "06-multi-hand")
    # a file that is no hand history: a clear message, never a traceback
    page.set_input_files("[data-testid=file-input]", files=[{
        "name": "notes.txt", "mimeType": "text/plain", "buffer": b"just some notes\n"}])
    page.wait_for_selector("[data-testid=error]:visible")
    text = page.inner_text("[data-testid=error]")
    assert "PokerStars" in text and "Traceback" not in text
    # an illegal hand: the frames up to it, and the engine's reason
    bad = (b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n"
           b"starting_stacks = [1000, 1000]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', "
           b"'p2 cbr 150']\n")
    page.set_input_files("[data-testid=file-input]", files=[{
        "name": "bad.phh", "mimeType": "text/plain", "buffer": bad}])
    page.wait_for_function("document.getElementById('error').textContent.includes('150')")
    assert page.is_visible("#room")
    assert step(page) == 3  # it opens where the hand stops: the hole cards dealt
    shot(page, "07-illegal")
    # a file dropped on the page
    dropped = page.evaluate_handle(
        "(text) => { const dt = new DataTransfer();"
        " dt.items.add(new File([text], 'abc.phh', {type: 'text/plain'})); return dt; }", ABC)
    page.dispatch_event("body", "drop", {"dataTransfer": dropped})
    page.wait_for_function("document.getElementById('hand-title').textContent"
                           ".startsWith('abc.phh')")
    assert page.is_hidden("[data-testid=error]")
    page.keyboard.press("End")
    assert page.inner_text("[data-testid=pot-breakdown] li").startswith(
        "Ana gana el bote principal, 300")
    page.close()


def test_phone_width(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en-US",
                            is_mobile=True, has_touch=True)
    open_upload(page, server, SIDE_POTS)
    page.keyboard.press("End")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width
    assert page.is_visible("[data-testid=btn-next]")
    page.tap("[data-testid=btn-first]")
    page.tap("[data-testid=btn-next]")
    assert step(page) == 1
    shot(page, "08-phone")
    page.close()


def test_stored_hand_by_id(server: LiveServer, browser: Any) -> None:
    from tapete.history import phh

    page = browser.new_page(viewport={"width": 1100, "height": 800}, locale="en-US")
    hub = server.app.state.hub
    before = set(hub.players)
    page.goto(server.url)  # the practice room gives this browser its identity
    until(lambda: set(hub.players) - before)
    (pid,) = set(hub.players) - before
    hand = replay(phh.loads(ABC)).engine
    assert hand is not None
    row = stored_row(hand, pid, "stored-abc")
    storage = server.app.state.storage
    if storage.get_player(pid) is None:  # a visitor is stored once there is something to keep
        storage.new_player(pid)
    storage.save_hand(row)
    page.goto(server.url + "replay/stored-abc?s=6")
    page.wait_for_function("document.body.dataset.step === '6'")
    # after Bruno's call: everyone all-in, three pots (the last one uncalled, not yet back)
    assert shown_pots(page) == [(300, "Ana,Bruno,Carla"), (400, "Bruno,Carla"), (200, "Carla")]
    eq = shown_equity(page, 3)
    want = equity(["AsAh", "7c2d", "QsQh"])
    assert eq == pytest.approx([p.equity for p in want.players], abs=1e-9)
    page.keyboard.press("End")
    assert page.inner_text("[data-testid=pot-breakdown]").split("\n") == [
        "Ana wins the main pot, 300, with a pair of aces",
        "Carla wins side pot 1, 400, with a pair of queens", "Carla takes back 200 (uncalled)"]
    assert "/replay/stored-abc?s=" in page.url
    shot(page, "09-stored-hand")
    # another browser (another identity) cannot open it
    other = browser.new_context().new_page()
    other.goto(server.url + "replay/stored-abc")
    other.wait_for_selector("[data-testid=error]:visible")
    assert "no such hand" in other.inner_text("[data-testid=error]")
    other.close()
    page.close()




def test_insurance_and_tournament_equity(server: LiveServer, browser: Any, tmp_path: Path
                                         ) -> None:
    from tapete.eval.icm import after_hand

    path = tmp_path / "all-in.phh"
    path.write_text(ALL_IN_ACES_KINGS, encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 900}, locale="en-US")
    open_upload(page, server, path)
    assert page.is_hidden("[data-testid=insurance]")
    # the turn is dealt with both players all in: Ana's insurance against Bruno's two kings
    quotes = []
    for _ in range(12):
        page.keyboard.press("ArrowRight")
        if page.is_visible("[data-testid=insurance]"):
            quotes.append(page.inner_text("[data-testid=insurance]"))
    assert len(quotes) == 2  # on the flop (against the turn) and on the turn (the river)
    page.keyboard.press("Home")
    while "2 outs of 44" not in (page.inner_text("[data-testid=insurance]")
                                 if page.is_visible("[data-testid=insurance]") else ""):
        page.keyboard.press("ArrowRight")
    text = page.inner_text("[data-testid=insurance]")
    assert "Ana leads for 6,000; 2 outs of 44" in text and "costs 375" in text
    # prizes of a sit-and-go's last two places: Ana doubles up (3,000 -> 6,000 chips)
    page.fill("[data-testid=prizes]", "70, 30")
    page.click("[data-testid=icm-go]")
    page.wait_for_selector("[data-testid=icm]:visible")
    # heads-up ICM: 30 + 40 x the chip share, 30 % of the chips before, 60 % after
    assert after_hand([3000, 7000], [6000, 4000], [70, 30]) == [54, 46]
    cells = page.eval_on_selector_all("[data-testid=icm-0] td",
                                      "els => els.map(e => e.textContent)")
    assert cells == ["Ana", "42.00", "54.00", "+12.00"]
    shot(page, "09-insurance-icm")
    page.click("[data-testid=lang-toggle]")
    assert "Ana va por delante por 6.000; 2 outs de 44" in page.inner_text(
        "[data-testid=insurance]")
    assert page.eval_on_selector_all("[data-testid=icm-0] td",
                                     "els => els.map(e => e.textContent)")[1] == "42,00"
    # a comma between digits is refused in words, in the page's language
    page.fill("[data-testid=prizes]", "1,500")
    page.click("[data-testid=icm-go]")
    page.wait_for_selector("[data-testid=icm-error]:visible")
    assert "punto decimal" in page.inner_text("[data-testid=icm-error]")
    page.close()


def test_summary_mismatch_is_shown(server: LiveServer, browser: Any, tmp_path: Path) -> None:
    text = SIDE_POTS.read_text(encoding="utf-8-sig")
    head, sep, summary = text.partition("*** SUMMARY ***")
    path = tmp_path / "doctored.txt"
    path.write_text(head + sep + summary.replace("Total pot €", "Total pot €1", 1),
                    encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 800}, locale="en-US")
    open_upload(page, server, SIDE_POTS)
    assert page.is_hidden("[data-testid=mismatches]")
    page.set_input_files("[data-testid=file-input]", str(path))
    page.wait_for_selector("[data-testid=mismatches]:visible")
    assert "total pot: the file says €1" in page.inner_text("[data-testid=mismatches]")
    page.click("[data-testid=lang-toggle]")
    assert "bote total: el archivo dice €1" in page.inner_text("[data-testid=mismatches]")
    page.close()


def test_fair_dealing_panel(server: LiveServer, browser: Any, tmp_path: Path) -> None:
    """A hand that carries a commitment shows it, with the server's verdict: verified, or not
    and why (a commitment changed by one character); a hand without one shows no panel."""
    from tapete.core.cards import Deck
    from tapete.core.rules import Rules
    from tapete.history import phh
    from tapete.room.shuffle import shuffle

    deal = shuffle(Deck(seed=5).cards(), bytes(range(32)))
    hand = Hand(Rules(small_blind=1, big_blind=2), [200, 200, 200], deck=deal.deck,
                names=["Ana", "Bruno", "Carla"], auto_showdown=True)
    while not hand.done:
        hand.check_or_call()
    text = phh.dumps(hand, extra=phh.fair_fields(deal))
    good, bad = tmp_path / "fair.phh", tmp_path / "unfair.phh"
    good.write_text(text, encoding="utf-8")
    changed = deal.commitment[:5] + ("1" if deal.commitment[5] == "0" else "0") \
        + deal.commitment[6:]
    bad.write_text(text.replace(deal.commitment, changed), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_upload(page, server, good)
    assert page.is_visible("[data-testid=fairness]")
    assert page.get_attribute("[data-testid=fairness]", "data-status") == "verified"
    assert page.inner_text("[data-testid=fair-verdict]") == (
        "verified: the cards dealt are the committed deck's, in order")
    assert page.inner_text("[data-testid=fair-commitment]") == deal.commitment
    assert page.eval_on_selector_all("[data-testid=fair-reasons] li", "els => els.length") == 0
    shot(page, "10-fair-verified")
    page.set_input_files("[data-testid=file-input]", str(bad))
    page.wait_for_function(
        "document.querySelector('[data-testid=fairness]').dataset.status === 'rejected'")
    assert page.inner_text("[data-testid=fair-verdict]") == "not verified"
    assert page.inner_text("[data-testid=fair-commitment]") == changed
    reasons = page.inner_text("[data-testid=fair-reasons]")
    assert reasons.startswith("the commitment does not match the deck and the secret: they give"
                              f" {deal.commitment}, the published commitment is {changed}")
    page.click("[data-testid=lang-toggle]")
    assert page.inner_text("[data-testid=fair-verdict]") == "no verificada"
    assert page.inner_text("[data-testid=fair-reasons]").startswith(
        "el compromiso no corresponde a la baraja y el secreto")
    shot(page, "11-fair-rejected-es")
    page.click("[data-testid=lang-toggle]")
    # a hand with no commitment: no panel, nothing of the last one left
    plain = tmp_path / "plain.phh"
    plain.write_text(ABC, encoding="utf-8")
    page.set_input_files("[data-testid=file-input]", str(plain))
    page.wait_for_function("document.getElementById('hand-title').textContent"
                           ".startsWith('plain.phh')")
    assert page.is_hidden("[data-testid=fairness]")
    assert not errors, errors
    page.close()
