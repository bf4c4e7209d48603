"""A whole tournament played by bots: the director's rounds, each table's hand played by the
bots seated there (:func:`tapete.bots.match.play_hand`: each decides from its seat's view).

Deterministic for a seed: the seat draw, every deck (one seed a hand, from the tournament's
seed, the round and the table) and every bot. A simulated hand lasts ``seconds_per_hand``
for a schedule by minutes (the levels count those seconds of play; the breaks add their
minutes to the clock, which is what ``HandInfo.clock`` shows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tapete.bots import Bot, make_bot
from tapete.bots.match import labels, play_hand
from tapete.core.cards import Deck
from tapete.core.hand import Hand
from tapete.tournament.director import Director, RoundReport
from tapete.tournament.model import TournamentRules


@dataclass(frozen=True, slots=True)
class HandInfo:
    hand_id: str
    table: int
    round: int
    level: int  # from 0
    hand_for_hand: bool
    players: int
    clock: int  # seconds since the start, breaks included


@dataclass(slots=True)
class SimResult:
    director: Director
    hands: list[HandInfo] = field(default_factory=list)
    rounds: list[RoundReport] = field(default_factory=list)
    # after each round: (hands dealt so far, the chip leader's stack, the average stack)
    chart: list[tuple[int, int, float]] = field(default_factory=list)


def player_names(styles: Sequence[str], players: int) -> tuple[list[str], list[str]]:
    """Names and styles: the styles taken in turn, each name its style and number
    ("tag-1", "lag-2", ...)."""
    chosen = [styles[i % len(styles)] for i in range(players)]
    names = [f"{s}-{i + 1}" for i, s in enumerate(chosen)]
    return labels(names), chosen


def deck_seed(seed: int, round_: int, table: int) -> int:
    return (seed * 1_000_003 + round_) * 1_009 + table


def simulate(
    rules: TournamentRules, styles: Sequence[str], players: int, *, seed: int = 0,
    seconds_per_hand: int = 60,
    on_hand: Callable[[Hand, HandInfo], None] | None = None,
    on_round: Callable[[Director, RoundReport], None] | None = None,
    max_rounds: int = 100_000,
) -> SimResult:
    """Play the tournament to its end (or a deal). ``on_hand`` sees every finished hand
    before its table applies it; ``on_round`` every round's report."""
    names, chosen = player_names(styles, players)
    director = Director(rules, names, seed=seed, styles=chosen)
    bots: dict[str, Bot] = {n: make_bot(s, seed * 1_000_003 + i, label=n)
                            for i, (n, s) in enumerate(zip(names, chosen, strict=True))}
    res = SimResult(director)
    play = 0  # seconds of play
    pauses = 0  # seconds of breaks
    dealt = 0
    level = 0
    while not director.over and director.round < max_rounds:
        hands = director.start_round(lambda k, r: Deck(deck_seed(seed, r, k)), play)
        for lv in range(level, director.level):  # the breaks after the levels just ended
            pauses += 60 * rules.schedule.break_after(lv + 1)
        level = director.level
        for k, hand in hands:
            play_hand(hand, [bots[name] for name in hand.names])
            info = HandInfo(hand.hand_id, k, director.round, director.level,
                            director.hand_for_hand, hand.n, play + pauses)
            res.hands.append(info)
            if on_hand is not None:
                on_hand(hand, info)
        dealt += len(hands)
        report = director.end_round()
        play += seconds_per_hand
        res.rounds.append(report)
        stacks = list(director.stacks().values())
        if stacks:
            res.chart.append((dealt, max(stacks), director.chips_in_play() / len(stacks)))
        if on_round is not None:
            on_round(director, report)
    return res
