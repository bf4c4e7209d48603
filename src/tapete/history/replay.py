"""Replay a :class:`~tapete.history.record.HandRecord` through the engine, and say what happened.

:func:`replay` drives a :class:`~tapete.hand.Hand` step by step, so every action of a hand
history is refereed by the same code that deals live hands: an illegal action stops the replay
with the engine's own message (what was tried and what was legal). A record whose steps stop
before the hand ends is a *partial* hand, reported as such, not an error. The result carries
everything ``tapete replay --json`` prints and :func:`account` writes the readable version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .. import events as ev
from ..cards import format_cards
from ..hand import Hand, HandError, Phase
from ..text import Text, chips
from .record import HandRecord, Step


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
    # figures of the file's own summary (PokerStars: pots, rake, collected) that the replay
    # does not reproduce, each with both figures; the hand did not check out
    mismatches: list[Text] = field(default_factory=list)

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
        if step[2] == "cbr":
            return f"{who} cbr {Amount(step[3], decimals)}"
        return f"{who} {step[2]}"
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
                    seats=record.seats, hand_id=record.hand_id)
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
    record_event = hand._apply
    advance = hand._advance
    i = 0
    dealt = 0  # hole cards dealt through the fast path
    step: Step = ()
    try:
        for i, step in enumerate(record.steps):
            kind = step[0]
            if kind == "act":
                p = step[1]
                actor = hand.actor
                if actor != p and hand.phase is betting and not strict \
                        and not hand.folded[p] and not hand.all_in[p]:
                    _infer(res, hand, p, decisions)
                    actor = hand.actor
                # the engine has a player to act only while the betting is open
                on = actor is not None and hand.phase is betting
                verb = step[2]
                lg = None
                if decisions and on:
                    lg = hand.legal()
                    text = texts[i] if texts is not None and i < len(texts) \
                        else step_text(step, rules.decimals, hand.button, n)
                    out.append(Decision(lg.player, lg.fold, lg.check,
                                        None if lg.check else lg.call, lg.min_to, lg.max_to,
                                        text))
                if actor != p or not on or not fast:
                    _act_slow(hand, p, step)
                    continue
                bet = hand.bets[p]
                if verb == "cc":
                    to_call = hand.level - bet
                    if to_call <= 0:
                        record_event(ev.Acted(p, ev.CHECK, bet, 0))
                    else:
                        stack = hand.stacks[p]
                        call = to_call if to_call < stack else stack
                        record_event(ev.Acted(p, ev.CALL, bet + call, call, call == stack))
                elif verb == "f" and hand.level > bet:
                    record_event(ev.Acted(p, ev.FOLD, bet, 0))
                elif verb == "cbr":
                    if lg is None:
                        lg = hand.legal()
                    to = step[3]
                    if lg.min_to is None or lg.max_to is None or not (
                            lg.min_to <= to <= lg.max_to) or type(to) is not int:
                        _act_slow(hand, p, step)
                        continue
                    added = to - bet
                    record_event(ev.Acted(p, ev.BET if lg.is_bet else ev.RAISE, to, added,
                                          added == hand.stacks[p]))
                else:
                    _act_slow(hand, p, step)
                    continue
                if hand.phase is not betting:  # nothing happens by itself while one is to act
                    advance()
                continue
            if hand.phase is betting and not strict:
                _infer(res, hand, -1, decisions)
            if kind == "hole":
                p, cards = step[1], step[2]
                if fast and hand.phase is deal and dealt < n and not hand.dealt[p] and (
                        cards is None or (len(cards) == 2 and cards[0] != cards[1]
                                          and cards[0] not in seen and cards[1] not in seen)):
                    if cards is not None:
                        seen.update(cards)
                    record_event(ev.HoleDealt(p, cards))
                    dealt += 1
                    if dealt == n:  # the last one opens the betting (or settles a hand
                        advance()  # that the blinds put all-in); before it, nothing to do
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
                    record_event(ev.BoardDealt(hand._street_for(need[1]), tuple(cards),
                                               need[1]))
                    advance()
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
                raise HandError(Text(f"unknown step {kind!r}", f"paso desconocido {kind!r}"))
    except HandError as exc:
        text = texts[i] if texts is not None and i < len(texts) \
            else step_text(step, rules.decimals, hand.button, n)
        m = exc.message
        res.error = Text(f'action {i + 1} "{text}": {m.en}',
                         f'acción {i + 1} "{text}": {m.es}')
    except Exception as exc:  # a bug must not hide the other hands: report it on this one
        text = texts[i] if texts is not None and i < len(texts) \
            else step_text(step, rules.decimals, hand.button, n)
        res.error = Text(f'action {i + 1} "{text}": internal error: {exc!r}',
                         f'acción {i + 1} "{text}": error interno: {exc!r}')
    if res.error is None and not hand.done:
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
    return res


def _act_slow(hand: Hand, p: int, step: Step) -> None:
    verb = step[2]
    if verb == "f":
        hand.fold(p)
    elif verb == "cc":
        hand.check_or_call(p)
    elif verb == "cbr":
        hand.raise_to(step[3], p)
    else:
        raise HandError(Text(f"unknown action {verb!r}", f"acción desconocida {verb!r}"))


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
        if lg.check:
            hand.check(p)
        else:
            hand.fold(p)


def _why_partial(hand: Hand, unknown: Sequence[int]) -> Text:
    if unknown or (hand.phase is Phase.SHOWDOWN and any(
            hand.hole[p] is None for p in hand.showdown_order())):
        who = ", ".join(_label(p, hand.button, hand.n) for p in (unknown or hand.showdown_order())
                        if hand.hole[p] is None) or "?"
        return Text(f"the showdown cannot be settled: the cards of {who} are unknown",
                    f"no se puede resolver el enfrentamiento: las cartas de {who} son"
                    " desconocidas")
    if hand.phase is Phase.BETTING and hand.actor is not None:
        who = _label(hand.actor, hand.button, hand.n)
        return Text(f"the actions stop on the {_street(hand.street, 'en')} with {who} to act",
                    f"las acciones terminan en el {_street(hand.street, 'es')} con {who}"
                    " por actuar")
    need = hand.needs_cards()
    if need is not None:
        what_en = "hole cards" if need[0] == "hole" else "the board"
        what_es = "las cartas propias" if need[0] == "hole" else "el tablero"
        return Text(f"the actions stop before {what_en} are dealt",
                    f"las acciones terminan antes de repartir {what_es}")
    return Text("the actions stop before the hand ends",
                "las acciones terminan antes del final de la mano")


def _street(street: int, lang: str) -> str:
    return ("preflop", "flop", "turn", "river")[min(street, 3)]


def _collect(res: ReplayResult, hand: Hand) -> None:
    res.returned = list(hand.returned)
    res.rake = hand.rake
    if hand.done:
        res.finishing_stacks = list(hand.stacks)
        res.pots = [PotOut(r.amount, r.eligible, r.winners, r.shares, r.rake)
                    for r in hand.results]
    else:
        res.pots = [PotOut(p.amount, p.eligible, None) for p in hand.pots()]


# ---------------------------------------------------------------------------- the account

def account(res: ReplayResult, lang: str = "en") -> str:
    """A readable account of a replayed hand, street by street, in English or Spanish."""
    es = lang == "es"
    lines: list[str] = []
    title = res.source + (f" #{res.hand}" if res.hand else "")
    hand = res.engine
    if hand is None:
        err = res.error.in_lang(lang) if res.error else ""
        lines.append(f"{title}: {'ERROR' if not es else 'ERROR'}: {err}")
        return "\n".join(lines)
    rules = hand.rules

    def c(x: int) -> str:
        return chips(x, rules.decimals, rules.currency, lang)

    def who(p: int) -> str:
        name = hand.names[p]
        label = res.label(p)
        return label if name == label else f"{label} {name}"

    desc = _describe_rules(rules, lang)
    lines.append(f"{title} — {desc}, " + (f"{hand.n} jugadores" if es else f"{hand.n} players"))
    stacks = ", ".join(f"{who(p)} {c(hand.starting_stacks[p])}" for p in range(hand.n))
    lines.append(("  Fichas: " if es else "  Stacks: ") + stacks)
    street_words = (("Preflop", "Preflop"), ("Flop", "Flop"), ("Turn", "Turn"),
                    ("River", "River"))
    current: list[str] = []
    header = street_words[0][1 if es else 0]
    kinds_es = {ev.ANTE: "ante", ev.SMALL_BLIND: "ciega pequeña", ev.BIG_BLIND: "ciega grande",
                ev.STRADDLE: "straddle", ev.DEAD: "ciega muerta", ev.BLIND: "ciega"}

    holes: list[str] = []

    def flush() -> None:
        if holes:
            lines.append(("  Cartas: " if es else "  Hole cards: ") + ", ".join(holes))
            holes.clear()
        if current:
            lines.append(f"  {header}: " + "; ".join(current))
            current.clear()
        elif header[:1] in "FTR":  # a board dealt with nobody left to act (all-in run-out)
            lines.append(f"  {header}")

    for e in hand.events:
        if isinstance(e, ev.Posted):
            kind = kinds_es.get(e.kind, e.kind) if es else e.kind
            current.append(f"{who(e.player)} " + (f"pone {kind} {c(e.amount)}" if es
                                                  else f"posts {kind} {c(e.amount)}")
                           + (" (all-in)" if e.all_in else ""))
        elif isinstance(e, ev.HoleDealt):
            if e.cards is not None:
                holes.append(f"{who(e.player)} [{format_cards(e.cards, ' ')}]")
        elif isinstance(e, ev.BoardDealt):
            if current or holes or header[:1] in "FTR":
                flush()
            name = street_words[min(e.street, 3)][1 if es else 0]
            board = format_cards(hand.boards[e.run][: 3 + max(0, e.street - 1)], " ")
            header = f"{name} [{board}]"
        elif isinstance(e, ev.Acted):
            current.append(f"{who(e.player)} " + _act_words(e, c, es))
        elif isinstance(e, ev.Returned):
            current.append(f"{c(e.amount)} " + (f"no igualadas vuelven a {who(e.player)}" if es
                                                else f"uncalled, returned to {who(e.player)}"))
        elif isinstance(e, ev.Shown):
            current.append(f"{who(e.player)} " + ("enseña" if es else "shows")
                           + f" [{format_cards(e.cards, ' ')}]" + _strength(hand, e.player, lang))
        elif isinstance(e, ev.Mucked):
            current.append(f"{who(e.player)} " + ("tira sus cartas" if es else "mucks"))
    flush()
    if res.inferred:
        lines.append(("  Inferidas (no están en el archivo): " if es
                      else "  Inferred (not in the file): ") + ", ".join(res.inferred))
    if res.error is not None:
        lines.append(("  ERROR: " if not es else "  ERROR: ") + res.error.in_lang(lang))
    elif res.partial:
        note = res.note.in_lang(lang) if res.note else ""
        lines.append(("  Mano parcial: " if es else "  Partial hand: ") + note)
        for k, pot in enumerate(res.pots):
            players = ", ".join(who(p) for p in pot.players)
            name = _pot_name(k, lang)
            lines.append(f"  {name} {c(pot.amount)} ({players})")
    else:
        for k, pot in enumerate(res.pots):
            name = _pot_name(k, lang)
            players = ", ".join(who(p) for p in pot.players)
            why = _why_won(hand, pot, lang)
            if pot.winners is not None and len(pot.winners) == 1:
                won = f"{who(pot.winners[0])} {'gana' if es else 'wins'} {c(pot.amount)}"
            else:
                won = ("se reparten: " if es else "split: ") + ", ".join(
                    f"{who(p)} {c(x)}" for p, x in pot.shares)
            rake = (f", rake {c(pot.rake)}" if pot.rake else "")
            lines.append(f"  {name} {c(pot.amount)} ({players}){rake}: {won}"
                         f"{' — ' + why if why else ''}")
        fin = ", ".join(f"{who(p)} {c(x)}" for p, x in enumerate(hand.stacks))
        lines.append(("  Fichas finales: " if es else "  Finishing stacks: ") + fin)
        agree = res.stated_stacks_agree
        if agree is False:
            lines.append("  Nota: las fichas finales del archivo son otras" if es
                         else "  Note: the file states other finishing stacks")
        for m in res.mismatches:
            lines.append(("  NO CUADRA con el resumen del archivo: " if es
                          else "  DOES NOT MATCH the file's summary: ") + m.in_lang(lang))
    return "\n".join(lines)


def _pot_name(k: int, lang: str) -> str:
    if lang == "es":
        return "Bote principal" if k == 0 else f"Bote secundario {k}"
    return "Main pot" if k == 0 else f"Side pot {k}"


def _act_words(e: ev.Acted, c: Any, es: bool) -> str:
    tail = " (all-in)" if e.all_in else ""
    if e.action == ev.FOLD:
        return "se retira" if es else "folds"
    if e.action == ev.CHECK:
        return "pasa" if es else "checks"
    if e.action == ev.CALL:
        return (f"iguala {c(e.added)}" if es else f"calls {c(e.added)}") + tail
    if e.action == ev.BET:
        return (f"apuesta {c(e.to)}" if es else f"bets {c(e.to)}") + tail
    return (f"sube a {c(e.to)}" if es else f"raises to {c(e.to)}") + tail


def _strength(hand: Hand, p: int, lang: str) -> str:
    from ..evaluator import describe, evaluate

    hole = hand.hole[p]
    board = hand.boards[0]
    if hole is None or len(board) < 3:
        return ""
    return f" ({describe(evaluate(hole + tuple(board)), lang)})"


def _why_won(hand: Hand, pot: PotOut, lang: str) -> str:
    from ..evaluator import describe, evaluate

    es = lang == "es"
    live = [p for p in pot.players if not hand.folded[p] and p not in hand.mucked]
    if len(live) <= 1 or pot.winners is None:
        others = sum(1 for f in hand.folded if not f) > 1
        if not others:
            return "los demás se retiraron" if es else "the others folded"
        return "los demás tiraron sus cartas" if es and hand.mucked else (
            "the others mucked" if hand.mucked else "")
    w = pot.winners[0]
    hole = hand.hole[w]
    if hole is None or len(hand.boards[0]) < 5:
        return ""
    return describe(evaluate(hole + tuple(hand.boards[0])), lang)


def _describe_rules(rules: Any, lang: str) -> str:
    from ..rules import Structure

    c = rules
    if lang == "es":
        name = {Structure.NO_LIMIT: "Hold'em sin límite", Structure.POT_LIMIT:
                "Hold'em límite del bote", Structure.FIXED_LIMIT: "Hold'em límite fijo"}
    else:
        name = {Structure.NO_LIMIT: "No-limit hold'em", Structure.POT_LIMIT:
                "Pot-limit hold'em", Structure.FIXED_LIMIT: "Fixed-limit hold'em"}
    s = f"{name[c.structure]} {chips(c.small_blind, c.decimals, c.currency, lang)}/" \
        f"{chips(c.big_blind, c.decimals, c.currency, lang)}"
    if c.ante:
        s += f", ante {chips(c.ante, c.decimals, c.currency, lang)}"
        if c.big_blind_ante:
            s += " (de la ciega grande)" if lang == "es" else " (big blind ante)"
    if c.straddle:
        s += f", straddle {chips(c.straddle, c.decimals, c.currency, lang)}"
    return s


# ---------------------------------------------------------------------------- files

HISTORY_SUFFIXES = (".phh", ".phhs", ".txt")


def iter_paths(paths: Sequence[str]) -> list[str]:
    """The files to replay: files as given, folders recursed (hand-history files only, in
    sorted order). A path that does not exist is kept: replaying it reports the error."""
    import os

    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                out.extend(os.path.join(root, f) for f in sorted(files)
                           if f.lower().endswith(HISTORY_SUFFIXES))
        else:
            out.append(path)
    return out


def replay_file(path: str, *, decisions: bool = True, strict: bool = False) -> list[ReplayResult]:
    """Replay every hand of one file, chosen by its type: ``.phh``/``.phhs`` (PHH), ``.txt``
    (PokerStars text, when :mod:`tapete.history.pokerstars` is installed). Never raises: a file
    that cannot be read is one result with its error."""
    import importlib
    import os

    low = path.lower()
    if not os.path.exists(path):
        return [failed(path, "", Text(f"no such file: {path}", f"no existe el archivo: {path}"))]
    if low.endswith((".phh", ".phhs")):
        from . import phh

        out: list[ReplayResult] = []
        for h in phh.read_file(path):
            if h.record is None:
                out.append(failed(path, h.hand, _unreadable(h.error or phh.UNREADABLE)))
            else:
                out.append(replay(h.record, decisions=decisions, strict=strict))
        return out
    if low.endswith(".txt"):
        try:
            module = importlib.import_module("tapete.history.pokerstars")
        except ModuleNotFoundError as exc:
            if exc.name != "tapete.history.pokerstars":
                raise
            return [failed(path, "", _unsupported(path, "PokerStars text is not available in"
                                                        " this version"))]
        return _replay_items(path, module, decisions, strict)
    return [failed(path, "", _unsupported(path, "tapete reads .phh, .phhs and .txt"))]


def _unreadable(msg: Text | str, unsupported: bool = False) -> Text:
    """A reader's message, introduced in Spanish for a Spanish reader: the readers say why in
    both languages (a game not supported yet says so itself); a plain string (another
    reader's, English) is introduced the same way."""
    if isinstance(msg, Text):
        if unsupported:
            return msg
        return Text(msg.en, f"no se puede leer la mano: {msg.es}")
    if unsupported:
        return Text(msg, f"aún no se admite: {msg}")
    return Text(msg, f"no se puede leer la mano: {msg}")


def _unsupported(path: str, why: str) -> Text:
    es = {"PokerStars text is not available in this version":
          "el texto de PokerStars no está disponible en esta versión",
          "tapete reads .phh, .phhs and .txt": "tapete lee .phh, .phhs y .txt"}[why]
    return Text(f"unsupported format: {path} ({why})", f"formato no admitido: {path} ({es})")


def _replay_items(path: str, module: Any, decisions: bool, strict: bool) -> list[ReplayResult]:
    """Replay what another reader's ``read_file`` gives: records, or (record | error) items."""
    out: list[ReplayResult] = []
    try:
        items = list(module.read_file(path))
    except Exception as exc:  # the reader's error is this file's error, never a traceback
        return [failed(path, "", Text(f"cannot read {path}: {exc}",
                                      f"no se puede leer {path}: {exc}"))]
    for k, item in enumerate(items):
        record = item if isinstance(item, HandRecord) else getattr(item, "record", None)
        if isinstance(record, HandRecord):
            if not record.source:
                record.source = path
            res = replay(record, decisions=decisions, strict=strict)
            check = getattr(module, "reconcile_text", None)
            if check is not None and res.error is None and res.engine is not None \
                    and res.engine.done:
                res.mismatches = list(check(record, res.engine))
            out.append(res)
        else:
            error = getattr(item, "error", None)
            msg: Text | str = error if isinstance(error, Text) else str(error or item)
            hand = str(getattr(item, "hand", "") or getattr(item, "hand_id", "") or k + 1)
            out.append(failed(path, hand, _unreadable(msg, bool(getattr(item, "unsupported",
                                                                          False)))))
    if not out:
        out.append(failed(path, "", Text("no hand in this file", "no hay manos en este archivo")))
    return out
