"""The tournament page in a real browser (the system Chromium, Playwright, as in
test_web_table.py): the practice table's start screen offers a sit-and-go; at a tournament
table the page shows the tournament's bar, each stack's ICM equity, the deal and the end, and
hides the cash game's controls a tournament refuses.

``test_tournament_parts_drawn`` draws the tournament's parts from states the test writes: the
page plays a real cash table, and each state it is sent is given a ``tournament`` (in the
shape of ``docs/protocol.md``'s ``Tournament``) before the page reads it, so every part is
drawn and checked whatever the cards do. Screenshots at 1366x768 and 390x844 go to
test-artifacts/sng/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import ARTIFACTS as ALL_ARTIFACTS
from browser import LiveServer, chromium, require_chromium, settle
from waiting import bound

playwright_sync = require_chromium()

from test_js_fields import RECORDER, resolves  # noqa: E402

from tapete.server import Settings, create_app  # noqa: E402

ARTIFACTS = ALL_ARTIFACTS / "sng"
SIZES = [(1366, 768), (390, 844)]

# Before the page's scripts: each table state the server sends gets window.__tourney(state) as
# its `tournament`; the tournament's messages the page sends (sng, deal, deal_answer) are kept
# in window.__sent and not sent; window.__again() gives the page its last state once more.
OVERLAY = """(() => {
  const Real = window.WebSocket;
  window.__sent = [];
  window.__tourney = null;
  let last = null, handler = null;
  window.__again = () => { if (last && handler) handler({ data: last }); };
  class Overlay extends Real {
    set onmessage(fn) {
      handler = (e) => {
        let data = e.data;
        const m = JSON.parse(data);
        if (m.type === 'state' && !m.lobby) last = e.data;
        if (m.type === 'state' && !m.lobby && window.__tourney) {
          m.tournament = window.__tourney(m);
          data = JSON.stringify(m);
        }
        fn({ data });
      };
      super.onmessage = handler;
    }
    get onmessage() { return handler; }
    send(data) {
      const m = JSON.parse(data);
      if (['sng', 'deal', 'deal_answer'].includes(m.type)) { window.__sent.push(m); return; }
      super.send(data);
    }
  }
  window.WebSocket = Overlay;
})();"""

# A sit-and-go of nine, three left (all paid), as the page's state would carry it: each seated
# player's equity a share of the prize pool by chips (whole units adding up to it), the rest
# as asked.
TOURNEY = """(extra) => { window.__tourney = (s) => {
  const pool = 600;
  const seated = s.seats.map((x, i) => [x, i]).filter(([x]) => x).slice(0, 3);
  const total = seated.reduce((a, [x]) => a + Math.max(1, x.chips), 0);
  let left = pool;
  const equities = seated.map(([x, i], k) => {
    const e = k === seated.length - 1 ? left : Math.floor(pool * Math.max(1, x.chips) / total);
    left -= e;
    return { seat: i, name: x.name, chips: x.chips, equity: e };
  });
  return Object.assign({ id: 'sng-1', name: { en: 'Sit & Go 9 turbo', es: 'Sit & Go 9 turbo' },
    kind: 'sng', level: 3, small_blind: 50, big_blind: 100, ante: 100, next_small_blind: 75,
    next_big_blind: 150, next_ante: 150, hands_to_next_level: 4, entrants: 9, players_left: 3,
    prize_pool: pool, prizes: [300, 180, 120], equities, deal: null, place: null, prize: null,
    finished: false, results: [], hand_for_hand: false, table_number: 1, tables: 1,
    deal_allowed: true },
    extra(s));
}; window.__again(); }"""


class Server(LiveServer):
    def __init__(self, tmp: Path) -> None:
        self.settings = Settings(data_dir=tmp, think_delay=0.0, runout_delay=0.05,
                                 result_pause=0.05, deck_seed=5, action_time=120, time_bank=0,
                                 coach_samples=200)
        super().__init__(create_app(self.settings))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("sng")) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_sync, ARTIFACTS) as b:
        yield b


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def set_tourney(page: Any, extra: str = "() => ({})") -> None:
    """Every state from now on carries the test's tournament, ``extra(state)`` over it."""
    page.evaluate(f"() => ({TOURNEY})({extra})")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_tournament_parts_drawn(server: Server, browser: Any, size: tuple[int, int]) -> None:
    w, h = size
    tag = f"{w}x{h}"
    page = browser.new_page(viewport={"width": w, "height": h}, locale="en-US",
                            is_mobile=w < 500, has_touch=w < 500)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(OVERLAY)
    page.goto(server.url)
    page.wait_for_selector("[data-testid=sng-form]:visible")
    # the start screen: six or nine, regular or turbo, the buy-ins the bankroll covers
    assert "one-table tournament" in page.inner_text("[data-testid=sng-form]")
    assert page.eval_on_selector_all("#sng-buyin option", "os => os.map(o => +o.value)") == [
        100, 200, 500, 1000, 2000]
    page.check("input[name=sng-seats][value='6']")
    page.check("input[name=sng-speed][value=turbo]")
    page.select_option("[data-testid=sng-buyin]", "500")
    assert "a prize pool of 3,000" in page.inner_text("[data-testid=sng-pool]")
    page.click("[data-testid=sng-start]")
    assert page.evaluate("window.__sent") == [
        {"type": "sng", "seats": 6, "speed": "turbo", "buy_in": 500, "lang": "en"}]
    if w > 500:
        shot(page, f"lobby-{tag}")
    # a table to draw the tournament on (the server's cash table, states overlaid)
    page.click("[data-testid=sit]")
    page.wait_for_selector("#room:visible")
    page.wait_for_selector("[data-testid=btn-call]:visible")
    set_tourney(page)
    page.wait_for_selector("[data-testid=tourney-bar]:visible")
    bar = page.inner_text("[data-testid=tourney-bar]")
    for words in ["Level 3", "50/100 ante 100", "Next 75/150 ante 150 in 4 hands",
                  "3 of 9 left", "Prize pool 600", "1st 300", "2nd 180", "3rd 120"]:
        assert words in bar, (words, bar)
    # each stack's equity under it, in money; together the prize pool
    icm = page.eval_on_selector_all(
        "#seats .icm:not([hidden])", "els => els.map(e => [e.textContent, +e.dataset.amount])")
    assert len(icm) == 3 and sum(x for _, x in icm) == 600, icm
    assert all(text.startswith("ICM ") for text, _ in icm)
    # no cash-game controls: no chips to add, no sitting out, no leaving while in
    for testid in ["btn-add2", "sit-out", "leave", "btn-add"]:
        assert not page.is_visible(f"[data-testid={testid}]"), testid
    # three left: a deal may be proposed, once at this count
    page.wait_for_selector("[data-testid=deal-propose]:visible")
    page.click("[data-testid=deal-icm]")
    assert page.evaluate("window.__sent.at(-1)") == {"type": "deal", "kind": "icm"}
    page.evaluate("window.__again()")
    assert not page.is_visible("[data-testid=deal-propose]")
    # the offer: each player's amount, the answers as they come, accept/decline
    set_tourney(page, """(s) => ({ deal: { kind: 'icm', open: true, yours: 250,
        amounts: [{ name: s.seats[0].name, amount: 250, answer: null },
                  { name: 'Ana', amount: 200, answer: true },
                  { name: 'Bruno', amount: 150, answer: null }] } })""")
    page.wait_for_selector("[data-testid=deal-offer]:visible")
    lines = page.eval_on_selector_all(
        "[data-testid=deal-line]", "els => els.map(e => [e.dataset.name, +e.dataset.amount,"
        " e.dataset.answer])")
    assert [x[1:] for x in lines] == [[250, ""], [200, "yes"], [150, ""]]
    assert "ICM deal offered" in page.inner_text("[data-testid=deal-offer]")
    assert page.eval_on_selector_all(
        "[data-testid=deal-line]", "els => els.map(e => e.textContent)") == [
        "Hero (you) 250", "Ana 200 · accepts", "Bruno 150 · thinking…"]
    shot(page, f"deal-{tag}")
    page.click("[data-testid=deal-yes]")
    assert page.evaluate("window.__sent.at(-1)") == {"type": "deal_answer", "yes": True}
    page.wait_for_selector("[data-testid=deal-yes]", state="hidden")
    # the outcome: refused by Bruno, play goes on
    set_tourney(page, """(s) => ({ players_left: 3, deal: { kind: 'icm', open: false,
        yours: 250, amounts: [{ name: s.seats[0].name, amount: 250, answer: true },
          { name: 'Ana', amount: 200, answer: true },
          { name: 'Bruno', amount: 150, answer: false }] } })""")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=deal-outcome]').dataset.outcome"
        " === 'refused'")
    assert "No deal" in page.inner_text("[data-testid=deal-outcome]")
    # hand-for-hand on the felt
    set_tourney(page, "() => ({ hand_for_hand: true })")
    page.wait_for_selector("[data-testid=t-note]:visible")
    assert page.inner_text("[data-testid=t-note]").startswith("Hand for hand")
    shot(page, f"table-{tag}")
    # knocked out: the place, watch the rest or leave
    set_tourney(page, "() => ({ place: 4, prize: 0, players_left: 3, equities: [] })")
    page.wait_for_selector("[data-testid=t-end]:visible")
    assert page.inner_text("[data-testid=t-end-title]") == "You finished 4th of 9"
    assert page.is_visible("[data-testid=leave]")
    page.click("[data-testid=t-watch]")
    assert not page.is_visible("[data-testid=t-end]")
    # the end: place, prize, the results table, back to the lobby or a new one
    set_tourney(page, """(s) => ({ place: 2, prize: 180, finished: true, players_left: 1,
        equities: [], results: ['Ana', s.seats[0].name, 'Bruno', 'Carla', 'Diego', 'Elena',
          'Fede', 'Gala', 'Hugo'].map((name, i) => ({ place: i + 1, name,
          prize: [300, 180, 120][i] || 0 })) })""")
    page.wait_for_selector("[data-testid=t-end]:visible")
    assert page.inner_text("[data-testid=t-end-title]") == (
        "You finished 2nd of 9 and won 180")
    rows = page.eval_on_selector_all(
        "[data-testid=t-result]", "els => els.map(e => [+e.dataset.place, +e.dataset.prize])")
    assert rows == [[1, 300], [2, 180], [3, 120]] + [[k, 0] for k in range(4, 10)]
    assert not page.is_visible("[data-testid=t-watch]")
    assert page.is_visible("[data-testid=t-again]")
    assert page.is_visible("[data-testid=t-lobby]")
    shot(page, f"end-{tag}")
    # in Spanish
    page.click("[data-testid=lang-toggle]")
    assert page.inner_text("[data-testid=t-end-title]") == "Terminaste 2.º de 9 y ganaste 180"
    assert "El torneo ha terminado" in page.inner_text("[data-testid=tourney-bar]")
    page.click("[data-testid=lang-toggle]")
    assert not errors, errors
    page.close()


