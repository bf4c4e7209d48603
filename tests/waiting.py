"""How the tests wait: for a condition, never for a fixed time, with an upper bound generous
enough for a machine whose cores are busy with other work.

A bound is only there so that a test that can never get there fails with a message rather
than hanging: a test that gets there returns at once, whatever the bound. The environment's
``TAPETE_TEST_TIMEOUT_SCALE`` multiplies every bound (``bound``, ``until``, the browser's
default wait in ``browser.py``): 2 on a machine slower still, 0.25 to find a hang sooner
while debugging.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any

SCALE = float(os.environ.get("TAPETE_TEST_TIMEOUT_SCALE") or 1)
LONG = 120.0  # seconds: the usual bound on a wait for something that should come soon


def bound(seconds: float = LONG) -> float:
    """An upper bound in seconds, scaled by ``TAPETE_TEST_TIMEOUT_SCALE``."""
    return seconds * SCALE


HTTP = bound(60)  # seconds a test's request or connection may take (httpx's own default: 5)


def until(pred: Callable[[], Any], timeout: float = LONG, every: float = 0.05) -> bool:
    """Poll ``pred`` until it is true (True) or ``bound(timeout)`` seconds pass (False, after
    one last look)."""
    end = time.monotonic() + bound(timeout)
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(every)
    return bool(pred())


def wait_for(pred: Callable[[], Any], what: str, timeout: float = LONG,
             every: float = 0.05) -> None:
    """:func:`until`, failing the test with ``what`` (what did not happen) past the bound."""
    assert until(pred, timeout, every), f"{what}: not within {bound(timeout):.0f} s"


async def until_async(pred: Callable[[], Any], timeout: float = LONG,
                      every: float = 0.05) -> bool:
    """:func:`until` inside an event loop (``pred`` may return an awaitable)."""
    end = time.monotonic() + bound(timeout)
    while True:
        got = pred()
        if asyncio.iscoroutine(got) or isinstance(got, asyncio.Future):
            got = await got
        if got:
            return True
        if time.monotonic() >= end:
            return False
        await asyncio.sleep(every)
