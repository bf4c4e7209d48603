"""Numbers and money for people, by locale, through Babel: "1,234" / "1.234", "$1,234.56" /
"1.234,56 €". Chips are integers of the smallest unit; ``decimals`` says how many digits that
unit has after the point (2 for cents), ``currency`` is the table's symbol ("$", "€") or none.

:func:`money_format` gives the same rule as data for a page that must write live amounts (the
raise slider): separators, decimals, what goes before and after, so the page writes exactly
what :func:`money` writes.

It lives in the core so that the engine's own messages (a refusal, the legal options
explained) write amounts exactly as the narrator does: one rule for every sentence. Babel is
read when an amount is first written, not when the engine is imported.
:mod:`tapete.words.money` is the same functions under the narrator's name.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from tapete.core.catalog import babel_locale as _locale
from tapete.core.catalog import number as number
from tapete.core.catalog import number_pattern as _pattern
from tapete.core.text import LANGS, Text

if TYPE_CHECKING:
    from tapete.core.rules import Rules

# the symbols tables use, and the currency each one is: the locale writes it its own way
# ("$" is "US$" to a Spanish reader)
CODES = {"$": "USD", "€": "EUR", "£": "GBP"}
_MARK = "¤"
_DIGITS = re.compile(r"[#0][#0,.]*")


@lru_cache(maxsize=1 << 16)  # a table's log writes the same few amounts again and again
def money(amount: int, decimals: int = 0, currency: str = "", lang: str = "en") -> str:
    """Integer chips written for people in ``lang``: ``money(123456, 2, "€", "es")`` is
    ``"1.234,56 €"``; ``money(123456, 2, "$")`` is ``"$1,234.56"``; ``money(1234)`` is
    ``"1,234"``."""
    with localcontext() as ctx:  # every digit of a long amount (hand histories have them)
        ctx.prec = max(ctx.prec, len(str(amount)) + decimals + 4)
        return _money(Decimal(amount).scaleb(-decimals), decimals, currency, lang)


def _money(value: Decimal, decimals: int, currency: str, lang: str) -> str:
    from babel.numbers import format_currency, format_decimal

    loc = _locale(lang)
    if not currency:
        return str(format_decimal(value, format=_pattern(decimals), locale=loc))
    pattern = _currency_pattern(lang, decimals)
    code = CODES.get(currency)
    if code is None:  # a symbol Babel does not know: the locale's pattern, the table's symbol
        code, pattern = "XXX", pattern.replace(_MARK, "'" + currency.replace("'", "''") + "'")
    return str(format_currency(value, code, format=pattern, locale=loc, currency_digits=False))


@cache
def _currency_pattern(lang: str, decimals: int) -> str:
    """The locale's currency pattern with exactly ``decimals`` digits after the point."""
    pattern = str(_locale(lang).currency_formats["standard"].pattern).split(";")[0]
    start, end = _digits(pattern)
    return pattern[:start] + _pattern(decimals) + pattern[end:]


def _digits(pattern: str) -> tuple[int, int]:
    """Where a number pattern's digits ("#,##0.00") start and end."""
    found = _DIGITS.search(pattern)
    if found is None:
        raise ValueError(f"not a number pattern: {pattern!r}")
    return found.start(), found.end()


@cache
def _percent_pattern(lang: str, digits: int) -> str:
    """The locale's percent pattern ("#,##0 %") with exactly ``digits`` after the point."""
    pattern = str(_locale(lang).percent_formats[None].pattern).split(";")[0]
    start, end = _digits(pattern)
    return pattern[:start] + _pattern(digits) + pattern[end:]


def percent(share: float | Fraction | Decimal, digits: int = 1, lang: str = "en") -> str:
    """A share (0.125) as a person reads it: "12.5%" in English, "12,5 %" in Spanish.

    A tie rounds up (12.5 to "13%"), and a float is read as ``100 * share`` computed in
    floating point, as the pages' ``percent`` (common/i18n.js) reads it: the two agree."""
    from babel.numbers import format_percent

    with localcontext() as ctx:
        ctx.prec, ctx.rounding = 60, ROUND_HALF_UP
        value = (Decimal(share.numerator) / Decimal(share.denominator)
                 if isinstance(share, Fraction) else
                 Decimal(float(share) * 100) / 100 if isinstance(share, float) else
                 Decimal(share))
        return str(format_percent(value, format=_percent_pattern(lang, digits),
                                  locale=_locale(lang)))


def decimal(written: str, lang: str = "en") -> str:
    """A decimal number written with a point ("-1234.50", as exact figures travel) in
    ``lang``, every digit kept: "-1,234.50" / "-1.234,50"."""
    from babel.numbers import format_decimal

    if written.startswith("+"):  # a change, signed either way ("+1.50")
        return "+" + decimal(written[1:], lang)
    value = Decimal(written)
    digits = max(0, -int(value.as_tuple().exponent))
    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, len(written) + 4)
        return str(format_decimal(value, format=_pattern(digits), locale=_locale(lang)))


def money_text(amount: int, rules: Rules) -> Text:
    """An amount of a table with these rules, in every language."""
    return amount_text(amount, rules.decimals, rules.currency)


@lru_cache(maxsize=4096)  # a hand's explanations quote the same few amounts again and again
def amount_text(amount: int, decimals: int = 0, currency: str = "") -> Text:
    """:func:`money` in every language, as a message's field takes it."""
    return Text(*(money(amount, decimals, currency, lang) for lang in LANGS))


@cache
def _format(decimals: int, currency: str, lang: str) -> dict[str, Any]:
    from babel.numbers import get_currency_symbol

    loc = _locale(lang)
    symbols = loc.number_symbols.get("latn", loc.number_symbols)
    before = after = ""
    if currency:
        pattern = _currency_pattern(lang, decimals)
        code = CODES.get(currency)
        sign = get_currency_symbol(code, loc) if code else currency
        start, end = _digits(pattern)
        before = pattern[:start].replace(_MARK, sign)
        after = pattern[end:].replace(_MARK, sign)
    share = _percent_pattern(lang, 0)
    start, end = _digits(share)
    return {"group": symbols["group"], "decimal": symbols["decimal"],
            "minus": symbols["minusSign"], "decimals": decimals, "before": before,
            "after": after, "percent_before": share[:start].replace("%", symbols["percentSign"]),
            "percent_after": share[end:].replace("%", symbols["percentSign"])}


def money_format(decimals: int = 0, currency: str = "") -> dict[str, dict[str, Any]]:
    """The rule :func:`money` follows, per language, for a page that writes live amounts:
    ``{"en": {"group": ",", "decimal": ".", "minus": "-", "decimals": 2, "before": "$",
    "after": "", "percent_before": "", "percent_after": "%"}, "es": {...}}``. A negative
    amount is ``minus + before + digits + after``; a share (:func:`percent`) is
    ``percent_before + digits + percent_after``."""
    return {lang: dict(_format(decimals, currency, lang)) for lang in LANGS}
