"""The hand's story told as it grows (:class:`tapete.words.Narration`): after every event, the
lines kept and added are the lines told afresh from the first event, byte for byte, in both
languages; none dropped, none said twice (issue 30, point 8)."""

from __future__ import annotations

import random

import msgspec
import pytest
from dealt import play
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import play_setup, setup_st
from tapete import words
from tapete.core import events as ev
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.core.text import Text
from tapete.words import lines as narrator

_ENC = msgspec.json.Encoder()


def _json(lines: list[Text]) -> list[dict[str, str]]:
    return [x.to_json() for x in lines]


def _follow(setup: HandSetup, played: Hand, names: tuple[str, ...] | None = None) -> None:
    """Fold ``played``'s events one by one into a hand of the same setup, and after each
    compare the story kept (and its JSON) with the story told afresh."""
    hand = Hand(setup.rules, setup.stacks, _record=False, **setup.hand_args())
    for k, e in enumerate(played.events, 1):
        hand.apply_unchecked(e)
        afresh = _json(words.told_afresh(hand, names=names))
        assert _json(words.narration(hand, names).lines) == afresh, (k, e)
        if names is None:
            assert _json(words.log_lines(hand)) == afresh, (k, e)
            assert words.log_json(hand, _ENC.encode) == _ENC.encode(afresh), (k, e)
    story = words.narration(hand, names)
    for k in range(len(hand.events) + 1):  # the first k events' story (the replayer's)
        assert _json(story.upto(k)) == \
            _json(words.told_afresh(hand, hand.events[:k], names=names)), k


@settings(max_examples=60, deadline=None)
@given(setup_st(), st.integers(0, 2**32 - 1))
def test_the_story_kept_is_the_story_told_afresh(setup: HandSetup, seed: int) -> None:
    played, _ = play_setup(setup, seed)
    _follow(setup, played)


@settings(max_examples=15, deadline=None)
@given(setup_st(), st.integers(0, 2**32 - 1))
def test_the_story_with_other_names_is_kept_apart(setup: HandSetup, seed: int) -> None:
    played, _ = play_setup(setup, seed)
    names = tuple(f"p{i} Tom" for i in range(played.n))
    _follow(setup, played, names)
    assert words.narration(played, names).lines != words.narration(played).lines or \
        not played.events


def test_a_hand_played_live_is_told_once_per_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """A live hand, asked for its story after every action: each event is said once (the
    narrator's line maker is counted), and the lines are those told afresh."""
    said = 0
    line = narrator._line

    def counted(*args: object) -> Text:
        nonlocal said
        said += 1
        return line(*args)  # type: ignore[arg-type]

    h = play(["As Ah", "7c 2d", "Kd Qs"], ["c", "c", "x", "x", "x", "x", "x", "x", "x",
                                           "x", "x", "x"],
             ["3c 8d 9s", "Jh", "4c"], names=["Ana", "Bruno", "Carla"])
    fresh = Hand(h.rules, h.starting_stacks, _record=False, names=h.names, button=h.button)
    monkeypatch.setattr(narrator, "_line", counted)
    for e in h.events:
        fresh.apply_unchecked(e)
        words.log_lines(fresh)
        words.log_lines(fresh)  # asked twice: nothing more is said
    lines = words.log_lines(fresh)
    told = sum(1 for e in fresh.events if not isinstance(e, ev.HoleDealt | ev.Ended)) + 1
    assert len(lines) == told
    # the awards came one by one before the end: each count of pots said them once more
    assert said <= 2 * told
    monkeypatch.setattr(narrator, "_line", line)
    assert _json(lines) == _json(words.told_afresh(fresh))


def test_a_narration_forgotten_is_told_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past :data:`NARRATIONS` hands the oldest is forgotten, and told afresh when asked."""
    monkeypatch.setattr(narrator, "NARRATIONS", 2)
    rng = random.Random(7)
    hands = [play(["As Ah", "7c 2d"], ["c", "x", "x", "x", "x", "x", "x", "x"],
                  ["3c 8d 9s", "Jh", "4c"], names=[f"A{i}", f"B{rng.randint(0, 9)}"])
             for i in range(4)]
    for h in hands * 2:
        assert _json(words.log_lines(h)) == _json(words.told_afresh(h))
    assert len(narrator._narrations) <= 2


@settings(max_examples=25, deadline=None)
@given(setup_st(), st.integers(0, 2**32 - 1))
def test_a_finished_hands_results_are_made_once_and_said_alike(setup: HandSetup,
                                                               seed: int) -> None:
    """A finished hand's pot lines, breakdown and hands shown are made once (each seat's
    result asks for them) and are what the words make afresh; each caller gets its own copy
    of the lists."""
    from tapete.words import results

    played, _ = play_setup(setup, seed)
    assert played.done
    pots, shown = results._pot_lines(played), results._shown_hands(played)
    for _ in range(2):
        assert words.pot_lines(played) == pots
        assert words.shown_hands(played) == shown
        assert words.breakdown(played).to_json() == words.sentences(
            [Text(x["text"]["en"], x["text"]["es"]) for x in pots]).to_json()
        words.pot_lines(played).append({"kind": "changed by a caller"})
        for x in words.shown_hands(played):
            x.clear()


def test_a_finished_hands_results_are_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from tapete.words import results

    h = play(["As Ah", "7c 2d"], ["c", "x", "x", "x", "x", "x", "x", "x"],
             ["3c 8d 9s", "Jh", "4c"], names=["Ana", "Bruno"])
    made = []
    pot_result = results.pot_result
    monkeypatch.setattr(results, "pot_result", lambda *a, **kw: made.append(1) or
                        pot_result(*a, **kw))
    for _ in range(6):  # six seats' results
        words.pot_lines(h)
        words.breakdown(h)
    assert len(made) == 1
