"""Replay a :class:`~tapete.history.record.HandRecord` through the engine, and say what happened.

:func:`replay` drives a :class:`~tapete.core.hand.Hand` step by step, so every action of a hand
history is refereed by the same code that deals live hands: an illegal action stops the replay
with the engine's own message (what was tried and what was legal). A record whose steps stop
before the hand ends is a *partial* hand, reported as such, not an error. The result carries
everything ``tapete replay --json`` prints and :func:`tapete.words.account.account` writes the
readable version.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import format_cards
from tapete.core.catalog import t
from tapete.core.errors import MalformedAction
from tapete.core.hand import Hand, HandError, Phase
from tapete.core.text import Text
from tapete.history.record import HandRecord, Step, bounty_mismatch


class Decision(NamedTuple):
    """The options the player to act had, and what the record says was done (an immutable
    named tuple: one is made for every action of a ``--json`` replay)."""

    actor: int
    fold: bool
    check: bool
    call: int | None  # chips a call adds; None when checking is free
    min_to: int | None
    max_to: int | None
    action: str
    inferred: bool = False  # not in the record: a skipped player's check or fold


# the tuples of every step are built with tuple.__new__, all fields given (a named tuple's own
# __new__ is a Python function around this); the event types as compiled constants (a module's
# attribute is a lookup each time it is read)
_new = tuple.__new__
_ACTED: Final = ev.Acted
_HOLE_DEALT: Final = ev.HoleDealt
_BOARD_DEALT: Final = ev.BoardDealt
# the kinds a record's step plays alike (record.py): a check or a call, a bet or a raise to
_CHECK_OR_CALL: Final = (ev.CALL, ev.CHECK)
_BET_OR_RAISE: Final = (ev.BET, ev.RAISE)


class PotOut(NamedTuple):
    """A pot as the replay leaves it (an immutable named tuple)."""

    amount: int  # after rake
    players: tuple[int, ...]
    winners: tuple[int, ...] | None  # None while the pot is not settled
    shares: tuple[tuple[int, int], ...] = ()
    rake: int = 0


@dataclass(slots=True)
class ReplayResult:
    source: str
    hand: str
    players: int
    decimals: int = 0
    button: int = -1  # the engine's button; -1: the last player (PHH order)
    record: HandRecord | None = None
    engine: Hand | None = None
    error: Text | None = None
    partial: bool = False
    note: Text | None = None  # why a partial hand stops where it does
    finishing_stacks: list[int] | None = None
    pots: list[PotOut] = field(default_factory=list)
    returned: list[int] = field(default_factory=list)
    rake: int = 0
    decisions: list[Decision] = field(default_factory=list)
    inferred: list[str] = field(default_factory=list)  # actions the record skipped
    inferred_at: list[int] = field(default_factory=list)  # their events' places in the hand
    # figures of the file's own summary (PokerStars: pots, rake, collected) that the replay
    # does not reproduce, each with both figures; the hand did not check out
    mismatches: list[Text] = field(default_factory=list)

    # written out (the dataclass keeps it): compiled, it costs a fifth of the generated one
    def __init__(self, source: str, hand: str, players: int, decimals: int = 0,
                 button: int = -1, record: HandRecord | None = None,
                 engine: Hand | None = None, error: Text | None = None, partial: bool = False,
                 note: Text | None = None, finishing_stacks: list[int] | None = None,
                 pots: list[PotOut] | None = None, returned: list[int] | None = None,
                 rake: int = 0, decisions: list[Decision] | None = None,
                 inferred: list[str] | None = None, inferred_at: list[int] | None = None,
                 mismatches: list[Text] | None = None) -> None:
        self.source = source
        self.hand = hand
        self.players = players
        self.decimals = decimals
        self.button = button
        self.record = record
        self.engine = engine
        self.error = error
        self.partial = partial
        self.note = note
        self.finishing_stacks = finishing_stacks
        self.pots = pots if pots is not None else []
        self.returned = returned if returned is not None else []
        self.rake = rake
        self.decisions = decisions if decisions is not None else []
        self.inferred = inferred if inferred is not None else []
        self.inferred_at = inferred_at if inferred_at is not None else []
        self.mismatches = mismatches if mismatches is not None else []

    @property
    def ok(self) -> bool:
        """True when every listed action was legal (a partial hand is ok)."""
        return self.error is None

    @property
    def stated_stacks_agree(self) -> bool | None:
        """Whether the record's stated finishing stacks equal the replayed ones (None: not
        stated in whole units, or the hand did not finish)."""
        rec = self.record
        if rec is None or rec.finishing_stacks is None or self.finishing_stacks is None:
            return None
        return rec.finishing_stacks == self.finishing_stacks

    def label(self, player: int) -> str:
        """The player's PHH name: p1 is the first seat after the button (heads-up: the big
        blind), the button is last, whatever order the source file used."""
        return _label(player, self.button, self.players)

    def phh_order(self, values: Sequence[int]) -> list[int]:
        """Per-player values (engine order) in PHH player order."""
        n = self.players
        return [values[(self.button + 1 + k) % n] for k in range(n)]

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``tapete replay --json``; amounts as :class:`Amount` (written in
        the file's units by :func:`dumps_json`)."""
        d = self.decimals

        def a(x: int | None) -> Amount | None:
            return None if x is None else Amount(x, d)

        lab = self.label
        out: dict[str, Any] = {
            "source": self.source,
            "hand": self.hand,
            "finishing_stacks": None if self.finishing_stacks is None
            else [a(x) for x in self.phh_order(self.finishing_stacks)],
            "pots": [{"amount": a(p.amount), "players": [lab(q) for q in p.players],
                      "winners": None if p.winners is None else [lab(q) for q in p.winners],
                      "shares": {lab(q): a(x) for q, x in p.shares}}
                     for p in self.pots],
            "returned": [a(x) for x in self.phh_order(self.returned)] if self.returned else [],
            "rake": a(self.rake),
            "decisions": [{"actor": lab(x.actor), "fold": x.fold, "check": x.check,
                           "call": a(x.call), "min_to": a(x.min_to), "max_to": a(x.max_to),
                           "action": x.action, "inferred": x.inferred}
                          for x in self.decisions],
            "inferred": list(self.inferred),
            "partial": self.partial,
            "note": None if self.note is None else self.note.en,
            "stated_stacks_agree": self.stated_stacks_agree,
            "mismatches": [m.en for m in self.mismatches],
            "error": None if self.error is None else self.error.en,
        }
        return out

    def json_line(self, lang: str = "en") -> str:
        """The JSON text of :meth:`to_json` as :func:`dumps_json` writes it, with the error, the
        note and the mismatches in ``lang``: what ``tapete replay --json`` prints for a hand,
        written directly, without the dictionary (a hand has a few dozen decisions)."""
        d = self.decimals
        n = self.players
        button = self.button
        labels = [_JS_LABELS[(p - button - 1) % n if button >= 0 else p] for p in range(n)]
        out: list[str] = ['{"source": ', _js(self.source), ', "hand": ', _js(self.hand),
                          ', "finishing_stacks": ']
        fin = self.finishing_stacks
        if fin is None:
            out.append("null")
        else:
            out.append(_amounts(fin, button, n, d))
        out.append(', "pots": [')
        first = True
        for pot in self.pots:
            if not first:
                out.append(", ")
            first = False
            out.append('{"amount": ')
            out.append(_amount(pot.amount, d))
            out.append(', "players": [')
            out.append(", ".join([labels[q] for q in pot.players]))
            winners = pot.winners
            if winners is None:
                out.append('], "winners": null, "shares": {')
            else:
                out.append('], "winners": [')
                out.append(", ".join([labels[q] for q in winners]))
                out.append('], "shares": {')
            out.append(", ".join([labels[q] + ": " + _amount(x, d) for q, x in pot.shares]))
            out.append("}}")
        out.append('], "returned": ')
        out.append(_amounts(self.returned, button, n, d) if self.returned else "[]")
        out.append(', "rake": ')
        out.append(_amount(self.rake, d))
        out.append(', "decisions": [')
        parts: list[str] = []
        # the same decision recurs from hand to hand (three quarters of a dataset's: the
        # blinds, the same opening options): each is written once per table layout
        layout = (button, n, d)
        seen = _DECISIONS_SEEN.get(layout)
        if seen is None:
            if len(_DECISIONS_SEEN) >= 64:
                _DECISIONS_SEEN.clear()
            seen = _DECISIONS_SEEN[layout] = {}
        elif len(seen) >= 20_000:
            seen.clear()
        for x in self.decisions:
            text = seen.get(x)
            if text is None:
                call = x.call
                lo = x.min_to
                hi = x.max_to
                text = (
                    f'{{"actor": {labels[x.actor]}, "fold": {"true" if x.fold else "false"},'
                    f' "check": {"true" if x.check else "false"},'
                    f' "call": {"null" if call is None else _amount(call, d)},'
                    f' "min_to": {"null" if lo is None else _amount(lo, d)},'
                    f' "max_to": {"null" if hi is None else _amount(hi, d)},'
                    f' "action": {_js(x.action)},'
                    f' "inferred": {"true" if x.inferred else "false"}}}')
                seen[x] = text
            parts.append(text)
        out.append(", ".join(parts))
        out.append('], "inferred": [')
        out.append(", ".join([_js(name) for name in self.inferred]))
        out.append('], "partial": ')
        out.append("true" if self.partial else "false")
        out.append(', "note": ')
        note = self.note
        out.append("null" if note is None else _js(note.in_lang(lang)))
        out.append(', "stated_stacks_agree": ')
        agree = self.stated_stacks_agree
        out.append("null" if agree is None else "true" if agree else "false")
        out.append(', "mismatches": [')
        out.append(", ".join([_js(m.in_lang(lang)) for m in self.mismatches]))
        out.append('], "error": ')
        error = self.error
        out.append("null" if error is None else _js(error.in_lang(lang)))
        out.append("}")
        return "".join(out)


