"""The web replayer: a hand as a timeline of frames, and the routes that serve it.

A hand comes from the practice room's storage (``/replay/{hand_id}``), from an uploaded PHH or
PokerStars file (multi-hand files list their hands), from a shared link (the hand's PHH text,
zlib-compressed and base64url-encoded, in the URL fragment ``#h=...``), or from a file that
``tapete replay FILE --open`` preloaded (``/replay/f/{key}``).

:func:`timeline` turns a hand into frames, one per event (the hole cards dealt to every player
are one frame): stacks, bets, the pots with side pots and who may win them, the board(s), who
is to act, the legal options and why (English and Spanish), each known hand's strength, and
each live player's equity. Equity is exact when every live player's cards are known (the
record's shown cards count from the deal), else against any two cards for the unknown hands
(Monte Carlo, seeded); it is computed once per board and set of live players and cached.
The final frame carries the pot breakdown in words.

Every state comes from the engine: each frame is :meth:`Hand.from_events` over the events so
far, so the pots and legal ranges shown are the engine's own.

What a visitor sends is bounded (a body of ``MAX_UPLOAD`` bytes, read with its cap; amounts of
``work.MAX_DIGITS`` digits; ``MAX_EVENTS`` events; an answer of ``MAX_RESPONSE`` bytes) and
worked on in a worker process (:mod:`.work`): the event loop that deals the tables only reads
the body and waits for the JSON text of the answer.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import logging
import re
import secrets
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tapete import words
from tapete.core import events as ev
from tapete.core.cards import Card, format_card
from tapete.core.hand import Hand, Phase, street_name
from tapete.core.text import Text
from tapete.history.record import HandRecord
from tapete.history.replay import replay
from tapete.server import work
from tapete.server.analysis import insurance_note

if TYPE_CHECKING:
    from tapete.server.storage import HandRow

MAX_UPLOAD = 8 * 1024 * 1024  # bytes of an uploaded file
MAX_LINK = 200_000  # characters of a shared link's code (the body of /api/replay/link)
MAX_INFLATED = 2 * 1024 * 1024  # bytes a shared link may inflate to
MAX_LISTED = 5000  # hands listed from one file
MAX_EVENTS = 1500  # events of one hand (each frame folds the events before it)
MAX_RESPONSE = 16 * 1024 * 1024  # bytes of the JSON answer (1,500 frames of 9 players fit)
MAX_NUMBER = 100  # digits of a number anywhere in a file (more is refused before reading it)
DEADLINE = 60.0  # seconds of work for one request (an 8 MB file takes a few)
EQUITY_SAMPLES = 20_000
EQUITY_SEED = 7



log = logging.getLogger("tapete.server")


class ReplayInputError(ValueError):
    """Input that is not a hand we can replay: the message is for the page, in both languages."""

    def __init__(self, message: Text, status: int = 400) -> None:
        super().__init__(message.en)
        self.message = message
        self.status = status


_TOO_MANY_DIGITS = Text(
    f"an amount in this hand has more than {work.MAX_DIGITS} digits: the replayer takes amounts"
    f" of up to {work.MAX_DIGITS} digits",
    f"una cantidad de esta mano tiene más de {work.MAX_DIGITS} cifras: el reproductor acepta"
    f" cantidades de hasta {work.MAX_DIGITS} cifras")
_LONG_NUMBER = re.compile(r"(?:\d[,.]?){" + str(MAX_NUMBER + 1) + "}")


def _check_numbers(text: str) -> None:
    """No number of more than ``MAX_NUMBER`` digits (separators aside) in a file's text: the
    readers are not asked to turn one into an amount."""
    if _LONG_NUMBER.search(text):
        raise ReplayInputError(Text(
            f"this file has a number of more than {MAX_NUMBER} digits: the replayer takes"
            f" amounts of up to {work.MAX_DIGITS} digits",
            f"este archivo tiene un número de más de {MAX_NUMBER} cifras: el reproductor acepta"
            f" cantidades de hasta {work.MAX_DIGITS} cifras"), 422)


def check_record(record: HandRecord) -> None:
    """A record the replayer takes: every amount of at most ``work.MAX_DIGITS`` digits, and no
    more actions than ``MAX_EVENTS`` (each action is at least one event)."""
    if len(record.steps) > MAX_EVENTS:
        raise ReplayInputError(Text(
            f"this hand has too many actions to replay ({len(record.steps)})",
            f"esta mano tiene demasiadas acciones ({len(record.steps)})"), 413)
    amounts: list[object] = [*record.stacks, *(record.blinds or ()), *(record.antes or ()),
                             *(record.dead or ()), *(record.finishing_stacks or ()),
                             *(record.stated_pots or ()), record.stated_rake]
    for f in dataclasses.fields(record.rules):
        v = getattr(record.rules, f.name)
        amounts.extend(v if isinstance(v, tuple) else (v,))
    for step in record.steps:
        amounts.extend(step)
    limit = 10 ** work.MAX_DIGITS
    if any(type(x) is int and not -limit < x < limit for x in amounts):
        raise ReplayInputError(_TOO_MANY_DIGITS, 422)


# ---------------------------------------------------------------------------- equity

@lru_cache(maxsize=4096)
def street_equity(hands: tuple[tuple[Card, ...] | None, ...],
                  boards: tuple[tuple[Card, ...], ...]) -> tuple[tuple[float, ...], bool] | None:
    """Each hand's share of the pot (averaged over the boards of a run-it-more-than-once),
    and whether it is exact. ``None`` hands are unknown: any two cards. Cached: a street's
    figure is computed once, whatever the number of frames that show it."""
    from tapete.eval.equity import EquityError, equity

    if len(hands) < 2 or len(hands) > 9 or all(h is None for h in hands):
        return None
    specs: list[Any] = [h if h is not None else "random" for h in hands]
    known = all(h is not None for h in hands)
    total = [0.0] * len(hands)
    exact = True
    try:
        for board in boards:
            res = equity(specs, board, exact=None if known else False,
                         samples=EQUITY_SAMPLES, seed=EQUITY_SEED)
            exact = exact and res.exact
            for i, p in enumerate(res.players):
                total[i] += p.equity
    except EquityError:
        return None
    return tuple(x / len(boards) for x in total), exact


# ---------------------------------------------------------------------------- the timeline

def _setup(hand: Hand) -> dict[str, Any]:
    return {"button": hand.button, "blinds": hand.blinds, "antes": hand.antes,
            "dead": hand.dead, "names": hand.names, "seats": hand.seats,
            "hand_id": hand.hand_id}


def _known_cards(hand: Hand) -> list[tuple[Card, ...] | None]:
    """Every player's cards as the whole record knows them (dealt face up, or shown later)."""
    known: list[tuple[Card, ...] | None] = [None] * hand.n
    for e in hand.events:
        if isinstance(e, (ev.HoleDealt, ev.Shown)) and e.cards is not None:
            known[e.player] = tuple(e.cards)
    return known


