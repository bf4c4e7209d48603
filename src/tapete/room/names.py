"""The names people choose, cleaned one way wherever a name comes in: a seat at a room table,
the practice table and its sit-and-go, a tournament's registration (:func:`clean_name`).

A name is text a person reads beside a seat, so it may hold no character of Unicode's
categories C* (controls such as NUL or BEL, format characters such as the bidirectional
overrides that would turn the rest of a line around, and unassigned, private-use and surrogate
code points), and its length is what a reader counts: grapheme clusters (a letter with its
combining accents is one; so is a flag), not code points.
"""

from __future__ import annotations

import unicodedata

from tapete.core.catalog import t
from tapete.room.errors import Refused

MAX_NAME = 20  # grapheme clusters


def clean_name(raw: object, most: int = MAX_NAME) -> str:
    """``raw`` as every table shows it: Unicode compatibility forms folded (NFKC: the
    fullwidth "Ａｎａ" is "Ana", so it cannot pass for a bot's name), runs of spaces made one,
    trimmed. Refused, in words (:class:`Refused`), when it is not text, holds a character of
    a C* category, or is not 1 to ``most`` grapheme clusters long."""
    if not isinstance(raw, str):
        raise Refused(t("a name is 1 to {most} characters", most=most))
    if any(unicodedata.category(ch).startswith("C") for ch in raw):
        raise Refused(t("a name cannot hold control or invisible formatting characters"))
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if any(unicodedata.category(ch).startswith("C") for ch in name):  # made by the folding
        raise Refused(t("a name cannot hold control or invisible formatting characters"))
    if not 1 <= graphemes(name) <= most:
        raise Refused(t("a name is 1 to {most} characters", most=most))
    return name


# Hangul syllable types (UAX #29's L, V, T, LV and LVT), by code point
def _hangul(cp: int) -> str:
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    if 0xAC00 <= cp <= 0xD7A3:
        return "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
    return ""


def graphemes(text: str) -> int:
    """How many grapheme clusters ``text`` holds, by UAX #29's rules for the characters a
    name may hold (no C*: no joiner, no control): a combining mark (M*) or an emoji skin
    tone joins the cluster before it, two regional indicators make one flag, and conjoining
    Hangul jamo make one syllable."""
    count = 0
    prev_hangul = ""
    flag_open = False  # an odd regional indicator: the next one completes its flag
    for ch in text:
        cp = ord(ch)
        hangul = _hangul(cp)
        joins = count > 0 and (
            unicodedata.category(ch).startswith("M") or 0x1F3FB <= cp <= 0x1F3FF
            or (prev_hangul == "L" and hangul in ("L", "V", "LV", "LVT"))
            or (prev_hangul in ("LV", "V") and hangul in ("V", "T"))
            or (prev_hangul in ("LVT", "T") and hangul == "T"))
        regional = 0x1F1E6 <= cp <= 0x1F1FF
        if regional and flag_open:
            joins, flag_open = True, False
        elif regional:
            flag_open = True
        elif not joins:
            flag_open = False
        if not joins:
            count += 1
        if hangul or not joins:
            prev_hangul = hangul
    return count
