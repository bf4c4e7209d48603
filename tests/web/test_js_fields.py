"""The table page and the replayer read only what the server sends; the table says "Call X
(all-in)" when it is.

In the system's Chromium (Playwright, as in test_web_table.py), every protocol message the page
parses is wrapped, before the page's own scripts run, in a Proxy that records each field the
page reads (``TableState.hand.legal.call_all_in``; ``[]`` for an item of a list), present or
not; what the page stores in a message itself (the hand list, as ``history``) is its own. A
session is played with the coach on and a short stack, calling every bet; each field read
must be a field of the models in ``tapete.server.protocol`` (which the server's messages are
checked against in tests/server/test_protocol.py). The buttons are checked against the
engine's own ``legal()`` at every decision: "Call 40 (all-in)" exactly when the call takes the
whole stack, "Call 40" otherwise.

The replayer's page gets HTTP answers, not messages: each JSON answer of a replayer route
(``Response.json``) is wrapped the same way, its root named by the route (``Timeline``,
``FileAnswer``, ``IcmAnswer``; ``ErrorAnswer`` for any status but 200), and every field the
page reads must be one of :mod:`tapete.server.replay_protocol`'s models. A hand with two side
pots and rake (as PHH and as its PokerStars history), a multi-hand PHH file, a file with a hand
that cannot be read, a shared link, a preloaded file, an illegal, a partial and a doctored
hand, insurance, the ICM panel and its refusal are opened and stepped through at 1366x768 and
390x844 (screenshots in test-artifacts/web-fields/).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, NoneType, UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import pytest

from browser import ARTIFACTS as ALL_ARTIFACTS
from browser import LiveServer, chromium, require_chromium
from samples import ALL_IN_ACES_KINGS

playwright_sync = require_chromium()

from tapete.history import phh, pokerstars  # noqa: E402
from tapete.history.replay import replay  # noqa: E402
from tapete.server import Settings, create_app, protocol, replayer  # noqa: E402
from tapete.server import replay_protocol as rp  # noqa: E402

ARTIFACTS = ALL_ARTIFACTS / "web-fields"
HANDS = 30  # at most, to meet a call that takes the whole stack
DATA = Path(__file__).resolve().parents[1] / "data"
SIDE_POTS = DATA / "pokerstars" / "hhsmithy_cash_nlhe_two_side_pots_rake.txt"
TEN_HANDS = DATA / "pokerstars" / "hhsmithy_cash_nlhe_10_hands_rake.txt"
OMAHA = DATA / "pokerstars" / "hhsmithy_cash_plo_run_it_twice_side_pot_rake.txt"
HANDHQ = next((DATA / "phh" / "phh-dataset").rglob("*.phhs"))  # 21 hands, one file

# A recording Proxy (window.__wrap(value, root)): each field read of the value, at any depth,
# is kept in window.__reads as a path ("TableState.hand.legal.call_all_in"; "[]" for an item of
# a list); what the page stores in it, in window.__written.
PROXY = """(() => {
  const reads = window.__reads = new Set();
  const written = window.__written = new Set();  // what the page stores in a message itself
  const proxies = new WeakMap();
  function wrap(value, path) {
    if (value === null || typeof value !== "object") return value;
    let p = proxies.get(value);
    if (p) return p;
    p = new Proxy(value, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        // "then": a promise resolved with the value asks whether it is a promise itself
        if (typeof prop === "symbol" || prop === "then") return v;
        if (Array.isArray(target)) {
          return /^[0-9]+$/.test(prop) ? wrap(v, path + "[]") : v;
        }
        if (prop in Object.prototype) return v;
        reads.add(path + "." + prop);
        return wrap(v, path + "." + prop);
      },
      set(target, prop, value, receiver) {
        if (typeof prop === "string" && !Array.isArray(target)) written.add(path + "." + prop);
        return Reflect.set(target, prop, value, receiver);
      },
      has(target, prop) {
        if (typeof prop === "string" && !Array.isArray(target)) reads.add(path + "." + prop);
        return Reflect.has(target, prop);
      },
    });
    proxies.set(value, p);
    return p;
  }
  window.__wrap = wrap;
})();"""

# Before the page's scripts: JSON.parse wraps each protocol message (an object with a type the
# server sends) in a recording Proxy; the page's sit message asks for a buy-in of window.__buyIn.
RECORDER = PROXY + """(() => {
  const wrap = window.__wrap;
  const ROOTS = { hands: "Hands", error: "Error", pong: "Pong" };
  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    const v = parse.call(JSON, text, reviver);
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    const root = v.type === "state" ? (v.lobby ? "LobbyState" : "TableState") : ROOTS[v.type];
    return root ? wrap(v, root) : v;
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (window.__buyIn) {
      const m = parse.call(JSON, data);
      if (m.type === "sit") { m.buy_in = window.__buyIn; data = JSON.stringify(m); }
    }
    return send.call(this, data);
  };
})();"""

TURN = """() => { const vis = (id) => document.getElementById(id).checkVisibility();
  const c = document.getElementById('btn-call');
  return (vis('btn-call') && !c.disabled) || vis('btn-add') || vis('btn-back'); }"""


def _structs(tp: Any) -> list[type[msgspec.Struct]]:
    """The models a field's type may be, through ``| None`` and unions (not lists)."""
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return [tp]
    if get_origin(tp) in (Union, UnionType):
        return [s for arg in get_args(tp) for s in _structs(arg)]
    return []


