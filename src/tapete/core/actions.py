"""One betting action, whoever takes it: the engine, a hand record, a bot, the web page, the CLI.

An :class:`Action` is a fold, a check, a call, or a bet or raise *to* an amount: the player's
total for this street after it, as :attr:`tapete.core.events.Acted.to` records it (never the
chips one click adds). :meth:`tapete.core.hand.Hand.apply` plays one.

Two codecs:

- PHH action notation: ``f``, ``cc``, ``cbr 40``. ``cc`` is a check or a call depending on the
  hand, so reading it needs the options of the player to act (:class:`~tapete.core.betting.Legal`).
- The wire JSON the web page sends: ``{"action": "raise", "amount": 120}``; ``fold``, ``check``
  and ``call`` carry no amount.

Malformed input raises :class:`~tapete.core.errors.MalformedAction`, in English and Spanish.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from tapete.core import events as ev
from tapete.core.betting import Legal
from tapete.core.errors import MalformedAction
from tapete.core.text import Text

FOLD: Final = ev.FOLD
CHECK: Final = ev.CHECK
CALL: Final = ev.CALL
BET: Final = ev.BET
RAISE: Final = ev.RAISE
KINDS: Final = (FOLD, CHECK, CALL, BET, RAISE)
# the kinds that need an amount
SIZED: Final = (BET, RAISE)


def _whole(value: object) -> bool:
    return type(value) is int and value > 0


class Action(NamedTuple):
    """A betting action: ``kind`` one of fold, check, call, bet, raise; ``to`` the street
    total after a bet or raise (None for the others). Build one with the class methods."""

    kind: str
    to: int | None = None

    # ------------------------------------------------------------------ building
    @staticmethod
    def fold() -> Action:
        return Action(FOLD)

    @staticmethod
    def check() -> Action:
        return Action(CHECK)

    @staticmethod
    def call() -> Action:
        return Action(CALL)

    @staticmethod
    def bet(to: int) -> Action:
        return Action.sized(BET, to)

    @staticmethod
    def raise_to(to: int) -> Action:
        return Action.sized(RAISE, to)

    @staticmethod
    def sized(kind: str, to: object) -> Action:
        if not _whole(to):
            raise MalformedAction(Text(
                f"a {kind} needs a whole, positive amount of chips, not {to!r}",
                f"{'una apuesta' if kind == BET else 'una subida'} necesita una cantidad"
                f" entera y positiva de fichas, no {to!r}"))
        assert isinstance(to, int)
        return Action(kind, to)

    @staticmethod
    def check_or_call(legal: Legal) -> Action:
        """A check when it is free for the player to act, else a call."""
        return Action(CHECK) if legal.check else Action(CALL)

    @property
    def is_sized(self) -> bool:
        """A bet or a raise (the kinds with an amount)."""
        return self.kind == BET or self.kind == RAISE

    # ------------------------------------------------------------------ PHH notation
    def to_phh(self) -> str:
        """``f``, ``cc`` (a check or a call) or ``cbr 40``."""
        if self.kind == FOLD:
            return "f"
        if self.to is None:
            return "cc"
        return f"cbr {self.to}"

    @staticmethod
    def from_phh(text: str, legal: Legal | None = None) -> Action:
        """Read ``f``, ``cc`` or ``cbr 40`` (a player prefix such as ``p3 `` is not part of
        the action). ``cc`` needs ``legal``, the options of the player to act: it is a check
        when checking is free, else a call."""
        if not isinstance(text, str):
            raise MalformedAction(Text(f"a PHH action is text, not {text!r}",
                                       f"una acción PHH es texto, no {text!r}"))
        parts = text.split()
        verb = parts[0] if parts else ""
        if verb == "f" and len(parts) == 1:
            return Action(FOLD)
        if verb == "cc" and len(parts) == 1:
            if legal is None:
                raise MalformedAction(Text(
                    "'cc' is a check or a call: the player's options are needed to read it",
                    "'cc' es pasar o igualar: hacen falta las opciones del jugador para leerlo"))
            return Action.check_or_call(legal)
        if verb == "cbr" and len(parts) == 2:
            digits = parts[1]
            if digits.isascii() and digits.isdigit() and len(digits) <= 100:
                to = int(digits)
                if to > 0:
                    kind = RAISE if legal is not None and not legal.is_bet else BET
                    return Action(kind, to)
            raise MalformedAction(Text(
                f"'cbr' needs a whole, positive amount of chips, not {parts[1]!r}",
                f"'cbr' necesita una cantidad entera y positiva de fichas, no {parts[1]!r}"))
        raise MalformedAction(Text(
            f"unknown PHH action {text!r}: f, cc or cbr followed by an amount",
            f"acción PHH desconocida {text!r}: f, cc o cbr seguido de una cantidad"))

    # ------------------------------------------------------------------ the web page's JSON
    def to_wire(self) -> dict[str, Any]:
        """``{"action": "raise", "amount": 120}``; no amount for a fold, check or call."""
        if self.to is None:
            return {"action": self.kind}
        return {"action": self.kind, "amount": self.to}

    @staticmethod
    def from_wire(data: object) -> Action:
        """Read what the page sends: ``{"action": "fold"|"check"|"call"|"bet"|"raise",
        "amount": int}``, the amount only (and always) for a bet or a raise. Other keys of
        the message (its ``type``, ``seq``) are the protocol's, not the action's."""
        if not isinstance(data, dict):
            raise MalformedAction(Text(f"an action is a JSON object, not {data!r}",
                                       f"una acción es un objeto JSON, no {data!r}"))
        kind = data.get("action")
        if kind not in KINDS:
            raise MalformedAction(Text(
                f"unknown action {kind!r}: fold, check, call, bet or raise",
                f"acción desconocida {kind!r}: fold, check, call, bet o raise"))
        assert isinstance(kind, str)
        amount = data.get("amount")
        if kind in SIZED:
            if amount is None:
                raise MalformedAction(Text("a bet or raise needs an amount",
                                           "una apuesta o subida necesita una cantidad"))
            return Action.sized(kind, amount)
        if amount is not None:
            raise MalformedAction(Text(f"a {kind} takes no amount",
                                       f"{_ES_VERB.get(kind, kind)} no lleva cantidad"))
        return Action(kind)

    def describe(self) -> Text:
        """The action in words ("raise to 120"), amounts as plain chips."""
        if self.to is None:
            return Text(self.kind, _ES_VERB.get(self.kind, self.kind))
        if self.kind == BET:
            return Text(f"bet {self.to}", f"apostar {self.to}")
        return Text(f"raise to {self.to}", f"subir a {self.to}")


_ES_VERB: Final = {FOLD: "retirarse", CHECK: "pasar", CALL: "igualar"}
