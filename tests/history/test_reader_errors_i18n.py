"""The hand-history readers say what is wrong with a file in English and Spanish.

Malformed PHH and PokerStars inputs of several kinds (bad TOML, an unknown variant or game, a
missing field, a bad card, a bad amount, a truncated hand...): each error carries both
languages, the Spanish is Spanish (not the English again), the file's own words are quoted as
written in both, and ``tapete replay`` / ``tapete convert`` / the web replayer show the Spanish
to a Spanish reader (``--json`` staying one JSON object per line).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapete.cli import main
from tapete.core.text import Text
from tapete.history import phh
from tapete.history import pokerstars as ps
from tapete.history.formats import replay_any
from tapete.history.record import HandRecord
from tapete.server.replayer import parse_text

NL = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = [{actions}]
"""
DEALT = "'d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 QsQd'"


def _nl(actions: str = DEALT) -> str:
    return NL.format(actions=actions)


# (name, text, words of the English, words of the Spanish, the file's own words kept in both)
PHH_CASES = [
    ("bad-toml", "variant = 'NT'\nthis is not toml\n",
     "line 2: expected 'key = value'", "línea 2: se esperaba", "'this is not toml'"),
    ("bad-toml-value", "variant = 'NT'\nmin_bet = 2x\n",
     "line 2: cannot read the value of 'min_bet'", "línea 2: no se puede leer el valor",
     "'min_bet'"),
    ("bad-key", "variant = 'NT'\na b = 1\n", "cannot read the key", "no se puede leer la clave",
     "'a b'"),
    ("twice", "variant = 'NT'\nvariant = 'FT'\n", "given twice", "aparece dos veces",
     "'variant'"),
    ("truncated", "variant = 'NT'\nactions = ['p1 f',\n", "is never closed",
     "no se cierra nunca", "'actions'"),
    ("empty", "", "no hand in this file", "no hay manos en este archivo", ""),
    ("no-variant", "antes = [0, 0]\n", "the field 'variant' is missing",
     "falta el campo 'variant'", "'variant'"),
    ("unknown-variant", _nl().replace("'NT'", "'NS'"), "unsupported variant 'NS'",
     "variante no admitida 'NS'", "'NS'"),
    ("missing-field", "variant = 'NT'\n", "the field 'starting_stacks' is missing",
     "falta el campo 'starting_stacks'", "'starting_stacks'"),
    ("missing-min-bet", _nl().replace("min_bet = 2\n", ""), "'min_bet' is missing (needed by NT)",
     "falta el campo 'min_bet' (lo exige NT)", "'min_bet'"),
    ("per-player", _nl().replace("[200, 200, 200]", "[200, 200]"),
     "must hold one amount per player (2)", "debe tener una cantidad por jugador (2)",
     "'antes'"),
    ("bad-card", _nl("'d dh p1 AsXd'"), "not a card: 'Xd'", "no es una carta: 'Xd'",
     "'d dh p1 AsXd'"),
    ("short-card", _nl("'d dh p1 AsK'"), "not a card: 'K'", "escribe un valor y un palo",
     "'d dh p1 AsK'"),
    ("card-twice", _nl("'d dh p1 AsAs'"), "card As appears twice",
     "la carta As aparece dos veces", "'d dh p1 AsAs'"),
    ("unknown-board", _nl("'d db ????'"), "board cards must be known",
     "las cartas comunitarias deben ser conocidas", "'d db ????'"),
    ("bad-amount", _nl(DEALT + ", 'p3 cbr 1x'"), "'1x' is not an amount",
     "'1x' no es una cantidad", "'p3 cbr 1x'"),
    ("zero-bet", _nl(DEALT + ", 'p3 cbr 0'"), "a bet or raise must be positive",
     "una apuesta o subida debe ser positiva", "'p3 cbr 0'"),
    ("unknown-action", _nl(DEALT + ", 'p3 xx'"), "unknown action 'p3 xx'",
     "acción desconocida 'p3 xx'", "'p3 xx'"),
    ("unknown-deal", _nl("'d dx p1 AsAd'"), "unknown dealing action",
     "acción de reparto desconocida", "'d dx p1 AsAd'"),
    ("no-player", _nl(DEALT + ", 'p7 f'"), "there is no player p7",
     "no hay ningún jugador p7", "'p7 f'"),
    ("not-a-player", _nl(DEALT + ", 'x7 f'"), "'x7' is not a player",
     "'x7' no es un jugador", "'x7 f'"),
    ("actions-not-texts", _nl("1, 2"), "'actions' must be a list of strings",
     "'actions' debe ser una lista de textos", "'actions'"),
    ("negative-blind", _nl().replace("[1, 2, 0]", "[-1, 2, 0]"), "negative blinds",
     "negativos", ""),
    ("zero-stack", _nl().replace("[200, 200, 200]", "[200, 0, 200]"),
     "every starting stack must be positive", "cantidad positiva de fichas", ""),
    ("unplayable", _nl().replace("min_bet = 2", "min_bet = 0"),
     "the blinds and bets cannot be played: the big blind must be at least one chip",
     "las ciegas y las apuestas no se pueden jugar: la ciega grande debe ser de al menos una "
     "ficha", ""),
    ("min-raise", _nl() + "_min_raise = 'half'\n", "_min_raise must be 'last-raise'",
     "_min_raise debe ser 'last-raise' o 'last-bet', no 'half'", "'half'"),
    ("rake", _nl() + "_rake = 2\n", "_rake must be a fraction of the pot",
     "_rake debe ser una fracción del bote", "_rake"),
    ("finishing", _nl() + "finishing_stacks = [1]\n", "'finishing_stacks' must hold",
     "'finishing_stacks' debe tener una cantidad por jugador", "'finishing_stacks'"),
]
# absurd digit counts: refused in words, never Python's own error (int() raises past 4,300
# digits); the web replayer refuses them itself before reading (see the last test)
PHH_DIGITS = [
    ("huge-stack", _nl().replace("[200, 200, 200]", f"[200, {'9' * 5000}, 200]"),
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
    ("long-stack", _nl().replace("[200, 200, 200]", f"[200, {'9' * 101}, 200]"),
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
    ("huge-bet", _nl(DEALT + f", 'p3 cbr {'9' * 5000}'"), "a number of more than 100 digits",
     "un número de más de 100 cifras", ""),
    ("huge-decimal", _nl(DEALT + f", 'p3 cbr 1.{'5' * 200}'"),
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
    ("huge-hand-number", _nl() + f"hand = {'7' * 5000}\n", "a number of more than 100 digits",
     "un número de más de 100 cifras", ""),
    ("huge-separated", _nl() + f"hand = {'_'.join(['999'] * 2000)}\n",
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
    ("huge-in-a-table", _nl() + f"_x = {{a = {'_'.join(['999'] * 2000)}}}\n",
     "line 7: a number of more than 100 digits", "línea 7: un número de más de 100 cifras", ""),
]


def _check(text: Text, en: str, es: str, own: str) -> None:
    assert isinstance(text, Text), text
    assert text.en and text.es
    assert text.es != text.en, text
    assert en in text.en, text.en
    assert es in text.es, text.es
    if own:
        assert own in text.en and own in text.es, text


@pytest.mark.parametrize("name, text, en, es, own", PHH_CASES + PHH_DIGITS,
                         ids=[c[0] for c in PHH_CASES + PHH_DIGITS])
def test_phh_errors_are_bilingual(name: str, text: str, en: str, es: str, own: str) -> None:
    hands = phh.read_text(text, f"{name}.phh")
    assert len(hands) == 1
    (h,) = hands
    assert h.record is None and h.error is not None
    _check(h.error, en, es, own)


@pytest.mark.parametrize("name, text, en, es, own", PHH_CASES[:10],
                         ids=[c[0] for c in PHH_CASES[:10]])
def test_phh_error_is_a_value_error_with_both_languages(name: str, text: str, en: str, es: str,
                                                        own: str) -> None:
    with pytest.raises(phh.PhhError) as info:
        phh.loads(text)
    exc = info.value
    assert isinstance(exc, ValueError)
    assert str(exc) == exc.message.en  # callers that print it or match it see the English
    assert exc.in_lang("es") == exc.message.es and exc.in_lang("en") == exc.message.en
    _check(exc.message, en, es, own)


def test_phh_error_matches_as_before() -> None:
    with pytest.raises(phh.PhhError, match="unsupported variant 'NS'"):
        phh.loads(_nl().replace("'NT'", "'NS'"))


def test_phh_file_that_cannot_be_opened(tmp_path: Path) -> None:
    (h,) = phh.read_file(str(tmp_path / "missing.phh"))
    assert h.error is not None and h.error.en.startswith("cannot read the file: ")
    assert h.error.es == "no se puede leer el archivo: no existe"
    (h,) = phh.read_file(str(tmp_path))
    assert h.error is not None and h.error.es == "no se puede leer el archivo: es una carpeta"


def test_phh_writer_error_is_bilingual() -> None:
    from tapete.core.game import OMAHA5
    from tapete.core.hand import Hand
    from tapete.core.rules import Rules

    # five-card Omaha has no PHH variant (a board run twice is written since PHH has a form
    # of tapete's for it: tests/history/test_homegame_formats.py)
    hand = Hand(Rules(structure="pot-limit", game=OMAHA5), [10, 10])
    with pytest.raises(phh.PhhError, match="no variant") as info:
        phh.dumps(hand)
    assert "omaha5" in info.value.message.es and info.value.message.es != info.value.message.en


# ---------------------------------------------------------------------------- PokerStars

HAND = """PokerStars Hand #2001:  Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 12:00:00 ET
Table 'Prueba' 6-max Seat #1 is the button
Seat 1: Alice ($2 in chips)
Seat 2: Bob ($2 in chips)
Alice: posts small blind $0.01
Bob: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Alice [Ah Kd]
Alice: calls $0.01
Bob: checks
*** FLOP *** [2c 3d 4h]
Bob: checks
Alice: bets $0.02
Bob: folds
Uncalled bet ($0.02) returned to Alice
Alice collected $0.04 from pot
*** SUMMARY ***
Total pot $0.04 | Rake $0
Seat 1: Alice (button) (small blind) collected ($0.04)
Seat 2: Bob (big blind) folded on the Flop
"""

PS_CASES = [
    ("unsupported-game", HAND.replace("Hold'em No Limit", "Courchevel Pot Limit"),
     "Courchevel Pot Limit is not supported yet (tapete plays hold'em and Omaha)",
     "aún no se admite Courchevel Pot Limit (tapete juega hold'em y Omaha)",
     "Courchevel Pot Limit"),
    ("bad-card", HAND.replace("[2c 3d 4h]", "[2c 3d 4x]"), "not a card: '4x'",
     "no es una carta: '4x'", "'4x'"),
    ("card-twice", HAND.replace("[2c 3d 4h]", "[2c 3d 2c]"), "card 2c appears twice",
     "la carta 2c aparece dos veces", "2c"),
    ("three-hole-cards", HAND.replace("[Ah Kd]", "[Ah Kd Qs]"), "3 hole cards",
     "3 cartas propias", ""),
    ("bad-amount", HAND.replace("bets $0.02", "bets $0.025"),
     "'$0.025' is finer than the table's smallest unit",
     "'$0.025' tiene más decimales que la unidad mínima", "'$0.025'"),
    ("unknown-line", HAND.replace("Bob: folds", "Bob: juggles"), "cannot read 'Bob: juggles'",
     "no se puede leer 'Bob: juggles'", "'Bob: juggles'"),
    ("unknown-post", HAND.replace("posts big blind", "posts huge blind"), "unknown post",
     "apuesta obligatoria desconocida", "'Bob: posts huge blind $0.02'"),
    ("no-flop-cards", HAND.replace("*** FLOP *** [2c 3d 4h]", "*** FLOP ***"), "no cards in",
     "no hay cartas en", "'*** FLOP ***'"),
    ("truncated", "\n".join(HAND.splitlines()[:2]) + "\n", "0 player(s) dealt in",
     "0 jugador(es) con cartas: una mano necesita dos", ""),
    ("no-stakes", HAND.replace(" ($0.01/$0.02 USD)", ""), "the header gives no stakes",
     "la cabecera no indica las ciegas", ""),
    ("unplayable-stakes", HAND.replace("($0.01/$0.02 USD)", "($0.01/$0 USD)"),
     "unplayable stakes: the big blind must be at least one chip",
     "no se pueden jugar: la ciega grande debe ser de al menos una ficha", ""),
    ("unknown-collector", HAND.replace("Alice collected", "Carol collected"),
     "an unknown player collected a pot", "un jugador desconocido se llevó un bote",
     "'Carol collected $0.04 from pot'"),
    ("no-hand", "hello\n", "no PokerStars hand in this text",
     "no hay ninguna mano de PokerStars en este texto", ""),
]
PS_DIGITS = [
    ("huge-stack",
     HAND.replace("Seat 2: Bob ($2 in chips)", f"Seat 2: Bob (${'9' * 5000} in chips)"),
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
    ("huge-seat", HAND.replace("Seat 2: Bob ($2", f"Seat {'2' * 5000}: Bob ($2"),
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
    ("huge-bet", HAND.replace("bets $0.02", f"bets ${'1' * 5000}.02"),
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
    ("huge-stakes", HAND.replace("$0.01/$0.02", f"$0.01/${'2' * 5000}"),
     "a number of more than 100 digits", "un número de más de 100 cifras", ""),
]


@pytest.mark.parametrize("name, text, en, es, own", PS_CASES + PS_DIGITS,
                         ids=[c[0] for c in PS_CASES + PS_DIGITS])
def test_pokerstars_errors_are_bilingual(name: str, text: str, en: str, es: str,
                                         own: str) -> None:
    items = list(ps.read_text(text, f"{name}.txt"))
    assert len(items) == 1
    (err,) = items
    assert isinstance(err, ps.ParseError)
    assert err.error is err.message
    _check(err.message, en, es, own)
    assert err.unsupported == (name == "unsupported-game")
    assert err.message.en in str(err)  # str() stays English, with the file and hand
    if err.line:
        assert err.in_lang("es").startswith(f"línea {err.line}: ")
        assert err.in_lang("en").startswith(f"line {err.line}: ")


def test_the_sample_hand_reads() -> None:
    (rec,) = list(ps.read_text(HAND, "ok.txt"))
    assert isinstance(rec, HandRecord)


def test_pokerstars_file_that_cannot_be_opened(tmp_path: Path) -> None:
    (err,) = list(ps.read_file(str(tmp_path / "missing.txt")))
    assert isinstance(err, ps.ParseError)
    assert err.message.es == "no se puede leer el archivo: no existe"


def test_pokerstars_replay_error_is_bilingual() -> None:
    from tapete.history.replay import replay

    cut = HAND.split("Bob: folds")[0]
    (rec,) = list(ps.read_text(cut, "cut.txt"))
    assert isinstance(rec, HandRecord)
    res = replay(rec)  # a hand cut short is partial, said in both languages
    assert res.error is None and res.partial and res.note is not None
    assert res.note.en == "the actions stop on the flop with p1 to act"
    assert res.note.es == "las acciones terminan en el flop con p1 por actuar"
    illegal = HAND.replace("Alice: bets $0.02", "Alice: bets $0.01")
    (rec,) = list(ps.read_text(illegal, "illegal.txt"))
    assert isinstance(rec, HandRecord)
    res = replay(rec)
    m = res.error
    assert m is not None and m.en != m.es
    assert "Alice cannot bet $0.01" in m.en and "Alice no puede apostar 0,01\u00a0US$" in m.es


# ---------------------------------------------------------------------------- what people see

def _files(tmp_path: Path) -> list[tuple[Path, Text]]:
    """Every malformed case as a file, with the error its one hand carries."""
    out: list[tuple[Path, Text]] = []
    for name, text, *_ in PHH_CASES + PHH_DIGITS:
        path = tmp_path / f"{name}.phh"
        path.write_text(text, encoding="utf-8")
        (h,) = phh.read_text(text, str(path))
        assert h.error is not None
        out.append((path, h.error))
    for name, text, *_ in PS_CASES + PS_DIGITS:
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        (err,) = list(ps.read_text(text, str(path)))
        assert isinstance(err, ps.ParseError)
        out.append((path, err.message))
    return out


def test_replay_json_in_spanish_shows_the_spanish_detail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    code = main(["replay", "--json", "--lang", "es", *(str(p) for p, _ in files)])
    assert code == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(files)
    for line, (path, message) in zip(lines, files, strict=True):
        row = json.loads(line)  # every line stays one JSON object
        assert row["source"] == str(path)
        error = row["error"]
        assert isinstance(error, str) and message.es in error, (error, message)
        if "aún no se admite" not in message.es:
            assert error == f"no se puede leer la mano: {message.es}"
        assert message.en not in error


def test_replay_json_in_english_is_unchanged(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    main(["replay", "--json", "--lang", "en", *(str(p) for p, _ in files)])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["error"] for r in rows] == [m.en for _, m in files]


def test_replay_account_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path)
    main(["replay", "--lang", "es", *(str(p) for p, _ in files)])
    out = capsys.readouterr().out
    for _, message in files:
        assert message.es in out
        assert message.en not in out, message.en
    assert f"{len(files)} manos: 0 completas, 0 parciales, {len(files)} con error" in out


def test_replay_results_carry_both_languages(tmp_path: Path) -> None:
    for path, message in _files(tmp_path):
        (res,) = replay_any(str(path))
        assert res.error is not None
        assert res.error.en == message.en
        assert message.es in res.error.es


def test_convert_reports_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text(_nl("'d dh p1 AsXd'"), encoding="utf-8")
    assert main(["convert", str(bad), "--to", "pokerstars", "--lang", "es"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: mano ?: acción 'd dh p1 AsXd': no es una carta: 'Xd'" in err
    assert "not a card" not in err
    unplayed = tmp_path / "courchevel.txt"
    unplayed.write_text(PS_CASES[0][1], encoding="utf-8")
    assert main(["convert", str(unplayed), "--to", "phh", "--lang", "es"]) == 2
    err = capsys.readouterr().err
    assert "mano 2001: línea 1: aún no se admite Courchevel Pot Limit" in err
    assert main(["convert", str(unplayed), "--to", "phh", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "hand 2001: line 1: Courchevel Pot Limit is not supported yet" in err


def test_convert_missing_file_in_spanish(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(tmp_path / "nope.phh"), "--to", "phh", "--lang", "es"]) == 2
    assert "no existe el archivo:" in capsys.readouterr().err  # as tapete replay says it


def test_web_replayer_lists_the_spanish_detail() -> None:
    for name, text, _, es, _ in PHH_CASES:
        if not text:
            continue  # an empty upload is neither format
        (item,) = parse_text(text, f"{name}.phh")
        assert item[1] is None and item[2] is not None
        assert es in item[2].es and item[2].en != item[2].es
    for name, text, _, es, _ in PS_CASES[:-1]:
        (item,) = parse_text(text, f"{name}.txt")
        assert item[1] is None and item[2] is not None
        assert es in item[2].es and item[2].en != item[2].es


def test_absurd_digit_counts_are_refused_in_words(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tapete.server.replayer import ReplayInputError

    for _name, text, *_ in PHH_DIGITS:  # loads() raises the readers' error, nothing else
        with pytest.raises(phh.PhhError, match="more than 100 digits"):
            phh.loads(text)
    paths = []
    for name, text, *_ in PHH_DIGITS + PS_DIGITS:
        try:  # the web replayer refuses most before reading; the readers refuse the rest
            items = parse_text(text, name + (".txt" if text.startswith("PokerStars") else ".phh"))
        except ReplayInputError:
            pass
        else:
            assert [x[1] for x in items] == [None] and items[0][2] is not None
        path = tmp_path / (name + (".txt" if text.startswith("PokerStars") else ".phh"))
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    for lang, words in (("en", "more than 100 digits"), ("es", "más de 100 cifras")):
        assert main(["replay", "--lang", lang, *paths]) == 1  # an error per file, no traceback
        out = capsys.readouterr().out
        assert out.count(words) == len(paths), out[-2000:]


def test_every_rules_and_card_problem_has_its_spanish() -> None:
    """The rules and the cards say what is wrong in both languages; the readers pass it on."""
    import re

    from tapete.core.cards import CardError, Deck, format_card, parse_cards
    from tapete.core.game import OMAHA
    from tapete.core.rules import Rules, RulesError

    rules_source = Path(phh.__file__).resolve().parents[1] / "core" / "rules.py"
    # every message rules.py raises (through RulesError or a helper that makes one), written
    # out or a catalogue message
    raised = len(re.findall(r"raise \w+\((?:Text|t)\(", rules_source.read_text("utf-8")))
    bad_rules: list[dict[str, object]] = [
        {"big_blind": "x"}, {"bet_cap": -1}, {"big_blind": 0}, {"small_blind": 5},
        {"ante": -1}, {"straddle": 1}, {"bet_cap": 1}, {"rake_fixed": (-1,)},
        {"rake_bps": 10_001}, {"hand_cap": 0}, {"bounty_72": -1},
        {"bounty_72": 5, "game": OMAHA},
    ]
    bad_json: list[object] = [[1, 2], {"blinds": 1}, {"big_blind": "2"}]  # Rules.from_json
    makers = [lambda kw=kw: Rules(**kw) for kw in bad_rules]  # type: ignore[arg-type]
    makers += [lambda data=data: Rules.from_json(data) for data in bad_json]
    assert raised == len(makers)  # one case per message: a new message needs a case here
    seen = set()
    for make in makers:
        with pytest.raises(RulesError) as err:
            make()
        text = phh.rules_problem(err.value)
        assert text.es and text.es != text.en, text
        seen.add(re.sub(r"'[^']*'|\[.*\]", "…", text.en))  # one message, whatever it quotes
    assert len(seen) == len(makers)
    with pytest.raises(RulesError) as err:
        Rules(big_blind="x")  # type: ignore[arg-type]
    assert err.value.message.es == "big_blind debe ser un número entero de fichas, no 'x'"
    for bad in ("Xx", "AhK", "AhAh"):
        with pytest.raises(CardError) as info:
            parse_cards(bad)
        assert not phh.card_problem(info.value, bad).es.startswith("no se pueden leer"), bad
    for call in (lambda: format_card(52), lambda: Deck(1).deal(53)):
        with pytest.raises(CardError) as info:
            call()
        assert info.value.message.es != info.value.message.en
