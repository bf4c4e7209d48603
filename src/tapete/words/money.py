"""Numbers and money for people, by locale, through Babel: "1,234" / "1.234", "$1,234.56" /
"1.234,56 €". Chips are integers of the smallest unit; ``decimals`` says how many digits that
unit has after the point (2 for cents), ``currency`` is the table's symbol ("$", "€") or none.

:func:`money_format` gives the same rule as data for a page that must write live amounts (the
raise slider): separators, decimals, what goes before and after, so the page writes exactly
what :func:`money` writes.
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from babel.numbers import format_currency, format_decimal, get_currency_symbol

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


def money_text(amount: int, rules: Rules) -> Text:
    """An amount of a table with these rules, in every language."""
    return Text(*(money(amount, rules.decimals, rules.currency, lang) for lang in LANGS))


@cache
def _format(decimals: int, currency: str, lang: str) -> dict[str, Any]:
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
    return {"group": symbols["group"], "decimal": symbols["decimal"],
            "minus": symbols["minusSign"], "decimals": decimals, "before": before,
            "after": after}


def money_format(decimals: int = 0, currency: str = "") -> dict[str, dict[str, Any]]:
    """The rule :func:`money` follows, per language, for a page that writes live amounts:
    ``{"en": {"group": ",", "decimal": ".", "minus": "-", "decimals": 2, "before": "$",
    "after": ""}, "es": {...}}``. A negative amount is ``minus + before + digits + after``."""
    return {lang: dict(_format(decimals, currency, lang)) for lang in LANGS}