# the JSON of decisions already written, per table layout (button, players, decimals)
_DECISIONS_SEEN: dict[tuple[int, int, int], dict[Decision, str]] = {}
# PHH's player names as JSON strings: '"p1"', '"p2"'...
_JS_LABELS = [f'"p{k + 1}"' for k in range(32)]
_JS_SEEN: dict[str, str] = {}  # the action texts of a folder recur: each written once


def _js(s: str) -> str:
    """A string as JSON, as ``json.dumps(s, ensure_ascii=False)`` writes it."""
    out = _JS_SEEN.get(s)
    if out is not None:
        return out
    if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        out = '"' + s + '"'
    else:
        import json

        out = json.dumps(s, ensure_ascii=False)
    if len(s) <= 40:
        if len(_JS_SEEN) >= 50_000:
            _JS_SEEN.clear()
        _JS_SEEN[s] = out
    return out


def _amount(chips: int, decimals: int) -> str:
    """Chips of the smallest unit as the file wrote them (``str(Amount(chips, decimals))``)."""
    if not decimals:
        return str(chips)
    sign = "-" if chips < 0 else ""
    whole, frac = divmod(abs(chips), 10**decimals)
    return f"{sign}{whole}.{str(frac).rjust(decimals, '0')}"


def _amounts(values: list[int], button: int, n: int, decimals: int) -> str:
    """Per-player amounts (engine order) as a JSON list in PHH player order."""
    parts: list[str] = []
    for k in range(n):
        x = values[(button + 1 + k) % n]
        parts.append(str(x) if not decimals else _amount(x, decimals))
    return "[" + ", ".join(parts) + "]"


