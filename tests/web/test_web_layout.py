"""The practice table as a new user finds it, in a real browser (the system's Chromium, driven by
Playwright, as in test_web_table.py): the action bar never leaves the screen, the seats say what
happened, one "Add chips", the lists, the markers, the coach ticked in the lobby, and the
replayer's counter and failed uploads. Screenshots go to test-artifacts/web-layout/; look at them.
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

ARTIFACTS = ALL_ARTIFACTS / "web-layout"
DATA = Path(__file__).resolve().parents[1] / "data" / "pokerstars"
SIDE_POTS = DATA / "hhsmithy_cash_nlhe_two_side_pots_rake.txt"
VIEWPORTS = [(1366, 768), (1280, 720), (390, 844)]
HANDS = 20

# Recorded in the page, before its own scripts run: after the page has drawn each state it
# was sent, whether each seat's "All-in" is true (no chips behind, in a hand still being
# played); which animations ran; and a buy-in for the sit message when a test asks for one.
RECORDER = """(() => {
  const Native = window.WebSocket;
  const rec = window.__rec = { problems: [], checked: 0, wouldHaveLied: 0, states: 0,
                               fly: 0, deal: 0, turn: 0, names: {} };
  const LIVE = new Set(["deal", "betting", "showdown", "runout"]);
  function check(msg) {
    if (msg.type !== "state" || msg.lobby || !msg.hand) return;
    rec.states++;
    const h = msg.hand;
    const live = !!msg.live && LIVE.has(h.phase);
    for (const p of h.players) {
      const el = document.getElementById("seat-" + p.seat);
      if (!el || el.hidden) continue;
      const shows = el.querySelector(".stack").textContent.includes("All-in");
      const truth = live && !p.folded && p.stack === 0;
      if (shows !== truth) {
        rec.problems.push(`${h.hand_id} ${h.phase} ${p.name}: stack ${p.stack}, `
          + `folded ${p.folded}, all-in shown ${shows}`);
      }
      if (p.all_in && !truth) rec.wouldHaveLied++;  // the engine's flag says all-in; it is not
      rec.checked++;
    }
  }
  class Recording extends Native {
    set onmessage(fn) {
      super.onmessage = (e) => {
        fn.call(this, e);
        try { check(JSON.parse(e.data)); } catch (err) { rec.problems.push("check: " + err); }
      };
    }
    get onmessage() { return super.onmessage; }
    send(data) {
      if (window.__buyIn) {
        const m = JSON.parse(data);
        if (m.type === "sit") { m.buy_in = window.__buyIn; data = JSON.stringify(m); }
      }
      super.send(data);
    }
  }
  window.WebSocket = Recording;
  new MutationObserver((muts) => {
    for (const m of muts) for (const n of m.addedNodes) {
      if (n.nodeType !== 1) continue;
      if (n.classList.contains("chip-fly")) rec.fly++;
      for (const c of [n, ...n.querySelectorAll(".card")]) {
        for (const kind of ["deal", "turn"]) {
          if (!c.classList.contains(kind)) continue;
          rec[kind]++;
          const name = getComputedStyle(c).animationName;
          rec.names[name] = (rec.names[name] || 0) + 1;
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""

# every action control that is shown: inside the window, and not covered by anything
CONTROLS = """() => {
  const W = innerWidth, H = innerHeight, out = [];
  const ids = ["btn-fold", "btn-call", "btn-raise", "raise-slider", "raise-input", "bounds-info"];
  const els = ids.map((id) => document.getElementById(id))
    .concat([...document.querySelectorAll("[data-preset]")]);
  let shown = 0;
  for (const el of els) {
    if (!el.checkVisibility()) continue;
    shown++;
    const r = el.getBoundingClientRect();
    const name = el.id || "preset " + el.dataset.preset;
    if (r.width < 1 || r.height < 1 || r.left < 0 || r.top < 0 || r.right > W || r.bottom > H) {
      out.push(`${name} at x ${Math.round(r.left)}–${Math.round(r.right)}, `
        + `y ${Math.round(r.top)}–${Math.round(r.bottom)} in ${W}×${H}`);
      continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) {
      out.push(`${name} is covered by ${hit && (hit.id || hit.className)}`);
    }
  }
  return { shown, problems: out };
}"""

# the D, SB and BB buttons: clear of every seat's plate and cards, of the bets, of each other
# (a card's place is where it lands, even while it is still being dealt)
MARKERS = """() => {
  const out = [], boxes = [];
  for (const s of document.querySelectorAll(".seat")) {
    if (s.hidden) continue;
    boxes.push([s.id + " plate", s.querySelector(".plate").getBoundingClientRect()]);
    const at = s.getBoundingClientRect();
    for (const c of s.querySelectorAll(".hole .card")) {
      const left = at.left + c.offsetLeft, top = at.top + c.offsetTop;
      boxes.push([s.id + " card", { left, top, right: left + c.offsetWidth,
                                    bottom: top + c.offsetHeight }]);
    }
  }
  for (const b of document.querySelectorAll(".bet:not(.chip-fly)")) {
    if (!b.hidden) boxes.push([b.id, b.getBoundingClientRect()]);
  }
  for (const m of document.querySelectorAll(".marker")) {
    if (m.hidden) continue;
    const r = m.getBoundingClientRect();
    for (const [name, q] of boxes) {
      if (r.left < q.right - 0.5 && r.right > q.left + 0.5
          && r.top < q.bottom - 0.5 && r.bottom > q.top + 0.5) {
        out.push(`${m.id} overlaps ${name}`);
      }
    }
    boxes.push([m.id, r]);
  }
  return out;
}"""

SETTLED = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
  done(document.getAnimations()
    .filter((a) => a.animationName && a.playState === "running").length))))"""

ROWS = "els => els.map((li) => [li.textContent, getComputedStyle(li).listStyleType])"

TURN = """() => { const vis = (id) => document.getElementById(id).checkVisibility();
  const c = document.getElementById('btn-call');
  return (vis('btn-call') && !c.disabled) || vis('btn-add') || vis('btn-back'); }"""


class Server(LiveServer):
    def __init__(self, tmp: Path) -> None:
        self.settings = Settings(data_dir=tmp, think_delay=0.0, runout_delay=0.05,
                                 result_pause=0.05, deck_seed=5, action_time=120, time_bank=0,
                                 coach_samples=60, idle_pace=0.01)
        super().__init__(create_app(self.settings))

    def player(self, name: str) -> Any:
        """The player who sat down as ``name`` (each test's page is a visitor of its own)."""
        for p in list(self.app.state.hub.players.values()):
            seat = p.game.table.seats[0] if p.game is not None else None
            if seat is not None and seat.name == name:
                return p
        raise AssertionError(f"nobody called {name} is seated")

    def game(self, name: str) -> Any:
        return self.player(name).game


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("layout")) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_sync, ARTIFACTS) as b:
        yield b


def shot(page: Any, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


def open_page(browser: Any, size: tuple[int, int] = (1366, 768), locale: str = "en-US",
              **kw: Any) -> Any:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]}, locale=locale, **kw)
    page.add_init_script(RECORDER)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def sit(page: Any, server: Server, name: str, structure: str = "nl", coach: bool = False,
        buy_in: int | None = None) -> None:
    page.goto(server.url)
    page.wait_for_selector("[data-testid=lobby]:visible")
    if buy_in is not None:
        page.evaluate(f"window.__buyIn = {buy_in}")
    page.check(f"input[name=structure][value={structure}]")
    page.fill("#name", name)
    if coach:
        page.check("[data-testid=coach-toggle]")
    page.click("[data-testid=sit]")
    page.wait_for_selector("#room:visible")


def wait_turn(page: Any, name: str = "failed-wait") -> None:
    try:
        page.wait_for_function(TURN, polling=20)
    except Exception:
        shot(page, name)
        raise


def settle(page: Any) -> None:
    """Layout done (the bar measured, the markers placed) and no card or chip still moving."""
    until(lambda: page.evaluate(SETTLED) == 0, 30)


def answer(page: Any, click: str, fast: bool = False) -> None:
    """Click and wait until the table has moved on. ``fast``: a click from the page's script,
    without Playwright's checks (a test that has checked the controls itself)."""
    seq = page.evaluate("document.body.dataset.seq")
    if fast:
        page.eval_on_selector(click, "b => b.click()")
    else:
        page.click(click)
    page.wait_for_function(
        f"() => document.body.dataset.seq !== {seq!r} || document.getElementById('decide').hidden",
        polling=20)


def recovered(page: Any) -> bool:
    """Busted or sat out: back in the game (True), or nothing to do (False)."""
    if page.is_visible("[data-testid=btn-add]"):
        page.click("[data-testid=btn-add]")
        page.wait_for_selector("[data-testid=btn-add]", state="hidden")
        return True
    if page.is_visible("[data-testid=btn-back]"):
        page.click("[data-testid=btn-back]")
        page.wait_for_selector("[data-testid=btn-back]", state="hidden")
        return True
    return False


def stored_hands(server: Server, name: str) -> int:
    return len(server.player(name).hands)


# ---------------------------------------------------------------------------- the action bar

def test_action_controls_stay_in_view(server: Server, browser: Any) -> None:
    """At every decision of a 20-hand session, at 1366×768, 1280×720 and 390×844, with the
    coach on and off: every action control is inside the window and nothing covers it, and
    the D/SB/BB buttons are clear of the seats. One tab per size, all at the same table."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    ctx.add_init_script(RECORDER)
    pages = []
    for w, h in VIEWPORTS:
        page = ctx.new_page()
        page.set_viewport_size({"width": w, "height": h})
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.errors = errors
        pages.append(page)
    main = pages[0]
    sit(main, server, "Lia")
    for page in pages[1:]:
        page.goto(server.url)
        page.wait_for_selector("#room:visible")
    plan = ["call", "fold", "pot", "call", "fold", "call", "min", "fold", "fold", "call"]
    decisions = checks = 0
    shots: set[str] = set()
    t0 = time.monotonic()
    while stored_hands(server, "Lia") < HANDS:
        assert time.monotonic() - t0 < bound(600), "the layout test is too slow"
        wait_turn(main, "layout-failed-wait")
        if recovered(main):
            continue
        decisions += 1
        seq = main.evaluate("document.body.dataset.seq")
        board = main.evaluate("document.querySelectorAll('#board .card[data-card]').length")
        for turn in range(2):  # as the coach is, then with it switched the other way
            coach = main.is_checked("[data-testid=coach-toggle]")
            for page, (w, h) in zip(pages, VIEWPORTS, strict=True):
                page.wait_for_function(
                    f"() => document.body.dataset.seq === {seq!r} && (document.getElementById("
                    f"'coach').hidden === {str(not coach).lower()}) && !document.getElementById("
                    "'coach').textContent.includes('thinking')", polling=20)
                got = page.evaluate(CONTROLS)
                assert got["shown"] >= 2, got
                assert not got["problems"], (w, h, coach, got["problems"])
                overlaps = page.evaluate(MARKERS)
                assert not overlaps, (w, h, overlaps)
                checks += 1
                label = f"{w}x{h}-coach-{'on' if coach else 'off'}"
                if board >= 3 and label not in shots and w != 1280:
                    shot(page, label)
                    shots.add(label)
            if turn == 0:
                main.bring_to_front()
                main.eval_on_selector("[data-testid=coach-toggle]", "b => b.click()")
        kind = plan[decisions % len(plan)]
        main.bring_to_front()
        if kind == "fold" and main.is_enabled("[data-testid=btn-fold]"):
            answer(main, "[data-testid=btn-fold]", fast=True)
        elif kind in ("pot", "min") and main.is_visible("[data-testid=preset-pot]"):
            main.eval_on_selector(f"[data-testid=preset-{kind}]", "b => b.click()")
            answer(main, "[data-testid=btn-raise]", fast=True)
        else:
            answer(main, "[data-testid=btn-call]", fast=True)
    assert decisions >= HANDS and checks >= 6 * decisions
    assert len(shots) == 4, shots  # 1366×768 and 390×844, coach on and off, with a board
    for page in pages:
        assert not page.errors, page.errors
    ctx.close()


# ---------------------------------------------------------------------------- the seats

def engine_last_actions(hand: Any) -> dict[int, Any]:
    """Each player's last action on the street being played, from the engine's events."""
    last: dict[int, Any] = {}
    for e in hand.events:
        if isinstance(e, ev.BoardDealt):
            last.clear()
        elif isinstance(e, ev.Acted):
            last[e.player] = e
    return last


def expected_words(e: Any) -> str | None:
    if e.action == ev.FOLD:
        return None  # the seat says "Folded"
    if e.action == ev.CHECK:
        return "Check"
    if e.action == ev.CALL:
        return f"Call {e.added:,}" + (" (all-in)" if e.all_in else "")
    if e.all_in:
        return f"All-in {e.to:,}"
    return f"{'Bet' if e.action == ev.BET else 'Raise to'} {e.to:,}"


def test_seats_and_buttons_say_what_happened(server: Server, browser: Any) -> None:
    """Short stacks and many all-ins: "All-in" only while it is true; each seat's last action
    on this street; the buttons say "All-in 40" and "Call 30 (all-in)"; chips and cards move,
    and exactly one "Add chips" shows when you are busted."""
    page = open_page(browser)
    sit(page, server, "Max", buy_in=40)
    tags_checked = shoves = call_all_in = busted = decisions = 0
    t0 = time.monotonic()
    while stored_hands(server, "Max") < 14:
        assert time.monotonic() - t0 < bound(600), "the seats test is too slow"
        wait_turn(page, "seats-failed-wait")
        if page.is_visible("[data-testid=btn-add]"):
            adds = page.eval_on_selector_all(
                "button", "els => els.filter((b) => b.checkVisibility()"
                " && b.textContent.trim() === 'Add chips').length")
            assert adds == 1, adds
            busted += 1
            shot(page, "busted-one-add-chips")
        if recovered(page):
            continue
        game = server.game("Max")
        hand = game.hand
        hi = game.human_index
        # the seats: what each did last on this street, as the engine has it
        last = engine_last_actions(hand)
        for p in range(hand.n):
            seat = hand.seats[p]
            tag = page.locator(f"[data-testid=last-{seat}]")
            want = expected_words(last[p]) if p in last else None
            if want is None or hand.folded[p]:
                assert not tag.is_visible(), (seat, tag.inner_text())
            else:
                assert tag.is_visible() and tag.inner_text() == want, (seat, want)
                tags_checked += 1
        # the buttons
        legal = hand.legal()
        stack, bet = hand.stacks[hi], hand.bets[hi]
        call = page.inner_text("[data-testid=btn-call]")
        if legal.check:
            assert call == "Check"
        else:
            all_in = legal.call >= stack
            call_all_in += all_in
            assert call == f"Call {legal.call:,}" + (" (all-in)" if all_in else ""), call
        if legal.min_to is not None:
            if legal.min_to != legal.max_to:
                page.click("[data-testid=preset-allin]")
            words = page.inner_text("[data-testid=btn-raise]")
            if legal.max_to == bet + stack:
                assert words == f"All-in {legal.max_to:,}", words
            else:
                assert words.endswith(f" {legal.max_to:,}") and "All-in" not in words, words
            if legal.min_to != legal.max_to and legal.min_to < bet + stack:
                page.click("[data-testid=preset-min]")
                words = page.inner_text("[data-testid=btn-raise]")
                assert words == f"{'Bet' if legal.is_bet else 'Raise to'} {legal.min_to:,}"
                page.click("[data-testid=preset-allin]")
            decisions += 1
            if decisions % 3 == 1:  # all-in; else call, and face the bots' bets
                if shoves == 3:
                    shot(page, "all-in-button")
                shoves += 1
                answer(page, "[data-testid=btn-raise]")
                continue
        answer(page, "[data-testid=btn-call]")
    rec = page.evaluate("window.__rec")
    assert not rec["problems"], rec["problems"][:10]
    assert rec["checked"] > 100
    # the engine's all-in flag outlived the truth (chips returned, the hand over) in this
    # session: the old page showed "All-in" there
    assert rec["wouldHaveLied"] > 0
    # (with this server's deck seed: the bots' bets put the short stack all-in by calling,
    # and it busts)
    assert tags_checked >= 10 and shoves >= 5 and busted >= 1 and call_all_in >= 1
    # the chips went to the pot and the cards were dealt and turned, with animations
    assert rec["fly"] > 0 and rec["deal"] > 0 and rec["turn"] > 0, rec
    assert set(rec["names"]) <= {"deal", "turn"}, rec["names"]
    shot(page, "seats")
    assert not page.errors, page.errors
    page.close()


def test_reduced_motion_stills_the_table(server: Server, browser: Any) -> None:
    """With prefers-reduced-motion, nothing flies and no card animates."""
    page = open_page(browser, reduced_motion="reduce")
    sit(page, server, "Noa")
    t0 = time.monotonic()
    while stored_hands(server, "Noa") < 3:
        assert time.monotonic() - t0 < bound(300)
        wait_turn(page)
        if not recovered(page):
            answer(page, "[data-testid=btn-call]")
    rec = page.evaluate("window.__rec")
    assert rec["fly"] == 0, rec
    assert rec["deal"] + rec["turn"] > 0 and set(rec["names"]) == {"none"}, rec
    page.close()


def test_fixed_limit_one_button_per_amount(server: Server, browser: Any) -> None:
    """Fixed-limit: Fold, Call and one Bet/Raise button with its amount; no pot presets, no
    slider."""
    page = open_page(browser)
    sit(page, server, "Flo", structure="fl")
    raises = 0
    t0 = time.monotonic()
    while stored_hands(server, "Flo") < 6:
        assert time.monotonic() - t0 < bound(300)
        wait_turn(page)
        if recovered(page):
            continue
        game = server.game("Flo")
        legal = game.hand.legal()
        for sel in ("sizing", "raise-slider", "raise-input", "preset-min", "preset-pot",
                    "preset-allin", "bounds-info"):
            assert not page.is_visible(f"[data-testid={sel}]"), sel
        buttons = page.eval_on_selector_all(
            "#buttons button", "els => els.filter((b) => b.checkVisibility())"
            ".map((b) => b.textContent)")
        if legal.min_to is None:
            assert len(buttons) == 2, buttons
            answer(page, "[data-testid=btn-call]")
            continue
        assert legal.min_to == legal.max_to
        word = "Bet" if legal.is_bet else "Raise to"
        hi = game.human_index
        if legal.max_to == game.hand.bets[hi] + game.hand.stacks[hi]:
            word = "All-in"
        assert buttons[2] == f"{word} {legal.min_to:,}", buttons
        if raises == 0:
            shot(page, "fixed-limit")
        raises += 1
        answer(page, "[data-testid=btn-raise]" if raises % 2 else "[data-testid=btn-call]")
    assert raises >= 2
    assert not page.errors, page.errors
    page.close()


# ---------------------------------------------------------------------------- smaller defects

def test_lobby_coach_lists_and_words(server: Server, browser: Any) -> None:
    """The coach ticked in the lobby is on at the table; hand lists are not numbered twice and
    an empty one is not numbered at all; the lobby's panel holds its list; the "?" box has one
    line per bound; "Before your turn:" has no stray space."""
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector("[data-testid=lobby]:visible")
    empty = page.eval_on_selector_all("[data-testid=lobby-hands] li", ROWS)
    assert empty == [["No hands yet.", "none"]], empty
    sit(page, server, "Ivo", coach=True)
    wait_turn(page)
    assert page.is_checked("[data-testid=coach-toggle]")
    page.wait_for_selector("[data-testid=coach]:visible")
    assert server.game("Ivo").coach_on
    assert page.is_hidden("[data-testid=toast]")  # no "you are not at a table"
    # the "?" box: the smallest and the largest amount, each on its line
    if page.is_visible("[data-testid=bounds-info]"):
        page.click("[data-testid=bounds-info]")
        lines = page.inner_text("[data-testid=bounds]").split("\n")
        assert len(lines) == 2 and lines[0].startswith("smallest") and "largest" in lines[1], lines
        page.click("[data-testid=bounds-info]")
    # the pre-actions' heading, as drawn (the row forced into view for a moment)
    head = page.evaluate("""() => { const pre = document.getElementById('pre');
        const was = pre.hidden; pre.hidden = false;
        const span = pre.querySelector('span'); const r = span.getBoundingClientRect();
        const text = span.innerText; pre.hidden = was;
        const loose = [...pre.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
        return [text, loose.length]; }""")
    assert head == ["Before your turn:", 0], head
    while stored_hands(server, "Ivo") < 12:
        wait_turn(page)
        if not recovered(page):
            answer(page, "[data-testid=btn-fold]" if page.is_enabled("[data-testid=btn-fold]")
                   else "[data-testid=btn-call]")
    page.click("[data-testid=tab-hands]")
    page.wait_for_function("document.querySelectorAll('#hand-list li[data-hand-id]').length > 11")
    rows = page.eval_on_selector_all("#hand-list li", ROWS)
    assert all(style == "none" and text.startswith("#") for text, style in rows), rows[:3]
    shot(page, "hand-list")
    page.click("[data-testid=leave]")
    page.wait_for_selector("[data-testid=lobby]:visible")
    page.wait_for_function("document.querySelectorAll('#lobby-hands li[data-hand-id]').length > 11")
    rows = page.eval_on_selector_all("#lobby-hands li", ROWS)
    assert all(style == "none" and text.startswith("#") for text, style in rows), rows[:3]
    # the panel holds its whole list, and the page's background reaches the end of the page
    box = page.evaluate("""() => {
        const l = document.getElementById('lobby').getBoundingClientRect();
        const h = document.getElementById('lobby-hands').getBoundingClientRect();
        const b = document.body.getBoundingClientRect();
        return [l.bottom - h.bottom, b.height - document.documentElement.scrollHeight]; }""")
    assert box[0] > 0 and box[1] >= -1, box
    shot(page, "lobby-with-hands", full=True)
    assert not page.errors, page.errors
    page.close()


def test_phone_lobby_and_table(server: Server, browser: Any) -> None:
    """390×844 in Spanish: the lobby's list is whole, the table fits, the bar is at the
    bottom, the markers are clear of the seats."""
    page = open_page(browser, (390, 844), locale="es-ES", is_mobile=True, has_touch=True)
    page.goto(server.url)
    page.wait_for_selector("[data-testid=lobby]:visible")
    opponents = page.inner_text("#opponent-list")
    assert "selectivo y agresivo" in opponents and "tight" not in opponents, opponents
    shot(page, "phone-lobby", full=True)
    sit(page, server, "Eva")
    for k in range(4):
        wait_turn(page)
        if recovered(page):
            continue
        settle(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 392
        got = page.evaluate(CONTROLS)
        assert not got["problems"], got
        assert not page.evaluate(MARKERS)
        bar = page.eval_on_selector("[data-testid=actions]",
                                    "e => e.getBoundingClientRect().bottom")
        assert abs(bar - 844) < 1, bar
        if k == 1:
            shot(page, "phone-table-es")
        answer(page, "[data-testid=btn-call]")
    page.close()


# ---------------------------------------------------------------------------- the replayer

def test_replayer_counter_and_list_agree(server: Server, browser: Any) -> None:
    page = open_page(browser, (1280, 800))
    page.goto(server.url + "replay")
    page.wait_for_selector("[data-testid=welcome]:visible")
    page.set_input_files("[data-testid=file-input]", str(SIDE_POTS))
    page.wait_for_function("document.body.dataset.step === '0'")
    for k in range(6):
        got = page.evaluate("""() => { const ol = document.getElementById('log');
            const items = [...ol.children]; const on = ol.querySelector('li.on');
            const n = on.hasAttribute("value") ? on.value : ol.start + items.indexOf(on);
            return [document.getElementById('counter').textContent, n]; }""")
        counter, number = got
        assert counter.split()[1] == str(number) == str(k), got
        page.keyboard.press("ArrowRight")
    page.close()


def test_replayer_failed_upload_clears_the_hand(server: Server, browser: Any,
                                                tmp_path: Path) -> None:
    page = open_page(browser, (1280, 800))
    page.goto(server.url + "replay")
    page.wait_for_selector("[data-testid=welcome]:visible")
    page.set_input_files("[data-testid=file-input]", str(SIDE_POTS))
    page.wait_for_function("document.body.dataset.step === '0'")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("[data-testid=hand-title]")
    assert "#h=" in page.url and page.input_value("[data-testid=share-link]")
    cases = [
        ("notes.txt", b"just some notes\n", "neither a PHH file nor a PokerStars"),
        ("empty.phh", b"  \n", "the file is empty"),
        ("bad.phh", b"variant = 'NT'\nstarting_stacks = [1000, 'x']\nactions = 7\n", "bad.phh"),
    ]
    for name, body, why in cases:
        page.set_input_files("[data-testid=file-input]", files=[{
            "name": name, "mimeType": "text/plain", "buffer": body}])
        page.wait_for_function(f"document.getElementById('error').textContent.includes({name!r})")
        text = page.inner_text("[data-testid=error]")
        assert why in text and name in text, text
        assert page.inner_text("[data-testid=hand-title]") == ""
        assert "#h=" not in page.url and "s=" not in page.url, page.url
        assert not page.is_visible("[data-testid=share-link]")
        assert page.evaluate("document.querySelectorAll('#seats .seat, #boards .card, #pots .pot,"
                             " #log li').length") == 0
        assert not page.is_visible("[data-testid=table]") or page.inner_text(
            "[data-testid=event-text]") == ""
        shot(page, f"replayer-failed-{name}")
    page.close()
