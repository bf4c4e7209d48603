"""``tapete verify FILE|URL|- [--lang es|en]``: check that each hand of a hand history was dealt
from the deck committed to before it (provably fair dealing: ``docs/fairness.md``).

FILE is a PHH file (``.phh``, one hand, or ``.phhs``, many), ``-`` reads the same from the
standard input, and an ``http://`` or ``https://`` address is fetched (:data:`TIMEOUT`
seconds, :data:`MAX_BYTES` at most). Each hand is replayed through the engine and checked by
:func:`tapete.history.phh.verify_record` (:func:`tapete.core.fair.verify`): one line per hand,
verified or why not, in the reader's language. A hand with no commitment is "not committed",
never verified. The exit status is 0 when every hand verifies, 1 when one does not, and 2 when
the input (or a hand of it) cannot be read or fetched.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tapete.core.catalog import t
from tapete.core.text import Text

MAX_BYTES = 16 * 1024 * 1024  # what one address may send
TIMEOUT = 20.0  # seconds without an answer before a fetch is given up
_SCHEMES = ("http://", "https://")


class FetchError(Exception):
    """An address that could not be fetched; ``message`` in both languages."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", nargs="+", metavar="FILE|URL",
                        help="a PHH file (.phh or .phhs), - for the standard input, or an"
                             " http(s) address serving one")
    parser.add_argument("--lang", choices=("en", "es"), default=None,
                        help="language of the lines (default: from the locale)")


def fetch(url: str, *, timeout: float = TIMEOUT, limit: int = MAX_BYTES) -> bytes:
    """The body an http(s) address answers (:class:`FetchError`: the network failed, the
    server refused, or it sends more than ``limit`` bytes)."""
    import urllib.error
    import urllib.request

    import tapete

    request = urllib.request.Request(url, headers={"User-Agent": f"tapete/{tapete.__version__}"})
    megabytes = max(limit // (1024 * 1024), 1)
    too_large = t("{url} sends more than {size} MB: tapete verify reads {size} MB at most",
                  url=url, size=megabytes)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            length = answer.headers.get("Content-Length")
            if length is not None and length.isdigit() and int(length) > limit:
                raise FetchError(too_large)
            data: bytes = answer.read(limit + 1)
    except urllib.error.HTTPError as exc:
        raise FetchError(t("cannot fetch {url}: the server answers {status} {reason}", url=url,
                           status=str(exc.code), reason=str(exc.reason))) from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise FetchError(_no_answer(url, timeout)) from None
        raise FetchError(t("cannot fetch {url}: {why}", url=url, why=str(exc.reason))) from None
    except TimeoutError:
        raise FetchError(_no_answer(url, timeout)) from None
    except (OSError, ValueError) as exc:  # a connection cut, an address that is not one
        raise FetchError(t("cannot fetch {url}: {why}", url=url,
                           why=str(exc) or type(exc).__name__)) from None
    if len(data) > limit:
        raise FetchError(too_large)
    return data


def _no_answer(url: str, timeout: float) -> Text:
    return t("cannot fetch {url}: no answer within {seconds} seconds", url=url,
             seconds=str(round(timeout)))


def run(args: argparse.Namespace) -> int:
    from tapete.cli.replay import default_lang
    from tapete.history import phh
    from tapete.history.formats import read_any
    from tapete.history.replay import replay

    lang = args.lang or default_lang()
    out = sys.stdout
    unreadable = rejected = False
    for source in args.sources:
        try:
            if source == "-":
                data = sys.stdin.buffer.read(MAX_BYTES + 1)
                if len(data) > MAX_BYTES:
                    raise FetchError(t("the standard input sends more than {size} MB: tapete"
                                       " verify reads {size} MB at most",
                                       size=MAX_BYTES // (1024 * 1024)))
                found = read_any(data, name="stdin")
            elif source.lower().startswith(_SCHEMES):
                found = read_any(fetch(source), name=source)
            else:
                found = read_any(Path(source))
        except FetchError as exc:
            print(f"tapete verify: {exc.message.in_lang(lang)}", file=sys.stderr)
            unreadable = True
            continue
        for item in found:
            if item.whole_file or item.record is None:
                why = item.problem(located=True) or t("unreadable hand")
                if item.whole_file:
                    print(f"tapete verify: {why.in_lang(lang)}", file=sys.stderr)
                else:
                    out.write(_line(item.source or source, item.label,
                                    t("cannot be read: {why}", why=why), lang))
                unreadable = True
                continue
            record = item.record
            res = replay(record, decisions=False)
            verdict = phh.verify_record(record, res.engine, res.error)
            rejected = rejected or not verdict.verified
            out.write(_line(item.source or source, item.label or record.hand_id,
                            verdict.text(), lang))
    out.flush()
    return 2 if unreadable else 1 if rejected else 0


def _line(source: str, label: str, text: Text, lang: str) -> str:
    where = f"{source} #{label}" if label else source
    return f"{where}: {text.in_lang(lang)}\n"
