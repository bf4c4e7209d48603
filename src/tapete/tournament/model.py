"""The tournament as data: the blind and ante schedule, stacks, breaks, entries and payouts.

A :class:`Schedule` is a list of :class:`Level` values, each lasting some minutes or some
hands (one or the other for the whole schedule), with breaks after some levels. Beyond the
last level the blinds keep doubling, each level as long as the last one, so a simulated
tournament always ends. A level applies from the first hand dealt after it starts (TDA: the
new limits apply to the next hand), so the schedule is asked by the time or the hand count at
which a hand starts: no clock is read here.

:class:`TournamentRules` gathers the rest: the starting stack, seats a table, the buy-in,
late registration, re-entries, rebuys and add-ons, and the payouts
(:mod:`tapete.tournament.payouts`). Every table plays no-limit hold'em by the cash game's
rules (:class:`~tapete.core.rules.Rules`), never runs the board twice, and uses a dead button
(:class:`~tapete.core.table.Table`); docs/rules.md, "Tournaments", has the rulings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tapete.core.catalog import t
from tapete.core.rules import Rules, Structure
from tapete.core.text import Text


class TournamentError(ValueError):
    """A tournament that cannot be run as given; ``message`` in English and Spanish."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


@dataclass(frozen=True, slots=True)
class Level:
    """One level: the blinds and the ante (a big-blind ante when the schedule says so)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    length: int = 10  # minutes or hands, as the schedule counts

    def doubled(self) -> Level:
        return Level(2 * self.small_blind, 2 * self.big_blind, 2 * self.ante, self.length)


@dataclass(frozen=True, slots=True)
class Schedule:
    """Levels by ``minutes`` or by ``hands`` (counted at each table: a table's nth hand plays
    the level the nth hand falls in), ``breaks`` as (after level, minutes) pairs (levels
    counted from 1), and whether the ante is a big-blind ante (TDA 2024: the big blind pays
    one ante for the table)."""

    levels: tuple[Level, ...]
    by: str = "hands"
    breaks: tuple[tuple[int, int], ...] = ()
    big_blind_ante: bool = True

    def __post_init__(self) -> None:
        if self.by not in ("hands", "minutes"):
            raise TournamentError(t("levels last a number of hands or of minutes"))
        if not self.levels:
            raise TournamentError(t("a schedule needs at least one level"))
        for lv in self.levels:
            if not (0 <= lv.small_blind <= lv.big_blind and lv.big_blind > 0
                    and lv.ante >= 0 and lv.length > 0):
                raise TournamentError(t("each level needs a big blind, a small blind no larger"
                                        " and a length of at least one"))

    def level(self, index: int) -> Level:
        """The level ``index`` (from 0); beyond the list, the last one doubled each level."""
        if index < len(self.levels):
            return self.levels[index]
        lv = self.levels[-1]
        for _ in range(index - len(self.levels) + 1):
            lv = lv.doubled()
        return lv

    def break_after(self, level: int) -> int:
        """Minutes of the break after level ``level`` (from 1), 0 for none."""
        return sum(m for after, m in self.breaks if after == level)

    def index_at(self, elapsed: int) -> int:
        """The level (from 0) of a hand started after ``elapsed`` hands at its table (levels
        by hands) or ``elapsed`` seconds of play, breaks excluded (levels by minutes)."""
        unit = 1 if self.by == "hands" else 60
        i, end = 0, 0
        while True:
            end += self.level(i).length * unit
            if elapsed < end:
                return i
            i += 1

    def rules(self, index: int) -> Rules:
        """The table rules of level ``index``: no-limit hold'em, its blinds and ante."""
        lv = self.level(index)
        return Rules(structure=Structure.NO_LIMIT, small_blind=lv.small_blind,
                     big_blind=lv.big_blind, ante=lv.ante,
                     big_blind_ante=self.big_blind_ante and lv.ante > 0)


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """Everything a tournament is, but its players.

    ``late_levels``: registration stays open to the end of this level (0: closed at the
    start); ``reentries``: how many times a player knocked out may buy a new entry while it is
    open. ``rebuy_levels``: a player knocked out may buy ``rebuy_chips`` and keep the seat
    until the end of this level (0: no rebuys), at most ``rebuys`` times; an
    add-on of ``add_on_chips`` (0: none) may be bought once by each player at the end of the
    rebuy period. Each purchase costs ``buy_in`` and goes into the prize pool.
    ``payouts``: None for the standard table by field size
    (:func:`tapete.tournament.payouts.standard`), or a custom one: each paid place's share in
    basis points, first place first, adding up to 10,000. ``deal_players``: with this many
    players left, all of them in the money, a deal is offered (0: never)."""

    schedule: Schedule
    starting_stack: int = 10_000
    seats: int = 9
    buy_in: int = 100
    late_levels: int = 0
    reentries: int = 0
    rebuy_levels: int = 0
    rebuys: int = 0
    rebuy_chips: int = 0
    add_on_chips: int = 0
    payouts: tuple[int, ...] | None = None
    deal_players: int = 0
    deal: str = "icm"
    extra: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= 10:
            raise TournamentError(t("a table has 2 to 10 seats"))
        if self.starting_stack <= 0 or self.buy_in < 0:
            raise TournamentError(t("the starting stack must be positive and the buy-in not"
                                    " negative"))
        if self.payouts is not None and (sum(self.payouts) != 10_000 or any(
                b > a for a, b in zip(self.payouts, self.payouts[1:], strict=False))
                or any(x < 0 for x in self.payouts)):
            raise TournamentError(t("custom payouts are basis points, first place first, never"
                                    " growing, adding up to 10,000"))
        if self.deal not in ("icm", "chip"):
            raise TournamentError(t("a deal is an ICM deal or a chip chop"))

    def rebuy_open(self, level: int) -> bool:
        """Rebuys may be bought during level ``level`` (from 0)."""
        return self.rebuys > 0 and self.rebuy_chips > 0 and level < self.rebuy_levels

    def registration_open(self, level: int) -> bool:
        return level < self.late_levels