@dataclass(frozen=True, slots=True)
class Amount:
    """Chips of the smallest unit, written in JSON as the file wrote them (``0.50``)."""

    chips: int
    decimals: int

    def __str__(self) -> str:
        if not self.decimals:
            return str(self.chips)
        sign = "-" if self.chips < 0 else ""
        whole, frac = divmod(abs(self.chips), 10**self.decimals)
        return f"{sign}{whole}.{str(frac).rjust(self.decimals, '0')}"


def dumps_json(obj: Any, lang: str = "en") -> str:
    """Compact JSON where :class:`Amount` values are exact decimal numbers, never floats."""
    import json

    def enc(x: Any) -> str:
        if x is None:
            return "null"
        if x is True:
            return "true"
        if x is False:
            return "false"
        if isinstance(x, Amount):
            return str(x)
        if isinstance(x, int):
            return str(x)
        if isinstance(x, str):
            return json.dumps(x, ensure_ascii=False)
        if isinstance(x, Text):
            return json.dumps(x.in_lang(lang), ensure_ascii=False)
        if isinstance(x, dict):
            return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {enc(v)}"
                                   for k, v in x.items()) + "}"
        if isinstance(x, (list, tuple)):
            return "[" + ", ".join(enc(v) for v in x) + "]"
        raise TypeError(f"cannot write {type(x).__name__} as JSON")

    return enc(obj)


def _label(player: int, button: int, players: int) -> str:
    if button < 0:
        return f"p{player + 1}"
    return f"p{(player - button - 1) % players + 1}"


