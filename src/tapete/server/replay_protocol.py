"""The web replayer's HTTP answers as models: what its routes send, written once, here.

The replayer's page (``web/replayer/replayer.js``) gets JSON over HTTP, not WebSocket messages:
a hand's :class:`Timeline` (``/api/replay/hand/{id}``, ``/api/replay/link``), a file's
:class:`FileAnswer` (its hands, and the timeline of one: ``/api/replay/upload``,
``/api/replay/file/{key}``), the tournament equity of a hand's stacks (:class:`IcmAnswer`,
``/api/icm``) and, for any refusal, an :class:`ErrorAnswer`. :mod:`.timeline` and
:mod:`.analysis` build these structs and the routes encode them with msgspec, so an answer
can hold no field that is not described here; :func:`check_answer` decodes a sent answer into
its model (strict: a wrong type or a missing field fails too). ``docs/protocol.md`` documents
every field, ``tests/server/test_protocol.py`` fails when one is missing from it, and
``tests/web/test_js_fields.py`` when the replayer's page reads a field that no model has.

A sentence for people is :class:`~tapete.server.protocol.Words` and the way amounts are
written :class:`~tapete.server.protocol.Money`, as in the table's messages.
"""

from __future__ import annotations

from typing import Literal, cast

import msgspec

from tapete.core import events as ev
from tapete.core.fair import Status, Verdict
from tapete.core.text import Text
from tapete.server.protocol import Money, Words


class _Answer(msgspec.Struct, forbid_unknown_fields=True):
    """A part of an answer of the replayer's routes."""


def said(text: Text) -> Words:
    """A :class:`Text` as the answers carry it."""
    return Words(text.en, text.es)


# ---------------------------------------------------------------------------- events
# A frame's event is the engine's (tapete.core.events), field for field, tagged by the name of
# its class; cards are the engine's numbers (rank * 4 + suit: 0 is 2c, 51 is As).

class _Event(_Answer, tag_field="type"):
    """An event of the hand (``type``: the engine's name of it)."""


class PostedEvent(_Event, tag="Posted"):
    player: int
    amount: int
    kind: str
    all_in: bool


class HoleDealtEvent(_Event, tag="HoleDealt"):
    player: int
    cards: list[int] | None


class BoardDealtEvent(_Event, tag="BoardDealt"):
    street: int
    cards: list[int]
    run: int


class ActedEvent(_Event, tag="Acted"):
    player: int
    action: Literal["fold", "check", "call", "bet", "raise"]
    to: int
    added: int
    all_in: bool
    timed_out: bool


class ReturnedEvent(_Event, tag="Returned"):
    player: int
    amount: int


class RunsChosenEvent(_Event, tag="RunsChosen"):
    runs: int


class ShownEvent(_Event, tag="Shown"):
    player: int
    cards: list[int]


class MuckedEvent(_Event, tag="Mucked"):
    player: int


class AwardedEvent(_Event, tag="Awarded"):
    pot: int
    player: int
    amount: int
    run: int
    half: str


class RakedEvent(_Event, tag="Raked"):
    pot: int
    amount: int


class BountyPaidEvent(_Event, tag="BountyPaid"):
    payer: int
    player: int
    amount: int


class EndedEvent(_Event, tag="Ended"):
    stacks: list[int]


Event = (PostedEvent | HoleDealtEvent | BoardDealtEvent | ActedEvent | ReturnedEvent
         | RunsChosenEvent | ShownEvent | MuckedEvent | AwardedEvent | RakedEvent
         | BountyPaidEvent | EndedEvent)
EVENT_MODELS: dict[type[ev.Event], type[_Event]] = {
    ev.EVENT_TYPES[str(cls.__struct_config__.tag)]: cls
    for cls in (PostedEvent, HoleDealtEvent, BoardDealtEvent, ActedEvent, ReturnedEvent,
                RunsChosenEvent, ShownEvent, MuckedEvent, AwardedEvent, RakedEvent,
                BountyPaidEvent, EndedEvent)}


def event(e: ev.Event) -> Event:
    """An engine event as its model (its fields in the same order; tuples as lists)."""
    model = EVENT_MODELS[type(e)]
    return cast(Event, model(*[list(v) if isinstance(v, tuple) else v for v in e]))


# ---------------------------------------------------------------------------- a frame

class FramePot(_Answer):
    amount: int
    eligible: list[int]


class FrameLegal(_Answer):
    player: int
    fold: bool
    check: bool
    call: int
    call_to: int
    call_all_in: bool
    min_to: int | None
    max_to: int | None
    is_bet: bool
    summary: Words
    why: list[Words]


class FrameEquity(_Answer):
    exact: bool
    values: list[float | None]
    unknown: list[int]


class Insurance(_Answer):
    leader: int
    outs: list[str]
    unseen: int
    stake: int
    premium: int | None
    cash_out: int
    text: Words


