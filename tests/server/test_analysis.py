"""The replayer's money analysis: tournament equity over HTTP, insurance on the run-out frames."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from samples import ALL_IN_ACES_KINGS
from tapete.core.cards import parse_cards
from tapete.core.hand import Hand
from tapete.core.rules import Rules
from tapete.eval.icm import after_hand
from tapete.history import phh
from tapete.history.replay import replay
from tapete.server.analysis import icm_table, insurance_note
from tapete.server.replayer import timeline


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from tapete.server import Settings, create_app

    app = create_app(Settings(data_dir=tmp_path, think_delay=0.0))
    with TestClient(app) as c:
        yield c


def test_icm_before_and_after_a_hand() -> None:
    got = icm_table([3000, 7000], [6000, 4000], "70 30")
    # heads-up: second prize plus a chip share of the difference (30 + 0.3 x 40, 30 + 0.7 x 40)
    assert after_hand([3000, 7000], [3000, 7000], [70, 30]) == [42, 58]
    assert [p["before"] for p in got["players"]] == ["42.00", "58.00"]
    assert got["players"][0]["after"] == "54.00" and got["players"][1]["after"] == "46.00"
    assert got["players"][0]["change"] == "+12.00" and got["players"][1]["change"] == "-12.00"
    # knocked out: second place, exactly
    out = icm_table([3000, 7000], [0, 10000], "70.50 30.25")
    assert out["prizes"] == ["70.50", "30.25"]
    assert [p["after"] for p in out["players"]] == ["30.25", "70.50"]


def test_icm_over_http_and_its_refusals(client: Any) -> None:
    r = client.post("/api/icm", json={"start": [5000, 3000, 2000], "end": [5000, 3000, 2000],
                                      "prizes": "50, 30, 20"})
    assert r.status_code == 200
    assert [p["before"] for p in r.json()["players"]] == ["38.39", "32.75", "28.86"]
    bad: list[Any] = [
        {"start": [1, 2], "end": [1, 2], "prizes": "1,500"},
        {"start": [1, 2], "end": [1, 2]},
        {"start": [1, 2.5], "end": [1, 2], "prizes": "10"},
        {"start": "x", "end": [1, 2], "prizes": "10"},
        {"start": [1, 2], "end": [1], "prizes": "10"},
        {"start": [1, 2], "end": [1, 2], "prizes": "10 5 1"},
        [1, 2],
    ]
    for body in bad:
        r = client.post("/api/icm", json=body)
        assert r.status_code == 400, body
        err = r.json()["error"]
        assert err["en"] and err["es"] and err["en"] != err["es"]
    assert client.post("/api/icm", content=b"{not json").status_code == 400
    assert client.post("/api/icm", content=b"x" * 30_000).status_code == 400


def test_a_small_icm_question_is_answered_at_once_and_a_large_one_by_a_worker(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: a three-player ICM answered 422 "too slow" under load, because starting a
    worker process took longer than its deadline. A small question (exact, a few
    milliseconds: benchmarks/bench_requests.py) never reaches the workers; a large one does."""
    from tapete.server import analysis, work

    sent: list[str] = []
    run = work.run

    async def counted(ticket: Any, fn: Any, *args: Any, deadline: float) -> Any:
        sent.append(fn.__name__)
        return await run(ticket, fn, *args, deadline=deadline)

    monkeypatch.setattr(work, "run", counted)
    small = [{"start": stacks, "end": stacks, "prizes": prizes}
             for n, prizes in ((2, "70 30"), (3, "50 30 20"), (9, "50 30 20"),
                               (6, "6 5 4 3 2 1")) for stacks in [[1000 * (k + 1)
                                                                   for k in range(n)]]]
    for question in small:
        r = client.post("/api/icm", json=question)
        assert r.status_code == 200, r.text
    assert client.post("/api/icm", json={"start": [1, 2], "end": [1]}).status_code == 400
    assert sent == []  # none of them went to a worker
    assert all(analysis.icm_steps(json.dumps(q).encode()) <= analysis.IN_PROCESS_STEPS
               for q in small)
    stacks = [1000 * (k + 1) for k in range(12)]
    r = client.post("/api/icm", json={"start": stacks, "end": stacks, "prizes": "5 4 3 2"})
    assert r.status_code == 200 and sent == ["icm_job"]  # 12 players, 4 paid: 3,588 steps


def test_insurance_on_the_run_out_frames() -> None:
    res = replay(phh.loads(ALL_IN_ACES_KINGS))
    assert res.error is None and res.engine is not None
    frames = timeline(res.engine)["frames"]
    quoted = [f for f in frames if f.get("insurance")]
    # the flop (against the turn card) and the turn (against the river card)
    assert [len(f["boards"][0]) for f in quoted] == [3, 4]
    turn = quoted[-1]["insurance"]
    assert turn["leader"] == 0 and sorted(turn["outs"]) == ["Kc", "Kh"] and turn["unseen"] == 44
    assert turn["stake"] == 6000 and turn["premium"] == 375  # 6,000 / 16
    assert turn["cash_out"] == int(Fraction(6000 * 42, 44) * Fraction(99, 100))
    assert "2 outs of 44" in turn["text"]["en"] and "2 outs de 44" in turn["text"]["es"]
    # nothing is quoted while a player can still bet, nor on the river
    assert all(f["phase"] == "deal" for f in quoted)


def test_no_insurance_with_a_hand_unknown() -> None:
    hand = Hand(Rules(small_blind=50, big_blind=100), [3000, 7000], button=1)
    hand.deal_hole(1, parse_cards("KsKd"))
    hand.deal_hole(0, None)
    hand.raise_to(3000)
    hand.call()
    hand.deal_board(parse_cards("2c7d9h"))
    assert insurance_note(hand, [None, tuple(parse_cards("KsKd"))]) is None


def test_the_replayer_reports_summary_mismatches() -> None:
    from tapete.server.replayer import file_timeline

    path = Path(__file__).resolve().parents[1] / "data" / "pokerstars" / \
        "hhsmithy_cash_nlhe_two_side_pots_rake.txt"
    text = path.read_text(encoding="utf-8-sig")
    assert file_timeline(text, "good.txt")["timeline"]["mismatches"] == []
    head, sep, summary = text.partition("*** SUMMARY ***")
    bad = head + sep + summary.replace("Total pot €", "Total pot €1", 1)
    assert bad != text
    got = file_timeline(bad, "bad.txt")["timeline"]["mismatches"]
    assert got and got[0]["en"].startswith("total pot: the file says €1")
    assert got[0]["es"].startswith("bote total: el archivo dice €1")
