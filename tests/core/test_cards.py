"""Cards and decks (tapete.core.cards)."""

from __future__ import annotations

import pytest

from tapete.core.cards import (
    CardError,
    Deck,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_the_encoding() -> None:
    assert parse_card("2c") == 0 and parse_card("As") == 51 and parse_card("Ah") == 50
    assert parse_card("10d") == parse_card("Td") == 8 * 4 + 1
    assert parse_card("ah") == 50  # a rank letter in either case
    assert rank_of(50) == 12 and suit_of(50) == 2
    assert [format_card(c) for c in range(52)] == [r + s for r in "23456789TJQKA"
                                                   for s in "cdhs"]


def test_lists_of_cards() -> None:
    assert parse_cards("AhKd") == parse_cards("Ah Kd") == parse_cards("Ah,Kd") == (50, 45)
    assert parse_cards(["Ah", "Kd"]) == (50, 45)
    assert parse_cards("10h 10c") == (34, 32)
    assert format_cards((50, 45)) == "AhKd" and format_cards((50, 45), " ") == "Ah Kd"
    assert parse_cards("AhAh", unique=False) == (50, 50)


@pytest.mark.parametrize("text", ["Xx", "A", "Ahh", "1h", "Az"])
def test_bad_cards_are_refused_in_both_languages(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert info.value.message.en.startswith("not a card")
    assert info.value.message.es.startswith("no es una carta")


def test_a_card_twice_and_numbers_out_of_range() -> None:
    with pytest.raises(CardError, match="appears twice"):
        parse_cards("AhKdAh")
    for bad in (-1, 52):
        with pytest.raises(CardError):
            format_card(bad)


def test_seeded_decks_repeat_and_deal_in_order() -> None:
    a, b = Deck(seed=7), Deck(seed=7)
    assert a.cards() == b.cards() and sorted(a.cards()) == list(range(52))
    assert Deck(seed=8).cards() != a.cards()
    first = a.deal(2)
    assert first == b.cards()[:2] and a.remaining == 50
    assert a.deal(50) == b.cards()[2:] and a.remaining == 0
    with pytest.raises(CardError) as info:
        a.deal(1)
    assert "0 cards left" in info.value.message.en and "0 cartas" in info.value.message.es


def test_stacked_and_excluding_decks() -> None:
    d = Deck.stacked("AhKh QsQd", seed=1)
    assert d.deal(4) == parse_cards("AhKh QsQd") and sorted(d.cards()) == list(range(52))
    short = Deck(seed=3, exclude=parse_cards("AhKh"))
    assert short.remaining == 50 and not {50, 46} & set(short.cards())


def test_an_unseeded_deck_is_a_full_deck() -> None:
    assert sorted(Deck().cards()) == list(range(52))
