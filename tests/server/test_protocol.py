"""The protocol's models against what is sent and what is written: every message of a played
session fits its model (no field the models do not describe, none missing, no wrong type),
every model field is in docs/protocol.md and the page names no field the models lack, and the
page's messages decode into their models or are refused in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from starlette.testclient import TestClient
from test_server import client as client  # noqa: F401 (the fixture)
from test_server import next_state, play

from tapete.server import protocol
from tapete.server.game import Refused
from tapete.server.protocol_docs import models

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented(text: str) -> dict[str, set[str]]:
    """docs/protocol.md's sections (### `Model`) and the fields each lists (| `field` |)."""
    out: dict[str, set[str]] = {}
    current: set[str] | None = None
    for line in text.splitlines():
        head = re.match(r"### `(\w+)`", line)
        if head:
            current = out.setdefault(head.group(1), set())
            continue
        row = re.match(r"\| `(\w+)` \|", line)
        if row and current is not None:
            current.add(row.group(1))
    return out


def undocumented(text: str) -> list[str]:
    """What the text leaves out of the models, or names that they do not have."""
    docs = documented(text)
    problems = []
    for model in models():
        fields = {f.encode_name for f in msgspec.structs.fields(model)}
        if model.__name__ not in docs:
            problems.append(f"{model.__name__} is not documented")
        elif docs[model.__name__] != fields:
            problems.append(f"{model.__name__}: {sorted(docs[model.__name__] ^ fields)}")
    problems += [f"{name} is no model" for name in set(docs) - {m.__name__ for m in models()}]
    return problems


def test_every_model_and_field_is_documented() -> None:
    assert len(models()) > 30
    assert undocumented(DOC.read_text(encoding="utf-8")) == []


def test_the_documentation_check_can_fail() -> None:
    text = DOC.read_text(encoding="utf-8")
    row = "| `call_all_in` | boolean |"
    assert row in text
    lines = text.splitlines()
    lines.remove(next(line for line in lines if line.startswith(row)))  # LegalOptions' row
    assert undocumented("\n".join(lines)) == ["LegalOptions: ['call_all_in']"]
    extra = text.replace("### `Pong` (`pong`)\n", "### `Pong` (`pong`)\n| `hint` | x | y |\n")
    assert undocumented(extra) == ["Pong: ['hint']"]
    assert undocumented(text + "\n### `Ghost`\n") == ["Ghost is no model"]


def test_every_message_type_decodes_into_its_model() -> None:
    for kind, model in protocol.CLIENT_MESSAGES.items():
        fields = {f.encode_name: f for f in msgspec.structs.fields(model)}
        msg: dict[str, Any] = {"type": kind}
        for name, f in fields.items():
            if f.required:
                msg[name] = {"seq": 3, "blinds": 1, "amount": 40, "structure": "nl",
                             "action": "call", "value": "call_any", "on": True,
                             "kind": "icm", "yes": True}[name]
        decoded = protocol.parse(json.dumps(msg))
        assert type(decoded) is model
        for name in msg.keys() - {"type"}:
            assert getattr(decoded, name) == msg[name]
    act = protocol.parse('{"type": "act", "seq": 9, "action": "raise", "amount": 120}')
    assert isinstance(act, protocol.Act) and (act.seq, act.action, act.amount) == (9, "raise", 120)
    sit_msg = protocol.parse('{"type": "sit", "structure": "fl", "blinds": 2}')
    assert isinstance(sit_msg, protocol.Sit) and sit_msg.lang == "en"
    assert sit_msg.name is msgspec.UNSET and sit_msg.buy_in is msgspec.UNSET


@pytest.mark.parametrize(("raw", "words"), [
    ('{"type": "act", "seq": 1, "action": "fold", "amount": null}', "'amount' has the wrong"),
    ('{"type": "sit", "structure": "nl", "blinds": 0, "lang": "fr"}', "Unknown lang 'fr'"),
    ('{"type": "act", "seq": 1}', "'action' is missing"),
    ('{"type": "pre"}', "'value' is missing"),
    ('{"type": "ping", "seq": 1}', "Unexpected field 'seq'"),
    ('{"type": 5}', "Unknown message type 5"),
    ('{"type": "add_chips", "amount": 1e3}', "'amount' has the wrong type"),
])
def test_a_refusal_names_the_problem_in_both_languages(raw: str, words: str) -> None:
    with pytest.raises(Refused) as e:
        protocol.parse(raw)
    assert e.value.code == "malformed"
    assert words in e.value.message.en and e.value.message.es != e.value.message.en


