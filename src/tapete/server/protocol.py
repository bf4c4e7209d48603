"""The browser protocol as models: what a page may send, checked at the edge, once.

Every message is a JSON object with a ``type``. The messages a page sends are the structs
below (:data:`ClientMessage`, a union tagged by ``type``): :func:`parse` decodes a message
into one of them with msgspec, which checks each field's type in the same pass (a bool is not
a number, ``2.5`` is not a chip count, ``"1"`` is not a sequence number, an unknown field is
refused). When it refuses, :func:`explain` says why in English and Spanish, reading the same
models: the schema is written once, here, and nowhere else.

What the server sends (``state``, ``hands``, ``error``, ``pong``) is modelled too, below
(:data:`SERVER_MESSAGES`, :func:`check_sent`); ``docs/protocol.md`` documents every field of
both, ``tests/server/test_protocol.py`` fails when a field is missing from it or a message
sent does not fit its model, and ``tests/web/test_js_fields.py`` when the page reads a field
that no model has.
"""

from __future__ import annotations

import json
from typing import Any, Literal, get_args, get_origin

import msgspec

from tapete.core.catalog import t
from tapete.core.text import Text
from tapete.room.errors import Refused

MAX_MESSAGE = 4096  # characters of one message
MAX_DEPTH = 8  # brackets and braces open at once (messages are flat objects)
FORGED = ("seat", "player", "actor")  # a message never names a seat: the connection does


class _Message(msgspec.Struct, forbid_unknown_fields=True, tag_field="type"):
    """A message from the page (``type`` is the struct's tag)."""


class Sit(_Message, tag="sit"):
    """Take a seat at a new practice table (in the lobby)."""

    structure: str  # "nl", "pl" or "fl"
    blinds: int  # an index into the lobby's ``options.blinds``
    variant: Literal["holdem", "omaha", "omaha-hi-lo"] = "holdem"  # the game dealt
    name: str | msgspec.UnsetType = msgspec.UNSET
    buy_in: int | msgspec.UnsetType = msgspec.UNSET
    lang: Literal["en", "es"] = "en"  # the language of the default name


class Act(_Message, tag="act"):
    """Answer the decision numbered ``seq``."""

    seq: int
    action: Literal["fold", "check", "call", "bet", "raise"]
    amount: int | msgspec.UnsetType = msgspec.UNSET  # a bet's or raise's street total


class Pre(_Message, tag="pre"):
    """Choose (or clear, with null) what to do when the turn comes."""

    value: Literal["check_fold", "call_any"] | None


class AddChips(_Message, tag="add_chips"):
    """Bring chips from the bankroll to the table."""

    amount: int


class SitOut(_Message, tag="sit_out"):
    """Sit out from the next hand."""


class SitIn(_Message, tag="sit_in"):
    """Come back; ``post``: post the missed blinds now rather than wait for the big blind."""

    post: bool = False


class Leave(_Message, tag="leave"):
    """Leave the table (after the hand); the chips go back to the bankroll."""


class Next(_Message, tag="next"):
    """Deal the next hand now (skip the pause after a result)."""


class Coach(_Message, tag="coach"):
    """Switch the coach's advice on or off."""

    on: bool


class Reset(_Message, tag="reset"):
    """Reset the bankroll to the starting amount (in the lobby)."""


class Ping(_Message, tag="ping"):
    """Ask for a ``pong``."""


class TakeSeat(_Message, tag="take_seat"):
    """At a room table: sit down, buying in for ``buy_in`` chips (within the table's range,
    from the bankroll), under ``name`` (unique at the table), in seat ``seat_number`` (0-based;
    the first free seat when absent)."""

    buy_in: int
    name: str
    seat_number: int | msgspec.UnsetType = msgspec.UNSET


class HostAction(_Message, tag="host"):
    """At a host's table, from its host: ``action`` with what it needs. ``request``: a seat
    or rebuy request, by its record's seq (approve, deny); ``seat_number``: the player it is
    about (stack, kick, mute, host: hand the role over); ``on``: auto_approve, mute;
    ``now``: pause now, the clock stopped (else after the hand); ``chips``: the stack to
    set; ``changes``: settings from the next hand; ``allowed`` and ``chat``: spectators."""

    action: Literal["approve", "deny", "auto_approve", "pause", "resume", "settings",
                    "stack", "kick", "mute", "spectators", "host", "end"]
    request: int | msgspec.UnsetType = msgspec.UNSET
    seat_number: int | msgspec.UnsetType = msgspec.UNSET
    on: bool | msgspec.UnsetType = msgspec.UNSET
    now: bool | msgspec.UnsetType = msgspec.UNSET
    chips: int | msgspec.UnsetType = msgspec.UNSET
    changes: dict[str, int | bool | str] | msgspec.UnsetType = msgspec.UNSET
    allowed: bool | msgspec.UnsetType = msgspec.UNSET
    chat: bool | msgspec.UnsetType = msgspec.UNSET


