"""``tapete convert``: PokerStars text <-> PHH, every hand replayed on the way."""

from __future__ import annotations

from pathlib import Path

import pytest
from replayed import play

from tapete.cli import main
from tapete.history import pokerstars as ps
from tapete.history.record import HandRecord

DATA = Path(__file__).parents[1] / "data" / "pokerstars"


def test_pokerstars_to_pokerstars_keeps_every_hand(tmp_path: Path) -> None:
    src = DATA / "hhsmithy_cash_nlhe_10_hands_rake.txt"
    out = tmp_path / "out.txt"
    assert main(["convert", str(src), "--to", "pokerstars", "-o", str(out)]) == 0
    before = [r for r in ps.read_file(str(src)) if isinstance(r, HandRecord)]
    after = [r for r in ps.read_file(str(out)) if isinstance(r, HandRecord)]
    assert [r.hand_id for r in after] == [r.hand_id for r in before]
    for a, b in zip(before, after, strict=True):
        ha, hb = play(a), play(b)
        assert ha.events == hb.events and ha.stacks == hb.stacks
        assert ps.reconcile(b, hb) == []


def test_pokerstars_to_phh_and_back(tmp_path: Path) -> None:
    phh = pytest.importorskip("tapete.history.phh")
    src = DATA / "pokerregion_mtt_nlhe_ante_side_pot.txt"
    out = tmp_path / "hand.phh"
    assert main(["convert", str(src), "--to", "phh", "-o", str(out)]) == 0
    (item,) = phh.read_file(str(out))
    assert item.record is not None, item.error
    back = tmp_path / "back.txt"
    assert main(["convert", str(out), "--to", "pokerstars", "-o", str(back)]) == 0
    (a,) = list(ps.read_file(str(src)))
    (b,) = list(ps.read_file(str(back)))
    assert isinstance(a, HandRecord) and isinstance(b, HandRecord)
    ha, hb = play(a), play(b)
    # PHH orders the players from the small blind: compare by name
    assert dict(zip(hb.names, hb.stacks, strict=True)) == dict(zip(ha.names, ha.stacks,
                                                                  strict=True))
    assert dict(zip(hb.names, hb.won, strict=True)) == dict(zip(ha.names, ha.won, strict=True))
    assert ps.reconcile(b, hb) == []


def test_several_hands_to_phhs(tmp_path: Path) -> None:
    phh = pytest.importorskip("tapete.history.phh")
    src = DATA / "hhsmithy_cash_nlhe_10_hands_rake.txt"
    out = tmp_path / "hands.phhs"
    assert main(["convert", str(src), "--to", "phh", "-o", str(out)]) == 0
    items = phh.read_file(str(out))
    assert len(items) == 10 and all(i.record is not None for i in items)


