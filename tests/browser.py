"""What the browser tests share: the system Chromium driven by Playwright, and the app served
on a free localhost port in a thread.

Playwright never downloads a browser: Debian's /usr/bin/chromium (or $TAPETE_CHROMIUM) is
launched by path. Without it the browser tests are skipped on a developer's machine, but fail
under CI, where scripts/test.sh installs it.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

CHROMIUM = os.environ.get("TAPETE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


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
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


@contextmanager
def chromium(playwright_sync: Any, artifacts: Path) -> Iterator[Any]:
    artifacts.mkdir(parents=True, exist_ok=True)
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
