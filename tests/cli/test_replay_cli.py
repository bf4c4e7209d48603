"""``tapete replay`` through its main() function: text and JSON output, exit status, errors."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from tapete.cli import main

DATA = Path(__file__).parents[1] / "data" / "phh"
PK = DATA / "pokerkit-repo-d782667" / "data"
DWAN = PK / "dwan-ivey-2009.phh"
HANDHQ = next((DATA / "phh-dataset").rglob("*.phhs"))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["replay", *args])
    return code, capsys.readouterr().out


def _json(out: str) -> list[dict[str, object]]:
    return [json.loads(line, parse_float=Decimal) for line in out.splitlines()]


def test_json_one_object_per_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "--json", str(DWAN), str(HANDHQ))
    assert code == 0
    rows = _json(out)
    assert len(rows) == 22
    first = rows[0]
    for key in ("source", "hand", "finishing_stacks", "pots", "returned", "rake", "decisions",
                "error"):
        assert key in first
    assert first["source"] == str(DWAN)
    assert first["finishing_stacks"] == [572100, 1997500, 1109500]
    assert first["pots"] == [{"amount": 1109500, "players": ["p1", "p3"], "winners": ["p3"],
                              "shares": {"p3": 1109500}}]
    assert first["returned"] == [572100, 0, 0] and first["rake"] == 0
    assert first["error"] is None
    d0 = first["decisions"][0]  # type: ignore[index]
    assert d0 == {"actor": "p3", "fold": True, "check": False, "call": 2000, "min_to": 4000,
                  "max_to": 553000, "action": "p3 cbr 7000", "inferred": False}
    # amounts in the file's units, decimals as the file writes them
    hq = rows[1]
    assert hq["hand"] == "1"
    assert hq["finishing_stacks"] == [Decimal("201.30"), Decimal("80.60"), Decimal("197.00")]
    assert '"finishing_stacks": [201.30, 80.60, 197.00]' in out.splitlines()[1]
    assert hq["decisions"][1]["call"] == Decimal("0.50")  # type: ignore[index]
    partial = rows[2]
    assert partial["partial"] is True and partial["finishing_stacks"] is None
    assert partial["error"] is None


def test_text_account_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "--lang", "en", str(DWAN))
    assert code == 0
    assert "Turn [Jc 3d 5c 4h]" in out and "raises to 1,067,100 (all-in)" in out
    assert "River [Jc 3d 5c 4h Jh]" in out
    assert "p1 Phil Ivey takes back 572,100 (uncalled)" in out
    assert "p3 Tom Dwan wins the pot, 1,109,500, with a straight, seven high — between" \
        " p1 Phil Ivey and p3 Tom Dwan" in out
    assert "1 hands: 1 complete, 0 partial, 0 with errors" in out
    code, out = _run(capsys, "--lang", "es", str(DWAN))
    assert code == 0
    assert "sube a 1.067.100 (all-in)" in out and "escalera al siete" in out
    assert "1 manos: 1 completas, 0 parciales, 0 con error" in out


def test_default_language_comes_from_the_locale(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert "Fichas finales" in _run(capsys, str(DWAN))[1]
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert "Finishing stacks" in _run(capsys, str(DWAN))[1]


def test_folders_are_recursed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "--json", str(PK / "wsop"))
    assert code == 0
    rows = _json(out)
    assert len(rows) == 18 and all(r["error"] is None for r in rows)


def test_errors_give_exit_1_and_never_a_traceback(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    good = tmp_path / "good.phh"
    shutil.copy(DWAN, good)
    (tmp_path / "bad_toml.phh").write_text("variant = 'NT'\nnot toml at all\n")
    (tmp_path / "illegal.phh").write_text(
        DWAN.read_text().replace('"p3 cbr 7000"', '"p3 cbr 3000"'))
    (tmp_path / "many.phhs").write_text(
        "[1]\n" + DWAN.read_text() + "\n[2]\nvariant = 'NT'\n")
    (tmp_path / "notes.md").write_text("not a hand history")  # skipped in folders
    code, out = _run(capsys, "--json", str(tmp_path))
    assert code == 1
    rows = {(Path(str(r["source"])).name, r["hand"]): r for r in _json(out)}
    assert rows["good.phh", ""]["error"] is None
    assert "line 2" in str(rows["bad_toml.phh", ""]["error"])
    err = str(rows["illegal.phh", ""]["error"])
    assert 'action 4 "p3 cbr 3000"' in err and "smallest raise: to 4,000" in err
    assert "Legal: fold, call 2,000, raise to 4,000–553,000." in err
    assert rows["many.phhs", "1"]["error"] is None
    assert "missing" in str(rows["many.phhs", "2"]["error"])
    assert not any(name == "notes.md" for name, _ in rows)
    # the readable account says the same, in Spanish too
    code, out = _run(capsys, "--lang", "es", str(tmp_path / "illegal.phh"))
    assert code == 1 and "no puede subir a 3.000" in out and "1 con error" in out


def test_missing_and_unsupported_files(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    code, out = _run(capsys, "--json", str(tmp_path / "nowhere.phh"))
    assert code == 1 and "no such file" in out
    other = tmp_path / "hand.xml"
    other.write_text("<hand/>")
    code, out = _run(capsys, "--json", str(other))
    assert code == 1 and "unsupported format" in out


def test_pokerstars_text_plugs_in_by_file_type(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    txt = tmp_path / "hands.txt"
    txt.write_text("this is not a PokerStars hand\n")
    code, out = _run(capsys, "--json", str(txt))
    assert code == 1
    (row,) = _json(out)
    assert row["source"] == str(txt) and row["error"] == "no PokerStars hand in this text"


PS_SIDE_POT = Path(__file__).parents[1] / "data" / "pokerstars" / \
    "hhsmithy_cash_nlhe_side_pot_rake.txt"


def _doctored(tmp_path: Path) -> Path:
    """A copy of a PokerStars hand whose SUMMARY states a side pot 10 cents smaller than the
    hand's own actions make (the actions, and so the replay, are unchanged)."""
    text = PS_SIDE_POT.read_text(encoding="utf-8-sig")
    bad = text.replace("Main pot $30.37. Side pot $7.91. | Rake $1.50",
                       "Main pot $30.37. Side pot $7.81. | Rake $1.50")
    assert bad != text
    out = tmp_path / "doctored.txt"
    out.write_text(bad, encoding="utf-8")
    return out