def step_text(step: Step, decimals: int = 0, button: int = -1, players: int = 0) -> str:
    """A step in PHH action notation (``p3 cbr 700``), for records read from other formats;
    players are named in PHH order when ``button`` (the engine's) is given."""
    kind = step[0]
    if kind == "board":
        return "d db " + format_cards(step[1])
    who = _label(step[1], button, players) if kind in ("hole", "act", "show", "muck") else ""
    if kind == "hole":
        return f"d dh {who} " + (format_cards(step[2]) if step[2] is not None else "????")
    if kind == "act":
        if not isinstance(step[2], Action):  # not an action: written as it is, to be refused
            return " ".join([who, *(str(x) for x in step[2:] if x is not None)])
        action: Action = step[2]
        if action.to is not None:
            return f"{who} cbr {Amount(action.to, decimals)}"
        return f"{who} {action.to_phh()}"
    if kind == "show":
        return f"{who} sm " + (format_cards(step[2]) if step[2] is not None else "-")
    if kind == "muck":
        return f"{who} sm"
    if kind == "runs":
        return f"runs {step[1]}"
    return " ".join(str(x) for x in step)


def failed(source: str, hand: str, message: str | Text, players: int = 0) -> ReplayResult:
    """A result for a hand that could not be read at all."""
    text = message if isinstance(message, Text) else Text(message, message)
    return ReplayResult(source=source, hand=hand, players=players, error=text)


