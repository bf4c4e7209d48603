"""``tapete replay FILE --open``: the practice room's server on a local port, with the files
loaded in its replayer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapete.history.formats import decode as decode_bytes
from tapete.server.replayer import preload


def open_files(paths: Sequence[str], *, port: int = 0, host: str = "127.0.0.1",
               browser: bool = True, data_dir: str | None = None) -> int:
    """``tapete replay FILE --open``: start the practice room's server on a free local port
    with the files loaded, open the browser on the first, serve until Ctrl+C."""
    import socket
    import sys

    import uvicorn

    app, urls = prepare(paths, data_dir=data_dir)
    if not urls:
        print("tapete: no file to open", file=sys.stderr)
        return 1
    if not port:
        with socket.socket() as s:
            s.bind((host, 0))
            port = int(s.getsockname()[1])
    base = f"http://{'localhost' if host == '127.0.0.1' else host}:{port}"
    for url in urls:
        print(f"tapete: replaying at {base}{url}  (Ctrl+C to stop)")
    if browser:
        _open_browser(base + urls[0])
    uvicorn.run(app, host=host, port=port, log_level="warning",
                **app.state.settings.limits.uvicorn_options())
    return 0


def _open_browser(url: str) -> None:
    import threading
    import webbrowser

    threading.Timer(1.0, webbrowser.open, args=(url,)).start()


def prepare(paths: Sequence[str], *, data_dir: str | None = None) -> tuple[Any, list[str]]:
    """The app with the files preloaded, and the page path of each file."""
    import os
    import sys
    from pathlib import Path

    from tapete.server.app import create_app
    from tapete.server.config import Settings

    settings = Settings(data_dir=Path(data_dir)) if data_dir else Settings()
    app = create_app(settings)
    urls: list[str] = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            print(f"tapete: cannot read {path}: {exc}", file=sys.stderr)
            continue
        urls.append(preload(app, os.path.basename(path), decode_bytes(data)))
    return app, urls