class Chat(_Message, tag="chat"):
    """Say ``text`` at the table (a spectator: to the spectators); plain text."""

    text: str


class Vote(_Message, tag="vote"):
    """Answer the vote opened by record ``vote`` (run it more than once, a bomb pot)."""

    vote: int
    yes: bool


class Propose(_Message, tag="propose"):
    """Ask the table to vote for a bomb pot next hand."""

    kind: Literal["bomb"]


class Straddle(_Message, tag="straddle"):
    """Straddle (or stop straddling) whenever the seat after the big blind is yours."""

    on: bool


class Sng(_Message, tag="sng"):
    """Start a practice sit-and-go (in the lobby): the person and 5 or 8 bots."""

    seats: Literal[6, 9] = 6
    speed: Literal["regular", "turbo"] = "regular"
    buy_in: int = 100
    name: str | msgspec.UnsetType = msgspec.UNSET
    lang: Literal["en", "es"] = "en"


class Deal(_Message, tag="deal"):
    """Propose a deal at a sit-and-go (three players left or fewer)."""

    kind: Literal["icm", "chop"]


class DealAnswer(_Message, tag="deal_answer"):
    """Accept or refuse the deal proposed."""

    yes: bool


ClientMessage = (Sit | Act | Pre | AddChips | SitOut | SitIn | Leave | Next | Coach | Reset
                 | Ping | Sng | Deal | DealAnswer)
CLIENT_MESSAGES: dict[str, type[_Message]] = {
    str(cls.__struct_config__.tag): cls for cls in get_args(ClientMessage)}
_decoder = msgspec.json.Decoder(ClientMessage)

# what a client may send at a room table (``/ws/t/{table}``)
RoomMessage = (TakeSeat | Act | Pre | AddChips | SitOut | SitIn | Leave | Ping | HostAction
               | Chat | Vote | Propose | Straddle)
ROOM_MESSAGES: dict[str, type[_Message]] = {
    str(cls.__struct_config__.tag): cls for cls in get_args(RoomMessage)}
_room_decoder = msgspec.json.Decoder(RoomMessage)


def malformed(message: Text) -> Refused:
    return Refused(message, "malformed")


def parse(raw: str) -> ClientMessage:
    """A message from the page as its model; raises :class:`Refused` with a clear reason (in
    both languages) when it is not one."""
    _check_size(raw)
    try:
        return _decoder.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError):
        raise explain(raw) from None


def parse_room(raw: str) -> RoomMessage:
    """A message from a client at a room table, as :func:`parse` does for the practice
    table."""
    _check_size(raw)
    try:
        return _room_decoder.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError):
        raise explain(raw, ROOM_MESSAGES) from None


def _check_size(raw: str) -> None:
    if len(raw) > MAX_MESSAGE:
        raise malformed(t("The message is too long."))
    # nesting is bounded before anything recurses into it; the count skips most messages
    if raw.count("[") + raw.count("{") > MAX_DEPTH:
        _check_depth(raw)


def _check_depth(raw: str) -> None:
    depth, in_string, escaped = 0, False, False
    for ch in raw:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise malformed(t("The message is nested too deeply."))
        elif ch in "]}":
            depth -= 1


