"""The practice room over HTTP and WebSocket: identity, bankroll, the protocol's refusals, and
the rule that a browser never receives another seat's hidden cards."""

from __future__ import annotations

import json
import re
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
from starlette.testclient import TestClient  # noqa: E402

from tapete import words  # noqa: E402
from tapete.core import events as ev  # noqa: E402
from tapete.server import Settings, create_app  # noqa: E402
from tapete.server.protocol import parse  # noqa: E402

Msg = dict[str, Any]


def settings(tmp: Path, **kw: Any) -> Settings:
    base: dict[str, Any] = dict(data_dir=tmp, think_delay=0, runout_delay=0.01, result_pause=0,
                                deck_seed=7, action_time=30, time_bank=0, coach_samples=200,
                                idle_pace=0.01)
    base.update(kw)
    return Settings(**base)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(settings(tmp_path))
    with TestClient(app) as c:
        c.get("/")
        yield c


def game_of(c: TestClient) -> Any:
    hub = c.app.state.hub  # type: ignore[attr-defined]
    (player,) = hub.players.values()
    return player.game


def cookie_pid(c: TestClient) -> str:
    """The player id in the client's signed identity cookie ({"pid": ...} in base64)."""
    import base64

    return str(json.loads(base64.b64decode(c.cookies["tapete_id"].split(".")[0]))["pid"])


def hands_of(c: TestClient) -> list[Msg]:
    """The player's hand list as the server keeps it (the newest first)."""
    hub = c.app.state.hub  # type: ignore[attr-defined]
    (player,) = hub.players.values()
    return list(player.hands)


HANDS: dict[int, list[Msg]] = {}  # each connection's hand list, as the page keeps it


def next_state(ws: Any, pred: Callable[[Msg], bool] = lambda s: True, limit: int = 500,
               seen: list[Msg] | None = None) -> Msg:
    """The next state that ``pred`` accepts, with the hand list the connection has been sent
    so far as ``history`` (sent whole once, then one hand at a time, as the page keeps it)."""
    for _ in range(limit):
        m = ws.receive_json()
        if seen is not None:
            seen.append(m)
        if m["type"] == "hands":
            known = [] if m["reset"] else HANDS.get(id(ws), [])
            HANDS[id(ws)] = (m["hands"] + known)[:50]
        if m["type"] == "state":
            m["history"] = HANDS.get(id(ws), [])
            if pred(m):
                return m
    raise AssertionError("the expected state never came")


def sit(ws: Any, structure: str = "nl", blinds: int = 0) -> Msg:
    next_state(ws, lambda s: s["lobby"])
    ws.send_text(json.dumps({"type": "sit", "structure": structure, "blinds": blinds}))
    return next_state(ws, lambda s: not s["lobby"])


def my_turn(s: Msg) -> bool:
    return s["decision"] is not None and s["hand"] is not None and "legal" in s["hand"]


def play(ws: Any, hands: int, choose: Callable[[Msg], Msg], seen: list[Msg] | None = None
         ) -> Msg:
    """Play until ``hands`` hands are in the session list, answering each decision."""
    while True:
        s = next_state(ws, seen=seen)
        if len(s["history"]) >= hands:
            return s
        if s["waiting"] and s["seats"][0] and s["seats"][0]["chips"] == 0:
            ws.send_text(json.dumps({"type": "add_chips", "amount": 200}))
        if my_turn(s):
            ws.send_text(json.dumps({"type": "act", "seq": s["seq"], **choose(s)}))


def passive(s: Msg) -> Msg:
    lg = s["hand"]["legal"]
    return {"action": "check" if lg["check"] else "call"}


def shove(s: Msg) -> Msg:
    lg = s["hand"]["legal"]
    if lg["max_to"] is not None:
        return {"action": "raise", "amount": lg["max_to"]}
    return {"action": "check" if lg["check"] else "call"}


# ---------------------------------------------------------------------- identity and money
def test_page_sets_a_signed_identity_and_a_bankroll(client: TestClient) -> None:
    assert "tapete_id" in client.cookies
    me = client.get("/api/me").json()
    assert me == {"bankroll": 10_000, "at_table": 0, "in_pot": 0, "total": 10_000, "version": 0,
                  "starting": 10_000}
    # a forged cookie is not an identity: a fresh one is made
    other = TestClient(client.app)
    other.cookies.set("tapete_id", "eyJwaWQiOiAiYWJjIn0.forged.sig")
    assert other.get("/api/me").json()["bankroll"] == 10_000


