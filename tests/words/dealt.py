"""Hands played through the engine's public API for the narrator's tests: every card and
action given, so each sentence is about a real, settled hand."""

from __future__ import annotations

from collections.abc import Sequence

from tapete.core.cards import parse_cards
from tapete.core.hand import Hand, Phase
from tapete.core.rules import Rules


def play(holes: Sequence[str], actions: Sequence[str], boards: Sequence[str], *,
         names: Sequence[str], stacks: Sequence[int] | None = None, rules: Rules | None = None,
         runs: int = 1) -> Hand:
    """Deal ``holes`` (one per player), take ``actions`` in turn ("f", "x" check, "c" call,
    "r 40" raise or bet to 40), deal ``boards`` (flop, turn, river; twice over when ``runs``
    is 2) and show down."""
    n = len(holes)
    h = Hand(rules or Rules(small_blind=1, big_blind=2), list(stacks or [200] * n),
             names=list(names), auto_showdown=True)
    todo = list(actions)
    cards = list(boards)
    while not h.done:
        if h.phase is Phase.BETTING:
            a = todo.pop(0)
            if a == "f":
                h.act("fold", player=h.actor)
            elif a == "x":
                h.act("check", player=h.actor)
            elif a == "c":
                h.act("call", player=h.actor)
            else:
                h.raise_to(int(a.split()[1]), h.actor)
            continue
        need = h.needs_cards()
        assert need is not None, h.phase
        kind, who, _ = need
        if kind == "hole":
            h.deal_hole(who, parse_cards(holes[who]))
        elif runs > 1 and h.betting_over and len(h.boards) == 1:
            h.set_runs(runs)
        else:
            h.deal_board(parse_cards(cards.pop(0)))
    assert not todo and not cards, (todo, cards)
    return h