def _items(tp: Any) -> list[Any]:
    """What a list (or tuple) type holds, through ``| None`` and unions."""
    if get_origin(tp) in (list, tuple):
        return list(get_args(tp))
    if get_origin(tp) in (Union, UnionType):
        return [x for arg in get_args(tp) for x in _items(arg)]
    return []


def resolves(path: str, models: ModuleType = protocol) -> bool:
    """Whether a read such as ``TableState.hand.players[].last_action.amount`` is a field of
    the models (``[]``: an item of a list) whose roots are in ``models``."""
    root, *steps = path.replace("[]", ".[]").split(".")
    types: list[Any] = [getattr(models, root, None)]
    if types[0] is None:
        return False
    for step in steps:
        nxt: list[Any] = []
        for tp in types:
            if step == "[]":
                nxt += _items(tp)
                continue
            for model in _structs(tp):
                for f in msgspec.structs.fields(model):
                    if f.encode_name == step:  # its type, without its doc (Annotated)
                        nxt.append(get_args(f.type)[0] if get_origin(f.type) is Annotated
                                   else f.type)
                tag = model.__struct_config__.tag_field
                if tag == step:
                    nxt.append(str)
        if not nxt:
            return False
        types = [t for t in nxt if t is not NoneType and get_origin(t) is not Literal] or [str]
    return True


def test_the_resolver_refuses_what_no_model_has() -> None:
    assert resolves("TableState.hand.legal.call_all_in")
    assert resolves("TableState.hand.players[].last_action.amount")
    assert resolves("TableState.last_result.pots[].kind")
    assert resolves("TableState.hand.boards[][]")
    for path in ("TableState.hand.legal.stack_total", "TableState.hand.legal.bet",
                 "TableState.hand.players.stack", "LobbyState.hand", "Nothing.type",
                 "TableState.seq.x"):
        assert not resolves(path), path


class Server(LiveServer):
    def __init__(self, tmp: Path) -> None:
        self.settings = Settings(data_dir=tmp, think_delay=0.0, runout_delay=0.05,
                                 result_pause=0.05, deck_seed=5, action_time=120, time_bank=0,
                                 coach_samples=60, idle_pace=0.01)
        super().__init__(create_app(self.settings))

    def game(self) -> Any:
        (p,) = [p for p in self.app.state.hub.players.values() if p.game is not None]
        return p.game


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("fields")) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_sync, ARTIFACTS) as b:
        yield b


