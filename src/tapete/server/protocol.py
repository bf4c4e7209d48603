"""The browser protocol as models: what a page may send, checked at the edge, once.

Every message is a JSON object with a ``type``. The messages a page sends are the structs
below (:data:`ClientMessage`, a union tagged by ``type``): :func:`parse` decodes a message
into one of them with msgspec, which checks each field's type in the same pass (a bool is not
a number, ``2.5`` is not a chip count, ``"1"`` is not a sequence number, an unknown field is
refused). When it refuses, :func:`explain` says why in English and Spanish, reading the same
models: the schema is written once, here, and nowhere else.

What the server sends (``state``, ``hands``, ``error``, ``pong``...) is modelled too, below
(:data:`SERVER_MESSAGES`, :func:`check_sent`), and sent as instances of those models. Each
field's meaning is written beside its type (:func:`doc`): ``docs/protocol.md``'s tables and the
pages' JSON Schema are generated from the models (:mod:`tapete.server.protocol_docs`;
``tests/server/test_protocol_docs.py`` fails when they drift), ``tests/server/test_protocol.py``
when a message sent does not fit its model, and ``tests/web/test_js_fields.py`` when the page
reads a field that no model has.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args, get_origin

import msgspec

from tapete.core.catalog import t
from tapete.core.text import Text
from tapete.room.errors import Refused

MAX_MESSAGE = 4096  # characters of one message
MAX_DEPTH = 8  # brackets and braces open at once (messages are flat objects)
FORGED = ("seat", "player", "actor")  # a message never names a seat: the connection does


def doc(meaning: str) -> msgspec.Meta:
    """What a field means, written once, here, with its type (``Annotated[int, doc(...)]``):
    :mod:`tapete.server.protocol_docs` writes docs/protocol.md's tables and the pages' JSON
    Schema from it."""
    return msgspec.Meta(description=meaning)


class _Message(msgspec.Struct, forbid_unknown_fields=True, tag_field="type"):
    """A message from the page (``type`` is the struct's tag)."""


class Sit(_Message, tag="sit"):
    """Take a seat at a new practice table (in the lobby)."""

    structure: Annotated[str, doc('`"nl"` (no limit), `"pl"` (pot limit) or `"fl"` (fixed limit)')]
    blinds: Annotated[int, doc("an index into the lobby's `options.blinds`")]
    variant: Annotated[Literal["holdem", "omaha", "omaha-hi-lo"], doc(
        "the game dealt: hold'em (the default), pot-limit Omaha's four cards, Omaha hi-lo eight"
        " or better")] = "holdem"
    name: Annotated[str | msgspec.UnsetType, doc(
        'the name to show; cleaned (letters, digits, spaces, `. \' -`, 16 at most); none: "Hero"'
        ' / "Héroe"')] = msgspec.UNSET
    buy_in: Annotated[int | msgspec.UnsetType, doc(
        "chips to bring, kept between the table's minimum and maximum and the bankroll; "
        "default: the maximum")] = msgspec.UNSET
    lang: Annotated[Literal["en", "es"], doc(
        'the language of the default name (default `"en"`)')] = "en"


class Act(_Message, tag="act"):
    """Answer the decision numbered ``seq``."""

    seq: Annotated[int, doc("the decision's number: the state's `seq`")]
    action: Annotated[Literal["fold", "check", "call", "bet", "raise"], doc("what to do")]
    amount: Annotated[int | msgspec.UnsetType, doc(
        "for a bet or a raise: the street total it makes (between `legal.min_to` and "
        "`legal.max_to`)")] = msgspec.UNSET


class Pre(_Message, tag="pre"):
    """Choose (or clear, with null) what to do when the turn comes."""

    value: Annotated[Literal["check_fold", "call_any"] | None, doc(
        "check (or fold to a bet); check or call any bet; null clears it")]


class AddChips(_Message, tag="add_chips"):
    """Bring chips from the bankroll to the table."""

    amount: Annotated[int, doc(
        "chips to add, more than 0 (at most the bankroll and up to the table's maximum)")]


class SitOut(_Message, tag="sit_out"):
    """Sit out from the next hand."""


class SitIn(_Message, tag="sit_in"):
    """Come back; ``post``: post the missed blinds now rather than wait for the big blind."""

    post: Annotated[bool, doc(
        "post the missed blinds now and be dealt in at the next hand; default `false`: wait for"
        " the big blind")] = False


class Leave(_Message, tag="leave"):
    """Leave the table (after the hand); the chips go back to the bankroll."""


class Next(_Message, tag="next"):
    """Deal the next hand now (skip the pause after a result)."""


class Coach(_Message, tag="coach"):
    """Switch the coach's advice on or off."""

    on: Annotated[bool, doc("on or off")]


class Reset(_Message, tag="reset"):
    """Reset the bankroll to the starting amount (in the lobby)."""


class Ping(_Message, tag="ping"):
    """Ask for a ``pong``."""


class TakeSeat(_Message, tag="take_seat"):
    """At a room table: sit down, buying in for ``buy_in`` chips (within the table's range,
    from the bankroll), under ``name`` (unique at the table), in seat ``seat_number`` (0-based;
    the first free seat when absent)."""

    buy_in: Annotated[int, doc(
        "chips to bring from the bankroll, within the table's `min_buy_in`..`max_buy_in`")]
    name: Annotated[str, doc(
        "the name to show, 1 to 20 characters as a reader counts them (grapheme clusters: a "
        "letter with its accents is one), unique at the table; compatibility forms folded "
        "(NFKC) and runs of spaces made one; a control or invisible formatting character "
        "(Unicode's categories C*: NUL, BEL, the bidirectional overrides...) is refused. The "
        "practice table's `name`, a tournament's and its players' follow the same rule")]
    seat_number: Annotated[int | msgspec.UnsetType, doc(
        "the chair to take (0-based); absent: the first free one")] = msgspec.UNSET


class HostAction(_Message, tag="host"):
    """At a host's table, from its host: ``action`` with what it needs. ``request``: a seat
    or rebuy request, by its record's seq (approve, deny); ``seat_number``: the player it is
    about (stack, kick, mute, host: hand the role over); ``on``: auto_approve, mute;
    ``now``: pause now, the clock stopped (else after the hand); ``chips``: the stack to
    set; ``changes``: settings from the next hand; ``allowed`` and ``chat``: spectators."""

    action: Annotated[Literal["approve", "deny", "auto_approve", "pause", "resume", "settings",
                              "stack", "kick", "mute", "spectators", "host", "end"], doc(
        "`approve` or `deny` a `request`; `auto_approve` (`on`); `pause` (`now`: at once, the "
        "clock stopped; else after the hand in play); `resume`; `settings` (`changes`, from the"
        " next hand); `stack` (set `seat_number`'s stack to `chips` from the next hand: what it"
        " adds comes from that player's bankroll, what it removes goes back, and a stack the "
        "bankroll cannot cover is refused, `no_chips`); `kick` (`seat_number`: folded at its "
        "turn, gone at the hand's end, not let back); `mute` (`seat_number`, `on`); "
        "`spectators` (`allowed`, `chat`: their own chat); `host` (hand the role to "
        "`seat_number`); `end` (the hand in play is the last: then every seat cashes out)")]
    request: Annotated[int | msgspec.UnsetType, doc(
        "a request's number (`SeatRequest.request`)")] = msgspec.UNSET
    seat_number: Annotated[int | msgspec.UnsetType, doc(
        "the seat the action is about")] = msgspec.UNSET
    on: Annotated[bool | msgspec.UnsetType, doc("for `auto_approve` and `mute`")] = msgspec.UNSET
    now: Annotated[bool | msgspec.UnsetType, doc("for `pause`")] = msgspec.UNSET
    chips: Annotated[int | msgspec.UnsetType, doc("for `stack`")] = msgspec.UNSET
    changes: Annotated[dict[str, int | bool | str] | msgspec.UnsetType, doc(
        "for `settings`: any of `game`, `variant`, `small_blind`, `big_blind`, `min_buy_in`, "
        "`max_buy_in`, `act_ms`, `straddle`, `restraddle`, `bomb_every`, `bomb_ante`, "
        "`bomb_vote`, `double_board`, `bounty_72`, `run_it` (as in `RoomConfig`)")] = msgspec.UNSET
    allowed: Annotated[bool | msgspec.UnsetType, doc("for `spectators`: may watch")] = msgspec.UNSET
    chat: Annotated[bool | msgspec.UnsetType, doc(
        "for `spectators`: may chat among themselves")] = msgspec.UNSET


class Chat(_Message, tag="chat"):
    """Say ``text`` at the table (a spectator: to the spectators); plain text."""

    text: Annotated[str, doc("the message")]


class Vote(_Message, tag="vote"):
    """Answer the vote opened by record ``vote`` (run it more than once, a bomb pot)."""

    vote: Annotated[int, doc("the vote's number (`OpenVote.vote`)")]
    yes: Annotated[bool, doc("agree or not")]


class Propose(_Message, tag="propose"):
    """Ask the table to vote for a bomb pot next hand."""

    kind: Annotated[Literal["bomb"], doc("what is voted on")]


class Straddle(_Message, tag="straddle"):
    """Straddle (or stop straddling) whenever the seat after the big blind is yours."""

    on: Annotated[bool, doc("straddle from now on, or stop")]


class Sng(_Message, tag="sng"):
    """Start a practice sit-and-go (in the lobby): the person and 5 or 8 bots."""

    seats: Annotated[Literal[6, 9], doc("the table's seats (default 6)")] = 6
    speed: Annotated[Literal["regular", "turbo"], doc(
        "10 or 5 hands a level (default regular)")] = "regular"
    buy_in: Annotated[int, doc("1 to 100,000 chips of the bankroll (default 100)")] = 100
    name: Annotated[str | msgspec.UnsetType, doc(
        "the name to show, cleaned as for `Sit`")] = msgspec.UNSET
    lang: Annotated[Literal["en", "es"], doc("the language of the default name")] = "en"


class Deal(_Message, tag="deal"):
    """Propose a deal at a sit-and-go (three players left or fewer)."""

    kind: Annotated[Literal["icm", "chop"], doc(
        "an ICM deal, or a chip chop (the smallest prize left to each, the rest by chips)")]


class DealAnswer(_Message, tag="deal_answer"):
    """Accept or refuse the deal proposed."""

    yes: Annotated[bool, doc("accept the deal")]


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
    if get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if get_origin(tp) is Literal:
        return tuple(str(a) for a in get_args(tp))
    for arg in get_args(tp):
        if get_origin(arg) is Literal:
            return tuple(str(a) for a in get_args(arg))
    return ()


# ============================================================================ what the server sends
# The models below describe what the server sends, field by field (its meaning in ``doc``);
# the server sends instances of them (``encode``, ``error``, ``record``... at the end), and the
# tests decode every message a session sends into them (an unknown field, a missing one or a
# wrong type fails). ``docs/protocol.md``'s tables and the pages' JSON Schema are generated
# from them (:mod:`tapete.server.protocol_docs`).

class _Out(msgspec.Struct, forbid_unknown_fields=True):
    """A part of a message from the server."""


class Words(_Out):
    """A sentence in both languages."""

    en: Annotated[str, doc("English")]
    es: Annotated[str, doc("Spanish")]


class Me(_Out):
    bankroll: Annotated[int, doc("chips off the table")]
    at_table: Annotated[int, doc(
        "chips at the table (the stack as the board is shown, plus chips waiting for the hand's"
        " end)")]
    in_pot: Annotated[int, doc("chips your stack has put in this hand's pot")]
    total: Annotated[int, doc("`bankroll + at_table + in_pot`")]
    starting: Annotated[int, doc("the bankroll a reset gives")]
    version: Annotated[int, doc(
        "the number of stored changes of this money (a later state has a higher one)")]


class LobbyOptions(_Out):
    structures: Annotated[list[str], doc("the structures a `sit` may choose (`nl`, `pl`, `fl`)")]
    variants: Annotated[list[str], doc(
        "the variants a `sit` may choose (`holdem`, `omaha`, `omaha-hi-lo`)")]
    blinds: Annotated[list[list[int]], doc(
        "the blinds a `sit` chooses by index (each `[small, big]`)")]
    min_buy_in_bb: Annotated[int, doc("the smallest buy-in, in big blinds")]
    max_buy_in_bb: Annotated[int, doc("the largest buy-in, in big blinds")]


class MoneyFormat(_Out):
    group: Annotated[str, doc("the thousands separator")]
    decimal: Annotated[str, doc("the decimal point")]
    minus: Annotated[str, doc("the minus sign")]
    decimals: Annotated[int, doc("digits after the point")]
    before: Annotated[str, doc("the currency symbol before the digits")]
    after: Annotated[str, doc("the currency symbol after the digits")]
    percent_before: Annotated[str, doc(
        "what a share writes before its digits (nothing, in English and Spanish)")]
    percent_after: Annotated[str, doc(
        "what a share writes after its digits: `%` in English, a no-break space and `%` in "
        "Spanish")]


class Money(_Out):
    en: Annotated[MoneyFormat, doc("in English")]
    es: Annotated[MoneyFormat, doc("in Spanish")]


class TableRules(_Out):
    structure: Annotated[str, doc("`no-limit`, `pot-limit` or `fixed-limit`")]
    variant: Annotated[Literal["holdem", "omaha", "omaha-hi-lo"], doc("the game dealt")]
    hole_cards: Annotated[int, doc(
        "the cards each player is dealt face down (2 in hold'em, 4 in Omaha)")]
    small_blind: Annotated[int, doc("the small blind")]
    big_blind: Annotated[int, doc("the big blind")]
    small_bet: Annotated[int, doc(
        "fixed limit: the bet on the first two streets (0: the big blind)")]
    big_bet: Annotated[int, doc("fixed limit: the bet on the last two (0: twice the small bet)")]
    ante: Annotated[int, doc("each player's ante")]
    decimals: Annotated[int, doc("decimal digits of the smallest unit")]
    currency: Annotated[str, doc("the currency symbol, or empty for chips")]
    key: Annotated[str, doc("the structure as the lobby names it (`nl`, `pl`, `fl`)")]
    blinds: Annotated[int, doc("the lobby's index of these blinds")]


class Seat(_Out):
    seat: Annotated[int, doc("the chair, 0 to 5 (0 is yours)")]
    name: Annotated[str, doc("who sits there")]
    bot: Annotated[bool, doc("a bot")]
    style: Annotated[str | None, doc("a bot's style (`tag`, `lag`, `nit`, ...)")]
    chips: Annotated[int, doc("chips at the table between hands")]
    sitting_out: Annotated[bool, doc("sits out")]
    leaving: Annotated[bool, doc("leaves after this hand")]
    you: Annotated[bool, doc("your seat")]


class LastAction(_Out):
    action: Annotated[str, doc("`fold`, `check`, `call`, `bet` or `raise`")]
    amount: Annotated[int, doc(
        "a call: the chips it added; a bet or a raise: the street total it made")]
    all_in: Annotated[bool, doc("it put the player all-in")]


class PlayerView(_Out):
    name: Annotated[str, doc("the player's name")]
    seat: Annotated[int, doc("the chair")]
    stack: Annotated[int, doc("chips behind")]
    bet: Annotated[int, doc("chips in front on this street")]
    total: Annotated[int, doc("chips put in this hand")]
    folded: Annotated[bool, doc("folded")]
    all_in: Annotated[bool, doc("all-in")]
    cards: Annotated[list[str] | None, doc(
        'the hole cards, when you may see them (cards as `"As"`, `"Td"`)')]
    has_cards: Annotated[bool, doc("holds cards (dealt, not folded, not mucked)")]
    last_action: Annotated[LastAction | None, doc(
        "the last action on this street, for the seat's tag (null: none yet); the ended hand's "
        "too, on its last street")]


class PotView(_Out):
    amount: Annotated[int, doc("chips in the pot")]
    eligible: Annotated[list[int], doc("the players who may win it")]


class LegalOptions(_Out):
    fold: Annotated[bool, doc("folding is possible (there is a bet to face)")]
    check: Annotated[bool, doc("checking is possible")]
    call: Annotated[int, doc("the chips a call adds (0 when checking is possible)")]
    call_to: Annotated[int, doc("the street total after calling")]
    call_all_in: Annotated[bool, doc('calling takes every chip left: "Call 80 (all-in)"')]
    min_to: Annotated[int | None, doc(
        "the smallest bet or raise, as a street total (null: no bet or raise possible)")]
    max_to: Annotated[int | None, doc("the largest")]
    is_bet: Annotated[bool, doc("a bet (nobody has bet this street) rather than a raise")]
    min_reason: Annotated[Words, doc("why `min_to` is what it is (or why no raise is possible)")]
    max_reason: Annotated[Words, doc("why `max_to` is what it is")]
    pot_after_call: Annotated[int, doc(
        "the pot once you have called: every chip put in plus `call` (the engine's figure; a "
        "pot-limit raise adds at most this, and the page's pot-fraction sizes are fractions of "
        "it)")]
    fixed_limit: Annotated[bool, doc(
        "the table plays fixed limit: a bet or raise is one amount (`min_to` = `max_to`), no "
        "sizing")]


class PotResult(_Out):
    amount: Annotated[int, doc("the pot, after rake")]
    eligible: Annotated[list[int], doc("the players who could win it")]
    winners: Annotated[list[int], doc("who won it")]
    shares: Annotated[list[list[int]], doc("what each winner took (each `[player, chips]`)")]
    rake: Annotated[int, doc("the rake taken from it")]


class HandView(_Out):
    hand_id: Annotated[str, doc("the hand's id")]
    phase: Annotated[str, doc(
        "`deal`, `betting`, `showdown`, `done` or `runout` (an all-in board shown street by "
        "street)")]
    street: Annotated[int, doc("0 preflop, 1 flop, 2 turn, 3 river")]
    button: Annotated[int, doc("the player on the button")]
    players: Annotated[list[PlayerView], doc("the players dealt in")]
    boards: Annotated[list[list[str]], doc(
        'the board (several when it is run more than once); cards as `"As"`, `"Td"`')]
    pot: Annotated[int, doc("every chip put in")]
    pots: Annotated[list[PotView], doc("the main pot and the side pots")]
    actor: Annotated[int | None, doc("the player to act")]
    you: Annotated[int | None, doc("your player number (null: you are not in this hand)")]
    legal: Annotated[LegalOptions | None, doc(
        "your options; only while the decision is yours")] = None
    results: Annotated[list[PotResult] | None, doc("a finished hand: each pot's result")] = None
    returned: Annotated[list[int] | None, doc(
        "a finished hand: chips given back to each player (uncalled)")] = None
    net: Annotated[list[int] | None, doc("a finished hand: each player's result")] = None


class Decision(_Out):
    seq: Annotated[int, doc("the decision's number")]
    action_time: Annotated[float, doc("seconds for each decision")]
    time_left: Annotated[float, doc("seconds left before the time bank")]
    bank: Annotated[float, doc("seconds of time bank left")]
    summary: Annotated[Words | None, doc("the legal options in one line")] = None


class RangeRead(_Out):
    name: Annotated[str, doc("the opponent")]
    words: Annotated[Words, doc("their likely range, in words")]


class Advice(_Out):
    equity: Annotated[float | None, doc("your share of the pot at showdown, in percent")] = None
    opponents: Annotated[int | None, doc("opponents still in")] = None
    against: Annotated[Words | None, doc(
        "what the equity is against (their likely ranges, or random hands)")] = None
    ranges: Annotated[list[RangeRead] | None, doc("each opponent's likely range, when read")] = None
    call: Annotated[int | None, doc("facing a bet: the chips a call adds")] = None
    pot_odds: Annotated[float | None, doc("the equity a call needs, in percent")] = None
    verdict: Annotated[Words | None, doc("the price and whether it is right")] = None


class PotLine(_Out, tag_field="kind", tag="pot"):
    index: Annotated[int, doc("0 the main pot, then the side pots")]
    amount: Annotated[int, doc("the pot, after rake")]
    rake: Annotated[int, doc("the rake taken from it")]
    eligible: Annotated[list[str], doc("who could win it (by name)")]
    winners: Annotated[list[str], doc("who won it (by name)")]
    shares: Annotated[list[tuple[str, int]], doc("what each winner took (each `[name, chips]`)")]
    text: Annotated[Words, doc('the line ("Ana wins the main pot, 300, with a pair of sevens")')]


class ReturnedLine(_Out, tag_field="kind", tag="returned"):
    amount: Annotated[int, doc("the chips given back")]
    player: Annotated[str, doc("to whom")]
    text: Annotated[Words, doc('the line ("Carla takes back 200 (uncalled)")')]


class ShownHand(_Out):
    player: Annotated[int, doc("the player")]
    seat: Annotated[int, doc("the chair")]
    name: Annotated[str, doc("the name")]
    cards: Annotated[list[str], doc('the cards shown (cards as `"As"`)')]
    best: Annotated[Words | None, doc('the hand they make ("a pair of fives, ace kicker")')] = None


class Explanation(_Out):
    seat: Annotated[int, doc("the bot's chair")]
    player: Annotated[int, doc("the bot's player number")]
    name: Annotated[str, doc("its name")]
    street: Annotated[int, doc("the street it acted on")]
    action: Annotated[Words | None, doc("what it did")]
    why: Annotated[Words, doc("why (hidden for a hand that was not shown)")]
    hidden: Annotated[bool, doc("the reason is hidden: the hand was not shown")] = False


class Result(_Out):
    hand_id: Annotated[str, doc("the hand's id")]
    number: Annotated[int, doc("its number in this session")]
    played: Annotated[bool, doc("you were dealt in (false: you watched while sitting out)")]
    pots: Annotated[list[PotLine | ReturnedLine], doc("one line per pot, then one per return")]
    breakdown: Annotated[Words, doc("the whole result in one text")]
    shown: Annotated[list[ShownHand], doc("the hands shown at showdown")]
    board: Annotated[list[str], doc('the board (cards as `"As"`)')]
    net: Annotated[int, doc("your result")]
    explanations: Annotated[list[Explanation], doc(
        "the bots' reasons (only while the coach is on)")]
    log: Annotated[list[Words], doc("the hand's story, one line per event")]


class HandSummary(_Out):
    hand_id: Annotated[str, doc("the hand's id (`/replay/{hand_id}`, `/api/hands/{hand_id}.phh`)")]
    number: Annotated[int, doc("its number in its session")]
    net: Annotated[int, doc("your result")]
    cards: Annotated[str, doc('your cards, `"As Kd"`')]
    board: Annotated[str, doc('the board, `"2c 7h 9s"`')]
    pot: Annotated[int, doc("the chips won, all pots")]
    breakdown: Annotated[Words, doc("the result in one text")]
    played_at: Annotated[float, doc("when, in seconds since 1970 (UTC)")]
    structure: Annotated[str, doc("`nl`, `pl` or `fl`")]
    blinds: Annotated[list[int], doc("the blinds (`[small, big]`)")]


class LobbyState(_Out):
    """``state`` in the lobby (``lobby: true``)."""

    type: Annotated[Literal["state"], doc("")]
    lobby: Annotated[Literal[True], doc("the player is not at a table")]
    me: Annotated[Me, doc("the player's money")]
    options: Annotated[LobbyOptions, doc("what a `sit` may choose")]
    notice: Annotated[Words | None, doc(
        "something to tell the player (why the last table closed...)")]
    money: Annotated[Money, doc("how the lobby writes amounts (whole chips), per language")]


class RoomConfig(_Out):
    """A room table's settings (``tapete.room.log.TableConfig``): times in milliseconds,
    amounts in chips."""

    game: Annotated[Literal["nl", "pl", "fl"], doc("no limit, pot limit, fixed limit")]
    variant: Annotated[Literal["holdem", "omaha", "omaha-hi-lo"], doc(
        "the game dealt (hold'em, Omaha, Omaha hi-lo eight or better)")]
    small_blind: Annotated[int, doc("the small blind")]
    big_blind: Annotated[int, doc("the big blind")]
    min_buy_in: Annotated[int, doc("the smallest buy-in")]
    max_buy_in: Annotated[int, doc("the largest buy-in, and the most chips a seat may add up to")]
    seats: Annotated[int, doc("chairs, 2 to 9")]
    act_ms: Annotated[int, doc("time to act, before the time bank runs")]
    bank_ms: Annotated[int, doc(
        "each time bank at the start: one for preflop, one for the later streets")]
    bank_add_ms: Annotated[int, doc("added to both banks every `bank_every` hands dealt")]
    bank_every: Annotated[int, doc("hands between two additions")]
    bank_max_ms: Annotated[int, doc("the most a bank holds")]
    grace_base_ms: Annotated[int, doc(
        "disconnect protection: extra time for a player to act who has no connection")]
    grace_per_bb_ms: Annotated[int, doc("... plus this for each big blind in the pot")]
    grace_max_ms: Annotated[int, doc("... at most this")]
    bots: Annotated[bool, doc("bots fill empty seats (one is always left free for a person)")]
    public: Annotated[bool, doc("listed in the lobby")]
    spectators: Annotated[bool, doc("people without a seat may watch")]
    on_crash: Annotated[Literal["resume", "void"], doc(
        "after a crash, the hand in play goes on (the default) or is called off")]
    fair: Annotated[bool, doc(
        "provably fair dealing: each hand's commitment before its first card, its deck and "
        "secret revealed when it ends (so a folded hand can be worked out then)")]
    auto_approve: Annotated[bool, doc("at a host's table: seats and rebuys need no approval")]
    chat: Annotated[bool, doc("chat at the table")]
    spectator_chat: Annotated[bool, doc("spectators chat among themselves")]
    straddle: Annotated[bool, doc("players may straddle (`straddle`)")]
    restraddle: Annotated[bool, doc("... and re-straddle")]
    bomb_every: Annotated[int, doc("a bomb pot every this many hands (0: never)")]
    bomb_ante: Annotated[int, doc("a bomb pot's ante, posted by everyone (no preflop betting)")]
    bomb_vote: Annotated[bool, doc("bomb pots by vote (`propose`)")]
    double_board: Annotated[bool, doc(
        "bomb pots are dealt two boards, each winning half of every pot")]
    bounty_72: Annotated[int, doc(
        "the 7-2 bounty: who wins a pot with seven-deuce shown collects this from every other "
        "player dealt in (0: none)")]
    run_it: Annotated[int, doc(
        "all in with cards to come, the board runs up to this many times when everyone in the "
        "hand agrees (1: once)")]
    tournament: Annotated[str, doc(
        "a tournament's table: the tournament's id (empty at a cash table); its seats, blinds "
        "and hands are the tournament's")] = ""


class ChatLine(_Out):
    """A line of the table's chat: a message (``kind`` "chat": its writer's ``name``, None
    for a spectator, and ``text``, plain text) or what the host did or the players voted
    (``words``)."""

    seq: Annotated[int, doc("its record's number")]
    kind: Annotated[Literal["chat", "host", "vote", "decided"], doc(
        "a message; a host action; a vote opened; a vote's result")]
    name: Annotated[str | None, doc("a message's writer (null: a spectator)")]
    text: Annotated[str | None, doc("a message's text: plain text, to be shown as text")]
    spectator: Annotated[bool, doc("a spectator's message")]
    words: Annotated[Words | None, doc("what the host did or the table voted, in both languages")]


class SeatRequest(_Out):
    """A seat (``kind`` "seat") or chips ("chips") asked for, waiting for the host."""

    request: Annotated[int, doc("its number (the host's `approve` and `deny` quote it)")]
    kind: Annotated[Literal["seat", "chips"], doc("a seat, or chips added")]
    name: Annotated[str, doc("who asks")]
    chips: Annotated[int, doc("the buy-in or the chips asked for")]
    seat_number: Annotated[int | None, doc(
        "the seat asked for (a seat) or held (chips); null: any free seat")]


class OpenVote(_Out):
    """A vote open: to run the board ``runs`` times (everyone in the hand must agree), or
    a bomb pot next hand (more than half of the players seated); the seats asked, those who
    said yes and no, whether the viewer is to answer, the seconds left."""

    vote: Annotated[int, doc("its number (`vote` quotes it)")]
    kind: Annotated[Literal["runs", "bomb"], doc(
        "all in with cards to come: run the board `runs` times (everyone in the hand must "
        "agree, else it runs once); a bomb pot next hand (more than half of the players seated)")]
    runs: Annotated[int | None, doc("the runs asked for")]
    seats: Annotated[list[int], doc("the seats asked")]
    yes: Annotated[list[int], doc("the seats that agreed")]
    no: Annotated[list[int], doc("the seats that did not")]
    mine: Annotated[bool, doc("you are asked and have not answered")]
    seconds_left: Annotated[float, doc(
        "until the vote closes (whoever has not answered, did not agree)")]


class HomeInfo(_Out):
    """A host's table and the home-game options: whether the table has a host and the viewer
    is it, the host's seat, the pause (``next``: after this hand; ``now``: the clock
    stopped), the game ended, auto-approve, the requests waiting (all of them for the host,
    the viewer's own for anyone else), whether the viewer is muted and the seats muted, the
    settings changing from the next hand, whether the viewer straddles, a bomb pot voted for
    next hand, the votes open."""

    hosted: Annotated[bool, doc("the table has a host")]
    host: Annotated[bool, doc("you are the host")]
    host_seat: Annotated[int | None, doc("the host's seat (null: not seated)")]
    paused: Annotated[Literal["next", "now"] | None, doc(
        "paused after the hand in play; paused now, the clock stopped; not paused")]
    over: Annotated[bool, doc("the host ended the game")]
    auto_approve: Annotated[bool, doc("seats and rebuys need no approval")]
    requests: Annotated[list[SeatRequest], doc(
        "waiting for the host: all of them for the host, your own for anyone else")]
    muted: Annotated[bool, doc("the host has muted you")]
    muted_seats: Annotated[list[int], doc("the seats muted")]
    next: Annotated[dict[str, int | bool | str], doc(
        "the settings changing from the next hand (as in `HostAction.changes`)")]
    straddling: Annotated[bool, doc("you straddle when your seat comes after the big blind")]
    bomb_next: Annotated[bool, doc("the table voted a bomb pot for the next hand")]
    votes: Annotated[list[OpenVote], doc("the votes open")]


class FairDeal(_Out):
    """A hand's fair deal, revealed once the hand is over (docs/fairness.md): the
    commitment published before its first card, the deck in dealing order (104 characters,
    ``"AhKd2c..."``) and the secret (64 hex digits)."""

    commitment: Annotated[str, doc("the SHA-256 published before the hand's first card")]
    deck: Annotated[str, doc('the deck in dealing order, 104 characters (`"AhKd2c..."`)')]
    secret: Annotated[str, doc("the hand's secret, 64 hex digits")]


class RoomInfo(_Out):
    """At a room table: which table, its last record's ``seq``, its settings, whether the
    viewer has a seat, the hands dealt, the spectators watching, the server's time; at a
    table with fair dealing, the hand in play's ``commitment`` (SHA-256, hex) and the last
    hand's deal, ``revealed``."""

    table: Annotated[str, doc("the table's id (its link is `/t/{table}`)")]
    seq: Annotated[int, doc("the number of the table's last record")]
    config: Annotated[RoomConfig, doc("the table's settings")]
    seated: Annotated[bool, doc("you have a seat (false: you watch)")]
    hand_no: Annotated[int, doc("hands dealt at this table")]
    spectators: Annotated[int, doc("people watching without a seat")]
    commitment: Annotated[str | None, doc(
        "at a table with `fair` dealing, the hand in play's commitment (SHA-256 of its deck and"
        " a secret, lowercase hex), published before its first card; null between hands")]
    revealed: Annotated[FairDeal | None, doc("the last hand's fair deal, revealed once it ended")]
    at: Annotated[int, doc("the server's time, seconds since 1970 (UTC)")]
    chat: Annotated[list[ChatLine], doc(
        "the table's last 60 chat messages, host actions and votes, oldest first (the seated "
        "are not shown the spectators' chat)")]
    home: Annotated[HomeInfo, doc("the host and the home-game options, as you see them")]


class SeatEquity(_Out):
    """One player's share of a tournament's prize pool by ICM, in whole chips of the pool."""

    seat: Annotated[int | None, doc("the player's seat")]
    name: Annotated[str, doc("the player")]
    chips: Annotated[int, doc("their stack")]
    equity: Annotated[int, doc(
        "their ICM equity of the prizes still to be won, whole chips (the shares add up to "
        "them: the whole pool while every paid place is still to be decided)")]


class DealAmount(_Out):
    name: Annotated[str, doc("the player")]
    amount: Annotated[int, doc("what the deal pays them")]
    answer: Annotated[bool | None, doc("their answer; null: not yet")]


class DealInfo(_Out):
    """A deal proposed at a tournament: each player's amount and answer (None: not yet)."""

    kind: Annotated[Literal["icm", "chop"], doc("the deal proposed")]
    open: Annotated[bool, doc("still waiting for the person's answer")]
    amounts: Annotated[list[DealAmount], doc("each player's amount and answer")]
    yours: Annotated[int, doc("the person's amount")]


class Placing(_Out):
    place: Annotated[int, doc("the finishing place, from 1")]
    name: Annotated[str, doc("the player")]
    prize: Annotated[int, doc("what they won")]


class TournamentInfo(_Out):
    """At a tournament's table: the tournament as the person sees it."""

    id: Annotated[str, doc("the tournament's id (a sit-and-go's is its table's)")]
    name: Annotated[Words, doc("its name")]
    kind: Annotated[Literal["sng", "mtt"], doc("a sit-and-go or a multi-table tournament")]
    level: Annotated[int, doc("the level of the hand in play (or next), from 1")]
    small_blind: Annotated[int, doc("that level's small blind")]
    big_blind: Annotated[int, doc("its big blind")]
    ante: Annotated[int, doc("its ante (a big-blind ante)")]
    next_small_blind: Annotated[int, doc("the next level's small blind")]
    next_big_blind: Annotated[int, doc("the next level's big blind")]
    next_ante: Annotated[int, doc("the next level's ante")]
    hands_to_next_level: Annotated[int, doc("hands at this table before the next level")]
    entrants: Annotated[int, doc("players who started")]
    players_left: Annotated[int, doc("players still in")]
    prize_pool: Annotated[int, doc("every buy-in")]
    prizes: Annotated[list[int], doc(
        "each paid place's prize, first place first, adding up to the pool")]
    equities: Annotated[list[SeatEquity], doc(
        "each player left's ICM share of the prizes (with 10 players left or fewer; before, "
        "empty)")]
    deal: Annotated[DealInfo | None, doc("the deal proposed, open or decided")]
    place: Annotated[int | None, doc(
        "the person's finishing place once out (or at the end), else null")]
    prize: Annotated[int | None, doc("the person's prize once the tournament is over")]
    finished: Annotated[bool, doc("the tournament is over")]
    results: Annotated[list[Placing], doc("when finished: every place, its player and prize")]
    hand_for_hand: Annotated[bool, doc("hand-for-hand play on the bubble")]
    table_number: Annotated[int, doc("this table's number")]
    tables: Annotated[int, doc("tables in play")]
    deal_allowed: Annotated[bool, doc(
        "you may propose a deal now: a sit-and-go with two or three players left, all of them "
        'in the money, none on offer (docs/rules.md, "Deals"); always false at a room '
        "tournament")]


class TableState(_Out):
    """``state`` at a table (``lobby: false``): the whole table as this seat sees it."""

    type: Annotated[Literal["state"], doc("")]
    lobby: Annotated[Literal[False], doc("the player is at a table")]
    seq: Annotated[int | None, doc(
        "the number of the decision you are asked for (send it back in `act`); null when none")]
    rules: Annotated[TableRules, doc("the table's game")]
    seats: Annotated[list[Seat | None], doc("the six chairs, in order (null: empty)")]
    button_seat: Annotated[int | None, doc("the seat with the dealer button")]
    sb_seat: Annotated[int | None, doc("the seat that posts the small blind")]
    bb_seat: Annotated[int | None, doc("the seat that posts the big blind")]
    hand: Annotated[HandView | None, doc(
        "the hand being played, or the last one; null before the first")]
    live: Annotated[bool, doc("`hand` is being played (false: it is over)")]
    log: Annotated[list[Words] | None, doc(
        "the hand's story so far, one line per event (null: no hand)")]
    decision: Annotated[Decision | None, doc(
        "your turn: the timer (null when it is not your turn)")]
    pre_action: Annotated[Literal["check_fold", "call_any"] | None, doc("the pre-action chosen")]
    coach_on: Annotated[bool, doc("the coach is on")]
    coach: Annotated[Advice | None, doc("the coach's advice for this decision, once worked out")]
    last_result: Annotated[Result | None, doc("the last hand's result")]
    sitting_out: Annotated[bool, doc("you sit out (or will after this hand)")]
    owes_blinds: Annotated[bool, doc("you missed blinds while sitting out")]
    waiting_for_big_blind: Annotated[bool, doc("you come back at the big blind")]
    sat_out_reason: Annotated[Words | None, doc(
        "why the table sat you out (you let the timer run out)")]
    waiting: Annotated[bool, doc("no hand can be dealt now (you have no chips, or nobody to play)")]
    leaving: Annotated[bool, doc("you leave after this hand")]
    time_bank: Annotated[float, doc("seconds of time bank left")]
    notice: Annotated[Words | None, doc("something to tell the player")]
    money: Annotated[Money, doc("how this table writes amounts, per language")]
    me: Annotated[Me, doc("the player's money")]
    room: Annotated[RoomInfo | None, doc(
        "at a room table only: the table and where you stand")] = None
    tournament: Annotated[TournamentInfo | None, doc(
        "at a tournament's table only (a sit-and-go)")] = None


class RoomRecord(_Out):
    """At a room table, with ``?records=1``: one record of the table's log as this viewer
    may see it (another seat's hole cards hidden, never the deck or a player's id), numbered
    gap-free by ``seq``."""

    type: Annotated[Literal["record"], doc("")]
    table: Annotated[str, doc("the table's id")]
    seq: Annotated[int, doc("the record's number: 1, 2, 3... with no gap")]
    kind: Annotated[str, doc(
        "`sat`, `chips`, `sit_out`, `sit_in`, `leave`, `left`, `refund`, `start`, `event`, "
        "`turn`, `end`, `void`, `closed` (the table closed for good after a fault); at a host's"
        " table `host` (its `action` and details, `by_you`), `request`, `stack` (a stack the "
        "host set: `delta` chips from or to the bankroll); and `chat` (a spectator's, to a "
        "seated viewer: `hidden`), `straddle`, `propose`, `vote`, `voted`, `decided` (with "
        "`closed: true`: the vote closed undecided, its hand called off or the table closed)")]
    data: Annotated[dict[str, Any], doc(
        "the record as you may see it: `start` gives the hand's `setup`, `you` (your player "
        "number, or null) and, with fair dealing, its `commitment`, before any card is dealt; "
        "`end` reveals the hand's fair deal (`commitment`, `deck`, `secret`, as in `FairDeal`);"
        " `event` a hand event (`tapete.core.events` JSON; another seat's `HoleDealt` has "
        "`cards: null`); `turn` the `seat` to act (its `seq` is the decision number `act` "
        "quotes); a record about a player says `yours` instead of naming them")]


class TableSummary(_Out):
    """A public room table as ``GET /api/room/tables`` lists it."""

    table: Annotated[str, doc("the table's id")]
    game: Annotated[Literal["nl", "pl", "fl"], doc("the game")]
    variant: Annotated[Literal["holdem", "omaha", "omaha-hi-lo"], doc("the game dealt")]
    small_blind: Annotated[int, doc("the small blind")]
    big_blind: Annotated[int, doc("the big blind")]
    min_buy_in: Annotated[int, doc("the smallest buy-in")]
    max_buy_in: Annotated[int, doc("the largest buy-in")]
    seats: Annotated[int, doc("chairs")]
    taken: Annotated[int, doc("chairs taken")]
    spectators: Annotated[int, doc("people watching")]
    hands: Annotated[int, doc("hands dealt")]
    average_pot: Annotated[int, doc("the average pot of the last 50 hands")]
    hands_per_hour: Annotated[int, doc("over the last 50 hands")]
    public: Annotated[bool, doc("listed (always true here)")]
    bots: Annotated[bool, doc("bots fill seats")]


class Hands(_Out):
    type: Annotated[Literal["hands"], doc("")]
    reset: Annotated[bool, doc(
        "true: the whole list (a tab connected); false: new hands to put first")]
    hands: Annotated[list[HandSummary], doc("newest first (50 at most)")]


class Error(_Out):
    type: Annotated[Literal["error"], doc("")]
    code: Annotated[str, doc(
        "for programs: `malformed`, `forged`, `stale`, `illegal`, `not_seated`, `seated`, "
        "`no_bankroll`, `no_chips`, `no_seat`, `rate_limited`, `binary`, `too_many_tabs`, "
        "`no_identity`, `internal`; at a room table also `refused`, `unavailable` (the database"
        " did not answer: send it again), `closed` (below)")]
    message: Annotated[Words, doc("for people")]
    seq: Annotated[int | None, doc("the decision number at the time (null when none)")] = None
    url: Annotated[str | None | msgspec.UnsetType, doc(
        "`moved` only: where the table is now (connect there), or null when no node has it"
        " yet")] = msgspec.UNSET


class Pong(_Out):
    type: Annotated[Literal["pong"], doc("")]


class Moved(_Out):
    """At a tournament's table: the person was moved to another table (the page follows)."""

    type: Annotated[Literal["moved"], doc("")]
    table: Annotated[str, doc("the new table's id (`/t/{table}`)")]


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


# ============================================================================ sending
# The server sends instances of the models above, each encoded once (for every viewer that
# sees it alike), never a dict built by hand.
_encoder = msgspec.json.Encoder()


def encode(message: _Out) -> str:
    """A message as the text of its frame."""
    return _encoder.encode(message).decode()


def words(text: Text) -> Words:
    """A sentence as the messages carry it, in both languages."""
    return Words(text.en, text.es)


def error(code: str, message: Text, seq: int | None = None,
          url: str | None | msgspec.UnsetType = msgspec.UNSET) -> str:
    """An :class:`Error`, encoded: ``code`` for programs, ``message`` for people."""
    return encode(Error(type="error", code=code, message=words(message), seq=seq, url=url))


PONG = encode(Pong(type="pong"))


def moved(table: str) -> str:
    """A :class:`Moved`, encoded: the person's tournament table is now ``table``."""
    return encode(Moved(type="moved", table=table))


def record(table: str, seq: int, kind: str, data: dict[str, Any]) -> str:
    """A :class:`RoomRecord`, encoded: a record of the table's log as its viewer may see it."""
    return encode(RoomRecord(type="record", table=table, seq=seq, kind=kind, data=data))
