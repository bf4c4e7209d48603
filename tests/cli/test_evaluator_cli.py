"""``tapete bench``: the enumeration and the side-by-side evaluation."""

from __future__ import annotations

import json

import pytest

from tapete.cli import main


def test_bench_enumerate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "enumerate", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 133_784_560
    assert out["categories"] == {
        "straight flush": 41_584, "four of a kind": 224_848, "full house": 3_473_184,
        "flush": 4_047_644, "straight": 6_180_020, "three of a kind": 6_461_620,
        "two pair": 31_433_400, "one pair": 58_627_800, "high card": 23_294_460,
    }  # fmt: skip
    assert list(out["categories"])[0] == "straight flush"
    assert out["seconds"] > 0


def test_bench_evaluate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "evaluate", "--json", "--hands", "20000", "--seconds", "0.02"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 20_000
    names = [r["name"] for r in out["results"]]
    assert names[0].startswith("tapete")
    for r in out["results"]:
        assert "error" not in r, r
        assert r["hands_per_s"] > 0
        assert r.get("agrees", True) is True, r
