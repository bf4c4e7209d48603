"""One door, one session: every table's WebSocket is served by one session class, and the
server has one refusal (``tapete.room.errors.Refused``: message, then code)."""

from __future__ import annotations

import pytest

from tapete.core.catalog import t
from tapete.room.errors import Refused


def test_one_refusal() -> None:
    """The practice table's messages and the room's are refused by one exception, its
    arguments in one order: the words, then the code for programs."""
    from tapete.server import game, protocol

    assert game.Refused is Refused
    with pytest.raises(Refused) as info:
        protocol.parse("not json")
    assert info.value.code == "malformed"
    assert info.value.message.en == "The message is not valid JSON."
    exc = Refused(t("You are not at a table."), "not_seated")
    assert exc.code == "not_seated" and exc.to_json()["en"] == "You are not at a table."
