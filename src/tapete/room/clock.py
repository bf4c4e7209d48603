"""The clock a table's timers read, injectable: tests move a :class:`ManualClock` by hand
and never sleep. Time is whole milliseconds.

Two readings: :meth:`Clock.now_ms`, a clock that never goes back (the timers' durations),
and :meth:`Clock.wall_ms`, Unix time, which the table stamps on its records: after a restart
the timers' deadlines are worked out again from those stamps (how long ago a turn began, a vote
opened, a hand ended), on the new process's clock."""

from __future__ import annotations

import time
from typing import Protocol

# where a ManualClock's wall time starts by default (a Unix time, as the records' stamps are)
WALL_START_MS = 1_700_000_000_000


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds on a clock that never goes back."""
        ...

    def wall_ms(self) -> int:
        """Unix time in milliseconds (what the table's records are stamped with)."""
        ...


class SystemClock:
    """The machine's monotonic clock, and its wall clock."""

    def now_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000

    def wall_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that moves only when told to (tests, simulations). Its wall time moves with
    it, ``wall_offset_ms`` ahead: a test restarts a table on a new clock (a new process)
    whose monotonic reading starts elsewhere and whose wall time goes on from the old one's."""

    def __init__(self, start_ms: int = 0, wall_offset_ms: int | None = None) -> None:
        self.ms = start_ms
        self.wall_offset_ms = WALL_START_MS if wall_offset_ms is None else wall_offset_ms

    def now_ms(self) -> int:
        return self.ms

    def wall_ms(self) -> int:
        return self.ms + self.wall_offset_ms

    def advance(self, ms: int) -> None:
        if ms < 0:
            raise ValueError("a clock does not go back")
        self.ms += ms

    def restarted(self, start_ms: int = 0, later_ms: int = 0) -> ManualClock:
        """The clock of a new process ``later_ms`` after this one's now: its monotonic time
        starts at ``start_ms``, its wall time goes on."""
        return ManualClock(start_ms, self.wall_ms() + later_ms - start_ms)
