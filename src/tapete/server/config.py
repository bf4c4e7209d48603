"""Settings of the practice room: where data lives, how fast the bots and the clock run."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path


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

    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{self.data_dir / 'tapete.sqlite3'}"