BOARD_CLEAR = """() => { const b = document.getElementById('board').getBoundingClientRect();
  return [...document.querySelectorAll('#seats .seat')].filter((el) => !el.hidden).filter((el) => {
    const parts = [...el.querySelectorAll('.hole .card, .plate')]
      .map((x) => x.getBoundingClientRect());
    return parts.some((r) => r.right > b.left && r.left < b.right
      && r.bottom > b.top && r.top < b.bottom);
  }).map((el) => el.id); }"""

OVER = "() => document.body.dataset.over === '1' && document.body.dataset.seated === '0'"


def test_four_seats_on_a_phone_and_a_home_game_over(server: Server, browser: Any) -> None:
    """Two defects of the table page: on a phone (390x844) a 4-seat table's side seats kept
    their cards against the board; after a home game ended the action bar stayed as an empty
    strip. The host opens a private 4-seat table with bots, plays to the flop, ends the game."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en-US",
                            is_mobile=True, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(server.url + "room")
    made = page.evaluate("""async () => (await fetch('/api/room/tables', { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ seats: 4, bots: true,
      small_blind: 1, big_blind: 2, min_buy_in: 80, max_buy_in: 200, public: false,
      auto_approve: true }) })).json()""")
    page.goto(server.url.rstrip("/") + made["url"])
    page.click(".sit-here:visible >> nth=0")
    page.fill("[data-testid=seat-name]", "Zoe")
    page.click("[data-testid=take-seat-ok]")
    # to a flop: call or check each turn
    for _ in range(60):
        page.wait_for_function("""() => document.body.dataset.street >= '1' || (() => {
          const c = document.getElementById('btn-call');
          return c.offsetParent && !c.disabled; })()""")
        if page.evaluate("document.body.dataset.street >= '1'"):
            break
        page.click("[data-testid=btn-call]")
    assert page.evaluate("document.body.dataset.street >= '1'")
    settle(page)  # the flop turned over
    sides = page.evaluate("""() => [...document.querySelectorAll('#seats .seat')].filter((el) =>
      !el.hidden && Math.abs(parseFloat(el.style.top) - 50) < 10).length""")
    assert sides >= 1  # a seat beside the board
    assert page.evaluate(BOARD_CLEAR) == []
    shot(page, "four-seats-390x844")
    # the host ends the game: once everyone has cashed out, no empty bar at the foot
    page.click("[data-testid=host-open]")
    page.click("[data-testid=host-end]")
    deadline = time.monotonic() + bound()
    while time.monotonic() < deadline:
        if page.evaluate(OVER):
            break
        if page.evaluate("(() => { const c = document.getElementById('btn-call');"
                         " return c.offsetParent && !c.disabled; })()"):
            page.click("[data-testid=btn-call]")
        page.wait_for_timeout(200)
    page.wait_for_function(OVER)
    assert not page.is_visible("[data-testid=actions]")
    bar_h = "getComputedStyle(document.documentElement).getPropertyValue('--bar-h')"
    assert page.evaluate(bar_h) == "0px"
    shot(page, "home-game-over-390x844")
    assert not errors, errors
    page.close()


# ---------------------------------------------------------------- a sit-and-go, to the end
# Kept as the page reads it: the last `tournament` the server sent, and the last state's money.
WATCH = """(() => {
  const parse = JSON.parse;
  window.__t = null;
  window.__me = null;
  JSON.parse = function (text, reviver) {
    const v = parse.call(JSON, text, reviver);
    if (v && v.type === 'state') {
      window.__me = v.me;
      window.__t = v.lobby ? null : v.tournament;
      const mine = v.lobby ? null : v.seats.find((x) => x && x.you);
      if (mine) window.__name = mine.name;
    }
    return v;
  };
})();"""

DEAL_CLOSED = """() => {
  const o = document.querySelector('[data-testid=deal-outcome]');
  return ['made', 'refused'].includes(o.dataset.outcome)
    || !document.querySelector('[data-testid=deal-offer]').checkVisibility(); }"""
MY_TURN = """() => { const c = document.getElementById('btn-call');
  return !!(c.offsetParent && !c.disabled); }"""
SHOWN_EQUITIES = """() => [...document.querySelectorAll('#seats .icm')]
  .filter((e) => !e.hidden).map((e) => +e.dataset.amount)"""


def bankroll_shown(page: Any) -> int:
    return int(page.inner_text("#bankroll").replace(",", ""))


def act(page: Any, shove: bool) -> None:
    """Click a legal button: all-in (the preset, then the raise) when asked and possible, else
    check when free, else fold (call when folding is not offered)."""
    if shove and page.is_visible("[data-testid=btn-raise]"):
        if page.is_visible("[data-testid=preset-allin]"):
            page.click("[data-testid=preset-allin]")
        page.click("[data-testid=btn-raise]")
    elif shove or not page.is_enabled("[data-testid=btn-fold]"):
        page.click("[data-testid=btn-call]")  # check, or call (all-in when it takes it all)
    else:
        page.click("[data-testid=btn-fold]")


def test_sit_and_go_played_to_the_end(tmp_path: Path, browser: Any) -> None:
    """A 6-max turbo sit-and-go started from the page and played to the end by clicking: the
    ICM equities shown add up to the prize pool at every decision; a deal is proposed once it is
    allowed and the bots' answers come; at the end the place and prize shown are the server's,
    and the bankroll shown moved by exactly the prize less the buy-in."""
    buy_in = 500
    settings = Settings(data_dir=tmp_path, think_delay=0.0, runout_delay=0.02, result_pause=0.02,
                        idle_pace=0.02, deck_seed=3, action_time=120, time_bank=0,
                        coach_samples=100)
    with LiveServer(create_app(settings)) as srv:
        page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-US")
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(RECORDER)  # each field the page reads (test_js_fields)
        page.add_init_script(WATCH)
        page.goto(srv.url)
        page.wait_for_selector("[data-testid=sng-form]:visible")
        start = bankroll_shown(page)
        page.check("input[name=sng-seats][value='6']")
        page.check("input[name=sng-speed][value=turbo]")
        page.select_option("[data-testid=sng-buyin]", str(buy_in))
        page.click("[data-testid=sng-start]")
        try:
            page.wait_for_selector("[data-testid=tourney-bar]:visible")
        except Exception:
            shot(page, "failed-start")
            raise AssertionError(errors) from None
        first = page.evaluate("window.__t")
        assert first["kind"] == "sng" and first["entrants"] == 6
        assert first["prize_pool"] == 6 * buy_in == sum(first["prizes"])
        for testid in ["btn-add2", "sit-out", "leave"]:
            assert not page.is_visible(f"[data-testid={testid}]"), testid
        decisions = checked = 0
        proposed: dict[str, Any] | None = None
        asked = False
        phone_shot = False
        deadline = time.monotonic() + bound(900)  # a bound: the loop ends with the tournament
        while time.monotonic() < deadline:
            tr = page.evaluate("window.__t")
            if tr is None or tr["finished"]:
                break
            if tr["place"] is not None:  # knocked out: watch the rest
                if page.is_visible("[data-testid=t-watch]"):
                    shot(page, "out-1366x768")
                    page.click("[data-testid=t-watch]")
                page.wait_for_timeout(100)
                continue
            if not asked and page.is_visible("[data-testid=deal-propose]"):
                assert tr["players_left"] <= 3
                page.click("[data-testid=deal-icm]")  # opened once the hand in play is over
                asked = True
                continue
            if asked and proposed is None and page.is_visible("[data-testid=deal-yes]"):
                shot(page, "deal-offer-1366x768")
                page.click("[data-testid=deal-yes]")
                # every bot answers: the offer closes, made or refused
                page.wait_for_function(DEAL_CLOSED)
                proposed = page.evaluate("window.__t.deal")
                answers = page.eval_on_selector_all(
                    "[data-testid=deal-line]", "els => els.map(e => e.dataset.answer)")
                shot(page, "deal-answered-1366x768")
                assert proposed is not None and len(answers) == tr["players_left"]
                assert all(a in ("yes", "no") for a in answers), answers
                continue
            if not page.evaluate(MY_TURN):
                page.wait_for_timeout(30)
                continue
            decisions += 1
            shown = page.evaluate(SHOWN_EQUITIES)
            if shown:  # the equities shown are the server's and add up to the prize pool
                assert sum(shown) == page.evaluate("window.__t.prize_pool"), shown
                checked += 1
            if decisions == 3 and not phone_shot:
                shot(page, "table-1366x768")
                page.set_viewport_size({"width": 390, "height": 844})
                settle(page)
                shot(page, "table-390x844")
                page.set_viewport_size({"width": 1366, "height": 768})
                phone_shot = True
            me = page.evaluate("window.__t")
            name = page.evaluate("window.__name")
            stack = next((e["chips"] for e in me["equities"] if e["name"] == name), 0)
            # fold to three players (unless short), then all-in every hand
            shove = asked or me["players_left"] <= 2 or stack < 6 * me["big_blind"]
            seq = page.evaluate("document.body.dataset.seq")
            act(page, shove)
            page.wait_for_function("(seq) => document.body.dataset.seq !== seq", arg=seq)
        page.wait_for_selector("[data-testid=t-end]:visible")
        page.wait_for_function("() => document.querySelector('[data-testid=t-end]')"
                               ".dataset.finished === '1'")
        end = page.evaluate("window.__t")
        assert end["finished"] and proposed is not None and checked > 0
        place, prize = end["place"], end["prize"]
        # the place and the prize shown are the server's; the results list everyone
        panel = page.eval_on_selector("[data-testid=t-end]", "e => [+e.dataset.place,"
                                      " +e.dataset.prize]")
        assert panel == [place, prize]
        title = page.inner_text("[data-testid=t-end-title]")
        assert title.startswith(f"You finished {place}")
        rows = page.eval_on_selector_all("[data-testid=t-result]", "els => els.map(e =>"
                                         " [+e.dataset.place, e.dataset.name, +e.dataset.prize])")
        assert len(rows) == 6 and sum(r[2] for r in rows) == end["prize_pool"]
        name = page.evaluate("window.__name")
        assert [r for r in rows if r[1] == name] == [[place, name, prize]]
        # the bankroll shown moved by exactly the prize less the buy-in
        page.wait_for_function("(want) => +document.getElementById('bankroll').textContent"
                               ".replace(/,/g, '') === want", arg=start - buy_in + prize)
        assert bankroll_shown(page) - start == prize - buy_in
        # the server's own result and books: the place, the prize, the bankroll stored
        (player,) = srv.app.state.hub.players.values()
        live = player.game.sng.live
        assert [[r.place, r.name, r.prize] for r in live.results()] == rows
        row = srv.app.state.storage.get_player(player.id)
        assert row is not None and row.bankroll == start - buy_in + prize
        shot(page, "end-1366x768")
        page.set_viewport_size({"width": 390, "height": 844})
        settle(page)
        shot(page, "end-390x844")
        # a new one at once: the table left, the same choices, the buy-in taken again
        page.set_viewport_size({"width": 1366, "height": 768})
        page.click("[data-testid=t-again]")
        page.wait_for_function("(id) => window.__t && window.__t.id !== id"
                               " && window.__t.players_left === 6", arg=end["id"])
        assert not page.is_visible("[data-testid=t-end]")
        page.wait_for_function("(want) => +document.getElementById('bankroll').textContent"
                               ".replace(/,/g, '') === want",
                               arg=start - 2 * buy_in + prize)
        # the page read only fields of the protocol's models, the tournament's among them
        written = page.evaluate("[...window.__written]")
        reads = sorted(r for r in page.evaluate("[...window.__reads]")
                       if not any(r == w or r.startswith((w + ".", w + "[")) for w in written))
        assert any(r.startswith("TableState.tournament.deal.amounts[].") for r in reads)
        assert [r for r in reads if not resolves(r)] == []
        print(f"sit-and-go: {decisions} decisions, equities checked {checked} times,"
              f" place {place}, prize {prize}, deal {proposed and proposed['kind']}")
        assert not errors, errors
        page.close()


# ---------------------------------------------------------------- the room's tournaments
def test_room_lobby_tournaments(server: Server, browser: Any) -> None:
    """The lobby's Tournaments against the room's routes: create one from the form (bots to
    fill), register with a name (the buy-in leaves the bankroll), unregister (it comes back),
    register again, start it as its creator, and open its table from the row."""
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "room")
    page.wait_for_selector("[data-testid=tournaments]:visible")
    start = bankroll_shown(page)
    page.click("#create-tournament summary")
    page.fill("[data-testid=t-name]", "Friday")
    page.select_option("[data-testid=t-seats]", "6")
    page.select_option("[data-testid=t-speed]", "turbo")
    page.fill("[data-testid=t-stack]", "1000")
    page.fill("[data-testid=t-buyin]", "100")
    page.fill("[data-testid=t-max]", "6")
    page.fill("[data-testid=t-bots]", "3")
    page.click("[data-testid=t-create]")
    row = page.locator("[data-testid=tournament-list] tbody tr", has_text="Friday")
    row.wait_for()
    cells = "r => [...r.cells].map(c => c.textContent.trim())"
    assert row.evaluate(cells) == ["Friday", "0/6 + 3 bots", "100", "Registering",
                                   "Register Start now"]
    page.fill("[data-testid=t-player]", "Zoe")
    row.locator("[data-testid=t-register]").click()
    row.locator("[data-testid=t-unregister]").wait_for()
    assert row.evaluate(cells)[:2] == ["Friday registered", "1/6 + 3 bots"]
    page.wait_for_function("(want) => +document.getElementById('bankroll').textContent"
                           ".replace(/,/g, '') === want", arg=start - 100)
    row.locator("[data-testid=t-unregister]").click()
    row.locator("[data-testid=t-register]").wait_for()
    page.wait_for_function("(want) => +document.getElementById('bankroll').textContent"
                           ".replace(/,/g, '') === want", arg=start)
    row.locator("[data-testid=t-register]").click()
    row.locator("[data-testid=t-unregister]").wait_for()
    shot(page, "room-lobby-1366x768")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "room-lobby-390x844")
    page.set_viewport_size({"width": 1366, "height": 768})
    row.locator("[data-testid=t-start]").click()
    row.locator("[data-testid=t-table]").wait_for()
    assert row.evaluate(cells)[3] == "Running"
    page.click("[data-testid=lang-toggle]")
    assert row.evaluate(cells)[3] == "En juego"
    page.click("[data-testid=lang-toggle]")
    row.locator("[data-testid=t-table]").first.click()
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => [...document.querySelectorAll('#seats .seat .name')]"
                           ".some((e) => e.textContent.startsWith('Zoe'))")
    # a room tournament's table: the same bar as the sit-and-go's, no chips as money
    page.wait_for_selector("[data-testid=tourney-bar]:visible")
    assert page.inner_text("[data-testid=t-name]").startswith("Friday")
    assert "4 of 4 left" in page.inner_text("[data-testid=t-left]")
    shot(page, "room-tournament-table-1366x768")
    assert not errors, errors
    page.close()
