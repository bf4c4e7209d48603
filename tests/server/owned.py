"""Whether every command of a room table runs in its owner's task (the table's own rule: one
task calls it, ``TableOwner``): :func:`commands_outside` lists those that did not."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tapete.room.table import RoomTable, TableOwner


@contextmanager
def commands_outside(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """While inside: each command a :class:`RoomTable` runs (its ``_run``, which stores its
    records) is checked to run in the task of the owner of that table; the ones that ran
    anywhere else are listed in the list given (a restore's replay is not a command)."""
    owners: dict[asyncio.Task[Any], TableOwner] = {}
    outside: list[str] = []
    run, command = TableOwner.run, RoomTable._run

    async def owned(self: TableOwner, *args: Any, **kwargs: Any) -> None:
        task = asyncio.current_task()
        assert task is not None
        owners[task] = self
        try:
            await run(self, *args, **kwargs)
        finally:
            owners.pop(task, None)

    def checked(self: RoomTable, *args: Any, **kwargs: Any) -> Any:
        if self._replaying is None:
            try:
                owner = owners.get(asyncio.current_task())  # type: ignore[arg-type]
            except RuntimeError:  # no event loop at all
                owner = None
            if owner is None or owner.table is not self:
                step = getattr(args[0], "__name__", "?")
                what = args[1].get("action", "") if len(args) > 1 else ""
                outside.append(f"{step} {what} at table {self.table_id}")
        return command(self, *args, **kwargs)

    monkeypatch.setattr(TableOwner, "run", owned)
    monkeypatch.setattr(RoomTable, "_run", checked)
    yield outside