def _legal_json(h: Hand) -> dict[str, Any] | None:
    if h.phase is not Phase.BETTING or h.actor is None:
        return None
    lg = h.legal()
    out: dict[str, Any] = {
        "player": lg.player, "fold": lg.fold, "check": lg.check, "call": lg.call,
        "call_to": lg.call_to, "min_to": lg.min_to, "max_to": lg.max_to, "is_bet": lg.is_bet,
        "summary": lg.summary().to_json(),
    }
    if lg.min_to is None:
        out["why"] = [lg.explain_no_raise().to_json()]
    elif lg.min_to == lg.max_to:
        out["why"] = [lg.explain_min().to_json()]
    else:
        out["why"] = [lg.explain_min().to_json(), lg.explain_max().to_json()]
    return out


def breakdown(hand: Hand) -> dict[str, Any] | None:
    """The settled pots of a finished hand, from its events: amounts after rake, who could win
    each, who won what, the rake and the chips returned; and the whole in words."""
    if not hand.done:
        return None
    pots = hand.pots()  # contributions do not change while a hand is settled
    rake: dict[int, int] = {}
    shares: dict[int, dict[int, int]] = {}
    for e in hand.events:
        if isinstance(e, ev.Raked):
            rake[e.pot] = rake.get(e.pot, 0) + e.amount
        elif isinstance(e, ev.Awarded):
            shares.setdefault(e.pot, {})
            shares[e.pot][e.player] = shares[e.pot].get(e.player, 0) + e.amount
    count = max(len(pots), max(shares, default=-1) + 1)
    items: list[dict[str, Any]] = []
    parts: list[Text] = []
    for i in range(count):
        pot = pots[i] if i < len(pots) else None
        won = shares.get(i, {})
        amount = sum(won.values()) if won else (pot.amount - rake.get(i, 0) if pot else 0)
        eligible = list(pot.eligible) if pot else sorted(won)
        winners = sorted(won)
        rk = rake.get(i, 0)
        text = words.pot_result(hand, i, count, amount, rk)
        parts.append(text)
        items.append({"kind": "pot", "index": i, "amount": amount, "rake": rk,
                      "eligible": eligible, "winners": winners,
                      "shares": [[p, x] for p, x in sorted(won.items())],
                      "text": text.to_json()})
    for e in hand.events:
        if isinstance(e, ev.Returned):
            text = words.returned(hand, e.player, e.amount)
            parts.append(text)
            items.append({"kind": "returned", "player": e.player, "amount": e.amount,
                          "text": text.to_json()})
    return {"items": items, "text": words.sentences(parts).to_json(),
            "rake": sum(rake.values())}


