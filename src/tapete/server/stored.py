"""A hand of the practice room's storage, rebuilt from its stored row."""

from __future__ import annotations

from tapete.core import events as ev
from tapete.core.hand import Hand
from tapete.server.game import rules_from_json
from tapete.server.storage import HandRow


def rebuild(row: HandRow, for_player: bool = True) -> Hand:
    """A stored hand, replayed from its events; the cards the player never saw stay hidden."""
    setup = dict(row.setup)
    you = setup.pop("you", None)
    events = [ev.from_json(e) for e in row.events]
    if for_player:
        shown = {e.player for e in events if isinstance(e, ev.Shown)}
        events = [ev.HoleDealt(e.player, None)
                  if isinstance(e, ev.HoleDealt) and e.player != you and e.player not in shown
                  else e for e in events]
    stacks = setup.pop("stacks")
    return Hand.from_events(rules_from_json(row.rules), stacks, events, **setup)
