"""What the browser tests share: the system Chromium driven by Playwright, and the app served
on a free localhost port in a thread.

Playwright never downloads a browser: Debian's /usr/bin/chromium (or $TAPETE_CHROMIUM) is
launched by path. Without it the browser tests are skipped on a developer's machine, but fail
under CI, where scripts/test.sh installs it.

Every page and context made from :func:`chromium`'s browser waits up to :data:`WAIT_MS` for
what it waits for (``wait_for_*``, clicks, ``expect``), instead of Playwright's 30 seconds: a
wait returns as soon as its condition holds, and a busy machine may take longer than 30
seconds to get there. A test passes its own ``timeout=`` only for a short try that it expects
to fail now and then (a button gone by the click), never for a condition it needs.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from waiting import bound, wait_for

CHROMIUM = os.environ.get("TAPETE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
WAIT_MS = int(bound() * 1000)  # a page's default wait (waiting.py's bound)


def require_chromium() -> Any:
    """The Playwright sync API, once the system Chromium is known to be there."""
    missing = not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists()
    if os.environ.get("CI") and missing:
        pytest.fail(f"CI must have the system Chromium at {CHROMIUM}", pytrace=False)
    if missing:
        pytest.skip("no system Chromium", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """An ASGI app served by uvicorn on a free port, in a daemon thread."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.port = free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        # ready once uvicorn listens (its startup, the app's lifespan included, is done)
        wait_for(lambda: self.server.started or not self.thread.is_alive(), "the server start")
        assert self.server.started, "the server did not start (its thread ended)"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)  # a daemon thread: what has not ended by then ends with the run

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


class Browser:
    """Playwright's browser, whose new pages and contexts wait up to :data:`WAIT_MS`."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)

    def new_context(self, **kw: Any) -> Any:
        ctx = self.browser.new_context(**kw)
        ctx.set_default_timeout(WAIT_MS)
        ctx.set_default_navigation_timeout(WAIT_MS)
        return ctx

    def new_page(self, **kw: Any) -> Any:
        page = self.browser.new_page(**kw)
        page.context.set_default_timeout(WAIT_MS)  # and its downloads, requests
        page.context.set_default_navigation_timeout(WAIT_MS)
        page.set_default_timeout(WAIT_MS)
        page.set_default_navigation_timeout(WAIT_MS)
        return page


@contextmanager
def chromium(playwright_sync: Any, artifacts: Path) -> Iterator[Any]:
    """The system Chromium, as a :class:`Browser`; ``expect`` waits up to :data:`WAIT_MS`."""
    artifacts.mkdir(parents=True, exist_ok=True)
    playwright_sync.expect.set_options(timeout=WAIT_MS)
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=WAIT_MS)
        yield Browser(b)
        b.close()


# Two animation frames (the page's resize handlers and observers have run), then every finite
# animation and transition running now has finished: the page as it rests.
SETTLE = """async (most) => {
  const frame = () => new Promise((ok) => requestAnimationFrame(() => ok()));
  await frame();
  await frame();
  const running = document.getAnimations().filter((a) => a.playState === 'running'
    && Number.isFinite(a.effect?.getComputedTiming().endTime));
  await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => null))),
                      new Promise((ok) => setTimeout(ok, most))]);
  await frame();
}"""


def settle(page: Any) -> None:
    """Wait for the page to rest after a change of its size or scroll (:data:`SETTLE`)."""
    page.evaluate(SETTLE, WAIT_MS)
