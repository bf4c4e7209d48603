"""PokerStars text hand histories: read them into :class:`HandRecord`, write any hand as one.

Reading
    :func:`read_file` / :func:`read_text` yield, hand by hand, a
    :class:`~tapete.history.record.HandRecord` or a :class:`ParseError` (a hand that cannot be
    read, or a game tapete does not play yet, such as stud or Courchevel: ``error.unsupported``
    is then True). The games read are hold'em, Omaha (``Omaha Pot Limit``), Omaha hi-lo
    (``Omaha Hi/Lo Pot Limit``, ``Omaha Hi/Lo Limit``) and their five-card forms (``5 Card
    Omaha``), of any structure the header names (``rules.game``). Files may be UTF-8 with or
    without a BOM, or cp1252; CRLF or LF; one hand or many. Cash games (``$``, ``€``, ``£``:
    amounts in cents, ``Rules.decimals == 2``), play money and tournaments (chips,
    ``decimals == 0``); the old ``PokerStars Game #`` and the newer ``PokerStars Hand #``
    headers; antes, blinds posted all-in, dead blinds (``posts small &
    big blinds``), straddles and re-straddles (``posts straddle``, kept in
    ``record.straddles`` and written back so), uncalled bets, side pots, rake, run it twice
    (or three or four times), cap games, and the home games' bomb pots, double boards and 7-2
    bounty, which PokerStars has no words for, in lines of tapete's own (see the end of this
    module).

    The record keeps what the file says about the settlement: ``stated_pots`` (after rake, main
    pot first), ``stated_rake``, and in ``extra``: ``total_pot``, ``collected`` and ``returned``
    (per player), ``collected_by_pot`` and ``collected_lines`` (each ``collected`` line: in a
    high-low game PokerStars writes one for each half of a pot, so :func:`reconcile` checks
    the halves with them). The rake is a fact of the hand, so ``record.rules.rake_fixed``
    holds it pot by pot and the engine takes exactly that. A record is replayed as every record is
    (:func:`tapete.history.replay.replay`; :func:`tapete.history.formats.replay_any` reads a
    file and replays it) and :func:`reconcile` lists every figure of the file's SUMMARY the
    replay does not reproduce, with both figures.

    Rules read from the file: the structure and blinds of the header; fixed-limit bets from the
    header's stakes; pot-limit raises by the previous raise (PokerStars), not the room's rule;
    the fixed-limit cap of four bets, lifted heads-up. A cap game (``$80 Cap``) keeps the
    real stacks and plays the cap as the table's rule (:attr:`~tapete.core.rules.Rules.hand_cap`,
    also ``extra["cap"]``): a player who reaches it is all-in with the rest behind.

Writing
    :func:`write_hand` turns a finished (or unfinished) :class:`~tapete.core.hand.Hand` into the
    text trackers import: header, seats, posts, ``Dealt to`` lines for every known hand,
    streets, ``raises X to Y``, uncalled bets, showdown, ``collected``, and the SUMMARY with
    total pot, main and side pots, rake, board(s) and one line per seat. A high-low hand is
    written as PokerStars writes one: a ``collected`` line for each half of each pot, and
    each shown hand as ``HI: ...; LO: 8,5,4,2,A`` (``HI:`` alone without a qualifying low).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import CardError, format_cards, parse_cards
from tapete.core.catalog import N_, t, tc
from tapete.core.game import (
    HOLDEM,
    OMAHA,
    OMAHA5,
    OMAHA5_HI_LO,
    OMAHA_HI_LO,
    Game,
    best_hand,
    best_low,
)
from tapete.core.hand import Hand, PotResult
from tapete.core.pots import build_pots, dead_money
from tapete.core.rules import MinRaise, Rules, RulesError, Structure
from tapete.core.text import Text
from tapete.history.phh import (
    MAX_DIGITS,
    card_problem,
    file_problem,
    rules_problem,
    too_many_digits,
)
from tapete.history.record import CALL, CHECK, FOLD, HandRecord, Step, acted, bounty_mismatch

__all__ = ["ParseError", "read_file", "read_text", "read_bytes", "reconcile", "reconcile_text",
           "write_hand", "write_hands", "join_hands", "NO_HERO", "format_amount", "parse_amount"]


@dataclass(frozen=True, slots=True)
class ParseError:
    """A hand that could not be read (``unsupported``: a game tapete does not play yet).

    ``message`` (also ``error``) says why in English and Spanish; ``str()`` is the English
    with the file, line and hand."""

    source: str
    hand_id: str
    message: Text
    line: int = 0
    unsupported: bool = False
    record: None = None

    @property
    def error(self) -> Text:
        return self.message

    @property
    def label(self) -> str:
        return self.hand_id

    def in_lang(self, lang: str) -> str:
        """The message with its line (``line 12: ...``) in ``lang``."""
        return self.located().in_lang(lang)

    def located(self) -> Text:
        """The message with its line, in both languages."""
        if not self.line:
            return self.message
        return t("line {line}: {why}", line=str(self.line), why=self.message)

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        hand = f" hand {self.hand_id}" if self.hand_id else ""
        return f"{where}{hand}: {self.message.en}"


class _Bad(Exception):
    def __init__(self, message: Text, line: int = 0, unsupported: bool = False) -> None:
        super().__init__(message.en)
        self.message = message
        self.line = line
        self.unsupported = unsupported


# ---------------------------------------------------------------------------- decoding

def read_bytes(data: bytes, source: str = "") -> Iterator[HandRecord | ParseError]:
    return read_text(decode(data), source)


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), else cp1252, else Latin-1; line ends normalised to LF."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16").replace("\r\n", "\n").replace("\r", "\n")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


def read_file(path: str) -> Iterator[HandRecord | ParseError]:
    """Every hand of a PokerStars text file, in order: a record, or the error of that hand."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        yield ParseError(path, "", file_problem(exc))
        return
    yield from read_bytes(data, path)


_START = re.compile(r"^\ufeff?PokerStars\b.*?\b(?:Hand|Game) #(\d+)")


