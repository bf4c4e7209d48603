"""The tournament rulings as pure functions, one implementation each, shared by the lockstep
:class:`~tapete.tournament.director.Director` and the asynchronous
:class:`~tapete.tournament.live.LiveTournament` (docs/rules.md, "Tournaments").

A table is seen through :class:`TableView`: its seats (None or a seat with ``chips`` and
``sitting_out``) and the seat of the last big blind. A core :class:`~tapete.core.table.Table`
is one; the live director keeps a light copy of each room table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from tapete.core.catalog import t
from tapete.tournament import deals, payouts
from tapete.tournament.model import TournamentError


class SeatView(Protocol):
    @property
    def chips(self) -> int: ...

    @property
    def sitting_out(self) -> bool: ...


class TableView(Protocol):
    @property
    def seats(self) -> Sequence[SeatView | None]: ...

    @property
    def big_blind_seat(self) -> int | None: ...


def next_big_blind(table: TableView) -> int | None:
    """The seat due the big blind next hand (dead button: the first player after the last big
    blind), None before the table's first hand."""
    bb = table.big_blind_seat
    n = len(table.seats)
    ready = [i for i, s in enumerate(table.seats) if s is not None and s.chips > 0
             and not s.sitting_out]
    if bb is None or not ready:
        return None
    return min(ready, key=lambda x: (x - bb - 1) % n)


def worst_seat(table: TableView, rng: random.Random) -> int:
    """The worst position of ``table`` for a player moved in to balance: the empty seat the
    big blind reaches first, never the last big blind's seat (the small blind's, next hand).
    Before the table's first hand, any empty seat (drawn)."""
    bb = table.big_blind_seat
    n = len(table.seats)
    empty = [i for i, s in enumerate(table.seats) if s is None and i != bb]
    if not empty:
        raise TournamentError(t("no free seat at the table"))
    if bb is None:
        return rng.choice(empty)
    return min(empty, key=lambda x: (x - bb - 1) % n)