def test_the_page_reads_only_sent_fields_and_calls_all_in(server: Server,
                                                          browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-US")
    page.add_init_script(RECORDER)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("[data-testid=lobby]:visible")
    page.evaluate("window.__buyIn = 40")  # 20 big blinds: the bots' bets soon cover it
    page.fill("#name", "Max")
    page.check("[data-testid=coach-toggle]")
    page.click("[data-testid=sit]")
    page.wait_for_selector("#room:visible")
    all_in_calls = plain_calls = 0
    hands = 0
    while all_in_calls < 2 and hands < HANDS:
        page.wait_for_function(TURN, polling=20)
        for button in ("btn-add", "btn-back"):
            if page.is_visible(f"[data-testid={button}]"):
                page.click(f"[data-testid={button}]")
                page.wait_for_selector(f"[data-testid={button}]", state="hidden")
        game = server.game()
        hands = game.hand_no
        hand = game.hand
        if hand is None or game.decision is None or hand.actor != game.human_index:
            page.wait_for_timeout(20)  # between two states: look again
            continue
        # the page may still show the decision before (its state is on the way)
        if page.evaluate("document.body.dataset.seq") != str(game.decision):
            page.wait_for_timeout(20)
            continue
        legal = hand.legal()
        words = page.inner_text("[data-testid=btn-call]")
        if legal.check:
            assert words == "Check", words
        elif legal.call_all_in:
            assert legal.call == hand.stacks[game.human_index]
            assert words == f"Call {legal.call:,} (all-in)", words
            if all_in_calls == 0:
                page.screenshot(path=str(ARTIFACTS / "call-all-in.png"))
            all_in_calls += 1
        else:
            assert words == f"Call {legal.call:,}", words
            plain_calls += 1
        seq = page.evaluate("document.body.dataset.seq")
        page.click("[data-testid=btn-call]")
        page.wait_for_function(
            f"() => document.body.dataset.seq !== {seq!r}"
            " || document.getElementById('decide').hidden", polling=20)
    assert all_in_calls >= 1 and plain_calls >= 1, (all_in_calls, plain_calls, hands)
    written = page.evaluate("[...window.__written]")
    reads = sorted(r for r in page.evaluate("[...window.__reads]")
                   if not any(r == w or r.startswith((w + ".", w + "[")) for w in written))
    assert written == [] or all(w.endswith(".history") for w in written), written
    assert errors == []
    assert "TableState.hand.legal.call_all_in" in reads
    assert any(r.startswith("TableState.coach.") for r in reads), reads
    assert any(r.startswith("TableState.last_result.") for r in reads), reads
    unknown = [r for r in reads if not resolves(r)]
    assert unknown == [], unknown


def test_the_room_table_page_reads_only_sent_fields(server: Server, browser: Any) -> None:
    """The same page at a room table (/t/ID): watching, taking a seat, playing with bots."""
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-US")
    page.add_init_script(RECORDER)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "room")
    page.check("[data-testid=bots]")
    # the bots think a moment, as people watch them: time for the page to offer pre-actions
    # (at no thinking time they answer within a millisecond of their turn)
    server.app.state.room.think_ms = 300
    page.click("[data-testid=create]")
    page.wait_for_url("**/t/*")
    running = server.app.state.room.get(page.url.rsplit("/", 1)[-1])
    page.locator(".sit-here:visible").first.click()
    page.fill("[data-testid=seat-name]", "Max")
    page.click("[data-testid=take-seat-ok]")
    page.wait_for_function("() => document.body.dataset.seated === '1'")
    pre = False
    while running.table.hand_no < 6:
        # The page changes under the test (my turn comes, the hand ends): a control seen
        # a moment ago may be gone by the click, so each click is tried briefly and the
        # loop looks again (a check the page undid at once, re-drawing the box, as well).
        try:
            if not pre and page.is_visible("[data-testid=pre-call-any]"):
                # played for me when my turn comes
                page.check("[data-testid=pre-call-any]", timeout=1000)
                pre = True
            elif page.is_enabled("[data-testid=btn-call]") and \
                    page.is_visible("[data-testid=btn-call]"):
                page.click("[data-testid=btn-call]", timeout=1000)
            for button in ("btn-add", "btn-back"):
                if page.is_visible(f"[data-testid={button}]"):
                    page.click(f"[data-testid={button}]", timeout=1000)
        except playwright_sync.Error:  # a TimeoutError too
            pass
        page.wait_for_timeout(30)
    page.screenshot(path=str(ARTIFACTS / "room-table.png"))
    written = page.evaluate("[...window.__written]")
    reads = sorted(r for r in page.evaluate("[...window.__reads]")
                   if not any(r == w or r.startswith((w + ".", w + "[")) for w in written))
    assert errors == [] and pre
    assert {"TableState.room.seated", "TableState.room.config.max_buy_in",
            "TableState.room.config.game"} <= set(reads)
    unknown = [r for r in reads if not resolves(r)]
    assert unknown == [], unknown


# ---------------------------------------------------------------------------- the replayer

# Before the replayer's scripts: the JSON answer of each replayer route is wrapped, its root
# named by the route (an ErrorAnswer for any status but 200).
REPLAY_RECORDER = PROXY + """((routes) => {
  const wrap = window.__wrap;
  const json = Response.prototype.json;
  Response.prototype.json = async function () {
    const v = await json.call(this);
    const path = new URL(this.url).pathname;
    const hit = routes.find(([r]) => path === r || (r.endsWith("/") && path.startsWith(r)));
    if (!hit || !v || typeof v !== "object" || Array.isArray(v)) return v;
    return wrap(v, this.status === 200 ? hit[1] : "ErrorAnswer");
  };
})(""" + json.dumps([[route, model.__name__] for route, model in rp.ANSWERS.items()]) + ");"

