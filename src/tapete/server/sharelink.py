"""Shared replayer links: a hand in a URL fragment (``/replay#h=CODE``), written and read here
and nowhere else.

The code is the hand's PHH text, zlib-compressed and base64url-encoded (``"p" + code``); a hand
PHH does not carry whole (a stated rake, a dead blind) travels as its setup, in the one codec of
setups (:meth:`HandSetup.to_json <tapete.core.setup.HandSetup.to_json>`: the rules, the bomb
pot, the double board, the straddles... nothing left out), and its record steps, in JSON
(``"j" + code``). Either way the engine referees the hand again when the link is opened:
:func:`decode` gives the hand's record, not its events. Links made before the setup travelled
whole (``rules`` and ``stacks`` beside a partial ``setup``) still open.

A link shares a hand, never its table: it carries no hand id, since a room hand's id names its
table (``{table}-{n}``), and a private table's id is its link (issue 29).
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from tapete.core import events as ev
from tapete.core.actions import SIZED, Action
from tapete.core.catalog import N_, t
from tapete.core.hand import Hand
from tapete.core.rules import Rules
from tapete.core.setup import HandSetup
from tapete.core.text import Text
from tapete.history import phh
from tapete.history.formats import PHH, read_any
from tapete.history.record import HandRecord, from_phh_verb
from tapete.history.replay import replay

MAX_LINK = 200_000  # characters of a shared link's code (the body of /api/replay/link)
MAX_INFLATED = 2 * 1024 * 1024  # bytes a shared link may inflate to
BAD_LINK = N_("this shared link is damaged or incomplete")


class LinkError(ValueError):
    """A code that is no shared link: the message is for the page, in both languages."""

    def __init__(self, message: Text | None = None) -> None:
        self.message = message if message is not None else t(BAD_LINK)
        super().__init__(self.message.en)


def encode(hand: Hand) -> str | None:
    """A shared link's code for a hand (see the module): without its id."""
    if hand.hand_id:
        hand = hand.clone()
        hand.hand_id = ""
    text = _phh_if_exact(hand)
    kind = "p"
    if text is None:
        text = json.dumps({"setup": hand.setup.to_json(),
                           "steps": [list(x) for x in _steps(hand)]}, separators=(",", ":"))
        kind = "j"
    raw = zlib.compress(text.encode("utf-8"), 9)
    return kind + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode(code: str) -> HandRecord:
    """The record of a shared link's code (raises :class:`LinkError`)."""
    code = code.strip()
    if not code or len(code) > MAX_LINK or code[0] not in "pj":
        raise LinkError
    try:
        raw = base64.urlsafe_b64decode(code[1:] + "=" * (-len(code[1:]) % 4))
        z = zlib.decompressobj()
        data = z.decompress(raw, MAX_INFLATED)
        if z.unconsumed_tail or not z.eof:
            raise ValueError("too long or truncated")
        text = data.decode("utf-8")
    except Exception:
        raise LinkError from None
    if code[0] == "p":
        hands = read_any(text, name="link.phh", fmt=PHH)
        if len(hands) != 1 or hands[0].record is None:
            problem = hands[0].problem() if len(hands) == 1 else None
            raise LinkError(problem)
        return hands[0].record
    try:
        return _record_from_json(json.loads(text))
    except Exception:
        raise LinkError from None


def _phh_if_exact(hand: Hand) -> str | None:
    """The PHH text of a hand when reading it back gives the same events, else None."""
    try:
        text = phh.dumps(hand)
        back = replay(phh.loads(text), decisions=False).engine
    except Exception:
        return None
    if back is None or back.events != hand.events:
        return None
    return text


def _steps(hand: Hand) -> list[tuple[Any, ...]]:
    """The record steps that drive the engine to this hand's events."""
    out: list[tuple[Any, ...]] = []
    for e in hand.events:
        if isinstance(e, ev.HoleDealt):
            out.append(("hole", e.player, list(e.cards) if e.cards is not None else None))
        elif isinstance(e, ev.BoardDealt):
            out.append(("board", list(e.cards)))
        elif isinstance(e, ev.Acted):
            # the action as the page sends one ({"action": "raise", "amount": 120})
            action = Action(e.action, e.to if e.action in SIZED else None)
            out.append(("act", e.player, action.to_wire()))
        elif isinstance(e, ev.Shown):
            out.append(("show", e.player, list(e.cards)))
        elif isinstance(e, ev.Mucked):
            out.append(("muck", e.player))
        elif isinstance(e, ev.RunsChosen):
            out.append(("runs", e.runs))
    return out


def _action(written: list[Any]) -> Action:
    """A link's betting step: the action in the page's JSON, or, in a link made before
    actions were written so, PHH's verb and amount (``"cbr", 700``): those links still open."""
    if written and isinstance(written[0], str):
        return from_phh_verb(*written)
    if len(written) != 1:
        raise LinkError
    return Action.from_wire(written[0])


def _record_from_json(d: dict[str, Any]) -> HandRecord:
    steps = _read_steps(d["steps"])
    if "rules" not in d:
        return HandRecord.from_setup(HandSetup.from_json(d["setup"]), steps, source="link")
    # a link made before the setup travelled whole: what it wrote, the rest as Hand defaults
    rules = Rules.from_json(d["rules"])
    setup = d["setup"]
    return HandRecord(rules=rules, stacks=[int(x) for x in d["stacks"]], steps=steps,
                      button=setup.get("button"), blinds=setup.get("blinds"),
                      antes=setup.get("antes"), dead=setup.get("dead"),
                      names=setup.get("names"), seats=setup.get("seats"),
                      hand_id=str(setup.get("hand_id") or ""), source="link")


def _read_steps(written: list[Any]) -> list[tuple[Any, ...]]:
    steps: list[tuple[Any, ...]] = []
    for st in written:
        x = list(st)
        if x[0] == "act":
            x[2:] = [_action(x[2:])]
        elif x[0] in ("hole", "show") and x[2] is not None:
            x[2] = tuple(int(c) for c in x[2])
        elif x[0] == "board":
            x[1] = tuple(int(c) for c in x[1])
        steps.append(tuple(x))
    return steps
