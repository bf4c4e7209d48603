"""Bot seats: the table plays for its agents (here the project's RandomBot, seeing only its
seat's view); their actions are stored like anyone's, so restore needs no bot."""

from __future__ import annotations

import random

from roomfakes import Client, FakeBank

from tapete.bots.baselines import RandomBot
from tapete.bots.view import SeatView
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.events import Event
from tapete.core.setup import HandSetup
from tapete.room.clock import ManualClock
from tapete.room.log import EventLog, TableConfig
from tapete.room.table import Agent, RoomTable, restore


def bot(seed: int, seen: list[int]) -> Agent:
    player = RandomBot(random.Random(seed))

    def decide(setup: HandSetup, events: list[Event], p: int) -> Action:
        view = SeatView.from_events(setup, events, p)
        seen.append(sum(1 for h in view.holes if h is not None))
        return player.decide(view).action

    return decide


def test_five_bots_and_a_person_play_and_restore_without_bots() -> None:
    log = EventLog()
    players = ["person", *(f"bot-{i}" for i in range(5))]
    bank = FakeBank(dict.fromkeys(players, 10_000))
    seen: list[int] = []
    agents = {f"bot-{i}": bot(i, seen) for i in range(5)}
    decks = random.Random(8)
    table = RoomTable.open(log, TableConfig(bots=True), bank, clock=ManualClock(),
                           deck=lambda: Deck(seed=decks.randrange(2**32)), agents=agents)
    person = Client("person")
    table.subscribe(person)
    for i, p in enumerate(players):
        table.sit(p, f"P{i}", 200)
    while table.hand_no < 30 or table.hand is not None:
        hand = table.hand
        if hand is not None and hand.actor is not None and \
                table.hand_players[hand.actor] == "person":
            table.act("person", person.turn or 0, Action.check_or_call(hand.legal()))
        elif hand is None and (busted := [p for p, s in zip(players, table.table.seats,
                                                            strict=True) if s and not s.chips]):
            table.add_chips(busted[0], 200)
        else:
            table.poll()
    assert seen and set(seen) == {1}  # each bot saw its own cards, nobody else's
    assert person.hands_ended == 30
    again = restore(log, table.table_id, bank, clock=ManualClock())  # no agents given
    assert again.seq == table.seq and again.table_chips() == table.table_chips()
    assert [(s.name, s.chips) if s else None for s in again.table.seats] == \
        [(s.name, s.chips) if s else None for s in table.table.seats]
