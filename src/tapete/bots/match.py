"""Duplicate matches: the same decks replayed with the bots rotated through the seats.

Every deal is played once per rotation, so each bot holds every seat's cards in every position;
the luck of the cards cancels and what is left is play. Stacks start at 100 big blinds every
hand, so each hand's result stands alone. Results are in big blinds; the 95 % interval comes
from the spread of the per-deal averages (a deal's rotations are one sample).

The game is the rules' (``game=``): hold'em by default, pot-limit Omaha as
``run_match(names, hands, structure="pl", game=OMAHA)``. ``make`` builds each bot from its name
(:func:`tapete.bots.make_bot` unless another maker is given, say with a benchmark's baseline).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tapete.bots import Bot, make_bot
from tapete.bots.view import SeatView
from tapete.core.cards import Deck
from tapete.core.game import HOLDEM, Game
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure

BIG_BLIND = 100
STACK_BB = 100


def match_rules(structure: Structure | str = Structure.NO_LIMIT, game: Game = HOLDEM) -> Rules:
    """Blinds 50/100 (fixed-limit: 100/200 bets), as the simulations use, in ``game``."""
    s = structure if isinstance(structure, Structure) else Structure.parse(structure)
    return Rules(structure=s, small_blind=BIG_BLIND // 2, big_blind=BIG_BLIND, game=game)


#: builds a bot from its name, a seed and its label at the table
BotMaker = Callable[[str, int, str], Bot]


def _make(name: str, seed: int, label: str) -> Bot:
    return make_bot(name, seed, label=label)


class BotError(AssertionError):
    """A bot answered with an action that was not legal: a bug in the bot."""


@dataclass(slots=True)
class MatchResult:
    names: list[str]
    hands: int = 0
    deals: int = 0
    # per bot: the average result (big blinds per hand) of each deal over its rotations
    per_deal: list[list[float]] = field(default_factory=list)
    # per bot: cumulative big blinds after each hand played, in order
    cumulative: list[list[float]] = field(default_factory=list)
    # per bot: seconds spent in each decision (view + decide), when timing was asked for
    decision_times: list[list[float]] = field(default_factory=list)
    seconds: float = 0.0

    def mbb_per_hand(self, i: int) -> float:
        xs = self.per_deal[i]
        return 1000.0 * sum(xs) / len(xs) if xs else 0.0

    def ci95(self, i: int) -> float:
        """Half-width of the 95 % interval of :meth:`mbb_per_hand`."""
        xs = self.per_deal[i]
        if len(xs) < 2:
            return math.inf
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
        return 1000.0 * 1.96 * math.sqrt(var / len(xs))

    def table(self) -> list[dict[str, object]]:
        rows: list[dict[str, object]] = [
            {"name": n, "mbb_per_hand": round(self.mbb_per_hand(i), 1),
             "ci95": round(self.ci95(i), 1)}
            for i, n in enumerate(self.names)]
        return sorted(rows, key=lambda r: -float(r["mbb_per_hand"]))  # type: ignore[arg-type]


def labels(names: Sequence[str]) -> list[str]:
    """Unique table names: a second "tag" becomes "tag-2"."""
    out: list[str] = []
    for n in names:
        label = n
        k = 2
        while label in out:
            label = f"{n}-{k}"
            k += 1
        out.append(label)
    return out


def play_hand(
    hand: Hand, bots: Sequence[Bot], times: list[list[float]] | None = None,
    seat_to_bot: Sequence[int] | None = None,
) -> None:
    """Play ``hand`` to the end: each bot decides from its seat's view only."""
    idx = seat_to_bot if seat_to_bot is not None else list(range(hand.n))
    while not hand.done:
        seat = hand.actor
        if seat is None:
            raise BotError(f"hand {hand.hand_id}: nobody to act and the hand is not over")
        t0 = time.perf_counter()
        view = SeatView.of(hand, seat)
        decision = bots[idx[seat]].decide(view)
        if times is not None:
            times[idx[seat]].append(time.perf_counter() - t0)
        assert view.legal is not None
        if not decision.is_legal(view.legal):
            raise BotError(f"hand {hand.hand_id}: {bots[idx[seat]].name} chose "
                           f"{decision.action.describe().en}; legal: {view.legal.summary().en}")
        hand.apply(decision.action, seat)
    for seat in range(hand.n):
        bot = bots[idx[seat]]
        if getattr(bot, "learns", True):
            bot.hand_over(SeatView.of(hand, seat))


def run_match(
    bot_names: Sequence[str],
    hands: int,
    *,
    structure: Structure | str = Structure.NO_LIMIT,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    on_hand: Callable[[Hand], None] | None = None,
    timing: bool = False,
    game: Game = HOLDEM,
    make: BotMaker = _make,
) -> MatchResult:
    """Play at least ``hands`` hands (whole deals: a multiple of the number of bots) of
    ``game`` (hold'em by default)."""
    n = len(bot_names)
    if not 2 <= n <= 9:
        raise ValueError("a match needs 2 to 9 bots, one per seat")
    names = labels(bot_names)
    bots = [make(b, seed * 1000 + i, names[i]) for i, b in enumerate(bot_names)]
    rules = match_rules(structure, game)
    deals = max(1, math.ceil(hands / n))
    total = deals * n
    res = MatchResult(names, per_deal=[[] for _ in range(n)],
                      cumulative=[[] for _ in range(n)],
                      decision_times=[[] for _ in range(n)])
    running = [0.0] * n
    t0 = time.perf_counter()
    played = 0
    for d in range(deals):
        deal_net = [0.0] * n
        deck_seed = seed * 1_000_003 + d
        for r in range(n):
            seat_to_bot = [(s + r) % n for s in range(n)]
            hand = Hand(rules, [STACK_BB * BIG_BLIND] * n, button=n - 1, deck=Deck(deck_seed),
                        names=[names[b] for b in seat_to_bot], auto_showdown=True,
                        hand_id=f"{seed}-{d}-{r}")
            play_hand(hand, bots, res.decision_times if timing else None, seat_to_bot)
            for s, x in enumerate(hand.net()):
                b = seat_to_bot[s]
                deal_net[b] += x / BIG_BLIND
                running[b] += x / BIG_BLIND
            for b in range(n):
                res.cumulative[b].append(running[b])
            played += 1
            if on_hand is not None:
                on_hand(hand)
            if progress is not None:
                progress(played, total)
        for b in range(n):
            res.per_deal[b].append(deal_net[b] / n)
    res.hands = played
    res.deals = deals
    res.seconds = time.perf_counter() - t0
    return res
