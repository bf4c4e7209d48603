"""The compiled engine and the Python sources are the same program.

The build compiles the rules engine with mypyc where it can (setup.py); ``TAPETE_PURE=1`` runs
the sources instead. Both must give the same events, legal options and replays, hand for hand.
The test command sets ``TAPETE_EXPECT_COMPILED=1`` on machines with a C compiler, so that a
build that silently fell back to pure Python fails here instead of only running slower.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tapete

ROOT = Path(__file__).resolve().parents[1]

# plays seeded random hands of every structure and replays PHH files, printing one digest
DIGEST = r"""
import hashlib, json, random, sys
sys.path.insert(0, sys.argv[1])
import tapete
from strategies import apply, pick_action, random_table
from tapete.core.cards import Deck
from tapete.core.hand import Hand, HandError
from tapete.history import phh
from tapete.history.replay import dumps_json, replay

h = hashlib.sha256()
for seed in range(400):
    rng = random.Random(seed)
    t = random_table(rng)
    hand = Hand(t.rules, t.stacks, button=t.button, deck=Deck(seed), auto_showdown=True)
    while not hand.done:
        lg = hand.legal()
        h.update(repr(tuple(lg)).encode())
        apply(hand, pick_action(rng, lg))
    try:  # refusals must match too, word for word
        hand.raise_to(10**30)
    except HandError as exc:
        h.update(str(exc).encode())
    h.update(repr(hand.events).encode())
for path in sorted(__import__("pathlib").Path(sys.argv[2]).rglob("*.phh"))[::25]:
    for item in phh.read_text(path.read_text(encoding="utf-8")):
        if item.record is not None:
            h.update(dumps_json(replay(item.record).to_json()).encode())
print(json.dumps({"compiled": tapete.compiled(), "digest": h.hexdigest()}))
"""


def run_digest(pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("TAPETE_PURE", None)
    if pure:
        env["TAPETE_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", DIGEST, str(ROOT / "tests"), str(ROOT / "tests" / "data" / "phh")],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True, timeout=600)
    result: dict[str, object] = json.loads(out.stdout)
    return result


@pytest.mark.skipif(os.environ.get("TAPETE_EXPECT_COMPILED") != "1",
                    reason="only where the test command expects a compiled build")
def test_the_engine_is_compiled_where_a_compiler_is() -> None:
    assert tapete.compiled(), "the build fell back to pure Python: see the install's output"


def test_the_pure_switch_runs_the_sources() -> None:
    code = ("import tapete, tapete.core.hand, tapete.history.phh as p; "
            "print(tapete.compiled(), tapete.core.hand.__file__.endswith('.py'), "
            "p.__file__.endswith('.py'))")
    env = {**os.environ, "TAPETE_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, timeout=60)
    assert out.stdout.split() == ["False", "True", "True"]


def test_version_says_how_the_engine_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from tapete.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == (
        f"tapete {tapete.__version__} (engine: {tapete.build_kind()})")


def test_compiled_and_pure_play_and_replay_the_same() -> None:
    pure = run_digest(pure=True)
    assert pure["compiled"] is False
    if not tapete.compiled():
        pytest.skip("no compiled engine here to compare with the sources")
    native = run_digest(pure=False)
    assert native["compiled"] is True
    assert native["digest"] == pure["digest"]
