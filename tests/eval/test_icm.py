"""Tournament equity (ICM): exact against an independent sum over every finishing order."""

from __future__ import annotations

import doctest
import json
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samples import ALL_IN_ACES_KINGS
from tapete.cli import main
from tapete.eval import icm
from tapete.eval.icm import IcmError, after_hand, equities, expected


def by_every_order(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Malmuth-Harville from its definition: the probability of each whole finishing order
    (each place drawn in proportion to the chips left), times the prizes it pays."""
    out = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance = Fraction(1)
        left = sum(stacks)
        for p in order:
            chance *= Fraction(stacks[p], left)
            left -= stacks[p]
        for place, p in enumerate(order[:len(prizes)]):
            out[p] += chance * prizes[place]
    return out


def test_the_classic_three_player_example() -> None:
    # 5,000 / 3,000 / 2,000 chips for 50 / 30 / 20: the chip leader's 50 % of the chips is
    # worth only 38.4 % of the prizes, the short stack's 20 % is worth 28.9 %
    assert equities([5000, 3000, 2000], [50, 30, 20]) == [
        Fraction(1075, 28), Fraction(131, 4), Fraction(202, 7)]
    assert doctest.testmod(icm).failed == 0


def test_heads_up_is_second_prize_plus_a_chip_share_of_the_difference() -> None:
    assert equities([300, 100], [70, 30]) == [30 + Fraction(3, 4) * 40, 30 + Fraction(1, 4) * 40]


def test_winner_takes_all_is_the_chip_share() -> None:
    assert equities([5, 3, 2], [100]) == [50, 30, 20]


def test_equal_stacks_share_equally_and_unpaid_places_change_nothing() -> None:
    assert equities([1000] * 4, [60, 40]) == [25] * 4
    assert equities([4, 3, 2, 1], [60, 40, 0, 0]) == equities([4, 3, 2, 1], [60, 40])


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.integers(1, 10_000), min_size=1, max_size=6).flatmap(
    lambda stacks: st.tuples(st.just(stacks), st.lists(
        st.integers(0, 1_000), min_size=0, max_size=len(stacks)))))
def test_exactly_the_sum_over_every_finishing_order(case: tuple[list[int], list[int]]) -> None:
    stacks, prizes = case
    got = equities(stacks, prizes)
    assert got == by_every_order(stacks, prizes)
    assert sum(got) == sum(prizes)  # the books: every prize is someone's equity


def test_players_knocked_out_take_the_lowest_places() -> None:
    # the chip leader knocks out both: the one who started the hand bigger finishes second
    assert after_hand([5000, 3000, 2000], [10000, 0, 0], [50, 30, 20]) == [50, 30, 20]
    # equal starting stacks knocked out in one hand split their places' prizes
    assert after_hand([4000, 3000, 3000], [10000, 0, 0], [50, 30, 20]) == [50, 25, 25]
    # one knocked out, two left: the busted player is third, the others play for 50 and 30
    out = after_hand([5000, 3000, 2000], [7000, 3000, 0], [50, 30, 20])
    assert out[2] == 20 and out[:2] == equities([7000, 3000], [50, 30])
    # nobody knocked out: plain ICM on the new stacks
    assert after_hand([5, 5], [7, 3], [10, 5]) == equities([7, 3], [10, 5])


def test_a_call_on_the_bubble_weighed_in_prizes() -> None:
    # four players, three paid; the short stack is all in for 1,000 and the big stack holds
    # a hand with 55 % equity. In chips the call wins; in prizes it is weighed by ICM.
    start = [6000, 1000, 1500, 1500]
    prizes = [50, 30, 20]
    win, lose = [7000, 0, 1500, 1500], [5000, 2000, 1500, 1500]
    call = expected([(Fraction(55, 100), win), (Fraction(45, 100), lose)], start, prizes)
    fold = after_hand(start, [5900, 1100, 1500, 1500], prizes)  # the big blind of 100 lost
    assert sum(call) == sum(prizes)
    chip_ev_call = Fraction(55, 100) * 7000 + Fraction(45, 100) * 5000
    assert chip_ev_call > 5900  # a clear call by chips...
    assert call[0] > fold[0]  # ... still right in prizes here
    # exactly the two outcomes' equities weighed by their chances
    assert call == [Fraction(55, 100) * w + Fraction(45, 100) * v for w, v in zip(
        after_hand(start, win, prizes), after_hand(start, lose, prizes), strict=True)]


def test_bad_input_is_refused_in_both_languages() -> None:
    bad: list[tuple[list[object], list[object]]] = [
        ([100, 0], [10]), ([100, 50.5], [10]), ([100, True], [10]), ([100, 50], [10.0]),
        ([100, 50], [-1]), ([100, 50], [10, 5, 1]), ([], []),
    ]
    for stacks, prizes in bad:
        with pytest.raises(IcmError) as err:
            equities(stacks, prizes)  # type: ignore[arg-type]
        assert err.value.message.en and err.value.message.es
        assert err.value.message.en != err.value.message.es
    with pytest.raises(IcmError, match="too many to price exactly"):
        equities([100] * 60, list(range(20, 0, -1)))
    with pytest.raises(IcmError):
        expected([(Fraction(1, 2), [2, 0])], [1, 1], [1])


def test_cli_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["icm", "5000", "3000", "2000", "--prizes", "50", "30", "20", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "38.39" in out and "32.75" in out and "28.86" in out
    assert main(["icm", "12000", "9000", "--prizes", "500,00", "300.00", "--currency", "€",
                 "--lang", "es", "--names", "Ana", "Luis"]) == 2  # 500,00 or 1,500?
    assert "los premios son números con punto decimal" in capsys.readouterr().err
    assert main(["icm", "12000", "9000", "--prizes", "500.00", "300.00", "--currency", "€",
                 "--lang", "es", "--names", "Ana", "Luis"]) == 0
    out = capsys.readouterr().out
    assert "Ana" in out and "€" in out and "jugador" in out and "equity" in out
    assert main(["icm", "100", "200", "--prizes", "10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["equity_exact"] for p in data["players"]] == ["10/3", "20/3"]
    assert [p["equity"] for p in data["players"]] == ["3.33", "6.67"]
    assert main(["icm", "100", "0", "--prizes", "10", "--lang", "es"]) == 2
    assert "entero y positivo" in capsys.readouterr().err


def test_prizes_from_text() -> None:
    from tapete.eval.icm import parse_prizes

    assert parse_prizes("50 30 20") == ([50, 30, 20], 0)
    assert parse_prizes("500.00, 300.5; 200") == ([50000, 30050, 20000], 2)
    for bad in ("", "1,500", "500,00", "abc", "-5", "1e400", "NaN", "0.0000001"):
        with pytest.raises(IcmError):
            parse_prizes(bad)




def test_replay_with_prizes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "all-in.phh"
    path.write_text(ALL_IN_ACES_KINGS, encoding="utf-8")
    assert main(["replay", str(path), "--prizes", "70 30", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["icm"]["players"][0] == {"before": "42.00", "after": "54.00", "change": "+12.00"}
    assert main(["replay", str(path), "--prizes", "70 30", "--lang", "es"]) == 0
    assert "Ana: 42,00 -> 54,00 (+12,00)" in capsys.readouterr().out
    path.write_text(ALL_IN_ACES_KINGS.replace("'Ana'", "'Ana.B'"), encoding="utf-8")
    assert main(["replay", str(path), "--prizes", "70 30", "--lang", "es"]) == 0
    assert "Ana.B: 42,00 -> 54,00" in capsys.readouterr().out  # decimals localised, names not
    assert main(["replay", str(path), "--prizes", "1,5", "--lang", "es"]) == 2
    assert "punto decimal" in capsys.readouterr().err


def test_large_fields_are_sampled_by_the_same_model() -> None:
    from tapete.eval.icm import exact_is_practical, sampled_equities

    stacks, prizes = [5000, 3000, 2000, 1500], [50, 30, 20]
    exact = equities(stacks, prizes)
    got = sampled_equities(stacks, prizes, samples=200_000, seed=3)
    assert sum(got) == sum(prizes)  # every drawn order pays every prize
    assert all(abs(float(g - e)) < 0.25 for g, e in zip(got, exact, strict=True))
    assert sampled_equities(stacks, prizes, 1000, seed=3) == sampled_equities(
        stacks, prizes, 1000, seed=3)  # seeded: the same estimate every time
    # a multi-table field: 300 players, 45 paid; exact is out of reach, sampling is not
    field = [1000 + (i * 37) % 5000 for i in range(300)]
    paid = list(range(450, 0, -10))
    assert not exact_is_practical(len(field), len(paid))
    est = sampled_equities(field, paid, samples=3000, seed=1)
    assert sum(est) == sum(paid)
    big, small = field.index(max(field)), field.index(min(field))
    assert est[big] > est[small]


def test_cli_samples_a_large_field(capsys: pytest.CaptureFixture[str]) -> None:
    stacks = [str(1000 + (i * 37) % 5000) for i in range(60)]
    prizes = [str(x) for x in range(30, 0, -1)]
    assert main(["icm", *stacks, "--prizes", *prizes, "--samples", "2000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False and data["samples"] == 2000 and len(data["players"]) == 60