def replay(record: HandRecord, *, decisions: bool = True, strict: bool = False,
           fast: bool = True) -> ReplayResult:
    """Drive the engine with ``record``; never raises for a bad record (see ``error``).

    ``decisions``: record the legal options before every action (``--json`` needs them).
    ``strict``: a step that skips a player still to act is an error. Otherwise, as PHH's
    reference reader (PokerKit) does, the skipped player's check (when free) or fold is
    inferred, listed in ``inferred`` and marked in ``decisions``.
    ``fast``: apply the engine's events directly once the options are known to allow them;
    anything the options do not allow goes through the engine's public method, whose error
    is reported. ``fast=False`` uses the public methods for every step (the tests check both
    give the same events).
    """
    rules = record.rules
    n = len(record.stacks)
    res = ReplayResult(source=record.source, hand=record.hand_id, players=n,
                       decimals=rules.decimals, record=record)
    try:
        hand = Hand(rules, record.stacks, button=record.button, blinds=record.blinds,
                    antes=record.antes, dead=record.dead, names=record.names,
                    seats=record.seats, hand_id=record.hand_id, straddles=record.straddles,
                    bomb=record.bomb, double_board=record.double_board)
    except HandError as exc:
        res.error = exc.message
        return res
    res.engine = hand
    res.button = hand.button
    # the file's own words for PHH; other formats' lines are not actions in PHH notation
    texts = record.texts if record.extra.get("format") == "phh" else None
    out = res.decisions
    unknown_show: list[int] = []
    seen: set[int] = set()
    betting = Phase.BETTING
    deal = Phase.DEAL
    # the fast path is the hand's public one: apply_unchecked() for an event legal() or
    # needs_cards() allowed, then advance(). They are called directly: compiled, a direct
    # call; through a bound method kept in a local, a generic call each time. The module's
    # names the loop reads are locals: compiled, a module name is a dictionary lookup each
    # time it is read
    new = _new
    acted, hole_dealt, board_dealt, decision = _ACTED, _HOLE_DEALT, _BOARD_DEALT, Decision
    fold = ev.FOLD
    i = 0
    dealt = 0  # hole cards dealt through the fast path
    holes: int = hand.game.hole_cards  # each player's, as the game deals them
    step: Step = ()
    try:
        for i, step in enumerate(record.steps):
            kind: str = step[0]  # typed, the compiled comparisons are a string's, not generic
            if kind == "act":
                p: int = step[1]
                act: str = step[2][0]  # the action's kind
                actor = hand.actor
                if actor != p and hand.phase is betting and not strict \
                        and not hand.folded[p] and not hand.all_in[p]:
                    _infer(res, hand, p, decisions)
                    actor = hand.actor
                # the engine has a player to act only while the betting is open
                on = actor is not None and hand.phase is betting
                lg = None
                if decisions and on:
                    lg = hand.legal()
                    text = texts[i] if texts is not None and i < len(texts) \
                        else step_text(step, rules.decimals, hand.button, n)
                    out.append(new(decision, (lg.player, lg.fold, lg.check,
                                               None if lg.check else lg.call, lg.min_to,
                                               lg.max_to, text, False)))
                if actor != p or not on or not fast:
                    _act_slow(hand, p, step)
                    continue
                bet = hand.bets[p]
                if act in _CHECK_OR_CALL:  # whichever the hand allows (record.py)
                    to_call = hand.level - bet
                    if to_call <= 0:
                        hand.apply_unchecked(new(acted, (p, ev.CHECK, bet, 0, False, False)))
                    else:
                        stack = hand.live_stack(p)  # a cap game's chips behind excluded
                        call = to_call if to_call < stack else stack
                        hand.apply_unchecked(new(acted, (p, ev.CALL, bet + call, call,
                                                         call == stack, False)))
                elif act == fold and hand.level > bet:
                    hand.apply_unchecked(new(acted, (p, ev.FOLD, bet, 0, False, False)))
                elif act in _BET_OR_RAISE:  # to that total, whichever the street makes
                    if lg is None:
                        lg = hand.legal()
                    to = step[2].to
                    if lg.min_to is None or lg.max_to is None or type(to) is not int or not (
                            lg.min_to <= to <= lg.max_to):
                        _act_slow(hand, p, step)
                        continue
                    added = to - bet
                    hand.apply_unchecked(new(acted, (p, ev.BET if lg.is_bet else ev.RAISE,
                                                     to, added, added == hand.live_stack(p),
                                                     False)))
                else:
                    _act_slow(hand, p, step)
                    continue
                if hand.phase is not betting:  # nothing happens by itself while one is to act
                    hand.advance()
                continue
            if hand.phase is betting and not strict:
                _infer(res, hand, -1, decisions)
            if kind == "hole":
                p, cards = step[1], step[2]
                if fast and hand.phase is deal and dealt < n and not hand.dealt[p] and (
                        cards is None or (
                            len(cards) == 2 and cards[0] != cards[1] and cards[0] not in seen
                            and cards[1] not in seen if holes == 2
                            else len(cards) == holes and len(set(cards)) == holes
                            and seen.isdisjoint(cards))):
                    if cards is not None:
                        seen.update(cards)
                    hand.apply_unchecked(new(hole_dealt, (p, cards)))
                    dealt += 1
                    if dealt == n:  # the last one opens the betting (or settles a hand
                        hand.advance()  # that the blinds put all-in); before it, nothing to do
                    continue
                hand.deal_hole(p, cards)
                dealt += 1
                if cards is not None:
                    seen.update(cards)
            elif kind == "board":
                cards = step[1]
                need = hand.needs_cards() if fast else None
                if need is not None and need[0] == "board" and len(cards) == need[2] \
                        and len(set(cards)) == len(cards) and seen.isdisjoint(cards):
                    seen.update(cards)
                    hand.apply_unchecked(new(board_dealt, (hand.board_street(need[1]),
                                                           tuple(cards), need[1])))
                    hand.advance()
                    continue
                hand.deal_board(cards)
                seen.update(cards)
            elif kind == "show":
                p = step[1]
                shown = step[2] if len(step) > 2 else None
                if shown is None and hand.hole[p] is None:
                    unknown_show.append(p)  # shown, but the record does not know the cards
                    continue
                hand.show(p, shown)
                seen.update(hand.hole[p] or ())
            elif kind == "muck":
                hand.muck(step[1])
            elif kind == "runs":
                hand.set_runs(step[1])
            else:
                raise HandError(t("unknown step {kind}", kind=repr(kind)))
    except HandError as exc:
        text = texts[i] if texts is not None and i < len(texts) \
            else step_text(step, rules.decimals, hand.button, n)
        m = exc.message
        res.error = t('action {step} "{text}": {why}', step=str(i + 1), text=text, why=m)
    except Exception as exc:  # a bug must not hide the other hands: report it on this one
        text = texts[i] if texts is not None and i < len(texts) \
            else step_text(step, rules.decimals, hand.button, n)
        res.error = t('action {step} "{text}": internal error: {error}', step=str(i + 1),
                      text=text, error=repr(exc))
    if res.error is None and not hand.done:
        lone = hand.lone_winner()
        if lone is not None and not unknown_show:
            hand.muck(lone)  # the record does not show the winner's cards: won unshown
        if hand.phase is Phase.SHOWDOWN and not unknown_show and all(
                hand.hole[p] is not None for p in hand.showdown_order()):
            # the record lists no more show/muck actions: the showdown as the rules play it
            try:
                hand.settle()
            except HandError as exc:
                res.error = exc.message
        if not hand.done and res.error is None:
            res.partial = True
            res.note = _why_partial(hand, unknown_show)
    _collect(res, hand)
    wrong = bounty_mismatch(record, hand)
    if wrong is not None:
        res.mismatches.append(wrong)
    return res


