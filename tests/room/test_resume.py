"""A client that comes back with ``after=SEQ`` is sent what it missed, as it would have seen
it: the records after SEQ only (the table reads no more of its log than that and the hand
SEQ is in), each shown to that viewer as to one who never left (its own hole cards, no one
else's), gap-free from SEQ + 1."""

from __future__ import annotations

from typing import Any

from roomfakes import PLAYERS, Room


class Back:
    """A subscriber that keeps what it is sent."""

    def __init__(self, player: str | None) -> None:
        self.player = player
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


def test_resuming_mid_hand_sends_what_was_missed_as_it_was_seen() -> None:
    room = Room(seed=7)
    while room.table.hand_no < 6:
        room.step()
    table_id = room.table.table_id
    last = room.log.last_seq(table_id)
    player = PLAYERS[2]
    full = room.clients[player].messages
    starts = [m["seq"] for m in full if m["kind"] == "start"]
    # points inside a hand (just after a hand's start, a few records in) and at its start
    points = [starts[-2] + 3, starts[-1] + 1, starts[-1], starts[-3] + 10]
    read: list[int] = []
    original = room.log.read

    def counting(tid: str, after: int = 0) -> list:  # type: ignore[type-arg]
        got = original(tid, after)
        read.append(len(got))
        return got

    room.log.read = counting  # type: ignore[method-assign]
    for after in points:
        for viewer in (player, None):
            back = Back(viewer)
            room.table.subscribe(back, after=after)
            room.table.unsubscribe(back)
            expected = [m for m in (full if viewer else room.spectator.messages)
                        if m["seq"] > after]
            # the same records, shown alike: its own hole cards (the context of the hand it
            # resumes in, read from that hand's start), no one else's
            assert back.messages == expected
            assert [m["seq"] for m in back.messages] == list(range(after + 1, last + 1))
            assert read[-1] == last - after  # only what it missed was read
