"""``tapete convert IN --to phh|pokerstars [-o OUT]``: hand histories from one format to the other.

Every hand is read (PHH ``.phh``/``.phhs``, or PokerStars text), replayed through the engine, and
written from the replayed hand, so what comes out is a legal hand or nothing. The table's name,
size and seat numbers and the hand's date and time go across (PHH's ``table``, ``seat_count``,
``seats``, ``year``/``month``/``day``/``time``/``time_zone_abbreviation``). A hand that cannot
be read or replayed is reported on stderr (in English or Spanish: ``--lang``, else the locale)
and left out; the exit status is then 1. A file that is not there, or an ``-o`` that cannot be
written (a folder, a folder that does not exist), is one line and status 2, before any work.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tapete.core.catalog import t
from tapete.core.hand import Hand
from tapete.core.text import Text
from tapete.history import phh, pokerstars
from tapete.history.formats import read_any
from tapete.history.replay import replay


@dataclass(slots=True)
class Converted:
    hand: Hand | None
    label: str
    error: Text | None = None
    extra: dict[str, Any] | None = None  # the record's extra (table, date, tournament...)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="IN", help="a .phh/.phhs file or a PokerStars .txt")
    parser.add_argument("--to", required=True, choices=("phh", "pokerstars"),
                        help="the format to write")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="where to write (default: standard output)")
    parser.add_argument("--from", dest="source_format", choices=("phh", "pokerstars"),
                        help="the input format (default: from the file's name or content)")
    parser.add_argument("--hero", metavar="NAME",
                        help="PokerStars output: write 'Dealt to' for this player only, as a "
                             "room does (default: every known hand, so nothing is lost)")
    parser.add_argument("--lang", choices=("en", "es"), default=None,
                        help="language of the error messages (default: from the locale)")


def hands(path: str, fmt: str | None = None) -> Iterator[Converted]:
    """Each hand of a file (:func:`~tapete.history.formats.read_any`), replayed (or the
    reason it could not be)."""
    for item in read_any(path, fmt=fmt):
        record = item.record
        if record is None:
            yield Converted(None, item.label, item.located())
            continue
        label = record.hand_id or record.source
        res = replay(record)
        if res.error is not None or res.engine is None:
            yield Converted(None, label, res.error or t("cannot replay"))
            continue
        yield Converted(res.engine, label, extra=record.extra)


def convert(path: str, to: str, fmt: str | None = None, hero: str | None = None,
            lang: str = "en") -> tuple[str, list[str]]:
    """(the converted text, the errors of the hands left out, in ``lang``)."""
    errors: list[str] = []
    parts: list[str] = []
    done: list[tuple[str, Hand, dict[str, Any]]] = []
    for c in hands(path, fmt):
        if c.hand is None:
            errors.append(t("{path}: hand {hand}: {why}", path=path, hand=c.label or "?",
                            why=c.error or t("cannot replay")).in_lang(lang))
        else:
            done.append((c.label, c.hand, c.extra or {}))
    if to == "pokerstars":
        for k, (_, hand, extra) in enumerate(done, 1):
            hid = hand.hand_id if hand.hand_id and hand.hand_id.isdigit() else str(k)
            kw: dict[str, str] = {}
            # keep the table, the date and the tournament (a PHH file's table and date too)
            for key in ("table", "date", "tournament", "buy_in"):
                if extra.get(key):
                    kw[key] = str(extra[key])
            seats = extra.get("max_seats")
            me = hand.names.index(hero) if hero is not None and hero in hand.names else None
            parts.append(pokerstars.write_hand(
                hand, hand_id=hid, hero=me,
                max_seats=seats if isinstance(seats, int) else 0, **kw))
        return pokerstars.join_hands(parts), errors
    for k, (label, hand, extra) in enumerate(done, 1):
        seats = extra.get("max_seats")
        try:
            text = phh.dumps(hand, table=str(extra.get("table") or ""),
                             date=str(extra.get("date") or ""),
                             max_seats=seats if isinstance(seats, int) else 0,
                             extra=phh.kept_fair_fields(extra))
        except phh.PhhError as exc:
            errors.append(t("{path}: hand {hand}: cannot be written as PHH: {why}", path=path,
                            hand=label or str(k), why=exc.message).in_lang(lang))
            continue
        parts.append(text)
    return phh.join_hands(parts), errors


def run(args: argparse.Namespace) -> int:
    from tapete.cli import fail, output_problem, write_problem
    from tapete.cli.replay import default_lang

    lang = getattr(args, "lang", None) or default_lang()
    source = str(args.input)
    if os.path.isdir(source):
        return fail("convert", t("{path} is a folder: give one hand-history file",
                                 path=source), lang)
    if not os.path.exists(source):
        return fail("convert", t("no such file: {path}", path=source), lang)
    problem = output_problem(args.output, "-o") if args.output else None
    if problem is not None:  # said before the work, not after it
        return fail("convert", problem, lang)
    text, errors = convert(source, args.to, args.source_format, args.hero, lang)
    for e in errors:
        print(e, file=sys.stderr)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as exc:
            return fail("convert", write_problem(args.output, exc), lang)
    else:
        sys.stdout.write(text)
    if not text and errors:
        return 2
    return 1 if errors else 0
