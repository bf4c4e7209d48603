"""``tapete verify``: a session of 500 hands, each committed to and revealed in its PHH record,
verifies; a record changed by one byte (its deck, its secret, its commitment, a card dealt) is
rejected with the reason; unreadable input, a missing file, a network failure are status 2."""

from __future__ import annotations

import io
import random
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from strategies import apply, pick_action
from tapete.cli import main
from tapete.cli import verify as verify_cli
from tapete.core import fair
from tapete.core.cards import Deck
from tapete.core.game import OMAHA
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure
from tapete.history import phh
from tapete.room.shuffle import shuffle

Capsys = pytest.CaptureFixture[str]
HOLDEM = Rules(small_blind=1, big_blind=2)
PLO = Rules(structure=Structure.POT_LIMIT, small_blind=1, big_blind=2, game=OMAHA)
STRADDLED = Rules(small_blind=1, big_blind=2, ante=1, straddle=4)  # antes and a straddle
SEATS = 6


def session(hands: int, seed: int = 2026) -> list[tuple[Hand, fair.FairDeal]]:
    """A six-handed session: the button moves on, stacks carry over (a player under 20 chips
    buys back to 200), one hand in five is pot-limit Omaha and one has antes and a straddle;
    each hand dealt from a seeded shuffle with its own secret, played with random legal
    actions (every other hand folds more)."""
    rng = random.Random(seed)
    stacks = [200] * SEATS
    out: list[tuple[Hand, fair.FairDeal]] = []
    for k in range(hands):
        deal = shuffle(Deck(seed=seed * 1000 + k).cards(), rng.randbytes(fair.SECRET_BYTES))
        stacks = [s if s >= 20 else 200 for s in stacks]
        rules = PLO if k % 5 == 4 else STRADDLED if k % 5 == 2 else HOLDEM
        hand = Hand(rules, stacks, button=k % SEATS, deck=deal.deck,
                    names=[f"seat{i + 1}" for i in range(SEATS)], hand_id=str(k + 1),
                    auto_showdown=True)
        folds = 0.45 if k % 2 else 0.0  # every other hand, more folds: some end early
        while not hand.done:
            lg = hand.legal()
            if lg.fold and rng.random() < folds:
                hand.fold()
            else:
                apply(hand, pick_action(rng, lg))
        stacks = list(hand.stacks)
        out.append((hand, deal))
    return out


def phhs(played: list[tuple[Hand, fair.FairDeal]]) -> str:
    """The hands as one ``.phhs`` text, each with its fair deal's fields."""
    return "".join(f"[{k}]\n{phh.dumps(hand, extra=phh.fair_fields(deal))}\n"
                   for k, (hand, deal) in enumerate(played, 1))


