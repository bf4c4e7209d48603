"""Settings of the practice room: where data lives, how fast the bots and the clock run, which
host names it answers to and what one connection may cost.

The data directory is private (0700) and so are its files (0600): the database holds every
hole card dealt, and the key that signs the identity cookies is a file of its own there
(:func:`read_key`, :func:`make_key`), made once, never written into the hand database.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tapete.server.transport import Limits

# what a server bound to loopback answers to (any port): DNS rebinding sends another name
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
DB_FILE = "tapete.sqlite3"
KEY_FILE = "cookie.key"
# what tapete keeps in its data directory: a folder holding nothing else is one tapete made
_OURS = (DB_FILE, f"{DB_FILE}-journal", f"{DB_FILE}-wal", f"{DB_FILE}-shm", KEY_FILE)


def default_data_dir() -> Path:
    """The user's data directory for tapete (XDG on Linux, the usual places elsewhere)."""
    env = os.environ.get("TAPETE_DATA_DIR")
    if env:
        return Path(env)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tapete"


@dataclass(slots=True)
class Settings:
    """Everything the server reads at start-up.

    ``think_delay`` is the bots' thinking pause in seconds (tests set 0), ``runout_delay``
    the pause between streets of an all-in run-out, ``action_time`` the seconds a player has
    for each decision and ``time_bank`` the extra seconds spent once that runs out.
    ``idle_pace`` is the least time each bot action and the pause between hands take while
    the person is not dealt in (sitting out, or waiting for the big blind): the bots keep
    playing, as a real room keeps dealing, at a pace the page can follow (a few states a
    second at most, whatever ``think_delay`` says).
    ``deck_seed`` makes the shuffles reproducible (tests only; real play uses the OS's
    secure randomness).
    ``freeze_heap``: once start-up is over, what it made is moved out of the garbage
    collector's sight (``gc.freeze``), and the oldest generation is collected on a schedule
    (see ``app._tend_heap``); the command line's servers set it (a test process that makes
    many apps does not).
    ``warm_workers``: the replayer's and the analysis' worker processes start with the server,
    each loading the equity kernels and the evaluators' tables, so that no request waits for
    a worker to start (:func:`tapete.server.work.start`); the command line's servers set it.
    ``allowed_hosts`` are the names the server answers to (the Host header, and a WebSocket's
    Origin), any port; Starlette's ``TrustedHostMiddleware`` patterns (``*.example.org``).
    The address a request came in on is always one of them (``tapete play --host
    192.168.1.5`` answers at that address). ``limits``: what one WebSocket may cost.
    ``node_id`` and what follows it: the room on several nodes (``server/cluster.py``).

    ``operator_token``: whoever sends it (``Authorization: Bearer TOKEN``) is told of every
    table (``GET /api/room/node``), private ones included; without it (the default, from
    the ``TAPETE_OPERATOR_TOKEN`` environment variable) nobody is. ``trusted_proxies``: the
    addresses (or networks, ``10.0.0.0/8``) of the reverse proxies whose ``X-Forwarded-For``
    names the client; nobody's by default, so a client cannot choose its own address.
    ``tables_per_address``: the tables one client address may open in
    ``tables_window_s`` (and one identity, ``tables_per_identity``), over every node.
    ``idle_table_s``: a table nobody has sat at, or with no person seated, is closed after
    this long (its chips go back to their owners); 0 keeps them.
    """

    data_dir: Path = field(default_factory=default_data_dir)
    database_url: str | None = None
    think_delay: float = 0.6
    runout_delay: float = 1.0
    result_pause: float = 3.0
    action_time: float = 20.0
    time_bank: float = 30.0
    idle_pace: float = 0.6
    deck_seed: int | None = None
    starting_bankroll: int = 10_000
    secret_key: str | None = None
    coach_samples: int = 3000
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    limits: Limits = field(default_factory=Limits)
    room_on_crash: str = "resume"
    freeze_heap: bool = False
    warm_workers: bool = False
    # several nodes (server/cluster.py): this node's id (None: one node, the default), its
    # address as clients reach it (the redirects name it), Redis, the tables' lease, and how
    # long a node that drains waits for its hands to end
    node_id: str | None = None
    advertise: str = ""
    redis_url: str | None = None
    lease_s: float = 6.0
    drain_s: float = 120.0
    operator_token: str | None = field(
        default_factory=lambda: os.environ.get("TAPETE_OPERATOR_TOKEN") or None)
    trusted_proxies: tuple[str, ...] = ()
    tables_per_identity: int = 10
    tables_per_address: int = 30
    tables_window_s: int = 86_400
    idle_table_s: float = 600.0

    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        private_dir(self.data_dir)
        db = self.data_dir / DB_FILE
        private_file(db)
        return f"sqlite:///{db}"

    def key_file(self) -> Path:
        """Where the cookie-signing key lives (an SQLite database's: PostgreSQL keeps it in
        the database, which several processes share)."""
        private_dir(self.data_dir)
        return self.data_dir / KEY_FILE


def _posix_owned(st: os.stat_result) -> bool:
    return os.name == "posix" and st.st_uid == os.getuid()


def private_dir(path: Path) -> None:
    """The data directory, made 0700; an existing one tapete made (nothing else in it) is
    tightened to 0700 too. Elsewhere (``--data-dir`` on a folder with other things in it)
    the folder's mode is the user's business; its tapete files are private anyway."""
    existed = path.is_dir()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = path.stat()
    if _posix_owned(st) and st.st_mode & 0o777 != 0o700 and (
            not existed or all(entry.name in _OURS for entry in path.iterdir())):
        path.chmod(0o700)


def private_file(path: Path) -> None:
    """The file made empty with mode 0600 if it is missing (SQLite's journal files take its
    mode), or tightened to 0600."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        st = path.stat()
        if _posix_owned(st) and st.st_mode & 0o077:
            path.chmod(0o600)


def read_key(path: Path) -> str | None:
    """The key in ``path``, or None if there is no such file. A file another process has
    just made may be empty for a moment: it is read again, for a second at most."""
    for _ in range(50):
        try:
            with open(path, encoding="ascii") as f:
                key = f.read().strip()
                st = os.fstat(f.fileno())
                if _posix_owned(st) and st.st_mode & 0o077:
                    os.fchmod(f.fileno(), 0o600)
        except FileNotFoundError:
            return None
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f"the key file {path} is empty: delete it to make a new key (every"
                       " identity cookie changes) / el archivo de clave {path} está vacío:"
                       " bórralo para crear una clave nueva (cambian todas las cookies de"
                       " identidad)")


def make_key(path: Path, key: str) -> str:
    """Write ``key`` to ``path``, created 0600 and only if it does not exist (O_EXCL: two
    processes starting together agree); the key that is in the file after."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        found = read_key(path)
        assert found is not None
        return found
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
        f.flush()
        os.fsync(f.fileno())
    return key
