"""The ``state`` message: ONE builder for every kind of table, in sections.

Every table, a practice table, a room table, a home game, a sit-and-go or a tournament's, is
shown to its page by :func:`table_state`, as a :class:`~tapete.server.protocol.TableState`:

- the part every viewer is shown alike (:class:`Shared`: the rules, the seats, the hand with
  every hole card hidden that is not shown, its story so far), made and encoded once per
  change of the table (a :class:`msgspec.Raw` goes into each viewer's message as it is);
- the viewer's own: their seat marked ``you``, their hole cards, their decision with its
  legal options and timer, their pre-action;
- the sections only some tables have (:class:`Sections`), each written beside its kind of
  table: a room table's (:class:`~tapete.server.rooms.RoomPart`: the viewer's money, the
  host, the chat, the votes, the fair deal, a tournament) and a practice table's
  (:class:`~tapete.server.practice.PracticePart`: the coach, the person's bankroll, the
  run-out shown street by street after a hand, the last hand as it ended, the result with
  the bots' reasons, a sit-and-go's tournament).

It reads a table as :class:`Viewed` says (the session module's ``Running`` is one), and
imports no module that builds a table, a session or a person.

The lobby's state is :func:`lobby_state`'s. Every state goes to its client through the
session (:meth:`tapete.server.session.Session.send_state`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from tapete import words
from tapete.core import view as observer
from tapete.core.cards import format_card
from tapete.core.hand import Hand, Phase
from tapete.core.rules import Rules
from tapete.core.table import Seat
from tapete.core.text import Text
from tapete.room.ports import Served
from tapete.server.game import BLINDS, rules_json
from tapete.server.money import is_bot
from tapete.server.protocol import LobbyState, TableState
from tapete.server.views import hand_view
from tapete.words.room import decided_line, host_line, vote_line

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tapete.room.log import TableConfig
    from tapete.room.table import RoomTable

# a part of a message as it goes on the wire: the protocol's struct, its dict, or its encoding
# made once (a ``msgspec.Raw``, which goes into every message that carries it as it is)
Wire = Any
_JSON = msgspec.json.Encoder()
_NULL = msgspec.Raw(b"null")
_EMPTY = msgspec.Raw(b"[]")


def _raw(value: Any) -> msgspec.Raw:
    return msgspec.Raw(_JSON.encode(value))


def words_wire(text: Text | None) -> Wire:
    """A sentence as a state carries it (None: none)."""
    return text.to_json() if text is not None else None


class Viewed(Served, Protocol):
    """A table this process runs (:class:`~tapete.server.session.Running`), as its states
    read it: besides the table and its connections, its bots' styles, what its states share
    (:class:`TableViews`), the pre-actions chosen, and each person's tabs at it."""

    @property
    def bots(self) -> Mapping[str, str]:
        ...

    @property
    def views(self) -> TableViews:
        ...

    @property
    def pre(self) -> Mapping[str, str]:
        ...

    @property
    def joined(self) -> int:
        ...

    @property
    def tabs(self) -> Mapping[str, int]:
        ...