def timeline(hand: Hand, *, title: str = "", source: str = "", error: Text | None = None,
             partial: bool = False, note: Text | None = None,
             share: str | None = None, equity: bool = True) -> dict[str, Any]:
    """The frames of a hand (finished, partial, or stopped by an illegal action)."""
    rules = hand.rules
    setup = _setup(hand)
    stacks = hand.starting_stacks
    events = list(hand.events)
    if len(events) > MAX_EVENTS:
        raise ReplayInputError(Text(f"this hand has too many events to replay ({len(events)})",
                                    f"esta mano tiene demasiados eventos ({len(events)})"), 413)
    known = _known_cards(hand)
    final = Hand.from_events(rules, stacks, events, **setup)
    pot_count = len(final.pots())
    # frames: the start, then one per event; the hole cards of every player are one frame
    cuts: list[int] = [0]
    for k, event in enumerate(events):
        if isinstance(event, ev.HoleDealt) and k + 1 < len(events) \
                and isinstance(events[k + 1], ev.HoleDealt):
            continue
        cuts.append(k + 1)
    frames: list[dict[str, Any]] = []
    streets: list[int | None] = [0, None, None, None]
    prev = Hand.from_events(rules, stacks, [], **setup)
    for f, cut in enumerate(cuts):
        h = Hand.from_events(rules, stacks, events[:cut], **setup)
        e = events[cut - 1] if cut else None
        if isinstance(e, ev.BoardDealt) and e.run == 0 and streets[min(e.street, 3)] is None:
            streets[min(e.street, 3)] = f
        live = [p for p in range(h.n) if not h.folded[p] and p not in h.mucked]
        strength: list[dict[str, str] | None] = []
        for p in range(h.n):
            cards = known[p]
            if cards is None or h.folded[p]:
                strength.append(None)
            elif len(h.boards[0]) >= 3:
                strength.append(words.strength(cards, h.boards).to_json())
            else:
                name = words.preflop_name(cards)
                strength.append({"en": name, "es": name})
        eq: dict[str, Any] | None = None
        if equity and len(live) >= 2 and h.phase is not Phase.DONE:
            got = street_equity(tuple(known[p] for p in live),
                                tuple(tuple(b) for b in h.boards))
            if got is not None:
                values: list[float | None] = [None] * h.n
                for p, x in zip(live, got[0], strict=True):
                    values[p] = x
                eq = {"exact": got[1], "values": values,
                      "unknown": [p for p in live if known[p] is None]}
        nxt: dict[str, str] | None = None
        if h.actor is not None and h.phase is Phase.BETTING:
            for later in events[cut:]:
                if isinstance(later, ev.Acted):
                    nxt = words.event_line(h, later, pot_count).to_json()
                    break
        awarded = [0] * h.n
        for done in events[:cut]:
            if isinstance(done, ev.Awarded):
                awarded[done.player] += done.amount
        frames.append({
            "i": f,
            "event": ev.to_json(e) if e is not None else None,
            "text": (words.event_line(prev, e, pot_count) if e is not None
                     else words.hand_starts()).to_json(),
            "street": h.street,
            "phase": h.phase.value,
            "stacks": list(h.stacks),
            "bets": list(h.bets),
            "totals": list(h.totals),
            "folded": list(h.folded),
            "all_in": list(h.all_in),
            "mucked": sorted(h.mucked),
            "shown": sorted(h.shown),
            "boards": [[format_card(x) for x in b] for b in h.boards],
            "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in h.pots()],
            "pot_total": h.pot_total(),
            "returned": list(h.returned),
            "awarded": awarded,
            "rake": h.rake,
            "actor": h.actor if h.phase is Phase.BETTING else None,
            "legal": _legal_json(h),
            "next": nxt,
            "strength": strength,
            "equity": eq,
            "insurance": insurance_note(h, known) if equity else None,
        })
        prev = h
    result = breakdown(final)
    r = rules
    return {
        "title": title or (f"#{hand.hand_id}" if hand.hand_id else ""),
        "source": source,
        "hand_id": hand.hand_id,
        "game": words.describe_rules(r).to_json(),
        "decimals": r.decimals,
        "currency": r.currency,
        "money": words.money_format(r.decimals, r.currency),
        "big_blind": r.big_blind,
        "button": hand.button,
        "players": [{"name": hand.names[p], "seat": hand.seats[p], "start": stacks[p],
                     "cards": [format_card(x) for x in cards] if cards else None}
                    for p, cards in enumerate(known)],
        "frames": frames,
        "streets": streets,
        "result": result,
        "error": error.to_json() if error is not None else None,
        "partial": partial,
        "note": note.to_json() if note is not None else None,
        "share": share,
        "street_names": [[street_name(s, "en"), street_name(s, "es")] for s in range(4)],
        "mismatches": [],
    }


