"""The narrator (tapete.words): real hands told in both languages — event lines, pot names,
results as sentences, hand names with the kicker when it decides, ties, run it twice, rules and
plurals."""

from __future__ import annotations

import pytest
from dealt import play

from tapete import words
from tapete.core.cards import parse_cards
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure
from tapete.ranking import evaluate

NBSP = "\u00a0"


def strength(cards: str) -> int:
    return evaluate(tuple(parse_cards(cards)))


def checked_down(holes: list[str], board: tuple[str, str, str], names: list[str], *,
                 rules: Rules | None = None, stacks: list[int] | None = None) -> Hand:
    """Everyone calls round to the big blind, who checks; then checks to the river."""
    n = len(holes)
    pre = ["c"] * (n - 1) + ["x"]
    return play(holes, pre + ["x"] * (3 * n), board, names=names, rules=rules, stacks=stacks)


# ---------------------------------------------------------------------------- hand names

@pytest.mark.parametrize(("cards", "en", "es"), [
    ("As Kd 9c 7h 4s 3d 2c", "ace high", "carta alta, as"),
    ("5s 5d Qh Tc 9c 2h Js", "pair of fives", "pareja de cincos"),
    ("Ks Kd 9h 9c 2s 3d 4c", "two pair, kings and nines", "doble pareja, reyes y nueves"),
    ("6s 6d 6h Ac 2s 3d 9c", "three of a kind, sixes", "trío de seises"),
    ("Qs Jd Th 9c 8s 2d 2c", "straight, queen high", "escalera a la reina"),
    ("As 9s 7s 4s 2s Kd Kc", "flush, ace high", "color al as"),
    ("Qs Qd Qh 9c 9s 2d 3c", "full house, queens full of nines", "full, reinas llenas de nueves"),
    ("Ks Kd Kh 9c 9s 2d 3c", "full house, kings full of nines", "full, reyes llenos de nueves"),
    ("7s 7d 7h 7c As 2d 3c", "four of a kind, sevens", "póker de sietes"),
    ("9s 8s 7s 6s 5s 2d 3c", "straight flush, nine high", "escalera de color al nueve"),
    ("As Ks Qs Js Ts 2d 3c", "royal flush", "escalera real"),
])
def test_hand_names_in_both_languages(cards: str, en: str, es: str) -> None:
    assert words.name(strength(cards)).to_json() == {"en": en, "es": es}


def test_after_with_english_takes_its_article() -> None:
    assert words.name(strength("5s 5d Qh Tc 9c 2h Js"), after_with=True).en == "a pair of fives"
    assert words.name(strength("As Kd 9c 7h 4s 3d 2c"), after_with=True).en == "ace high"
    assert words.name(strength("As Ks Qs Js Ts 2d 3c"), after_with=True).es == "escalera real"


def test_the_kicker_is_named_only_when_it_decides() -> None:
    ana = strength("3h As 5s 5d 9c 2h Js")
    auditor = strength("Qh Tc 5s 5d 9c 2h Js")
    sevens = strength("7h 7c 5s 4d 9c 2h Js")
    assert words.name_against(ana, [auditor]).to_json() == {
        "en": "pair of fives, ace kicker", "es": "pareja de cincos, as de kicker"}
    assert words.name_against(auditor, [ana]).en == "pair of fives, queen kicker"
    # another pair: the pair decides, not the kicker
    assert words.name_against(ana, [sevens]).en == "pair of fives"
    # the same five cards (both play the board's kickers): no kicker decides
    a = strength("5h 2c 5s 5d Ac Kh Qs")
    b = strength("5c 3c 5s 5d Ac Kh Qs")
    assert words.name_against(a, [b]).en == "three of a kind, fives"
    assert words.why("Ana", ana, [("Auditor", auditor)]) is not None
    assert words.why("Ana", ana, [("Bruno", sevens)]) is None


# ---------------------------------------------------------------------------- whole hands

def test_issue_12_kicker_hand_told_on_every_surface() -> None:
    """Issue 12 §3: Auditor shows Q♥10♣ and Ana 3♥A♠, both a pair of fives: Ana's ace kicker
    wins, and the words say so, with one line of why."""
    h = checked_down(["Qh Tc", "3h As"], ("5s 5d 9c", "2h", "Js"), ["Auditor", "Ana"])
    log = [x.to_json() for x in words.log_lines(h)]
    assert {"en": "Auditor shows Qh Tc (pair of fives)",
            "es": "Auditor enseña Qh Tc (pareja de cincos)"} in log
    assert {"en": "Ana shows 3h As (pair of fives, ace kicker)",
            "es": "Ana enseña 3h As (pareja de cincos, as de kicker)"} in log
    (pot,) = words.pot_lines(h)
    assert pot["text"] == {
        "en": "Ana wins the pot, 4, with a pair of fives, ace kicker"
              " (kicker: ace against Auditor's queen)",
        "es": "Ana gana el bote, 4, con pareja de cincos, as de kicker"
              " (kicker: as contra reina de Auditor)"}
    assert words.breakdown(h).to_json() == pot["text"]
    assert [x["best"]["en"] for x in words.shown_hands(h)] == [
        "pair of fives, queen kicker", "pair of fives, ace kicker"]


