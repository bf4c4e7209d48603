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
from tapete.core.catalog import N_, NC_, t, tc
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
            raise MalformedAction(
                t("a bet needs a whole, positive amount of chips, not {amount}", amount=repr(to))
                if kind == BET else
                t("a raise needs a whole, positive amount of chips, not {amount}",
                  amount=repr(to)))
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
            raise MalformedAction(t("a PHH action is text, not {action}", action=repr(text)))
        parts = text.split()
        verb = parts[0] if parts else ""
        if verb == "f" and len(parts) == 1:
            return Action(FOLD)
        if verb == "cc" and len(parts) == 1:
            if legal is None:
                raise MalformedAction(t(
                    "'cc' is a check or a call: the player's options are needed to read it"))
            return Action.check_or_call(legal)
        if verb == "cbr" and len(parts) == 2:
            digits = parts[1]
            if digits.isascii() and digits.isdigit() and len(digits) <= 100:
                to = int(digits)
                if to > 0:
                    kind = RAISE if legal is not None and not legal.is_bet else BET
                    return Action(kind, to)
            raise MalformedAction(t("'cbr' needs a whole, positive amount of chips, not {amount}",
                                    amount=repr(parts[1])))
        raise MalformedAction(t("unknown PHH action {action}: f, cc or cbr followed by an amount",
                                action=repr(text)))

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
            raise MalformedAction(t("an action is a JSON object, not {data}", data=repr(data)))
        kind = data.get("action")
        if kind not in KINDS:
            raise MalformedAction(t("unknown action {action}: fold, check, call, bet or raise",
                                    action=repr(kind)))
        assert isinstance(kind, str)
        amount = data.get("amount")
        if kind in SIZED:
            if amount is None:
                raise MalformedAction(t("a bet or raise needs an amount"))
            return Action.sized(kind, amount)
        if amount is not None:
            raise MalformedAction(t(_NO_AMOUNT[kind]))
        return Action(kind)

    def describe(self) -> Text:
        """The action in words ("raise to 120"), amounts as plain chips."""
        if self.to is None:
            verb = _VERBS.get(self.kind)
            return tc(*verb) if verb is not None else t(self.kind)
        if self.kind == BET:
            return t("bet {amount}", amount=str(self.to))
        return t("raise to {amount}", amount=str(self.to))


# the actions without an amount, as words (message ids of the context "action")
_VERBS: Final = {FOLD: NC_("action", "fold"), CHECK: NC_("action", "check"),
                 CALL: NC_("action", "call")}
_NO_AMOUNT: Final = {FOLD: N_("a fold takes no amount"), CHECK: N_("a check takes no amount"),
                     CALL: N_("a call takes no amount")}