def timeline_of_record(record: HandRecord, *, title: str = "", equity: bool = True,
                       ) -> dict[str, Any]:
    """Replay a record through the engine and give its timeline; an illegal action gives the
    frames up to it and the engine's message."""
    check_record(record)
    res = replay(record, decisions=False)
    hand = res.engine
    if hand is None:
        raise ReplayInputError(res.error or Text("this hand cannot be replayed",
                                                 "esta mano no se puede reproducir"), 422)
    share = None
    if res.error is None:
        share = encode_hand(hand)
    out = timeline(hand, title=title or (f"#{record.hand_id}" if record.hand_id else ""),
                   source=record.source, error=res.error, partial=res.partial, note=res.note,
                   share=share, equity=equity)
    if record.extra.get("format") == "pokerstars" and res.error is None and hand.done:
        # what the file's own SUMMARY says that the engine does not reproduce (as the CLI does)
        from tapete.history.pokerstars import reconcile_text

        out["mismatches"] = [m.to_json() for m in reconcile_text(record, hand)]
    return out


# ---------------------------------------------------------------------------- shared links

def encode_hand(hand: Hand) -> str | None:
    """A shared link's code: the hand's PHH text, compressed, base64url ("p" + code); a hand
    PHH does not carry whole (a stated rake, a dead blind) travels as its setup and actions
    in JSON ("j" + code). Either way the link is refereed by the engine again when opened."""
    text = _phh_if_exact(hand)
    kind = "p"
    if text is None:
        text = json.dumps({"rules": _rules_json(hand.rules), "stacks": list(hand.starting_stacks),
                           "setup": {k: list(v) if isinstance(v, tuple) else v
                                     for k, v in _setup(hand).items()},
                           "steps": [list(x) for x in _steps(hand)]}, separators=(",", ":"))
        kind = "j"
    raw = zlib.compress(text.encode("utf-8"), 9)
    return kind + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _phh_if_exact(hand: Hand) -> str | None:
    """The PHH text of a hand when reading it back gives the same events, else None."""
    from tapete.history import phh

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
            verb = {ev.FOLD: "f", ev.CHECK: "cc", ev.CALL: "cc"}.get(e.action, "cbr")
            out.append(("act", e.player, verb, e.to) if verb == "cbr" else ("act", e.player, verb))
        elif isinstance(e, ev.Shown):
            out.append(("show", e.player, list(e.cards)))
        elif isinstance(e, ev.Mucked):
            out.append(("muck", e.player))
        elif isinstance(e, ev.RunsChosen):
            out.append(("runs", e.runs))
    return out


def _rules_json(rules: Any) -> dict[str, Any]:
    out: dict[str, Any] = rules.to_json()  # every field, the game included (Rules.to_json)
    return out