def split_hands(text: str) -> Iterator[tuple[int, list[str]]]:
    """(first line number, lines) of each hand of a text."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff").split("\n")
    start = -1
    for i, line in enumerate(lines):
        if _START.match(line):
            if start >= 0:
                yield start + 1, _trim(lines[start:i])
            start = i
    if start >= 0:
        yield start + 1, _trim(lines[start:])


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_text(text: str, source: str = "") -> Iterator[HandRecord | ParseError]:
    """Every hand of a text: a :class:`HandRecord`, or a :class:`ParseError` for that hand."""
    found = False
    for first, lines in split_hands(text):
        found = True
        m = _START.match(lines[0])
        hand_id = m.group(1) if m else ""
        try:
            yield _parse_hand(lines, first, source, hand_id)
        except _Bad as exc:
            yield ParseError(source, hand_id, exc.message, exc.line, exc.unsupported)
    if not found:
        yield ParseError(source, "", t("no PokerStars hand in this text"))


# ---------------------------------------------------------------------------- amounts

_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}
_CODES = {v: k for k, v in _SYMBOLS.items()}
_AMOUNT = r"[$€£¥₹]?\d[\d,]*(?:\.\d+)?"


def parse_amount(text: str, decimals: int) -> int:
    """``"$1,234.50"`` -> 123450 at 2 decimals; exact (never through floats). An amount of
    more than :data:`~tapete.history.phh.MAX_DIGITS` digits is refused."""
    s = text.strip().lstrip("$€£¥₹").replace(",", "").strip()
    if len(s) > MAX_DIGITS + 1:  # the decimal point aside
        raise _Bad(too_many_digits())
    scale = int(10**decimals)
    if s.isdigit():
        return int(s) * scale
    whole, dot, frac = s.partition(".")
    if dot and whole.isdigit() and frac.isdigit() and len(frac) <= decimals:
        return int(whole) * scale + int(frac.ljust(decimals, "0"))
    try:
        value = Decimal(s) * (10 ** decimals)
    except InvalidOperation:
        raise _Bad(t("not an amount: {text}", text=repr(text))) from None
    if value != value.to_integral_value():
        raise _Bad(t("{text} is finer than the table's smallest unit", text=repr(text)))
    return int(value)


def format_amount(amount: int, decimals: int, currency: str = "") -> str:
    """123450 at 2 decimals with ``$`` -> ``"$1234.50"`` (PokerStars writes no thousands
    separator; whole amounts in cash games as ``$5``, as PokerStars does)."""
    sign = "-" if amount < 0 else ""
    a = abs(amount)
    if decimals:
        whole, frac = divmod(a, 10**decimals)
        s = str(whole) if frac == 0 else f"{whole}.{str(frac).rjust(decimals, '0')}"
    else:
        s = str(a)
    return f"{sign}{currency}{s}"


# ---------------------------------------------------------------------------- parsing

_GAME = re.compile(r"(Hold'em|Omaha Hi/Lo|Omaha|5 Card Omaha Hi/Lo|5 Card Omaha|Courchevel"
                   r"|Courchevel Hi/Lo|7 Card Stud Hi/Lo|7 Card Stud|Razz|5 Card Draw"
                   r"|Triple Draw 2-7 Lowball|Single Draw 2-7 Lowball|Badugi)\s+"
                   r"(No Limit|Pot Limit|Fixed Limit|Limit)\b")
#: the games of the header tapete plays, and the header's name of each
_GAMES_READ: dict[str, Game] = {"Hold'em": HOLDEM, "Omaha": OMAHA, "Omaha Hi/Lo": OMAHA_HI_LO,
                                "5 Card Omaha": OMAHA5, "5 Card Omaha Hi/Lo": OMAHA5_HI_LO}
_GAME_NAMES: dict[Game, str] = {g: name for name, g in _GAMES_READ.items()}
_SEAT = re.compile(r"^Seat (\d+): (.+?) \((" + _AMOUNT + r") in chips[^)]*\)(.*)$")
_BUTTON = re.compile(r"Seat #(\d+) is the button")
_TABLE = re.compile(r"^Table '(.*)' (\d+)-max")
_STREET = re.compile(r"^\*\*\* (?:(FIRST|SECOND|THIRD|FOURTH) )?(FLOP|TURN|RIVER) \*\*\*(.*)$")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_UNCALLED = re.compile(r"^Uncalled bet \((" + _AMOUNT + r")\) returned to (.+)$")
_COLLECTED = re.compile(r"^(.+?) collected (" + _AMOUNT + r") from (?:the )?"
                        r"(pot|main pot|side pot(?:-\d+)?)\s*$")
_TOTAL = re.compile(r"^Total pot (" + _AMOUNT + r")")
_POTS = re.compile(r"(Main pot|Side pot(?:-\d+)?) (" + _AMOUNT + r")")
_RAKE = re.compile(r"\| Rake (" + _AMOUNT + r")")
_SUMMARY_CARDS = re.compile(r"^Seat \d+: (.+?) (?:\([^)]*\) )*(?:showed|mucked) \[([^\]]*)\]")
_ALLIN = " and is all-in"
_IGNORED_VERBS = ("sits out", "is sitting out", "sitting out", "doesn't show hand",
                  "is disconnected", "is connected", "has returned", "has timed out",
                  "timed out", "leaves the table", "is away", "said,", "stands pat",
                  "discards", "re-buys", "adds", "cashed out", "was removed")


@dataclass(slots=True)
class _Player:
    seat: int
    name: str
    stack: int


_CARDS_SEEN: dict[str, tuple[int, ...]] = {}


def _cards(text: str, line: int) -> tuple[int, ...]:
    cards = _CARDS_SEEN.get(text)
    if cards is not None:
        return cards
    try:
        cards = parse_cards(text)
    except CardError as exc:
        raise _Bad(card_problem(exc, text), line) from None
    if len(_CARDS_SEEN) < 100_000:
        _CARDS_SEEN[text] = cards
    return cards


def _header(line: str, lineno: int) -> dict[str, Any]:
    try:
        return _read_header(line, lineno)
    except _Bad as exc:
        raise _Bad(exc.message, exc.line or lineno, exc.unsupported) from None


def _read_header(line: str, lineno: int) -> dict[str, Any]:
    head: dict[str, Any] = {}
    tm = re.search(r"Tournament #(\d+),?\s*([^H]*?)\s*(?=Hold'em|Omaha|\d Card|Razz|Badugi|"
                   r"Courchevel|Triple|Single|HORSE|8-Game|Mixed)", line)
    head["tournament"] = tm.group(1) if tm else ""
    head["buy_in"] = tm.group(2).strip() if tm else ""
    m = _GAME.search(line)
    if m is None:
        game = line.split(":", 1)[-1].split(" - ")[0].strip()
        raise _Bad(t("{game} is not supported yet (tapete plays hold'em and Omaha)", game=game)
                   if game else t("this game is not supported yet (tapete plays hold'em and "
                                  "Omaha)"),
                   lineno, unsupported=True)
    game, limit = m.group(1), m.group(2)
    played = _GAMES_READ.get(game)
    if played is None:
        raise _Bad(t("{game} {limit} is not supported yet (tapete plays hold'em and Omaha)",
                     game=game, limit=limit),
                   lineno, unsupported=True)
    head["game"] = played
    head["structure"] = {"No Limit": Structure.NO_LIMIT, "Pot Limit": Structure.POT_LIMIT,
                         "Limit": Structure.FIXED_LIMIT,
                         "Fixed Limit": Structure.FIXED_LIMIT}[limit]
    rest = line[m.end():]
    sm = re.search(r"\(([^()]*/[^()]*)\)", rest)
    if sm is None:
        sm = re.search(r"\(([^()]*/[^()]*)\)", line)
    if sm is None:
        raise _Bad(t("the header gives no stakes"), lineno)
    stakes = sm.group(1)
    amounts = re.findall(_AMOUNT, stakes)
    if len(amounts) < 2:
        raise _Bad(t("cannot read the stakes {stakes}", stakes=repr(stakes)), lineno)
    currency = ""
    for a in amounts[:2]:
        if a[0] in _SYMBOLS:
            currency = a[0]
    code = re.search(r"\b(USD|EUR|GBP|CNY|INR)\b", stakes)
    if not currency and code and not head["tournament"]:
        currency = _CODES[code.group(1)]
    decimals = 2 if currency else 0
    if not currency and any("." in a for a in amounts[:2]):
        decimals = 2
    head["currency"] = currency
    head["decimals"] = decimals
    head["stakes"] = (parse_amount(amounts[0], decimals), parse_amount(amounts[1], decimals))
    cap = re.search(r"(" + _AMOUNT + r") Cap", stakes)
    head["cap"] = parse_amount(cap.group(1), decimals) if cap else None
    dm = re.search(r" - (\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d.*)$", line)
    head["date"] = dm.group(1).strip() if dm else ""
    return head


def _whole(digits: str, lineno: int) -> int:
    """A seat or table number of a line (``\\d+``), refusing absurd digit counts."""
    if len(digits) > MAX_DIGITS:
        raise _Bad(too_many_digits(), lineno)
    return int(digits)


def _parse_hand(lines: list[str], first: int, source: str, hand_id: str) -> HandRecord:
    if len(hand_id) > MAX_DIGITS:
        raise _Bad(too_many_digits(), first)
    head = _header(lines[0], first)
    decimals: int = head["decimals"]
    game: Game = head["game"]

    def amt(text: str, lineno: int) -> int:
        try:
            return parse_amount(text, decimals)
        except _Bad as exc:
            raise _Bad(exc.message, lineno) from None

    table = ""
    table_max = 0
    button_seat = -1
    players: list[_Player] = []
    i = 1
    # table line and seats
    while i < len(lines):
        line = lines[i].rstrip()
        lineno = first + i
        tm = _TABLE.match(line)
        if tm:
            table, table_max = tm.group(1), _whole(tm.group(2), lineno)
        bm = _BUTTON.search(line)
        if bm and line.startswith("Table"):
            button_seat = _whole(bm.group(1), lineno)
            i += 1
            continue
        sm = _SEAT.match(line)
        if sm:
            tail = sm.group(4).strip()
            stack = amt(sm.group(3), lineno)
            if "sitting out" not in tail and "out of hand" not in tail and stack > 0:
                players.append(_Player(_whole(sm.group(1), lineno), sm.group(2), stack))
            i += 1
            continue
        if line.startswith("Table") or not line.strip():
            i += 1
            continue
        break
    n = len(players)
    if n < 2:
        raise _Bad(t("{n} player(s) dealt in: a hand needs two", n=n), first)
    index = {p.name: k for k, p in enumerate(players)}
    names_by_length = sorted(index, key=len, reverse=True)
    # with no ": " inside a name, "name: ..." is found by one lookup
    simple = not any(": " in x for x in index)

    def who(line: str) -> tuple[int, str] | None:
        """The seated player a line starts with (``name: ...`` or ``name ...``), longest
        name first, and the rest of the line."""
        if simple:
            k = line.find(": ")
            if k > 0:
                p = index.get(line[:k])
                if p is not None:
                    return p, line[k + 2:]
        for name in names_by_length:
            if line.startswith(name) and len(line) > len(name) and line[len(name)] in ": ":
                rest = line[len(name):]
                return index[name], rest[2:] if rest.startswith(": ") else rest.lstrip(" :")
        return None

    # button index: the player on the button seat, else the player right of the empty seat
    seats = [p.seat for p in players]
    if button_seat in seats:
        button = seats.index(button_seat)
    else:
        before = [k for k, s in enumerate(seats) if s < button_seat]
        button = before[-1] if before else n - 1

    nominal_bb = head["stakes"][0 if head["structure"] is Structure.FIXED_LIMIT else 1]
    cap: int | None = head["cap"]
    # what each player can put into the hand (a cap game's cap is the table's rule: the
    # record keeps the real stacks and the engine plays the cap)
    stacks = [p.stack if cap is None else min(p.stack, cap) for p in players]
    blinds = [0] * n
    antes = [0] * n
    dead = [0] * n
    sb_posted: list[int] = []
    bb_posted: list[int] = []
    ante_posted: list[int] = []
    straddles: list[int] = []  # the straddles posted in full
    straddle_of = [0] * n  # each player's straddle, as the file says "posts straddle"
    short_posts: list[tuple[int, str, int]] = []  # (player, kind, paid) posted all-in
    hole: list[tuple[int, ...] | None] = [None] * n
    hole_text = [""] * n
    steps: list[Step] = []
    texts: list[str] = []
    step_lines: list[int] = []
    street_bet = [0] * n
    put_in = [0] * n
    ante_paid = [0] * n
    dead_paid = [0] * n
    folded = [False] * n
    allin = [False] * n
    returned = [0] * n
    collected = [0] * n
    by_pot: dict[tuple[int, int], int] = {}
    collected_lines: list[tuple[int, int, int]] = []  # (player, pot, chips) of each line
    shown: set[int] = set()
    mucked: set[int] = set()
    runs = 1
    runs_emitted = False
    total_pot: int | None = None
    stated_pots: list[int] = []
    stated_rake: int | None = None
    in_summary = False
    hole_steps_at = -1
    boards_seen: list[str] = []
    home = _Home()  # the home-game options, from tapete's own lines (_home_lines)

    def add(step: Step, text: str, lineno: int) -> None:
        steps.append(step)
        texts.append(text)
        step_lines.append(lineno)

    for j in range(i, len(lines)):
        raw = lines[j]
        line = raw.strip()
        lineno = first + j
        if not line:
            continue
        if line.startswith("*** "):
            if line.startswith("*** SUMMARY"):
                in_summary = True
                continue
            if line.startswith("*** HOLE CARDS") or line.startswith("*** DEALING"):
                if hole_steps_at < 0:
                    hole_steps_at = len(steps)
                continue
            st = _STREET.match(line)
            if st:
                if hole_steps_at < 0:
                    hole_steps_at = len(steps)
                which = st.group(1)
                if which and not runs_emitted and not home.double_board:
                    # as many runs as the street headings name (FIRST, SECOND, THIRD)
                    runs = len({m.group(1) for m in (_STREET.match(x.strip())
                                                      for x in lines[j:])
                                if m is not None and m.group(1)})
                    runs_emitted = True
                    add(("runs", runs), "Hand was run twice" if runs == 2
                        else f"Hand was run {runs} times", lineno)
                groups = _BRACKETS.findall(st.group(3))
                if not groups:
                    raise _Bad(t("no cards in {line}", line=repr(line)),
                               lineno)
                cards = _cards(groups[-1], lineno)
                add(("board", cards), line, lineno)
                boards_seen.append(line)
                street_bet = [0] * n
                continue
            if "SHOW DOWN" in line:
                continue
            if "CANCELLED" in line.upper():
                raise _Bad(t("the hand was cancelled"), lineno)
            continue
        if in_summary:
            tm = _TOTAL.match(line)
            if tm:
                total_pot = amt(tm.group(1), lineno)
                stated_pots = [amt(x, lineno) for _, x in _POTS.findall(line)]
                rm = _RAKE.search(line)
                stated_rake = amt(rm.group(1), lineno) if rm else None
                continue
            cm = _SUMMARY_CARDS.match(line)
            if cm:
                w = who(cm.group(1) + ":")
                if w is not None and cm.group(2).strip():
                    p = w[0]
                    if hole[p] is None and p not in shown:
                        hole[p] = _cards(cm.group(2), lineno)
                        hole_text[p] = line
            continue
        if line.startswith("Dealt to "):
            w = who(line[len("Dealt to "):])
            groups = _BRACKETS.findall(line)
            if w is not None and groups:
                cards = _cards(" ".join(groups), lineno)
                if len(cards) != game.hole_cards:
                    raise _Bad(t("{n} hole cards: {game} deals {count}", n=len(cards),
                                 game=_GAME_NAMES[game], count=game.hole_cards), lineno)
                hole[w[0]] = cards
                hole_text[w[0]] = line
            continue
        if line.startswith(_HOME_STARTS) and home.read(line, lineno, amt, index):
            continue
        um = _UNCALLED.match(line)
        if um:
            w = who(um.group(2) + ":")
            if w is None:
                raise _Bad(t("uncalled bet returned to an unknown player: {line}",
                             line=repr(line)), lineno)
            x = amt(um.group(1), lineno)
            returned[w[0]] += x
            put_in[w[0]] -= x
            continue
        cm = _COLLECTED.match(line)
        if cm:
            w = who(cm.group(1) + ":")
            if w is None:
                raise _Bad(t("an unknown player collected a pot: {line}", line=repr(line)), lineno)
            x = amt(cm.group(2), lineno)
            collected[w[0]] += x
            label = cm.group(3)
            k = 0 if label in ("pot", "main pot") else (
                _whole(label.rsplit("-", 1)[1], lineno) if "-" in label else 1)
            by_pot[w[0], k] = by_pot.get((w[0], k), 0) + x
            collected_lines.append((w[0], k, x))
            continue
        w = who(line)
        if w is None:
            continue  # table chatter, players not in the hand, tournament results...
        p, rest = w
        if rest.startswith("said, ") or " said, " in line[:len(players[p].name) + 8]:
            continue
        all_in = rest.endswith(_ALLIN) or "and is all-in" in rest
        body = rest.replace(_ALLIN, "").strip()
        body = re.sub(r" and has reached the .* cap$", "", body)
        if body.startswith("posts "):
            what = body[len("posts "):]
            m = re.match(r"(the ante|small & big blinds|small blind|big blind|"
                         r"(?:a )?straddle|dead blind|dead) (" + _AMOUNT + r")$", what)
            if m is None:
                raise _Bad(t("unknown post: {line}", line=repr(line)), lineno)
            kind, x = m.group(1), amt(m.group(2), lineno)
            put_in[p] += x
            if x >= stacks[p] - (put_in[p] - x):
                allin[p] = True
            if kind == "the ante":
                ante_paid[p] += x
            elif kind in ("dead blind", "dead"):
                dead_paid[p] += x
            elif kind == "small & big blinds":
                dead_paid[p] += max(0, x - nominal_bb)
            if kind == "the ante":
                if all_in:
                    short_posts.append((p, "ante", x))
                else:
                    antes[p] += x
                    ante_posted.append(x)
            elif kind == "small & big blinds":
                # the big blind is live, the rest dead (not part of the bet this street)
                live = min(x, nominal_bb)
                blinds[p] += live
                dead[p] += x - live
                street_bet[p] += live
            elif kind in ("dead blind", "dead"):
                dead[p] += x
            elif kind == "small blind":
                street_bet[p] += x
                if all_in:
                    short_posts.append((p, "sb", x))
                else:
                    blinds[p] += x
                    sb_posted.append(x)
            elif kind == "big blind":
                street_bet[p] += x
                if all_in:
                    short_posts.append((p, "bb", x))
                else:
                    blinds[p] += x
                    bb_posted.append(x)
            else:
                street_bet[p] += x
                if all_in:
                    short_posts.append((p, "straddle", x))
                else:
                    blinds[p] += x
                    straddle_of[p] += x
                    straddles.append(x)
            continue
        if hole_steps_at < 0 and body.split(" ")[0] in ("folds", "checks", "calls", "bets",
                                                        "raises"):
            hole_steps_at = len(steps)
        if body == "folds" or body.startswith("folds "):
            folded[p] = True
            groups = _BRACKETS.findall(body)
            if groups and hole[p] is None:
                hole[p] = _cards(groups[0], lineno)
                hole_text[p] = line
            add(("act", p, FOLD), line, lineno)
            continue
        if body == "checks":
            add(("act", p, CHECK), line, lineno)
            continue
        m = re.match(r"calls (" + _AMOUNT + r")$", body)
        if m:
            x = amt(m.group(1), lineno)
            street_bet[p] += x
            put_in[p] += x
            allin[p] = allin[p] or all_in
            add(("act", p, CALL), line, lineno)
            continue
        m = re.match(r"bets (" + _AMOUNT + r")$", body)
        if m:
            x = amt(m.group(1), lineno)
            street_bet[p] += x
            put_in[p] += x
            allin[p] = allin[p] or all_in
            add(("act", p, Action(ev.BET, street_bet[p])), line, lineno)
            continue
        m = re.match(r"raises (" + _AMOUNT + r") to (" + _AMOUNT + r")$", body)
        if m:
            to = amt(m.group(2), lineno)
            put_in[p] += to - street_bet[p]
            street_bet[p] = to
            allin[p] = allin[p] or all_in
            add(("act", p, Action(ev.RAISE, to)), line, lineno)
            continue
        m = re.match(r"shows \[([^\]]*)\]", body)
        if m:
            cards = _cards(m.group(1), lineno)
            if p not in shown and p not in mucked and (
                    sum(not f for f in folded) >= 2 or home.bounty):
                # the show step carries the cards (checked against known ones); at a 7-2
                # bounty table, a hand won uncontested may be shown too (Hand.lone_winner)
                shown.add(p)
                add(("show", p, cards), line, lineno)
            elif hole[p] is None and p not in shown:
                hole[p] = cards  # shown after the hand was won: known, never a showdown
                hole_text[p] = line
            continue
        if body.startswith("mucks"):
            groups = _BRACKETS.findall(body)
            if groups and hole[p] is None:
                hole[p] = _cards(groups[0], lineno)
                hole_text[p] = line
            if p not in shown and p not in mucked and sum(not f for f in folded) >= 2:
                mucked.add(p)
                add(("muck", p), line, lineno)
            continue
        if body.startswith(_IGNORED_VERBS) or body.startswith("is ") or \
                body.startswith("has ") or body.startswith("will be allowed"):
            continue
        if body.startswith(("finished the tournament", "wins the tournament", "wins the",
                            "receives", "joins the table", "sits down")):
            continue
        raise _Bad(t("cannot read {line}", line=repr(line)), lineno)


    # the table's blinds and antes
    sb_h, bb_h = head["stakes"]
    structure: Structure = head["structure"]
    if structure is Structure.FIXED_LIMIT:
        small_bet, big_bet = sb_h, bb_h
        big_blind = max(bb_posted) if bb_posted else small_bet
        small_blind = max(sb_posted) if sb_posted else small_bet // 2
    else:
        small_bet = big_bet = 0
        small_blind, big_blind = sb_h, bb_h
    ante = max(set(ante_posted), key=ante_posted.count) if ante_posted else 0
    # the table's straddle: the first (smallest) one; a larger one is a re-straddle
    straddle = min(straddles) if straddles else 0
    for p, kind, paid in short_posts:
        # posted all-in: the nominal amount (what the others face), at least what was paid
        if kind == "ante":
            antes[p] += max(ante, paid)
        elif kind == "sb":
            blinds[p] += max(small_blind, paid)
        elif kind == "bb":
            blinds[p] += max(big_blind, paid)
        else:
            owed = max(max(straddles, default=0) or 2 * big_blind, paid)
            blinds[p] += owed
            straddle_of[p] += owed
    if small_blind > big_blind:
        small_blind = big_blind
    if home.bomb:  # the antes were the bomb pot's
        antes, ante = [0] * n, 0
    # a big blind whose stack all went to the ante posts nothing, yet the others still face
    # the full blind: give it to the player where the big blind was due
    if not home.bomb and (not any(blinds) or max(blinds) < big_blind):
        order = [(button + 1 + k) % n for k in range(n)]
        sb_at = next((p for p in order if 0 < blinds[p] < big_blind), None)
        if sb_at is not None:
            due = order[(order.index(sb_at) + 1) % n]
        else:  # where the engine and the rooms put it: heads-up the button is the small blind
            due = order[0] if n == 2 else order[1]
        if blinds[due] == 0 and put_in[due] >= stacks[due]:
            blinds[due] = big_blind
    # a big-blind ante: the only ante is the big blind's, paid after the blind
    ante_payers = [p for p in range(n) if antes[p]]
    bb_ante = len(ante_payers) == 1 and blinds[ante_payers[0]] >= big_blind

    # the rake the file states, pot by pot
    rake_fixed: tuple[int, ...] | None = None
    if stated_rake is not None:
        rake_fixed = (stated_rake,)
        if len(stated_pots) > 1:
            # as the engine cuts them, dead money (dead blinds, a lone ante) in the main pot
            pots = build_pots(put_in, folded, [allin[p] or put_in[p] >= stacks[p]
                                               for p in range(n)],
                              dead_money(ante_paid, dead_paid))
            if len(pots) == len(stated_pots):
                per_pot = tuple(pot.amount - s for pot, s in zip(pots, stated_pots,
                                                                   strict=True))
                if all(x >= 0 for x in per_pot) and sum(per_pot) == stated_rake:
                    rake_fixed = per_pot
    try:
        rules = Rules(
            structure=structure, small_blind=small_blind, big_blind=big_blind,
            ante=antes[ante_payers[0]] if bb_ante else ante, big_blind_ante=bb_ante,
            straddle=straddle if straddle >= big_blind else 0,
            small_bet=small_bet, big_bet=big_bet, bet_cap=4, cap_heads_up=False,
            min_raise=MinRaise.LAST_RAISE if structure is Structure.POT_LIMIT else None,
            decimals=decimals, currency=head["currency"], rake_fixed=rake_fixed, hand_cap=cap,
            game=game, bounty_72=home.bounty)
    except RulesError as exc:
        raise _Bad(t("unplayable stakes: {why}", why=rules_problem(exc)), first) from None

    # hole cards first, dealt from the left of the button
    hole_steps: list[Step] = []
    hole_texts: list[str] = []
    for k in range(n):
        p = (button + 1 + k) % n
        hole_steps.append(("hole", p, hole[p]))
        hole_texts.append(hole_text[p] or f"(cards dealt to {players[p].name})")
    at = hole_steps_at if hole_steps_at >= 0 else len(steps)
    steps[at:at] = hole_steps
    texts[at:at] = hole_texts
    step_lines[at:at] = [first] * n

    # no SUMMARY: a hand cut short (the replay says where it stops); nothing to reconcile
    stated: list[int] | None = None
    if total_pot is not None:
        stated = stated_pots if stated_pots else [total_pot - (stated_rake or 0)]
    extra: dict[str, Any] = {
        "format": "pokerstars", "table": table, "max_seats": table_max, "date": head["date"],
        "total_pot": total_pot,
        "lines": step_lines, "first_line": first,
    }
    if total_pot is not None:
        extra["collected"] = collected
        extra["returned"] = returned
        extra["collected_by_pot"] = sorted((p, k, x) for (p, k), x in by_pot.items())
        extra["collected_lines"] = sorted(collected_lines)
    if head["tournament"]:
        extra["tournament"] = head["tournament"]
        extra["buy_in"] = head["buy_in"]
    if cap is not None:
        extra["cap"] = cap
    real = [p.stack for p in players]
    # the finishing stacks the file implies (stack - chips put in + chips collected): a replay
    # that settles otherwise reports it (``ReplayResult.stated_stacks_agree``)
    finishing = None
    if total_pot is not None:
        finishing = [real[p] - put_in[p] + collected[p] for p in range(n)]
        if home.payments:
            extra["bounty_payments"] = home.payments
            for payer, winner, x in home.payments:
                finishing[payer] -= x
                finishing[winner] += x
    return HandRecord(
        rules=rules, stacks=real, steps=steps, button=button, blinds=blinds, antes=antes,
        dead=dead, names=[p.name for p in players], seats=seats, hand_id=hand_id,
        source=source, finishing_stacks=finishing, stated_pots=stated, stated_rake=stated_rake,
        extra=extra, texts=texts, straddles=straddle_of if any(straddle_of) else None,
        bomb=home.bomb, double_board=home.double_board)


# ---------------------------------------------------------------------------- reconciling

def reconcile(record: HandRecord, hand: Hand) -> list[str]:
    """Every figure of the file's SUMMARY (and its collected/returned lines) that the replay
    does not reproduce, each with both figures; empty when the hand reconciles."""
    return [m.en for m in reconcile_text(record, hand)]


def reconcile_text(record: HandRecord, hand: Hand) -> list[Text]:
    """:func:`reconcile` in English and Spanish (what ``tapete replay`` shows)."""
    r = hand.rules

    def c(x: int) -> str:
        return format_amount(x, r.decimals, r.currency)

    out: list[Text] = []
    stated_stacks = record.finishing_stacks
    total = record.extra.get("total_pot")
    if total is not None and total != sum(hand.totals):
        got = c(sum(hand.totals))
        out.append(t("total pot: the file says {said}, the replay gives {got}", said=c(total),
                     got=got))
    if record.stated_rake is not None and record.stated_rake != hand.rake:
        said, got = c(record.stated_rake), c(hand.rake)
        out.append(t("rake: the file says {said}, the replay takes {got}", said=said, got=got))
    pots = [p.amount for p in hand.results]
    stated = record.stated_pots
    if stated is not None:
        if len(stated) > 1 and stated != pots:
            said, got = ", ".join(c(x) for x in stated), ", ".join(c(x) for x in pots)
            out.append(t("pots: the file says {said}; the replay gives {got}", said=said, got=got))
        elif len(stated) == 1 and stated[0] != sum(pots):
            said, got = c(stated[0]), c(sum(pots))
            out.append(t("pot after rake: the file says {said}, the replay gives {got}", said=said,
                         got=got))
    names = hand.names
    by_pot = record.extra.get("collected_by_pot")
    if by_pot is not None and not out:
        mine_by_pot = {(p, k): x for k, res in enumerate(hand.results) for p, x in res.shares}
        theirs_by_pot = {(p, k): x for p, k, x in by_pot}
        for pk in sorted(set(mine_by_pot) | set(theirs_by_pot)):
            a, b = theirs_by_pot.get(pk, 0), mine_by_pot.get(pk, 0)
            if a != b:
                p, k = pk
                if len(hand.results) == 1:
                    pot = tc("reconcile", "the pot")
                elif k == 0:
                    pot = tc("reconcile", "the main pot")
                else:
                    pot = tc("reconcile", "side pot {k}", k=str(k))
                out.append(t("{who} from {pot}: the file says {said}, the replay {got}",
                             who=names[p], pot=pot, said=c(a), got=c(b)))
    lines = record.extra.get("collected_lines")
    if lines is not None and not out and hand.rules.game.high_low:
        out += _reconcile_halves(hand, [tuple(x) for x in lines], c)
    for key, mine, message in (
            ("collected", hand.won, N_("{who} collected: the file says {said}, the replay {got}")),
            ("returned", hand.returned,
             N_("{who} got back (uncalled): the file says {said}, the replay {got}"))):
        theirs = record.extra.get(key)
        if theirs is None:
            continue
        for p, (a, b) in enumerate(zip(theirs, mine, strict=True)):
            if a != b:
                out.append(t(message, who=names[p], said=c(a), got=c(b)))
    wrong = bounty_mismatch(record, hand)
    if wrong is not None:
        out.append(wrong)
    if not out and stated_stacks is not None and stated_stacks != hand.stacks:
        said = ", ".join(c(x) for x in stated_stacks)
        got = ", ".join(c(x) for x in hand.stacks)
        out.append(t("finishing stacks: the file implies {said}; the replay gives {got}", said=said,
                     got=got))
    return out


def _reconcile_halves(hand: Hand, lines: list[tuple[int, ...]], c: Any) -> list[Text]:
    """A high-low hand's ``collected`` lines against the replay's awards: PokerStars writes
    one line for each half (high, low) of each pot a player wins, on each run, so the lines
    and the awards are the same (player, pot, chips), once a player's two halves of one pot
    are counted as one line too (a scoop)."""
    halves = sorted((e.player, e.pot, e.amount) for e in hand.events
                    if isinstance(e, ev.Awarded))
    if sorted(lines) == halves:
        return []
    scoops: dict[tuple[int, int, int], int] = {}
    for e in hand.events:
        if isinstance(e, ev.Awarded):
            key = (e.player, e.pot, e.run)
            scoops[key] = scoops.get(key, 0) + e.amount
    if sorted(lines) == sorted((p, k, x) for (p, k, _), x in scoops.items()):
        return []
    said = ", ".join(f"{hand.names[p]} {c(x)}" for p, _, x in sorted(lines, key=lambda y: y[1]))
    got = ", ".join(f"{hand.names[p]} {c(x)}" for p, _, x in sorted(halves, key=lambda y: y[1]))
    return [t("the halves (high, low) of the pots: the file says {said}; the replay gives "
              "{got}", said=said, got=got)]


# ---------------------------------------------------------------------------- writing

_STRUCTURE_NAMES = {Structure.NO_LIMIT: "No Limit", Structure.POT_LIMIT: "Pot Limit",
                    Structure.FIXED_LIMIT: "Limit"}
_STREETS = {1: "FLOP", 2: "TURN", 3: "RIVER"}
_RUN_WORDS = ("FIRST", "SECOND", "THIRD", "FOURTH")


_RANK_WORDS = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
               "Jack", "Queen", "King", "Ace")
_PLURAL = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
           "Jacks", "Queens", "Kings", "Aces")


def describe_stars(strength: int) -> str:
    """A hand as PokerStars words it: ``a pair of Queens``, ``a straight, Nine to King``."""
    from tapete.ranking import Category, category, ranks_of

    cat = category(strength)
    r = ranks_of(strength)
    one, many = _RANK_WORDS, _PLURAL
    if cat is Category.HIGH_CARD:
        return f"high card {one[r[0]]}"
    if cat is Category.ONE_PAIR:
        return f"a pair of {many[r[0]]}"
    if cat is Category.TWO_PAIR:
        return f"two pair, {many[r[0]]} and {many[r[1]]}"
    if cat is Category.THREE_OF_A_KIND:
        return f"three of a kind, {many[r[0]]}"
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = r[0]
        low = "Ace" if top == 3 else one[top - 4]
        if cat is Category.STRAIGHT_FLUSH and top == 12:
            return "a Royal Flush"
        kind = "a straight" if cat is Category.STRAIGHT else "a straight flush"
        return f"{kind}, {low} to {one[top]}"
    if cat is Category.FLUSH:
        return f"a flush, {one[r[0]]} high"
    if cat is Category.FULL_HOUSE:
        return f"a full house, {many[r[0]]} full of {many[r[1]]}"
    return f"four of a kind, {many[r[0]]}"


def describe_stars_low(strength: int) -> str:
    """A low as PokerStars writes it after ``LO:``, highest card first: ``8,5,4,2,A``."""
    from tapete.ranking.low import low_ranks

    return ",".join("A" if r == 12 else str(r + 2) for r in low_ranks(strength))


def _describe(hole: Sequence[int], board: Sequence[int], game: Game) -> str:
    """The words of a shown hand: ``a pair of Queens``; in a high-low game the high and the
    low, as PokerStars writes them: ``HI: a flush, Nine high; LO: 8,5,4,2,A`` (no ``LO``
    without a qualifying low)."""
    if len(hole) + len(board) < 5:
        return ""
    high = describe_stars(best_hand(game, hole, board))
    if not game.high_low:
        return high
    low = best_low(game, hole, board)
    return f"HI: {high}; LO: {describe_stars_low(low)}" if low else f"HI: {high}"


#: ``write_hand(hero=NO_HERO)``: nobody's ``Dealt to`` line (a hand as a spectator saw it)
NO_HERO = -1


def write_hand(hand: Hand, *, hand_id: str | None = None, table: str = "tapete",
               date: str = "2000/01/01 0:00:00 ET", tournament: str = "",
               buy_in: str = "", hero: int | None = None, max_seats: int = 0) -> str:
    """One hand as PokerStars text (what trackers import). Every known hole card is written as
    a ``Dealt to`` line, so a reader gets the whole hand back; with ``hero`` (a player index)
    only that player's, as a room writes it for one player (the others' cards then appear
    only where they were shown, and the SUMMARY gives the known cards of mucked hands);
    :data:`NO_HERO`, nobody's.
    The seat numbers are the hand's (``seats``); ``max_seats`` is the table's size
    (``6-max``; 0: the smallest usual size that holds the seats). A cap game
    (:attr:`~tapete.core.rules.Rules.hand_cap`) says its cap in the header, and a player who
    reaches it "has reached the cap"."""
    r = hand.rules
    n = hand.n
    d = r.decimals
    cur = r.currency

    def c(x: int) -> str:
        return format_amount(x, d, cur)

    names = hand.names
    seat_no = [s + 1 for s in hand.seats] if 0 in hand.seats else list(hand.seats)
    hid = hand_id if hand_id is not None else (hand.hand_id or "1")
    hid = "".join(ch for ch in str(hid) if ch.isdigit()) or "1"
    code = _SYMBOLS.get(cur, "")
    if r.structure is Structure.FIXED_LIMIT:
        lo, hi = r.small_bet, r.big_bet
    else:
        lo, hi = r.small_blind, r.big_blind
    game = f"{_GAME_NAMES.get(r.game, _GAME_NAMES[HOLDEM])} {_STRUCTURE_NAMES[r.structure]}"
    if tournament:
        paid = f"{buy_in} " if buy_in else ""
        header = (f"PokerStars Hand #{hid}: Tournament #{tournament}, {paid}{game} - Level I "
                  f"({c(lo)}/{c(hi)}) - {date}")
    else:
        stakes = f"{c(lo)}/{c(hi)}"
        if r.hand_cap is not None:
            stakes += f" - {c(r.hand_cap)} Cap -" + (f"  {code}" if code else "")
        elif code:
            stakes += f" {code}"
        header = f"PokerStars Hand #{hid}:  {game} ({stakes}) - {date}"
    top = max(seat_no)
    size = max_seats if max_seats >= max(top, n) else next(
        (m for m in (2, 6, 9, 10) if top <= m and n <= m), max(top, n))
    out = [header, f"Table '{table}' {size}-max Seat #{seat_no[hand.button]} is the button"]
    for p in sorted(range(n), key=seat_no.__getitem__):  # in seat order, as the rooms write
        out.append(f"Seat {seat_no[p]}: {names[p]} ({c(hand.starting_stacks[p])} in chips)")
    out.extend(_home_lines(hand, c))
    events = hand.events
    # posts: a dead blind and a live blind of one player are one PokerStars line
    dead_of = {e.player: e.amount for e in events
               if isinstance(e, ev.Posted) and e.kind == ev.DEAD}
    live_of = {e.player for e in events
               if isinstance(e, ev.Posted) and e.kind not in (ev.DEAD, ev.ANTE, ev.BOMB)}
    # equal blinds (1/1): the engine calls both big blinds; the first after the button is the
    # small blind
    equal_sb = -1
    if r.small_blind == r.big_blind:
        bigs = [e.player for e in events if isinstance(e, ev.Posted) and e.kind == ev.BIG_BLIND]
        if len(bigs) >= 2:
            equal_sb = min(bigs, key=lambda q: (q - hand.button - 1) % n)
    level = 0
    bets = [0] * n
    put = [0] * n  # each player's chips in the hand (a cap game's cap)
    cap = r.hand_cap

    def all_in_words(p: int) -> str:
        if cap is not None and put[p] >= cap and hand.starting_stacks[p] > cap:
            return f" and has reached the {c(cap)} cap"
        return " and is all-in"

    header_done = False
    showdown_written = False
    shown_cards: dict[int, tuple[int, ...]] = {}
    runs = 2 if hand.double_board else 1  # a double board is written as two runs are
    boards: list[list[int]] = [[] for _ in range(runs)]
    run_street_written: set[tuple[int, int]] = set()
    awards_by_run: dict[int, list[ev.Awarded]] = {}
    for e in events:
        if isinstance(e, ev.Posted):
            put[e.player] += e.amount
            allin = all_in_words(e.player) if e.all_in else ""
            if e.kind == ev.ANTE or e.kind == ev.BOMB:  # a bomb pot's too (_home_lines)
                out.append(f"{names[e.player]}: posts the ante {c(e.amount)}{allin}")
                continue
            if e.kind == ev.DEAD:
                if e.player not in live_of:
                    out.append(f"{names[e.player]}: posts dead blind {c(e.amount)}{allin}")
                continue
            bets[e.player] += e.amount
            level = max(level, bets[e.player])
            if e.player in dead_of:
                total = e.amount + dead_of[e.player]
                out.append(f"{names[e.player]}: posts small & big blinds {c(total)}{allin}")
            elif e.kind == ev.SMALL_BLIND or (e.kind == ev.BLIND and e.amount < r.big_blind) \
                    or (e.player == equal_sb):
                out.append(f"{names[e.player]}: posts small blind {c(e.amount)}{allin}")
            elif e.kind == ev.STRADDLE:
                out.append(f"{names[e.player]}: posts straddle {c(e.amount)}{allin}")
            else:
                out.append(f"{names[e.player]}: posts big blind {c(e.amount)}{allin}")
        elif isinstance(e, ev.HoleDealt):
            if not header_done:
                out.append("*** HOLE CARDS ***")
                header_done = True
            if e.cards is not None and (hero is None or e.player == hero):
                out.append(f"Dealt to {names[e.player]} [{format_cards(e.cards, ' ')}]")
        elif isinstance(e, ev.Acted):
            p = e.player
            put[p] += e.added
            allin = all_in_words(p) if e.all_in else ""
            action = acted(e)
            kind, to = action.kind, action.to
            if kind == ev.FOLD:
                out.append(f"{names[p]}: folds")
            elif kind == ev.CHECK:
                out.append(f"{names[p]}: checks")
            elif kind == ev.CALL:
                out.append(f"{names[p]}: calls {c(e.added)}{allin}")
            elif kind == ev.BET and to is not None:
                out.append(f"{names[p]}: bets {c(to - bets[p])}{allin}")
            elif to is not None:
                out.append(f"{names[p]}: raises {c(to - level)} to {c(to)}{allin}")
            bets[p] = e.to
            level = max(level, e.to)
        elif isinstance(e, ev.RunsChosen):
            runs = e.runs
            boards = [list(boards[0]) for _ in range(runs)]
        elif isinstance(e, ev.BoardDealt):
            b = boards[e.run]
            before = list(b)
            b.extend(e.cards)
            word = (_RUN_WORDS[e.run] + " ") if runs > 1 else ""
            name = _STREETS[e.street]
            if before:
                out.append(f"*** {word}{name} *** [{format_cards(before, ' ')}] "
                           f"[{format_cards(e.cards, ' ')}]")
            else:
                out.append(f"*** {word}{name} *** [{format_cards(e.cards, ' ')}]")
            run_street_written.add((e.run, e.street))
            bets = [0] * n
            level = 0
        elif isinstance(e, ev.Returned):
            out.append(f"Uncalled bet ({c(e.amount)}) returned to {names[e.player]}")
        elif isinstance(e, ev.Shown):
            if not showdown_written:
                out.append("*** FIRST SHOW DOWN ***" if runs > 1 else "*** SHOW DOWN ***")
                showdown_written = True
            shown_cards[e.player] = e.cards
            desc = _describe(e.cards, boards[0], hand.rules.game)
            out.append(f"{names[e.player]}: shows [{format_cards(e.cards, ' ')}]"
                       + (f" ({desc})" if desc else ""))
        elif isinstance(e, ev.Mucked):
            if not showdown_written:
                out.append("*** FIRST SHOW DOWN ***" if runs > 1 else "*** SHOW DOWN ***")
                showdown_written = True
            out.append(f"{names[e.player]}: mucks hand")
        elif isinstance(e, ev.Awarded):
            awards_by_run.setdefault(e.run, []).append(e)
    results = hand.results
    npots = len(results)

    def pot_name(i: int) -> str:
        if npots == 1:
            return "pot"
        if i == 0:
            return "main pot"
        return "side pot" if npots == 2 else f"side pot-{i}"

    for run in sorted(awards_by_run):
        if run > 0:
            out.append(f"*** {_RUN_WORDS[run]} SHOW DOWN ***")
            for p, cards in shown_cards.items():
                desc = _describe(cards, boards[run], hand.rules.game)
                out.append(f"{names[p]}: shows [{format_cards(cards, ' ')}]"
                           + (f" ({desc})" if desc else ""))
        for a in awards_by_run[run]:
            out.append(f"{names[a.player]} collected {c(a.amount)} from {pot_name(a.pot)}")
    for e in events:
        if isinstance(e, ev.BountyPaid):
            out.append(f"{_BOUNTY_PAID} {names[e.payer]} pays {names[e.player]} {c(e.amount)}")
    if hand.done:
        out.extend(_summary(hand, boards, runs, shown_cards, awards_by_run, seat_no, c))
    return "\n".join(out) + "\n"


def _summary(hand: Hand, boards: list[list[int]], runs: int,
             shown_cards: dict[int, tuple[int, ...]],
             awards_by_run: dict[int, list[ev.Awarded]], seat_no: list[int],
             c: Any) -> list[str]:
    n = hand.n
    names = hand.names
    results: list[PotResult] = hand.results
    out = ["*** SUMMARY ***"]
    total = f"Total pot {c(sum(hand.totals))}"
    if len(results) > 1:
        total += f" Main pot {c(results[0].amount)}."
        for i, res in enumerate(results[1:], 1):
            label = "Side pot" if len(results) == 2 else f"Side pot-{i}"
            total += f" {label} {c(res.amount)}."
    out.append(f"{total} | Rake {c(hand.rake)}")
    if hand.double_board:
        out.append("Double board")
    if runs > 1:
        if not hand.double_board:
            out.append("Hand was run twice" if runs == 2 else f"Hand was run {runs} times")
        for run, b in enumerate(boards):
            out.append(f"{_RUN_WORDS[run]} Board [{format_cards(b, ' ')}]")
    elif boards[0]:
        out.append(f"Board [{format_cards(boards[0], ' ')}]")
    # when each player folded
    folded_on: dict[int, int] = {}
    street = 0
    put_in = [False] * n
    for e in hand.events:
        if isinstance(e, ev.BoardDealt) and e.run == 0:
            street = e.street
        elif isinstance(e, ev.Acted):
            if e.action == ev.FOLD:
                folded_on[e.player] = street
            elif e.added:
                put_in[e.player] = True
        elif isinstance(e, ev.Posted) and e.kind != ev.ANTE:
            put_in[e.player] = True
    won_by_run: dict[int, dict[int, int]] = {}
    for run, awards in awards_by_run.items():
        for a in awards:
            won_by_run.setdefault(a.player, {}).setdefault(run, 0)
            won_by_run[a.player][run] += a.amount
    sb = next((e.player for e in hand.events if isinstance(e, ev.Posted)
               and e.kind == ev.SMALL_BLIND), None)
    bb = next((e.player for e in hand.events if isinstance(e, ev.Posted)
               and e.kind == ev.BIG_BLIND), None)
    street_words = {0: "before Flop", 1: "on the Flop", 2: "on the Turn", 3: "on the River"}
    for p in range(n):
        tags = ""
        if p == hand.button:
            tags += " (button)"
        if p == sb:
            tags += " (small blind)"
        if p == bb:
            tags += " (big blind)"
        line = f"Seat {seat_no[p]}: {names[p]}{tags}"
        if p in folded_on:
            s = folded_on[p]
            line += f" folded {street_words[s]}"
            if s == 0 and not put_in[p]:
                line += " (didn't bet)"
        elif p in shown_cards:
            cards = shown_cards[p]
            line += f" showed [{format_cards(cards, ' ')}]"
            parts = []
            for run in range(runs):
                desc = _describe(cards, boards[run], hand.rules.game)
                x = won_by_run.get(p, {}).get(run, 0)
                with_ = f" with {desc}" if desc else ""
                parts.append(f"won ({c(x)}){with_}" if x else f"lost{with_}")
            line += " and " + ", and ".join(parts)
        elif p in hand.mucked:
            h = hand.hole[p]
            line += f" mucked [{format_cards(h, ' ')}]" if h else " mucked"
        elif hand.won[p]:
            line += f" collected ({c(hand.won[p])})"
        out.append(line)
    return out


def write_hands(hands: Iterable[Hand], **kwargs: Any) -> str:
    """Several hands, each written with the same keywords (:func:`join_hands`)."""
    return join_hands([write_hand(h, **kwargs) for h in hands])


def join_hands(texts: Iterable[str]) -> str:
    """Several hands' texts (:func:`write_hand`) as one file, separated as PokerStars
    separates them (two blank lines)."""
    return "\n\n".join(texts)


# ---------------------------------------------------------------------------- home games
# PokerStars text has no form for a bomb pot, a double board or a 7-2 bounty (docs/rules.md,
# "Home games"): tapete writes a line of its own for each, which its reader reads back and
# which, starting with no player's name, other readers pass over as table chatter. After the
# seats: "Bomb pot: every player antes 10, no betting before the flop" (the antes are posted
# as antes), "Double board: each board wins half of every pot" (the boards are then written
# as two runs are: "*** FIRST FLOP ***", "*** SECOND FLOP ***", each street's betting after
# both), "7-2 bounty: 5 from every other player dealt in"; after the pots are collected, one
# line for each payment: "7-2 bounty: Bea pays Ana 5".

_BOMB_LINE = "Bomb pot:"
_DOUBLE_LINE = "Double board: each board wins half of every pot"
_BOUNTY_PAID = "7-2 bounty:"
_HOME_STARTS = (_BOMB_LINE, _DOUBLE_LINE, _BOUNTY_PAID)
_BOMB_RULE = re.compile(r"^Bomb pot: every player antes (" + _AMOUNT
                        + r"), no betting before the flop$")
_BOUNTY_RULE = re.compile(r"^7-2 bounty: (" + _AMOUNT + r") from every other player dealt in$")
_BOUNTY_PAYMENT = re.compile(r"^7-2 bounty: (.+ pays .+) (" + _AMOUNT + r")$")


def _home_lines(hand: Hand, c: Any) -> list[str]:
    """tapete's lines of the home-game options of ``hand`` (``c`` writes an amount)."""
    out: list[str] = []
    if hand.bomb:
        out.append(f"{_BOMB_LINE} every player antes {c(hand.bomb)}, no betting before the flop")
    if hand.double_board:
        out.append(_DOUBLE_LINE)
    if hand.rules.bounty_72:
        out.append(f"{_BOUNTY_PAID} {c(hand.rules.bounty_72)} from every other player dealt in")
    return out


