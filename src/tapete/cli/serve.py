"""``tapete serve``: the room, where people play each other at shared tables, in one app with
the lobby (``/room``), the tables (``/t/ID``), the practice table (``/``) and the replayer.

The same server as ``tapete play``, with the same options; it opens no browser unless asked
(``--browser``). Tables and their hands are kept in SQLite in the data directory, or in the
database ``--database`` names (PostgreSQL: ``postgresql+psycopg://user:pass@host/db``). A table's
every record is stored before anyone is told of it: after a crash, ``tapete serve`` on the same
database resumes each hand where it stood (see ``docs/rules.md``, the room's rulings).

On several nodes (``--redis``, or ``--node``): each process is a node of one room over a shared
PostgreSQL (``--database``) and Redis; each table is run by the node holding its lease, a
client that reaches another node is redirected to it, a node that dies has its tables claimed
by the others, and SIGTERM drains a node (no new hands, the hands in play finish, its leases
released) before it exits. See ``server/cluster.py`` and the README.
"""

from __future__ import annotations

import argparse

from tapete.cli import play


def add_arguments(parser: argparse.ArgumentParser) -> None:
    play.add_arguments(parser)
    parser.set_defaults(no_browser=True)
    parser.add_argument("--browser", dest="no_browser", action="store_false",
                        help="open a browser on the lobby")
    parser.add_argument("--on-crash", choices=("resume", "void"), default="resume",
                        help="after a crash, the hand in play at a table goes on (resume, the"
                             " default) or is called off with every chip back (void)")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="several nodes: the Redis they share (redis://host:6379/0)")
    parser.add_argument("--node", default=None, metavar="NAME",
                        help="several nodes: this node's name (default: the host's)")
    parser.add_argument("--advertise", default=None, metavar="URL",
                        help="several nodes: where clients reach this node, for the"
                             " redirects (http://host:port, or a path behind the proxy:"
                             " /node/a); default http://HOST:PORT")
    parser.add_argument("--lease", type=float, default=6.0, metavar="SECONDS",
                        help="several nodes: how long a table's lease lasts unrenewed (6)")
    parser.add_argument("--drain", type=float, default=120.0, metavar="SECONDS",
                        help="several nodes: how long SIGTERM waits for the hands in play"
                             " (120)")


def run(args: argparse.Namespace) -> int:
    return play.run(args, room=True)
