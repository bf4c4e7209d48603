"""Words a person reads, in English and Spanish, and chip amounts formatted for people.

Every message the engine produces is a :class:`Text`: both languages travel together, so an
error raised deep in the engine can be shown in the reader's language by the CLI or the web page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Lang = Literal["en", "es"]
LANGS: tuple[Lang, ...] = ("en", "es")


@dataclass(frozen=True, slots=True)
class Text:
    en: str
    es: str

    # written out (the dataclass keeps it): compiled, it costs a tenth of the generated one
    def __init__(self, en: str, es: str) -> None:
        object.__setattr__(self, "en", en)
        object.__setattr__(self, "es", es)

    def __str__(self) -> str:
        return self.en

    def in_lang(self, lang: str) -> str:
        return self.es if lang == "es" else self.en

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "es": self.es}

    def __add__(self, other: Text) -> Text:
        return Text(self.en + other.en, self.es + other.es)

    @staticmethod
    def join(parts: list[Text], sep: str = " ") -> Text:
        return Text(sep.join(p.en for p in parts), sep.join(p.es for p in parts))


@lru_cache(maxsize=4096)  # a hand's explanations quote the same few amounts again and again
def chips_text(amount: int, decimals: int = 0, currency: str = "") -> Text:
    """:func:`chips` in every language, as a message's field takes it."""
    return Text(chips(amount, decimals, currency, "en"), chips(amount, decimals, currency, "es"))


def chips(amount: int, decimals: int = 0, currency: str = "", lang: str = "en") -> str:
    """Integer chips of the smallest unit -> "1,234", "$84.50" (en) or "84,50 $"-style (es).

    ``decimals`` is how many digits the smallest unit has after the decimal point (2 for cents).
    """
    sign = "-" if amount < 0 else ""
    a = abs(amount)
    whole, frac = divmod(a, 10**decimals) if decimals else (a, 0)
    thousands, point = (",", ".") if lang != "es" else (".", ",")
    s = f"{whole:,}".replace(",", thousands)
    if decimals:
        s += point + str(frac).rjust(decimals, "0")
    if not currency:
        return sign + s
    if lang == "es":
        return f"{sign}{s} {currency}"
    return f"{sign}{currency}{s}"
