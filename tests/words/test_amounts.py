"""Numbers and money by locale (Babel), and the table page's JavaScript writing exactly what the
server writes, run in Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapete.core.rules import Rules
from tapete.words import money, money_format, money_text, number

NBSP = "\u00a0"
WEB = Path(__file__).resolve().parents[2] / "src" / "tapete" / "web"


@pytest.mark.parametrize(("amount", "decimals", "currency", "en", "es"), [
    (1234, 0, "", "1,234", "1.234"),
    (0, 0, "", "0", "0"),
    (-1234567, 0, "", "-1,234,567", "-1.234.567"),
    (123456, 2, "€", "€1,234.56", f"1.234,56{NBSP}€"),
    (123456, 2, "$", "$1,234.56", f"1.234,56{NBSP}US$"),
    (5, 2, "$", "$0.05", f"0,05{NBSP}US$"),
    (-8450, 2, "$", "-$84.50", f"-84,50{NBSP}US$"),
    (100, 2, "", "1.00", "1,00"),
    (12345, 3, "", "12.345", "12,345"),
    (250, 2, "£", "£2.50", f"2,50{NBSP}GBP"),
    (250, 2, "₿", "₿2.50", f"2,50{NBSP}₿"),
])
def test_money_by_locale(amount: int, decimals: int, currency: str, en: str, es: str) -> None:
    assert money(amount, decimals, currency, "en") == en
    assert money(amount, decimals, currency, "es") == es
    rules = Rules(small_blind=1, big_blind=2, decimals=decimals, currency=currency)
    assert money_text(amount, rules).to_json() == {"en": en, "es": es}


def test_numbers_by_locale() -> None:
    assert number(1234) == "1,234" and number(1234, "es") == "1.234"
    assert number(10**30, "es") == "1" + ".000" * 10


def test_money_format_is_the_rule_money_follows() -> None:
    f = money_format(2, "€")
    assert f["en"] == {"group": ",", "decimal": ".", "minus": "-", "decimals": 2,
                       "before": "€", "after": ""}
    assert f["es"] == {"group": ".", "decimal": ",", "minus": "-", "decimals": 2,
                       "before": "", "after": f"{NBSP}€"}


AMOUNTS = [0, 1, 7, 99, 100, 999, 1000, 1234, 12345, 123456, 1000000, 987654321, -1, -5,
           -1234, -123456]
FORMATS = [(0, ""), (2, "$"), (2, "€"), (2, ""), (3, ""), (2, "£"), (2, "₿")]


def test_the_pages_write_amounts_as_the_server_does(tmp_path: Path) -> None:
    """The one formatter of the pages (``chips`` in common/i18n.js), fed the server's
    ``money_format``, agrees with :func:`money` on every amount, format and language."""
    from browser import ARTIFACTS, chromium, require_chromium

    sync = require_chromium()
    cases = [{"amount": a, "format": money_format(d, c), "lang": lang,
              "want": money(a, d, c, lang)}
             for d, c in FORMATS for a in AMOUNTS for lang in ("en", "es")]
    source = (WEB / "common" / "i18n.js").read_text(encoding="utf-8")
    page_js = (source.replace("export function", "function").replace("export const", "const")
               + "\nwindow.__chips = chips; window.__setLang = setLang;")
    (tmp_path / "page.html").write_text(
        "<!doctype html><meta charset=utf-8><script>" + page_js + "</script>",
        encoding="utf-8")
    with chromium(sync, ARTIFACTS) as browser:
        page = browser.new_page()
        page.goto((tmp_path / "page.html").as_uri())
        got = page.evaluate(
            """cases => cases.map(c => { window.__setLang(c.lang);
                                         return window.__chips(c.amount, c.format); })""",
            cases)
    wrong = [(c["amount"], c["lang"], c["want"], g) for c, g in zip(cases, got, strict=True)
             if g != c["want"]]
    assert not wrong, json.dumps(wrong[:10], ensure_ascii=False)
