"""Words a person reads, in English and Spanish (amounts are written by :mod:`tapete.core.money`).

Every message the engine produces is a :class:`Text`: both languages travel together, so an
error raised deep in the engine can be shown in the reader's language by the CLI or the web page.
"""

from __future__ import annotations

from dataclasses import dataclass
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