@dataclass(slots=True)
class _Home:
    """The home-game options a PokerStars text names in tapete's lines (:func:`_home_lines`)."""

    bomb: int = 0
    double_board: bool = False
    bounty: int = 0
    payments: list[tuple[int, int, int]] | None = None

    def read(self, line: str, lineno: int, amt: Any, index: dict[str, int]) -> bool:
        """Read one of tapete's lines (False: ``line`` is not one)."""
        m = _BOMB_RULE.match(line)
        if m is not None:
            self.bomb = amt(m.group(1), lineno)
            return True
        if line == _DOUBLE_LINE:
            self.double_board = True
            return True
        m = _BOUNTY_RULE.match(line)
        if m is not None:
            self.bounty = amt(m.group(1), lineno)
            return True
        m = _BOUNTY_PAYMENT.match(line)
        if m is None:
            return False  # not tapete's words: table chatter
        said, x = m.group(1), amt(m.group(2), lineno)
        for payer, p in index.items():  # "Bea pays Ana": the names, whatever they hold
            head = payer + " pays "
            if said.startswith(head) and said[len(head):] in index:
                if self.payments is None:
                    self.payments = []
                self.payments.append((p, index[said[len(head):]], x))
                return True
        raise _Bad(t("cannot read {line}", line=repr(line)), lineno)
