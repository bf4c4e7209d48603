"""The coach: your equity against the players still in the hand, and the price of a call.

The coach reads the opponents as the tight-aggressive bot does, from what your seat saw: the
range each one's actions imply this hand (narrowed street by street) and their habits over
the past hands, never their cards. A player who has not acted yet holds the bots' opening
range for that position (wider for a player the reads say is loose), not any two cards; only
the big blind of a pot nobody has raised, who sees the flop for free, plays any two.
Equity against those ranges is a Monte Carlo estimate with the compiled equity kernel; a few
thousand samples take some milliseconds in a worker thread. Without the bots (or a reader), it
falls back to equity against random hands.

The price of a call is the pot odds: the call over the pot after calling, counting only what
the call can win (a short all-in does not win the part of a bet it does not match).

The compiled kernels take a new process about a second to load, and the first run after an
install tens of seconds to compile: :func:`start_warm_up` does it in the background when the
server starts, so that the first advice comes at once.
"""

from __future__ import annotations

import atexit
import random
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tapete.core import events as ev
from tapete.core.cards import Card
from tapete.core.catalog import N_, t
from tapete.core.game import HOLDEM, Game
from tapete.core.hand import Hand
from tapete.core.text import Text
from tapete.ranking import evaluate

if TYPE_CHECKING:
    from tapete.bots import SeatView


class Reader:
    """Reads the opponents from one seat's view: a tight-aggressive bot's ranges and habits,
    fed every finished hand as that seat saw it."""

    def __init__(self, seed: int) -> None:
        from tapete.bots import make_bot

        self.bot: Any = make_bot("tag", seed, label="coach")

    def hand_over(self, hand: Hand, seat: int) -> None:
        from tapete.bots import SeatView

        self.bot.hand_over(SeatView.of(hand, seat))

    @staticmethod
    def view(hand: Hand, seat: int) -> Any:
        """What the seat has seen of the hand (taken while the hand waits for that seat)."""
        from tapete.bots import SeatView

        return SeatView.of(hand, seat)

    def ranges(self, view: Any) -> list[tuple[str, Any, Text]]:
        """(name, weights, words) for each opponent still in the hand, from a seat's view: the
        range their actions imply, or for one who has not acted yet the opening range of their
        position (as the bots open), widened by how loose they have played; the big blind of a
        pot nobody has raised checks any two cards."""
        from tapete.bots import ranges as R
        from tapete.bots.seats import open_width, position_name

        board = tuple(view.board)
        acted = {a.player for a in view.actions}
        raised = any(a.action in (ev.BET, ev.RAISE) for a in view.actions)
        out = []
        for p in view.opponents():
            if p in acted or view.all_in[p]:  # all-in posting a blind: any two cards
                weights = self.bot.opponent_range(view, p)
                out.append((view.names[p], weights, R.range_words(weights, board)))
                continue
            where = position_name(view, p)
            if not raised and view.bets[p] == max(view.bets):
                # the big blind of a pot nobody raised: it checks, and sees the flop with
                # any two cards (as the bots do), whatever it would open elsewhere
                out.append((view.names[p], R.full_range(), t(
                    "yet to act: any two cards, as {position} sees the flop free if nobody"
                    " raises", position=where)))
                continue
            stats = self.bot.stats.get(view.names[p])
            loose = stats.looseness() if stats is not None else 1.0
            weights = R.top_range(min(1.0, open_width(view, p) * loose))
            pct = round(100 * float(weights.sum()) / R.N_COMBOS)
            out.append((view.names[p], weights, t(
                "yet to act: about {pct} % of hands, an opening range from {position}", pct=pct,
                position=where)))
        return out


def range_equity(hole: Sequence[Card], board: Sequence[Card], weights: Sequence[Any],
                 samples: int, seed: int | None = None) -> float:
    """The share of the pot ``hole`` wins against one hand from each opponent's range."""
    from tapete.bots import ranges as R

    return R.equity(tuple(hole), tuple(board), list(weights), samples, random.Random(seed))


def equity(hole: Sequence[Card], board: Sequence[Card], opponents: int, samples: int,
           seed: int | None = None, game: Game = HOLDEM) -> float:
    """The share of the pot this hand wins on average against ``opponents`` random hands
    of ``game`` (hold'em by default; in a high-low game a half for the best high and a half
    for the best low, the high taking all when no low qualifies)."""
    if opponents < 1:
        return 1.0
    if game != HOLDEM:
        return _game_equity(hole, board, opponents, samples, seed, game)
    rng = random.Random(seed)
    used = set(hole) | set(board)
    rest = [c for c in range(52) if c not in used]
    need_board = 5 - len(board)
    draw = need_board + 2 * opponents
    mine = tuple(hole)
    base = tuple(board)
    won = 0.0
    sample = rng.sample
    for _ in range(samples):
        cards = sample(rest, draw)
        full = base + tuple(cards[:need_board])
        me = evaluate(mine + full)
        best = me
        ties = 1
        lost = False
        k = need_board
        for _o in range(opponents):
            s = evaluate((cards[k], cards[k + 1]) + full)
            k += 2
            if s > best:
                lost = True
                break
            if s == best:
                ties += 1
        if not lost:
            won += 1.0 / ties
    return won / samples


