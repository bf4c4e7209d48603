"""``tapete simulate`` and duplicate matches: the CLI's outputs, and the tag bot's result."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tapete.bots.match import labels, run_match
from tapete.cli import main


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["simulate", "--bots", "tag,random,caller", "--hands", "30", "--seed", "2",
               "--json", "--no-progress"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 30
    assert [b["name"] for b in data["bots"]] == ["tag", "random", "caller"]
    for b in data["bots"]:
        assert set(b) == {"name", "mbb_per_hand", "ci95"}
    # a duplicate match with one seat per bot is zero-sum (no rake)
    assert abs(sum(b["mbb_per_hand"] for b in data["bots"])) < 1.0


def test_table_progress_and_svg_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "c.svg"
    rc = main(["simulate", "--bots", "nit,maniac", "--hands", "20", "--structure", "pl",
               "--chart", str(chart)])
    assert rc == 0
    out, err = capsys.readouterr()
    assert "mbb/hand" in out and "nit" in out and "maniac" in out and "pot-limit" in out
    assert "20/20 hands" in err
    svg = chart.read_text()
    assert svg.startswith("<svg") and svg.count("<polyline") == 2


def test_png_chart_without_matplotlib_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        rc = main(["simulate", "--hands", "6", "--chart", str(tmp_path / "c.png")])
        assert rc == 2
        assert "matplotlib" in capsys.readouterr().err
    else:
        rc = main(["simulate", "--hands", "6", "--no-progress", "--chart",
                   str(tmp_path / "c.png")])
        assert rc == 0 and (tmp_path / "c.png").stat().st_size > 0


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "tag,shark"]) == 2
    assert "shark" in capsys.readouterr().err
    assert main(["simulate", "--bots", "tag"]) == 2


def test_phh_files_replay(tmp_path: Path) -> None:
    phh = pytest.importorskip("tapete.history.phh")
    from tapete.history.replay import replay

    rc = main(["simulate", "--bots", "tag,lag,random", "--hands", "9", "--structure", "fl",
               "--phh", str(tmp_path), "--no-progress"])
    assert rc == 0
    files = sorted(os.listdir(tmp_path))
    assert len(files) == 9 and all(f.endswith(".phh") for f in files)
    for f in files:
        record = phh.loads((tmp_path / f).read_text())
        result = replay(record)
        assert result.ok, f


def test_labels_and_duplicate_rotation() -> None:
    assert labels(["tag", "tag", "nit", "tag"]) == ["tag", "tag-2", "nit", "tag-3"]
    res = run_match(["caller", "caller", "caller"], 30, seed=5)
    assert res.hands == 30 and res.deals == 10
    # identical bots playing the same cards in every seat: each deal sums to zero per bot
    for i in range(3):
        assert len(res.per_deal[i]) == 10
    assert sum(res.mbb_per_hand(i) for i in range(3)) == pytest.approx(0, abs=1e-6)


def test_tag_wins_a_6000_hand_duplicate_match() -> None:
    """The issue's acceptance run: six bots, 6,000 hands (1,000 deals x 6 rotations)."""
    res = run_match(["tag", "lag", "nit", "station", "maniac", "random"], 6000, seed=1)
    assert res.hands == 6000
    i = {n: k for k, n in enumerate(res.names)}
    tag = res.mbb_per_hand(i["tag"])
    assert tag - res.ci95(i["tag"]) > 0, res.table()
    assert tag > res.mbb_per_hand(i["station"]), res.table()
    assert tag > res.mbb_per_hand(i["random"]), res.table()
