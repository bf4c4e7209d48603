"""``read_any``: one function finds a hand history's format and reads every hand once, from a path,
a text or bytes, and says in both languages why it cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapete.history import formats
from tapete.history.formats import PHH, POKERSTARS, detect, read_any, replay_any

DATA = Path(__file__).parents[1] / "data"
DWAN = DATA / "phh" / "pokerkit-repo-d782667" / "data" / "dwan-ivey-2009.phh"
STARS = DATA / "pokerstars"
TEN = STARS / "hhsmithy_cash_nlhe_10_hands_rake.txt"
SIDE_POT = STARS / "hhsmithy_cash_nlhe_side_pot_rake.txt"
OMAHA = STARS / "hhsmithy_cash_plo8_uncalled_bet.txt"


def test_a_phh_path_and_a_pokerstars_path() -> None:
    (dwan,) = read_any(str(DWAN))
    assert dwan.ok and dwan.format == PHH and dwan.source == str(DWAN)
    assert dwan.record is not None and dwan.record.stacks[0] > 0
    ten = read_any(TEN)  # a PathLike too
    assert len(ten) == 10 and all(h.ok and h.format == POKERSTARS for h in ten)
    assert [h.label for h in ten] == [h.record.hand_id for h in ten if h.record is not None]
    assert all(h.source == str(TEN) for h in ten)


def test_a_text_and_bytes_read_as_the_same_hands() -> None:
    text = TEN.read_text(encoding="utf-8-sig")
    from_path = read_any(str(TEN))
    from_text = read_any(text)
    crlf = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")
    from_bytes = read_any(crlf, name="upload.txt")
    for items in (from_text, from_bytes):
        assert len(items) == 10
        for a, b in zip(from_path, items, strict=True):
            assert a.record is not None and b.record is not None
            assert a.record.steps == b.record.steps and a.record.stacks == b.record.stacks
    assert from_bytes[0].source == "upload.txt" and from_text[0].source == ""
    phh_text = DWAN.read_text(encoding="utf-8")
    (h,) = read_any(phh_text)
    assert h.ok and h.format == PHH


def test_cp1252_bytes_are_read() -> None:
    text = TEN.read_text(encoding="utf-8-sig").replace("Table '", "Table 'Café ")
    items = read_any(text.encode("cp1252"), name="hands.txt")
    assert len(items) == 10 and all(h.ok for h in items)
    assert items[0].record is not None and items[0].record.extra["table"].startswith("Café ")


@pytest.mark.parametrize("text, name, want", [
    ("PokerStars Hand #1: ...\n", "", POKERSTARS),
    ("\ufeff\n\nPokerStars Hand #1: ...\n", "hand.phh", POKERSTARS),  # the text decides first
    ("anything\n", "hand.phh", PHH),
    ("anything\n", "HAND.PHHS", PHH),
    ("anything\n", "hand.txt", POKERSTARS),
    ("variant = 'NT'\nactions = []\n", "hand.txt", PHH),
    ("# a comment\nvariant = 'NT'\n", "", PHH),
    ("Hands from a room\nPokerStars Game #12: Hold'em\n", "", POKERSTARS),
    ("<hand/>\n", "hand.xml", ""),
    ("", "", ""),
])
def test_detect(text: str, name: str, want: str) -> None:
    assert detect(text, name) == want


def test_a_str_is_a_text_with_a_line_break_a_name_or_nothing_in_it(tmp_path: Path) -> None:
    (empty,) = read_any("")
    assert empty.format == "" and empty.error is not None
    assert empty.error.en.startswith("unsupported format")  # not "no such file"
    (one_line,) = read_any("PokerStars Hand #1: nothing else", name="upload.txt")
    assert one_line.format == POKERSTARS and not one_line.ok  # read as a text, not a path
    (path,) = read_any(str(tmp_path / "hand.phh"))
    assert path.whole_file and path.error is not None and "no such file" in path.error.en


def test_a_forced_format_is_read_as_that_format() -> None:
    text = TEN.read_text(encoding="utf-8-sig")
    (h,) = read_any(text, fmt=PHH)
    assert not h.ok and h.format == PHH and h.error is not None  # PokerStars is not TOML


def test_a_missing_file_and_a_folder(tmp_path: Path) -> None:
    (h,) = read_any(str(tmp_path / "nope.phh"))
    assert not h.ok and h.whole_file and h.error is not None
    assert h.error.en == f"no such file: {tmp_path / 'nope.phh'}"
    assert h.error.es == f"no existe el archivo: {tmp_path / 'nope.phh'}"
    assert h.problem() == h.error  # a file's error is not introduced as a hand's
    (h,) = read_any(str(tmp_path))
    assert not h.ok and h.whole_file and h.error is not None
    assert h.error.es == "no se puede leer el archivo: es una carpeta"


def test_neither_format_is_one_bilingual_error(tmp_path: Path) -> None:
    other = tmp_path / "hand.xml"
    other.write_text("<hand/>\n<more/>\n")
    for items in (read_any(str(other)), read_any("<hand/>\n<more/>\n", name="hand.xml")):
        (h,) = items
        assert not h.ok and h.format == "" and h.unsupported and h.whole_file
        assert h.error is not None
        assert h.error.en.startswith("unsupported format: ") and "hand.xml" in h.error.en
        assert h.error.es.startswith("formato no admitido: ") and "hand.xml" in h.error.es
        assert "neither PHH nor a PokerStars hand history" in h.error.en


def test_a_hand_that_cannot_be_read_keeps_its_line_and_says_so_in_spanish() -> None:
    text = TEN.read_text(encoding="utf-8-sig")
    first_hand_end = text.index("\n\n\n")
    bad = text[:first_hand_end].replace(": folds", ": juggles", 1) + text[first_hand_end:]
    items = read_any(bad, name="bad.txt")
    assert len(items) == 10 and [h.ok for h in items] == [False] + [True] * 9
    h = items[0]
    assert h.error is not None and h.line > 1
    assert h.error.en.startswith("cannot read '") and "juggles" in h.error.en
    located = h.located()
    assert located is not None and located.en == f"line {h.line}: {h.error.en}"
    problem = h.problem(located=True)
    assert problem is not None
    assert problem.es == f"no se puede leer la mano: línea {h.line}: {h.error.es}"
    unplayed = OMAHA.read_text("utf-8-sig").replace("Omaha", "Courchevel")  # not played
    (other,) = read_any(unplayed)
    assert other.unsupported and other.problem() == other.error  # says it itself


def test_replay_any_checks_pokerstars_against_its_summary(tmp_path: Path) -> None:
    (ok,) = replay_any(str(SIDE_POT))
    assert ok.error is None and ok.mismatches == [] and ok.engine is not None and ok.engine.done
    doctored = tmp_path / "doctored.txt"
    doctored.write_text(SIDE_POT.read_text(encoding="utf-8-sig").replace(
        "Side pot $7.91.", "Side pot $7.81."), encoding="utf-8")
    (bad,) = replay_any(str(doctored))
    assert bad.error is None and bad.mismatches
    assert "the file says $30.37, $7.81" in bad.mismatches[0].en
    (missing,) = replay_any(str(tmp_path / "none.txt"))
    assert missing.error is not None and missing.error.en.startswith("no such file")


def test_the_cli_and_the_library_read_alike(capsys: pytest.CaptureFixture[str]) -> None:
    from tapete.cli import main

    assert main(["replay", "--json", str(TEN)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [r.json_line() for r in formats.replay_any(str(TEN), decisions=True)]