def _record_from_json(d: dict[str, Any]) -> HandRecord:
    from tapete.core.rules import Rules

    rules = Rules.from_json(d["rules"])
    setup = d["setup"]
    steps: list[tuple[Any, ...]] = []
    for st in d["steps"]:
        x = list(st)
        if x[0] in ("hole", "show") and x[2] is not None:
            x[2] = tuple(int(c) for c in x[2])
        elif x[0] == "board":
            x[1] = tuple(int(c) for c in x[1])
        steps.append(tuple(x))
    return HandRecord(rules=rules, stacks=[int(x) for x in d["stacks"]], steps=steps,
                      button=setup.get("button"), blinds=setup.get("blinds"),
                      antes=setup.get("antes"), dead=setup.get("dead"),
                      names=setup.get("names"), seats=setup.get("seats"),
                      hand_id=str(setup.get("hand_id") or ""), source="link")


_BAD_LINK = Text("this shared link is damaged or incomplete",
                 "este enlace compartido está dañado o incompleto")


def decode_link(code: str) -> dict[str, Any]:
    """The timeline of a shared link's code (raises :class:`ReplayInputError`)."""
    code = code.strip()
    if not code or len(code) > MAX_LINK or code[0] not in "pj":
        raise ReplayInputError(_BAD_LINK)
    try:
        raw = base64.urlsafe_b64decode(code[1:] + "=" * (-len(code[1:]) % 4))
        z = zlib.decompressobj()
        data = z.decompress(raw, MAX_INFLATED)
        if z.unconsumed_tail or not z.eof:
            raise ValueError("too long or truncated")
        text = data.decode("utf-8")
    except Exception:
        raise ReplayInputError(_BAD_LINK) from None
    if code[0] == "p":
        hands = parse_text(text, "link.phh")
        if len(hands) != 1 or hands[0][1] is None:
            msg = hands[0][2] if hands and hands[0][2] else _BAD_LINK
            raise ReplayInputError(msg)
        record = hands[0][1]
        return timeline_of_record(record)
    try:
        record = _record_from_json(json.loads(text))
    except Exception:
        raise ReplayInputError(_BAD_LINK) from None
    return timeline_of_record(record)


# ---------------------------------------------------------------------------- files

Parsed = tuple[str, HandRecord | None, Text | None]  # (label, record, error)


def parse_text(text: str, name: str = "") -> list[Parsed]:
    """The hands of a PHH or PokerStars text: (label, record or None, error or None)."""
    from tapete.history import phh, pokerstars

    _check_numbers(text)
    body = text.lstrip("\ufeff \t\r\n")
    low = name.lower()
    out: list[Parsed] = []
    if body.startswith("PokerStars") or (low.endswith(".txt") and "PokerStars" in body[:2000]):
        for item in pokerstars.read_text(text, name):
            if isinstance(item, HandRecord):
                out.append((item.hand_id, item, None))
            else:
                msg = item.message
                if not item.unsupported:
                    msg = Text(msg.en, f"no se puede leer la mano: {msg.es}")
                if item.line:
                    msg = Text(f"line {item.line}: ", f"línea {item.line}: ") + msg
                out.append((item.hand_id, None, msg))
            if len(out) >= MAX_LISTED:
                break
        return out
    if low.endswith((".phh", ".phhs")) or "variant" in body[:5000] or "actions" in body[:5000]:
        for h in phh.read_text(text, name):
            if h.record is None:
                err = h.error or phh.UNREADABLE
                out.append((h.hand, None, Text(err.en, f"mano ilegible: {err.es}")))
            else:
                out.append((h.hand or h.record.hand_id, h.record, None))
            if len(out) >= MAX_LISTED:
                break
        return out
    raise ReplayInputError(Text(
        "this is neither a PHH file nor a PokerStars hand history",
        "esto no es ni un archivo PHH ni un historial de manos de PokerStars"))


def file_timeline(text: str, name: str, index: int = 0) -> dict[str, Any]:
    """The hands of a file and the timeline of one of them (the first by default)."""
    hands = parse_text(text, name)
    if not hands:
        raise ReplayInputError(Text("no hand in this file", "no hay manos en este archivo"))
    listing: list[dict[str, Any]] = []
    for k, (label, record, err) in enumerate(hands):
        item: dict[str, Any] = {"index": k, "label": label or str(k + 1)}
        if record is not None:
            item["players"] = len(record.stacks)
        if err is not None:
            item["error"] = err.to_json()
        listing.append(item)
    if not 0 <= index < len(hands):
        index = 0
    label, record, err = hands[index]
    out: dict[str, Any] = {"name": name, "hands": listing, "selected": index}
    if record is None:
        out["timeline"] = None
        out["error"] = (err or Text("unreadable hand", "mano ilegible")).to_json()
    else:
        if not record.source:
            record.source = name
        out["timeline"] = timeline_of_record(record, title=f"{name} #{label or index + 1}")
    return out


