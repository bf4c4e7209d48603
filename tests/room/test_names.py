"""Names are cleaned one way wherever a person gives one (issue 29, 7): a room seat, the
practice table and its sit-and-go, a tournament's registration and name. No character of
Unicode's categories C* (controls, the bidirectional overrides and other format characters,
unassigned code points), a length in grapheme clusters, compatibility forms folded. A name
refused changes nothing, and says why in both languages."""

from __future__ import annotations

import pytest
from roomfakes import Room
from test_refusals import refused

from tapete.room.errors import Refused
from tapete.room.log import TableConfig
from tapete.room.names import MAX_NAME, clean_name, graphemes

BAD = ["\u0000\u202e\u0007x", "Ana\u202e", "\u200bAna", "Ana\u0007", "A\nna", "A\tna",
       "\u2066Ana\u2069", "Ana\ue000", "Ana\U000e0001", "Ana\u0378", "\u00ad"]


@pytest.mark.parametrize("name", BAD)
def test_a_room_seat_refuses_control_and_format_characters(name: str) -> None:
    room = Room(seed=2, players=2, config=TableConfig(seats=4))
    room.bank.balances["new"] = 10_000
    room.total += 10_000
    e = refused(room, lambda: room.table.sit("new", name, 100))
    assert "control" in e.message.en or "characters" in e.message.en


def test_lengths_are_counted_in_grapheme_clusters() -> None:
    assert graphemes("Jose\u0301") == graphemes("José") == 4
    assert graphemes("\U0001F1EA\U0001F1F8\U0001F1E6\U0001F1F7") == 2  # two flags
    assert graphemes("\U0001F44D\U0001F3FD") == 1  # a thumb with its skin tone
    assert graphemes("\u1100\u1161\u11a8") == 1  # conjoining jamo: one syllable
    assert graphemes("n\u0303" * MAX_NAME) == MAX_NAME
    accented = "e\u0301" * MAX_NAME  # 40 code points, 20 letters
    assert clean_name(accented) == "\u00e9" * MAX_NAME  # composed by NFKC
    stacked = "a\u0301\u0308" * MAX_NAME  # three code points a letter, NFKC keeps two
    assert len(stacked) == 3 * MAX_NAME and clean_name(stacked)
    with pytest.raises(Refused):
        clean_name("a\u0301\u0308" * (MAX_NAME + 1))
    with pytest.raises(Refused):
        clean_name("x" * (MAX_NAME + 1))


def test_names_are_folded_and_spaced_one_way() -> None:
    assert clean_name("  Ａｎａ   María ") == "Ana María"  # fullwidth folded, spaces one
    for empty in ("", "   ", None, 7):
        with pytest.raises(Refused):
            clean_name(empty)
    room = Room(seed=2, players=2, config=TableConfig(seats=4))
    room.bank.balances["new"] = 10_000
    room.total += 10_000
    seat = room.table.sit("new", " Ｎｅｗ  one ", 100)
    assert seat is not None and room.table.table.seats[seat].name == "New one"


def test_the_practice_table_and_tournaments_clean_names_the_same_way() -> None:
    from tapete.server.game import Refused as PracticeRefused
    from tapete.server.hub import chosen_name

    assert chosen_name("  ", "es") == "Héroe" and chosen_name("Ａｎａ", "en") == "Ana"
    with pytest.raises(PracticeRefused) as info:
        chosen_name("\u0000\u202e\u0007x", "en")
    assert info.value.message.en != info.value.message.es
