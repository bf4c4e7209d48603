"""``tapete replay PATH... [--json] [--lang es|en] [--strict] [--open [--port P]]``: replay hand
histories, check them.

Every hand of every file (folders are recursed) is refereed by the engine. By default a
readable account, street by street; with ``--json`` one JSON object per hand per line. The exit
status is 0 when every hand replayed legally (partial hands included) and every PokerStars
hand's pots and rake match the file's own SUMMARY, 1 otherwise (a mismatch is reported with
both figures: ``"mismatches"`` in the JSON, lines in the account); a folder with no hand
histories in it, or a ``--port`` the web replayer cannot listen on, is one line and status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from tapete.core.catalog import t
from tapete.core.money import decimal
from tapete.history.formats import replay_any
from tapete.history.replay import (
    HISTORY_SUFFIXES,
    ReplayResult,
    dumps_json,
    iter_paths,
)


def default_lang() -> str:
    """Spanish when the locale says so (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var)
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="hand-history files (.phh, .phhs, .txt) or folders")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per hand per line")
    parser.add_argument("--lang", choices=("en", "es"), default=None,
                        help="language of the account (default: from the locale)")
    parser.add_argument("--strict", action="store_true",
                        help="a player the file skips is an error (default: infer the check or"
                             " fold, as PHH's reference reader does)")
    parser.add_argument("--prizes", default=None, metavar="PRIZES",
                        help='tournament prizes still to be won, first place first ("50 30 20"):'
                             " each player's ICM equity before and after every hand")
    parser.add_argument("--open", action="store_true",
                        help="open the file(s) in the web replayer (starts the local server)")
    parser.add_argument("--port", default=None, metavar="P",
                        help="with --open: the port the web replayer listens on"
                             " (default: a free one)")


def run(args: argparse.Namespace) -> int:
    from tapete.cli import fail, port_problem

    lang = args.lang or default_lang()
    files: list[str] = []  # each folder walked once
    for path in args.paths:
        found = iter_paths([path])
        if not found and os.path.isdir(path):
            kinds = ", ".join(HISTORY_SUFFIXES)
            return fail("replay", t("no hand histories ({kinds}) in the folder {path}",
                                    kinds=kinds, path=path), lang)
        files.extend(found)
    port = getattr(args, "port", None)
    if port is not None and not getattr(args, "open", False):
        return fail("replay", t("--port goes with --open (the web replayer's port)"), lang)
    if getattr(args, "open", False):
        number = 0
        if port is not None:
            problem = port_problem(str(port))
            if problem is not None:
                return fail("replay", problem, lang)
            number = int(port)
        from tapete.server.local import open_files

        return open_files(files, port=number)
    prizes = getattr(args, "prizes", None)
    if prizes is not None:
        from tapete.eval.icm import IcmError, parse_prizes

        try:
            parse_prizes(prizes)
        except IcmError as exc:
            print(f"tapete replay: {exc.message.in_lang(lang)}", file=sys.stderr)
            return 2
    import gc

    # a folder is thousands of hands, each a few hundred small objects that reference counting
    # frees as the hand ends (a replay makes no reference cycles): the cycle collector is
    # paused while they are replayed, and run every few thousand hands in case an odd hand
    # left one
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _replay_all(args, files, lang, prizes)
    finally:
        if was_enabled:
            gc.enable()


def _replay_all(args: argparse.Namespace, files: list[str], lang: str,
                prizes: str | None) -> int:
    import gc

    out = sys.stdout
    total = legal = partial = mismatched = 0
    as_json = bool(args.json)
    strict = bool(args.strict)
    pending: list[str] = []  # --json lines, written a few hundred at a time
    for path in files:
        for res in replay_any(path, decisions=as_json, strict=strict):
            total += 1
            if total % 10_000 == 0:
                gc.collect()
            if res.ok:
                legal += 1
                partial += res.partial
                mismatched += bool(res.mismatches)
            if as_json and prizes is None:
                pending.append(res.json_line(lang))
                if len(pending) >= 256:
                    pending.append("")
                    out.write("\n".join(pending))
                    pending.clear()
            elif as_json:
                obj = res.to_json()  # its words in English
                if lang != "en":
                    if res.error is not None:
                        obj["error"] = res.error.in_lang(lang)
                    if res.note is not None:
                        obj["note"] = res.note.in_lang(lang)
                    obj["mismatches"] = [m.in_lang(lang) for m in res.mismatches]
                if prizes is not None:
                    obj["icm"] = _icm(res, prizes)
                out.write(dumps_json(obj) + "\n")
            else:
                from tapete.words.account import account  # the narrator: not for --json

                text = account(res, lang)
                if prizes is not None:
                    text += _icm_lines(res, prizes, lang)
                out.write(text + "\n\n")
    if pending:
        pending.append("")
        out.write("\n".join(pending))
    errors = total - legal
    if not args.json:  # the counts as plain numbers (a folder's total is read by a script too)
        counts = {"total": str(total), "complete": str(legal - partial),
                  "partial": str(partial), "errors": str(errors)}
        if mismatched:
            line = t("{total} hands: {complete} complete, {partial} partial, {errors} with"
                     " errors, {mismatched} not matching their summary",
                     mismatched=str(mismatched), **counts)
        else:
            line = t("{total} hands: {complete} complete, {partial} partial, {errors} with"
                     " errors", **counts)
        out.write(line.in_lang(lang) + "\n")
    out.flush()
    return 0 if errors == 0 and mismatched == 0 and total > 0 else 1


def _icm(res: ReplayResult, prizes: str) -> dict[str, Any] | None:
    """Tournament equity before and after the hand (None for a hand that did not finish, or
    with more prizes than players)."""
    from tapete.eval.icm import IcmError, icm_table

    hand = res.engine
    if hand is None or not hand.done:
        return None
    try:
        return icm_table(hand.starting_stacks, hand.stacks, prizes)
    except IcmError:
        return None


def _icm_lines(res: ReplayResult, prizes: str, lang: str) -> str:
    table = _icm(res, prizes)
    if table is None or res.engine is None:
        return ""
    def num(x: str) -> str:  # a decimal string in the reader's language (never a name)
        return decimal(x, lang)

    prizes = " / ".join(num(p) for p in table["prizes"])
    lines = ["", t("ICM (prizes {prizes}):", prizes=prizes).in_lang(lang)]
    for name, row in zip(res.engine.names, table["players"], strict=True):
        lines.append(f"  {name}: {num(row['before'])} -> {num(row['after'])}"
                     f" ({num(row['change'])})")
    return "\n".join(lines)
