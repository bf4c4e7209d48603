"""The web replayer's timeline (no browser) and its HTTP routes.

Every frame's pots, stacks, bets and returns are checked against the engine driven through its
public methods step by step; equity against :mod:`tapete.eval.equity`; the final breakdown against
the engine's settled pots. Every answer of the routes fits its model of
:mod:`tapete.server.replay_protocol` (the client below checks each one), and so does the timeline
of every hand of the test files.
"""

from __future__ import annotations

import base64
import dataclasses
import zlib
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samples import ABC, stored_row
from strategies import play_setup, setup_st
from tapete.core import events as ev
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.core.text import Text
from tapete.eval.equity import equity
from tapete.history import phh, pokerstars
from tapete.history.record import HandRecord
from tapete.history.replay import replay
from tapete.server import local, replayer, sharelink
from tapete.server import replay_protocol as rp
from tapete.server.replayer import (
    ReplayInputError,
    decode_link,
    encode_hand,
    file_timeline,
    record_answer,
    timeline,
    timeline_of_record,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "pokerstars"
TWO_SIDE_POTS = DATA / "hhsmithy_cash_nlhe_two_side_pots_rake.txt"
TEN_HANDS = DATA / "hhsmithy_cash_nlhe_10_hands_rake.txt"
RUN_TWICE = "hhsmithy_cash_nlhe_cap_run_it_twice_split_rake.txt"
OMAHA = DATA / "hhsmithy_cash_plo_run_it_twice_side_pot_rake.txt"

AK_QQ = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [10000, 10000]
actions = ['d dh p1 QsQd', 'd dh p2 AhKh', 'p2 cbr 10000', 'p1 cc', 'd db 2c7d9s', 'd db 3h',
           'd db 4s']
players = ['Queens', 'Bigslick']
"""


def stars(path: Path, index: int = 0) -> HandRecord:
    items = list(pokerstars.read_file(str(path)))
    record = items[index]
    assert isinstance(record, HandRecord)
    return record


def frames_by_cut(hand: Hand, tl: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Each frame keyed by how many of the hand's events it shows (the hole cards dealt to
    everyone are one frame)."""
    cuts = [0]
    events = hand.events
    for k, e in enumerate(events):
        if isinstance(e, ev.HoleDealt) and k + 1 < len(events) \
                and isinstance(events[k + 1], ev.HoleDealt):
            continue
        cuts.append(k + 1)
    assert len(cuts) == len(tl["frames"])
    return dict(zip(cuts, tl["frames"], strict=True))


def check_against_engine(record: HandRecord) -> dict[str, Any]:
    """Drive the engine through its public methods on every prefix of the record's steps and
    compare its state with the frame that shows the same events."""
    tl = timeline_of_record(record, equity=False)
    full = replay(record, decisions=False, fast=False).engine
    assert full is not None
    by_cut = frames_by_cut(full, tl)
    checked = 0
    for k in range(len(record.steps) + 1):
        part = dataclasses.replace(record, steps=record.steps[:k])
        engine = replay(part, decisions=False, fast=False).engine
        assert engine is not None
        frame = by_cut.get(len(engine.events))
        if frame is None:  # between two hole-card events: not a frame of its own
            continue
        assert frame["pots"] == [{"amount": p.amount, "eligible": list(p.eligible)}
                                 for p in engine.pots()]
        assert frame["stacks"] == engine.stacks
        assert frame["bets"] == engine.bets
        assert frame["returned"] == engine.returned
        assert frame["folded"] == engine.folded
        actor = engine.actor if engine.phase.value == "betting" else None
        assert frame["actor"] == actor
        if actor is not None:
            lg = engine.legal()
            assert frame["legal"]["min_to"] == lg.min_to
            assert frame["legal"]["max_to"] == lg.max_to
            assert frame["legal"]["summary"] == lg.summary().to_json()
        checked += 1
    assert checked > len(record.steps) // 2
    # the last frame and the breakdown are the settled engine's
    last = tl["frames"][-1]
    assert last["stacks"] == full.stacks
    assert tl["result"] is not None
    pots = [x for x in tl["result"]["items"] if x["kind"] == "pot"]
    assert [(x["amount"], tuple(x["eligible"]), tuple(x["winners"]),
             tuple((p, a) for p, a in x["shares"]), x["rake"]) for x in pots] == [
        (r.amount, r.eligible, r.winners, r.shares, r.rake) for r in full.results]
    returned = [(x["player"], x["amount"]) for x in tl["result"]["items"]
                if x["kind"] == "returned"]
    assert returned == [(e.player, e.amount) for e in full.events if isinstance(e, ev.Returned)]
    return tl


def test_two_side_pots_frame_by_frame_against_the_engine() -> None:
    tl = check_against_engine(stars(TWO_SIDE_POTS))
    # three pots at the end, each with who could win it
    assert len(tl["frames"][-1]["pots"]) == 3
    # results in sentences, one version of the pot names, money by locale (words/)
    assert tl["result"]["text"]["en"] == (
        "CrSilva.11 wins the main pot, €5.37, with a straight, ace high (rake €0.25); "
        "templargio wins side pot 1, €7.50, with a straight, king high (rake €0.36); "
        "templargio wins side pot 2, €6.08, with a straight, king high (rake €0.28); "
        "templargio takes back €9.69 (uncalled)")
    assert tl["result"]["text"]["es"].startswith(
        "CrSilva.11 gana el bote principal, 5,37\u00a0€, con escalera al as (rake de 0,25\u00a0€)")
    assert tl["streets"] == [0, 16, 21, 24]


def test_written_side_pot_hand_and_words() -> None:
    record = phh.loads(ABC)
    tl = check_against_engine(record)
    assert tl["result"]["text"] == {
        "en": "Ana wins the main pot, 300, with a pair of aces; Carla wins side pot 1, 400, with"
              " a pair of queens; Carla takes back 200 (uncalled)",
        "es": "Ana gana el bote principal, 300, con pareja de ases; Carla gana el bote"
              " secundario 1, 400, con pareja de reinas; Carla recupera 200 (sin igualar)"}


@pytest.mark.parametrize("index", range(10))
def test_ten_hands_with_rake_against_the_engine(index: int) -> None:
    record = stars(TEN_HANDS, index)
    res = replay(record, decisions=False)
    if not res.engine or not res.engine.done:
        pytest.skip("a partial hand")
    check_against_engine(record)


def test_equity_on_a_known_all_in_is_the_exact_figure() -> None:
    tl = timeline_of_record(phh.loads(AK_QQ))
    names = [p["name"] for p in tl["players"]]
    q, a = names.index("Queens"), names.index("Bigslick")
    # the frame after the all-in call, before the flop
    f = next(f for f in tl["frames"] if f["event"] and f["event"]["type"] == "Acted"
             and f["event"]["action"] == "call")
    assert f["equity"]["exact"] is True
    assert round(100 * f["equity"]["values"][a], 4) == 46.2145
    want = equity(["AhKh", "QsQd"])
    assert f["equity"]["values"][a] == pytest.approx(want.players[0].equity, abs=1e-12)
    assert f["equity"]["values"][q] == pytest.approx(want.players[1].equity, abs=1e-12)
    # on the flop and turn: the exact figure on that board
    flop = tl["frames"][tl["streets"][1]]
    want = equity(["AhKh", "QsQd"], "2c7d9s")
    assert flop["equity"]["values"][a] == pytest.approx(want.players[0].equity, abs=1e-12)
    turn = tl["frames"][tl["streets"][2]]
    want = equity(["AhKh", "QsQd"], "2c7d9s3h")
    assert turn["equity"]["values"][a] == pytest.approx(want.players[0].equity, abs=1e-12)
    # strengths: preflop shorthand, then the evaluator's names in both languages
    assert f["strength"][a] == {"en": "AKs", "es": "AKs"}
    assert flop["strength"][q] == {"en": "pair of queens", "es": "pareja de reinas"}


def test_three_way_all_in_equity() -> None:
    tl = timeline_of_record(phh.loads(ABC))
    f = next(f for f in tl["frames"] if f["event"] and f["event"]["type"] == "Acted"
             and f["event"]["player"] == 1)  # Bruno calls: everyone is all-in
    want = equity(["AsAh", "7c2d", "QsQh"])
    assert f["equity"]["exact"]
    for p in range(3):
        assert f["equity"]["values"][p] == pytest.approx(want.players[p].equity, abs=1e-12)


def test_equity_against_a_range_when_cards_are_unknown() -> None:
    # a PokerStars hand: only the cards of the players who showed are known
    tl = timeline_of_record(stars(TWO_SIDE_POTS))
    first = tl["frames"][3]  # hole cards dealt: eight players, four unknown
    eq = first["equity"]
    assert eq["exact"] is False and len(eq["unknown"]) == 4
    assert sum(x for x in eq["values"] if x is not None) == pytest.approx(1.0, abs=1e-6)
    # once only known hands are live, exact
    flop = tl["frames"][tl["streets"][1]]
    assert flop["equity"]["exact"] is True and flop["equity"]["unknown"] == []


def test_equity_is_computed_once_per_street() -> None:
    replayer.street_equity.cache_clear()
    tl = timeline_of_record(phh.loads(AK_QQ))
    info = replayer.street_equity.cache_info()
    # preflop (one live set), flop, turn, river: four figures for all these frames
    assert info.misses == 4
    assert len(tl["frames"]) > 8


def test_legal_range_and_explanation_at_each_decision() -> None:
    record = stars(TWO_SIDE_POTS)
    res = replay(record, decisions=True)
    tl = timeline_of_record(record, equity=False)
    shown = [f["legal"] for f in tl["frames"] if f["legal"] is not None]
    assert [(x["player"], x["min_to"], x["max_to"]) for x in shown] == [
        (d.actor, d.min_to, d.max_to) for d in res.decisions]
    # each decision frame says what was done, and why the bounds are what they are
    f = tl["frames"][3]
    assert f["next"]["en"] == "CrSilva.11 raises to €0.20"
    assert f["legal"]["summary"]["en"] == "fold, call €0.10, raise to €0.20–€1.38"
    assert f["legal"]["why"][0]["es"].startswith("subida mínima")


def test_shared_link_round_trip() -> None:
    tl = timeline_of_record(stars(TWO_SIDE_POTS), equity=False)
    code = tl["share"]
    # the stated rake travels in PHH's _rake_fixed user field
    assert code and code[0] == "p" and len(code) < 2000
    plain = timeline_of_record(phh.loads(ABC), equity=False)["share"]
    assert plain and plain[0] == "p"
    # a hand PHH cannot carry whole (a board run twice) travels as JSON setup + actions
    hand = replay(stars(DATA / RUN_TWICE)).engine
    assert hand is not None
    assert len(hand.boards) > 1
    twice = encode_hand(hand)
    assert twice and twice[0] == "j"
    for link, t in ((code, tl), (twice, timeline(hand, equity=False))):
        back = decode_link(link)
        assert [f["pots"] for f in back["frames"]] == [f["pots"] for f in t["frames"]]
        assert [f["stacks"] for f in back["frames"]] == [f["stacks"] for f in t["frames"]]
        assert back["result"]["items"] == t["result"]["items"]
    for bad in ("", "x123", "pAAAA", "p" + code[1:-30], "j" + "A" * 40):
        with pytest.raises(ReplayInputError):
            decode_link(bad)


def test_a_link_made_before_actions_were_written_as_json_still_opens() -> None:
    """Links are in people's messages: one whose steps were PHH's verbs ("cbr", 700) opens to
    the same hand as the same link written today (the page's action JSON)."""
    import base64
    import json
    import zlib

    hand = replay(stars(DATA / RUN_TWICE)).engine
    assert hand is not None
    today = encode_hand(hand)
    assert today and today[0] == "j"
    data = json.loads(zlib.decompress(base64.urlsafe_b64decode(today[1:] + "==")))
    acts = [st for st in data["steps"] if st[0] == "act"]
    assert acts and all(isinstance(st[2], dict) and "action" in st[2] for st in acts)
    old_verb = {"fold": ["f"], "check": ["cc"], "call": ["cc"]}
    data["steps"] = [st if st[0] != "act" else
                     [*st[:2], *old_verb.get(st[2]["action"], ["cbr", st[2].get("amount")])]
                     for st in data["steps"]]
    old = "j" + base64.urlsafe_b64encode(zlib.compress(json.dumps(data).encode())).decode()
    then, now = decode_link(old.rstrip("=")), decode_link(today)
    assert [f["pots"] for f in then["frames"]] == [f["pots"] for f in now["frames"]]
    assert then["result"]["items"] == now["result"]["items"]
    data["steps"] = [st if st[0] != "act" else [*st[:2], {"action": "shove"}]
                     for st in data["steps"]]
    forged = "j" + base64.urlsafe_b64encode(zlib.compress(json.dumps(data).encode())).decode()
    with pytest.raises(ReplayInputError):
        decode_link(forged)


def test_a_link_made_before_the_setup_travelled_whole_still_opens() -> None:
    """A ``j`` link once wrote the rules and stacks beside a partial setup (no straddles, no
    bomb pot, no double board): such links, in people's messages, open as they did."""
    import base64
    import json
    import zlib

    hand = replay(stars(DATA / RUN_TWICE)).engine
    assert hand is not None
    today = encode_hand(hand)
    assert today and today[0] == "j"
    data = json.loads(zlib.decompress(base64.urlsafe_b64decode(today[1:] + "==")))
    setup = data["setup"]
    # the one codec's form, whole but for the hand's id (a link shares no table)
    assert setup == dataclasses.replace(hand.setup, hand_id="").to_json()
    old = {"rules": setup["rules"], "stacks": setup["stacks"], "steps": data["steps"],
           "setup": {k: setup[k] for k in ("button", "blinds", "antes", "dead", "names",
                                           "seats", "hand_id")}}
    code = "j" + base64.urlsafe_b64encode(zlib.compress(json.dumps(old).encode())).decode()
    then, now = decode_link(code), decode_link(today)
    assert [f["stacks"] for f in then["frames"]] == [f["stacks"] for f in now["frames"]]
    assert then["result"]["items"] == now["result"]["items"]


@given(setup_st(), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_setup_replays_and_travels_by_link(setup: HandSetup, seed: int) -> None:
    """Every table option (issue 29: a bomb pot on two boards answered 500): the replayer's
    timeline of any hand is built from the hand's own setup, and its share link opens to the
    same setup and the same events; but not the hand's id, which names a room hand's table,
    and a private table's id is its link."""
    hand, _ = play_setup(setup, seed)
    hand.hand_id = "SeCrEtTaBlE-7"  # a room hand's: {table}-{n}
    tl = timeline(hand, equity=False)
    last = tl["frames"][-1]
    assert last["stacks"] == hand.stacks and len(last["boards"]) == len(hand.boards)
    assert tl["result"] is not None
    code = encode_hand(hand)
    assert code is not None
    text = zlib.decompress(base64.urlsafe_b64decode(code[1:] + "=" * (-len(code[1:]) % 4)))
    assert b"SeCrEtTaBlE" not in text, text
    back = replay(sharelink.decode(code), decisions=False)
    assert back.error is None and back.engine is not None
    assert back.engine.events == hand.events
    if code[0] == "j":  # a PHH link carries what PHH says; the JSON one the whole setup,
        assert back.engine.setup == dataclasses.replace(hand.setup, hand_id="")  # not its id
    assert decode_link(code)["frames"][-1]["stacks"] == hand.stacks
    try:  # the .phh download: PHH text, or a reason in both languages (422), never a 500
        phh.dumps(hand)
    except phh.PhhError as exc:
        assert exc.message.en and exc.message.es != exc.message.en


def test_illegal_hand_stops_with_the_engines_message() -> None:
    bad = AK_QQ.replace("'p1 cc'", "'p1 cbr 50'")
    tl = timeline_of_record(phh.loads(bad))
    assert tl["error"] is not None
    assert "cannot" in tl["error"]["en"] and "no puede" in tl["error"]["es"]
    assert tl["result"] is None and tl["share"] is None
    assert len(tl["frames"]) >= 3


def test_partial_hand() -> None:
    part = AK_QQ.replace(", 'd db 2c7d9s', 'd db 3h',\n           'd db 4s'", "")
    tl = timeline_of_record(phh.loads(part))
    assert tl["partial"] and tl["result"] is None and tl["note"] is not None


def test_files_list_their_hands() -> None:
    text = TEN_HANDS.read_text(encoding="utf-8-sig")
    out = file_timeline(text, TEN_HANDS.name, 4)
    assert len(out["hands"]) == 10 and out["selected"] == 4
    assert out["timeline"]["hand_id"] == out["hands"][4]["label"]
    unplayed = OMAHA.read_text(encoding="utf-8-sig").replace("Omaha", "Courchevel")
    other = file_timeline(unplayed, OMAHA.name)  # a game tapete does not play
    assert other["timeline"] is None and "error" in other["hands"][0]
    with pytest.raises(ReplayInputError):
        file_timeline("just some words\n", "notes.txt")


def test_timeline_of_a_stored_style_hand_with_hidden_cards() -> None:
    record = phh.loads(AK_QQ)
    hand = replay(record).engine
    assert hand is not None
    hidden = [ev.HoleDealt(e.player, None) if isinstance(e, ev.HoleDealt) and e.player == 0
              else e for e in hand.events if not isinstance(e, ev.Shown)]
    rebuilt = Hand.from_events(hand.rules, hand.starting_stacks, hidden, button=hand.button,
                               names=hand.names)
    tl = timeline(rebuilt)
    assert tl["players"][0]["cards"] is None
    f = tl["frames"][-2]
    assert f["equity"] is None or f["equity"]["unknown"] == [0]


# ---------------------------------------------------------------------------- HTTP

CHECKED: list[tuple[str, int]] = []  # the answers the client below checked: (path, status)


def check_answer(response: Any) -> None:
    """An answer of the replayer's routes fits its model (a 400 with no body aside: nobody is
    left to read it)."""
    response.read()
    path = response.url.path
    if path.startswith(tuple(rp.ANSWERS)) and response.content:
        assert response.headers["content-type"] == "application/json"
        rp.check_answer(path, response.status_code, response.content)
        CHECKED.append((path, response.status_code))


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    from tapete.server import Settings, create_app

    app = create_app(Settings(data_dir=tmp_path, think_delay=0.0))
    with TestClient(app) as c:
        c.event_hooks = {"request": [], "response": [check_answer]}
        yield c


def test_http_upload_and_hand_choice(client: Any) -> None:
    r = client.post("/api/replay/upload?name=two.txt", content=TWO_SIDE_POTS.read_bytes())
    assert r.status_code == 200
    body = r.json()
    assert body["timeline"]["result"]["items"][0]["amount"] == 537
    r = client.post("/api/replay/upload?name=ten.txt&hand=3", content=TEN_HANDS.read_bytes())
    assert r.status_code == 200 and r.json()["selected"] == 3
    # cp1252 and CRLF are read as well
    text = TWO_SIDE_POTS.read_text(encoding="utf-8-sig").replace("\n", "\r\n")
    r = client.post("/api/replay/upload?name=x.txt", content=text.encode("cp1252"))
    assert r.status_code == 200 and r.json()["timeline"]["error"] is None
    r = client.post("/api/replay/upload?name=abc.phh", content=ABC.encode())
    assert r.status_code == 200


def test_http_bad_files(client: Any) -> None:
    for data, name in ((b"", "e.txt"), (b"hello world", "h.txt"), (b"\x00\xff" * 10, "b.phh")):
        r = client.post(f"/api/replay/upload?name={name}", content=data)
        assert r.status_code in (200, 400), r.text
        body = r.json()
        err = body.get("error")
        assert err and err["en"] and err["es"], body
        assert "Traceback" not in r.text
    r = client.post("/api/replay/upload?name=o.txt",
                    content=OMAHA.read_bytes().replace(b"Omaha", b"Courchevel"))
    assert r.status_code == 200 and r.json()["timeline"] is None
    bad = AK_QQ.replace("'p1 cc'", "'p1 cbr 50'")
    r = client.post("/api/replay/upload?name=bad.phh", content=bad.encode())
    assert r.status_code == 200 and r.json()["timeline"]["error"]["en"]
    r = client.post("/api/replay/upload?name=big.txt", content=b"x" * (replayer.MAX_UPLOAD + 1))
    assert r.status_code == 413
    assert ("/api/replay/upload", 413) in CHECKED and ("/api/replay/upload", 400) in CHECKED


def test_http_shared_link(client: Any) -> None:
    code = timeline_of_record(phh.loads(ABC), equity=False)["share"]
    r = client.post("/api/replay/link", content=code)
    assert r.status_code == 200
    assert r.json()["result"]["text"]["en"].startswith("Ana wins the main pot, 300")
    r = client.post("/api/replay/link", content="pnot-a-hand")
    assert r.status_code == 400 and r.json()["error"]["es"]
    page = client.get("/replay")
    assert page.status_code == 200 and "replayer.js" in page.text


def test_http_stored_hand(client: Any) -> None:
    from test_server import cookie_pid


    client.get("/api/me")  # an identity for this client
    app = client.app
    pid = cookie_pid(client)
    hand = replay(phh.loads(ABC)).engine
    assert hand is not None
    row = stored_row(hand, pid, "h-abc")
    storage = app.state.storage
    storage.new_player(pid)  # a visitor is stored once there is something to keep
    storage.save_hand(row)
    r = client.get("/api/replay/hand/h-abc")
    assert r.status_code == 200
    tl = r.json()
    assert tl["result"]["text"]["en"].startswith("Ana wins the main pot, 300, with a pair of aces")
    assert tl["share"]
    assert client.get("/replay/h-abc").status_code == 200
    r = client.get("/api/replay/hand/nope")
    assert r.status_code == 404 and r.json()["error"]["en"]


def test_open_flag_preloads_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from starlette.testclient import TestClient

    monkeypatch.setenv("TAPETE_DATA_DIR", str(tmp_path))
    seen: dict[str, Any] = {}

    def fake_run(app: Any, **kw: Any) -> None:
        seen["app"] = app
        seen["port"] = kw["port"]

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setattr(local, "_open_browser", lambda url: seen.setdefault("url", url))
    from tapete.cli import main

    assert main(["replay", str(TWO_SIDE_POTS), "--open"]) == 0
    assert seen["port"] > 0 and "/replay/f/" in seen["url"]
    app = seen["app"]
    (key,) = app.state.replay_files
    with TestClient(app) as c:
        r = c.get(f"/api/replay/file/{key}")
        assert r.status_code == 200 and r.json()["timeline"]["result"] is not None
        assert c.get(f"/replay/f/{key}").status_code == 200


def test_every_test_file_and_a_sample_of_the_phh_dataset() -> None:
    """Every hold'em hand of the PokerStars test files and 300 PHH dataset hands give a
    timeline whose last frame is the engine's finished (or stopped) hand."""
    records: list[HandRecord] = []
    for path in sorted(DATA.glob("*.txt")):
        records.extend(r for r in pokerstars.read_file(str(path)) if isinstance(r, HandRecord))
    phh_files = sorted((Path(__file__).resolve().parents[1] / "data" / "phh").rglob("*.phh"))
    for path in phh_files[:300]:
        records.extend(h.record for h in phh.read_file(str(path)) if h.record is not None)
    assert len(records) > 300
    for record in records:
        body = rp.encode(record_answer(record, equity=False))
        rp.check_answer("/api/replay/link", 200, body)  # strict: each field's type as well
        tl = msgspec.json.decode(body)
        engine = replay(record, decisions=False).engine
        assert engine is not None
        last = tl["frames"][-1]
        assert last["stacks"] == engine.stacks, record.source
        assert last["boards"] == [[_card(c) for c in b] for b in engine.boards]
        assert (tl["result"] is not None) == engine.done


def _card(c: int) -> str:
    from tapete.core.cards import format_card

    return format_card(c)


# ---------------------------------------------------------------------------- the models

def test_the_icm_answer_and_its_refusal(client: Any) -> None:
    r = client.post("/api/icm", json={"start": [3000, 7000], "end": [6000, 4000],
                                      "prizes": "70 30"})
    assert r.status_code == 200 and r.json()["players"][0]["change"] == "+12.00"
    r = client.post("/api/icm", json={"start": [3000], "end": "x", "prizes": "70 30"})
    assert r.status_code == 400 and r.json()["error"]["es"]
    assert CHECKED[-2:] == [("/api/icm", 200), ("/api/icm", 400)]


def test_every_engine_event_has_its_model_field_for_field() -> None:
    assert set(rp.EVENT_MODELS) == set(ev.EVENT_TYPES.values())
    for cls, model in rp.EVENT_MODELS.items():
        assert model.__struct_config__.tag == cls.__name__
        assert tuple(f.encode_name for f in msgspec.structs.fields(model)) == cls._fields
    e = ev.BoardDealt(1, (0, 51, 12))
    assert rp.event(e) == rp.BoardDealtEvent(street=1, cards=[0, 51, 12], run=0)
    assert msgspec.json.decode(rp.encode(rp.event(e))) == ev.to_json(e)


def test_an_answer_that_does_not_fit_its_model_is_refused() -> None:
    body = rp.encode(record_answer(phh.loads(ABC), equity=False))
    assert isinstance(rp.check_answer("/api/replay/link", 200, body), rp.Timeline)
    tl = msgspec.json.decode(body)
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        rp.check_answer("/api/replay/link", 200, msgspec.json.encode({**tl, "hint": "x"}))
    tl["frames"][1]["pot_total"] = "15"
    with pytest.raises(msgspec.ValidationError, match="pot_total"):
        rp.check_answer("/api/replay/hand/h-1", 200, msgspec.json.encode(tl))
    del tl["frames"][1]["pot_total"]
    with pytest.raises(msgspec.ValidationError, match="missing required field"):
        rp.check_answer("/api/replay/hand/h-1", 200, msgspec.json.encode(tl))
    # a refusal is an ErrorAnswer, whatever the route
    refusal = rp.encode(rp.error(Text("no", "no")))
    assert isinstance(rp.check_answer("/api/replay/upload", 422, refusal), rp.ErrorAnswer)
    with pytest.raises(msgspec.ValidationError):
        rp.check_answer("/api/replay/upload", 200, refusal)
    with pytest.raises(KeyError):
        rp.check_answer("/api/me", 200, b"{}")


def test_the_replayer_models_are_documented_and_the_check_can_fail() -> None:
    from test_protocol import DOC, undocumented

    text = DOC.read_text(encoding="utf-8")
    for model in (rp.Timeline, rp.Frame, rp.FileAnswer, rp.ActedEvent, rp.ErrorAnswer):
        assert f"### `{model.__name__}`" in text
    row = "| `pot_total` | integer |"
    assert text.count(row) == 1
    cut = "\n".join(line for line in text.splitlines() if not line.startswith(row))
    assert undocumented(cut) == ["Frame: ['pot_total']"]
    extra = text.replace("### `ErrorAnswer`\n", "### `ErrorAnswer`\n| `hint` | x | y |\n")
    assert undocumented(extra) == ["ErrorAnswer: ['hint']"]


@pytest.mark.parametrize("name", ["hhsmithy_cash_o8_limit_side_pot_hilo_split_rake.txt",
                                  "hhsmithy_cash_plo_run_it_twice_side_pot_rake.txt"])
def test_omaha_equity_on_every_street(name: str) -> None:
    """The Omaha hands of the data that show cards: each frame while the hand is played shows
    every live hand's share of the pot (a hi-lo one counts each half), adding up to the whole;
    a hand nobody showed is any four cards (Monte Carlo). The replayer's insurance note asks
    the hand's game (it ranked the O8 hand's four cards as hold'em's, and failed)."""
    tl = timeline_of_record(stars(DATA / name))
    shown = [f["equity"] for f in tl["frames"] if f["equity"] is not None]
    assert len(shown) >= 3
    for eq in shown:
        assert sum(x for x in eq["values"] if x is not None) == pytest.approx(1.0, abs=1e-6)
    assert any(eq["unknown"] for eq in shown)  # before the showdown, hands not yet known


def test_a_stored_omaha_hand_of_nine_is_replayed_without_drawing_hands_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: replaying a stored Omaha hand (the other players' cards unknown to its
    reader) took seconds, once past a minute: every street's Monte Carlo drew each unknown
    hand from all 270,725 and drew again, hundreds of times over, while two collided. The
    unknown hands are now dealt from the deck: nothing is drawn again, and the work is the
    samples' evaluations, once per street."""
    import numpy as np

    from tapete.core.cards import Deck
    from tapete.core.game import OMAHA
    from tapete.core.rules import Rules, Structure
    from tapete.core.view import Viewer, events_seen
    from tapete.eval import omaha
    from tapete.server.timeline import EQUITY_SAMPLES, street_equity

    hand = Hand(Rules(structure=Structure.POT_LIMIT, game=OMAHA), [200] * 9, button=0,
                deck=Deck(11), auto_showdown=True)
    while not hand.done:  # all see the flop; one bets it, one calls, the rest fold
        lg = hand.legal()
        if hand.street == 1 and lg.min_to is not None and not any(hand.bets):
            hand.bet(lg.min_to)
        elif hand.street == 1 and lg.call and sum(1 for b in hand.bets if b) >= 2:
            hand.fold()
        else:
            hand.check_or_call()
    seen = events_seen(hand.events, Viewer.export(0), finished=True)
    mine = Hand.from_events(hand.rules, hand.starting_stacks, seen, **hand.setup.hand_args())
    work = {"drawn": 0, "evaluated": 0}
    default_rng, evaluate = np.random.default_rng, omaha.evaluate_omaha_hilo_many

    class Counting:
        def __init__(self, g: Any) -> None:
            self._g = g

        def integers(self, *args: Any, **kw: Any) -> Any:
            out = self._g.integers(*args, **kw)
            work["drawn"] += int(np.size(out))
            return out

        def __getattr__(self, name: str) -> Any:
            return getattr(self._g, name)

    def counted(holes: Any, boards: Any) -> Any:
        work["evaluated"] += len(holes)
        return evaluate(holes, boards)

    monkeypatch.setattr(np.random, "default_rng", lambda *a: Counting(default_rng(*a)))
    monkeypatch.setattr(omaha, "evaluate_omaha_hilo_many", counted)
    street_equity.cache_clear()
    tl = timeline(mine)
    assert work["drawn"] == 0, work  # before: millions of hands drawn again
    # every street has its figure (before: preflop's gave up, its hands colliding still)
    unknown = [f["equity"] for f in tl["frames"] if f["equity"] and f["equity"]["unknown"]]
    assert len(unknown) >= 2 and len(unknown[0]["unknown"]) >= 6  # two of them showed
    streets = {(f["street"], len([v for v in f["equity"]["values"] if v is not None]))
               for f in tl["frames"] if f["equity"]}
    assert work["evaluated"] <= sum(n for _, n in streets) * EQUITY_SAMPLES, (work, streets)
