"""PokerStars text hand histories: every fixture imports, replays legally and reconciles with its
own SUMMARY (the Omaha hands too: tests/history/test_pokerstars_omaha.py); a game tapete does
not play is reported as not supported; encodings; illegal and inconsistent files are
reported; the writer's text reads back as the same hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from replayed import play

from tapete.core.cards import Deck
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure
from tapete.history import pokerstars as ps
from tapete.history.record import HandRecord
from tapete.history.replay import replay

DATA = Path(__file__).parents[1] / "data" / "pokerstars"
FILES = sorted(DATA.glob("*.txt"))
OMAHA = {"hhsmithy_cash_o8_limit_side_pot_hilo_split_rake.txt",
         "hhsmithy_cash_plo8_uncalled_bet.txt",
         "hhsmithy_cash_plo_run_it_twice_side_pot_rake.txt"}
#: a game tapete does not play: Courchevel (Omaha with the first flop card dealt face up)
UNPLAYED = ("Omaha", "Courchevel")


def records(name: str) -> list[HandRecord]:
    out = []
    for r in ps.read_file(str(DATA / name)):
        assert isinstance(r, HandRecord), str(r)
        out.append(r)
    return out


def one(name: str) -> tuple[HandRecord, Hand]:
    (r,) = records(name)
    return r, play(r)


def test_fixtures_present() -> None:
    assert len(FILES) == 15


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_hand_replays_and_reconciles(path: Path) -> None:
    hands = list(ps.read_file(str(path)))
    assert hands
    for r in hands:
        assert isinstance(r, HandRecord), str(r)
        h = play(r)
        assert h.done
        assert ps.reconcile(r, h) == []
        # the figures the SUMMARY states, each checked against the engine
        assert r.extra["total_pot"] == sum(h.totals)
        assert r.stated_rake == h.rake
        assert r.extra["collected"] == h.won
        assert r.extra["returned"] == h.returned
        assert r.finishing_stacks == h.stacks


@pytest.mark.parametrize("name", sorted(OMAHA))
def test_a_game_tapete_does_not_play_is_reported_as_not_supported(name: str) -> None:
    text = (DATA / name).read_text("utf-8-sig").replace(*UNPLAYED)
    (err,) = list(ps.read_text(text))
    assert isinstance(err, ps.ParseError)
    assert err.unsupported
    assert "Courchevel" in err.message.en and "not supported yet" in err.message.en
    assert "aún no se admite Courchevel" in err.message.es
    assert err.hand_id.isdigit()


def test_the_project_replay_reports_a_summary_that_does_not_add_up() -> None:
    replay = pytest.importorskip("tapete.history.replay")
    bad = TEN.replace("ValueH collected $357 from pot", "ValueH collected $356 from pot", 1)
    r = list(ps.read_text(bad, "bad.txt"))[1]
    assert isinstance(r, HandRecord)
    res = replay.replay(r)
    assert res.error is None and res.stated_stacks_agree is False


def test_the_project_replay_agrees() -> None:
    replay = pytest.importorskip("tapete.history.replay")
    for path in FILES:
        for r in ps.read_file(str(path)):
            if isinstance(r, ps.ParseError):
                continue
            res = replay.replay(r)
            assert res.error is None and not res.partial, (path.name, res.error)
            assert res.engine is not None
            assert ps.reconcile(r, res.engine) == []
            assert res.stated_stacks_agree is True


def test_multi_hand_file() -> None:
    rs = records("hhsmithy_cash_nlhe_10_hands_rake.txt")
    assert [r.hand_id for r in rs][:2] == ["109673992001", "109674128046"]
    assert len(rs) == 10
    assert sum(r.stated_rake or 0 for r in rs) == 300 + 202 + 300 + 300 + 292
    assert all(r.rules.decimals == 2 and r.rules.currency == "$" for r in rs)


def test_two_side_pots_in_euros_with_rake_per_pot() -> None:
    r, h = one("hhsmithy_cash_nlhe_two_side_pots_rake.txt")
    assert r.rules.currency == "€" and r.rules.big_blind == 10
    assert [p.amount for p in h.results] == [537, 750, 608]
    assert [p.rake for p in h.results] == [25, 36, 28]
    assert h.rake == 89
    names = h.names
    assert h.won[names.index("CrSilva.11")] == 537
    assert h.won[names.index("templargio")] == 750 + 608
    assert h.returned[names.index("templargio")] == 969


def test_side_pot_with_antes_and_rake() -> None:
    r, h = one("hhsmithy_cash_nlhe_side_pot_rake.txt")
    assert r.rules.ante == 2
    assert [p.amount for p in h.results] == [3037, 791]
    assert h.rake == 150


def test_blind_posted_all_in_short() -> None:
    r, h = one("hhp_mtt_nlhe_blind_posts_allin_side_pot.txt")
    p = h.names.index("norgas69")
    assert r.rules.decimals == 0 and r.extra["tournament"] == "1689829479"
    assert h.totals[p] == 14 and h.all_in[p]
    # the others still faced the full big blind of 20
    assert h.totals[h.names.index("MasterQkiu")] == 3 + 180 + 300
    assert [x.amount for x in h.results] == [67, 938]


def test_run_it_twice_on_a_cap_table() -> None:
    r, h = one("hhsmithy_cash_nlhe_cap_run_it_twice_split_rake.txt")
    assert r.extra["cap"] == 8000
    assert len(h.boards) == 2
    assert all(len(b) == 5 for b in h.boards)
    gamz, garn = h.names.index("Gamz11"), h.names.index("Garnerus")
    assert h.won[gamz] == h.won[garn] == 8060
    assert h.rake == 280
    # the real stacks; the cap ($80) is the table's rule, played by the engine
    assert r.rules.hand_cap == 8000
    assert dict(zip(r.names or [], r.stacks, strict=True)) == {
        "willybeer22": 38596, "fede_carita": 7898, "Gamz11": 43306, "bobloblaw87": 10294,
        "nobre13": 15000, "Garnerus": 15639}
    assert h.totals[gamz] == h.totals[garn] == 8000 and h.all_in[gamz] and h.all_in[garn]
    assert h.stacks[gamz] == 43306 - 8000 + 8060 and h.stacks[garn] == 15639 - 8000 + 8060
    assert r.finishing_stacks == h.stacks and ps.reconcile(r, h) == []


def test_the_web_replayer_shows_a_cap_table_real_stacks() -> None:
    from tapete.server.replayer import decode_link, timeline_of_record

    (r,) = records("hhsmithy_cash_nlhe_cap_run_it_twice_split_rake.txt")
    t = timeline_of_record(r, equity=False)
    start = {p["name"]: p["start"] for p in t["players"]}
    assert start["willybeer22"] == 38596 and start["Gamz11"] == 43306
    gamz = [p["name"] for p in t["players"]].index("Gamz11")
    assert t["frames"][-1]["stacks"][gamz] == 43306 - 8000 + 8060
    assert t["mismatches"] == []
    assert t["share"] and decode_link(t["share"])["players"] == t["players"]  # a shared link


def test_cap_game_plays_the_cap_and_writes_it_back() -> None:
    rules = Rules(Structure.NO_LIMIT, 200, 400, decimals=2, currency="$", hand_cap=8000)
    h = Hand(rules, [38596, 20000, 5000], button=2, names=["a", "b", "c"], hand_id="7",
             deck=Deck(1), auto_showdown=True)
    lg = h.legal()
    assert lg.player == 2 and lg.max_to == 5000  # c's whole stack is under the cap
    h.call()
    lg = h.legal()
    assert lg.max_to == 8000 and lg.stack == 8000 - 200  # a may put in 80 in all
    h.raise_to(8000)
    assert h.all_in[0] and h.stacks[0] == 38596 - 8000  # all-in, the rest behind
    h.call()  # b calls to the cap
    h.call()  # c all-in for 50
    assert h.done and sum(h.stacks) + h.rake == 38596 + 20000 + 5000
    text = ps.write_hand(h, table="T", date="2015/04/19 11:46:35 ET")
    assert "($2/$4 - $80 Cap -  USD)" in text.splitlines()[0]
    assert "a: raises $76 to $80 and has reached the $80 cap" in text
    assert "c: calls $46 and is all-in" in text
    (back,) = list(ps.read_text(text))
    assert isinstance(back, HandRecord)
    assert back.stacks == [38596, 20000, 5000] and back.rules.hand_cap == 8000
    assert play(back).events == h.events


def test_old_game_header_and_uncalled_bet() -> None:
    r, h = one("hhp_cash_nlhe_2010_rake.txt")
    assert r.hand_id == "41784027206"
    assert h.returned[h.names.index("stefanengel")] == 105
    assert h.won[h.names.index("stefanengel")] == 195


def test_fixed_and_pot_limit() -> None:
    r, _ = one("hhsmithy_cash_flhe.txt")
    assert r.rules.structure is Structure.FIXED_LIMIT
    assert (r.rules.small_blind, r.rules.big_blind, r.rules.small_bet, r.rules.big_bet) == \
        (25, 50, 50, 100)
    r, h = one("hhsmithy_cash_plhe_rake.txt")
    assert r.rules.structure is Structure.POT_LIMIT
    assert h.rake == 18 and h.won[h.names.index("NeoCore44")] == 382


# ---------------------------------------------------------------------------- encodings

HAND = (DATA / "hhsmithy_cash_nlhe_two_side_pots_rake.txt").read_bytes()


def first(data: bytes) -> HandRecord:
    (r,) = list(ps.read_bytes(data, "x"))
    assert isinstance(r, HandRecord), str(r)
    return r


def test_bom_crlf_and_cp1252_read_the_same() -> None:
    text = HAND.decode("utf-8-sig")
    base = first(HAND)
    for data in (text.encode("utf-8"), text.replace("\n", "\r\n").encode("utf-8"),
                 b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"),
                 text.encode("cp1252"), text.replace("\n", "\r\n").encode("cp1252")):
        r = first(data)
        assert r.steps == base.steps and r.stacks == base.stacks
        assert r.rules == base.rules and r.names == base.names


def test_read_text_accepts_crlf_strings() -> None:
    text = HAND.decode("utf-8-sig").replace("\n", "\r\n")
    (r,) = list(ps.read_text(text, "x"))
    assert isinstance(r, HandRecord)


def test_thousands_separators() -> None:
    text = HAND.decode("utf-8-sig").replace("(€38.94 in chips)", "(€1,038.94 in chips)")
    r = first(text.encode("utf-8"))
    assert r.stacks[r.names.index("templargio")] == 103894
    assert ps.parse_amount("$1,234,567.05", 2) == 123456705
    assert ps.parse_amount("12,500", 0) == 12500


def test_amount_finer_than_the_unit_is_an_error() -> None:
    text = HAND.decode("utf-8-sig").replace("(€4 in chips)", "(€4.005 in chips)")
    (err,) = list(ps.read_bytes(text.encode(), "x"))
    assert isinstance(err, ps.ParseError) and "smallest unit" in err.message.en


# ---------------------------------------------------------------------------- bad files

TEN = (DATA / "hhsmithy_cash_nlhe_10_hands_rake.txt").read_text(encoding="utf-8-sig")


def test_an_illegal_raise_is_reported_not_accepted() -> None:
    bad = TEN.replace("ADZ124: raises $16 to $26", "ADZ124: raises $3 to $13", 1)
    rs = list(ps.read_text(bad, "bad.txt"))
    r = rs[0]
    assert isinstance(r, HandRecord)
    res = replay(r)
    assert res.error is not None and "ADZ124 cannot raise to $13.00" in res.error.en
    # the other hands of the file are unaffected
    assert all(ps.reconcile(x, play(x)) == [] for x in rs[1:] if isinstance(x, HandRecord))


def test_acting_out_of_turn_is_reported() -> None:
    bad = TEN.replace("ADZ124: raises $16 to $26\njimmyhoo: folds",
                      "jimmyhoo: folds\nADZ124: raises $16 to $26", 1)
    r = next(iter(ps.read_text(bad, "bad.txt")))
    assert isinstance(r, HandRecord)
    res = replay(r, strict=True)
    assert res.error is not None and "it is not jimmyhoo's turn" in res.error.en


def test_a_summary_that_does_not_reconcile_is_reported_with_both_figures() -> None:
    bad = TEN.replace("Total pot $360 | Rake $3", "Total pot $361 | Rake $3", 1)
    bad = bad.replace("ValueH collected $357 from pot", "ValueH collected $356 from pot", 1)
    r = list(ps.read_text(bad, "bad.txt"))[1]
    assert isinstance(r, HandRecord)
    problems = ps.reconcile(r, play(r))
    assert "total pot: the file says $361, the replay gives $360" in problems
    assert "ValueH collected: the file says $356, the replay $357" in problems


def test_side_pots_that_do_not_match_are_reported() -> None:
    text = HAND.decode("utf-8-sig")
    # pots that do not add up with the rake: the rake is taken from the main pot
    r = first(text.replace("Main pot €5.37", "Main pot €5.47").encode())
    problems = ps.reconcile(r, play(r))
    assert ("pots: the file says €5.47, €7.50, €6.08; the replay gives €4.73, €7.86, €6.36"
            in problems), problems
    # pots that add up, but the chips collected from one of them do not
    r = first(text.replace("Side pot-1 €7.50. Side pot-2 €6.08.",
                           "Side pot-1 €7.58. Side pot-2 €6.00.").encode())
    problems = ps.reconcile(r, play(r))
    assert "templargio from side pot 1: the file says €7.50, the replay €7.58" in problems


def test_unreadable_action_and_missing_summary() -> None:
    bad = TEN.replace("jimmyhoo: folds", "jimmyhoo: juggles", 1)
    err = next(iter(ps.read_text(bad, "bad.txt")))
    assert isinstance(err, ps.ParseError) and "juggles" in err.message.en and err.line > 1

def test_a_hand_cut_short_reads_but_does_not_finish() -> None:
    cut = TEN.split("ValueH: folds")[0]
    r = next(iter(ps.read_text(cut, "cut.txt")))
    assert isinstance(r, HandRecord) and r.stated_pots is None
    res = replay(r)
    assert res.error is None and res.partial and res.engine is not None
    assert not res.engine.done


def test_no_hand_at_all() -> None:
    (err,) = list(ps.read_text("hello\n", "x"))
    assert isinstance(err, ps.ParseError)


def test_straddle_and_dead_blinds() -> None:
    text = """PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - 2020/01/01 1:00:00 ET