def verify(capsys: Capsys, *args: str) -> tuple[int, list[str], str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out.splitlines(), err


VERIFIED = "verified: the cards dealt are the committed deck's, in order"


@pytest.fixture(scope="module")
def three() -> list[tuple[Hand, fair.FairDeal]]:
    return session(3, seed=7)


def test_a_session_of_500_hands_verifies(capsys: Capsys, tmp_path: Path) -> None:
    played = session(500)
    assert sum(h.rules.game is OMAHA for h, _ in played) == 100
    assert sum(any(h.straddles) for h, _ in played) == 100
    # many reach the river, many end before it
    assert sum(len(h.board) == 5 for h, _ in played) > 100
    assert sum(len(h.board) < 5 for h, _ in played) > 100
    path = tmp_path / "session.phhs"
    path.write_text(phhs(played), encoding="utf-8")
    code, lines, err = verify(capsys, str(path), "--lang", "en")
    assert (code, err) == (0, "")
    assert lines == [f"{path} #{k}: {VERIFIED}" for k in range(1, 501)]
    # the commitments were in the file, one per hand, each its own
    text = path.read_text(encoding="utf-8")
    assert text.count(f"{phh.FAIR_COMMITMENT} = ") == 500
    assert len({d.commitment for _, d in played}) == 500


def _one_hand_changed(text: str, hand: int, old: str, new: str) -> str:
    """``text`` (a .phhs) with ``old`` replaced by ``new`` (the same length) in hand ``hand``."""
    assert len(old) == len(new)
    head, sep, rest = text.partition(f"[{hand}]\n")
    body, nxt, tail = rest.partition(f"[{hand + 1}]\n")
    assert sep and old in body
    return head + sep + body.replace(old, new, 1) + nxt + tail


def _byte(s: str, i: int) -> str:
    """``s`` with its character ``i`` changed to another of the same kind (hex stays hex)."""
    c = s[i]
    other = {"0": "1", "s": "h", "h": "s", "c": "d", "d": "c"}.get(c, "0" if c != "0" else "1")
    return s[:i] + other + s[i + 1:]


@pytest.mark.parametrize(("field", "where", "english", "spanish"), [
    ("commitment", 17, "the commitment does not match the deck and the secret",
     "el compromiso no corresponde"),
    ("secret", 40, "the commitment does not match the deck and the secret",
     "el compromiso no corresponde"),
    ("deck", 51, "it is not 52 distinct cards", "no son 52 cartas distintas"),
])
def test_one_byte_changed_in_a_stored_field_is_rejected(
        capsys: Capsys, tmp_path: Path, three: list[tuple[Hand, fair.FairDeal]], field: str,
        where: int, english: str, spanish: str) -> None:
    text = phhs(three)
    _, deal = three[1]
    stored = deal.to_json()[field]
    changed = _byte(stored, where)
    path = tmp_path / "changed.phhs"
    path.write_text(_one_hand_changed(text, 2, f"'{stored}'", f"'{changed}'"), encoding="utf-8")
    assert path.stat().st_size == len(text.encode())  # one byte, in place
    code, lines, _ = verify(capsys, str(path), "--lang", "en")
    assert code == 1
    assert lines[0] == f"{path} #1: {VERIFIED}" and lines[2] == f"{path} #3: {VERIFIED}"
    assert lines[1].startswith(f"{path} #2: not verified: ") and english in lines[1]
    code, lines, _ = verify(capsys, str(path), "--lang", "es")
    assert code == 1 and lines[1].startswith(f"{path} #2: no verificada: ")
    assert spanish in lines[1]


def test_a_card_dealt_out_of_the_committed_order_is_rejected(
        capsys: Capsys, tmp_path: Path, three: list[tuple[Hand, fair.FairDeal]]) -> None:
    """The deck, the secret and the commitment are honest; the record says another card was
    dealt: the card of the deck that would come next, in place of the hand's first card."""
    hand, deal = three[0]
    first = next(e for e in hand.events if type(e).__name__ == "HoleDealt")
    cards = first.cards  # type: ignore[union-attr]
    assert cards is not None
    unseen = next(c for c in deal.deck if c not in hand.visible_cards() and c not in cards)
    old = f"d dh p1 {''.join(phh.format_cards(cards))}"
    new = f"d dh p1 {phh.format_cards((unseen, *cards[1:]))}"
    path = tmp_path / "dealt.phhs"
    path.write_text(_one_hand_changed(phhs(three), 1, old, new), encoding="utf-8")
    code, lines, _ = verify(capsys, str(path), "--lang", "en")
    assert code == 1, lines
    who = hand.names[first.player]  # type: ignore[union-attr]
    assert lines[0].startswith(f"{path} #1: not verified: {who}'s hole cards are ")
    assert "but the committed deck deals" in lines[0] and "(cards 1 to 2 of the deck)" in lines[0]
    assert lines[1:] == [f"{path} #2: {VERIFIED}", f"{path} #3: {VERIFIED}"]


def test_a_hand_without_a_commitment_is_not_verified(
        capsys: Capsys, tmp_path: Path, three: list[tuple[Hand, fair.FairDeal]]) -> None:
    hand, deal = three[0]
    plain = tmp_path / "plain.phh"
    plain.write_text(phh.dumps(hand), encoding="utf-8")
    code, lines, _ = verify(capsys, str(plain), "--lang", "en")
    assert code == 1
    assert lines == [f"{plain} #1: not committed: the hand carries no commitment to its deck"]
    # committed, the deck not revealed yet
    before = tmp_path / "before.phh"
    before.write_text(phh.dumps(hand, extra=phh.fair_fields(deal.commitment)), encoding="utf-8")
    code, lines, _ = verify(capsys, str(before), "--lang", "es")
    assert code == 1 and lines[0].endswith(
        ": comprometida pero sin revelar: no se dan la baraja ni el secreto")


def test_the_fields_read_back_as_written(three: list[tuple[Hand, fair.FairDeal]]) -> None:
    hand, deal = three[2]
    record = phh.loads(phh.dumps(hand, extra=phh.fair_fields(deal)))
    assert phh.fair_values(record) == (deal.commitment, fair.deck_text(deal.deck),
                                       deal.secret.hex())
    assert phh.fair_values(phh.loads(phh.dumps(hand))) == (None, None, None)


def test_a_converted_file_keeps_its_commitments(
        capsys: Capsys, tmp_path: Path, three: list[tuple[Hand, fair.FairDeal]]) -> None:
    source, copy = tmp_path / "hands.phhs", tmp_path / "copy.phhs"
    source.write_text(phhs(three), encoding="utf-8")
    assert main(["convert", str(source), "--to", "phh", "-o", str(copy)]) == 0
    code, lines, _ = verify(capsys, str(copy), "--lang", "en")
    assert code == 0 and lines == [f"{copy} #{k}: {VERIFIED}" for k in (1, 2, 3)]


def test_standard_input(capsys: Capsys, monkeypatch: pytest.MonkeyPatch,
                        three: list[tuple[Hand, fair.FairDeal]]) -> None:
    class Stdin:
        buffer = io.BytesIO(phhs(three).encode())

    monkeypatch.setattr(sys, "stdin", Stdin)
    code, lines, _ = verify(capsys, "-", "--lang", "en")
    assert code == 0 and lines == [f"stdin #{k}: {VERIFIED}" for k in (1, 2, 3)]


@pytest.mark.parametrize(("name", "text", "english"), [
    ("notes", "just some notes\n", "tapete verify: unsupported format: "),
    ("hand.phh", "variant = 'NT'\nactions = [\n", ": cannot be read: line 2: the array of"
                                                  " 'actions' is never closed"),
    ("empty.phh", "", ": cannot be read: no hand in this file"),
])
def test_unreadable_input_is_status_2(capsys: Capsys, tmp_path: Path, name: str, text: str,
                                      english: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, lines, err = verify(capsys, str(path), "--lang", "en")
    assert code == 2
    assert english in "\n".join(lines) + err
    assert len(lines) + err.count("\n") == 1  # one line says why


def test_an_unreadable_hand_among_good_ones_is_status_2(
        capsys: Capsys, tmp_path: Path, three: list[tuple[Hand, fair.FairDeal]]) -> None:
    text = phhs(three).replace("variant = 'NT'", "variant = 'XX'", 1)
    path = tmp_path / "some.phhs"
    path.write_text(text, encoding="utf-8")
    code, lines, _ = verify(capsys, str(path), "--lang", "es")
    assert code == 2
    assert lines[0].startswith(f"{path} #1: no se puede leer: ") and "'XX'" in lines[0]
    assert lines[1].endswith(": verificada: las cartas repartidas son las de la baraja"
                             " comprometida, en su orden")


def test_a_missing_file_is_status_2(capsys: Capsys, tmp_path: Path) -> None:
    code, lines, err = verify(capsys, str(tmp_path / "missing.phh"), "--lang", "en")
    assert (code, lines) == (2, [])
    assert err == f"tapete verify: no such file: {tmp_path / 'missing.phh'}\n"


# ------------------------------------------------------------------------------- an address

@pytest.fixture(scope="module")
def served(three: list[tuple[Hand, fair.FairDeal]]) -> Iterator[str]:
    """A local HTTP server: /hands.phhs (the three hands), /big (more than the limit), and
    404 for anything else."""
    body = phhs(three).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            if self.path == "/hands.phhs":
                data = body
            elif self.path == "/big":
                data = b"#" * 5000
            else:
                self.send_error(404, "Not Found")
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_address_is_fetched_and_verified(capsys: Capsys, served: str) -> None:
    code, lines, _ = verify(capsys, f"{served}/hands.phhs", "--lang", "en")
    assert code == 0
    assert lines == [f"{served}/hands.phhs #{k}: {VERIFIED}" for k in (1, 2, 3)]


def test_an_address_that_fails_is_status_2(capsys: Capsys, served: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, lines, err = verify(capsys, f"{served}/nothing.phh", "--lang", "en")
    assert (code, lines) == (2, [])
    assert err == f"tapete verify: cannot fetch {served}/nothing.phh: the server answers 404" \
                  " Not Found\n"
    code, _, err = verify(capsys, f"{served}/nothing.phh", "--lang", "es")
    assert code == 2 and err.startswith("tapete verify: no se puede descargar ")
    # nobody listening: the network's reason
    with pytest.raises(verify_cli.FetchError) as caught:
        verify_cli.fetch("http://127.0.0.1:9/hands.phhs", timeout=2)
    assert caught.value.message.en.startswith("cannot fetch http://127.0.0.1:9/hands.phhs: ")
    # more than the limit: refused, not read
    monkeypatch.setattr(verify_cli, "MAX_BYTES", 4096)
    with pytest.raises(verify_cli.FetchError) as caught:
        verify_cli.fetch(f"{served}/big", limit=4096)
    assert "sends more than 1 MB" in caught.value.message.en
