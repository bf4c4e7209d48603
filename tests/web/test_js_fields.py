"""The table page reads only what the server sends, and says "Call X (all-in)" when it is.

In the system's Chromium (Playwright, as in test_web_table.py), every protocol message the page
parses is wrapped, before the page's own scripts run, in a Proxy that records each field the
page reads (``TableState.hand.legal.call_all_in``; ``[]`` for an item of a list), present or
not; what the page stores in a message itself (the hand list, as ``history``) is its own. A
session is played with the coach on and a short stack, calling every bet; each field read
must be a field of the models in ``tapete.server.protocol`` (which the server's messages are
checked against in tests/server/test_protocol.py). The buttons are checked against the
engine's own ``legal()`` at every decision: "Call 40 (all-in)" exactly when the call takes the
whole stack, "Call 40" otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import NoneType, UnionType
from typing import Any, Literal, Union, get_args, get_origin

import msgspec
import pytest

from browser import ARTIFACTS as ALL_ARTIFACTS
from browser import LiveServer, chromium, require_chromium

playwright_sync = require_chromium()

from tapete.server import Settings, create_app, protocol  # noqa: E402

ARTIFACTS = ALL_ARTIFACTS / "web-fields"
HANDS = 30  # at most, to meet a call that takes the whole stack

# Before the page's scripts: JSON.parse wraps each protocol message (an object with a type the
# server sends) in a recording Proxy; the page's sit message asks for a buy-in of window.__buyIn.
RECORDER = """(() => {
  const reads = window.__reads = new Set();
  const written = window.__written = new Set();  // what the page stores in a message itself
  const proxies = new WeakMap();
  const ROOTS = { hands: "Hands", error: "Error", pong: "Pong" };
  function wrap(value, path) {
    if (value === null || typeof value !== "object") return value;
    let p = proxies.get(value);
    if (p) return p;
    p = new Proxy(value, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        if (typeof prop === "symbol") return v;
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


def resolves(path: str) -> bool:
    """Whether a read such as ``TableState.hand.players[].last_action.amount`` is a field of
    the models (``[]``: an item of a list)."""
    root, *steps = path.replace("[]", ".[]").split(".")
    types: list[Any] = [getattr(protocol, root, None)]
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
                    if f.encode_name == step:
                        nxt.append(f.type)
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
        page.wait_for_function(TURN, timeout=20_000, polling=20)
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
            " || document.getElementById('decide').hidden", timeout=10_000, polling=20)
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
