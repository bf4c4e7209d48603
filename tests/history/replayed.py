"""The tests' way to replay a record to its end: the path every surface takes
(:func:`tapete.history.replay.replay`), asserting it was legal and finished."""

from __future__ import annotations

from tapete.core.hand import Hand
from tapete.history.record import HandRecord
from tapete.history.replay import replay


def play(record: HandRecord) -> Hand:
    """A record replayed to its end; a replay error or a hand left unfinished fails the test."""
    res = replay(record)
    assert res.error is None and not res.partial, res.error or res.note
    assert res.engine is not None and res.engine.done
    return res.engine