Table 'T' 6-max Seat #1 is the button
Seat 1: A ($200 in chips)
Seat 2: B ($200 in chips)
Seat 3: C ($200 in chips)
Seat 4: D ($200 in chips)
Seat 5: E ($200 in chips)
B: posts small blind $1
C: posts big blind $2
D: posts straddle $4
E: posts small & big blinds $3
*** HOLE CARDS ***
E: raises $6 to $8
A: folds
B: folds
C: folds
D: calls $4
*** FLOP *** [2c 3d 4h]
D: checks
E: bets $10
D: folds
Uncalled bet ($10) returned to E
E collected $20 from pot
*** SUMMARY ***
Total pot $20 | Rake $0
"""
    (r,) = list(ps.read_text(text, "s.txt"))
    assert isinstance(r, HandRecord), str(r)
    assert r.rules.straddle == 400
    assert r.blinds == [0, 100, 200, 400, 200] and r.dead == [0, 0, 0, 0, 100]
    h = play(r)
    assert ps.reconcile(r, h) == []
    back = first(ps.write_hand(h).encode())
    h2 = play(back)
    assert h2.events == h.events and h2.stacks == h.stacks


# ---------------------------------------------------------------------------- writing

@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_hands_write_and_read_back(path: Path) -> None:
    for r in ps.read_file(str(path)):
        assert isinstance(r, HandRecord)
        h = play(r)
        text = ps.write_hand(h)
        back = first(text.encode())
        h2 = play(back)
        assert h2.events == h.events
        assert h2.stacks == h.stacks
        assert ps.reconcile(back, h2) == []
        assert back.hand_id == r.hand_id


def test_writer_shape() -> None:
    r, h = one("hhsmithy_cash_nlhe_two_side_pots_rake.txt")
    text = ps.write_hand(h, date="2012/09/10 19:43:58 ET")
    lines = text.splitlines()
    assert lines[0] == ("PokerStars Hand #85998509763:  Hold'em No Limit (€0.05/€0.10 EUR)"
                        " - 2012/09/10 19:43:58 ET")
    assert lines[1] == "Table 'tapete' 9-max Seat #9 is the button"
    assert "Seat 5: Lenorina (€4 in chips)" in lines
    assert "CrSilva.11: raises €0.78 to €1.38 and is all-in" in lines
    assert "Uncalled bet (€9.69) returned to templargio" in lines
    assert "templargio collected €7.50 from side pot-1" in lines
    assert ("Total pot €19.84 Main pot €5.37. Side pot-1 €7.50. Side pot-2 €6.08. | Rake €0.89"
            in lines)
    assert "Board [8s Qh Ks 9s Tc]" in lines
    assert "Seat 2: metra1977 (big blind) folded before Flop" in lines
    assert any(x.startswith("Seat 9: templargio (button) showed [9d Jd] and won (€13.58)")
               for x in lines)


def test_writer_for_a_tournament_and_for_play_chips() -> None:
    from tapete.core.cards import Deck

    h = Hand(Rules(small_blind=50, big_blind=100, ante=10), [5000, 3000, 200], deck=Deck(3),
             auto_showdown=True)
    while not h.done:
        h.check_or_call()
    for kw in ({"tournament": "77"}, {}):
        text = ps.write_hand(h, **kw)
        back = first(text.encode())
        assert back.rules.decimals == 0 and back.rules.currency == ""
        assert play(back).events == h.events


# ---------------------------------------------------------------------------- stated rake

def test_rules_rake_fixed_takes_exactly_the_stated_rake_per_pot() -> None:
    from tapete.core.pots import Pot, take_rake
    from tapete.core.rules import RulesError

    pots = [Pot(562, (0, 1, 2, 3)), Pot(786, (0, 1, 3)), Pot(636, (0, 3))]
    rules = Rules(rake_bps=500, rake_cap=10, rake_fixed=(25, 36, 28))
    out = take_rake(pots, rules, saw_flop=False)  # no flop, no drop does not apply
    assert [(p.amount, p.rake) for p in out] == [(537, 25), (750, 36), (608, 28)]
    # one figure for the hand: from the main pot first, the rest from the next pots
    out = take_rake([Pot(10, (0, 1)), Pot(50, (1, 2))], Rules(rake_fixed=(15,)), True)
    assert [(p.amount, p.rake) for p in out] == [(0, 10), (45, 5)]
    with pytest.raises(RulesError):
        Rules(rake_fixed=(-1,))


def test_hand_with_a_stated_rake_preflop() -> None:
    from tapete.core.cards import Deck

    h = Hand(Rules(small_blind=1, big_blind=2, rake_fixed=(1,)), [100, 100, 100],
             deck=Deck(1))
    h.raise_to(6)
    h.fold()
    h.fold()
    assert h.done and h.rake == 1  # taken although the hand ended before the flop
    assert h.won == [0, 0, 4] and sum(h.stacks) + h.rake == 300  # pot 5, rake 1


def test_zoom_header_without_currency_code_and_yen() -> None:
    text = TEN.split("\n\n\n")[0]
    zoom = text.replace("PokerStars Game #109673992001:  Hold'em No Limit ($5/$10 USD)",
                        "PokerStars Zoom Hand #109673992001:  Hold'em No Limit ($5/$10)")
    r = next(iter(ps.read_text(zoom, "z.txt")))
    assert isinstance(r, HandRecord) and r.rules.big_blind == 1000 and r.rules.currency == "$"
    yen = text.replace("$", "¥").replace("USD", "CNY")
    r = next(iter(ps.read_text(yen, "y.txt")))
    assert isinstance(r, HandRecord) and r.rules.currency == "¥"
    assert ps.reconcile(r, play(r)) == []


def test_writer_for_one_hero_and_stars_wording() -> None:
    r, h = one("hhp_cash_nlhe_2010_rake.txt")
    text = ps.write_hand(h, hero=h.names.index("held"))
    assert [x for x in text.splitlines() if x.startswith("Dealt to")] == ["Dealt to held [Ad 7d]"]
    assert "stefanengel: shows [Ac 9d] (three of a kind, Nines)" in text
    assert "Seat 5: glaine 59 mucked [Th 8h]" in text
    back = first(text.encode())
    h2 = play(back)
    assert h2.stacks == h.stacks and ps.reconcile(back, h2) == []
    assert h2.hole == h.hole  # the cards shown and the mucked ones come back from the text


@pytest.mark.parametrize(("cards", "words"), [
    ("As Kd 9c 7h 5s 3d 2c", "high card Ace"),
    ("Qs Qd 9c 7h 5s 3d 2c", "a pair of Queens"),
    ("Ks Kd Tc Th 5s 3d 2c", "two pair, Kings and Tens"),
    ("9s 9d 9c 7h 5s 3d 2c", "three of a kind, Nines"),
    ("9s Td Jc Qh Ks 3d 2c", "a straight, Nine to King"),
    ("As 2d 3c 4h 5s 9d Jc", "a straight, Ace to Five"),
    ("Qh Th 8h 4h 2h 3d 2c", "a flush, Queen high"),
    ("7s 7d 7c Jh Js 3d 2c", "a full house, Sevens full of Jacks"),
    ("As Ad Ac Ah 5s 3d 2c", "four of a kind, Aces"),
    ("9h Th Jh Qh Kh 3d 2c", "a straight flush, Nine to King"),
    ("Th Jh Qh Kh Ah 3d 2c", "a Royal Flush"),
])
def test_stars_hand_words(cards: str, words: str) -> None:
    from tapete.core.cards import parse_cards
    from tapete.ranking import evaluate

    assert ps.describe_stars(evaluate(parse_cards(cards))) == words