def _game_equity(hole: Sequence[Card], board: Sequence[Card], opponents: int, samples: int,
                 seed: int | None, game: Game) -> float:
    """:func:`equity` for Omaha and its hi-lo form, on the bulk Omaha evaluator: every
    sampled deal's hands ranked in one call."""
    import numpy as np

    from tapete.ranking.omaha_bulk import evaluate_omaha_hilo_many

    rng = random.Random(seed)
    used = set(hole) | set(board)
    rest = [c for c in range(52) if c not in used]
    k, need = game.hole_cards, game.board_cards - len(board)
    players = opponents + 1
    holes = np.empty((samples, players, k), dtype=np.uint8)
    boards = np.empty((samples, players, game.board_cards), dtype=np.uint8)
    for i in range(samples):
        cards = rng.sample(rest, need + k * opponents)
        boards[i, :] = (*board, *cards[:need])
        holes[i, 0] = hole
        holes[i, 1:] = np.asarray(cards[need:], dtype=np.uint8).reshape(opponents, k)
    high, low = evaluate_omaha_hilo_many(holes.reshape(-1, k),
                                         boards.reshape(-1, game.board_cards))
    high = high.reshape(samples, players).astype(np.int64)
    won_high = high[:, 0] == high.max(axis=1)
    share_high = won_high / (high == high.max(axis=1, keepdims=True)).sum(axis=1)
    if not game.high_low:
        return float(share_high.mean())
    low = low.reshape(samples, players).astype(np.int64)
    best_low = low.max(axis=1)
    won_low = (low[:, 0] == best_low) & (best_low > 0)
    share_low = won_low / np.maximum(1, (low == best_low[:, None]).sum(axis=1))
    split = best_low > 0  # a low qualifies: each half is won on its own
    share = np.where(split, (share_high + share_low) / 2, share_high)
    return float(share.mean())


def winnable(view: SeatView, call: int) -> int:
    """The pot that calling ``call`` plays for: everything in it, but from each player no more
    than the caller will have put in (the rest of a bigger bet is not the caller's to win)."""
    me = view.seat
    cap = view.totals[me] + call
    return sum(x if p == me else min(x, cap) for p, x in enumerate(view.totals))


def advice(view: SeatView, samples: int, seed: int | None = None,
           ranges: Sequence[tuple[str, Any, Text]] | None = None) -> dict[str, Any]:
    """Equity, pot odds and the equity a call needs, from the player's own view only (the
    engine's :class:`~tapete.bots.SeatView`, never the page's strings): against the
    opponents' read ``ranges`` (see :class:`Reader`) when given, else against random hands."""
    if not view.hole:
        return {}
    hole, board = view.hole, view.board
    opponents = sum(1 for p in range(view.n) if p != view.seat and not view.folded[p])
    game = view.rules.game
    # the read ranges are hold'em's two-card hands: another game's equity is against random
    # hands of that game
    read = bool(ranges) and len(ranges or ()) == opponents and game == HOLDEM
    if read and ranges:
        eq = range_equity(hole, board, [w for _, w, _ in ranges], samples, seed)
        against = t("against their likely ranges")
    else:
        eq = equity(hole, board, opponents, samples, seed, game)
        against = t("against random hands")
    out: dict[str, Any] = {"equity": round(eq * 100, 1), "opponents": opponents,
                           "against": against.to_json()}
    if read and ranges:
        out["ranges"] = [{"name": name, "words": words.to_json()} for name, _, words in ranges]
    legal = view.legal
    if legal is not None and legal.call:
        call = legal.call
        pot = winnable(view, call)
        need = call / (pot + call)
        out["call"] = call
        out["pot_odds"] = round(need * 100, 1)
        good = eq >= need
        # the amounts written as numbers of each language ("1,500" / "1.500"), the shares
        # as percentages
        if good:
            verdict = N_("Pot odds: calling {call} to win {pot} needs {need} equity; you have"
                         " about {equity} {against}: the price is right.")
        else:
            verdict = N_("Pot odds: calling {call} to win {pot} needs {need} equity; you have"
                         " about {equity} {against}: too expensive.")
        shares = {"need": f"{need:.0%}", "equity": f"{eq:.0%}"}
        out["verdict"] = t(verdict, call=call, pot=pot, against=against, **shares).to_json()
    return out


def warm_up(stop: threading.Event | None = None) -> float:
    """Load everything the coach's first answer needs (the bots' reader and the compiled
    Monte Carlo and ranking kernels, which the bots' own decisions use too; the first time
    after an install, compile and cache them), so that the answer takes milliseconds rather
    than seconds. Between steps it gives up once ``stop`` is set. Returns the seconds it took."""
    start = time.perf_counter()
    from tapete.bots import make_bot
    from tapete.eval import equity as kernels
    from tapete.ranking import bulk

    steps = (lambda: make_bot("tag", 0),
             lambda: kernels.warm_up(exact=False),  # Monte Carlo only: the coach never enumerates
             bulk.warm_up)
    for step in steps:
        if stop is not None and stop.is_set():
            break
        step()
    return time.perf_counter() - start


_warming: threading.Thread | None = None
_warming_lock = threading.Lock()
_stop_warming = threading.Event()


def start_warm_up() -> threading.Thread:
    """Run :func:`warm_up` in a background thread, once per process (later calls return the
    same thread); returns at once. Advice asked for meanwhile waits for the kernels it needs
    (numba compiles each once, whoever asks first). A process that exits meanwhile first lets
    the warm-up finish the step it is in: killed inside the compiler, it would abort."""
    global _warming
    with _warming_lock:
        if _warming is None:
            _warming = threading.Thread(target=warm_up, args=(_stop_warming,),
                                        name="tapete-coach-warm-up", daemon=True)
            atexit.register(_finish_warm_up, _warming)
            _warming.start()
        return _warming


def _finish_warm_up(thread: threading.Thread) -> None:
    _stop_warming.set()
    thread.join()