class Frame(_Answer):
    """The hand as it stands after one event (the first frame: before any)."""

    i: int
    event: Event | None
    text: Words
    street: int
    phase: Literal["deal", "betting", "showdown", "done"]
    stacks: list[int]
    bets: list[int]
    totals: list[int]
    folded: list[bool]
    all_in: list[bool]
    mucked: list[int]
    shown: list[int]
    boards: list[list[str]]
    pots: list[FramePot]
    pot_total: int
    returned: list[int]
    awarded: list[int]
    rake: int
    actor: int | None
    legal: FrameLegal | None
    next: Words | None
    strength: list[Words | None]
    equity: FrameEquity | None
    insurance: Insurance | None


# ---------------------------------------------------------------------------- the result

class BreakdownPot(_Answer, tag_field="kind", tag="pot"):
    index: int
    amount: int
    rake: int
    eligible: list[int]
    winners: list[int]
    shares: list[tuple[int, int]]
    text: Words


class BreakdownReturn(_Answer, tag_field="kind", tag="returned"):
    player: int
    amount: int
    text: Words


class Breakdown(_Answer):
    items: list[BreakdownPot | BreakdownReturn]
    text: Words
    rake: int


# ---------------------------------------------------------------------------- fair dealing

class Fairness(_Answer):
    """A hand's commitment to its deck and whether the hand verifies against it
    (:func:`tapete.core.fair.verify`, on the server: the page only shows it)."""

    status: Literal["verified", "rejected", "not-revealed"]
    commitment: str
    summary: Words
    reasons: list[Words]


def fairness(verdict: Verdict) -> Fairness | None:
    """The verdict as the timeline carries it (None: the hand carries no commitment)."""
    if verdict.status is Status.NOT_COMMITTED:
        return None
    status = cast(Literal["verified", "rejected", "not-revealed"], verdict.status.value)
    return Fairness(status=status, commitment=verdict.commitment or "",
                    summary=said(verdict.summary()),
                    reasons=[said(r.text) for r in verdict.reasons])


# ---------------------------------------------------------------------------- the answers

class ReplayPlayer(_Answer):
    name: str
    seat: int
    start: int
    cards: list[str] | None


class Timeline(_Answer):
    """A hand's frames (``/api/replay/hand/{id}``, ``/api/replay/link``)."""

    title: str
    source: str
    hand_id: str
    game: Words
    decimals: int
    currency: str
    money: Money
    big_blind: int
    button: int
    players: list[ReplayPlayer]
    frames: list[Frame]
    streets: list[int | None]
    result: Breakdown | None
    error: Words | None
    partial: bool
    note: Words | None
    share: str | None
    street_names: list[tuple[str, str]]
    mismatches: list[Words]
    fairness: Fairness | None = None


class ListedHand(_Answer):
    index: int
    label: str
    players: int | msgspec.UnsetType = msgspec.UNSET
    error: Words | msgspec.UnsetType = msgspec.UNSET


class FileAnswer(_Answer):
    """A file's hands and the timeline of one (``/api/replay/upload``,
    ``/api/replay/file/{key}``)."""

    name: str
    hands: list[ListedHand]
    selected: int
    timeline: Timeline | None
    error: Words | msgspec.UnsetType = msgspec.UNSET


class IcmPlayer(_Answer):
    before: str
    after: str
    change: str


class IcmAnswer(_Answer):
    """Each player's tournament equity before and after the hand (``/api/icm``)."""

    prizes: list[str]
    players: list[IcmPlayer]


class ErrorAnswer(_Answer):
    """Any refusal of these routes (a status other than 200)."""

    error: Words


def error(message: Text) -> ErrorAnswer:
    return ErrorAnswer(said(message))


# the route (a path, or the start of one) -> the model of its answers with status 200
ANSWERS: dict[str, type[_Answer]] = {
    "/api/replay/hand/": Timeline,
    "/api/replay/link": Timeline,
    "/api/replay/upload": FileAnswer,
    "/api/replay/file/": FileAnswer,
    "/api/icm": IcmAnswer,
}
ROOTS = (Timeline, FileAnswer, IcmAnswer, ErrorAnswer)  # what an answer is, whole


def answer_model(path: str, status: int) -> type[_Answer]:
    """The model of an answer of the route at ``path`` with this status (``KeyError``: no
    route of the replayer's)."""
    for route, model in ANSWERS.items():
        if path == route or (route.endswith("/") and path.startswith(route)):
            return ErrorAnswer if status != 200 else model
    raise KeyError(path)


def check_answer(path: str, status: int, body: bytes | str) -> _Answer:
    """An answer a replayer route sent, as its model (raises ``msgspec.ValidationError`` when
    it does not fit it: a field that is not described, one missing, a wrong type)."""
    out: _Answer = msgspec.json.decode(body, type=answer_model(path, status), strict=True)
    return out


def encode(answer: _Answer) -> bytes:
    """The JSON text of an answer (UTF-8, compact)."""
    return msgspec.json.encode(answer)
