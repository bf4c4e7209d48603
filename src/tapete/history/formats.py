"""Hand-history files, whatever their format: find it, read every hand once.

:func:`read_any` takes a path or a text, finds the format (PHH ``.phh``/``.phhs``, or PokerStars
text) and returns one :class:`Read` per hand: its :class:`~tapete.history.record.HandRecord`, or
why it could not be read, in English and Spanish. A file that is missing, unreadable or neither
format is one :class:`Read` with its error, never an exception. :func:`replay_any` replays what
:func:`read_any` found (the PokerStars hands checked against their own SUMMARY); ``tapete
replay``, ``tapete convert`` and the web replayer read files through these two functions.

How the format is found, first rule that decides:

1. a text that starts with ``PokerStars`` (after a byte-order mark or blank lines) is
   PokerStars text;
2. a name ending ``.phh`` or ``.phhs`` is PHH;
3. a name ending ``.txt`` is PokerStars text, unless the text has PHH's shape (a ``variant``
   or ``actions`` field in its first lines);
4. otherwise, a ``PokerStars Hand #`` / ``PokerStars Game #`` header near the top makes it
   PokerStars, PHH's shape makes it PHH, and anything else is not a hand history.

Bytes are decoded once for every format: UTF-8 (a byte-order mark dropped), else cp1252, else
Latin-1; line ends become ``\\n``.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from tapete.core.catalog import t, tc
from tapete.core.text import Text
from tapete.history import phh, pokerstars
from tapete.history.record import HandRecord
from tapete.history.replay import ReplayResult, failed, replay

__all__ = ["PHH", "POKERSTARS", "Read", "detect", "read_any", "replay_any", "replay_read"]

PHH = "phh"
POKERSTARS = "pokerstars"
FORMATS = (PHH, POKERSTARS)

_PHH_SUFFIXES = (".phh", ".phhs")
_new = tuple.__new__
# PHH's shape: a ``variant`` or ``actions`` key at the start of a line
_PHH_SHAPE = re.compile(r"^[ \t]*(?:variant|actions)[ \t]*=", re.M)
_STARS_HEADER = re.compile(r"^PokerStars\b.*?\b(?:Hand|Game) #\d", re.M)


class Read(NamedTuple):
    """One hand of a file: its record, or the reason it could not be read.

    ``error`` is the reader's own words (``line``, when known, says where); ``unsupported``
    marks a game tapete does not play yet (Omaha...) and an input that is no hand history at
    all. ``whole_file``: the error is the file's (missing, unreadable, neither format), not one
    hand's. ``format`` is :data:`PHH`, :data:`POKERSTARS`, or ``""`` when neither. (A named
    tuple: a folder of hand histories makes one a hand.)"""

    source: str
    label: str
    record: HandRecord | None = None
    error: Text | None = None
    line: int = 0
    unsupported: bool = False
    whole_file: bool = False
    format: str = ""

    @property
    def ok(self) -> bool:
        return self.record is not None

    def located(self) -> Text | None:
        """The reader's words with their line first ("line 12: ..."), when the line is known."""
        if self.error is None or not self.line:
            return self.error
        return t("line {line}: {why}", line=str(self.line), why=self.error)

    def problem(self, *, located: bool = False) -> Text | None:
        """What to tell a person, in both languages (None for a hand that was read): a hand's
        error is introduced in Spanish as a hand that cannot be read ("no se puede leer la
        mano: ..."), unless it says itself that the game is not supported; with ``located``,
        the line comes first ("line 12: ...")."""
        msg = self.located() if located else self.error
        if msg is None or self.unsupported or self.whole_file:
            return msg
        return tc("a hand that cannot be read", "{why}", why=msg)


def detect(text: str, name: str = "") -> str:
    """The format of a text (:data:`PHH`, :data:`POKERSTARS`), ``""`` when it is neither;
    ``name`` (a file name) helps where the text alone does not say. See the module's rules."""
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("PokerStars"):
        return POKERSTARS
    low = name.lower()
    if low.endswith(_PHH_SUFFIXES):
        return PHH
    head = body[:5000]
    if low.endswith(".txt"):
        return PHH if _PHH_SHAPE.search(head) else POKERSTARS
    if _STARS_HEADER.search(head):
        return POKERSTARS
    if _PHH_SHAPE.search(head):
        return PHH
    return ""


