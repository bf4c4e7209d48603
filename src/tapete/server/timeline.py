"""A hand as the web replayer shows it: a timeline of frames, built in one pass over its events.

:func:`timeline` turns a hand into frames, one per event (the hole cards dealt to every player
are one frame): stacks, bets, the pots with side pots and who may win them, the board(s), who
is to act, the legal options and why (English and Spanish), each known hand's strength, and
each live player's equity. Equity is exact when every live player's cards are known (the
record's shown cards count from the deal), else against any two cards for the unknown hands
(Monte Carlo, seeded); it is computed once per board and set of live players and cached.
The final frame carries the pot breakdown in words.

The frames are the models of :mod:`.replay_protocol` (:func:`timeline_answer`,
:func:`record_answer`, :func:`file_answer`: what the routes encode and send); :func:`timeline`,
:func:`timeline_of_record` and :func:`file_timeline` give the same as plain JSON values.

Every state comes from the engine: one hand is folded over the events
(:meth:`Hand.apply_unchecked`, the fold :meth:`Hand.from_events` uses) and each frame reads it
as it stands after its event, so the pots and legal ranges shown are the engine's own and the
cost grows with the hand's length, not its square (``benchmarks/bench_timeline.py``).

Pure: no I/O, no clock; the routes that serve it are :mod:`tapete.server.replayer`. The inputs
are bounded here (``MAX_EVENTS`` events; amounts of ``work.MAX_DIGITS`` digits; numbers of
``MAX_NUMBER`` digits in a file; ``MAX_LISTED`` hands listed from one file).
"""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache
from typing import Any

import msgspec

from tapete import words
from tapete.core import events as ev
from tapete.core.cards import Card, format_card
from tapete.core.catalog import N_, t
from tapete.core.game import HOLDEM, Game
from tapete.core.hand import Hand, Phase, street_name
from tapete.core.text import Text
from tapete.history.formats import POKERSTARS, Read, detect, read_any
from tapete.history.phh import verify_record
from tapete.history.record import HandRecord
from tapete.history.replay import replay
from tapete.server import replay_protocol as rp
from tapete.server import sharelink
from tapete.server.analysis import insurance_note
from tapete.server.protocol import Money, Words
from tapete.server.replay_protocol import said
from tapete.server.work import MAX_DIGITS

MAX_LISTED = 5000  # hands listed from one file
MAX_EVENTS = 1500  # events of one hand
MAX_NUMBER = 100  # digits of a number anywhere in a file (more is refused before reading it)
EQUITY_SAMPLES = 20_000
EQUITY_SEED = 7


class ReplayInputError(ValueError):
    """Input that is not a hand we can replay: the message is for the page, in both languages."""

    def __init__(self, message: Text, status: int = 400) -> None:
        super().__init__(message.en)
        self.message = message
        self.status = status


_LONG_NUMBER = re.compile(r"(?:\d[,.]?){" + str(MAX_NUMBER + 1) + "}")


def check_numbers(text: str) -> None:
    """No number of more than ``MAX_NUMBER`` digits (separators aside) in a file's text: the
    readers are not asked to turn one into an amount."""
    if _LONG_NUMBER.search(text):
        raise ReplayInputError(t("this file has a number of more than {most} digits: the replayer"
                                 " takes amounts of up to {digits} digits", most=MAX_NUMBER,
                                 digits=MAX_DIGITS), 422)


def check_record(record: HandRecord) -> None:
    """A record the replayer takes: every amount of at most ``MAX_DIGITS`` digits, and no
    more actions than ``MAX_EVENTS`` (each action is at least one event)."""
    if len(record.steps) > MAX_EVENTS:
        raise ReplayInputError(t("this hand has too many actions to replay ({count})",
                                 count=str(len(record.steps))), 413)
    amounts: list[object] = [*record.stacks, *(record.blinds or ()), *(record.antes or ()),
                             *(record.dead or ()), *(record.finishing_stacks or ()),
                             *(record.stated_pots or ()), record.stated_rake]
    for f in dataclasses.fields(record.rules):
        v = getattr(record.rules, f.name)
        amounts.extend(v if isinstance(v, tuple) else (v,))
    for step in record.steps:  # ("act", player, Action(kind, to)): the amount is one deeper
        for part in step:
            amounts.extend(part if isinstance(part, tuple) else (part,))
    limit = 10 ** MAX_DIGITS
    if any(type(x) is int and not -limit < x < limit for x in amounts):
        raise ReplayInputError(t("an amount in this hand has more than {digits} digits: the"
                                 " replayer takes amounts of up to {digits} digits",
                                 digits=MAX_DIGITS), 422)