def test_side_pots_are_sentences_with_one_version_of_the_names() -> None:
    # Ana all-in for 100, Bruno for 300, Carla covers: main pot, side pot 1, 200 back
    h = play(["As Ah", "7c 2d", "Qs Qh"], ["r 500", "c", "c"], ["3c 8d 9s", "Jh", "4c"],
             names=["Ana", "Bruno", "Carla"], stacks=[100, 300, 500],
             rules=Rules(small_blind=10, big_blind=20))
    assert words.breakdown(h).to_json() == {
        "en": "Ana wins the main pot, 300, with a pair of aces; Carla wins side pot 1, 400, with"
              " a pair of queens; Carla takes back 200 (uncalled)",
        "es": "Ana gana el bote principal, 300, con pareja de ases; Carla gana el bote"
              " secundario 1, 400, con pareja de reinas; Carla recupera 200 (sin igualar)"}
    log = [x.en for x in words.log_lines(h)]
    assert "Ana wins 300 from the main pot" in log
    assert "Carla wins 400 from side pot 1" in log
    assert [x.es for x in words.log_lines(h)][-1] == "Carla gana 400 del bote secundario 1"


@pytest.mark.parametrize(("index", "count", "en", "es"), [
    (0, 1, "Pot", "Bote"), (0, 2, "Main pot", "Bote principal"),
    (1, 2, "Side pot 1", "Bote secundario 1"), (2, 3, "Side pot 2", "Bote secundario 2"),
])
def test_pot_names(index: int, count: int, en: str, es: str) -> None:
    assert words.pot_name(index, count).to_json() == {"en": en, "es": es}


def test_a_hand_won_without_showdown_names_no_hand() -> None:
    # heads-up, Bruno (the second) has the button and the small blind, and acts first
    h = play(["7c 2d", "As Ah"], ["r 6", "f"], [], names=["Ana", "Bruno"])
    (pot, back) = words.pot_lines(h)
    assert pot["text"] == {"en": "Bruno wins the pot, 4", "es": "Bruno gana el bote, 4"}
    assert back["text"] == {"en": "Bruno takes back 4 (uncalled)",
                            "es": "Bruno recupera 4 (sin igualar)"}
    log = [x.en for x in words.log_lines(h)]
    assert log == ["Ana posts the big blind 2", "Bruno posts the small blind 1",
                   "Hole cards are dealt", "Bruno raises to 6", "Ana folds",
                   "Bruno takes back 4 (uncalled)", "Bruno wins 4 from the pot"]


def test_a_tie_splits_the_pot_and_says_why() -> None:
    # both play the board's straight
    h = checked_down(["2c 3d", "2h 3s"], ("Ts Jd Qh", "Kc", "Ad"), ["Ana", "Bruno"])
    (pot,) = words.pot_lines(h)
    assert pot["text"] == {
        "en": "Ana and Bruno split the pot, 4, with a straight, ace high"
              " (a tie: their best five cards are of equal value)",
        "es": "Ana y Bruno se reparten el bote, 4, con escalera al as"
              " (empate: sus cinco mejores cartas valen lo mismo)"}


def test_an_odd_chip_says_who_got_what() -> None:
    h = checked_down(["2c 3d", "2h 3s", "4h 4s"], ("Ts Jd Qh", "Kc", "Ad"),
                     ["Ana", "Bruno", "Carla"], rules=Rules(small_blind=1, big_blind=3),
                     stacks=[200, 200, 200])
    (pot,) = words.pot_lines(h)
    assert pot["amount"] == 9 and pot["winners"] == ["Ana", "Bruno", "Carla"]
    assert pot["text"]["en"].startswith(
        "Ana, Bruno, and Carla split the pot, 9, with a straight, ace high")
    assert pot["text"]["es"].startswith(
        "Ana, Bruno y Carla se reparten el bote, 9, con escalera al as")
    h = checked_down(["2c 3d", "2h 3s"], ("Ts Jd Qh", "Kc", "Ad"), ["Ana", "Bruno"],
                     rules=Rules(small_blind=1, big_blind=3))
    (pot,) = words.pot_lines(h)
    assert sorted(x for _, x in pot["shares"]) == [3, 3]