def read_any(source: str | bytes | os.PathLike[str], *, name: str = "",
             fmt: str | None = None) -> list[Read]:
    """Every hand of a hand-history file or text, in order (never an empty list).

    ``source``: a path (an ``os.PathLike``, or a ``str`` of one line), a text or the bytes of
    a file. A ``str`` is a text when it holds a line break, is empty, or comes with ``name``.
    ``name``: the file's name when ``source`` is its text or bytes (an upload), used to find
    the format and to name the source. ``fmt``:
    :data:`PHH` or :data:`POKERSTARS` to read the input as that format whatever it looks
    like."""
    loaded = _load(source, name)
    if isinstance(loaded, Read):
        return [loaded]
    text, src, label = loaded
    return _read(text, src, fmt if fmt in FORMATS else detect(text, label))


def _load(source: str | bytes | os.PathLike[str], name: str) -> tuple[str, str, str] | Read:
    """(the text, the source to name in results, the name that helps find the format), or
    the error of a file that cannot be read."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and source and not name
                                           and "\n" not in source):
        path = os.fspath(source)
        try:
            data = _read_bytes(path)
        except FileNotFoundError:
            return _file_error(path, t("no such file: {path}", path=path))
        except OSError as exc:
            return _file_error(path, phh.file_problem(exc))
        return decode(data), path, name or path
    return (decode(source) if isinstance(source, bytes) else source), name, name


def decode(data: bytes | str) -> str:
    """The text of a file's bytes: UTF-8 (a byte-order mark dropped), else cp1252, else
    Latin-1; line ends as ``\\n``."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:  # cp1252 or Latin-1, as rooms write them
            return pokerstars.decode(data)
    else:
        text = data
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


def _read_bytes(path: str) -> bytes:
    """A file's bytes in as few system calls as can be (its size, then one read): a folder of
    hand histories is thousands of small files."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        data = os.read(fd, size + 1)
        while len(data) > size:  # it grew meanwhile: the rest
            more = os.read(fd, 1 << 16)
            if not more:
                break
            data += more
    finally:
        os.close(fd)
    return data


def _file_error(source: str, message: Text, unsupported: bool = False) -> Read:
    return Read(source, "", None, message, unsupported=unsupported, whole_file=True)


def _phh_error(h: phh.PhhHand) -> Read:
    return _new(Read, (h.source, h.hand, None, h.error or t(phh.UNREADABLE), 0, False, False, PHH))


def _read(text: str, source: str, kind: str) -> list[Read]:
    if kind == PHH:
        out: list[Read] = []
        for h in phh.read_text(text, source):  # each Read built as a plain tuple: fast
            record = h.record
            if record is None:
                out.append(_phh_error(h))
            else:
                out.append(_new(Read, (source, h.hand or record.hand_id, record, None, 0,
                                       False, False, PHH)))
        return out
    if kind == POKERSTARS:
        out = []
        for k, item in enumerate(pokerstars.read_text(text, source)):
            if isinstance(item, HandRecord):
                out.append(Read(source, item.hand_id, item, format=POKERSTARS))
            else:
                out.append(Read(source, item.hand_id or str(k + 1), None, item.message,
                                item.line, item.unsupported, format=POKERSTARS))
        return out
    shown = f": {source}" if source else ""
    return [_file_error(source, t("unsupported format{shown}: neither PHH nor a PokerStars hand"
                                  " history (tapete reads .phh, .phhs and .txt)", shown=shown),
                        unsupported=True)]


def replay_read(item: Read, *, decisions: bool = True, strict: bool = False) -> ReplayResult:
    """Replay one hand :func:`read_any` found (see :func:`tapete.history.replay.replay`); a
    PokerStars hand that finishes is checked against its file's SUMMARY
    (``result.mismatches``). A hand that could not be read is a result with its error."""
    record = item.record
    if record is None:
        return failed(item.source, item.label,
                      item.problem() or t("unreadable hand"))
    if not record.source:
        record.source = item.source
    res = replay(record, decisions=decisions, strict=strict)
    hand = res.engine
    if item.format == POKERSTARS and res.error is None and hand is not None and hand.done:
        res.mismatches = pokerstars.reconcile_text(record, hand)
    return res


def replay_any(source: str | bytes | os.PathLike[str], *, name: str = "",
               decisions: bool = True, strict: bool = False) -> list[ReplayResult]:
    """Every hand of a file or text (:func:`read_any`), replayed (:func:`replay_read`)."""
    loaded = _load(source, name)
    if isinstance(loaded, Read):
        return [replay_read(loaded)]
    text, src, label = loaded
    kind = detect(text, label)
    if kind != PHH:
        return [replay_read(item, decisions=decisions, strict=strict)
                for item in _read(text, src, kind)]
    # PHH, the common case (a folder is thousands of small files): each record replayed as
    # it is read
    out: list[ReplayResult] = []
    for h in phh.read_text(text, src):
        record = h.record
        if record is None:
            out.append(replay_read(_phh_error(h)))
        else:
            out.append(replay(record, decisions=decisions, strict=strict))
    return out