def test_every_message_of_a_session_fits_its_model(client: TestClient) -> None:  # noqa: F811
    seen: list[dict[str, Any]] = []
    with client.websocket_connect("/ws") as ws:
        seen.append(ws.receive_json())  # hands
        seen.append(ws.receive_json())  # the lobby
        ws.send_text(json.dumps({"type": "sit", "structure": "nl", "blinds": 0}))
        next_state(ws, lambda s: not s["lobby"], seen=seen)
        ws.send_text(json.dumps({"type": "coach", "on": True}))
        ws.send_text(json.dumps({"type": "ping"}))
        ws.send_text(json.dumps({"type": "act", "seq": 1, "action": "steal"}))
        k = [0]

        def choose(s: dict[str, Any]) -> dict[str, Any]:
            k[0] += 1
            lg = s["hand"]["legal"]
            if k[0] % 3 == 0 and lg["max_to"] is not None:
                return {"action": "raise", "amount": lg["max_to"]}
            return {"action": "check" if lg["check"] else "call"}

        play(ws, 4, choose, seen=seen)
        ws.send_text(json.dumps({"type": "sit_out"}))
        next_state(ws, lambda s: s["sitting_out"], seen=seen)
    kinds: dict[str, int] = {}
    parts: set[str] = set()
    for m in seen:
        m.pop("history", None)
        out = protocol.check_sent(m)
        kinds[type(out).__name__] = kinds.get(type(out).__name__, 0) + 1
        if isinstance(out, protocol.TableState):
            if out.hand is not None and out.hand.legal is not None:
                parts.add("legal")
            if out.coach is not None and out.coach.equity is not None:
                parts.add("coach")
            if out.last_result is not None:
                parts.add("result")
    assert set(kinds) == {"LobbyState", "TableState", "Hands", "Error", "Pong"}, kinds
    assert parts == {"legal", "coach", "result"}


def test_a_field_the_models_do_not_describe_fails() -> None:
    msg = {"type": "error", "code": "malformed", "message": {"en": "x", "es": "x"}, "seq": None}
    protocol.check_sent(msg)
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        protocol.check_sent({**msg, "hint": "x"})
    with pytest.raises(msgspec.ValidationError):
        protocol.check_sent({**msg, "message": "x"})


def test_a_hands_view_carries_last_actions_when_ended_and_the_engines_pot_after_call() -> None:
    """The page reads what seats did and the pot after calling from the wire: the view of
    an ended hand keeps each seat's last action on its last street, and the legal options
    carry the engine's own ``pot_after_call`` and whether the limit is fixed."""
    from tapete.core.cards import Deck
    from tapete.core.hand import Hand
    from tapete.core.rules import Rules, Structure
    from tapete.server.views import hand_view

    hand = Hand(Rules(small_blind=1, big_blind=2), [100, 100, 100], button=2, deck=Deck(seed=1))
    lg = hand_view(hand, 2)["legal"]
    assert (lg["pot_after_call"], lg["fixed_limit"]) == (hand.legal().pot_after_call, False)
    assert lg["pot_after_call"] == 3 + 2  # the blinds, and the button's call of 2
    hand.raise_to(6)
    hand.fold()
    hand.fold()
    view = hand_view(hand, None)
    assert hand.done and [p["last_action"] for p in view["players"]] == [
        {"action": "fold", "amount": 0, "all_in": False},
        {"action": "fold", "amount": 0, "all_in": False},
        {"action": "raise", "amount": 6, "all_in": False}]
    protocol.check_sent({"type": "state", **_state_around(view)})
    fl = Hand(Rules(small_blind=1, big_blind=2, structure=Structure.FIXED_LIMIT), [100, 100],
              button=0, deck=Deck(seed=1))
    assert hand_view(fl, fl.actor)["legal"]["fixed_limit"] is True


def _state_around(view: dict[str, Any]) -> dict[str, Any]:
    """A spectator's table state with ``view`` as its hand: just enough to check the hand's
    model."""
    words = {"en": "", "es": ""}
    fmt = {"group": ",", "decimal": ".", "minus": "-", "decimals": 0, "before": "",
           "after": "", "percent_before": "", "percent_after": "%"}
    return {"lobby": False, "seq": None, "rules": {
        "structure": "no-limit", "variant": "holdem", "hole_cards": 2, "small_blind": 1,
        "big_blind": 2, "small_bet": 2, "big_bet": 4, "ante": 0, "decimals": 0, "currency": "",
        "key": "nl", "blinds": 0}, "seats": [], "button_seat": None, "sb_seat": None,
        "bb_seat": None, "hand": view, "live": False, "log": [words], "decision": None,
        "pre_action": None, "coach_on": False, "coach": None, "last_result": None,
        "sitting_out": False, "owes_blinds": False, "waiting_for_big_blind": False,
        "sat_out_reason": None, "waiting": False, "leaving": False, "time_bank": 0.0,
        "notice": None, "money": {"en": fmt, "es": fmt}, "me": {
            "bankroll": 0, "at_table": 0, "in_pot": 0, "total": 0, "starting": 0,
            "version": 0}}
