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

from typing import Annotated, Literal, cast

import msgspec

from tapete.core import events as ev
from tapete.core.fair import Status, Verdict
from tapete.core.text import Text
from tapete.server.protocol import Money, Words, doc


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
    player: Annotated[int, doc("who posted")]
    amount: Annotated[int, doc("the chips")]
    kind: Annotated[str, doc(
        "`ante`, `small blind`, `big blind`, `straddle`, `dead` (a dead blind), `bomb` (a bomb "
        "pot's ante, a live bet) or `blind` (another live blind)")]
    all_in: Annotated[bool, doc("it put the player all-in")]


class HoleDealtEvent(_Event, tag="HoleDealt"):
    player: Annotated[int, doc("to whom")]
    cards: Annotated[list[int] | None, doc(
        "the cards (null: dealt face down, unknown to the record) (card numbers)")]


class BoardDealtEvent(_Event, tag="BoardDealt"):
    street: Annotated[int, doc("1 flop, 2 turn, 3 river")]
    cards: Annotated[list[int], doc("the cards (card numbers)")]
    run: Annotated[int, doc("which board, when it is run more than once (0: the first)")]


class ActedEvent(_Event, tag="Acted"):
    player: Annotated[int, doc("who acted")]
    action: Annotated[Literal["fold", "check", "call", "bet", "raise"], doc(
        "`fold`, `check`, `call`, `bet` or `raise`")]
    to: Annotated[int, doc("the player's street total after it")]
    added: Annotated[int, doc("the chips it put in")]
    all_in: Annotated[bool, doc("it put the player all-in")]
    timed_out: Annotated[bool, doc("the clock acted for the player")]


class ReturnedEvent(_Event, tag="Returned"):
    player: Annotated[int, doc("to whom")]
    amount: Annotated[int, doc("the chips given back (uncalled)")]


class RunsChosenEvent(_Event, tag="RunsChosen"):
    runs: Annotated[int, doc("how many times the board is run")]


class ShownEvent(_Event, tag="Shown"):
    player: Annotated[int, doc("who showed")]
    cards: Annotated[list[int], doc("the cards (card numbers)")]


class MuckedEvent(_Event, tag="Mucked"):
    player: Annotated[int, doc("who mucked")]


class AwardedEvent(_Event, tag="Awarded"):
    pot: Annotated[int, doc("0 the main pot, then the side pots")]
    player: Annotated[int, doc("who won")]
    amount: Annotated[int, doc("the chips")]
    run: Annotated[int, doc("which board (0: the first)")]
    half: Annotated[str, doc(
        'which half of a high-low pot: `"high"`, `"low"`, or `""` for the whole pot (every '
        "high-only game, and a pot one player takes alone)")]


class RakedEvent(_Event, tag="Raked"):
    pot: Annotated[int, doc("the pot")]
    amount: Annotated[int, doc("the rake taken from it")]


class BountyPaidEvent(_Event, tag="BountyPaid"):
    payer: Annotated[int, doc("who pays")]
    player: Annotated[int, doc("who showed the 7-2 and won")]
    amount: Annotated[int, doc("the bounty, or what the payer had left when less")]


class EndedEvent(_Event, tag="Ended"):
    stacks: Annotated[list[int], doc("every player's stack at the end")]


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
    amount: Annotated[int, doc("chips in the pot")]
    eligible: Annotated[list[int], doc("the players who may win it")]


class FrameLegal(_Answer):
    player: Annotated[int, doc("the player to act")]
    fold: Annotated[bool, doc("folding is possible (there is a bet to face)")]
    check: Annotated[bool, doc("checking is possible")]
    call: Annotated[int, doc("the chips a call adds (0 when checking is possible)")]
    call_to: Annotated[int, doc("the street total after calling")]
    call_all_in: Annotated[bool, doc("calling takes every chip left")]
    min_to: Annotated[int | None, doc(
        "the smallest bet or raise, as a street total (null: no bet or raise possible)")]
    max_to: Annotated[int | None, doc("the largest")]
    is_bet: Annotated[bool, doc("a bet (nobody has bet this street) rather than a raise")]
    summary: Annotated[Words, doc('the options in one line ("fold, call 10, raise to 20–138")')]
    why: Annotated[list[Words], doc(
        "why the bounds are what they are (why no raise is possible; why the smallest; why the "
        "largest)")]


class FrameEquity(_Answer):
    exact: Annotated[bool, doc(
        "every live hand is known and the figure is exact (else Monte Carlo against any two "
        "cards for the hands not known)")]
    values: Annotated[list[float | None], doc(
        "each player's share of the pot, 0 to 1 (null for a player not live)")]
    unknown: Annotated[list[int], doc("the live players whose cards are not known")]


