"""The clock a table's timers read, injectable: tests move a :class:`ManualClock` by hand
and never sleep. Time is whole milliseconds."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds on a clock that never goes back."""
        ...


class SystemClock:
    """The machine's monotonic clock."""

    def now_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000


class ManualClock:
    """A clock that moves only when told to (tests, simulations)."""

    def __init__(self, start_ms: int = 0) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        if ms < 0:
            raise ValueError("a clock does not go back")
        self.ms += ms
