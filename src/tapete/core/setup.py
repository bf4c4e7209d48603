"""One hand's setup: everything :class:`~tapete.core.hand.Hand` takes but the deck.

A :class:`HandSetup` is the rules, the players (names, seats, stacks), the button and the
forced bets (blinds, straddles, antes, dead blinds), the hand's id and the home-game options
that change hand by hand: a bomb pot's ante (``bomb``) and a double board
(``double_board``). Storage, the replayer, share links, the server and the bots keep it
instead of rebuilding those arguments each their own way;
:meth:`Hand.from_setup <tapete.core.hand.Hand.from_setup>` builds the hand and ``hand.setup``
gives it back. Its JSON form is lossless: ``HandSetup.from_json(s.to_json())
== s``, the rules included (:meth:`Rules.to_json <tapete.core.rules.Rules.to_json>`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tapete.core.catalog import t
from tapete.core.errors import SetupError
from tapete.core.rules import Rules, RulesError

# the per-player amounts, in player order (0 for none)
_AMOUNTS = ("stacks", "blinds", "straddles", "antes", "dead")


@dataclass(frozen=True, slots=True)
class HandSetup:
    """A hand before its first card. ``blinds`` holds no straddle: ``straddles`` says them
    (see :class:`~tapete.core.hand.Hand`); ``seats`` are the table's seat numbers. ``bomb``:
    a bomb pot's ante, posted by every player, with no betting before the flop (0: not a
    bomb pot); ``double_board``: two boards from the flop on, each winning half of every pot
    (docs/rules.md, "Home games"). The JSON form writes them only when set."""

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
    bomb: int = 0
    double_board: bool = False

    @property
    def n(self) -> int:
        return len(self.stacks)

    def hand_args(self) -> dict[str, Any]:
        """The keyword arguments of ``Hand(rules, stacks, **args)`` for this setup."""
        return {"button": self.button, "blinds": self.blinds, "straddles": self.straddles,
                "antes": self.antes, "dead": self.dead, "names": self.names,
                "seats": self.seats, "hand_id": self.hand_id, "bomb": self.bomb,
                "double_board": self.double_board}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules.to_json(), "stacks": list(self.stacks), "button": self.button,
            "blinds": list(self.blinds), "straddles": list(self.straddles),
            "antes": list(self.antes), "dead": list(self.dead), "names": list(self.names),
            "seats": list(self.seats), "hand_id": self.hand_id}
        if self.bomb:
            out["bomb"] = self.bomb
        if self.double_board:
            out["double_board"] = True
        return out

    @staticmethod
    def from_json(data: object) -> HandSetup:
        """Read :meth:`to_json`'s form. Every field is required (``hand_id``, ``bomb`` and
        ``double_board`` aside); a malformed one raises
        :class:`~tapete.core.errors.SetupError`, in both languages."""
        if not isinstance(data, dict):
            raise SetupError(t("a hand setup is a JSON object, not {data}", data=_short(data)))
        known = {"rules", "button", "names", "seats", "hand_id", "bomb", "double_board",
                 *_AMOUNTS}
        for key in data:
            if key not in known:
                raise SetupError(t("unknown field {field} in a hand setup", field=repr(key)))
        if "rules" not in data:
            raise _missing("rules")
        try:
            rules = Rules.from_json(data["rules"])
        except RulesError as exc:
            raise SetupError(t("rules: {why}", why=exc.message)) from None
        lists: dict[str, tuple[int, ...]] = {}
        for name in _AMOUNTS:
            if name not in data:
                raise _missing(name)
            value = data[name]
            if not isinstance(value, list) or not all(
                    type(x) is int and x >= 0 for x in value):
                raise SetupError(t("{field}: a list of whole, non-negative amounts is needed",
                                   field=name))
            lists[name] = tuple(value)
        n = len(lists["stacks"])
        for key in ("names", "seats"):
            if key not in data:
                raise _missing(key)
        names, seats = data["names"], data["seats"]
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise SetupError(t("names: a list of texts is needed"))
        if not isinstance(seats, list) or not all(type(x) is int and x >= 0 for x in seats):
            raise SetupError(t("seats: a list of seat numbers is needed"))
        for name, seq in (*lists.items(), ("names", names), ("seats", seats)):
            if len(seq) != n:
                raise SetupError(t("{field}: one entry per player ({n}) is needed", field=name,
                                   n=n))
        button = data.get("button")
        if type(button) is not int or not 0 <= button < max(n, 1):
            raise SetupError(t("button: a player from 0 to {last} is needed", last=str(n - 1)))
        hand_id = data.get("hand_id", "")
        if not isinstance(hand_id, str):
            raise SetupError(t("hand_id: a text is needed"))
        bomb = data.get("bomb", 0)
        if type(bomb) is not int or bomb < 0:
            raise SetupError(t("bomb: a whole, non-negative amount is needed"))
        double_board = data.get("double_board", False)
        if type(double_board) is not bool:
            raise SetupError(t("double_board: true or false"))
        return HandSetup(rules, lists["stacks"], button, lists["blinds"], lists["straddles"],
                         lists["antes"], lists["dead"], tuple(names), tuple(seats), hand_id,
                         bomb, double_board)


def _missing(name: str) -> SetupError:
    return SetupError(t("a hand setup needs {field}", field=repr(name)))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