def test_a_game_not_played_is_reported_and_left_out(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "courchevel.txt"  # Omaha with a face-up card: tapete does not play it
    text = (DATA / "hhsmithy_cash_plo8_uncalled_bet.txt").read_text("utf-8-sig")
    src.write_text(text.replace("Omaha", "Courchevel"), encoding="utf-8")
    out = tmp_path / "o.txt"
    assert main(["convert", str(src), "--to", "pokerstars", "-o", str(out), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "not supported yet" in err and "109716666902" in err


def test_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    src = DATA / "hhsmithy_cash_flhe.txt"
    assert main(["convert", str(src), "--to", "pokerstars"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PokerStars Hand #109679365424:  Hold'em Limit ($0.50/$1 USD)")


def test_pokerstars_to_pokerstars_keeps_table_date_and_tournament(tmp_path: Path) -> None:
    src = DATA / "hhp_mtt_nlhe_allin_preflop_side_pot.txt"
    out = tmp_path / "t.txt"
    assert main(["convert", str(src), "--to", "pokerstars", "-o", str(out)]) == 0
    first = out.read_text(encoding="utf-8").splitlines()[:2]
    assert first == ["PokerStars Hand #149652059422: Tournament #1495192630, $0.91+$0.09 USD "
                     "Hold'em No Limit - Level I (400/800) - 2016/03/01 1:33:54 ET",
                     "Table '1495192630 3' 9-max Seat #3 is the button"]


def test_stated_rake_survives_pokerstars_to_phh_and_back() -> None:
    """Every hold'em hand of tests/data/pokerstars -> PHH -> tapete: same stacks, same rake
    (the stated rake travels as ``_rake_fixed``, pot by pot)."""
    phh = pytest.importorskip("tapete.history.phh")
    from tapete.history.replay import replay

    checked = raked = 0
    for path in sorted(DATA.glob("*.txt")):
        for rec in ps.read_file(str(path)):
            if not isinstance(rec, HandRecord):
                continue  # a hand that cannot be read
            hand = play(rec)
            try:
                text = phh.dumps(hand)
            except phh.PhhError as exc:  # a board run twice: PHH has no way to write it
                assert "more than once" in str(exc)
                continue
            back = phh.loads(text)
            res = replay(back)
            assert res.error is None and res.engine is not None, (path.name, res.error)
            again = res.engine
            assert again.rake == hand.rake, (path.name, rec.hand_id, text)
            assert again.rules.rake_fixed == hand.rules.rake_fixed
            assert dict(zip(again.names, again.stacks, strict=True)) == \
                dict(zip(hand.names, hand.stacks, strict=True)), (path.name, rec.hand_id)
            assert back.finishing_stacks is not None
            assert sorted(back.finishing_stacks) == sorted(again.stacks)
            checked += 1
            raked += hand.rake > 0
    assert checked >= 20 and raked >= 10


def _seat_lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines() if ln.startswith("Seat ") and "chips" in ln]


def test_pokerstars_to_phh_and_back_keeps_date_table_and_seats(tmp_path: Path) -> None:
    src = DATA / "hhp_mtt_nlhe_allin_preflop_side_pot.txt"
    out = tmp_path / "hand.phh"
    assert main(["convert", str(src), "--to", "phh", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    for line in ("table = '1495192630 3'", "seat_count = 9", "year = 2016", "month = 3",
                 "day = 1", "time = 01:33:54", "time_zone_abbreviation = 'ET'"):
        assert line in text.splitlines(), line
    assert "seats = [" in text
    back = tmp_path / "back.txt"
    assert main(["convert", str(out), "--to", "pokerstars", "-o", str(back)]) == 0
    before = src.read_text(encoding="utf-8")
    after = back.read_text(encoding="utf-8")
    assert after.splitlines()[0].endswith(" - 2016/03/01 1:33:54 ET")
    assert after.splitlines()[1] == before.splitlines()[1] == \
        "Table '1495192630 3' 9-max Seat #3 is the button"
    assert _seat_lines(after) == _seat_lines(before)
    (a,) = list(ps.read_file(str(src)))
    (b,) = list(ps.read_file(str(back)))
    assert isinstance(a, HandRecord) and isinstance(b, HandRecord)
    assert b.seats == a.seats and b.extra["date"] == a.extra["date"] == "2016/03/01 1:33:54 ET"
    assert b.extra["table"] == a.extra["table"] and b.extra["max_seats"] == 9


def test_phh_to_pokerstars_uses_the_files_date(tmp_path: Path) -> None:
    wsop = DATA.parent / "phh" / "phh-dataset/data/wsop/2019/42/3/00-01-07.phh"
    out = tmp_path / "w.txt"
    assert main(["convert", str(wsop), "--to", "pokerstars", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[0].endswith(" - 2019/06/20 0:00:00")
    hq = next((Path(__file__).parents[1] / "data" / "phh" / "phh-dataset").rglob("*.phhs"))
    out = tmp_path / "hq.txt"
    assert main(["convert", str(hq), "--to", "pokerstars", "-o", str(out)]) in (0, 1)
    first = out.read_text(encoding="utf-8").splitlines()[:3]
    assert first[0].endswith(" - 2009/07/01 0:00:09 ET")
    assert first[1] == "Table 'INDIANA ST' 6-max Seat #5 is the button"
    assert first[2].startswith("Seat 3: ")