def test_run_it_twice_is_told_run_by_run() -> None:
    h = play(["As Ah", "Ks Kd"], ["r 200", "c"], ["2c 7d 9h", "Jc", "4s", "Kh 3c 5d", "8h",
                                                  "6c"],
             names=["Ana", "Bruno"], runs=2)
    (pot,) = words.pot_lines(h)
    assert pot["text"] == {
        "en": "Pot, 400, run 2 times: Ana wins 200 with a pair of aces in run 1 and Bruno"
              " wins 200 with three of a kind, kings in run 2",
        "es": "Bote, 400, repartido 2 veces: Ana gana 200 con pareja de ases en el tablero 1"
              " y Bruno gana 200 con trío de reyes en el tablero 2"}
    log = [x.en for x in words.log_lines(h)]
    assert "The rest of the board is run 2 times" in log
    assert "Flop (run 2): Kh 3c 5d" in log
    assert "Bruno wins 200 from the pot in run 2" in log


def test_money_in_the_sentences_follows_the_locale() -> None:
    rules = Rules(small_blind=50, big_blind=100, decimals=2, currency="€")
    h = play(["As Ah", "7c 2d"], ["r 123456", "c"], ["3c 8d 9s", "Jh", "4c"],
             names=["Ana", "Bruno"], stacks=[123456, 200000], rules=rules)
    text = words.breakdown(h).to_json()
    assert text["en"].startswith("Ana wins the pot, €2,469.12, with a pair of aces")
    assert text["es"].startswith(f"Ana gana el bote, 2.469,12{NBSP}€, con pareja de ases")
    log = [x.to_json() for x in words.log_lines(h)]
    assert log[0] == {"en": "Ana posts the big blind €1.00",
                      "es": f"Ana pone la ciega grande 1,00{NBSP}€"}
    assert log[4] == {"en": "Ana calls €1,233.56 (all-in)",
                      "es": f"Ana iguala 1.233,56{NBSP}€ (all-in)"}


# ---------------------------------------------------------------------------- rules, plurals

def test_rules_are_described_once() -> None:
    r = Rules(small_blind=1, big_blind=2, ante=2, big_blind_ante=True, straddle=4)
    assert words.describe_rules(r).to_json() == {
        "en": "No-limit hold'em 1/2, ante 2 (big blind ante), straddle 4",
        "es": "Hold'em sin límite 1/2, ante 2 (de la ciega grande), straddle 4"}
    fl = Rules(structure=Structure.FIXED_LIMIT, small_blind=50, big_blind=100, decimals=2,
               currency="$")
    assert words.describe_rules(fl).to_json() == {
        "en": "Fixed-limit hold'em $0.50/$1.00",
        "es": f"Hold'em límite fijo 0,50{NBSP}US$/1,00{NBSP}US$"}


@pytest.mark.parametrize(("n", "en", "es"), [
    (0, "0 hands", "0 manos"), (1, "1 hand", "1 mano"), (2, "2 hands", "2 manos"),
    (1234, "1,234 hands", "1.234 manos"),
])
def test_plurals(n: int, en: str, es: str) -> None:
    assert words.hands_count(n).to_json() == {"en": en, "es": es}
    assert words.players_count(n).es == es.replace("manos", "jugadores").replace("mano",
                                                                                 "jugador")


def test_lists_are_joined_as_each_language_joins_them() -> None:
    assert words.and_list(["Ana"]).to_json() == {"en": "Ana", "es": "Ana"}
    assert words.and_list(["Ana", "Bruno"]).to_json() == {"en": "Ana and Bruno",
                                                          "es": "Ana y Bruno"}
    assert words.and_list(["Ana", "Bruno", "Carla"]).es == "Ana, Bruno y Carla"


def test_a_cap_game_says_the_cap_not_all_in() -> None:
    h = play(["7c 2d", "As Ah"], ["r 50", "c"], ["3c 8d 9s", "Jh", "4c"], names=["Ana", "Bruno"],
             rules=Rules(small_blind=1, big_blind=2, hand_cap=50))
    log = [x.to_json() for x in words.log_lines(h)]
    assert {"en": "Bruno raises to 50 (reaches the 50 cap)",
            "es": "Bruno sube a 50 (llega al tope de 50)"} in log
    assert words.not_in_file(words.t("{who} folds", who="p8")).to_json() == {
        "en": "p8 folds (not in the file)", "es": "p8 se retira (no está en el archivo)"}


def test_the_table_and_the_replayer_tell_a_result_in_the_same_words() -> None:
    """Issue 12 §3: the banner and Last hand (the table's pot lines), the hand list (the
    breakdown) and the web replayer say the same sentences."""
    from tapete.server.replayer import breakdown

    h = play(["As Ah", "7c 2d", "Qs Qh"], ["r 500", "c", "c"], ["3c 8d 9s", "Jh", "4c"],
             names=["Ana", "Bruno", "Carla"], stacks=[100, 300, 500],
             rules=Rules(small_blind=10, big_blind=20))
    table = [x["text"] for x in words.pot_lines(h)]
    replayer = breakdown(h)
    assert replayer is not None
    assert [x["text"] for x in replayer["items"]] == table
    assert replayer["text"] == words.breakdown(h).to_json()