# what the replayer's page must have read by the end, one field of each answer and panel
REPLAY_READS = (
    "FileAnswer.timeline.frames[].pots[].eligible", "FileAnswer.timeline.frames[].legal.why",
    "FileAnswer.timeline.frames[].equity.unknown", "FileAnswer.timeline.frames[].event.type",
    "FileAnswer.timeline.frames[].insurance.text", "FileAnswer.timeline.result.items[].winners",
    "FileAnswer.timeline.result.items[].player", "FileAnswer.timeline.mismatches[].en",
    "FileAnswer.timeline.note", "FileAnswer.timeline.error", "FileAnswer.timeline.share",
    "FileAnswer.hands[].error", "FileAnswer.hands[].players", "FileAnswer.selected",
    "FileAnswer.error", "Timeline.frames[].pot_total", "Timeline.players[].cards",
    "IcmAnswer.players[].change", "ErrorAnswer.error", "ErrorAnswer.error.es",
    "FileAnswer.timeline.fairness.reasons[].en", "FileAnswer.timeline.fairness.commitment",
)


def test_the_resolver_reads_the_replayer_models() -> None:
    for path in REPLAY_READS:
        assert resolves(path, rp), path
    for path in ("Timeline.frames[].potTotal", "Timeline.frames[].pots.amount",
                 "FileAnswer.frames", "Timeline.timeline", "IcmAnswer.error",
                 "Timeline.frames[].event.name", "TableState.hand"):
        assert not resolves(path, rp), path


