"""One hand's setup: everything :class:`~tapete.core.hand.Hand` takes but the deck.

A :class:`HandSetup` is the rules, the players (names, seats, stacks), the button and the
forced bets (blinds, straddles, antes, dead blinds) and the hand's id. Storage, the replayer,
share links, the server and the bots keep it instead of rebuilding those arguments each their
own way; :meth:`Hand.from_setup <tapete.core.hand.Hand.from_setup>` builds the hand and
``hand.setup`` gives it back. Its JSON form is lossless: ``HandSetup.from_json(s.to_json())
== s``, the rules included (:meth:`Rules.to_json <tapete.core.rules.Rules.to_json>`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tapete.core.errors import SetupError
from tapete.core.rules import Rules, RulesError
from tapete.core.text import Text

# the per-player amounts, in player order (0 for none)
_AMOUNTS = ("stacks", "blinds", "straddles", "antes", "dead")


@dataclass(frozen=True, slots=True)
class HandSetup:
    """A hand before its first card. ``blinds`` holds no straddle: ``straddles`` says them
    (see :class:`~tapete.core.hand.Hand`); ``seats`` are the table's seat numbers."""

    rules: Rules
    stacks: tuple[int, ...]
    button: int
    blinds: tuple[int, ...]
    straddles: tuple[int, ...]
    antes: tuple[int, ...]
    dead: tuple[int, ...]
    names: tuple[str, ...]
    seats: tuple[int, ...]
    hand_id: str = ""

    @property
    def n(self) -> int:
        return len(self.stacks)

    def hand_args(self) -> dict[str, Any]:
        """The keyword arguments of ``Hand(rules, stacks, **args)`` for this setup."""
        return {"button": self.button, "blinds": self.blinds, "straddles": self.straddles,
                "antes": self.antes, "dead": self.dead, "names": self.names,
                "seats": self.seats, "hand_id": self.hand_id}

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(), "stacks": list(self.stacks),
                "button": self.button, "blinds": list(self.blinds),
                "straddles": list(self.straddles), "antes": list(self.antes),
                "dead": list(self.dead), "names": list(self.names), "seats": list(self.seats),
                "hand_id": self.hand_id}

    @staticmethod
    def from_json(data: object) -> HandSetup:
        """Read :meth:`to_json`'s form. Every field is required (``hand_id`` aside); a
        malformed one raises :class:`~tapete.core.errors.SetupError`, in both languages."""
        if not isinstance(data, dict):
            raise SetupError(Text(f"a hand setup is a JSON object, not {_short(data)}",
                                  f"la preparación de una mano es un objeto JSON, no"
                                  f" {_short(data)}"))
        known = {"rules", "button", "names", "seats", "hand_id", *_AMOUNTS}
        for key in data:
            if key not in known:
                raise SetupError(Text(f"unknown field {key!r} in a hand setup",
                                      f"campo desconocido {key!r} en la preparación de una"
                                      f" mano"))
        if "rules" not in data:
            raise _missing("rules")
        try:
            rules = Rules.from_json(data["rules"])
        except RulesError as exc:
            raise SetupError(Text(f"rules: {exc.message.en}",
                                  f"reglas: {exc.message.es}")) from None
        lists: dict[str, tuple[int, ...]] = {}
        for name in _AMOUNTS:
            if name not in data:
                raise _missing(name)
            value = data[name]
            if not isinstance(value, list) or not all(
                    type(x) is int and x >= 0 for x in value):
                raise SetupError(Text(
                    f"{name}: a list of whole, non-negative amounts is needed",
                    f"{name}: hace falta una lista de cantidades enteras no negativas"))
            lists[name] = tuple(value)
        n = len(lists["stacks"])
        for key in ("names", "seats"):
            if key not in data:
                raise _missing(key)
        names, seats = data["names"], data["seats"]
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise SetupError(Text("names: a list of texts is needed",
                                  "names: hace falta una lista de textos"))
        if not isinstance(seats, list) or not all(type(x) is int and x >= 0 for x in seats):
            raise SetupError(Text("seats: a list of seat numbers is needed",
                                  "seats: hace falta una lista de números de asiento"))
        for name, seq in (*lists.items(), ("names", names), ("seats", seats)):
            if len(seq) != n:
                raise SetupError(Text(f"{name}: one entry per player ({n}) is needed",
                                      f"{name}: hace falta un valor por jugador ({n})"))
        button = data.get("button")
        if type(button) is not int or not 0 <= button < max(n, 1):
            raise SetupError(Text(f"button: a player from 0 to {n - 1} is needed",
                                  f"button: hace falta un jugador de 0 a {n - 1}"))
        hand_id = data.get("hand_id", "")
        if not isinstance(hand_id, str):
            raise SetupError(Text("hand_id: a text is needed", "hand_id: hace falta un texto"))
        return HandSetup(rules, lists["stacks"], button, lists["blinds"], lists["straddles"],
                         lists["antes"], lists["dead"], tuple(names), tuple(seats), hand_id)


def _missing(name: str) -> SetupError:
    return SetupError(Text(f"a hand setup needs {name!r}",
                           f"a la preparación de una mano le falta {name!r}"))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
