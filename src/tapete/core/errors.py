"""What the engine raises: a refused request (the hand unchanged) or books that do not balance.

Kept apart from the engine's compiled modules: ``BooksError`` is an ``AssertionError`` (a bug,
never a player's fault), a base class a compiled class cannot have.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tapete.core.text import Text

if TYPE_CHECKING:
    from tapete.core.betting import Legal


class HandError(ValueError):
    """Something asked of the hand that the rules do not allow; the hand is unchanged."""

    def __init__(self, message: Text, legal: Legal | None = None) -> None:
        super().__init__(message.en)
        self.message = message
        self.legal = legal

    def in_lang(self, lang: str) -> str:
        return self.message.in_lang(lang)


class IllegalAction(HandError):
    """A betting action that is not legal now: says what was tried and what is legal."""


class MalformedAction(HandError):
    """An action that cannot be read (an unknown verb, an amount that is not whole chips):
    refused before the hand is asked."""


class SetupError(HandError):
    """A hand setup that cannot be read (a malformed JSON field, a missing one)."""


class BooksError(AssertionError):
    """Contributions did not equal awards + returns + rake: a bug, never a player's fault."""
