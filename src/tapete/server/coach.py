"""The coach: your equity against the players still in the hand, and the price of a call.

Equity is estimated by Monte Carlo against random hands (the coach does not know the bots'
ranges, and must not know their cards), with the fast scalar evaluator; a few thousand
samples take some milliseconds and run in a worker thread.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import Card, parse_cards
from ..evaluator import evaluate
from ..text import Text


def equity(hole: Sequence[Card], board: Sequence[Card], opponents: int, samples: int,
           seed: int | None = None) -> float:
    """The share of the pot this hand wins on average against ``opponents`` random hands."""
    if opponents < 1:
        return 1.0
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


def advice(view: dict[str, Any], samples: int, seed: int | None = None) -> dict[str, Any]:
    """Equity, pot odds and the equity a call needs, from the player's own view only."""
    me = view["players"][view["you"]]
    if not me["cards"]:
        return {}
    hole = parse_cards(me["cards"])
    board = parse_cards(view["boards"][0]) if view["boards"] and view["boards"][0] else ()
    opponents = sum(1 for i, p in enumerate(view["players"])
                    if i != view["you"] and not p["folded"] and p["has_cards"])
    eq = equity(hole, board, opponents, samples, seed)
    out: dict[str, Any] = {"equity": round(eq * 100, 1), "opponents": opponents}
    legal = view.get("legal")
    if legal and legal.get("call"):
        call = int(legal["call"])
        pot = int(view["pot"])
        need = call / (pot + call)
        out["call"] = call
        out["pot_odds"] = round(need * 100, 1)
        good = eq >= need
        price = Text(f"Pot odds: calling {call:,} to win {pot:,} needs {need:.0%} equity",
                     f"Precio: igualar {call:,} para ganar {pot:,} necesita un {need:.0%}"
                     " de equity".replace(",", "."))
        verdict = (Text(f"; you have about {eq:.0%}: the price is right.",
                        f"; tienes cerca del {eq:.0%}: el precio es bueno.") if good else
                   Text(f"; you have about {eq:.0%}: too expensive against random hands.",
                        f"; tienes cerca del {eq:.0%}: demasiado caro contra manos al azar."))
        out["verdict"] = (price + verdict).to_json()
    return out
