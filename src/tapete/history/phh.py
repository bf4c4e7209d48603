"""PHH (Poker Hand History, github.com/uoftcprg/phh-std): read ``.phh``/``.phhs``, write ``.phh``.

Reading produces :class:`~tapete.history.record.HandRecord`; :func:`tapete.history.replay.replay`
then drives the engine with it. Variants: ``NT`` (no-limit hold'em), ``FT`` (fixed-limit
hold'em), ``PT`` (pot-limit hold'em: **tapete's extension**, the standard has no code for it;
fields as for ``NT``), ``PO`` (pot-limit Omaha, high only: four hole cards,
:data:`~tapete.core.game.OMAHA`; fields as for ``NT``), ``FO/8`` (fixed-limit Omaha hi-lo
eight or better, :data:`~tapete.core.game.OMAHA_HI_LO`; fields as for ``FT``) and ``PO/8``
(pot-limit Omaha hi-lo eight or better: **tapete's extension**, the standard has no code for
it; fields as for ``PO``). Other games (five-card Omaha, Omaha of another structure) have no
code and are not written.

Conventions followed (as the standard and PokerKit read them):

* players ``p1..pn`` in seat order from the small blind, the button last; heads-up, ``p1`` is
  the big blind and ``p2`` the button, who posts the small blind: the first two entries of
  ``blinds_or_straddles`` (and ``antes``) are then swapped between the players;
* ``blinds_or_straddles`` beyond the big blind's entry (p3 onwards, three players or more) that
  are above the big blind are straddles, the next a re-straddle (``[1, 2, 4, 8]``): they go to
  ``record.straddles`` and the engine posts them as straddles; the writer puts them back in
  ``blinds_or_straddles``;
* amounts may be decimal (``0.50``): they are read exactly, never through floats. The smallest
  unit is the largest number of decimal places among the amounts that define the hand (stacks,
  blinds, antes, bets): ``0.50/1`` -> cents, ``Rules.decimals == 2``. A stated
  ``finishing_stacks`` with finer amounts (the halves of an odd-chip split) is kept as written
  in ``record.extra["finishing_stacks_text"]`` and ``record.finishing_stacks`` is None;
* ``????`` hole cards are unknown; ``pN sm CARDS`` shows, ``pN sm -`` shows the known cards,
  ``pN sm`` mucks, in the recorded order, even before the board is complete (all-in run-outs);
* ``ante_trimming_status`` is read and kept in ``extra`` but does not change the hand: tapete
  settles from each player's total contribution, antes included, which is what the standard's
  ``false`` means (and what real rooms do with a big-blind ante).

User fields (tapete's): ``_dead_blinds`` (per player, the part of ``antes`` that is a dead
blind posted by a player coming back into the game: PHH has no dead blinds, so the writer puts
them in the antes, which other readers play the same way, and names them here), and room rules:
``_min_raise = "last-raise" | "last-bet"`` (the smallest
raise rule; default: last-raise for NT, last-bet for PT, as in :class:`~tapete.core.rules.Rules`;
last-raise for PO, the TDA increment that the standard's other readers (PokerKit) apply, so the
writer names ``last-bet`` for a PO hand played by tapete's pot-limit default),
``_bet_cap`` (fixed-limit bets per street, ``0`` for no cap), ``_cap_heads_up`` (bool),
``_rake`` (fraction of each pot, e.g. ``0.05``), ``_rake_cap`` (amount per hand),
``_no_flop_no_drop`` (bool), and ``_rake_fixed`` (the rake a hand history states, one amount
per pot, main pot first, e.g. ``_rake_fixed = [0.50, 0.10]``: a PokerStars hand's rake is a fact
of the hand, :attr:`~tapete.core.rules.Rules.rake_fixed`, taken exactly whatever ``_rake`` says),
``_hand_cap`` (a cap game's cap, the most one player puts into a hand:
:attr:`~tapete.core.rules.Rules.hand_cap`). Unknown user fields are kept in ``record.extra``; of the
standard's fields about the table, ``seats`` gives ``record.seats``, and ``table``,
``seat_count`` and the date (``year``, ``month``, ``day``, ``time``,
``time_zone_abbreviation``) are kept in ``record.extra`` as ``table``, ``max_seats`` and
``date``, the date written as PokerStars writes one (``2015/04/19 11:46:35 ET``), so that
:mod:`tapete.history.pokerstars` writes them back. A number of more than :data:`MAX_DIGITS`
digits is refused.

The TOML reader is a small, fast one for the subset PHH files use (``key = value`` lines,
strings, integers, decimals, booleans, arrays over several lines with comments, ``[n]`` tables
in ``.phhs``); any value it does not know (a time, an inline table) is handed to ``tomllib``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from tapete.core import fair
from tapete.core.cards import RANKS, SUITS, CardError, format_cards, parse_cards
from tapete.core.catalog import N_, NC_, t, tc
from tapete.core.game import HOLDEM, OMAHA, OMAHA_HI_LO, Game
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, Rules, RulesError, Structure
from tapete.core.text import Text
from tapete.history.record import (
    CHECK_OR_CALL,
    FOLD,
    HandRecord,
    Step,
    acted,
    bet_or_raise,
)

VARIANTS = {"NT": Structure.NO_LIMIT, "FT": Structure.FIXED_LIMIT, "PT": Structure.POT_LIMIT,
            "PO": Structure.POT_LIMIT, "FO/8": Structure.FIXED_LIMIT,
            "PO/8": Structure.POT_LIMIT}
#: the hold'em variants' codes, by structure
CODES = {Structure.NO_LIMIT: "NT", Structure.FIXED_LIMIT: "FT", Structure.POT_LIMIT: "PT"}
#: the variants of other games than hold'em: code -> game, and (game, structure) -> code
VARIANT_GAMES: dict[str, Game] = {"PO": OMAHA, "FO/8": OMAHA_HI_LO, "PO/8": OMAHA_HI_LO}
GAME_CODES: dict[tuple[Game, Structure], str] = {
    (game, VARIANTS[code]): code for code, game in VARIANT_GAMES.items()}


class PhhError(ValueError):
    """A PHH file or hand that cannot be read: the message says where and why, in English and
    Spanish (``str(exc)`` is the English; the file's own words are quoted as written)."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message

    def in_lang(self, lang: str) -> str:
        return self.message.in_lang(lang)


# ---------------------------------------------------------------------------- messages
# the readers' details that come from elsewhere (cards, rules, the system), in both languages

def card_problem(exc: Exception, text: str = "") -> Text:
    """What is wrong with a card text, in both languages (a
    :class:`~tapete.core.cards.CardError` says it; anything else is introduced)."""
    if isinstance(exc, CardError):
        return exc.message
    what = f" {text!r}" if text else ""
    return Text(str(exc), f"no se pueden leer las cartas{what}")


def rules_problem(exc: Exception) -> Text:
    """Why room rules cannot be played, in both languages (a
    :class:`~tapete.core.rules.RulesError` says it; anything else is introduced)."""
    if isinstance(exc, RulesError):
        return exc.message
    return tc("rules that cannot be played", "{error}", error=str(exc))


# the usual reasons a file cannot be read: the English quotes the system's error (``str(exc)``),
# the other languages say the reason in their words (a context per reason)
_FILE_REASONS = (
    (FileNotFoundError, NC_("no such file", "cannot read the file: {error}")),
    (IsADirectoryError, NC_("a folder", "cannot read the file: {error}")),
    (PermissionError, NC_("no permission", "cannot read the file: {error}")),
    (UnicodeDecodeError, NC_("not UTF-8", "cannot read the file: {error}")),
)


def file_problem(exc: Exception) -> Text:
    """Why a file cannot be read (the system's error), in both languages."""
    for kind, (context, message) in _FILE_REASONS:
        if isinstance(exc, kind):
            return tc(context, message, error=str(exc))
    return t("cannot read the file: {error}", error=str(exc))


# ---------------------------------------------------------------------------- the TOML subset

_TOKEN = re.compile(
    r"""[ \t\r\n]+|\#[^\n]*|'''(?P<ml>.*?)'''|'(?P<sq>[^'\n]*)'|"(?P<dq>[^"\\\n]*)"|"""
    r"""(?P<num>[+-]?[0-9][0-9_]*(?:\.[0-9_]+)?)(?![0-9:eE.\-T])|(?P<kw>true|false)\b|"""
    r"""(?P<op>[\[\],])""",
    re.S,
)
_KEY = re.compile(r"[A-Za-z0-9_-]+")


class _Unsupported(Exception):
    pass


_MISSING: Any = object()

# the most digits a number of a hand history may have: far beyond any stake or hand number,
# and far below Python's limit on reading an integer from text (4,300 digits), past which a
# number costs more to read than a whole file
MAX_DIGITS = 100


def too_many_digits(line: int = 0) -> Text:
    """The readers' refusal of a number of more than :data:`MAX_DIGITS` digits (on ``line``,
    when given: "line 3: ...")."""
    why = t("a number of more than {digits} digits: tapete reads numbers of up to {digits}"
            " digits", digits=MAX_DIGITS)
    return t("line {line}: {why}", line=str(line), why=why) if line else why


def _int(text: str) -> int:
    """``int(text)`` for the digits of a number, refusing absurd digit counts."""
    if len(text) > MAX_DIGITS:
        raise PhhError(too_many_digits())
    return int(text)


def _number(text: str) -> int | Decimal:
    s = text.replace("_", "")
    if len(s) > MAX_DIGITS + 2:  # a sign and a decimal point aside
        raise PhhError(too_many_digits())
    if "." in s:
        return Decimal(s)
    return int(s)


_STR_ITEM = r"""(?:'[^'\n]*'|"[^"\\\n]*")"""
_FLAT_STRINGS = re.compile(rf"\[\s*(?:{_STR_ITEM}\s*,\s*)*(?:{_STR_ITEM}\s*,?\s*)?\]")
_STRINGS = re.compile("'([^'\\n]*)'|\"([^\"\\\\\\n]*)\"")
_NUM = re.compile(r"[+-]?[0-9][0-9_]*(?:\.[0-9_]+)?")


def _value(text: str) -> Any:
    """Parse one TOML value of the PHH subset, or raise _Unsupported."""
    s = text.strip()
    if not s:
        raise _Unsupported(s)
    if s[0] != "[":
        # scalars: the common cases first, without the tokenizer
        c = s[0]
        if c == "'" and s[-1] == "'" and len(s) >= 2 and "'" not in s[1:-1] and "\n" not in s:
            return s[1:-1]
        if c == '"' and s[-1] == '"' and len(s) >= 2 and '"' not in s[1:-1] \
                and "\\" not in s:
            return s[1:-1]
        if s.isdigit():
            return _int(s)
        if s == "true":
            return True
        if s == "false":
            return False
        if _NUM.fullmatch(s):
            return _number(s)
        raise _Unsupported(s)
    if s[-1] == "]" and "#" not in s:
        # flat arrays: numbers, or strings (actions, names)
        if "'" not in s and '"' not in s and "[" not in s[1:]:
            flat: list[Any] = []
            parts = s[1:-1].split(",")
            if parts and not parts[-1].strip():
                parts.pop()
            for part in parts:
                x = part.strip()
                if x.isdigit():
                    flat.append(_int(x))
                elif _NUM.fullmatch(x):
                    flat.append(_number(x))
                elif x == "true" or x == "false":
                    flat.append(x == "true")
                else:
                    break
            else:
                return flat
        elif _FLAT_STRINGS.fullmatch(s):
            return [a or b for a, b in _STRINGS.findall(s)]
    stack: list[list[Any]] = []
    out: Any = None
    pos = 0
    need_sep = False
    end = len(s)
    for m in _TOKEN.finditer(s):
        if m.start() != pos:
            raise _Unsupported(s)
        pos = m.end()
        g = m.lastgroup
        if g is None:  # blank or comment
            continue
        if g == "op":
            op = m.group("op")
            if op == "[":
                if need_sep:
                    raise _Unsupported(s)
                stack.append([])
                continue
            if op == ",":
                if not need_sep or not stack:
                    raise _Unsupported(s)
                need_sep = False
                continue
            if not stack:
                raise _Unsupported(s)
            done = stack.pop()
            item: Any = done
        elif need_sep or not stack:
            raise _Unsupported(s)
        elif g == "num":
            item = _number(m.group("num"))
        elif g == "kw":
            item = m.group("kw") == "true"
        else:
            item = m.group(g)
        if stack:
            stack[-1].append(item)
            need_sep = True
        else:
            out = item
            need_sep = True
            if pos != end and s[pos:].strip():
                rest = s[pos:].strip()
                if not rest.startswith("#"):
                    raise _Unsupported(s)
            return out
    raise _Unsupported(s)


def _open_brackets(text: str) -> int:
    """Unclosed '[' in a line, ignoring strings and comments (for multi-line arrays)."""
    if "'" not in text and '"' not in text and "#" not in text:
        return text.count("[") - text.count("]")
    depth = 0
    for m in _TOKEN.finditer(text):
        if m.lastgroup == "op":
            op = m.group("op")
            if op == "[":
                depth += 1
            elif op == "]":
                depth -= 1
    return depth


def _tomllib_value(key: str, raw: str) -> Any:
    import tomllib  # imported when a file needs it: most never do

    return tomllib.loads(f"x = {raw}", parse_float=Decimal)["x"]



def parse_toml(text: str) -> list[tuple[str | None, dict[str, Any]]]:
    """The tables of a PHH document: [(None, fields)] for ``.phh``, [(name, fields), ...] for
    ``.phhs``. Raises :class:`PhhError` with the line number on a syntax error."""
    # the common shape first: one `key = value` per line, no blank line, comment or table
    fields = _simple_fields(text.strip())
    if fields is not None:
        return [(None, fields)]
    return _parse_toml_lines(text)


# keys of the simple shape ([A-Za-z0-9_]+), checked once each
_SIMPLE_KEYS: set[str] = set()
_KEY_CHARS = re.compile(r"[A-Za-z0-9_]+")
_INT_ARRAYS: dict[str, list[int]] = {}  # "[50, 100, 0]" -> [50, 100, 0] (copied on use)


def _simple_fields(body: str) -> dict[str, Any] | None:
    """The fields of a document made only of ``key = value`` lines (a key of
    ``[A-Za-z0-9_]``, one space either side of ``=``, each value one :func:`_value` reads),
    or None for anything else. The usual values
    are read here without regular expressions: a literal string, whole numbers, arrays of
    whole numbers written ``[1, 2]`` and arrays of literal strings written ``['a', 'b']``;
    any other value goes through :func:`_value`, which gives the same results for these."""
    fields: dict[str, Any] = {}
    keys = _SIMPLE_KEYS
    for line in body.split("\n"):
        key, sep, raw = line.partition(" = ")
        if not sep or not raw:
            return None
        if key not in keys:
            if not _KEY_CHARS.fullmatch(key) or len(keys) > 1000:
                return None
            keys.add(key)
        c = raw[0]
        last = raw[-1]
        try:
            if c == "[" and last == "]":
                if raw[1] == "'":
                    # ['a', 'b']: split on the separators; no quote may be left over
                    if raw[-2] == "'":
                        items = raw[2:-2].split("', '")
                        if raw.count("'") == 2 * len(items):
                            value: Any = items
                        else:
                            value = _value(raw)
                    else:
                        value = _value(raw)
                else:
                    # a table's blinds, antes and stacks recur from hand to hand: read once
                    table_array = key == "starting_stacks" or key == "antes" \
                        or key == "blinds_or_straddles"
                    known = _INT_ARRAYS.get(raw) if table_array else None
                    if known is not None:
                        value = known[:]
                    else:
                        inner = raw[1:-1]
                        digits = inner.replace(", ", "")
                        if digits.isdigit() and digits.isascii():
                            items = inner.split(", ")
                            if len(digits) > MAX_DIGITS and \
                                    max(map(len, items)) > MAX_DIGITS:
                                raise PhhError(too_many_digits())
                            try:
                                ints = [int(x) for x in items]
                            except ValueError:  # an empty item: "[1, ]"
                                value = _value(raw)
                            else:
                                value = ints
                                if table_array:
                                    if len(_INT_ARRAYS) > 10_000:
                                        _INT_ARRAYS.clear()
                                    _INT_ARRAYS[raw] = ints[:]
                        else:
                            value = _value(raw)
            elif c == "'" and last == "'" and len(raw) >= 2 and raw.count("'") == 2:
                value = raw[1:-1]
            elif raw.isdigit() and raw.isascii():
                value = _int(raw)
            elif raw == "true":
                value = True
            elif raw == "false":
                value = False
            else:
                value = _value(raw)
        except _Unsupported:
            return None
        if key in fields:
            return None
        fields[key] = value
    return fields


def _parse_toml_lines(text: str) -> list[tuple[str | None, dict[str, Any]]]:
    tables: list[tuple[str | None, dict[str, Any]]] = []
    current: dict[str, Any] = {}
    name: str | None = None
    lines = text.split("\n")
    i = 0
    n = len(lines)
    started = False
    while i < n:
        line = lines[i]
        s = line.strip()
        i += 1
        if not s or s[0] == "#":
            continue
        if s[0] == "[":
            close = s.find("]")
            rest = s[close + 1:].strip() if close > 0 else "x"
            if close < 0 or (rest and rest[0] != "#"):
                raise PhhError(t("line {line}: cannot read the table header {header}", line=str(i),
                                 header=repr(s)))
            header = s[1:close].strip()
            if len(header) >= 2 and header[0] == header[-1] and header[0] in "'\"":
                header = header[1:-1]
            if started or current:
                tables.append((name, current))
            name = header
            current = {}
            started = True
            continue
        eq = s.find("=")
        if eq <= 0:
            raise PhhError(t("line {line}: expected 'key = value', found {found}", line=str(i),
                             found=repr(s[:60])))
        key = s[:eq].strip()
        if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"":
            key = key[1:-1]
        elif not _KEY.fullmatch(key):
            raise PhhError(t("line {line}: cannot read the key {key}", line=str(i), key=repr(key)))
        raw = s[eq + 1:]
        first = i
        value: Any = _MISSING
        if raw.lstrip().startswith("["):
            if raw.rstrip().endswith("]"):
                with contextlib.suppress(_Unsupported):
                    value = _value(raw)
            if value is _MISSING:
                depth = _open_brackets(raw)
                while depth > 0 and i < n:
                    nxt = lines[i]
                    i += 1
                    raw += "\n" + nxt
                    depth += _open_brackets(nxt)
                if depth > 0:
                    raise PhhError(t("line {line}: the array of {key} is never closed",
                                     line=str(first), key=repr(key)))
        if value is _MISSING:
            try:
                value = _value(raw)
            except _Unsupported:
                try:
                    value = _tomllib_value(key, raw)
                except ValueError as exc:  # TOMLDecodeError, or an integer too long to read
                    import tomllib

                    if not isinstance(exc, tomllib.TOMLDecodeError):
                        raise PhhError(too_many_digits(first)) from None
                    # TOML's explanation is in English: other languages quote the value
                    why = Text(str(exc), repr(raw.strip()[:60]))
                    raise PhhError(t("line {line}: cannot read the value of {key}: {why}",
                                     line=str(first), key=repr(key), why=why)) from None
        if key in current:
            raise PhhError(t("line {line}: {key} is given twice", line=str(first), key=repr(key)))
        current[key] = value
    if current or started:
        tables.append((name, current))
    return tables


# ---------------------------------------------------------------------------- reading

@dataclass(slots=True)
class PhhHand:
    """One hand of a PHH file: the record, or the error that kept it from being read."""

    source: str
    hand: str
    record: HandRecord | None
    error: Text | None = None

    # written out (the dataclass keeps it): compiled, it costs a fifth of the generated one
    def __init__(self, source: str, hand: str, record: HandRecord | None,
                 error: Text | None = None) -> None:
        self.source = source
        self.hand = hand
        self.record = record
        self.error = error


def _places(x: Any) -> int:
    if isinstance(x, Decimal):
        exp = x.as_tuple().exponent
        return -exp if isinstance(exp, int) and exp < 0 else 0
    return 0


def _is_amount(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, Decimal)


_ACTIONS_NOT_TEXTS = N_("'actions' must be a list of strings")
NO_HAND = N_("no hand in this file")
UNREADABLE = N_("unreadable hand")


def _per_player(key: str, n: int) -> Text:
    return t("{key} must hold one amount per player ({n})", key=repr(key), n=n)


_RULES: dict[tuple[tuple[str, Any], ...], Rules] = {}
_ROOM_FIELDS = frozenset(("_dead_blinds", "_min_raise", "_bet_cap", "_cap_heads_up", "_rake",
                          "_rake_cap", "_no_flop_no_drop", "_rake_fixed", "_hand_cap"))


def _unit(x: Any, scale: int, what: str) -> int:
    """An amount of the file in the hand's smallest unit (``scale``: 10 ** its decimals)."""
    if isinstance(x, int):
        return int(x * scale)
    v = x * scale
    iv = int(v)
    if iv != v:
        raise PhhError(t("{what}: {amount} is finer than the smallest unit", what=what,
                         amount=str(x)))
    return iv


def _units(xs: list[Any], scale: int, what: str) -> list[int]:
    if scale == 1 and _all_ints(xs):
        return xs[:]
    return [_unit(x, scale, what) for x in xs]


def _smallest(xs: list[int]) -> int:
    """``min(xs)`` of a non-empty list, compiled to a loop (the builtin is a generic call)."""
    low = xs[0]
    for x in xs:
        if x < low:
            low = x
    return low


def _all_ints(xs: list[Any]) -> bool:
    """Every item is an int (not a bool, a decimal...)."""
    return all(type(x) is int for x in xs)


def _straddles(blinds: list[int], big_blind: int) -> list[int]:
    """Each player's straddle (0: none) of a ``blinds_or_straddles`` of three players or more:
    p1 and p2 post the blinds, and an entry of p3 onwards above the big blind is a straddle
    (the next one a re-straddle); one no larger is a live blind, as a returning player posts."""
    return [x if k >= 2 and x > big_blind else 0 for k, x in enumerate(blinds)]


def read_hand(fields: dict[str, Any], source: str = "", hand_id: str = "") -> HandRecord:
    """One hand's fields (as :func:`parse_toml` gives them) -> a :class:`HandRecord`."""
    variant = fields.get("variant")
    if not isinstance(variant, str):
        raise PhhError(t("the field 'variant' is missing"))
    structure = VARIANTS.get(variant)
    if structure is None:
        raise PhhError(t("unsupported variant {variant} (tapete reads NT, FT, PT, PO, FO/8 "
                         "and PO/8)",
                         variant=repr(variant)))
    game = VARIANT_GAMES.get(variant)  # None: hold'em
    for key in ("starting_stacks", "actions", "antes", "blinds_or_straddles"):
        if key not in fields:
            raise PhhError(t("the field {key} is missing", key=repr(key)))
    fixed = structure is Structure.FIXED_LIMIT
    required = ("small_bet", "big_bet") if fixed else ("min_bet",)
    for key in required:
        if key not in fields:
            raise PhhError(t("the field {key} is missing (needed by {variant})", key=repr(key),
                             variant=variant))
    stacks_raw = fields["starting_stacks"]
    if not isinstance(stacks_raw, list) or not stacks_raw:
        raise PhhError(t("'starting_stacks' must be a list of amounts"))
    n = len(stacks_raw)
    actions = fields["actions"]
    if not isinstance(actions, list):
        raise PhhError(t(_ACTIONS_NOT_TEXTS))

    # the smallest unit: the most decimal places among the amounts that define the hand
    places = 0
    lists: list[list[Any]] = []
    for key in ("antes", "blinds_or_straddles", "starting_stacks"):
        v = fields[key]
        if type(v) is not list:
            if _is_amount(v):  # a single value for everyone
                v = [v] * n
            if not isinstance(v, list) or len(v) != n:
                raise PhhError(_per_player(key, n))
        elif len(v) != n:
            raise PhhError(_per_player(key, n))
        if not _all_ints(v):
            for x in v:
                if type(x) is not int:
                    if not _is_amount(x):
                        raise PhhError(_per_player(key, n))
                    places = max(places, _places(x))
        lists.append(v)
    for key in ("min_bet", "small_bet", "big_bet", "_rake_cap", "_hand_cap", *_HOME_AMOUNTS):
        v = fields.get(key)
        if v is not None and type(v) is not int:
            if not _is_amount(v):
                raise PhhError(t("{key} must be an amount", key=repr(key)))
            places = max(places, _places(v))
    rake_fixed_raw = fields.get("_rake_fixed")
    if rake_fixed_raw is not None:
        if not isinstance(rake_fixed_raw, list) or not rake_fixed_raw or \
                not all(_is_amount(x) and x >= 0 for x in rake_fixed_raw):
            raise PhhError(t("'_rake_fixed' must hold one non-negative amount per pot"))
        for x in rake_fixed_raw:
            if type(x) is not int:
                places = max(places, _places(x))
    # the steps: every action text read once for all hands (see _ACTIONS); a text not seen
    # before, or one that is not a string, goes through _read_actions, which says what is
    # wrong with the first bad one
    known = _ACTIONS_FOR.get(n)  # the texts already read whose player is one of p1..p{n}
    try:
        if known is None:
            raise KeyError
        parsed = [known[a] for a in actions]
    except (KeyError, TypeError):
        parsed = _read_actions(actions, n)
    for st in parsed:  # a decimal bet (kept as its text until the unit is known)
        if st[0] == "act" and type(st[2]) is str:
            raw_bet: str = st[2]
            bet_places = len(raw_bet) - raw_bet.index(".") - 1
            if bet_places > places:
                places = bet_places
    scale: int = 10**places

    stacks = _units(lists[2], scale, "starting_stacks")
    blinds = _units(lists[1], scale, "blinds_or_straddles")
    antes = _units(lists[0], scale, "antes")
    if _smallest(blinds) < 0 or _smallest(antes) < 0:
        raise PhhError(t("negative blinds (bring-ins) or antes are not hold'em"))
    if _smallest(stacks) <= 0:
        raise PhhError(t("every starting stack must be positive"))
    dead: list[int] | None = None
    dead_raw = fields.get("_dead_blinds")
    if dead_raw is not None:  # tapete's: the part of each ante that is a dead blind
        if not isinstance(dead_raw, list) or len(dead_raw) != n or \
                not all(_is_amount(x) for x in dead_raw):
            raise PhhError(_per_player("_dead_blinds", n))
        dead = _units(dead_raw, scale, "_dead_blinds")
        if any(d < 0 or d > a for d, a in zip(dead, antes, strict=True)):
            raise PhhError(t("'_dead_blinds' must be part of each player's ante"))
        antes = [a - d for a, d in zip(antes, dead, strict=True)]
    if n == 2:  # heads-up: p1 is the big blind, p2 the button posting the small blind
        blinds = [blinds[1], blinds[0]]
        antes = [antes[1], antes[0]]
        if dead is not None:
            dead = [dead[1], dead[0]]
    home = _read_home(fields, n, scale, antes, blinds)
    if home.bomb:
        antes = [0] * n  # the antes a bomb pot's are its ante (_bomb_pot)

    if fixed:
        small_bet = _unit(fields["small_bet"], scale, "small_bet")
        big_bet = _unit(fields["big_bet"], scale, "big_bet")
        min_bet = 0
    else:
        small_bet = big_bet = 0
        min_bet = _unit(fields["min_bet"], scale, "min_bet")
    sym = fields.get("currency_symbol")
    currency = sym if isinstance(sym, str) else ""
    # hands of one table share their rules (frozen): found by what decides them, before any
    # of the work of deciding them, when no room-rule field is given
    mr = fields.get("_min_raise")
    cap = fields.get("_bet_cap")
    cap_hu = fields.get("_cap_heads_up")
    nfnd = fields.get("_no_flop_no_drop")
    rake = fields.get("_rake")
    rake_cap = fields.get("_rake_cap")
    hand_cap = fields.get("_hand_cap")
    plain = mr is None and cap is None and cap_hu is None and nfnd is None and rake is None \
        and rake_cap is None and rake_fixed_raw is None and hand_cap is None \
        and home is _NO_HOME
    plain_key = (variant, tuple(blinds), tuple(antes), small_bet, big_bet, min_bet, places,
                 currency)
    rules = _PLAIN_RULES.get(plain_key) if plain else None
    if rules is None:
        first_two = sorted(blinds[:2]) if n > 2 else sorted(blinds)
        bb = (first_two[-1] or small_bet) if fixed else min_bet
        sb = min(first_two[0], bb) if len(first_two) > 1 else 0
        # the table's straddle: the first (smallest) one; a larger one is a re-straddle
        straddle = min((x for x in blinds[2:] if x > bb), default=0) if n > 2 else 0
        nonzero_antes = [x for x in antes if x]
        kwargs: dict[str, Any] = {
            "structure": structure,
            "small_blind": sb,
            "big_blind": bb,
            "ante": max(antes),
            # one player's ante is a big-blind ante, heads-up too (TDA 2024: posted after the
            # blind, and not reduced heads-up)
            "big_blind_ante": len(nonzero_antes) == 1,
            "straddle": straddle,
            "small_bet": small_bet,
            "big_bet": big_bet,
            "decimals": places,
            "currency": currency,
        }
        if game is not None:
            kwargs["game"] = game
            if mr is None and not fixed:
                # the standard's pot-limit minimum (PokerKit's): the TDA increment
                kwargs["min_raise"] = MinRaise.LAST_RAISE
        if mr is not None:
            try:
                kwargs["min_raise"] = MinRaise(mr)
            except ValueError:
                raise PhhError(t("_min_raise must be 'last-raise' or 'last-bet', not {mr}",
                                 mr=repr(mr))) from None
        if cap is not None:
            if not isinstance(cap, int) or isinstance(cap, bool) or cap < 0:
                raise PhhError(t("_bet_cap must be a whole number (0: no cap)"))
            kwargs["bet_cap"] = cap or None
        for key, arg, v in (("_cap_heads_up", "cap_heads_up", cap_hu),
                            ("_no_flop_no_drop", "no_flop_no_drop", nfnd)):
            if v is not None:
                if not isinstance(v, bool):
                    raise PhhError(t("{key} must be true or false", key=key))
                kwargs[arg] = v
        if rake is not None:
            if not _is_amount(rake) or not 0 <= rake <= 1:
                raise PhhError(t("_rake must be a fraction of the pot between 0 and 1"))
            bps = Decimal(rake) * 10_000
            if bps != int(bps):
                raise PhhError(t("_rake must be a whole number of basis points (0.0001)"))
            kwargs["rake_bps"] = int(bps)
        if rake_cap is not None:
            kwargs["rake_cap"] = _unit(rake_cap, scale, "_rake_cap")
        if hand_cap is not None:
            kwargs["hand_cap"] = _unit(hand_cap, scale, "_hand_cap")
        if rake_fixed_raw is not None:
            kwargs["rake_fixed"] = tuple(_units(rake_fixed_raw, scale, "_rake_fixed"))
        if home.bounty:
            kwargs["bounty_72"] = home.bounty
        if home.small_blind is not None:
            kwargs["small_blind"] = home.small_blind
        rules_key = tuple(kwargs.items())
        rules = _RULES.get(rules_key)  # rules are frozen: hands of one table share them
        if rules is None:
            try:
                rules = Rules(**kwargs)
            except RulesError as exc:
                why = rules_problem(exc)
                raise PhhError(t("the blinds and bets cannot be played: {why}",
                                 why=why)) from None
            if len(_RULES) > 10_000:
                _RULES.clear()
            _RULES[rules_key] = rules
        if plain:
            if len(_PLAIN_RULES) > 10_000:
                _PLAIN_RULES.clear()
            _PLAIN_RULES[plain_key] = rules

    if places:
        steps: list[Step] = []
        for st in parsed:
            if st[0] == "act" and (type(st[2]) is str or st[2].to is not None):
                raw = st[2] if type(st[2]) is str else st[2].to
                amount = raw * scale if type(raw) is int else _unit(Decimal(raw), scale,
                                                                     "actions")
                steps.append(("act", st[1], bet_or_raise(amount)))
            else:
                steps.append(st)
    else:
        steps = parsed

    record = HandRecord(rules, stacks, steps, n - 1, blinds, antes, dead, None, None, hand_id,
                        source)
    if n > 2 and max(blinds[2:]) > rules.big_blind:  # p3 onwards: most hands have none
        record.straddles = _straddles(blinds, rules.big_blind)
    record.texts = actions if not any("#" in a for a in actions) else [
        a.split("#", 1)[0].strip() or a.strip() for a in actions]
    names = fields.get("players")
    if isinstance(names, list) and len(names) == n and all(type(x) is str for x in names):
        record.names = names
    seats = fields.get("seats")
    if isinstance(seats, list) and len(seats) == n and _all_ints(seats):
        record.seats = seats
    extra = record.extra
    fin = fields.get("finishing_stacks")
    if fin is not None:
        if not isinstance(fin, list) or len(fin) != n or not (
                _all_ints(fin) or all(_is_amount(x) for x in fin)):
            raise PhhError(_per_player("finishing_stacks", n))
        try:
            record.finishing_stacks = _units(fin, scale, "finishing_stacks")
        except PhhError:
            record.finishing_stacks = None
        extra["finishing_stacks_text"] = [str(x) for x in fin]
    win = fields.get("winnings")
    if isinstance(win, list) and len(win) == n and all(_is_amount(x) for x in win):
        extra["winnings_text"] = [str(x) for x in win]
    extra["variant"] = variant
    extra["format"] = "phh"
    table = fields.get("table")
    if isinstance(table, (str, int)) and not isinstance(table, bool):
        extra["table"] = str(table)
    seat_count = fields.get("seat_count")
    if type(seat_count) is int and seat_count >= n:
        extra["max_seats"] = seat_count
    if "year" in fields:
        date = _date_text(fields)
        if date:
            extra["date"] = date
    if "ante_trimming_status" in fields:
        extra["ante_trimming_status"] = fields["ante_trimming_status"]
    room = _ROOM_FIELDS
    for key in fields:
        if key[0] == "_" and key not in room:
            extra[key] = fields[key]
    if not hand_id:
        h = fields.get("hand")
        if h is not None and not isinstance(h, (list, dict)):
            record.hand_id = str(h)
    home.keep(record)
    return record


_DATE = re.compile(r"(\d{4})/(\d\d)/(\d\d)(?: (\d{1,2}):(\d\d):(\d\d))?(?: (\S+))?")


def _date_text(fields: dict[str, Any]) -> str:
    """A PHH file's date (``year``, ``month``, ``day``, ``time``, ``time_zone_abbreviation``)
    as PokerStars writes one, ``2015/04/19 11:46:35 ET``; "" without a whole date."""
    y, m, d = fields.get("year"), fields.get("month"), fields.get("day")
    if type(y) is not int or type(m) is not int or type(d) is not int \
            or not (0 < y < 10_000 and 1 <= m <= 12 and 1 <= d <= 31):
        return ""
    import datetime

    clock = fields.get("time")
    h = mi = sec = 0
    if isinstance(clock, datetime.time):
        h, mi, sec = clock.hour, clock.minute, clock.second
    out = f"{y:04d}/{m:02d}/{d:02d} {h}:{mi:02d}:{sec:02d}"
    tz = fields.get("time_zone_abbreviation")
    if isinstance(tz, str) and tz and tz.isprintable() and " " not in tz:
        out += f" {tz}"
    return out


def date_lines(date: str) -> list[str]:
    """PHH's date fields for a date written as PokerStars writes one
    (``2015/04/19 11:46:35 ET``): ``year``, ``month``, ``day``, then ``time`` and
    ``time_zone_abbreviation`` when given; none for a text that is not such a date."""
    m = _DATE.match(date.strip())
    if m is None:
        return []
    y, mo, d, h, mi, sec, tz = m.groups()
    if not (1 <= int(mo) <= 12 and 1 <= int(d) <= 31):
        return []
    out = [f"year = {int(y)}", f"month = {int(mo)}", f"day = {int(d)}"]
    if h is not None and int(h) < 24 and int(mi) < 60 and int(sec) < 60:
        out.append(f"time = {int(h):02d}:{mi}:{sec}")
    if tz is not None:
        out.append(f"time_zone_abbreviation = {_toml_str(tz)}")
    return out


def _read_actions(actions: list[Any], n: int) -> list[Step]:
    """The steps of ``actions``, reading each text not seen before (and remembering it), with
    the error of the first one that is not an action of this hand's players."""
    cache = _ACTIONS
    if len(cache) > 50_000:  # the caches are cleared together, never in the middle of a hand
        cache.clear()
        _ACTIONS_FOR.clear()
    known = _ACTIONS_FOR.get(n)
    if known is None:
        known = _ACTIONS_FOR[n] = {}
    parsed: list[Step] = []
    for a in actions:
        st = cache.get(a) if type(a) is str else None
        if st is None:
            if not isinstance(a, str):
                raise PhhError(t(_ACTIONS_NOT_TEXTS))
            st = _action(a)
            cache[a] = st
        if st[0] != "board" and st[0] != "runs" and st[1] >= n:
            raise PhhError(t("action {action}: there is no player p{player} (p1..p{n})",
                             action=repr(a), player=str(st[1] + 1), n=n))
        known[a] = st
        parsed.append(st)
    return parsed


def _player(word: str, action: str) -> int:
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit() or word[1] == "0" \
            or len(word) > 4:
        raise PhhError(t("action {action}: {word} is not a player (p1, p2...)", action=repr(action),
                         word=repr(word)))
    return int(word[1:]) - 1


# action text -> step, shared by all hands (the same few thousand strings recur: "p3 f",
# "d dh p1 AhKd"...); steps are immutable and checked against the hand's players on use
_ACTIONS: dict[str, Step] = {}
# the same, per number of players: only the texts whose player is in a hand of that size
_ACTIONS_FOR: dict[int, dict[str, Step]] = {}
_PLAIN_RULES: dict[tuple[Any, ...], Rules] = {}  # see read_hand


_CARD = {r + s: i * 4 + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}


def _cards(text: str, action: str) -> tuple[int, ...] | None:
    if "?" in text:
        return None
    if len(text) == 4:
        a, b = _CARD.get(text[:2]), _CARD.get(text[2:])
        if a is not None and b is not None and a != b:
            return (a, b)
    elif len(text) == 6:
        a, b, c = _CARD.get(text[:2]), _CARD.get(text[2:4]), _CARD.get(text[4:])
        if a is not None and b is not None and c is not None and a != b != c != a:
            return (a, b, c)
    elif len(text) == 2:
        a = _CARD.get(text)
        if a is not None:
            return (a,)
    try:
        return parse_cards(text)
    except CardError as exc:
        why = card_problem(exc, text)
        raise PhhError(t("action {action}: {why}", action=repr(action), why=why)) from None


def _action(action: str) -> Step:
    """One PHH action string -> a step (a bet's amount still as written)."""
    w = (action.split("#", 1)[0] if "#" in action else action).split()
    size = len(w)
    if size >= 2:
        first, verb = w[0], w[1]
        if first == "d":
            if verb == "dh" and size == 4:
                return ("hole", _player(w[2], action), _cards(w[3], action))
            if verb == "db" and size == 3:
                cards = _cards(w[2], action)
                if cards is None:
                    raise PhhError(t("action {action}: board cards must be known",
                                     action=repr(action)))
                return ("board", cards)
            raise PhhError(t("action {action}: unknown dealing action", action=repr(action)))
        p = _player(first, action)
        if size == 2:
            if verb == "cc":
                return ("act", p, CHECK_OR_CALL)
            if verb == "f":
                return ("act", p, FOLD)
            if verb == "sm":
                return ("muck", p)
        elif size == 3:
            if verb == "cbr":
                raw = w[2]
                if len(raw) > MAX_DIGITS + 2:
                    why = too_many_digits()
                    said = repr(action[:40] + "...")
                    raise PhhError(t("action {action}: {why}", action=said, why=why))
                if raw.isdigit():
                    amount: int | str = int(raw)
                elif _NUM.fullmatch(raw) and "." in raw:
                    amount = raw.replace("_", "")  # scaled once the hand's unit is known
                else:
                    raise PhhError(t("action {action}: {raw} is not an amount", action=repr(action),
                                     raw=repr(raw)))
                if Decimal(amount) <= 0:
                    raise PhhError(t("action {action}: a bet or raise must be positive",
                                     action=repr(action)))
                # a decimal amount stays text here, in the action's place, until the hand's
                # unit is known (read_hand scales it)
                return ("act", p, bet_or_raise(amount) if type(amount) is int else amount)
            if verb == "sm":
                if w[2] == "-":
                    return ("show", p, None)
                return ("show", p, _cards(w[2], action))
    elif not size:
        runs = _runs_note(action)
        if runs is not None:
            return runs
    raise PhhError(t("unknown action {action}", action=repr(action)))


def read_text(text: str, source: str = "") -> list[PhhHand]:
    """Every hand of a ``.phh`` or ``.phhs`` text. A hand that cannot be read carries its
    error; a document that cannot be parsed at all is one hand with the error."""
    try:
        tables = parse_toml(text)
    except PhhError as exc:
        return [PhhHand(source, "", None, exc.message)]
    except Exception as odd:  # an odd value the subset parser and tomllib both choke on
        return [PhhHand(source, "", None, t("cannot read the file: {error}", error=repr(odd)))]
    out: list[PhhHand] = []
    multi = len(tables) > 1 or (tables and tables[0][0] is not None)
    for index, (name, fields) in enumerate(tables):
        label = name if name is not None else ""
        if multi and not label:
            label = str(index + 1)
        try:
            record = read_hand(fields, source, label)
        except PhhError as bad:
            out.append(PhhHand(source, label, None, bad.message))
            continue
        except Exception as odd:  # never a traceback for one odd hand: report it on the hand
            out.append(PhhHand(source, label, None,
                               t("cannot read this hand: {error}", error=repr(odd))))
            continue
        out.append(PhhHand(source, label or record.hand_id, record))
    if not out:
        out.append(PhhHand(source, "", None, t(NO_HAND)))
    return out


def read_file(path: str) -> list[PhhHand]:
    """Read a ``.phh`` or ``.phhs`` file (UTF-8)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        return [PhhHand(path, "", None, file_problem(exc))]
    return read_text(text, path)


def iter_records(text: str, source: str = "") -> Iterator[HandRecord]:
    """The records of a text, raising :class:`PhhError` on the first hand that cannot be read."""
    for h in read_text(text, source):
        if h.record is None:
            raise PhhError(h.error or t(UNREADABLE))
        yield h.record


def loads(text: str) -> HandRecord:
    """The single hand of a ``.phh`` text (raises :class:`PhhError`)."""
    records = list(iter_records(text))
    if len(records) != 1:
        raise PhhError(t("expected one hand, found {found}", found=str(len(records))))
    return records[0]


# ---------------------------------------------------------------------------- writing

def format_amount(amount: int, decimals: int) -> str:
    """Chips of the smallest unit -> the PHH number text (``50`` with 2 decimals -> ``0.50``)."""
    if not decimals:
        return str(amount)
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(amount), 10**decimals)
    return f"{sign}{whole}.{str(frac).rjust(decimals, '0')}"


def _toml_str(s: str) -> str:
    if "'" not in s and "\n" not in s:
        return f"'{s}'"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dumps(hand: Any, *, extra: dict[str, Any] | None = None, table: str = "",
          date: str = "", max_seats: int = 0) -> str:
    """A tapete :class:`~tapete.core.hand.Hand` (finished or not) -> ``.phh`` text.

    The hand's players are written in PHH order (first after the button first, the button
    last; heads-up the big blind first). Hole cards unknown to the hand are written ``????``.
    Seat numbers other than the default 0, 1, 2... are written in ``seats``; ``table``,
    ``date`` (as PokerStars writes one: ``2015/04/19 11:46:35 ET``) and ``max_seats`` in the
    standard's ``table``, ``year``/``month``/``day``/``time``/``time_zone_abbreviation`` and
    ``seat_count``.
    """
    from tapete.core import events as ev

    rules: Rules = hand.rules
    n: int = hand.n
    game: Game = rules.game
    if game == HOLDEM:
        code = CODES[rules.structure]
    else:
        found = GAME_CODES.get((game, rules.structure))
        if found is None:
            raise PhhError(t("PHH has no variant for {game} ({structure}): tapete writes "
                             "hold'em, pot-limit Omaha and Omaha hi-lo", game=game.name,
                             structure=rules.structure.value))
        code = found
    d = rules.decimals
    # PHH order: the player after the button is p1 (heads-up: the big blind, after the button)
    order = [(hand.button + 1 + k) % n for k in range(n)]
    index = {p: k for k, p in enumerate(order)}

    def amt(x: int) -> str:
        return format_amount(x, d)

    def arr(xs: Sequence[int]) -> str:
        return "[" + ", ".join(amt(x) for x in xs) + "]"

    blinds = [hand.blinds[p] for p in order]
    # PHH has no dead blinds: they are dead money like antes, so they are written in the
    # antes (what other readers need) and named in _dead_blinds (what tapete restores)
    dead = [hand.dead[p] for p in order]
    antes = [hand.antes[p] + hand.dead[p] + hand.bomb for p in order]  # a bomb pot's too
    if n == 2:
        blinds = [blinds[1], blinds[0]]
        antes = [antes[1], antes[0]]
        dead = [dead[1], dead[0]]
    lines = [f"variant = '{code}'",
             f"ante_trimming_status = {'true' if len(set(antes)) == 1 else 'false'}",
             f"antes = {arr(antes)}",
             f"blinds_or_straddles = {arr(blinds)}"]
    if rules.structure is Structure.FIXED_LIMIT:
        lines.append(f"small_bet = {amt(rules.small_bet)}")
        lines.append(f"big_bet = {amt(rules.big_bet)}")
    else:
        lines.append(f"min_bet = {amt(rules.big_blind)}")
    lines.append(f"starting_stacks = {arr([hand.starting_stacks[p] for p in order])}")
    acts: list[str] = []

    def who(p: int) -> str:
        return f"p{index[p] + 1}"

    unknown = "??" * game.hole_cards  # each unknown hole card is "??"
    for e in hand.events:
        kind = type(e)
        if kind is ev.HoleDealt:
            cards = format_cards(e.cards) if e.cards is not None else unknown
            acts.append(f"d dh {who(e.player)} {cards}")
        elif kind is ev.BoardDealt:  # each run's (and board's) cards, as they are dealt
            acts.append(f"d db {format_cards(e.cards)}")
        elif kind is ev.Acted:
            a = acted(e)  # PHH's notation, an amount in the file's units
            acts.append(f"{who(e.player)} " + (a.to_phh() if a.to is None
                                               else f"cbr {amt(a.to)}"))
        elif kind is ev.Shown:
            acts.append(f"{who(e.player)} sm {format_cards(e.cards)}")
        elif kind is ev.Mucked:
            acts.append(f"{who(e.player)} sm")
        elif kind is ev.RunsChosen:
            acts.append(runs_note(e.runs))
    lines.append("actions = [\n" + "".join(f"  {_toml_str(a)},\n" for a in acts) + "]")
    if hand.hand_id:
        h = hand.hand_id
        lines.append(f"hand = {h if str(h).isdigit() else _toml_str(str(h))}")
    lines.append("players = [" + ", ".join(_toml_str(hand.names[p]) for p in order) + "]")
    seats = tuple(hand.seats)
    if seats != tuple(range(n)):
        lines.append("seats = [" + ", ".join(str(seats[p]) for p in order) + "]")
    if max_seats:
        lines.append(f"seat_count = {int(max_seats)}")
    if table:
        lines.append(f"table = {_toml_str(table)}")
    if date:
        lines.extend(date_lines(date))
    if rules.currency:
        lines.append(f"currency_symbol = {_toml_str(rules.currency)}")
    if any(dead):
        lines.append(f"_dead_blinds = {arr(dead)}")
    min_raise = rules.min_raise
    if min_raise is None and code in VARIANT_GAMES and rules.structure is Structure.POT_LIMIT:
        # read back as the TDA increment otherwise
        min_raise = rules.min_raise_rule
    if min_raise is not None:
        lines.append(f"_min_raise = '{min_raise.value}'")
    if rules.structure is Structure.FIXED_LIMIT and rules.bet_cap != 4:
        lines.append(f"_bet_cap = {rules.bet_cap or 0}")
    if rules.structure is Structure.FIXED_LIMIT and not rules.cap_heads_up:
        lines.append("_cap_heads_up = false")
    if rules.rake_bps:
        lines.append(f"_rake = {format_amount(rules.rake_bps, 4)}")
        if rules.rake_cap is not None:
            lines.append(f"_rake_cap = {amt(rules.rake_cap)}")
        if not rules.no_flop_no_drop:
            lines.append("_no_flop_no_drop = false")
    if rules.rake_fixed is not None:
        lines.append(f"_rake_fixed = {arr(rules.rake_fixed)}")
    if rules.hand_cap is not None:
        lines.append(f"_hand_cap = {amt(rules.hand_cap)}")
    lines.extend(home_lines(hand, who, amt))
    if hand.done:
        lines.append(f"finishing_stacks = {arr([hand.stacks[p] for p in order])}")
    for key, value in (extra or {}).items():
        lines.append(f"{key} = {_toml_str(value) if isinstance(value, str) else value}")
    return "\n".join(lines) + "\n"


def join_hands(texts: Sequence[str], labels: Sequence[str] | None = None) -> str:
    """Several hands' ``.phh`` texts (:func:`dumps`) as one ``.phhs`` text: each under its
    number, ``[1]``, ``[2]``, ..., a single hand as it is (a ``.phh``); or each under its
    label (``labels``, one a hand: bare TOML keys, such as the hands' numbers at their
    table), a single hand too. A reader gives each hand its label as its id."""
    if labels is not None:
        return "".join(f"[{label}]\n{text}\n" for label, text in zip(labels, texts, strict=True))
    if len(texts) > 1:
        return "".join(f"[{k}]\n{text}\n" for k, text in enumerate(texts, 1))
    return "".join(texts)


# ---------------------------------------------------------------------------- fair dealing
# tapete's user fields for provably fair dealing (tapete.core.fair, docs/fairness.md), apart
# from the rest of the reader and the writer: ``_fair_commitment`` (the SHA-256 published
# before the hand, in hex), ``_fair_deck`` (the deck revealed after it, in dealing order, as
# one text of 104 characters: ``'AhKd2c...'``) and ``_fair_secret`` (the secret revealed with
# it, in hex). ``dumps(hand, extra=fair_fields(deal))`` writes them; read_hand keeps them in
# ``record.extra`` as it keeps every user field it does not know, and :func:`fair_values`
# gives them back. A hand without ``_fair_commitment`` is not committed.

FAIR_COMMITMENT = "_fair_commitment"
FAIR_DECK = "_fair_deck"
FAIR_SECRET = "_fair_secret"
FAIR_FIELDS = (FAIR_COMMITMENT, FAIR_DECK, FAIR_SECRET)


def fair_fields(deal: fair.FairDeal | str) -> dict[str, str]:
    """The user fields of a hand's fair deal, for :func:`dumps`'s ``extra``: all three for a
    :class:`~tapete.core.fair.FairDeal` (the hand is over, the deck revealed), the commitment
    alone for its text (published, not yet revealed)."""
    if isinstance(deal, str):
        return {FAIR_COMMITMENT: deal}
    texts = deal.to_json()
    return {FAIR_COMMITMENT: texts["commitment"], FAIR_DECK: texts["deck"],
            FAIR_SECRET: texts["secret"]}


def kept_fair_fields(extra: dict[str, Any]) -> dict[str, str]:
    """The fair-deal fields a record read (its ``extra``), to write again as they were
    (``tapete convert`` to PHH keeps them)."""
    return {key: extra[key] for key in FAIR_FIELDS if isinstance(extra.get(key), str)}


def fair_values(record: HandRecord) -> tuple[Any, Any, Any]:
    """(commitment, deck, secret) as a record's file gives them (None: the field is absent),
    unchecked: :func:`tapete.core.fair.verify` says what is wrong with them."""
    extra = record.extra
    return extra.get(FAIR_COMMITMENT), extra.get(FAIR_DECK), extra.get(FAIR_SECRET)


def verify_record(record: HandRecord, hand: Hand | None,
                  error: Text | None = None) -> fair.Verdict:
    """Whether a record's hand was dealt from its committed deck: ``hand`` is the record
    replayed (:func:`tapete.history.replay.replay`'s ``engine``), ``error`` why the replay
    stopped (a hand that cannot be replayed is not verified)."""
    commitment, deck, secret = fair_values(record)
    if commitment is None:
        return fair.Verdict(fair.Status.NOT_COMMITTED)
    if hand is None:
        why = error or t(UNREADABLE)
        return fair.Verdict(fair.Status.REJECTED, str(commitment),
                            (fair.Reason(fair.REPLAY, why),))
    verdict = fair.verify(hand.setup, hand.events, deck, secret, commitment)
    if error is None or verdict.status is fair.Status.NOT_REVEALED:
        return verdict
    why = t("the record cannot be replayed: {why}", why=error)
    return fair.Verdict(fair.Status.REJECTED, verdict.commitment,
                        (*verdict.reasons, fair.Reason(fair.REPLAY, why)))


# ---------------------------------------------------------------------------- home games
# The home-game options (docs/rules.md, "Home games") as tapete's user fields, which other
# readers skip (the standard's user-defined fields):
#
# * ``_bomb_pot = true``: a bomb pot (``HandSetup.bomb``): ``antes`` holds its ante, one amount
#   for every player, nobody posts a blind (``blinds_or_straddles`` all 0), and there is no
#   betting before the flop; ``_small_blind = 1`` then keeps the table's small blind (the
#   big blind is ``min_bet``, as always);
# * ``_double_board = true``: two boards from the flop on (``HandSetup.double_board``); each
#   street's ``d db`` deals the first board, the next ``d db`` the second;
# * ``_bounty_72 = 5``: the table's 7-2 bounty (``Rules.bounty_72``);
# * ``_bounty_payments = [['p2', 'p1', 5], ...]``: the bounty payments of the hand, payer,
#   collector and amount (``BountyPaid`` events; the replay makes them again and says where
#   they differ);
#
# and, in ``actions``, the no-op ``'# _runs 2'`` (a commentary alone, which the standard
# allows as an action): the players chose there to run the rest of the board twice
# (``RunsChosen``; ``'# _runs 1'``: once), and each run's ``d db`` follow, run after run.

_HOME_FIELDS = ("_bomb_pot", "_small_blind", "_double_board", "_bounty_72", "_bounty_payments")
_HOME_AMOUNTS = ("_small_blind", "_bounty_72")  # amounts that may set the hand's unit
_RUNS_NOTE = re.compile(r"#\s*_runs\s+([1-9])\s*")


def runs_note(runs: int) -> str:
    """The no-op action that says the rest of the board was run ``runs`` times."""
    return f"# _runs {runs}"


def _runs_note(action: str) -> Step | None:
    """The ``("runs", count)`` step of a :func:`runs_note` action, or None."""
    m = _RUNS_NOTE.fullmatch(action.strip())
    return ("runs", int(m.group(1))) if m is not None else None


@dataclass(slots=True)
class _Home:
    """The home-game options one PHH hand gives (all off when it names none)."""

    bomb: int = 0
    double_board: bool = False
    bounty: int = 0
    payments: list[tuple[int, int, int]] | None = None
    small_blind: int | None = None

    def keep(self, record: HandRecord) -> None:
        """Give ``record`` the options; the fields are read, not kept as unknown ones."""
        if self is _NO_HOME:  # the usual hand: none named (the record's defaults)
            return
        record.bomb = self.bomb
        record.double_board = self.double_board
        if self.payments is not None:
            record.extra["bounty_payments"] = self.payments
        for key in _HOME_FIELDS:
            record.extra.pop(key, None)


_NO_HOME = _Home()


def _read_home(fields: dict[str, Any], n: int, scale: int, antes: list[int],
               blinds: list[int]) -> _Home:
    """The home-game fields of a hand (``antes`` and ``blinds`` in the hand's units, in
    player order), checked."""
    if not any(key in fields for key in _HOME_FIELDS):
        return _NO_HOME
    home = _Home()
    for key in ("_bomb_pot", "_double_board"):
        v = fields.get(key)
        if v is not None and not isinstance(v, bool):
            raise PhhError(t("{key} must be true or false", key=key))
    if fields.get("_bomb_pot"):
        if any(blinds) or len(set(antes)) != 1 or not antes[0]:
            raise PhhError(t("'_bomb_pot': a bomb pot's antes are one amount for every "
                             "player, and nobody posts a blind"))
        home.bomb = antes[0]
    home.double_board = fields.get("_double_board") is True
    for key in _HOME_AMOUNTS:
        v = fields.get(key)
        if v is not None and (not _is_amount(v) or v < 0):
            raise PhhError(t("{key} must be an amount", key=repr(key)))
    bounty = fields.get("_bounty_72")
    if bounty is not None:
        home.bounty = _unit(bounty, scale, "_bounty_72")
    small = fields.get("_small_blind")
    if small is not None:
        home.small_blind = _unit(small, scale, "_small_blind")
    paid = fields.get("_bounty_payments")
    if paid is not None:
        bad = PhhError(t("'_bounty_payments' holds [payer, collector, amount] of players p1 to "
                         "p{n}", n=n))
        if not isinstance(paid, list):
            raise bad
        home.payments = []
        for item in paid:
            if not isinstance(item, list) or len(item) != 3 or not _is_amount(item[2]) \
                    or item[2] <= 0:
                raise bad
            who = []
            for word in item[:2]:
                if not isinstance(word, str) or not re.fullmatch(r"p[1-9][0-9]?", word) \
                        or int(word[1:]) > n:
                    raise bad
                who.append(int(word[1:]) - 1)
            home.payments.append((who[0], who[1], _unit(item[2], scale, "_bounty_payments")))
    return home


def home_lines(hand: Any, who: Any, amt: Any) -> list[str]:
    """The home-game fields of ``hand`` (``who``: a player's PHH name, ``amt``: an amount
    written in the file's units)."""
    from tapete.core import events as ev

    out: list[str] = []
    if hand.bomb:
        out.append("_bomb_pot = true")
        if hand.rules.small_blind:
            out.append(f"_small_blind = {amt(hand.rules.small_blind)}")
    if hand.double_board:
        out.append("_double_board = true")
    if hand.rules.bounty_72:
        out.append(f"_bounty_72 = {amt(hand.rules.bounty_72)}")
        paid = [f"[{_toml_str(who(e.payer))}, {_toml_str(who(e.player))}, {amt(e.amount)}]"
                for e in hand.events if type(e) is ev.BountyPaid]
        if paid:
            out.append(f"_bounty_payments = [{', '.join(paid)}]")
    return out
