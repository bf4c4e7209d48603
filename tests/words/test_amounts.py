"""Numbers and money by locale (Babel), and the table page's JavaScript writing exactly what the
server writes, run in Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
                       "before": "€", "after": "", "percent_before": "", "percent_after": "%"}
    assert f["es"] == {"group": ".", "decimal": ",", "minus": "-", "decimals": 2,
                       "before": "", "after": f"{NBSP}€", "percent_before": "",
                       "percent_after": f"{NBSP}%"}


def in_page(tmp_path: Path, exports: str, script: str, arg: object) -> Any:
    """``script`` evaluated with ``arg`` in Chromium, on a page that loads common/i18n.js as
    a plain script and exposes what ``exports`` assigns (``setLang`` always)."""
    from browser import ARTIFACTS, chromium, require_chromium

    sync = require_chromium()
    source = (WEB / "common" / "i18n.js").read_text(encoding="utf-8")
    page_js = (source.replace("export function", "function").replace("export const", "const")
               + f"\nwindow.__setLang = setLang; {exports}")
    (tmp_path / "page.html").write_text(
        "<!doctype html><meta charset=utf-8><script>" + page_js + "</script>",
        encoding="utf-8")
    with chromium(sync, ARTIFACTS) as browser:
        page = browser.new_page()
        page.goto((tmp_path / "page.html").as_uri())
        return page.evaluate(script, arg)


AMOUNTS = [0, 1, 7, 99, 100, 999, 1000, 1234, 12345, 123456, 1000000, 987654321, -1, -5,
           -1234, -123456]
FORMATS = [(0, ""), (2, "$"), (2, "€"), (2, ""), (3, ""), (2, "£"), (2, "₿")]


def test_the_pages_write_amounts_as_the_server_does(tmp_path: Path) -> None:
    """The one formatter of the pages (``chips`` in common/i18n.js), fed the server's
    ``money_format``, agrees with :func:`money` on every amount, format and language."""
    cases = [{"amount": a, "format": money_format(d, c), "lang": lang,
              "want": money(a, d, c, lang)}
             for d, c in FORMATS for a in AMOUNTS for lang in ("en", "es")]
    got = in_page(tmp_path, "window.__chips = chips;",
                  """cases => cases.map(c => { window.__setLang(c.lang);
                                               return window.__chips(c.amount, c.format); })""",
                  cases)
    wrong = [(c["amount"], c["lang"], c["want"], g) for c, g in zip(cases, got, strict=True)
             if g != c["want"]]
    assert not wrong, json.dumps(wrong[:10], ensure_ascii=False)


def test_the_engine_writes_amounts_as_the_narrator_does() -> None:
    """A refusal and the legal options explained use :func:`money`, in both languages: one
    rule for every sentence (a Spanish reader sees "3,50 US$" from the engine too)."""
    from tapete.core.actions import Action
    from tapete.core.cards import Deck
    from tapete.core.errors import IllegalAction
    from tapete.core.hand import Hand
    from tapete.core.rules import Structure

    rules = Rules(Structure.POT_LIMIT, 50, 100, decimals=2, currency="$")
    hand = Hand(rules, [20000] * 4, deck=Deck(1))
    most = hand.legal().explain_max()
    assert money(350, 2, "$", "en") in most.en and money(350, 2, "$", "es") in most.es
    with pytest.raises(IllegalAction) as refused:
        hand.apply(Action.raise_to(150))
    for lang in ("en", "es"):
        said = refused.value.message.in_lang(lang)
        assert money(150, 2, "$", lang) in said and money(200, 2, "$", lang) in said, said


def test_a_bet_of_no_amount_is_refused_in_the_readers_words() -> None:
    from tapete.core.actions import Action
    from tapete.core.cards import Deck
    from tapete.core.errors import IllegalAction
    from tapete.core.hand import Hand

    hand = Hand(Rules(small_blind=1, big_blind=2), [200] * 3, deck=Deck(1))
    with pytest.raises(IllegalAction) as refused:
        hand.apply(Action("raise", None))
    assert refused.value.message.es.startswith(f"{hand.names[hand.actor]} no puede subir ("), \
        refused.value.message.es
    with pytest.raises(IllegalAction) as refused:
        hand.act("bet")
    assert " no puede subir (" in refused.value.message.es  # preflop, the big blind is a bet
    assert " cannot raise (" in refused.value.message.en


def test_shares_and_decimals_by_locale() -> None:
    from fractions import Fraction

    from tapete.words import decimal, percent

    assert percent(0.125) == "12.5%" and percent(0.125, 1, "es") == f"12,5{NBSP}%"
    assert percent(0.125, 0) == "13%"  # a tie rounds up, as the pages round it
    assert percent(Fraction(1, 3), 2, "es") == f"33,33{NBSP}%"
    assert percent(12.5, 0) == "1,250%"
    assert decimal("-1234.50") == "-1,234.50" and decimal("-1234.50", "es") == "-1.234,50"
    assert decimal("+3.25", "es") == "+3,25" and decimal("7", "es") == "7"
    assert decimal("1" + "0" * 30 + ".5", "es") == "1" + ".000" * 10 + ",5"


def test_the_pages_write_shares_and_decimals_as_the_server_does(tmp_path: Path) -> None:
    """``percent`` and ``decimal`` of common/i18n.js, fed the server's ``money_format``,
    agree with :func:`tapete.words.percent` and :func:`tapete.words.decimal`."""
    from tapete.words import decimal, percent

    shares = [0.0, 0.001, 0.125, 0.5, 0.9999, 1.0, 12.5, 0.3333333]
    written = ["0", "-0.50", "1234.5", "-1234567.25", "+3.25", "+0.01", "1000"]
    cases = [{"kind": "percent", "x": x, "digits": d, "lang": lang,
              "want": percent(x, d, lang)}
             for x in shares for d in (0, 1, 2) for lang in ("en", "es")]
    cases += [{"kind": "decimal", "x": s, "digits": 0, "lang": lang, "want": decimal(s, lang)}
              for s in written for lang in ("en", "es")]
    got = in_page(tmp_path, "window.__p = percent; window.__d = decimal;"
                            " window.__setMoney = setMoneyFormat;",
                  """([cases, format]) => { window.__setMoney(format);
                       return cases.map(c => { window.__setLang(c.lang);
                         return c.kind === "percent" ? window.__p(c.x, c.digits)
                                                     : window.__d(c.x); }); }""",
                  [cases, money_format(2, "€")])
    wrong = [(c["kind"], c["x"], c["lang"], c["want"], g)
             for c, g in zip(cases, got, strict=True) if g != c["want"]]
    assert not wrong, json.dumps(wrong[:10], ensure_ascii=False)
