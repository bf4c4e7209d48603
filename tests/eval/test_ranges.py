"""Range notation."""

from __future__ import annotations

import pytest

from tapete.core.cards import format_card, parse_cards
from tapete.eval.ranges import ALL_COMBOS, Range, RangeError, hand_or_range, parse_range


def names(r: Range) -> set[str]:
    return {format_card(a) + format_card(b) for a, b in r.combos}


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("AKs", 4), ("AKo", 12), ("AK", 16), ("KA s", 4), ("TT", 6), ("TT+", 30), ("22+", 78),
        ("A5s-A2s", 16), ("A2s-A5s", 16), ("KQo", 12), ("76s", 4), ("KTs+", 12), ("A2s+", 48),
        ("TT-77", 24), ("77-TT", 24), ("K9o-KJo", 36), ("random", 1326), ("any", 1326),
        ("QQ+, AKs", 22), ("QQ+,AKs,AKs", 22), ("ahkh", 1), ("AhKh, AsKs", 2), ("aks", 4),
    ],
)  # fmt: skip
def test_counts(text: str, count: int) -> None:
    assert len(parse_range(text.replace("KA s", "KAs"))) == count


def test_contents() -> None:
    assert names(parse_range("AKs")) == {"AcKc", "AdKd", "AhKh", "AsKs"}
    assert names(parse_range("KTs+")) == names(parse_range("KTs, KJs, KQs"))
    assert names(parse_range("A5s-A2s")) == names(parse_range("A5s,A4s,A3s,A2s"))
    assert names(parse_range("TT+")) == names(parse_range("TT,JJ,QQ,KK,AA"))
    assert names(parse_range("AK")) == names(parse_range("AKs")) | names(parse_range("AKo"))
    assert "AhAd" in names(parse_range("AA"))
    assert len(ALL_COMBOS) == 1326 and len(set(ALL_COMBOS)) == 1326
    assert parse_range("random").is_random and not parse_range("AKs").is_random


def test_weights() -> None:
    r = parse_range("AKs:0.5, QQ")
    weights = dict(zip(r.combos, r.weights, strict=True))
    assert weights[tuple(sorted(parse_cards("AhKh"), reverse=True))] == 0.5  # type: ignore[index]
    assert weights[tuple(sorted(parse_cards("QhQd"), reverse=True))] == 1.0  # type: ignore[index]
    assert parse_range("AKs:50%").weights == (0.5,) * 4
    assert len(parse_range("AKs:0, QQ")) == 6  # weight 0 drops a token
    assert parse_range("AKs:0.2, AKs").weights == (1.0,) * 4  # the last weight wins


def test_hand_or_range() -> None:
    assert hand_or_range("Ah Kh").is_hand
    assert hand_or_range("AhKh").combos == ((50, 46),)
    assert hand_or_range("KhAh").combos == ((50, 46),)
    assert not hand_or_range("AKs").is_hand


def test_without_known_cards() -> None:
    r = parse_range("AKs").without(parse_cards("Ah"))
    assert names(r) == {"AcKc", "AdKd", "AsKs"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AAs", "neither suited"),
        ("A5s-K2s", "span"),
        ("A5s-A2o", "span"),
        ("XYZ", "cannot read"),
        ("", "empty"),
        ("AhAh", "twice"),
        ("QQ:2", "between 0 and 1"),
        ("QQ:abc", "number"),
        ("AKs:0", "no combo"),
        ("AK+-", "cannot read"),
    ],
)
def test_errors_are_one_line(text: str, message: str) -> None:
    with pytest.raises(RangeError, match=message) as info:
        hand_or_range(text)
    assert "\n" not in str(info.value)
