"""replay() on records from any reader: players named in PHH order whatever the source order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapete import words
from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import parse_cards
from tapete.core.rules import Rules
from tapete.core.text import Text
from tapete.history.formats import replay_any
from tapete.history.record import HandRecord
from tapete.history.replay import dumps_json, replay
from tapete.words.account import account, account_lines


def test_records_with_the_button_anywhere_are_reported_in_phh_order() -> None:
    # a PokerStars-like record: seat order, the button is player 0; p1 in PHH is player 1
    record = HandRecord(
        rules=Rules(small_blind=1, big_blind=2), stacks=[100, 200, 300], button=0,
        steps=[("hole", 0, parse_cards("AsAd")), ("hole", 1, parse_cards("KsKd")),
               ("hole", 2, parse_cards("QsQd")), ("act", 0, Action.raise_to(6)),
               ("act", 1, Action.fold()), ("act", 2, Action.fold())],
        names=["Button", "Small", "Big"], source="x.txt")
    res = replay(record)
    assert res.error is None and res.finishing_stacks == [103, 199, 298]
    out = json.loads(dumps_json(res.to_json()))
    assert out["finishing_stacks"] == [199, 298, 103]  # p1 small blind, p2 big, p3 button
    assert [d["actor"] for d in out["decisions"]] == ["p3", "p1", "p2"]
    assert [d["action"] for d in out["decisions"]] == ["p3 cbr 6", "p1 f", "p2 f"]
    assert out["pots"][0]["winners"] == ["p3"] and out["returned"] == [0, 0, 4]


# ---------------------------------------------------------------------------- the account

DATA = Path(__file__).parents[1] / "data"
ACCOUNTED = [
    DATA / "phh" / "pokerkit-repo-d782667" / "data" / "dwan-ivey-2009.phh",
    DATA / "phh" / "phh-dataset" / "data" / "wsop" / "2019" / "42" / "3" / "00-01-07.phh",
    DATA / "pokerstars" / "hhsmithy_cash_nlhe_cap_run_it_twice_split_rake.txt",
    DATA / "pokerstars" / "hhsmithy_cash_nlhe_side_pot_rake.txt",
    DATA / "pokerstars" / "hhp_mtt_nlhe_blind_posts_allin_side_pot.txt",
    DATA / "pokerstars" / "pokerregion_mtt_nlhe_ante_side_pot.txt",
]
STREETS = ("Preflop", "Flop", "Turn", "River")


def _told(text: str) -> list[str]:
    """The event lines of an account's streets ("Flop [Jc 3d 5c]: a; b" gives a, b)."""
    out: list[str] = []
    for line in text.splitlines()[1:]:
        line = line.strip()
        if line.startswith(STREETS) and ": " in line:
            out.extend(line.split(": ", 1)[1].split("; "))
    return out


@pytest.mark.parametrize("path", ACCOUNTED, ids=lambda p: p.name)
def test_the_account_s_event_lines_are_the_narrator_s(path: Path) -> None:
    """Every line of an event in ``tapete replay``'s account is the narrator's line for that
    event (words.event_line, as the table's log writes it), in both languages; an action the
    file leaves out is the narrator's line said as not in the file."""
    for res in replay_any(str(path)):
        hand = res.engine
        assert hand is not None and res.error is None
        names = [f"{res.label(p)} {hand.names[p]}" for p in range(hand.n)]
        count = len(hand.results)
        log = words.log_lines(hand, names=names)
        expected: list[Text | None] = []  # None: a hand shown, named against the others
        for k, e in enumerate(hand.events):
            if isinstance(e, ev.Posted | ev.Acted | ev.Returned | ev.Mucked):
                line = words.event_line(hand, e, count, names=names)
                expected.append(words.not_in_file(line) if k in res.inferred_at else line)
            elif isinstance(e, ev.Shown):
                expected.append(None)
        assert any(isinstance(e, ev.Acted) for e in hand.events)
        for lang in ("en", "es"):
            told = _told(account(res, lang))
            assert len(told) == len(expected), (path.name, lang)
            for got, want in zip(told, expected, strict=True):
                if want is None:
                    assert got in [x.in_lang(lang) for x in log], (got, lang)
                else:
                    assert got == want.in_lang(lang)
        if res.inferred_at:
            assert "(not in the file)" in account(res, "en")
            assert "(no está en el archivo)" in account(res, "es")


def test_the_account_is_the_narrator_s_in_every_line() -> None:
    """Every line of the account comes from tapete.words in both languages at once (Text), and
    the account (words/account.py) writes no words of its own and chooses no language."""
    import ast

    res = next(iter(replay_any(str(ACCOUNTED[0]))))
    lines = account_lines(res)
    assert account(res, "en").splitlines() == [lines[0].en, *("  " + x.en for x in lines[1:])]
    assert account(res, "es").splitlines() == [lines[0].es, *("  " + x.es for x in lines[1:])]
    assert lines[1].es.startswith("Fichas: ") and lines[-1].es.startswith("Fichas finales: ")
    # the source, not the module: compiled, its functions have none to inspect
    checked = 0
    source = (Path(words.__file__).parent / "account.py").read_text(encoding="utf-8")
    for tree in ast.parse(source).body:
        if not isinstance(tree, ast.FunctionDef) or tree.name not in ("account",
                                                                        "account_lines"):
            continue
        fns = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
        # the docstrings, and the language a caller gets by default
        docs = {id(f.body[0].value) for f in fns if isinstance(f.body[0], ast.Expr)}
        docs |= {id(d) for f in fns for d in f.args.defaults}
        literals = [x.value for x in ast.walk(tree) if isinstance(x, ast.Constant)
                    and isinstance(x.value, str) and id(x) not in docs]
        assert literals and not [x for x in literals if any(c.isalpha() for c in x)], literals
        checked += 1
    assert checked == 2


