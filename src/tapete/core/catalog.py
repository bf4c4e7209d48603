"""The message catalogues: English source strings are the message ids; every other language is
a gettext ``.po`` file, ``words/locale/<lang>/LC_MESSAGES/tapete.po`` in the package, read at run
time with Babel (no build step). A third language is one more file.

Messages use ``str.format`` fields (``"{who} calls {amount}"``). :func:`t` and :func:`tn` give a
:class:`~tapete.core.text.Text` with every language at once; their arguments may be plain
strings, integers (written as numbers of each language) or ``Text`` (each language takes its
own).

The machinery lives in the core, beside :class:`~tapete.core.text.Text`, so that the engine's
own messages (its errors, the legal options explained) come from the catalogue too: it imports
nothing of tapete but ``tapete.core.text`` and reads Babel only when a message is first made.
:mod:`tapete.words.catalog` is the same functions under their older name.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from decimal import localcontext
from functools import cache, lru_cache
from importlib import resources
from io import BytesIO
from typing import TYPE_CHECKING

from tapete.core.text import LANGS, Text

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from babel import Locale

DOMAIN = "tapete"
SOURCE = "en"

Arg = str | int | Text


def locale_dir() -> Traversable:
    """The folder of the catalogues: ``words/locale`` in the package (data, not a module: the
    core reads it without importing :mod:`tapete.words`)."""
    return resources.files("tapete") / "words" / "locale"


# ---------------------------------------------------------------------- numbers by locale


@cache
def babel_locale(lang: str) -> Locale:
    from babel import Locale

    return Locale.parse(lang)


def number_pattern(decimals: int) -> str:
    """Babel's pattern of a number with ``decimals`` digits after the point: "#,##0.00"."""
    return "#,##0" + ("." + "0" * decimals if decimals else "")


@lru_cache(maxsize=1 << 16)
def number(n: int, lang: str = "en") -> str:
    """A whole number of ``lang``: ``number(1234, "es") == "1.234"``."""
    from babel.numbers import format_decimal

    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, len(str(n)) + 4)
        return str(format_decimal(n, format=number_pattern(0), locale=babel_locale(lang)))


# ---------------------------------------------------------------------- the catalogues


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One language's messages: singular ones by id, plural ones by (singular, plural) id."""

    lang: str
    messages: dict[tuple[str | None, str], str]
    plurals: dict[tuple[str, str], tuple[str, ...]]
    plural: Callable[[int], int]


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


@cache
def catalogue(lang: str) -> Catalogue:
    """The catalogue of ``lang``, read once (English, the source language, is empty)."""
    if lang == SOURCE:
        return Catalogue(lang, {}, {}, _english_plural)
    from babel.messages.pofile import read_po

    path = locale_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    cat = read_po(BytesIO(path.read_bytes()), locale=lang, domain=DOMAIN)
    messages: dict[tuple[str | None, str], str] = {}
    plurals: dict[tuple[str, str], tuple[str, ...]] = {}
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple):
            forms = tuple(str(s) for s in m.string) if isinstance(m.string, tuple) else ()
            if forms and all(forms):
                plurals[(str(m.id[0]), str(m.id[1]))] = forms
        elif isinstance(m.string, str) and m.string:
            messages[(m.context, str(m.id))] = m.string
    return Catalogue(lang, messages, plurals, gettext.c2py(cat.plural_expr))


def _arg(lang: str, k: str, v: Arg) -> str:
    if type(v) is str:
        return v
    if isinstance(v, Text):
        return v.in_lang(lang)
    if isinstance(v, bool):
        raise TypeError(f"a message argument is not a truth value: {k}={v!r}")
    if isinstance(v, int):
        return number(v, lang)
    return v


def _args(lang: str, args: dict[str, Arg]) -> dict[str, str]:
    return {k: _arg(lang, k, v) for k, v in args.items()}


def gettext_in(lang: str, message: str, context: str | None = None, /, **args: Arg) -> str:
    """``message`` (of ``context``) in ``lang``, filled: the English text where the
    catalogue has none."""
    text = catalogue(lang).messages.get((context, message), message)
    return text.format(**_args(lang, args)) if args else text


def ngettext_in(lang: str, singular: str, plural: str, n: int, /, **args: Arg) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in ``lang``, filled; ``{n}`` is
    the count written as a number of that language."""
    forms: tuple[str, ...] | None = None
    if lang != SOURCE:
        cat = catalogue(lang)
        forms = cat.plurals.get((singular, plural))
        i = cat.plural(n) if forms is not None else 0
    if forms is None:  # English, or a message this language does not have yet
        forms, i = (singular, plural), _english_plural(n)
    i = min(i, len(forms) - 1)
    return forms[i].format(**_args(lang, {"n": n, **args}))


@lru_cache(maxsize=8192)
def _texts(context: str | None, message: str) -> tuple[str, ...]:
    """``message`` in every language, unfilled (read once: a table's log asks again and
    again)."""
    return tuple(message if lang == SOURCE else
                 catalogue(lang).messages.get((context, message), message) for lang in LANGS)


def _fill(texts: tuple[str, ...], args: dict[str, Arg]) -> Text:
    """The message in each of a Text's two languages (LANGS: English, Spanish), its fields
    filled in one pass: the engine explains every decision a player sees with these."""
    en, es = texts
    if not args:
        return Text(en, es)
    a: dict[str, str] = {}
    b: dict[str, str] = {}
    for k, v in args.items():
        if type(v) is str:
            a[k] = b[k] = v
        elif type(v) is Text:
            a[k] = v.en
            b[k] = v.es
        else:
            a[k] = _arg("en", k, v)
            b[k] = _arg("es", k, v)
    return Text(en.format_map(a), es.format_map(b))


def t(message: str, /, **args: Arg) -> Text:
    """A message in every language, its fields filled: ``t("{who} folds", who="Ana")``."""
    return _fill(_texts(None, message), args)


def tc(context: str, message: str, /, **args: Arg) -> Text:
    """A message of a context (gettext's ``pgettext``): the same English word that another
    language writes differently by use, as ``tc("high", "queen")``: "a la reina"."""
    return _fill(_texts(context, message), args)


def reload() -> None:
    """Read the catalogues again (after a ``.po`` file changed)."""
    catalogue.cache_clear()
    _texts.cache_clear()


def N_(message: str) -> str:
    """Marks a message id kept in a table (the catalogue checks find it); returns it as is."""
    return message


def NC_(context: str, message: str) -> tuple[str, str]:
    """Marks a message id of a context kept in a table; returns both."""
    return context, message


def tn(singular: str, plural: str, n: int, /, **args: Arg) -> Text:
    """A counted message in every language: ``tn("{n} hand", "{n} hands", 2)``."""
    return Text(*(ngettext_in(lang, singular, plural, n, **args) for lang in LANGS))