class Insurance(_Answer):
    leader: Annotated[int, doc("the player ahead")]
    outs: Annotated[list[str], doc('the cards after which they collect less (cards as `"As"`)')]
    unseen: Annotated[int, doc("the cards not seen")]
    stake: Annotated[int, doc("what they collect if no out comes")]
    premium: Annotated[int | None, doc(
        "what covering the stake costs (null: the room sells no insurance for so many outs, or "
        "there are none)")]
    cash_out: Annotated[int, doc("their equity in chips now, after the room's 1 % fee")]
    text: Annotated[Words, doc("all of it in words")]


class Frame(_Answer):
    """The hand as it stands after one event (the first frame: before any)."""

    i: Annotated[int, doc("the frame's number, from 0")]
    event: Annotated[Event | None, doc(
        "the event this frame shows (null: the first frame); one of the `...Event` models "
        "below, by its `type`")]
    text: Annotated[Words, doc('the event in words ("Ana raises to 60")')]
    street: Annotated[int, doc("0 preflop, 1 flop, 2 turn, 3 river")]
    phase: Annotated[Literal["deal", "betting", "showdown", "done"], doc(
        "`deal`, `betting`, `showdown` or `done`")]
    stacks: Annotated[list[int], doc("chips behind")]
    bets: Annotated[list[int], doc("chips in front on this street")]
    totals: Annotated[list[int], doc("chips put in this hand")]
    folded: Annotated[list[bool], doc("folded")]
    all_in: Annotated[list[bool], doc("all-in")]
    mucked: Annotated[list[int], doc("the players who mucked their cards")]
    shown: Annotated[list[int], doc("the players who showed their cards")]
    boards: Annotated[list[list[str]], doc(
        'the board (several when it is run more than once); cards as `"As"`, `"Td"`')]
    pots: Annotated[list[FramePot], doc(
        "the main pot and the side pots, as the engine has them now")]
    pot_total: Annotated[int, doc("every chip put in")]
    returned: Annotated[list[int], doc("chips given back to each player (uncalled) so far")]
    awarded: Annotated[list[int], doc("chips each player has won so far")]
    rake: Annotated[int, doc("the rake taken so far")]
    actor: Annotated[int | None, doc("the player to act (null: nobody, betting is not on)")]
    legal: Annotated[FrameLegal | None, doc("the options of the player to act")]
    next: Annotated[Words | None, doc("at a decision: what the player did next, in words")]
    strength: Annotated[list[Words | None], doc(
        'each player\'s hand, when known ("AKs" before the flop, then "pair of queens"); null: '
        "not known, or folded")]
    equity: Annotated[FrameEquity | None, doc(
        "each live player's share of the pot (null: the hand is over, or fewer than two live)")]
    insurance: Annotated[Insurance | None, doc(
        "once the betting is over on the flop or the turn with every live hand known: the "
        "insurance and cash-out the player ahead could take")]


# ---------------------------------------------------------------------------- the result

class BreakdownPot(_Answer, tag_field="kind", tag="pot"):
    index: Annotated[int, doc("0 the main pot, then the side pots")]
    amount: Annotated[int, doc("the pot, after rake")]
    rake: Annotated[int, doc("the rake taken from it")]
    eligible: Annotated[list[int], doc("the players who could win it")]
    winners: Annotated[list[int], doc("who won it")]
    shares: Annotated[list[tuple[int, int]], doc("what each winner took (each `[player, chips]`)")]
    text: Annotated[Words, doc('the line ("Ana wins the main pot, 300, with a pair of aces")')]


class BreakdownReturn(_Answer, tag_field="kind", tag="returned"):
    player: Annotated[int, doc("to whom")]
    amount: Annotated[int, doc("the chips given back")]
    text: Annotated[Words, doc('the line ("Carla takes back 200 (uncalled)")')]


class Breakdown(_Answer):
    items: Annotated[list[BreakdownPot | BreakdownReturn], doc(
        "one item per pot, then one per return")]
    text: Annotated[Words, doc("the whole result in one text")]
    rake: Annotated[int, doc("the rake of every pot")]


# ---------------------------------------------------------------------------- fair dealing

