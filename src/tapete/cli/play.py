"""``tapete play``: the practice table in the browser, against five bots.

Starts the local server (Starlette on uvicorn) and opens the browser on the table. Chips and
hands are kept in SQLite in the user's data directory, or in the database ``--database`` names
(``postgresql+psycopg://user:pass@host/db``).

The server answers only to the names of this computer (localhost, 127.0.0.1, [::1]) and to the
address it listens on: a page elsewhere that points a name of its own at this computer (DNS
rebinding) is refused. Served under a name (``--host 0.0.0.0`` behind
``poker.example.org``), each name people type is given with ``--allowed-host``.
"""

from __future__ import annotations

import argparse
import ipaddress
import threading
import webbrowser
from pathlib import Path

from tapete.core.catalog import t
from tapete.core.text import Text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8765, help="port to listen on (8765)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (127.0.0.1: only this computer)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where the SQLite database lives (default: the user's data dir)")
    parser.add_argument("--database", default=None,
                        help="an SQLAlchemy database URL instead of SQLite in --data-dir")
    parser.add_argument("--think", type=float, default=0.6,
                        help="seconds each bot pauses to 'think' (0.6)")
    parser.add_argument("--action-time", type=float, default=20.0,
                        help="seconds you have to act (20), then the time bank")
    parser.add_argument("--time-bank", type=float, default=30.0, help="time bank seconds (30)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a host name the server answers to besides this computer's"
                             " (repeatable; *.example.org for its subdomains)")
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                        help="a reverse proxy whose X-Forwarded-For names the client"
                             " (repeatable; an address or a network: 127.0.0.1, 10.0.0.0/8);"
                             " none by default")
    parser.add_argument("--tables-per-address", type=int, default=30, metavar="N",
                        help="tables one client address may open a day, over every node"
                             " (30; 0: no limit)")
    parser.add_argument("--idle-tables", type=float, default=600.0, metavar="SECONDS",
                        help="close a table that has had no person seated this long (600;"
                             " 0: never)")


def allowed_hosts(host: str, names: list[str]) -> tuple[str, ...] | Text:
    """The Host names the server answers to: this computer's, the address ``--host`` names
    (unless it is every address), and each ``--allowed-host``; or why a name is refused."""
    from tapete.server.config import LOOPBACK_HOSTS

    hosts = list(LOOPBACK_HOSTS)
    if host not in ("", "0.0.0.0", "::"):
        hosts.append(f"[{host}]" if ":" in host else host)
    for name in names:
        name = name.strip().lower()
        wild = name.startswith("*")
        if not name or "*" in name[1:] or (wild and not name.startswith("*.")) or name == "*" \
                or "/" in name or (":" in name and not name.startswith("[")):
            return t("--allowed-host takes a host name (poker.example.org, *.example.org),"
                     " without a port, not {name}", name=repr(name[:60]))
        hosts.append(name)
    return tuple(dict.fromkeys(hosts))


def run(args: argparse.Namespace, room: bool = False) -> int:
    """Serve the practice table (``tapete play``), or the room with it (``tapete serve``:
    the same app; ``room`` only changes the page it points to and says)."""
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from tapete.cli import fail, port_problem
    from tapete.cli.replay import default_lang
    from tapete.server import Settings, create_app, default_data_dir

    lang = default_lang()  # play has no --lang: the locale decides, as for tapete simulate
    hosts = allowed_hosts(args.host, args.allowed_host)
    if isinstance(hosts, Text):
        return fail("play", hosts, lang)
    for proxy in args.trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            return fail("play", t("--trusted-proxy takes an address or a network"
                                  " (10.0.0.0/8), not {name}", name=repr(proxy[:60])), lang)
    # everything that can stop the server is checked before the line that says where it is
    problem = port_problem(str(args.port), args.host)
    if problem is not None:
        return fail("play", problem, lang)
    if args.database is not None:
        try:
            make_url(args.database).get_dialect()
        except (ArgumentError, NoSuchModuleError, ValueError):
            return fail("play", t(
                "--database is not a database URL tapete can open: {url}"
                " (sqlite:///FILE or postgresql+psycopg://user:pass@host/db)",
                url=args.database[:80]), lang)
    data_dir = args.data_dir or default_data_dir()
    if args.database is None and data_dir.exists() and not data_dir.is_dir():
        return fail("play", t("--data-dir {folder} is a file: give a folder",
                              folder=str(data_dir)), lang)
    settings = Settings(
        data_dir=data_dir, database_url=args.database,
        think_delay=args.think, action_time=args.action_time, time_bank=args.time_bank,
        allowed_hosts=hosts, room_on_crash=getattr(args, "on_crash", "resume"),
        freeze_heap=True, warm_workers=True, trusted_proxies=tuple(args.trusted_proxy),
        tables_per_address=max(0, args.tables_per_address), idle_table_s=args.idle_tables)
    several = room and (getattr(args, "redis", None) or getattr(args, "node", None))
    if several:  # a node of a room on several (server/cluster.py)
        from tapete.server.cluster import node_id

        settings.node_id = node_id(args.node)
        settings.redis_url = args.redis
        settings.advertise = args.advertise or f"http://{args.host}:{args.port}"
        settings.lease_s, settings.drain_s = args.lease, args.drain
    try:
        app = create_app(settings)
    except (OSError, RuntimeError, SQLAlchemyError) as exc:  # unreachable server, no driver...
        why = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return fail("play", t("cannot open the database: {why}", why=why), lang)
    host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    url = f"http://{host}:{args.port}/" + ("room" if room else "")

    where = make_url(settings.db_url()).render_as_string(hide_password=True)
    what = "the room" if room else "the practice table"
    print(f"tapete: {what} is at {url}  (data: {where}; Ctrl+C to stop)", flush=True)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    # uvicorn's keepalive pings (a client that does not answer is closed) and frame bound;
    # X-Forwarded-For is the app's to read, from the proxies --trusted-proxy names only
    if not several:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    proxy_headers=False, **settings.limits.uvicorn_options())
        return 0
    from tapete.server.cluster import DrainingServer  # SIGTERM drains the node first

    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            proxy_headers=False, **settings.limits.uvicorn_options())
    DrainingServer(config, lambda: app.state.ownership).run()
    return 0