def fast_schedule(by: str = "hands", length: int = 8) -> Schedule:
    """A short schedule for simulations and tests: 15 levels of ``length`` hands (or minutes)
    from 25/50 with a big-blind ante from the third, for stacks of 5,000 or so (100 big
    blinds)."""
    blinds = [(25, 50, 0), (50, 100, 0), (75, 150, 150), (100, 200, 200), (150, 300, 300),
              (200, 400, 400), (300, 600, 600), (400, 800, 800), (500, 1000, 1000),
              (700, 1400, 1400), (1000, 2000, 2000), (1500, 3000, 3000), (2000, 4000, 4000),
              (3000, 6000, 6000), (4000, 8000, 8000)]
    return Schedule(tuple(Level(sb, bb, a, length) for sb, bb, a in blinds), by=by,
                    breaks=((4, 5), (8, 5)) if by == "minutes" else ())


def parse_levels(text: str, by: str = "hands") -> Schedule:
    """"25/50 50/100 100/200/200" with a length: "25/50/0x10" (ten hands or minutes);
    the ante is a big-blind ante."""
    levels: list[Level] = []
    for word in text.replace(",", " ").split():
        body, _, length = word.partition("x")
        parts = body.split("/")
        try:
            nums = [int(x) for x in parts]
            n = int(length) if length else 10
        except ValueError:
            raise TournamentError(t("a level is small blind/big blind[/ante][xlength], as"
                                    " 50/100/100x10: not {level}", level=word[:30])) from None
        if len(nums) not in (2, 3):
            raise TournamentError(t("a level is small blind/big blind[/ante][xlength], as"
                                    " 50/100/100x10: not {level}", level=word[:30]))
        levels.append(Level(nums[0], nums[1], nums[2] if len(nums) == 3 else 0, n))
    return Schedule(tuple(levels), by=by)


__all__: Sequence[str] = ("Level", "Schedule", "TournamentError", "TournamentRules",
                          "fast_schedule", "parse_levels")