def test_a_partial_hand_and_its_open_pots_in_both_languages() -> None:
    hands = [r for p in (DATA / "phh" / "phh-dataset").rglob("*.phhs") for r in replay_any(str(p))]
    res = next(r for r in hands if r.partial and r.pots)
    assert res.note is not None
    en, es = account(res, "en"), account(res, "es")
    assert f"Partial hand: {res.note.en}" in en and f"Mano parcial: {res.note.es}" in es
    pot = words.pot_name(0, len(res.pots))
    assert f"\n  {pot.en}, " in en and f"\n  {pot.es}, " in es


# ---------------------------------------------------------------------------- actions in records

def test_records_carry_actions() -> None:
    """Every reader's betting steps are ("act", player, Action): PokerStars text says which
    action it was; PHH's "cc" and "cbr" are a check or call and a bet or raise, as the hand
    makes them (record.CHECK_OR_CALL, record.bet_or_raise)."""
    from tapete.history import record as rec

    kinds: set[str] = set()
    for path in (*ACCOUNTED, *sorted((DATA / "pokerstars").glob("hhsmithy_cash_nlhe*.txt"))):
        for res in replay_any(str(path)):
            assert res.record is not None and res.error is None
            acts = [s for s in res.record.steps if s[0] == "act"]
            assert acts and all(len(s) == 3 and isinstance(s[2], Action) for s in acts)
            if path.suffix == ".txt":
                kinds.update(s[2].kind for s in acts)
            else:
                assert {s[2] for s in acts if s[2].to is None} <= {rec.FOLD, rec.CHECK_OR_CALL}
                assert all(s[2] == rec.bet_or_raise(s[2].to) for s in acts if s[2].to)
    assert kinds == {ev.FOLD, ev.CHECK, ev.CALL, ev.BET, ev.RAISE}


def _three_way(steps: list[tuple[object, ...]]) -> HandRecord:
    return HandRecord(rules=Rules(small_blind=1, big_blind=2), stacks=[100, 200, 300], button=0,
                      steps=[("hole", 0, parse_cards("AsAd")), ("hole", 1, parse_cards("KsKd")),
                             ("hole", 2, parse_cards("QsQd")), *steps], names=["A", "B", "C"])


def test_a_check_or_a_call_is_the_one_the_hand_allows() -> None:
    """A record's check or call is played as whichever the hand allows (PHH's cc), and a bet
    or raise to a total as the street makes it; both ways, fast or through the public methods,
    give the same events."""
    exact = [("act", 0, Action.raise_to(6)), ("act", 1, Action.call()),
             ("act", 2, Action.call()), ("board", parse_cards("2c7d9s")),
             ("act", 1, Action.check()), ("act", 2, Action.bet(10)), ("act", 0, Action.fold()),
             ("act", 1, Action.fold())]
    loose = [("act", 0, Action.bet(6)), ("act", 1, Action.check()), ("act", 2, Action.call()),
             ("board", parse_cards("2c7d9s")), ("act", 1, Action.call()),
             ("act", 2, Action.raise_to(10)), ("act", 0, Action.fold()),
             ("act", 1, Action.fold())]
    events = []
    for steps in (exact, loose):
        for fast in (True, False):
            res = replay(_three_way(steps), fast=fast)
            assert res.error is None and res.engine is not None and res.engine.done
            events.append(res.engine.events)
    assert all(e == events[0] for e in events)
    acts = [(e.player, e.action, e.to) for e in events[0] if isinstance(e, ev.Acted)]
    assert acts[:5] == [(0, ev.RAISE, 6), (1, ev.CALL, 6), (2, ev.CALL, 6), (1, ev.CHECK, 0),
                        (2, ev.BET, 10)]


def test_a_step_that_is_not_an_action_is_refused_in_words() -> None:
    """A record's betting step carries an Action (old shared links' PHH verbs are read by
    the link's decoder, not here): anything else stops the replay with a clear message."""
    good = replay(_three_way([("act", 0, Action.raise_to(6)), ("act", 1, Action.fold()),
                              ("act", 2, Action.call()), ("board", parse_cards("2c7d9s"))]))
    assert good.error is None and [d.action for d in good.decisions] == [
        "p3 cbr 6", "p1 f", "p2 cc"]
    bad = replay(_three_way([("act", 0, "raise", 6)]))
    assert bad.error is not None and 'action 4 "p3 raise 6"' in bad.error.en
    assert "internal" not in bad.error.en
    assert "acción desconocida" in bad.error.es