# ---------------------------------------------------------------------------- equity

@lru_cache(maxsize=4096)
def street_equity(hands: tuple[tuple[Card, ...] | None, ...],
                  boards: tuple[tuple[Card, ...], ...],
                  game: Game = HOLDEM) -> tuple[tuple[float, ...], bool] | None:
    """Each hand's share of the pot (averaged over the boards of a run-it-more-than-once),
    and whether it is exact. ``None`` hands are unknown: any hand of the game (a seeded
    Monte Carlo then); in Omaha's hi-lo a share counts each half won. Cached: a street's
    figure is computed once, whatever the number of frames that show it."""
    from tapete.eval.equity import EquityError, equity
    from tapete.eval.omaha import omaha_equity, omaha_hilo_equity

    if len(hands) < 2 or len(hands) > 9 or all(h is None for h in hands) or \
            any(h is not None and len(h) != game.hole_cards for h in hands):
        return None
    specs: list[Any] = [h if h is not None else "random" for h in hands]
    known = all(h is not None for h in hands)

    def one(board: tuple[Card, ...]) -> tuple[list[float], bool]:
        if game == HOLDEM:
            res = equity(specs, board, exact=None if known else False,
                         samples=EQUITY_SAMPLES, seed=EQUITY_SEED)
            return [p.equity for p in res.players], res.exact
        if game.high_low:
            hilo = omaha_hilo_equity(specs, board, samples=EQUITY_SAMPLES, seed=EQUITY_SEED)
            return [p.equity for p in hilo.players], hilo.exact
        high = omaha_equity(specs, board, samples=EQUITY_SAMPLES, seed=EQUITY_SEED)
        return [p.equity for p in high.players], high.exact

    total = [0.0] * len(hands)
    exact = True
    try:
        for board in boards:
            shares, board_exact = one(board)
            exact = exact and board_exact
            for i, x in enumerate(shares):
                total[i] += x
    except EquityError:
        return None
    return tuple(x / len(boards) for x in total), exact


# ---------------------------------------------------------------------------- the timeline

def _plain(answer: msgspec.Struct) -> dict[str, Any]:
    """An answer as the JSON values it is sent as (dicts, lists: a pair is a list too)."""
    out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(answer))
    return out


def _known_cards(hand: Hand) -> list[tuple[Card, ...] | None]:
    """Every player's cards as the whole record knows them (dealt face up, or shown later)."""
    known: list[tuple[Card, ...] | None] = [None] * hand.n
    for e in hand.events:
        if isinstance(e, (ev.HoleDealt, ev.Shown)) and e.cards is not None:
            known[e.player] = tuple(e.cards)
    return known


def breakdown(hand: Hand) -> dict[str, Any] | None:
    """:func:`breakdown_answer` as plain JSON values."""
    out = breakdown_answer(hand)
    return None if out is None else _plain(out)


def breakdown_answer(hand: Hand) -> rp.Breakdown | None:
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
    items: list[rp.BreakdownPot | rp.BreakdownReturn] = []
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
        items.append(rp.BreakdownPot(index=i, amount=amount, rake=rk, eligible=eligible,
                                     winners=winners, shares=sorted(won.items()),
                                     text=said(text)))
    for e in hand.events:
        if isinstance(e, ev.Returned):
            text = words.returned(hand, e.player, e.amount)
            parts.append(text)
            items.append(rp.BreakdownReturn(player=e.player, amount=e.amount,
                                            text=said(text)))
    return rp.Breakdown(items=items, text=said(words.sentences(parts)), rake=sum(rake.values()))


def _legal(h: Hand) -> rp.FrameLegal | None:
    if h.phase is not Phase.BETTING or h.actor is None:
        return None
    lg = h.legal()
    if lg.min_to is None:
        why = [lg.explain_no_raise()]
    elif lg.min_to == lg.max_to:
        why = [lg.explain_min()]
    else:
        why = [lg.explain_min(), lg.explain_max()]
    return rp.FrameLegal(
        player=lg.player, fold=lg.fold, check=lg.check, call=lg.call, call_to=lg.call_to,
        call_all_in=lg.call_all_in, min_to=lg.min_to, max_to=lg.max_to, is_bet=lg.is_bet,
        summary=said(lg.summary()), why=[said(x) for x in why])


def timeline(hand: Hand, *, title: str = "", source: str = "", error: Text | None = None,
             partial: bool = False, note: Text | None = None,
             share: str | None = None, equity: bool = True) -> dict[str, Any]:
    """:func:`timeline_answer` as plain JSON values."""
    return _plain(timeline_answer(hand, title=title, source=source, error=error,
                                  partial=partial, note=note, share=share, equity=equity))


