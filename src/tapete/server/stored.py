"""A hand of a player's stored hands (the practice table's and the room's): the row's form,
the row made from a finished hand (:func:`hand_row`), and the hand rebuilt from it.

A row holds the hand's rules (:meth:`Rules.to_json`, every field), its setup
(:meth:`HandSetup.to_json` without the rules, which have their own column, plus ``you``: the
person's player number) and its events. Rows stored before the setup was one codec (no
``straddles`` field: no straddle was ever posted at the practice table) are read as they were.
"""

from __future__ import annotations

from typing import Any

from tapete.core import events as ev
from tapete.core import view
from tapete.core.cards import format_cards
from tapete.core.fair import FairDeal
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.server.storage import HandRow


def stored_setup(hand: Hand, you: int | None, deal: FairDeal | None = None
                 ) -> dict[str, Any]:
    """The setup column of a stored hand: lossless, the rules aside; ``fair``: the hand's
    fair deal, revealed (:meth:`FairDeal.to_json <tapete.core.fair.FairDeal.to_json>`)."""
    setup = hand.setup.to_json()
    del setup["rules"]
    out = {**setup, "you": you}
    if deal is not None:
        out["fair"] = deal.to_json()
    return out


def fair_deal(row: HandRow) -> FairDeal | None:
    """The stored hand's fair deal as stored (the commitment as published, not computed
    again: :func:`tapete.core.fair.verify` checks it), None for a hand dealt without one."""
    texts = row.setup.get("fair")
    if not isinstance(texts, dict):
        return None
    return FairDeal.from_json(texts)


def hand_row(hand: Hand, you: int, *, player_id: str, session: str, number: int,
             played_at: float, structure: str, breakdown: dict[str, str],
             row_id: str | None = None, deal: FairDeal | None = None) -> HandRow:
    """The stored row of a finished hand for the player at hand seat ``you``: its events
    (rebuilt for the player, the cards they never saw stay hidden), their net, and the
    summary the hand lists show. ``row_id``: the row's key when one hand is stored for
    several people (a room table's), else the hand's id."""
    mine = view.hole_seen(hand, view.Viewer.export(you), you)
    net = hand.net()[you]
    summary: dict[str, Any] = {
        "hand_id": row_id or hand.hand_id, "number": number, "net": net,
        "cards": format_cards(mine, " ") if mine else "",
        "board": format_cards(hand.board, " "), "pot": sum(r.amount for r in hand.results),
        "breakdown": breakdown, "played_at": played_at, "structure": structure,
        "blinds": [hand.rules.small_blind, hand.rules.big_blind],
    }
    return HandRow(hand_id=row_id or hand.hand_id, player_id=player_id, session=session,
                   number=number, played_at=played_at, rules=hand.rules.to_json(),
                   setup=stored_setup(hand, you, deal), events=[ev.to_json(e) for e in hand.events],
                   net=net, summary=summary)


def setup_of(row: HandRow) -> HandSetup:
    """The stored hand's setup, from either form of the row."""
    setup = {k: v for k, v in row.setup.items() if k not in ("you", "fair")}
    if "straddles" not in setup:  # an older row: blinds, antes, dead; no straddles
        setup["straddles"] = [0] * len(setup["stacks"])
    return HandSetup.from_json({**setup, "rules": row.rules})  # older rules: fields left out


def rebuild(row: HandRow, for_player: bool = True) -> Hand:
    """A stored hand, replayed from its events; the cards the player never saw stay hidden."""
    you = row.setup.get("you")
    events = [ev.from_json(e) for e in row.events]  # first: a bad event says what it is
    setup = setup_of(row)
    if for_player:
        events = view.events_seen(events, view.Viewer.replayer(you), finished=True)
    return Hand.from_events(setup.rules, setup.stacks, events, **setup.hand_args())