def test_websocket_without_identity_is_refused(tmp_path: Path) -> None:
    with TestClient(create_app(settings(tmp_path))) as c, c.websocket_connect("/ws") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "no_identity"


def test_cross_site_websocket_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()


def play_three_hands(app: Any) -> tuple[str, int]:
    """Sit with 200, play three hands and stop the server at the person's next decision,
    with the chips still at the table: the identity cookie and the player's total
    (bankroll + table + pot, which the hand waiting for the person leaves as it is)."""
    with TestClient(app) as c:
        c.get("/")
        cookie = c.cookies["tapete_id"]
        with c.websocket_connect("/ws") as ws:
            s = sit(ws)
            assert s["me"]["bankroll"] == 10_000 - 200 and s["me"]["at_table"] == 200
            play(ws, 3, passive)
            s = next_state(ws, my_turn, limit=5000)
    return cookie, int(s["me"]["total"])


def test_bankroll_survives_a_restart_and_resets(tmp_path: Path) -> None:
    cookie, total = play_three_hands(create_app(settings(tmp_path)))
    # a new server process on the same data: the practice table is restored from its log,
    # the hand where it stood (the person to act), every chip where it was
    app2 = create_app(settings(tmp_path))
    with TestClient(app2) as c2:
        c2.cookies.set("tapete_id", cookie)
        me = c2.get("/api/me").json()
        assert me["total"] == total and me["at_table"] + me["in_pot"] > 0
        with c2.websocket_connect("/ws") as ws:
            s = next_state(ws, lambda s: not s["lobby"] and my_turn(s))
            assert s["me"]["total"] == total
            assert len(s["history"]) >= 3  # the hands were stored
            ws.send_text(json.dumps({"type": "leave"}))  # checked or folded, then cashed out
            s = next_state(ws, lambda s: s["lobby"], limit=5000)
            assert s["me"]["at_table"] == 0 and s["me"]["total"] == s["me"]["bankroll"]
            assert s["me"]["total"] >= total - me["in_pot"]  # at most the pot: a fold
            storage = c2.app.state.storage  # type: ignore[attr-defined]
            ws.send_text(json.dumps({"type": "reset"}))
            s = next_state(ws, lambda s: s["me"]["bankroll"] == 10_000)
            assert s["me"]["total"] == 10_000
        assert storage.books(cookie_pid(c2)) == []


def test_reset_is_refused_at_the_table(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        ws.send_text(json.dumps({"type": "reset"}))
        m = next_state_or_error(ws)
        assert m["type"] == "error" and m["code"] == "seated"


def next_state_or_error(ws: Any, code: str | None = None) -> Msg:
    for _ in range(500):
        m = ws.receive_json()
        if m["type"] == "error":
            return m
    raise AssertionError("no error came")


# ---------------------------------------------------------------------- bad messages
BAD: list[tuple[str, str]] = [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "dance"}', "malformed"),
    ('{"type": "act", "action": "fold"}', "malformed"),  # no seq
    ('{"type": "act", "seq": true, "action": "fold"}', "malformed"),  # bool is not a number
    ('{"type": "act", "seq": "1", "action": "fold"}', "malformed"),
    ('{"type": "act", "seq": 1, "action": "fold", "extra": 1}', "malformed"),
    ('{"type": "act", "seq": 1, "action": "fold", "seat": 3}', "forged"),
    ('{"type": "act", "seq": 1, "action": "fold", "player": 2}', "forged"),
    ('{"type": "act", "seq": 1, "action": "steal"}', "malformed"),
    ('{"type": "act", "seq": 1, "action": "raise", "amount": 2.5}', "malformed"),
    ('{"type": "pre", "value": "raise_any"}', "malformed"),
    ('{"type": "coach", "on": "yes"}', "malformed"),
    ('{"type": "sit", "structure": "omaha", "blinds": 0}', "seated"),
    ("x" * 5000, "malformed"),
]