def explain(raw: str, messages: dict[str, type[_Message]] | None = None) -> Refused:
    """Why a message that msgspec refused is not one the page may send, read off the models:
    not JSON, not an object, an unknown type, a field naming a seat, an unknown field, a
    wrong type, a value outside its choices, a missing field (in that order)."""
    try:
        msg = json.loads(raw)
    except ValueError:
        return malformed(t("The message is not valid JSON."))
    if not isinstance(msg, dict):
        return malformed(t("A message must be a JSON object."))
    kind = msg.get("type")
    cls = (CLIENT_MESSAGES if messages is None else messages).get(kind) \
        if isinstance(kind, str) else None
    if cls is None:
        return malformed(t("Unknown message type {kind}.", kind=repr(kind)))
    fields = {f.encode_name: f for f in msgspec.structs.fields(cls)}
    for key, value in msg.items():
        if key == "type":
            continue
        if key in FORGED:
            return Refused(t("You can only act for your own seat; messages do not name"
                               " a seat."), "forged")
        field = fields.get(key)
        if field is None:
            return malformed(t("Unexpected field {key} in {kind}.", key=repr(key),
                               kind=repr(kind)))
        choices = _choices(field.type)
        if choices and isinstance(value, str):
            if value not in choices:
                listed = t("{choices} or {last}", choices=", ".join(choices[:-1]),
                           last=choices[-1])
                # key names a field of the model: quoted, it is 'key'
                return malformed(t("Unknown {key} {value}: {listed}.", key=key,
                                   value=repr(value), listed=listed))
            continue
        try:
            msgspec.convert(value, field.type, strict=True)
        except msgspec.ValidationError:
            return malformed(t("Field {key} has the wrong type.", key=repr(key)))
    for key, field in fields.items():
        if field.required and key not in msg:
            return malformed(t("Field {key} is missing in {kind}.", key=repr(key),
                               kind=repr(kind)))
    return malformed(t("The message does not fit the protocol."))


def _choices(tp: Any) -> tuple[str, ...]:
    """The strings a ``Literal`` field (maybe ``| None``) allows; () for any other type."""
    if get_origin(tp) is Literal:
        return tuple(str(a) for a in get_args(tp))
    for arg in get_args(tp):
        if get_origin(arg) is Literal:
            return tuple(str(a) for a in get_args(arg))
    return ()


# ============================================================================ what the server sends
# The server builds its messages as dicts (``Game.state``, ``Hand.view``...) and writes them
# with json.dumps: the models below describe them, field by field, and the tests decode every
# message a session sends into them (an unknown field, a missing one or a wrong type fails),
# so that this description, ``docs/protocol.md`` and the pages agree with what is sent.

class _Out(msgspec.Struct, forbid_unknown_fields=True):
    """A part of a message from the server."""


class Words(_Out):
    """A sentence in both languages."""

    en: str
    es: str


class Me(_Out):
    bankroll: int
    at_table: int
    in_pot: int
    total: int
    starting: int
    version: int


class LobbyOptions(_Out):
    structures: list[str]
    variants: list[str]
    blinds: list[list[int]]
    min_buy_in_bb: int
    max_buy_in_bb: int


class MoneyFormat(_Out):
    group: str
    decimal: str
    minus: str
    decimals: int
    before: str
    after: str
    percent_before: str
    percent_after: str


class Money(_Out):
    en: MoneyFormat
    es: MoneyFormat


class TableRules(_Out):
    structure: str
    variant: Literal["holdem", "omaha", "omaha-hi-lo"]  # the game dealt (tapete.core.game)
    hole_cards: int  # each player's, face down
    small_blind: int
    big_blind: int
    small_bet: int
    big_bet: int
    ante: int
    decimals: int
    currency: str
    key: str
    blinds: int


class Seat(_Out):
    seat: int
    name: str
    bot: bool
    style: str | None
    chips: int
    sitting_out: bool
    leaving: bool
    you: bool


class LastAction(_Out):
    action: str
    amount: int
    all_in: bool


class PlayerView(_Out):
    name: str
    seat: int
    stack: int
    bet: int
    total: int
    folded: bool
    all_in: bool
    cards: list[str] | None
    has_cards: bool
    last_action: LastAction | None = None


class PotView(_Out):
    amount: int
    eligible: list[int]


class LegalOptions(_Out):
    fold: bool
    check: bool
    call: int
    call_to: int
    call_all_in: bool
    min_to: int | None
    max_to: int | None
    is_bet: bool
    min_reason: Words
    max_reason: Words


class PotResult(_Out):
    amount: int
    eligible: list[int]
    winners: list[int]
    shares: list[list[int]]
    rake: int


class HandView(_Out):
    hand_id: str
    phase: str
    street: int
    button: int
    players: list[PlayerView]
    boards: list[list[str]]
    pot: int
    pots: list[PotView]
    actor: int | None
    you: int | None
    legal: LegalOptions | None = None
    results: list[PotResult] | None = None
    returned: list[int] | None = None
    net: list[int] | None = None


class Decision(_Out):
    seq: int
    action_time: float
    time_left: float
    bank: float
    summary: Words | None = None


class RangeRead(_Out):
    name: str
    words: Words


class Advice(_Out):
    equity: float | None = None
    opponents: int | None = None
    against: Words | None = None
    ranges: list[RangeRead] | None = None
    call: int | None = None
    pot_odds: float | None = None
    verdict: Words | None = None


