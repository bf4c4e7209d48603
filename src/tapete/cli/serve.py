"""``tapete serve``: the room, where people play each other at shared tables, in one app with
the lobby (``/room``), the tables (``/t/ID``), the practice table (``/``) and the replayer.

The same server as ``tapete play``, with the same options; it opens no browser unless asked
(``--browser``). Tables and their hands are kept in SQLite in the data directory, or in the
database ``--database`` names (PostgreSQL: ``postgresql+psycopg://user:pass@host/db``). A table's
every record is stored before anyone is told of it: after a crash, ``tapete serve`` on the same
database resumes each hand where it stood (see ``docs/rules.md``, the room's rulings).
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


def run(args: argparse.Namespace) -> int:
    return play.run(args, room=True)