class Fairness(_Answer):
    """A hand's commitment to its deck and whether the hand verifies against it
    (:func:`tapete.core.fair.verify`, on the server: the page only shows it)."""

    status: Annotated[Literal["verified", "rejected", "not-revealed"], doc(
        "`verified` (the deck and the secret give the commitment, and every card dealt is the "
        "deck's at its place), `rejected` (see `reasons`) or `not-revealed` (the deck or the "
        "secret is not given)")]
    commitment: Annotated[str, doc(
        "the commitment published before the hand, as the record gives it (a SHA-256 in "
        "lowercase hex when it is one)")]
    summary: Annotated[Words, doc(
        'the verdict in words ("verified: the cards dealt are the committed deck\'s, in order", '
        '"not verified")')]
    reasons: Annotated[list[Words], doc(
        "why the hand is rejected, one sentence each (empty otherwise)")]


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
    name: Annotated[str, doc("the player's name")]
    seat: Annotated[int, doc("the seat in the file (or at the practice table)")]
    start: Annotated[int, doc("the stack at the start of the hand")]
    cards: Annotated[list[str] | None, doc(
        "the hole cards, once known (dealt face up or shown at any point of the record); null: "
        'never known (cards as `"As"`)')]


class Timeline(_Answer):
    """A hand's frames (``/api/replay/hand/{id}``, ``/api/replay/link``)."""

    title: Annotated[str, doc(
        'what the page shows as the hand\'s title (`"#123"`, `"file.txt #4"`)')]
    source: Annotated[str, doc("where the hand comes from (`tapete`, the file's name, its site)")]
    hand_id: Annotated[str, doc("the hand's id, or empty")]
    game: Annotated[Words, doc('the rules in words ("No-limit hold\'em, blinds 1/2")')]
    decimals: Annotated[int, doc("decimal digits of the smallest unit")]
    currency: Annotated[str, doc("the currency symbol, or empty for chips")]
    money: Annotated[Money, doc("how amounts are written, per language")]
    big_blind: Annotated[int, doc("the big blind")]
    button: Annotated[int, doc("the player on the button")]
    players: Annotated[list[ReplayPlayer], doc("the players dealt in, in seat order")]
    frames: Annotated[list[Frame], doc("the frames, in order (at most 1,500 events)")]
    streets: Annotated[list[int | None], doc(
        "the first frame of each street (preflop, flop, turn, river); null: not reached (4 of "
        "them)")]
    result: Annotated[Breakdown | None, doc(
        "the finished hand's pots (null: the hand does not finish)")]
    error: Annotated[Words | None, doc(
        "an illegal action stopped the hand: the engine's reason (the frames stop before it)")]
    partial: Annotated[bool, doc("the record stops before the hand is over")]
    note: Annotated[Words | None, doc("why the hand is partial, when known")]
    share: Annotated[str | None, doc(
        "the code of a shared link to this hand (`/replay#h=CODE`); null: none (an illegal "
        "hand)")]
    street_names: Annotated[list[tuple[str, str]], doc(
        "the streets' names (each `[english, spanish]`)")]
    mismatches: Annotated[list[Words], doc(
        "a PokerStars file: what its summary says that the replay does not give")]
    fairness: Annotated[Fairness | None, doc(
        "the hand's commitment to its deck and whether it verifies (null: the hand carries no "
        "commitment)")] = None


class ListedHand(_Answer):
    index: Annotated[int, doc("its place in the file, from 0 (`hand=` asks for it)")]
    label: Annotated[str, doc("its id or name")]
    players: Annotated[int | msgspec.UnsetType, doc(
        "how many players (a hand that could be read)")] = msgspec.UNSET
    error: Annotated[Words | msgspec.UnsetType, doc(
        "why it cannot be read (where in the file)")] = msgspec.UNSET


class FileAnswer(_Answer):
    """A file's hands and the timeline of one (``/api/replay/upload``,
    ``/api/replay/file/{key}``)."""

    name: Annotated[str, doc("the file's name")]
    hands: Annotated[list[ListedHand], doc("its hands, in order (5,000 at most)")]
    selected: Annotated[int, doc("the hand replayed (the one asked for, or 0)")]
    timeline: Annotated[Timeline | None, doc("its timeline (null: that hand cannot be read)")]
    error: Annotated[Words | msgspec.UnsetType, doc(
        "only when `timeline` is null: why")] = msgspec.UNSET


class IcmPlayer(_Answer):
    before: Annotated[str, doc('the stack\'s worth before the hand (`"42.00"`)')]
    after: Annotated[str, doc("after it")]
    change: Annotated[str, doc('the difference, signed (`"+12.00"`)')]


class IcmAnswer(_Answer):
    """Each player's tournament equity before and after the hand (``/api/icm``)."""

    prizes: Annotated[list[str], doc("the prizes still to be won, first place first")]
    players: Annotated[list[IcmPlayer], doc("one per stack asked about, in order")]


class ErrorAnswer(_Answer):
    """Any refusal of these routes (a status other than 200)."""

    error: Annotated[Words, doc("what went wrong")]


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