# ---------------------------------------------------------------------------- what all see
class Shared:
    """The parts of a table's state every viewer is shown alike, each encoded once. A
    viewer's own are added to them by :func:`table_state`: its seat marked ``you``, its own
    hole cards, its decision, its money."""

    __slots__ = ("table", "key", "rules_of", "rules", "money", "log", "seats", "seats_you",
                 "players", "view", "legal", "ended", "_revealed")

    def __init__(self, running: Viewed, key: tuple[int, int, int], rules: Rules) -> None:
        rt = self.table = running.table
        self.key = key
        self.rules_of = rules
        enc = _JSON.encode
        pair = (rules.small_blind, rules.big_blind)
        # a practice table's blinds are one of the lobby's (its index); a room table's are 0
        blinds = BLINDS.index(pair) if rt.config.practice and pair in BLINDS else 0
        self.rules = msgspec.Raw(enc({**rules_json(rules), "key": rt.config.game.value,
                                      "blinds": blinds}))
        self.money = msgspec.Raw(enc(words.money_format(rules.decimals, rules.currency)))
        self._revealed: msgspec.Raw | None = None
        self.seats: list[msgspec.Raw] = []
        self.seats_you: list[msgspec.Raw] = []  # the same, as its own player sees it
        for i, s in enumerate(rt.table.seats):
            if s is None:
                self.seats.append(_NULL)
                self.seats_you.append(_NULL)
                continue
            pid = rt.players.get(i, "")
            seat = {"seat": i, "name": s.name, "bot": is_bot(pid),
                    "style": running.bots.get(pid), "chips": s.chips + s.pending_chips,
                    "sitting_out": s.sitting_out or s.sit_out_after_hand,
                    "leaving": i in rt.leaving, "you": False}
            self.seats.append(msgspec.Raw(enc(seat)))
            seat["you"] = True
            self.seats_you.append(msgspec.Raw(enc(seat)))
        hand = rt.hand
        self.log: msgspec.Raw = _NULL
        self.players: list[msgspec.Raw] = []
        self.view: dict[str, Any] = {}
        self.legal: dict[str, Any] | None = None
        self.ended: dict[int | None, msgspec.Raw] = {}  # the last hand, by hand seat
        if hand is not None:
            self.log = msgspec.Raw(words.log_json(hand, enc))  # told as the hand grows
            view = hand_view(hand, None)  # nobody's hole cards but the ones shown
            self.players = [msgspec.Raw(enc(p)) for p in view["players"]]
            self.view = view

    @property
    def revealed(self) -> msgspec.Raw:
        """The last hand's fair deal, revealed (its 52 cards written once, not once a
        viewer)."""
        if self._revealed is None:
            deal = self.table.last_deal
            self._revealed = _raw(deal.to_json()) if deal else _NULL
        return self._revealed

    def hand(self, hand: Hand, you: int | None, decides: bool) -> dict[str, Any]:
        """The hand in play as hand seat ``you`` sees it (its own hole cards; the legal
        options when ``decides``): :func:`~tapete.server.views.hand_view`'s, made once for
        every viewer and then given each viewer's own cards."""
        view = dict(self.view)
        players = self.players
        if you is not None:
            players = list(players)
            hole = observer.hole_seen(hand, observer.Viewer.at(you), you)
            if hole is not None and you not in hand.shown:  # shown: in the shared view
                mine = dict(view["players"][you])
                mine["cards"] = [format_card(c) for c in hole] if hole else None
                players[you] = _raw(mine)
        view["players"] = players
        view["you"] = you
        if decides and hand.phase is Phase.BETTING:
            if self.legal is None:
                self.legal = hand_view(hand, hand.actor)["legal"]
            view["legal"] = self.legal
        return view

    def ended_hand(self, hand: Hand, you: int | None) -> msgspec.Raw:
        """The hand that ended last as hand seat ``you`` sees it (made once per seat)."""
        got = self.ended.get(you)
        if got is None:
            got = self.ended[you] = _raw(hand_view(hand, you))
        return got


class TableViews:
    """What a table's states share, kept with the table (``Running.views``) and made again
    only when what it shows changed: :class:`Shared` once per record, the settings once per
    change of them, the chat once per line, the spectators once per change of the
    connections, each seat's last result once per hand."""

    def __init__(self) -> None:
        self._shared: Shared | None = None
        self._results: dict[tuple[str, int | None], msgspec.Raw] = {}
        self._config: msgspec.Raw | None = None
        self._config_of: TableConfig | None = None
        self._chat: tuple[Any, msgspec.Raw, msgspec.Raw] = ((), _EMPTY, _EMPTY)
        self._spectators: tuple[tuple[Any, ...], int] = ((), 0)

    def forget(self) -> None:
        """The table was rebuilt from its log: everything is made again."""
        self._shared, self._results = None, {}

    def shared(self, running: Viewed, rules: Rules | None = None) -> Shared:
        """What every viewer of the table as it stands is shown alike (made once per record
        stored, whoever asks first); ``rules``: the rules the page is shown (the table's)."""
        rt = running.table
        rules = rt.rules if rules is None else rules
        hand = rt.hand
        key = (rt.seq, rt.hand_no, len(hand.events) if hand is not None else -1)
        sh = self._shared
        if sh is None or sh.table is not rt or sh.key != key or sh.rules_of is not rules:
            sh = self._shared = Shared(running, key, rules)
        return sh

    def config(self, rt: RoomTable) -> msgspec.Raw:
        if self._config is None or self._config_of is not rt.config:
            self._config_of = rt.config  # a host changes it (a new one each time)
            config = rt.config.to_json()
            config.pop("practice", None)  # the server's own: no room table is one
            self._config = _raw(config)
        return self._config

    def chat(self, rt: RoomTable) -> tuple[msgspec.Raw, msgspec.Raw]:
        """The chat lines as a spectator sees them and as the seated do, encoded once per
        line added (not once per record)."""
        key = (rt, rt.chat[-1]["seq"] if rt.chat else 0, rt.rules)
        if self._chat[0] != key:
            lines = chat_lines(rt)
            everyone = _raw(lines)
            seated = _raw([x for x in lines if not x["spectator"]]) \
                if any(x["spectator"] for x in lines) else everyone
            self._chat = (key, everyone, seated)
        return self._chat[1], self._chat[2]

    def spectators(self, running: Viewed) -> int:
        """People watching without a seat (counted once per change of the seats or of the
        connections)."""
        key = (running.table, running.table.seq, running.joined)
        if self._spectators[0] != key:
            seated = set(running.table.players.values())
            self._spectators = (key, len(running.connections)
                                - sum(running.tabs.get(p, 0) for p in seated))
        return self._spectators[1]

    def result(self, hand: Hand, you: int | None, number: int) -> msgspec.Raw:
        """The last hand's result as seat ``you`` is shown it (made and encoded once per
        seat)."""
        key = (hand.hand_id, you)
        got = self._results.get(key)
        if got is None:
            if self._results and next(iter(self._results))[0] != hand.hand_id:
                self._results.clear()
            got = self._results[key] = _raw(result_json(hand, you, number))
        return got