def _decode_upload(data: bytes) -> str:
    from tapete.history.pokerstars import decode

    return decode(data)


# ---------------------------------------------------------------------------- the work
# (each job runs in a worker process and answers with its status and JSON text)

def _json(content: Any) -> bytes:
    """JSON text as Starlette's ``JSONResponse`` writes it."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


def _answer(make: Callable[[], dict[str, Any]], limit: int) -> tuple[int, bytes]:
    """The status and JSON text of what ``make`` gives, or of its refusal; an answer over
    ``limit`` bytes is refused."""
    try:
        body = _json(make())
    except ReplayInputError as exc:
        return exc.status, _json({"error": exc.message.to_json()})
    if len(body) > limit:
        size = f"{limit // 1048576} MB" if limit >= 1048576 else f"{limit} bytes"
        return 422, _json({"error": Text(
            f"this replay would be too large to send (more than {size})",
            f"esta reproducción sería demasiado grande para enviarla (más de {size})"
        ).to_json()})
    return 200, body


def upload_job(data: bytes, name: str, index: int, limit: int) -> tuple[int, bytes]:
    """An uploaded file: its hands and the timeline of one (``/api/replay/upload``)."""
    def make() -> dict[str, Any]:
        if not data.strip():
            raise ReplayInputError(Text("the file is empty", "el archivo está vacío"))
        return file_timeline(_decode_upload(data), name, index)

    return _answer(make, limit)


def file_job(text: str, name: str, index: int, limit: int) -> tuple[int, bytes]:
    """A preloaded file (``/api/replay/file/{key}``)."""
    return _answer(lambda: file_timeline(text, name, index), limit)


def link_job(data: bytes, limit: int) -> tuple[int, bytes]:
    """A shared link's code (``/api/replay/link``)."""
    return _answer(lambda: decode_link(data.decode("ascii", "replace")), limit)


def stored_job(row: HandRow, limit: int) -> tuple[int, bytes]:
    """A hand of the practice room's storage (``/api/replay/hand/{id}``)."""
    from tapete.server.app import rebuild

    def make() -> dict[str, Any]:
        hand = rebuild(row)
        return timeline(hand, title=f"#{row.number}", source="tapete",
                        share=encode_hand(hand), partial=not hand.done)

    return _answer(make, limit)


# ---------------------------------------------------------------------------- routes

PAGE = "replayer/index.html"
_FAILED = Text("the hand could not be replayed: ", "no se pudo reproducir la mano: ") \
    + work.INTERNAL
_FILE_TOO_LARGE = Text("the file is too large (8 MB at most)",
                       "el archivo es demasiado grande (8 MB como máximo)")
_LINK_TOO_LONG = Text("this shared link is too long", "este enlace compartido es demasiado largo")


def _error(message: Text, status: int) -> JSONResponse:
    return JSONResponse({"error": message.to_json()}, status_code=status)


def _guard(handler: Any, too_large: Text = _FILE_TOO_LARGE) -> Any:
    """Errors become a JSON message for the page, in words: never a traceback, nor the text of
    an exception (that goes to the log)."""
    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except ReplayInputError as exc:
            return _error(exc.message, exc.status)
        except work.BodyTooLarge:
            return work.error(too_large, 413, close=True)
        except (work.Busy, work.TooSlow, work.BodyTimeout, ClientDisconnect) as exc:
            return work.refusal(exc)
        except work.WorkerFailed as exc:
            log.error("replayer: %s failed in a worker: %s", request.url.path, exc)
        except Exception:
            log.exception("replayer: %s failed", request.url.path)
        return _error(_FAILED, 500)
    return wrapped


def _hand_index(request: Request) -> int:
    try:
        return int(request.query_params.get("hand", "0"))
    except ValueError:
        return 0


async def _in_worker(ticket: work.Ticket, job: Callable[..., tuple[int, bytes]], *args: Any
                     ) -> Response:
    status, body = await work.run(ticket, job, *args, MAX_RESPONSE, deadline=DEADLINE)
    return Response(body, status_code=status, media_type="application/json")


