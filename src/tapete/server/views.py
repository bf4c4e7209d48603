"""What a page is shown of a hand: the engine's state as data for one viewer.

The engine hands out cards as :class:`~tapete.core.cards.Card` values and the betting answer
as :class:`~tapete.core.betting.Legal`; this module, on the server, writes them the way the
protocol sends them (cards as "As", "Td": ``docs/protocol.md``, ``HandView``). The practice
table and the room tables both show hands through it.
"""

from __future__ import annotations

from typing import Any

from tapete.core.cards import format_card
from tapete.core.hand import Hand, Phase
from tapete.core.rules import Structure
from tapete.core.view import Viewer, cards_seen
from tapete.server.game import last_actions


def hand_view(hand: Hand, viewer: int | None) -> dict[str, Any]:
    """What the hand seat ``viewer`` may see (None: a spectator): the hole cards the
    observer (:mod:`tapete.core.view`) lets it see; each seat's last action on the street (the
    hand in play's and the ended hand's alike); the legal options only for the seat to act,
    with the pot after calling and whether the limit is fixed, as the engine's answer has
    them."""
    lasts = last_actions(hand.n, hand.events)
    seen = cards_seen(hand, Viewer.at(viewer))
    players = []
    for p in range(hand.n):
        hole = seen[p]
        players.append({
            "name": hand.names[p],
            "seat": hand.seats[p],
            "stack": hand.stacks[p],
            "bet": hand.bets[p],
            "total": hand.totals[p],
            "folded": hand.folded[p],
            "all_in": hand.all_in[p],
            "cards": [format_card(c) for c in hole] if hole else None,
            "has_cards": hand.dealt[p] and not hand.folded[p] and p not in hand.mucked,
            "last_action": lasts[p],
        })
    out: dict[str, Any] = {
        "hand_id": hand.hand_id,
        "phase": hand.phase.value,
        "street": hand.street,
        "button": hand.button,
        "players": players,
        "boards": [[format_card(c) for c in b] for b in hand.boards],
        "pot": hand.pot_total(),
        "pots": [{"amount": x.amount, "eligible": list(x.eligible)} for x in hand.pots()],
        "actor": hand.actor,
        "you": viewer,
    }
    if viewer is not None and hand.actor == viewer and hand.phase is Phase.BETTING:
        lg = hand.legal()
        out["legal"] = {
            "fold": lg.fold, "check": lg.check, "call": lg.call, "call_to": lg.call_to,
            "call_all_in": lg.call_all_in,
            "min_to": lg.min_to, "max_to": lg.max_to, "is_bet": lg.is_bet,
            "pot_after_call": lg.pot_after_call,
            "fixed_limit": hand.rules.structure is Structure.FIXED_LIMIT,
            "min_reason": lg.explain_min().to_json(),
            "max_reason": lg.explain_max().to_json(),
        }
    if hand.done:
        out["results"] = [
            {"amount": r.amount, "eligible": list(r.eligible), "winners": list(r.winners),
             "shares": [list(s) for s in r.shares], "rake": r.rake}
            for r in hand.results]
        out["returned"] = list(hand.returned)
        out["net"] = hand.net()
    return out