def timeline_answer(hand: Hand, *, title: str = "", source: str = "",
                    error: Text | None = None, partial: bool = False, note: Text | None = None,
                    share: str | None = None, equity: bool = True) -> rp.Timeline:
    """The frames of a hand (finished, partial, or stopped by an illegal action)."""
    setup = hand.setup  # the one codec's fields: the bomb, the two boards, the straddles...
    rules, stacks, args = setup.rules, setup.stacks, setup.hand_args()
    events = list(hand.events)
    if len(events) > MAX_EVENTS:
        raise ReplayInputError(t("this hand has too many events to replay ({count})",
                                 count=str(len(events))), 413)
    known = _known_cards(hand)
    final = Hand.from_events(rules, stacks, events, **args)
    pot_count = len(final.pots())
    # the next action after each event (what the player to act did), from the end: one pass
    following: list[ev.Acted | None] = [None] * (len(events) + 1)
    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        following[k] = e if isinstance(e, ev.Acted) else following[k + 1]
    frames: list[rp.Frame] = []
    streets: list[int | None] = [0, None, None, None]
    h = Hand.from_events(rules, stacks, [], **args)  # folded on, one event at a time
    awarded = [0] * h.n
    text = words.hand_starts()
    last: ev.Event | None = None
    for cut in range(len(events) + 1):
        if cut:
            e = last = events[cut - 1]
            # the hole cards of every player are one frame: its line is the last one's
            grouped = isinstance(e, ev.HoleDealt) and cut < len(events) \
                and isinstance(events[cut], ev.HoleDealt)
            if not grouped:
                text = words.event_line(h, e, pot_count)  # the state before the event
            h.apply_unchecked(e)
            if isinstance(e, ev.Awarded):
                awarded[e.player] += e.amount
            if grouped:
                continue
        f = len(frames)
        if isinstance(last, ev.BoardDealt) and last.run == 0 \
                and streets[min(last.street, 3)] is None:
            streets[min(last.street, 3)] = f
        frames.append(_frame(h, f, last, text, known, following[cut], pot_count, awarded, equity))
    r = rules
    return rp.Timeline(
        title=title or (f"#{hand.hand_id}" if hand.hand_id else ""),
        source=source,
        hand_id=hand.hand_id,
        game=said(words.describe_rules(r)),
        decimals=r.decimals,
        currency=r.currency,
        money=msgspec.convert(words.money_format(r.decimals, r.currency), Money),
        big_blind=r.big_blind,
        button=hand.button,
        players=[rp.ReplayPlayer(name=hand.names[p], seat=hand.seats[p], start=stacks[p],
                                 cards=[format_card(x) for x in cards] if cards else None)
                 for p, cards in enumerate(known)],
        frames=frames,
        streets=streets,
        result=breakdown_answer(final),
        error=said(error) if error is not None else None,
        partial=partial,
        note=said(note) if note is not None else None,
        share=share,
        street_names=[(street_name(s, "en"), street_name(s, "es")) for s in range(4)],
        mismatches=[],
    )


def _frame(h: Hand, f: int, e: ev.Event | None, text: Text,
           known: list[tuple[Card, ...] | None], upcoming: ev.Acted | None, pot_count: int,
           awarded: list[int], equity: bool) -> rp.Frame:
    """One frame: the hand ``h`` as it stands after event ``e`` (None: before any)."""
    live = [p for p in range(h.n) if not h.folded[p] and p not in h.mucked]
    strength: list[Words | None] = []
    for p in range(h.n):
        cards = known[p]
        if cards is None or h.folded[p]:
            strength.append(None)
        elif len(h.boards[0]) >= 3:
            strength.append(said(words.strength(cards, h.boards, h.rules.game)))
        else:
            name = words.preflop_name(cards)
            strength.append(Words(name, name))
    eq: rp.FrameEquity | None = None
    if equity and len(live) >= 2 and h.phase is not Phase.DONE:
        got = street_equity(tuple(known[p] for p in live), tuple(tuple(b) for b in h.boards),
                            h.rules.game)
        if got is not None:
            values: list[float | None] = [None] * h.n
            for p, x in zip(live, got[0], strict=True):
                values[p] = x
            eq = rp.FrameEquity(exact=got[1], values=values,
                                unknown=[p for p in live if known[p] is None])
    betting = h.actor is not None and h.phase is Phase.BETTING
    nxt = said(words.event_line(h, upcoming, pot_count)) \
        if betting and upcoming is not None else None
    return rp.Frame(
        i=f,
        event=rp.event(e) if e is not None else None,
        text=said(text),
        street=h.street,
        phase=h.phase.value,
        stacks=list(h.stacks),
        bets=list(h.bets),
        totals=list(h.totals),
        folded=list(h.folded),
        all_in=list(h.all_in),
        mucked=sorted(h.mucked),
        shown=sorted(h.shown),
        boards=[[format_card(x) for x in b] for b in h.boards],
        pots=[rp.FramePot(amount=p.amount, eligible=list(p.eligible)) for p in h.pots()],
        pot_total=h.pot_total(),
        returned=list(h.returned),
        awarded=list(awarded),
        rake=h.rake,
        actor=h.actor if h.phase is Phase.BETTING else None,
        legal=_legal(h),
        next=nxt,
        strength=strength,
        equity=eq,
        insurance=insurance_note(h, known) if equity else None,
    )