class PotLine(_Out, tag_field="kind", tag="pot"):
    index: int
    amount: int
    rake: int
    eligible: list[str]
    winners: list[str]
    shares: list[tuple[str, int]]
    text: Words


class ReturnedLine(_Out, tag_field="kind", tag="returned"):
    amount: int
    player: str
    text: Words


class ShownHand(_Out):
    player: int
    seat: int
    name: str
    cards: list[str]
    best: Words | None = None


class Explanation(_Out):
    seat: int
    player: int
    name: str
    street: int
    action: Words | None
    why: Words
    hidden: bool = False


class Result(_Out):
    hand_id: str
    number: int
    played: bool
    pots: list[PotLine | ReturnedLine]
    breakdown: Words
    shown: list[ShownHand]
    board: list[str]
    net: int
    explanations: list[Explanation]
    log: list[Words]


class HandSummary(_Out):
    hand_id: str
    number: int
    net: int
    cards: str
    board: str
    pot: int
    breakdown: Words
    played_at: float
    structure: str
    blinds: list[int]


class LobbyState(_Out):
    """``state`` in the lobby (``lobby: true``)."""

    type: Literal["state"]
    lobby: Literal[True]
    me: Me
    options: LobbyOptions
    notice: Words | None
    money: Money


class RoomConfig(_Out):
    """A room table's settings (``tapete.room.log.TableConfig``): times in milliseconds,
    amounts in chips."""

    game: Literal["nl", "pl", "fl"]
    variant: Literal["holdem", "omaha", "omaha-hi-lo"]
    small_blind: int
    big_blind: int
    min_buy_in: int
    max_buy_in: int
    seats: int
    act_ms: int
    bank_ms: int
    bank_add_ms: int
    bank_every: int
    bank_max_ms: int
    grace_base_ms: int
    grace_per_bb_ms: int
    grace_max_ms: int
    bots: bool
    public: bool
    spectators: bool
    on_crash: Literal["resume", "void"]
    fair: bool  # provably fair dealing (docs/fairness.md)
    auto_approve: bool
    chat: bool
    spectator_chat: bool
    straddle: bool
    restraddle: bool
    bomb_every: int
    bomb_ante: int
    bomb_vote: bool
    double_board: bool
    bounty_72: int
    run_it: int
    tournament: str = ""  # a tournament's table: the tournament's id


class ChatLine(_Out):
    """A line of the table's chat: a message (``kind`` "chat": its writer's ``name``, None
    for a spectator, and ``text``, plain text) or what the host did or the players voted
    (``words``)."""

    seq: int
    kind: Literal["chat", "host", "vote", "decided"]
    name: str | None
    text: str | None
    spectator: bool
    words: Words | None


class SeatRequest(_Out):
    """A seat (``kind`` "seat") or chips ("chips") asked for, waiting for the host."""

    request: int
    kind: Literal["seat", "chips"]
    name: str
    chips: int
    seat_number: int | None


class OpenVote(_Out):
    """A vote open: to run the board ``runs`` times (everyone in the hand must agree), or
    a bomb pot next hand (more than half of the players seated); the seats asked, those who
    said yes and no, whether the viewer is to answer, the seconds left."""

    vote: int
    kind: Literal["runs", "bomb"]
    runs: int | None
    seats: list[int]
    yes: list[int]
    no: list[int]
    mine: bool
    seconds_left: float


class HomeInfo(_Out):
    """A host's table and the home-game options: whether the table has a host and the viewer
    is it, the host's seat, the pause (``next``: after this hand; ``now``: the clock
    stopped), the game ended, auto-approve, the requests waiting (all of them for the host,
    the viewer's own for anyone else), whether the viewer is muted and the seats muted, the
    settings changing from the next hand, whether the viewer straddles, a bomb pot voted for
    next hand, the votes open."""

    hosted: bool
    host: bool
    host_seat: int | None
    paused: Literal["next", "now"] | None
    over: bool
    auto_approve: bool
    requests: list[SeatRequest]
    muted: bool
    muted_seats: list[int]
    next: dict[str, int | bool | str]
    straddling: bool
    bomb_next: bool
    votes: list[OpenVote]


class FairDeal(_Out):
    """A hand's fair deal, revealed once the hand is over (docs/fairness.md): the
    commitment published before its first card, the deck in dealing order (104 characters,
    ``"AhKd2c..."``) and the secret (64 hex digits)."""

    commitment: str
    deck: str
    secret: str