def test_parse_refuses_bad_shapes() -> None:
    from tapete.server.game import Refused

    for raw, code in BAD:
        if code == "seated":
            continue
        with pytest.raises(Refused) as e:
            parse(raw)
        assert e.value.code == code, raw
        assert e.value.message.en and e.value.message.es


def test_bad_messages_get_a_clear_error_and_change_nothing(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        s = sit(ws)
        s = next_state(ws, my_turn)
        game = game_of(client)
        before = (len(game.hand.events), game.seq, game.human_money())
        for raw, code in BAD:
            ws.send_text(raw)
            m = next_state_or_error(ws)
            assert m["code"] == code, raw
            assert m["message"]["en"] and m["message"]["es"]
        seq = s["seq"]
        lg = s["hand"]["legal"]
        checks: list[tuple[Msg, str]] = [
            ({"type": "act", "seq": seq - 1, "action": "call"}, "stale"),
            ({"type": "act", "seq": seq + 5, "action": "call"}, "stale"),
            ({"type": "act", "seq": seq, "action": "raise", "amount": lg["min_to"] - 1},
             "illegal"),
            ({"type": "act", "seq": seq, "action": "raise", "amount": lg["max_to"] + 1},
             "illegal"),
            ({"type": "act", "seq": seq, "action": "raise"}, "malformed"),
            ({"type": "act", "seq": seq, "action": "check" if not lg["check"] else "fold"},
             "illegal"),
        ]
        for msg, code in checks:
            ws.send_text(json.dumps(msg))
            m = next_state_or_error(ws)
            assert m["code"] == code, msg
        # the engine's own words explain an illegal amount
        ws.send_text(json.dumps({"type": "act", "seq": seq, "action": "raise",
                                 "amount": lg["min_to"] - 1}))
        m = next_state_or_error(ws)
        assert "Legal:" in m["message"]["en"] and "Legal:" in m["message"]["es"]
        assert (len(game.hand.events), game.seq, game.human_money()) == before
        # and the real action still works afterwards
        ws.send_text(json.dumps({"type": "act", "seq": seq, "action": "fold"
                                 if lg["fold"] else "check"}))
        next_state(ws, lambda s: s["seq"] != seq)
        # an action once the decision is gone is out of turn or stale
        ws.send_text(json.dumps({"type": "act", "seq": seq, "action": "call"}))
        m = next_state_or_error(ws)
        assert m["code"] in ("stale", "not_your_turn")


# ---------------------------------------------------------------------- hidden cards
def test_hidden_cards_are_never_sent(client: TestClient) -> None:
    seen: list[Msg] = []
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        ws.send_text(json.dumps({"type": "coach", "on": True}))
        play(ws, 12, shove, seen)
    storage = client.app.state.storage  # type: ignore[attr-defined]
    (pid,) = client.app.state.hub.players  # type: ignore[attr-defined]
    hands = {h.hand_id: h for h in storage.list_hands(pid, 100)}
    checked = 0
    for m in seen:
        if m["type"] != "state" or not m.get("hand"):
            continue
        h = m["hand"]
        row = hands.get(h["hand_id"])
        if row is None:
            continue
        events = [ev.from_json(e) for e in row.events]
        hole = {e.player: [f"{c}" for c in (e.cards or ())] for e in events
                if isinstance(e, ev.HoleDealt)}
        shown = {e.player for e in events if isinstance(e, ev.Shown)}
        you = h["you"]
        for i, p in enumerate(h["players"]):
            if i == you:
                continue
            if p["cards"] is not None:
                assert i in shown, (h["hand_id"], i, h["phase"])
                assert h["phase"] in ("runout", "done")
            checked += 1
        # no other seat's unshown card appears anywhere in the message text
        from tapete.core.cards import format_card

        text = json.dumps(m)
        for p, cards in hole.items():
            if p == you or p in shown:
                continue
            board = set(h["boards"][0])
            for c in cards:
                code = format_card(int(c))
                if code not in board and m.get("last_result", {}) is not None:
                    assert f'"{code}"' not in text.replace(
                        json.dumps(m.get("last_result")), ""), (code, h["hand_id"])
    assert checked > 100
    # after the hand, the bots' reasons (coach on) do not name the hands nobody showed
    from tapete.core.cards import RANKS

    explained = 0
    for m in seen:
        r = m.get("last_result") if m["type"] == "state" else None
        if not r or r["hand_id"] not in hands:
            continue
        events = [ev.from_json(e) for e in hands[r["hand_id"]].events]
        shown = {e.player for e in events if isinstance(e, ev.Shown)}
        words = json.dumps([e["why"] for e in r["explanations"]])
        explained += len(r["explanations"])
        for e in events:
            if isinstance(e, ev.HoleDealt) and e.player not in shown and e.cards:
                a, b = sorted(e.cards, reverse=True)
                shape = RANKS[a >> 2] + RANKS[b >> 2]
                if a >> 2 != b >> 2:
                    shape += "s" if a & 3 == b & 3 else "o"
                assert shape not in words, (shape, words)
    assert explained > 10


def test_phh_download_hides_the_cards_you_never_saw(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        s = play(ws, 2, lambda s: {"action": "fold" if s["hand"]["legal"]["fold"] else "check"})
    hand_id = s["history"][-1]["hand_id"]
    r = client.get(f"/api/hands/{hand_id}.phh")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    text = r.text
    assert "variant = 'NT'" in text and "????" in text
    assert text.count("d dh") == 6
    # the same events, without hidden cards, as JSON
    j = client.get(f"/api/hands/{hand_id}.json").json()
    dealt = [e for e in j["events"] if e["type"] == "HoleDealt"]
    assert sum(1 for e in dealt if e["cards"] is not None) >= 1
    # the hand list links each hand to the web replayer
    assert client.get(f"/replay/{hand_id}").status_code == 200
    assert client.get(f"/api/replay/hand/{hand_id}").status_code == 200
    # another person cannot download it
    other = TestClient(client.app)
    other.get("/")
    assert other.get(f"/api/hands/{hand_id}.phh").status_code == 404
    assert other.get(f"/api/replay/hand/{hand_id}").status_code == 404


# ---------------------------------------------------------------------- the table's flow
def test_all_in_run_out_is_dealt_street_by_street(client: TestClient) -> None:
    seen: list[Msg] = []

    def run_outs() -> list[Msg]:
        return [m["hand"] for m in seen if m["type"] == "state" and m.get("hand")
                and m["hand"]["phase"] == "runout"]

    with client.websocket_connect("/ws") as ws:
        sit(ws)
        for _ in range(5000):
            s = next_state(ws, seen=seen)
            if s["waiting"] and s["seats"][0]["chips"] == 0:
                ws.send_text(json.dumps({"type": "add_chips", "amount": 200}))
            if my_turn(s):
                ws.send_text(json.dumps({"type": "act", "seq": s["seq"], **shove(s)}))
            if len({len(h["boards"][0]) for h in run_outs()}) >= 3:
                break
    runouts = [m["hand"] for m in seen if m["type"] == "state" and m.get("hand")
               and m["hand"]["phase"] == "runout"]
    assert runouts, "no all-in run-out happened"
    by_hand: dict[str, list[int]] = {}
    for h in runouts:
        sizes = by_hand.setdefault(h["hand_id"], [])
        size = len(h["boards"][0])
        if not sizes or sizes[-1] != size:
            sizes.append(size)
        assert "results" not in h  # the result waits for the last card
    for sizes in by_hand.values():
        assert sizes == sorted(sizes)
        assert all(b - a <= 3 for a, b in zip(sizes, sizes[1:], strict=False))
    assert any(len(s) >= 2 for s in by_hand.values())


def test_running_out_of_time_checks_or_folds_and_sits_you_out(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path, action_time=0.2, time_bank=0))
    with TestClient(app) as c:
        c.get("/")
        with c.websocket_connect("/ws") as ws:
            sit(ws)
            s = next_state(ws, lambda s: s["sitting_out"] and s["hand"] is not None
                           and s["hand"]["phase"] == "done", limit=2000)
            # sat out: the bots play on without you
            s = next_state(ws, lambda s: s["sitting_out"] and s["live"]
                           and s["hand"]["you"] is None, limit=2000)
            assert s["sat_out_reason"]["en"].startswith("You ran out of time")
            assert s["history"] and any("out of time" in x["en"] for x in s["last_result"]["log"])
            ws.send_text(json.dumps({"type": "sit_in"}))
            s = next_state(ws, lambda s: not s["sitting_out"])
            assert s["sat_out_reason"] is None
            # back at the table: dealt in at the big blind; until then a spectator's view
            # shows no hole cards at all
            spectated = 0
            for _ in range(400):
                s = next_state(ws)
                h = s["hand"]
                if h and h["you"] is None and h["phase"] == "betting":
                    spectated += 1
                    assert all(p["cards"] is None for p in h["players"])
                if h and h["you"] is not None and s["live"]:
                    break
            assert h and h["you"] is not None


def test_pre_actions_and_coach(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        ws.send_text(json.dumps({"type": "coach", "on": True}))
        s = next_state(ws, lambda s: my_turn(s) and s["coach"] is not None, limit=2000)
        assert 0 <= s["coach"]["equity"] <= 100
        # read from this seat's view: a range for each opponent still in the hand
        assert s["coach"]["against"]["en"] == "against their likely ranges"
        assert len(s["coach"]["ranges"]) == s["coach"]["opponents"]
        # fold, then set "call any" for the next hand and watch it act for us
        lg = s["hand"]["legal"]
        ws.send_text(json.dumps({"type": "act", "seq": s["seq"],
                                 "action": "fold" if lg["fold"] else "check"}))
        s = next_state(ws, lambda s: s["hand"] is not None and s["hand"]["phase"] == "betting"
                       and s["decision"] is None and not s["hand"]["players"][
                           s["hand"]["you"]]["folded"], limit=2000)
        ws.send_text(json.dumps({"type": "pre", "value": "call_any"}))
        s = next_state(ws, lambda s: s["pre_action"] == "call_any" or s["decision"] is not None)
        s = next_state(ws, lambda s: s["last_result"] is not None and s["hand"] is None
                       or s["pre_action"] is None, limit=2000)
        assert s["pre_action"] is None
        r = next_state(ws, lambda s: s["last_result"] is not None, limit=2000)["last_result"]
        assert r["explanations"] and all(e["why"]["en"] for e in r["explanations"])


def test_pot_breakdown_matches_the_engine(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        s = play(ws, 8, shove)
    r = s["last_result"]
    assert r is not None
    pots = [x for x in r["pots"] if x["kind"] == "pot"]
    total = sum(x["amount"] for x in pots) + sum(x["amount"] for x in r["pots"]
                                                 if x["kind"] == "returned")
    assert total > 0
    assert hands_of(client)[0]["hand_id"] == r["hand_id"]
    for line in pots:  # a sentence per pot: who wins it, its amount (tapete.words)
        en, es = line["text"]["en"], line["text"]["es"]
        amount_en = re.escape(words.money(line["amount"]))
        amount_es = re.escape(words.money(line["amount"], lang="es"))
        assert re.search(rf"pot( \d+)?, {amount_en}", en)
        assert re.search(rf"bote( \w+)?( \d+)?, {amount_es}", es)
        for who in line["winners"]:
            assert en.startswith(who) or f", {who}" in en or f"and {who}" in en
            assert who in es


def test_leaving_returns_the_chips_to_the_bankroll(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        sit(ws, "pl", 1)
        s = next_state(ws, my_turn)
        assert s["rules"]["structure"] == "pot-limit" and s["rules"]["big_blind"] == 10
        assert s["me"]["at_table"] == 1000 and s["me"]["bankroll"] == 9000
        ws.send_text(json.dumps({"type": "leave"}))  # mid-hand: checked or folded, then out
        s = next_state(ws, lambda s: s["lobby"], limit=2000)
        assert s["me"]["at_table"] == 0 and s["me"]["bankroll"] == s["me"]["total"]
        assert len(s["history"]) == 1
    me = client.get("/api/me").json()
    assert me["bankroll"] == s["me"]["bankroll"]


def test_fixed_limit_and_too_small_a_bankroll(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        s = sit(ws, "fl", 0)
        s = next_state(ws, my_turn)
        lg = s["hand"]["legal"]
        if lg["min_to"] is not None:
            assert lg["min_to"] == lg["max_to"]  # fixed limit: one size
        ws.send_text(json.dumps({"type": "leave"}))
        s = next_state(ws, lambda s: s["lobby"], limit=2000)
        # blinds 50/100 need 2,000 chips at least: fine with 10,000; a poorer player is told
        client.app.state.hub.players[next(iter(client.app.state.hub.players))].purse.bankroll = 500  # type: ignore[attr-defined]  # noqa: E501
        ws.send_text(json.dumps({"type": "sit", "structure": "nl", "blinds": 3}))
        m = next_state_or_error(ws)
        assert m["code"] == "no_bankroll" and "10,000" in m["message"]["en"]
        assert "10.000" in m["message"]["es"]


def test_tapete_play_starts_uvicorn_and_opens_the_browser(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import threading
    import webbrowser

    import uvicorn

    from tapete.cli import main

    ran: dict[str, Any] = {}
    opened: list[str] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.update(app=app, **kw))
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url))

    class Now(threading.Timer):
        def start(self) -> None:
            self.function(*self.args)

    monkeypatch.setattr(threading, "Timer", Now)
    assert main(["play", "--port", "9123", "--data-dir", str(tmp_path)]) == 0
    assert ran["port"] == 9123 and ran["host"] == "127.0.0.1"
    assert opened == ["http://localhost:9123/"]
    assert (tmp_path / "tapete.sqlite3").exists()
    opened.clear()
    from browser import free_port

    # the port is checked before anything starts: a free one (8765 may be in use here)
    assert main(["play", "--no-browser", "--host", "0.0.0.0", "--data-dir", str(tmp_path),
                 "--port", str(free_port()),
                 "--database", f"sqlite:///{tmp_path / 'other.db'}"]) == 0
    assert not opened and ran["host"] == "0.0.0.0"
    assert (tmp_path / "other.db").exists()
    assert "practice table" in capsys.readouterr().out


# ---------------------------------------------------------------------- sitting out
def _sit_out_now(ws: Any) -> Msg:
    """Sit out (after the current hand, playing it passively); the state once the bots deal
    a hand without you."""
    ws.send_text(json.dumps({"type": "sit_out"}))
    for _ in range(3000):
        s = next_state(ws)
        if my_turn(s):
            lg = s["hand"]["legal"]
            ws.send_text(json.dumps({"type": "act", "seq": s["seq"],
                                     "action": "check" if lg["check"] else "fold"}))
        if s["sitting_out"] and s["live"] and s["hand"]["you"] is None:
            return s
        assert not (s["sitting_out"] and s["waiting"]), "the table stopped while you sit out"
    raise AssertionError("the bots never dealt without you")


def test_while_you_sit_out_the_bots_play_on_and_you_come_back_at_the_big_blind(
        tmp_path: Path) -> None:
    pace = 0.03
    app = create_app(settings(tmp_path, idle_pace=pace))
    with TestClient(app) as c:
        c.get("/")
        with c.websocket_connect("/ws") as ws:
            sit(ws)
            _ = next_state(ws, my_turn)
            s = _sit_out_now(ws)
            mine = len(hands_of(c))
            # the bots keep dealing to each other: several hands, at the idle pace
            hands = {s["hand"]["hand_id"]}
            start, states = time.monotonic(), 0
            while len(hands) < 5:
                s = next_state(ws)
                states += 1
                assert s["sitting_out"] and not s["waiting"]
                if s["live"]:
                    assert s["hand"]["you"] is None and s["decision"] is None
                    hands.add(s["hand"]["hand_id"])
            elapsed = time.monotonic() - start
            # each hand: a pause, then at least one bot action, each at least `pace`
            assert elapsed >= 4 * 2 * pace
            # no flood: a handful of states per paced step (start, action, end, run-out)
            assert states <= 4 * elapsed / pace + 10, (states, elapsed)
            assert s["owes_blinds"]  # the big blind went past you
            # hands you only watched are not your hands
            assert len(hands_of(c)) == mine
            # back: you wait for the big blind; the hands before it are dealt without you
            ws.send_text(json.dumps({"type": "sit_in"}))
            s = next_state(ws, lambda s: not s["sitting_out"])
            assert s["waiting_for_big_blind"] and s["owes_blinds"]
            for _ in range(3000):
                s = next_state(ws)
                if s["live"] and s["hand"]["you"] is not None:
                    break
            else:
                raise AssertionError("never dealt back in")
            assert s["bb_seat"] == 0  # dealt in at the big blind, nothing dead to post
            assert not s["owes_blinds"] and not s["waiting_for_big_blind"]
            # leaving while sitting out does not wait for the bots' hand
            _sit_out_now(ws)
            ws.send_text(json.dumps({"type": "leave"}))
            s = next_state(ws, lambda s: s["lobby"], limit=50)
            assert s["me"]["at_table"] == 0


def test_coming_back_you_can_post_the_missed_blinds(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path, idle_pace=0.01))
    with TestClient(app) as c:
        c.get("/")
        with c.websocket_connect("/ws") as ws:
            sit(ws)
            _ = next_state(ws, my_turn)
            s = _sit_out_now(ws)
            s = next_state(ws, lambda s: s["owes_blinds"], limit=3000)
            ws.send_text(json.dumps({"type": "sit_in", "post": True}))
            s = next_state(ws, lambda s: not s["sitting_out"])
            assert not s["waiting_for_big_blind"]
            # dealt in before the big blind comes round (the table deals a returner who
            # posts at the first hand where they are not between the button and the blind)
            s = next_state(ws, lambda s: s["live"] and s["hand"]["you"] is not None,
                           limit=3000)
            assert s["bb_seat"] != 0
            hand_id = s["hand"]["hand_id"]
            row = c.get(f"/api/hands/{hand_id}.json")
            while row.status_code != 200:  # stored once the hand is over: play it out
                s = next_state(ws)
                if my_turn(s):
                    lg = s["hand"]["legal"]
                    ws.send_text(json.dumps({"type": "act", "seq": s["seq"],
                                             "action": "check" if lg["check"] else "fold"}))
                if s["hand"] is not None and s["hand"]["hand_id"] == hand_id \
                        and s["hand"]["phase"] == "done":
                    time.sleep(0.2)
                    row = c.get(f"/api/hands/{hand_id}.json")
            # the big blind had gone past you: you posted it (live) and the small (dead)
            setup = row.json()["setup"]
            you = setup["you"]
            assert setup["seats"][you] == 0
            assert setup["blinds"][you] == s["rules"]["big_blind"]
            assert setup["dead"][you] == s["rules"]["small_blind"]


def test_sit_in_post_must_be_a_bool() -> None:
    assert parse('{"type": "sit_in", "post": true}').post is True
    with pytest.raises(Exception, match="wrong type"):
        parse('{"type": "sit_in", "post": "yes"}')


def test_default_name_and_clashes_in_the_players_language(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        next_state(ws, lambda s: s["lobby"])
        ws.send_text(json.dumps({"type": "sit", "structure": "nl", "blinds": 0, "lang": "es"}))
        s = next_state(ws, lambda s: not s["lobby"])
        assert s["seats"][0]["name"] == "Héroe"
        ws.send_text(json.dumps({"type": "leave"}))
        next_state(ws, lambda s: s["lobby"], limit=2000)
        ws.send_text(json.dumps({"type": "sit", "structure": "nl", "blinds": 0,
                                 "name": "Ana", "lang": "es"}))
        s = next_state(ws, lambda s: not s["lobby"])
        assert s["seats"][0]["name"] == "Ana (tú)"
        ws.send_text(json.dumps({"type": "leave"}))
        next_state(ws, lambda s: s["lobby"], limit=2000)
        ws.send_text(json.dumps({"type": "sit", "structure": "nl", "blinds": 0}))
        s = next_state(ws, lambda s: not s["lobby"])
        assert s["seats"][0]["name"] == "Hero"
    with pytest.raises(Exception, match="en or es"):
        parse('{"type": "sit", "structure": "nl", "blinds": 0, "lang": "fr"}')


def test_http_errors_in_both_languages(client: TestClient) -> None:
    r = client.get("/api/hands/nope.json")
    assert r.status_code == 404 and r.json()["error"] == {"en": "no such hand",
                                                          "es": "no existe esa mano"}
    r = client.get("/api/hands/nope.phh")
    assert r.status_code == 404 and "no existe esa mano" in r.text
