"""What the room refuses: a request that changes nothing and stores nothing."""

from __future__ import annotations

from tapete.core.catalog import t
from tapete.core.text import Text


class Refused(ValueError):
    """A command the table refused, with the reason in English and Spanish. The table, its
    log and every subscriber are exactly as they were before the command."""

    def __init__(self, message: Text, code: str = "refused") -> None:
        super().__init__(message.en)
        self.message = message
        self.code = code  # for programs: refused, illegal (an action the rules forbid), stale

    def in_lang(self, lang: str) -> str:
        return self.message.in_lang(lang)

    def to_json(self) -> dict[str, str]:
        return self.message.to_json()


class Fenced(Refused):
    """A write refused because the writer's lease of the table moved on (another node claimed
    it): this copy of the table must stop and be dropped."""

    def __init__(self, message: Text) -> None:
        super().__init__(message, "fenced")


class Unavailable(Refused):
    """A command the table could not store because its database did not answer (down or
    restarting): nothing of it is kept (the table is rebuilt from its log once the database
    is back) and the client may send it again."""

    def __init__(self, message: Text | None = None) -> None:
        super().__init__(message if message is not None else
                         t("the table's database did not answer: nothing was done, try again"
                           " in a moment"), "unavailable")