def timeline_of_record(record: HandRecord, *, title: str = "", equity: bool = True,
                       ) -> dict[str, Any]:
    """:func:`record_answer` as plain JSON values."""
    return _plain(record_answer(record, title=title, equity=equity))


def record_answer(record: HandRecord, *, title: str = "", equity: bool = True) -> rp.Timeline:
    """Replay a record through the engine and give its timeline; an illegal action gives the
    frames up to it and the engine's message."""
    check_record(record)
    res = replay(record, decisions=False)
    hand = res.engine
    if hand is None:
        raise ReplayInputError(res.error or t("this hand cannot be replayed"), 422)
    share = None
    if res.error is None:
        share = sharelink.encode(hand)
    out = timeline_answer(hand, title=title or (f"#{record.hand_id}" if record.hand_id else ""),
                          source=record.source, error=res.error, partial=res.partial,
                          note=res.note, share=share, equity=equity)
    if record.extra.get("format") == POKERSTARS and res.error is None and hand.done:
        # what the file's own SUMMARY says that the engine does not reproduce (as the CLI does)
        from tapete.history.pokerstars import reconcile_text

        out.mismatches = [said(m) for m in reconcile_text(record, hand)]
    out.fairness = rp.fairness(verify_record(record, hand, res.error))  # dealt as committed?
    return out


# ---------------------------------------------------------------------------- files

Parsed = tuple[str, HandRecord | None, Text | None]  # (label, record, error)


def parse_text(text: str, name: str = "") -> list[Parsed]:
    """The hands of a PHH or PokerStars text, read by :func:`tapete.history.formats.read_any`
    (which finds the format): (label, record or None, error or None), ``MAX_LISTED`` at most."""
    check_numbers(text)
    found = read_any(text, name=name or "upload")
    if len(found) == 1 and found[0].whole_file:
        raise ReplayInputError(found[0].error or t(_NEITHER))
    if not any(item.ok for item in found) and not detect(text) \
            and not name.lower().endswith((".phh", ".phhs")):
        raise ReplayInputError(t(_NEITHER))  # only a ".txt" made it look like a hand history
    return [_parsed(item) for item in found[:MAX_LISTED]]


_NEITHER = N_("this is neither a PHH file nor a PokerStars hand history")


def _parsed(item: Read) -> Parsed:
    if item.record is not None:
        return item.label or item.record.hand_id, item.record, None
    return item.label, None, item.problem(located=True)


def file_timeline(text: str, name: str, index: int = 0) -> dict[str, Any]:
    """:func:`file_answer` as plain JSON values."""
    return _plain(file_answer(text, name, index))


def file_answer(text: str, name: str, index: int = 0) -> rp.FileAnswer:
    """The hands of a file and the timeline of one of them (the first by default)."""
    hands = parse_text(text, name)
    if not hands:
        raise ReplayInputError(t("no hand in this file"))
    listing = [rp.ListedHand(index=k, label=label or str(k + 1),
                             players=len(record.stacks) if record is not None else msgspec.UNSET,
                             error=said(err) if err is not None else msgspec.UNSET)
               for k, (label, record, err) in enumerate(hands)]
    if not 0 <= index < len(hands):
        index = 0
    label, record, err = hands[index]
    if record is None:
        return rp.FileAnswer(name=name, hands=listing, selected=index, timeline=None,
                             error=said(err or t("unreadable hand")))
    if not record.source:
        record.source = name
    return rp.FileAnswer(name=name, hands=listing, selected=index,
                         timeline=record_answer(record, title=f"{name} #{label or index + 1}"))