def seat_draw(players: int, seats: int, rng: random.Random
              ) -> tuple[int, list[tuple[int, int]]]:
    """The seat draw: as few tables as hold ``players`` (numbered from 1), filled evenly (the
    lower numbers take the odd players), the seats of each drawn. Returns the number of
    tables and one (table, seat) card per player, shuffled: the nth player takes the nth."""
    count = math.ceil(players / seats)
    sizes = [players // count + (1 if k < players % count else 0) for k in range(count)]
    cards = [(k + 1, s) for k, size in enumerate(sizes)
             for s in sorted(rng.sample(range(seats), size))]
    rng.shuffle(cards)
    return count, cards


def places(group: Sequence[tuple[str, int]], left_before: int) -> list[tuple[str, int, int]]:
    """Places for players knocked out together (``group``: name and stack when the hand
    started), ``left_before`` players being in before it: the larger starting stack higher,
    equal stacks tied. Returns (name, place, how many tied), best place first."""
    place = left_before - len(group) + 1  # the best place the group takes
    out: list[tuple[str, int, int]] = []
    by_stack = sorted(group, key=lambda x: -x[1])
    i = 0
    while i < len(by_stack):
        same = [x for x in by_stack[i:] if x[1] == by_stack[i][1]]
        out += [(name, place, len(same)) for name, _ in same]
        place += len(same)
        i += len(same)
    return out


def hand_for_hand(tables: int, open_: bool, paid: int, left: int) -> bool:
    """Hand-for-hand: on the bubble (one player more than the places paid), with more than one
    table, once entries can no longer change the pool."""
    return tables > 1 and not open_ and paid < left <= paid + 1


def break_due(tables: int, left: int, seats: int) -> bool:
    """A table breaks when the players left fit in one table less."""
    return tables > 1 and left <= (tables - 1) * seats


def break_order(tables: Sequence[int]) -> list[int]:
    """The tables in the order they break: the highest number first."""
    return sorted(tables, reverse=True)


def break_cards(sizes: Mapping[int, int], free: Mapping[int, Sequence[int]], movers: int,
                rng: random.Random) -> list[tuple[int, int]]:
    """The seat cards a broken table's ``movers`` players draw: (table, seat) among the
    ``free`` seats of the tables left (their ``sizes``), so that they end as even as can be
    (the fuller tables take the extra players first, the lower number on a tie)."""
    total = sum(sizes.values()) + movers
    order = sorted(sizes, key=lambda k: (-sizes[k], k))
    base, extra = divmod(total, len(order))
    cards: list[tuple[int, int]] = []
    for j, k in enumerate(order):
        want = base + (1 if j < extra else 0) - sizes[k]
        seats = list(free[k])
        cards += [(k, i) for i in rng.sample(seats, max(0, min(want, len(seats))))]
    rng.shuffle(cards)
    assert len(cards) >= movers  # the even targets leave room for all of them
    return cards[:movers]


def balance_pair(sizes: Mapping[int, int], movable: set[int] | None = None
                 ) -> tuple[int, int] | None:
    """The balancing move due, (from table, to table), or None: from the fullest table (the
    one that breaks sooner on a tie) to the shortest (the one that breaks later on a tie),
    when they differ by more than one player. ``movable``: the tables a player may be moved
    from now (between hands); a fullest table that is not is left for later."""
    if len(sizes) < 2:
        return None
    rank = {k: j for j, k in enumerate(break_order(list(sizes)))}  # 0: breaks first
    short = min(sizes, key=lambda k: (sizes[k], -rank[k]))
    candidates = [k for k in sizes if movable is None or k in movable]
    if not candidates:
        return None
    top = max(sizes.values())
    full = min(candidates, key=lambda k: (-sizes[k], rank[k]))
    if sizes[full] < top or sizes[full] - sizes[short] <= 1:
        return None
    return full, short


def deal_amounts(kind: str, stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The deal of ``kind`` for the players left (``stacks``), over the prizes of their
    places."""
    return deals.offer(kind, stacks, prizes)


def deal_due(deal_players: int, left: int, offered: set[int], open_: bool,
             prizes: Sequence[int]) -> bool:
    """A deal is offered once for each number of players left, at ``deal_players`` or fewer,
    when everyone left is in the money and the pool is settled."""
    if not deal_players or left > deal_players or left in offered or open_:
        return False
    return all_paid(left, prizes)


def all_paid(left: int, prizes: Sequence[int]) -> bool:
    """Whether each of the ``left`` players still in is in the money (``prizes``: the prize of
    each place, first place first)."""
    mine = list(prizes[:left])
    return len(mine) == left and all(x > 0 for x in mine)


def may_propose(left: int, prizes: Sequence[int], most: int = 3) -> bool:
    """Whether a player may propose a deal (the practice sit-and-go): two to ``most`` players
    left, every one of them in the money (docs/rules.md, "Deals")."""
    return 2 <= left <= most and all_paid(left, prizes)


def prize_list(pool: int, entries: int, players: int, custom: Sequence[int] | None
               ) -> list[int]:
    """The prize of each place 1..``players``, from ``pool`` (0 past the paid places)."""
    if custom is not None and len(custom) > players:  # more places than players: scaled
        kept = custom[:players]
        table = payouts.allocate(pool, [Fraction(x, sum(kept)) for x in kept])
    else:
        table = payouts.prizes(pool, min(entries, players), custom)
    return table + [0] * (players - len(table))


def awards(finish: Sequence[tuple[str, int]], prizes: Sequence[int],
           deal: Mapping[str, int] | None) -> dict[str, int]:
    """Each player's prize: ``finish`` lists (name, place) in the order they went out (ties
    next to each other, the first of them listed first); players tied for places share their
    prizes (:func:`tapete.tournament.payouts.split`); a deal pays its amounts instead."""
    out: dict[str, int] = {name: 0 for name, _ in finish}
    done: set[int] = set()
    for name, place in finish:
        if deal is not None and name in deal:
            out[name] = deal[name]
            continue
        if not place or place in done:
            continue
        done.add(place)
        tied = [n for n, p in finish if p == place and (deal is None or n not in deal)]
        for n, amount in zip(tied, payouts.split(prizes, place - 1, len(tied)), strict=True):
            out[n] = amount
    return out