def result_json(hand: Hand, you: int | None, number: int,
                explanations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A hand's result as hand seat ``you`` is shown it (``Result``); ``explanations``: the
    practice bots' reasons."""
    return {
        "hand_id": hand.hand_id, "number": number,
        "played": you is not None,  # False: a hand the viewer watched, not one of theirs
        "pots": words.pot_lines(hand), "breakdown": words.breakdown(hand).to_json(),
        "shown": words.shown_hands(hand), "board": [format_card(c) for c in hand.board],
        "net": hand.net()[you] if you is not None else 0,
        "explanations": explanations or [],
        "log": [line.to_json() for line in words.log_lines(hand)],
    }


def runout_frame(hand: Hand, upto: int, you: int | None) -> dict[str, Any]:
    """A practice table's all-in run-out, shown street by street after the hand: the hand as
    it stood after its first ``upto`` events, as hand seat ``you`` sees it, the hands that
    will be shown tabled (all-in: cards face up); ``_events``: ``upto``, for its log."""
    setup = hand.setup
    part = Hand.from_events(setup.rules, setup.stacks, hand.events[:upto],
                            **setup.hand_args())
    view = hand_view(part, you)
    for p, cards in observer.tabled(hand).items():  # the ended hand's, seen by every viewer
        view["players"][p]["cards"] = [format_card(c) for c in cards]
    view["phase"] = "runout"
    view["_events"] = upto
    view.pop("legal", None)
    return view


def chat_lines(rt: RoomTable) -> list[dict[str, Any]]:
    """The table's last chat messages, host actions and votes, oldest first."""
    out: list[dict[str, Any]] = []
    for c in rt.chat:
        kind = c["record"]
        line: dict[str, Any] = {"seq": c["seq"], "kind": kind, "name": None, "text": None,
                                "spectator": False, "words": None}
        if kind == "chat":
            line.update(name=c["name"] or None, text=c["text"], spectator=c["seat"] is None)
        else:
            words_ = host_line(c, rt.rules) if kind == "host" else \
                vote_line(c) if kind == "vote" else decided_line(c)
            line["words"] = words_.to_json()
        out.append(line)
    return out


def home_json(rt: RoomTable, player: str | None) -> dict[str, Any]:
    """The host's table and the home-game options as ``player`` sees them (HomeInfo)."""
    now = rt.clock.now_ms()
    host = player is not None and player == rt.host
    requests = [{"request": rid, "kind": r["kind"],
                 "name": r.get("name") or rt._name(r["seat"]), "chips": r["chips"],
                 "seat_number": r["seat"]} for rid, r in sorted(rt.requests.items())
                if host or r["player"] == player]
    votes = [{"vote": vid, "kind": v["kind"], "runs": v.get("runs"), "seats": v["seats"],
              "yes": sorted(s for s, p in rt.players.items() if p in v["yes"]),
              "no": sorted(s for s, p in rt.players.items() if p in v["no"]),
              "mine": player in v["asked"] and player not in v["yes"] and player not in v["no"],
              "seconds_left": max(0, v["opened"] + v["ms"] - now) / 1000}
             for vid, v in sorted(rt.votes.items())]
    return {"hosted": rt.host is not None, "host": host,
            "host_seat": rt.seat_of(rt.host) if rt.host is not None else None,
            "paused": rt.paused, "over": rt.over, "auto_approve": rt.config.auto_approve,
            "requests": requests, "muted": player in rt.muted,
            "muted_seats": sorted(s for s, p in rt.players.items() if p in rt.muted),
            "next": rt.changes, "straddling": player in rt.straddlers,
            "bomb_next": rt.bomb_next, "votes": votes}


def decision_json(rt: RoomTable, hand: Hand, player: str, seq: int) -> dict[str, Any]:
    """The decision ``player`` is to take, as a state carries it (``seq``: its number on
    the page): the time to act left (with any grace), then the street's time bank, and what
    is legal in words."""
    now = rt.clock.now_ms()
    deadline = rt.deadline() or now
    bank = rt.banks[player][rt._pool(hand)]
    left_total = max(0, deadline - now)  # act time (and grace), then the bank
    return {"seq": seq, "action_time": rt.config.act_ms / 1000,
            "time_left": max(0, left_total - bank) / 1000,
            "bank": min(bank, left_total) / 1000,
            "summary": hand.legal().summary().to_json()}


# ---------------------------------------------------------------------------- one viewer
class Viewer:
    """One viewer of a table as it stands: who they are and where they sit."""

    __slots__ = ("running", "player", "seat", "you", "me", "shared")

    def __init__(self, running: Viewed, player: str | None, shared: Shared) -> None:
        rt = running.table
        self.running = running
        self.player = player
        self.shared = shared
        self.seat = rt.seat_of(player) if player else None  # their chair (None: watching)
        # their player number in the hand in play, or in the last one when none is
        hand = rt.hand
        players = rt.hand_players if hand is not None else rt.last_players
        self.you = players.index(player) if player and player in players else None
        self.me: Seat | None = rt.table.seats[self.seat] if self.seat is not None else None


class Sections:
    """The parts of a state a kind of table has of its own (a room table's by default: see
    :class:`~tapete.server.rooms.RoomPart`)."""

    rules: Rules | None = None  # the rules the page is shown (None: the table's)

    def number(self, turn: int) -> int | None:
        """The page's number for the viewer's decision ``turn`` (the table's ``turn_seq``);
        None: the page is not asked for it now."""
        return turn

    def shown(self, v: Viewer) -> tuple[Wire, Wire, bool] | None:
        """The hand shown instead of the table's (its view, its log, whether it is live);
        None: the table's own."""
        return None

    def own(self, v: Viewer, state: TableState) -> None:
        """Fill the state's fields of this kind of table (coach, money, room...)."""


def table_state(running: Viewed, player: str | None, part: Sections) -> TableState:
    """The table as ``player`` sees it (None: a spectator who is nobody): what every viewer
    is shown alike (:class:`Shared`, made once per change), the viewer's own, and ``part``'s
    sections."""
    rt = running.table
    table = rt.table
    hand = rt.hand
    sh = running.views.shared(running, part.rules)
    v = Viewer(running, player, sh)
    you = v.you
    view: Wire = None
    log_lines: Wire = None
    decision: dict[str, Any] | None = None
    if hand is not None:
        if you is not None and hand.actor == you and rt.turn_seq is not None:
            number = part.number(rt.turn_seq)
            if number is not None:
                decision = decision_json(rt, hand, player or "", number)
        view = sh.hand(hand, you, decision is not None)
        log_lines = sh.log
    elif rt.last_hand is not None:
        view = sh.ended_hand(rt.last_hand, you)
    live = hand is not None
    instead = part.shown(v)
    if instead is not None:
        view, log_lines, live = instead
    seats: list[Wire] = sh.seats
    if v.seat is not None:
        seats = list(seats)
        seats[v.seat] = sh.seats_you[v.seat]
    me = v.me
    bank_now = 0.0
    if player and player in rt.banks:
        pool = rt._pool(hand) if hand is not None else "pre"
        bank_now = rt.banks[player][pool] / 1000
    state = TableState(
        type="state", lobby=False, seq=decision["seq"] if decision else None,
        rules=as_wire(sh.rules), seats=seats, button_seat=table.button_seat,
        sb_seat=table.small_blind_seat, bb_seat=table.big_blind_seat,
        hand=view, live=live, log=log_lines, decision=as_wire(decision),
        pre_action=as_wire(running.pre.get(player) if player else None),
        coach_on=False, coach=None, last_result=None,
        sitting_out=bool(me and (me.sitting_out or me.sit_out_after_hand)),
        # blinds missed while sitting out: come back at the big blind, or post them
        owes_blinds=bool(me and (me.missed_big or me.missed_small)),
        waiting_for_big_blind=bool(me and me.waiting_for_big_blind and not me.post_now),
        sat_out_reason=None, waiting=False, leaving=False, time_bank=bank_now, notice=None,
        # how amounts are written, per language, for the page's live amounts (the slider)
        money=as_wire(sh.money), me=as_wire(None))
    part.own(v, state)
    return state


def as_wire(value: Any) -> Wire:
    """A part given to a struct's field as it goes on the wire (a dict, a msgspec.Raw)."""
    return value


def lobby_state(me: dict[str, Any], options: Wire, notice: Text | None,
                money: Wire) -> LobbyState:
    """The lobby's ``state`` (the person is at no table)."""
    return LobbyState(type="state", lobby=True, me=as_wire(me), options=options,
                      notice=words_wire(notice), money=money)