def _step_through(page: Any, until_end: bool = True) -> None:
    """Every frame of the hand shown, one action at a time, from the first."""
    page.keyboard.press("Home")
    last = int(page.eval_on_selector("[data-testid=scrub]", "e => e.max"))
    for k in range(1, last + 1 if until_end else last // 2 + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"document.body.dataset.step === '{k}'")


def _upload(page: Any, name: str, data: bytes, wait: str) -> None:
    page.set_input_files("[data-testid=file-input]", files=[{
        "name": name, "mimeType": "text/plain", "buffer": data}])
    page.wait_for_function(wait)


def _title_is(prefix: str) -> str:
    return f"document.getElementById('hand-title').textContent.startsWith({prefix!r})"


def _unfair_hand() -> bytes:
    """A PHH hand with its fair deal's fields, the commitment not the deck and secret's."""
    from tapete.core.cards import Deck
    from tapete.core.hand import Hand
    from tapete.core.rules import Rules
    from tapete.room.shuffle import shuffle

    deal = shuffle(Deck(seed=1).cards(), bytes(32))
    hand = Hand(Rules(small_blind=1, big_blind=2), [100, 100], deck=deal.deck,
                auto_showdown=True)
    while not hand.done:
        hand.check_or_call()
    fields = {**phh.fair_fields(deal), phh.FAIR_COMMITMENT: "0" * 64}
    return phh.dumps(hand, extra=fields).encode()


def test_the_replayer_reads_only_what_its_routes_answer(server: Server, browser: Any,
                                                        tmp_path: Path) -> None:
    (record, *_) = list(pokerstars.read_file(str(SIDE_POTS)))
    hand = replay(record).engine
    assert hand is not None and len(hand.pots()) == 3 and hand.rake > 0
    side_pots_phh = phh.dumps(hand).encode()  # the same hand as PHH (the rake: _rake_fixed)
    reads: set[str] = set()
    written: set[str] = set()
    errors: list[str] = []

    def harvest(page: Any) -> None:  # before the page goes: what it read and wrote
        reads.update(page.evaluate("[...window.__reads]"))
        written.update(page.evaluate("[...window.__written]"))

    for width, height in ((1366, 768), (390, 844)):
        phone = width < 500
        page = browser.new_page(viewport={"width": width, "height": height}, locale="en-US",
                                is_mobile=phone, has_touch=phone)
        page.add_init_script(REPLAY_RECORDER)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "replay")
        page.wait_for_selector("[data-testid=welcome]:visible")
        # two side pots and rake, as PHH: every frame, then the result
        _upload(page, "side-pots.phh", side_pots_phh, _title_is("side-pots.phh"))
        _step_through(page, until_end=False)
        assert len(page.query_selector_all("[data-testid=pot]")) == 2
        assert page.is_visible("[data-testid=decision]")
        page.screenshot(path=str(ARTIFACTS / f"replayer-{width}x{height}.png"))
        _step_through(page)
        assert page.inner_text("[data-testid=pot-breakdown] li").startswith(
            "CrSilva.11 wins the main pot, €5.37")
        page.screenshot(path=str(ARTIFACTS / f"replayer-{width}x{height}-end.png"),
                        full_page=True)
        if phone:
            assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
            harvest(page)
            page.close()
            continue
        # the ICM panel, and its refusal
        page.fill("[data-testid=prizes]", "70, 30")
        page.click("[data-testid=icm-go]")
        page.wait_for_selector("[data-testid=icm]:visible")
        page.fill("[data-testid=prizes]", "1,500")
        page.click("[data-testid=icm-go]")
        page.wait_for_selector("[data-testid=icm-error]:visible")
        page.fill("[data-testid=prizes]", "")
        # the shared link (Timeline), stepped through in Spanish
        share = page.input_value("[data-testid=share-link]")
        assert "#h=" in share
        harvest(page)
        page.goto(share.replace("?s=", "?x="))
        page.wait_for_function("document.body.dataset.step === '0'")
        page.click("[data-testid=lang-toggle]")
        _step_through(page)
        page.click("[data-testid=lang-toggle]")
        # its PokerStars history, doctored: the summary disagrees with the rules
        text = SIDE_POTS.read_text(encoding="utf-8-sig")
        head, sep, summary = text.partition("*** SUMMARY ***")
        _upload(page, "doctored.txt",
                (head + sep + summary.replace("Total pot €", "Total pot €1", 1)).encode(),
                "!document.getElementById('mismatches').hidden")
        # insurance once both players are all in on the flop and the turn
        _upload(page, "all-in.phh", ALL_IN_ACES_KINGS.encode(), _title_is("all-in.phh"))
        _step_through(page)
        # a hand that carries a commitment to its deck, not the one it was dealt from
        _upload(page, "unfair.phh", _unfair_hand(),
                "document.getElementById('fairness').dataset.status === 'rejected'")
        # a multi-hand PHH file of tests/data, and another of its hands
        _upload(page, HANDHQ.name, HANDHQ.read_bytes(), _title_is(HANDHQ.name))
        first = page.inner_text("[data-testid=hand-title]")
        page.select_option("[data-testid=hand-list]", "2")
        page.wait_for_function(
            f"document.getElementById('hand-title').textContent !== {first!r}")
        # a file whose first hand cannot be read (Omaha) before ten that can: the list stays
        unplayed = OMAHA.read_bytes().replace(b"Omaha", b"Courchevel")  # a game not played
        _upload(page, "mixed.txt", unplayed + b"\n\n" + TEN_HANDS.read_bytes(),
                "!document.getElementById('error').hidden")
        assert page.is_visible("[data-testid=hand-list]")
        # an illegal action, a partial hand, a file that is no hand history
        bad = (b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\n"
               b"min_bet = 100\nstarting_stacks = [1000, 1000]\nactions = ['d dh p1 AsAh',"
               b" 'd dh p2 KsKh', 'p2 cbr 150']\n")
        _upload(page, "bad.phh", bad,
                "document.getElementById('error').textContent.includes('150')")
        partial = bad.replace(b"'p2 cbr 150'", b"'p2 cbr 300'")
        _upload(page, "partial.phh", partial, "!document.getElementById('notice').hidden")
        _upload(page, "notes.txt", b"just some notes\n",
                "document.getElementById('welcome').checkVisibility()")
        # a file that tapete replay --open loaded, and another of its hands
        harvest(page)
        page.goto(server.url + replayer.preload(server.app, TEN_HANDS.name,
                                                TEN_HANDS.read_text(encoding="utf-8-sig"))[1:])
        page.wait_for_function(_title_is(TEN_HANDS.name))
        first = page.inner_text("[data-testid=hand-title]")
        page.select_option("[data-testid=hand-list]", "4")
        page.wait_for_function(
            f"document.getElementById('hand-title').textContent !== {first!r}")
        page.keyboard.press("End")
        harvest(page)
        page.close()
    assert errors == [] and written == set()
    missing = [r for r in REPLAY_READS if r not in reads]
    assert missing == [], missing
    unknown = sorted(r for r in reads if not resolves(r, rp))
    assert unknown == [], unknown
