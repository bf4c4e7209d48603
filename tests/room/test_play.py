"""Six clients play 500 hands at one room table; every message each receives is checked
(roomfakes.Client): gap-free sequence numbers, no other seat's hole cards before shown, chips
conserved by every hand; the table's books and the bankrolls balance after every hand."""

from __future__ import annotations

from roomfakes import Room

from tapete.core import fair


def test_six_clients_play_500_hands() -> None:
    room = Room(seed=13, timeouts=True)
    while room.table.hand_no < 500 or room.table.hand is not None:
        before = room.table.hand_no
        room.step()
        if room.table.hand is None or room.table.hand_no != before:
            assert room.conserved()
    clients = list(room.clients.values())
    last = room.log.last_seq(room.table.table_id)
    for c in [*clients, room.spectator]:
        assert c.last == last  # every record reached every subscriber
        assert c.hands_ended == 500
    assert room.spectator.seen_hole == 0
    # each player saw exactly its own cards, one pair per hand dealt
    assert sum(c.seen_hole for c in clients) == sum(room.table.dealt.values())
    # somebody showed down: the spectator saw shown cards
    assert any(m["data"].get("event", {}).get("type") == "Shown"
               for m in room.spectator.messages)
    # some ran out of time, were sat out and came back
    timeouts = [r for r in room.log.read(room.table.table_id) if r.kind == "event"
                and r.payload["event"].get("timed_out")]
    assert len(timeouts) > 50
    assert any(r.kind == "sit_in" for r in room.log.read(room.table.table_id))
    # the log reads back the whole history in order, gap-free
    seqs = [r.seq for r in room.log.read(room.table.table_id)]
    assert seqs == list(range(1, last + 1))


def test_the_lobby_summary() -> None:
    room = Room(seed=21, players=3)
    t = room.table
    while t.hand_no < 5 or t.hand is not None:
        room.step()
    info = t.summary()
    pots = [r for r in room.log.read(t.table_id) if r.kind == "event"
            and r.payload["event"]["type"] == "Awarded"]
    total = sum(r.payload["event"]["amount"] for r in pots)
    assert info["taken"] == 3 and info["seats"] == 6 and info["hands"] == 5
    assert info["spectators"] == 1  # the three players' clients are seated, one is not
    assert info["average_pot"] == total // 5 and info["game"] == "nl"
    room.restart()  # rebuilt from the log: the same figures
    assert room.table.summary() == info


def test_pot_limit_omaha_hi_lo_at_a_room_table() -> None:
    """A room table of the PLO8 variant: four cards each, each seen by its seat only, every
    hand's chips conserved, and a restart from the log the same table; some pot split high
    and low between two players."""
    from tapete.room.log import Game, TableConfig

    room = Room(seed=5, config=TableConfig(game=Game.POT_LIMIT, variant="omaha-hi-lo"))
    t = room.table
    assert t.rules.game.name == "omaha-hi-lo"
    while t.hand_no < 40 or t.hand is not None:
        before = t.hand_no
        room.step()
        if t.hand is None or t.hand_no != before:
            assert room.conserved()
    events = [r.payload["event"] for r in room.log.read(t.table_id) if r.kind == "event"]
    dealt = [e for e in events if e["type"] == "HoleDealt"]
    assert dealt and all(len(e["cards"]) == 4 for e in dealt if e.get("cards"))
    assert room.spectator.seen_hole == 0
    lows = {(e["pot"], e["player"]) for e in events if e["type"] == "Awarded"
            and e.get("half") == "low"}
    assert lows
    info = t.summary()
    assert info["variant"] == "omaha-hi-lo" and info["game"] == "pl"
    room.restart()
    assert room.table.summary() == info


def test_every_hand_is_dealt_from_the_deck_committed_before_its_first_card() -> None:
    """Provably fair dealing at a room table (docs/fairness.md): each hand's start record
    publishes the commitment before any card is dealt; its end record reveals the deck and
    the secret, which every client checks against it (roomfakes.Client); and the hand the log
    holds verifies against them, card by card. A deal with one card moved does not."""
    from tapete.core import events as ev
    from tapete.core.setup import HandSetup

    room = Room(seed=8, players=4)
    t = room.table
    while t.hand_no < 20 or t.hand is not None:
        room.step()
    for c in [*room.clients.values(), room.spectator]:
        assert c.revealed == c.hands_ended == 20
    records = room.log.read(t.table_id)
    verified = 0
    for i, r in enumerate(records):
        if r.kind != "start":
            continue
        end = next(x for x in records[i:] if x.kind == "end")
        hand = [x for x in records[i:] if r.seq < x.seq < end.seq and x.kind == "event"]
        first_card = next(x for x in hand if x.payload["event"]["type"] == "HoleDealt")
        assert r.payload["commitment"] and r.seq < first_card.seq
        setup = HandSetup.from_json(r.payload["setup"])
        events = [ev.from_json(x.payload["event"]) for x in hand]
        p = end.payload
        verdict = fair.verify(setup, events, p["deck"], p["secret"], p["commitment"])
        assert verdict.status is fair.Status.VERIFIED, verdict
        moved = p["deck"][2:4] + p["deck"][:2] + p["deck"][4:]  # the first two cards swapped
        wrong = fair.verify(setup, events, moved, p["secret"], p["commitment"])
        assert wrong.status is fair.Status.REJECTED
        verified += 1
    assert verified == 20