def test_pokerstars_summary_mismatch_in_json(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    code, out = _run(capsys, "--json", str(PS_SIDE_POT))
    assert code == 0 and _json(out)[0]["mismatches"] == []
    code, out = _run(capsys, "--json", "--lang", "en", str(_doctored(tmp_path)))
    assert code == 1  # the hand did not check out
    (row,) = _json(out)
    assert row["error"] is None
    assert row["mismatches"] == [
        "pots: the file says $30.37, $7.81; the replay gives $30.30, $7.98"]
    code, out = _run(capsys, "--json", "--lang", "es", str(_doctored(tmp_path)))
    assert code == 1
    assert _json(out)[0]["mismatches"] == [
        "botes: el archivo dice $30.37, $7.81; la reproducción da $30.30, $7.98"]


def test_pokerstars_summary_mismatch_in_the_account(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    bad = str(_doctored(tmp_path))
    code, out = _run(capsys, "--lang", "en", bad)
    assert code == 1
    assert "DOES NOT MATCH the file's summary: pots: the file says $30.37, $7.81; the replay " \
        "gives $30.30, $7.98" in out
    assert "1 not matching their summary" in out
    code, out = _run(capsys, "--lang", "es", bad)
    assert code == 1
    assert "NO CUADRA con el resumen del archivo: botes: el archivo dice $30.37, $7.81" in out
    assert "1 que no cuadran con su resumen" in out
    code, out = _run(capsys, "--lang", "en", str(PS_SIDE_POT))
    assert code == 0 and "DOES NOT MATCH" not in out


def test_pokerstars_rake_and_collected_mismatch(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    """The SUMMARY moves 10 cents from the main pot to the rake: the replay takes the stated
    rake, so what the winner collects no longer matches the file; both figures are given."""
    text = PS_SIDE_POT.read_text(encoding="utf-8-sig")
    path = tmp_path / "rake.txt"
    path.write_text(text.replace("Main pot $30.37. Side pot $7.91. | Rake $1.50",
                                 "Main pot $30.27. Side pot $7.91. | Rake $1.60"),
                    encoding="utf-8")
    code, out = _run(capsys, "--json", "--lang", "en", str(path))
    assert code == 1
    assert _json(out)[0]["mismatches"] == [
        "T_Leroy from the main pot: the file says $30.37, the replay $30.27",
        "T_Leroy collected: the file says $38.28, the replay $38.18"]


def test_unreadable_hands_are_introduced_in_spanish(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nantes = [0, 0]\n", encoding="utf-8")
    code, out = _run(capsys, "--json", "--lang", "es", str(bad))
    assert code == 1
    assert str(_json(out)[0]["error"]).startswith("no se puede leer la mano: ")
    code, out = _run(capsys, "--lang", "es", str(bad))
    assert "ERROR: no se puede leer la mano: " in out
    omaha = DATA.parent / "pokerstars" / "hhsmithy_cash_plo8_uncalled_bet.txt"
    unplayed = tmp_path / "courchevel.txt"  # a game tapete does not play
    unplayed.write_text(omaha.read_text("utf-8-sig").replace("Omaha", "Courchevel"), "utf-8")
    code, out = _run(capsys, "--json", "--lang", "es", str(unplayed))
    assert str(_json(out)[0]["error"]).startswith("aún no se admite Courchevel")


STARS = Path(__file__).parents[1] / "data" / "pokerstars"
WSOP_2019 = DATA / "phh-dataset/data/wsop/2019/42/3/00-01-07.phh"


def test_run_it_twice_is_told_run_by_run(capsys: pytest.CaptureFixture[str]) -> None:
    src = STARS / "hhsmithy_cash_nlhe_cap_run_it_twice_split_rake.txt"
    code, out = _run(capsys, "--lang", "en", str(src))
    assert code == 0
    assert "Flop, run 1 [Qd Qs 4h]" in out and "River, run 2 [6s 8h 6h Td 6c]" in out
    assert "p1 Gamz11 shows Ad Ks (pair of queens / three of a kind, sixes)" in out
    assert ("Pot, $161.20, run 2 times: p1 Gamz11 and p4 Garnerus split $80.60 with a pair of"
            " queens in run 1 and p1 Gamz11 and p4 Garnerus split $80.60 with three of a kind,"
            " sixes in run 2 (rake $2.80)") in out
    # a cap table: the real stacks, and the cap said as the table's rule
    assert "capped at $80.00 a hand" in out
    assert "Stacks: p5 willybeer22 $385.96, p6 fede_carita $78.98, p1 Gamz11 $433.06" in out
    assert "p1 Gamz11 raises to $80.00 (reaches the $80.00 cap)" in out
    assert "Finishing stacks: p5 willybeer22 $385.96" in out and "p1 Gamz11 $433.66" in out
    code, out = _run(capsys, "--lang", "es", str(src))
    assert code == 0
    assert "Flop, tablero 1 [Qd Qs 4h]" in out and "River, tablero 2 [6s 8h 6h Td 6c]" in out
    assert "(pareja de reinas / trío de seises)" in out
    assert "p1 Gamz11 y p4 Garnerus se reparten 80,60\u00a0US$ con trío de seises en el" \
        " tablero 2" in out
    assert "Fichas: p5 willybeer22 385,96\u00a0US$" in out
    assert "(llega al tope de 80,00\u00a0US$)" in out


def test_what_is_inferred_is_said_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "--lang", "en", str(WSOP_2019))
    assert code == 0
    assert "p7 Adam Lamphere raises to 1,150,000; p8 Ashish Ahuja folds (not in the file);" \
        " p1 Dan Matsuzuki calls 900,000" in out
    assert "Inferred" not in out and "p8 f" not in out
    code, out = _run(capsys, "--lang", "es", str(WSOP_2019))
    assert "p8 Ashish Ahuja se retira (no está en el archivo); p1 Dan Matsuzuki iguala" in out
    assert "Inferidas" not in out and "p8 f" not in out


def test_json_lines_are_the_json_of_to_json(tmp_path: Path) -> None:
    """``--json`` writes each hand's line directly: the same text as ``dumps_json`` of
    ``to_json()`` (with the error, note and mismatches in the reader's language), for every
    hand of the PHH dataset and the PokerStars files, and for hands that fail."""
    from tapete.history.formats import replay_any
    from tapete.history.replay import dumps_json, iter_paths

    (tmp_path / "bad.phh").write_text("variant = 'NT'\nnot toml\n", encoding="utf-8")
    (tmp_path / "odd \"name\" ñ.phh").write_text(
        DWAN.read_text().replace('"p3 cbr 7000"', '"p3 cbr 3000"'), encoding="utf-8")
    paths = [*iter_paths([str(DATA), str(STARS), str(tmp_path)]), str(tmp_path / "none.phh")]
    seen = 0
    for path in paths:
        for res in replay_any(path):
            for lang in ("en", "es"):
                obj = res.to_json()
                if lang == "es":
                    obj["error"] = None if res.error is None else res.error.es
                    obj["note"] = None if res.note is None else res.note.es
                    obj["mismatches"] = [m.es for m in res.mismatches]
                assert res.json_line(lang) == dumps_json(obj), (path, lang)
            seen += 1
    assert seen > 2000