def routes() -> list[BaseRoute]:
    """The replayer's routes, for the practice room's app (``server/app.py``)."""
    from starlette.concurrency import run_in_threadpool

    from tapete.server.app import WEB_DIR

    async def page(request: Request) -> Response:
        resp = FileResponse(WEB_DIR / PAGE)
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def stored(request: Request) -> Response:
        storage = request.app.state.storage
        pid = request.session.get("pid")
        with work.admit() as ticket:
            row = await run_in_threadpool(storage.get_hand, pid,
                                          str(request.path_params["hand_id"])) \
                if isinstance(pid, str) else None
            if row is None:
                return _error(Text("no such hand among yours", "no hay tal mano entre las tuyas"),
                              404)
            return await _in_worker(ticket, stored_job, row)

    async def upload(request: Request) -> Response:
        with work.admit() as ticket:
            data = await work.read_body(request, MAX_UPLOAD)
            name = request.query_params.get("name", "upload")
            return await _in_worker(ticket, upload_job, data, name, _hand_index(request))

    async def link(request: Request) -> Response:
        with work.admit() as ticket:
            data = await work.read_body(request, MAX_LINK)
            return await _in_worker(ticket, link_job, data)

    async def preloaded(request: Request) -> Response:
        files: dict[str, tuple[str, str]] = getattr(request.app.state, "replay_files", {})
        got = files.get(str(request.path_params["key"]))
        if got is None:
            return _error(Text("this file is no longer loaded", "este archivo ya no está cargado"),
                          404)
        name, text = got
        with work.admit() as ticket:
            return await _in_worker(ticket, file_job, text, name, _hand_index(request))

    return [
        Route("/replay", page),
        Route("/replay/f/{key}", page),
        Route("/replay/{hand_id}", page),
        Route("/api/replay/hand/{hand_id}", _guard(stored)),
        Route("/api/replay/upload", _guard(upload), methods=["POST"]),
        Route("/api/replay/link", _guard(link, _LINK_TOO_LONG), methods=["POST"]),
        Route("/api/replay/file/{key}", _guard(preloaded)),
    ]


def preload(app: Any, name: str, text: str) -> str:
    """Keep a file's text in the app for ``/replay/f/{key}``; returns that path."""
    files: dict[str, tuple[str, str]] | None = getattr(app.state, "replay_files", None)
    if files is None:
        files = {}
        app.state.replay_files = files
    key = secrets.token_urlsafe(9)
    files[key] = (name, text)
    return f"/replay/f/{key}"


def open_files(paths: Sequence[str], *, port: int = 0, host: str = "127.0.0.1",
               browser: bool = True, data_dir: str | None = None) -> int:
    """``tapete replay FILE --open``: start the practice room's server on a free local port
    with the files loaded, open the browser on the first, serve until Ctrl+C."""
    import socket
    import sys

    import uvicorn

    app, urls = prepare(paths, data_dir=data_dir)
    if not urls:
        print("tapete: no file to open", file=sys.stderr)
        return 1
    if not port:
        with socket.socket() as s:
            s.bind((host, 0))
            port = int(s.getsockname()[1])
    base = f"http://{'localhost' if host == '127.0.0.1' else host}:{port}"
    for url in urls:
        print(f"tapete: replaying at {base}{url}  (Ctrl+C to stop)")
    if browser:
        _open_browser(base + urls[0])
    uvicorn.run(app, host=host, port=port, log_level="warning",
                **app.state.settings.limits.uvicorn_options())
    return 0


def _open_browser(url: str) -> None:
    import threading
    import webbrowser

    threading.Timer(1.0, webbrowser.open, args=(url,)).start()


def prepare(paths: Sequence[str], *, data_dir: str | None = None) -> tuple[Any, list[str]]:
    """The app with the files preloaded, and the page path of each file."""
    import os
    import sys
    from pathlib import Path

    from tapete.server.app import create_app
    from tapete.server.config import Settings

    settings = Settings(data_dir=Path(data_dir)) if data_dir else Settings()
    app = create_app(settings)
    urls: list[str] = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            print(f"tapete: cannot read {path}: {exc}", file=sys.stderr)
            continue
        urls.append(preload(app, os.path.basename(path), _decode_upload(data)))
    return app, urls
