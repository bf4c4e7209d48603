"""Bots: they see only their seat, answer legally in every structure, and explain themselves."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import STRUCTURES, random_table
from tapete.bots import BOT_NAMES, STYLES, Decision, SeatView, make_bot
from tapete.bots import ranges as R
from tapete.bots.match import play_hand
from tapete.bots.seats import players_behind, position_name
from tapete.core.actions import BET, RAISE, Action
from tapete.core.cards import Deck, parse_cards
from tapete.core.events import Acted
from tapete.core.game import HOLDEM, Game, HandForm
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure
from tapete.core.setup import HandSetup
from tapete.core.text import Text
from tapete.core.view import Viewer, events_seen

SIX = ["tag", "lag", "nit", "station", "maniac", "random"]


def _hand(deck: list[int] | Deck, n: int = 6, structure: Structure = Structure.NO_LIMIT) -> Hand:
    return Hand(Rules(structure=structure, small_blind=50, big_blind=100), [10_000] * n,
                button=n - 1, deck=deck, names=SIX[:n] if n <= 6 else None, auto_showdown=True)


def test_make_bot_knows_every_name_and_refuses_others() -> None:
    for name in BOT_NAMES:
        assert make_bot(name, 1).name == name
    assert set(STYLES) == {"tag", "lag", "nit", "station", "maniac"}
    try:
        make_bot("shark", 1)
    except ValueError as exc:
        assert "tag" in str(exc)
    else:
        raise AssertionError("an unknown bot was made")


def test_the_view_holds_no_other_players_cards() -> None:
    hand = _hand(Deck(11))
    bots = [make_bot(n, i) for i, n in enumerate(SIX)]
    checked = 0
    while not hand.done:
        seat = hand.actor
        assert seat is not None
        view = SeatView.of(hand, seat)
        assert view.hole == hand.hole[seat]
        hidden = {c for q in range(hand.n) if q != seat for c in (hand.hole[q] or ())}
        for q in range(hand.n):
            if q != seat:
                assert view.holes[q] is None  # nobody has shown yet
        # not one hidden card anywhere in the view: only the own hole and the board are cards
        assert not hidden & (set(view.hole) | set(view.board))
        assert view.legal == hand.legal()
        checked += 1
        bots[seat].decide(view).apply(hand, seat)
    assert checked >= 6


def test_a_seat_events_with_hidden_cards_are_refused() -> None:
    hand = _hand(Deck(3))
    try:
        SeatView.from_events(hand.setup, hand.events, 0)
    except ValueError:
        pass
    else:
        raise AssertionError("a view was built from events with every hole card")


def test_the_view_carries_the_setup_and_the_engines_acting_order() -> None:
    """A view is built from the hand's HandSetup; its preflop order and the bots' positions
    are the engine's: with blinds 1/2, a straddle of 4 and a re-straddle of 8, the player
    after the re-straddler acts first and the re-straddler last."""
    rules = Rules(small_blind=1, big_blind=2)
    hand = Hand(rules, [400] * 6, button=5, deck=Deck(4), blinds=[1, 2, 0, 0, 0, 0],
                straddles=[0, 0, 4, 8, 0, 0], names=SIX, auto_showdown=True)
    view = SeatView.of(hand, hand.actor or 0)
    assert view.setup == hand.setup and view.rules is rules and view.names == tuple(SIX)
    assert view.preflop_order == tuple(hand.acting_order(preflop=True)) == (4, 5, 0, 1, 2, 3)
    assert view.seat == hand.actor == 4
    assert [players_behind(view, p) for p in (4, 5, 0, 1, 2, 3)] == [5, 4, 3, 2, 1, 0]
    names = [position_name(view, p).en for p in range(6)]
    assert names == ["the small blind", "the big blind", "the straddle", "the straddle",
                     "the cutoff", "the button"]
    assert position_name(view, 2).es == "el straddle"
    again = SeatView.from_events(HandSetup.from_json(hand.setup.to_json()),
                                 events_seen(hand.events, Viewer.bot(4)), 4)
    assert again == view
    # a plain table: the player after the big blind first, the big blind last
    plain = SeatView.of(_hand(Deck(2)), 2)
    assert plain.preflop_order == (2, 3, 4, 5, 0, 1)
    assert [position_name(plain, p).en for p in plain.preflop_order] == [
        "early position", "the hijack", "the cutoff", "the button", "the small blind",
        "the big blind"]
    heads_up = SeatView.of(_hand(Deck(2), n=2), 1)
    assert heads_up.preflop_order == (1, 0)  # the button (small blind) first
    assert [position_name(heads_up, p).en for p in (1, 0)] == ["the button", "the big blind"]


def _other_cards_changed(deck: list[int], dealt: Hand, seat: int) -> list[int]:
    """The same deck, but every player other than ``seat`` gets different hole cards: each
    card ``dealt`` gave the others (where the engine took it from the deck) is swapped with
    one from the end of the deck, beyond the hole cards and twice a board (room for burns)."""
    game = dealt.rules.game
    spare = list(range(len(deck) - 1, dealt.n * game.hole_cards + 2 * game.board_cards, -1))
    out = list(deck)
    for p in range(dealt.n):
        if p != seat:
            for card in dealt.hole[p] or ():
                i, j = deck.index(card), spare.pop(0)
                out[i], out[j] = out[j], out[i]
    return out


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    n = 6
    for deck_seed in range(12):
        deck = list(Deck(deck_seed).cards())
        for hero in range(n):
            a = _hand(deck)
            b = _hand(_other_cards_changed(deck, a, hero))
            assert a.hole[hero] == b.hole[hero] and a.hole != b.hole
            players = [make_bot(name, 7 + i) for i, name in enumerate(SIX)]
            while not a.done:
                seat = a.actor
                assert seat is not None and b.actor == seat
                va, vb = SeatView.of(a, seat), SeatView.of(b, seat)
                if seat == hero:
                    assert va == vb  # the whole view is the same
                    for style in SIX:
                        da = make_bot(style, 5).decide(va)
                        db = make_bot(style, 5).decide(vb)
                        assert da == db
                d = players[seat].decide(va)  # the same actions in both hands
                d.apply(a, seat)
                d.apply(b, seat)


def _play_random_table(seed: int, structure: Structure) -> int:
    rng = random.Random(seed)
    table = random_table(rng, structure, players=(2, 9))
    names = [rng.choice(BOT_NAMES) for _ in table.stacks]
    bots = [make_bot(name, rng.randrange(1 << 30)) for name in names]
    decisions = 0
    for _ in range(3):
        hand = Hand(table.rules, list(table.stacks), button=table.button,
                    deck=Deck(rng.randrange(1 << 30)), auto_showdown=True)
        play_hand(hand, bots)  # raises BotError on an illegal answer
        assert hand.done
        assert sum(hand.stacks) + hand.rake == sum(table.stacks)
        decisions += 1
    return decisions


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), structure=st.sampled_from(STRUCTURES))
def test_bots_only_make_legal_actions(seed: int, structure: Structure) -> None:
    _play_random_table(seed, structure)


def test_bots_answer_legally_in_every_structure_and_table_size() -> None:
    # a deterministic sweep next to the hypothesis one: every structure, 2..9 players
    for structure in STRUCTURES:
        for n in range(2, 10):
            names = [BOT_NAMES[(n + i) % len(BOT_NAMES)] for i in range(n)]
            bots = [make_bot(name, i) for i, name in enumerate(names)]
            for d in range(4):
                hand = Hand(Rules(structure=structure, small_blind=1, big_blind=2),
                            [200 if i % 3 else 37 + d for i in range(n)], button=d % n,
                            deck=Deck(100 * n + d), auto_showdown=True)
                while not hand.done:
                    seat = hand.actor
                    assert seat is not None
                    view = SeatView.of(hand, seat)
                    decision = bots[seat].decide(view)
                    assert view.legal is not None and decision.is_legal(view.legal)
                    _check_explanation(decision)
                    decision.apply(hand, seat)


def _check_explanation(d: Decision) -> None:
    assert d.explanation.en and d.explanation.es
    assert d.explanation.en != d.explanation.es


def test_explanations_quote_equity_and_price_in_both_languages() -> None:
    # the flop: a bet to call with a draw against one opponent
    seen_en: list[str] = []
    seen_es: list[str] = []
    for seed in range(40):
        hand = _hand(Deck(seed))
        bots = [make_bot(n, seed * 10 + i) for i, n in enumerate(SIX)]
        while not hand.done:
            seat = hand.actor
            assert seat is not None
            d = bots[seat].decide(SeatView.of(hand, seat))
            if SIX[seat] != "random" and hand.street > 0 and d.action == Action.call():
                seen_en.append(d.explanation.en)
                seen_es.append(d.explanation.es)
            d.apply(hand, seat)
    assert seen_en, "no call after the flop in 40 hands"
    assert any("% equity against a range of" in s and "the price is" in s for s in seen_en)
    assert any("% de equity contra un rango de" in s and "el precio es" in s for s in seen_es)


def test_sizes_respect_pot_limit_and_fixed_limit() -> None:
    for structure in (Structure.POT_LIMIT, Structure.FIXED_LIMIT):
        for seed in range(30):
            hand = _hand(Deck(seed), structure=structure)
            bots = [make_bot(n, seed + i) for i, n in enumerate(SIX)]
            while not hand.done:
                seat = hand.actor
                assert seat is not None
                view = SeatView.of(hand, seat)
                d = bots[seat].decide(view)
                if d.action.is_sized:
                    assert view.legal is not None and view.legal.max_to is not None
                    assert d.action.to is not None and d.action.to <= view.legal.max_to
                    if structure is Structure.FIXED_LIMIT:
                        assert d.action.to == view.legal.min_to
                d.apply(hand, seat)


def test_same_seed_same_decisions() -> None:
    def play(seed: int) -> list[Action]:
        out = []
        bots = [make_bot(n, seed + i) for i, n in enumerate(SIX)]
        for d in range(5):
            hand = _hand(Deck(d))
            while not hand.done:
                seat = hand.actor
                assert seat is not None
                dec = bots[seat].decide(SeatView.of(hand, seat))
                out.append(dec.action)
                dec.apply(hand, seat)
        return out

    assert play(3) == play(3)


def test_ranges_and_board_classes() -> None:
    assert R.N_COMBOS == 1326 and len(R.PREFLOP_ORDER) == 169
    assert R.hand_percentile(parse_cards("AsAh")) < R.hand_percentile(parse_cards("KsKh"))
    assert R.hand_percentile(parse_cards("7c2d")) > 0.95
    assert abs(sum(R.top_range(0.2)) / 1326 - 0.2) < 0.01
    board = parse_cards("Ah7d2c")
    assert R.hand_class(parse_cards("7s7c"), board) == R.MONSTER
    assert R.hand_class(parse_cards("AsKd"), board) == R.TOP_PAIR
    assert R.hand_class(parse_cards("8s8c"), board) == R.WEAK_PAIR
    assert R.hand_class(parse_cards("KdQd"), board) == R.AIR
    assert R.hand_class(parse_cards("KdQd"), parse_cards("Ad7d2c")) == R.DRAW
    assert R.hand_class(parse_cards("5s2s"), parse_cards("Ad4h3c")) == R.MONSTER  # a wheel
    eq = R.equity(parse_cards("AsAd"), (), [R.full_range()], 2000, random.Random(1))
    assert 0.82 < eq < 0.88
    text = R.describe(R.top_range(0.1), board)
    assert text.en.startswith("a range of ") and text.es.startswith("un rango de ")


def test_board_classes_match_the_scalar_classifier() -> None:
    rng = random.Random(3)
    for _ in range(60):
        board = tuple(rng.sample(range(52), rng.choice((3, 4, 5))))
        classes = R.board_classes(board)
        info = R.board_info(board)
        for i, combo in enumerate(R.COMBOS):
            if combo[0] in board or combo[1] in board:
                assert classes[i] == 6
            else:
                assert classes[i] == R.classify(combo, board, info), (board, combo)


def test_equity_with_ranges_that_cannot_all_be_held() -> None:
    # two opponents who can only hold the same two aces: no deal gives both their hand
    only = np.zeros(R.N_COMBOS)
    only[R.COMBO_INDEX[(51, 50)]] = 1.0
    eq = R.equity(parse_cards("KsKh"), (), [only, only.copy()], 200, random.Random(1))
    assert 0.0 <= eq <= 1.0


def test_only_tag_exploits_its_reads_and_big_bet_folds_are_counted() -> None:
    """tag widens and sizes by its reads (Style.exploit); the other styles do not; after a
    played hand the reads include folds to bets of most of the pot, with a 0.5 prior."""
    assert STYLES["tag"].exploit > 0
    assert all(s.exploit == 0 for n, s in STYLES.items() if n != "tag")
    from tapete.bots import OpponentStats
    assert OpponentStats().big_fold_rate() == 0.5
    bots = [make_bot(n, 3) for n in SIX]
    for d in range(30):
        play_hand(_hand(Deck(100 + d)), bots)
    tag = bots[0]
    stats = tag.stats  # type: ignore[attr-defined]
    assert set(stats) == set(SIX[1:])
    for s in stats.values():
        assert 0 <= s.big_folded <= s.big_faced <= s.faced
        assert 0.0 < s.big_fold_rate() < 1.0


def test_tag_reads_how_wide_a_player_re_raises() -> None:
    """Hands shown after a preflop re-raise are counted apart (0.08 a priori): a player who
    re-raises anything reads wide (tag then widens its range for that player's 3-bets)."""
    from tapete.bots import OpponentStats
    assert abs(OpponentStats().reraise_width() - 0.08) < 1e-9
    wild = OpponentStats(reraised_pct=0.5 * 40, reraised_n=40)
    assert wild.reraise_width() > 0.8
    bots = [make_bot(n, 3) for n in SIX]
    for d in range(30):
        play_hand(_hand(Deck(100 + d)), bots)
    for s in bots[0].stats.values():  # type: ignore[attr-defined]
        assert 0 <= s.reraised_n <= s.raised_n
        assert 0.0 < s.reraise_width() <= 1.0


def test_a_decision_is_the_engine_action_it_plays() -> None:
    """A bot answers with tapete.core.actions.Action, named as the street makes it (a bet
    opens, a raise raises), and the engine records exactly that action."""
    seen: set[str] = set()
    for structure in STRUCTURES:
        for seed in range(6):
            hand = _hand(Deck(seed), structure=structure)
            bots = [make_bot(n, seed + i) for i, n in enumerate(SIX)]
            while not hand.done:
                seat = hand.actor
                assert seat is not None
                legal = hand.legal()
                d = bots[seat].decide(SeatView.of(hand, seat))
                assert isinstance(d.action, Action)
                if d.action.is_sized:
                    assert d.action.kind == (BET if legal.is_bet else RAISE)
                event = d.apply(hand, seat)
                assert isinstance(event, Acted) and event.player == seat
                assert event.action == d.action.kind
                if d.action.is_sized:
                    assert event.to == d.action.to
                seen.add(d.action.kind)
    assert seen == {"fold", "check", "call", "bet", "raise"}


def test_is_legal_reads_the_engines_options() -> None:
    hand = _hand(Deck(1))
    legal = hand.legal()  # preflop, facing the big blind: a raise, not a bet
    assert legal.min_to is not None and legal.max_to is not None and not legal.is_bet
    why = Text("a test", "una prueba")
    assert Decision(Action.raise_to(legal.min_to), why).is_legal(legal)
    assert Decision(Action.raise_to(legal.max_to), why).is_legal(legal)
    assert not Decision(Action.raise_to(legal.max_to + 1), why).is_legal(legal)
    assert not Decision(Action.raise_to(legal.min_to - 1), why).is_legal(legal)
    assert not Decision(Action.bet(legal.min_to), why).is_legal(legal)  # it is a raise
    assert Decision(Action.call(), why).is_legal(legal)
    assert Decision(Action.fold(), why).is_legal(legal)
    assert not Decision(Action.check(), why).is_legal(legal)


def test_the_practice_tables_bots_move_with_engine_actions() -> None:
    """server/bots.py: a BotMove carries the Action; .action and .amount still read as the
    table reads them (a kind and a street total), and either way plays the same hand."""
    from tapete.server.bots import OPPONENTS, decide, make

    for seed in range(4):
        a, b = _hand(Deck(seed)), _hand(Deck(seed))
        players = [make(style, seed * 10 + i, name) for i, (name, style) in
                   enumerate((("You", "tag"), *OPPONENTS))]
        while not a.done:
            seat = a.actor
            assert seat is not None and b.actor == seat
            move = decide(players[seat], a, seat)
            assert move.action == move.play.kind and move.amount == move.play.to
            assert move.why.en and move.why.es
            a.apply(move.play, seat)
            if move.action in ("raise", "bet") and move.amount is not None:
                b.raise_to(move.amount, player=seat)
            else:
                b.act(move.action, move.amount, player=seat)
        assert a.events == b.events


def test_range_bots_play_holdem_only_and_the_baselines_any_game() -> None:
    """The styles read ranges of two-card combos (hold'em's by nature): asked to play another
    game they refuse in both languages rather than misread it; random and caller do not look
    at the cards and play whatever ``rules.game`` deals (here four hole cards, two plus three)."""
    four = Game("four-card", hole_cards=4, form=HandForm.TWO_PLUS_THREE)
    assert R.reads(HOLDEM) and not R.reads(four)
    rules = Rules(small_blind=50, big_blind=100, game=four)
    for seed in range(6):
        hand = Hand(rules, [10_000] * 4, button=3, deck=Deck(seed), auto_showdown=True)
        bots = [make_bot(name, seed + i) for i, name in enumerate(("random", "caller") * 2)]
        play_hand(hand, bots)
        assert hand.done and all(len(h or ()) == 4 for h in hand.hole)
        assert sum(hand.stacks) == 40_000
    hand = Hand(rules, [10_000] * 4, button=3, deck=Deck(1))
    seat = hand.actor
    assert seat is not None
    view = SeatView.of(hand, seat)
    assert len(view.hole) == 4
    for style in STYLES:
        try:
            make_bot(style, 1).decide(view)
        except R.NotHoldem as exc:
            assert "four-card" in exc.message.en and "hold'em" in exc.message.es
        else:
            raise AssertionError(f"{style} played a game its ranges do not describe")