class RoomInfo(_Out):
    """At a room table: which table, its last record's ``seq``, its settings, whether the
    viewer has a seat, the hands dealt, the spectators watching, the server's time; at a
    table with fair dealing, the hand in play's ``commitment`` (SHA-256, hex) and the last
    hand's deal, ``revealed``."""

    table: str
    seq: int
    config: RoomConfig
    seated: bool
    hand_no: int
    spectators: int
    commitment: str | None
    revealed: FairDeal | None
    at: int
    chat: list[ChatLine]
    home: HomeInfo


class SeatEquity(_Out):
    """One player's share of a tournament's prize pool by ICM, in whole chips of the pool."""

    seat: int | None
    name: str
    chips: int
    equity: int


class DealAmount(_Out):
    name: str
    amount: int
    answer: bool | None


class DealInfo(_Out):
    """A deal proposed at a tournament: each player's amount and answer (None: not yet)."""

    kind: Literal["icm", "chop"]
    open: bool
    amounts: list[DealAmount]
    yours: int


class Placing(_Out):
    place: int
    name: str
    prize: int


class TournamentInfo(_Out):
    """At a tournament's table: the tournament as the person sees it."""

    id: str
    name: Words
    kind: Literal["sng", "mtt"]
    level: int
    small_blind: int
    big_blind: int
    ante: int
    next_small_blind: int
    next_big_blind: int
    next_ante: int
    hands_to_next_level: int
    entrants: int
    players_left: int
    prize_pool: int
    prizes: list[int]
    equities: list[SeatEquity]
    deal: DealInfo | None
    place: int | None
    prize: int | None
    finished: bool
    results: list[Placing]
    hand_for_hand: bool
    table_number: int
    tables: int
    deal_allowed: bool  # you may propose a deal now (docs/rules.md, "Deals")


class TableState(_Out):
    """``state`` at a table (``lobby: false``): the whole table as this seat sees it."""

    type: Literal["state"]
    lobby: Literal[False]
    seq: int | None
    rules: TableRules
    seats: list[Seat | None]
    button_seat: int | None
    sb_seat: int | None
    bb_seat: int | None
    hand: HandView | None
    live: bool
    log: list[Words] | None
    decision: Decision | None
    pre_action: Literal["check_fold", "call_any"] | None
    coach_on: bool
    coach: Advice | None
    last_result: Result | None
    sitting_out: bool
    owes_blinds: bool
    waiting_for_big_blind: bool
    sat_out_reason: Words | None
    waiting: bool
    leaving: bool
    time_bank: float
    notice: Words | None
    money: Money
    me: Me
    room: RoomInfo | None = None
    tournament: TournamentInfo | None = None


class RoomRecord(_Out):
    """At a room table, with ``?records=1``: one record of the table's log as this viewer
    may see it (another seat's hole cards hidden, never the deck or a player's id), numbered
    gap-free by ``seq``."""

    type: Literal["record"]
    table: str
    seq: int
    kind: str
    data: dict[str, Any]


class TableSummary(_Out):
    """A public room table as ``GET /api/room/tables`` lists it."""

    table: str
    game: Literal["nl", "pl", "fl"]
    variant: Literal["holdem", "omaha", "omaha-hi-lo"]
    small_blind: int
    big_blind: int
    min_buy_in: int
    max_buy_in: int
    seats: int
    taken: int
    spectators: int
    hands: int
    average_pot: int
    hands_per_hour: int
    public: bool
    bots: bool


class Hands(_Out):
    type: Literal["hands"]
    reset: bool
    hands: list[HandSummary]


class Error(_Out):
    type: Literal["error"]
    code: str
    message: Words
    seq: int | None = None


class Pong(_Out):
    type: Literal["pong"]


class Moved(_Out):
    """At a tournament's table: the person was moved to another table (the page follows)."""

    type: Literal["moved"]
    table: str


SERVER_MESSAGES: tuple[type[_Out], ...] = (LobbyState, TableState, Hands, Error, Pong,
                                           RoomRecord, Moved)


def check_sent(message: dict[str, Any]) -> _Out:
    """A message the server sent, as its model (raises ``msgspec.ValidationError`` when it
    does not fit one: a field that is not described, one missing, a wrong type)."""
    kind = message.get("type")
    models: dict[str, type[_Out]] = {"hands": Hands, "error": Error, "pong": Pong,
                                     "record": RoomRecord, "moved": Moved}
    model = (LobbyState if message.get("lobby") else TableState) if kind == "state" \
        else models[str(kind)]
    out: _Out = msgspec.convert(message, model, strict=True)
    return out
