"""The practice room: a Starlette app serving the table page, a WebSocket per browser tab and
an asyncio task per table. ``create_app(Settings(...))`` builds it; ``tapete play`` runs it."""

from __future__ import annotations

from tapete.server.app import create_app
from tapete.server.config import Settings, default_data_dir

__all__ = ["Settings", "create_app", "default_data_dir"]
