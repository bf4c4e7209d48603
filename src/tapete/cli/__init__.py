"""The ``tapete`` command: one subcommand per module in this package.

Each subcommand module defines ``add_arguments(parser)`` and ``run(args) -> int``; modules are
imported only when their command runs, so ``tapete replay`` never pays for the web stack.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import socket
import sys
from collections.abc import Sequence
from types import ModuleType

from tapete.core.catalog import NC_, t, tc
from tapete.core.text import Text

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("tapete.cli.play", "practise in the browser against five bots"),
    "serve": ("tapete.cli.serve", "run the room: people play each other (and the practice table)"),
    "replay": ("tapete.cli.replay", "replay hand histories (PHH, PokerStars) and check them"),
    "convert": ("tapete.cli.convert", "convert hand histories between PHH and PokerStars text"),
    "equity": ("tapete.cli.equity", "equity of hands or ranges, exact or Monte Carlo"),
    "bench": ("tapete.cli.bench", "measure the evaluator against its peers"),
    "simulate": ("tapete.cli.simulate", "duplicate matches between bots"),
    "tournament": ("tapete.cli.tournament", "a whole multi-table tournament played by bots"),
    "icm": ("tapete.cli.icm", "what tournament stacks are worth in prizes (ICM)"),
    "verify": ("tapete.cli.verify", "check that each hand was dealt from the deck committed to"
                                    " before it (provably fair dealing)"),
}


def fail(command: str, message: Text, lang: str) -> int:
    """A mistake in the command line: one line on stderr, in the user's language; status 2."""
    print(f"tapete {command}: {message.in_lang(lang)}", file=sys.stderr)
    return 2


def output_problem(path: str, option: str) -> Text | None:
    """Why the file that ``option`` names cannot be written, before any work is done (None
    when it can be: the folder it goes in exists and may be written to)."""
    if os.path.isdir(path):
        return t("{option} {path} is a folder: give the name of the file to write",
                 option=option, path=path)
    folder = os.path.dirname(path) or os.curdir
    if not os.path.exists(folder):
        return t("no such folder: {folder} (for {option} {path})", folder=folder,
                 option=option, path=path)
    if not os.path.isdir(folder):
        return t("{folder} is not a folder (for {option} {path})", folder=folder,
                 option=option, path=path)
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        return t("no permission to write {path} ({option})", path=path, option=option)
    return None


# the usual reasons a file cannot be written, by errno: the English is the C library's (what
# ``strerror`` says), the other languages' from the catalogue; any other reason is the
# system's own words
_SYSTEM_REASONS = {
    errno.ENOSPC: NC_("system error", "No space left on device"),
    errno.EACCES: NC_("system error", "Permission denied"),
    errno.EPERM: NC_("system error", "Operation not permitted"),
    errno.ENOENT: NC_("system error", "No such file or directory"),
    errno.EISDIR: NC_("system error", "Is a directory"),
    errno.EROFS: NC_("system error", "Read-only file system"),
}


def write_problem(path: str, exc: OSError) -> Text:
    """Why writing ``path`` failed after all (the disk is full, the folder went away...)."""
    known = _SYSTEM_REASONS.get(exc.errno or 0)
    why = tc(*known) if known else exc.strerror or type(exc).__name__
    return t("cannot write {path}: {why}", path=path, why=why)


def port_problem(port: str, host: str = "127.0.0.1") -> Text | None:
    """Why a local server (``tapete replay --open``, ``tapete play``) cannot listen on ``port``
    of ``host`` (None when it can): not a port number, or taken by another program. Found by
    binding it as the server will, address reuse on (so only a listening socket counts),
    before anything is printed or started."""
    if not port.isdecimal() or not 1 <= int(port) <= 65535:
        return t("--port takes a number from 1 to 65535, not {port}", port=port[:20])
    try:
        family = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, int(port)))
    except OSError as exc:  # socket.gaierror too: an address that is not one
        if exc.errno == errno.EADDRINUSE:
            return t("port {port} is in use (another program, or another tapete): choose"
                     " another with --port", port=port)
        why = exc.strerror or type(exc).__name__
        return t("cannot listen on {host} port {port}: {why}", host=host, port=port, why=why)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tapete", description="Texas Hold'em, refereed exactly.")
    parser.add_argument("--version", action="store_true",
                        help="print the version and how the engine runs (compiled or not)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    available: dict[str, ModuleType] = {}
    wanted = (list(argv) if argv is not None else sys.argv[1:])[:1]
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        if wanted and wanted[0] != name:
            continue
        module = importlib.import_module(module_name)
        module.add_arguments(p)
        available[name] = module
    args = parser.parse_args(argv)
    if args.version:
        import tapete

        print(f"tapete {tapete.__version__} (engine: {tapete.build_kind()})")
        return 0
    if args.command is None:
        parser.print_help()
        return 0
    chosen = available[args.command]
    try:
        return int(chosen.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