def _act_slow(hand: Hand, p: int, step: Step) -> None:
    """A record's action through the hand's public methods (its errors say what was legal):
    a check or a call as the one the hand allows, a bet or a raise to the amount (record.py)."""
    action = step[2] if len(step) == 3 else None
    if not isinstance(action, Action):
        raise MalformedAction(t("unknown action {action}", action=repr(step[2:])))
    kind = action.kind
    if kind == ev.FOLD:
        hand.fold(p)
    elif kind == ev.CHECK or kind == ev.CALL:
        hand.check_or_call(p)
    elif kind == ev.BET or kind == ev.RAISE:
        hand.raise_to(action.to, p)
    else:
        raise HandError(t("unknown action {action}", action=repr(kind)))


def _infer(res: ReplayResult, hand: Hand, until: int, decisions: bool) -> None:
    """Check (when free) or fold for each player the record skips, until player ``until`` is
    to act (-1: until the betting round closes)."""
    for _ in range(hand.n * 4):
        if hand.phase is not Phase.BETTING or hand.actor is None or hand.actor == until:
            return
        lg = hand.legal()
        p = lg.player
        text = f"{_label(p, hand.button, hand.n)} {'cc' if lg.check else 'f'}"
        if decisions:
            res.decisions.append(Decision(p, lg.fold, lg.check, None if lg.check else lg.call,
                                          lg.min_to, lg.max_to, text, inferred=True))
        res.inferred.append(text)
        res.inferred_at.append(len(hand.events))  # the action is the next event
        if lg.check:
            hand.check(p)
        else:
            hand.fold(p)


def _why_partial(hand: Hand, unknown: Sequence[int]) -> Text:
    if unknown or (hand.phase is Phase.SHOWDOWN and any(
            hand.hole[p] is None for p in hand.showdown_order())):
        who = ", ".join(_label(p, hand.button, hand.n) for p in (unknown or hand.showdown_order())
                        if hand.hole[p] is None) or "?"
        return t("the showdown cannot be settled: the cards of {who} are unknown", who=who)
    if hand.phase is Phase.BETTING and hand.actor is not None:
        who = _label(hand.actor, hand.button, hand.n)
        return t("the actions stop on the {street} with {who} to act",
                 street=_street(hand.street), who=who)
    need = hand.needs_cards()
    if need is not None:
        if need[0] == "hole":
            return t("the actions stop before hole cards are dealt")
        return t("the actions stop before the board are dealt")
    return t("the actions stop before the hand ends")


def _street(street: int) -> str:
    """A street's name, the same word in English and Spanish."""
    return ("preflop", "flop", "turn", "river")[min(street, 3)]


def _collect(res: ReplayResult, hand: Hand) -> None:
    res.returned = list(hand.returned)
    res.rake = hand.rake
    if hand.done:
        res.finishing_stacks = list(hand.stacks)
        res.pots = [_new(PotOut, (r.amount, r.eligible, r.winners, r.shares, r.rake))
                    for r in hand.results]
    else:
        res.pots = [_new(PotOut, (p.amount, p.eligible, None, (), 0)) for p in hand.pots()]


# ---------------------------------------------------------------------------- files

HISTORY_SUFFIXES = (".phh", ".phhs", ".txt")


def iter_paths(paths: Sequence[str]) -> list[str]:
    """The files to replay: files as given, folders recursed (hand-history files only, in
    sorted order). A path that does not exist is kept: replaying it reports the error."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            _walk(path, out)
        else:
            out.append(path)
    return out


def _walk(folder: str, out: list[str]) -> None:
    """The hand-history files under ``folder``, as ``os.walk`` lists them (a folder's own
    files first, sorted, then each subfolder in sorted order; a linked folder is not
    entered; one that cannot be read is skipped), with one ``scandir`` per folder."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return
    files: list[str] = []
    dirs: list[tuple[str, bool]] = []  # (name, a link)
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            dirs.append((entry.name, entry.is_symlink()))
        else:
            files.append(entry.name)
    files.sort()
    dirs.sort()
    base = folder if folder.endswith(os.sep) else folder + os.sep  # as os.path.join does
    for name in files:
        if name.lower().endswith(HISTORY_SUFFIXES):
            out.append(base + name)
    for name, link in dirs:
        if not link:
            _walk(base + name, out)


