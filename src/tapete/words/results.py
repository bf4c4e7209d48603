"""A finished hand's results for the table page: one sentence per pot and per return of
uncalled chips (the banner, Last hand and the hand list read the same), and the hands shown."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from tapete.core.cards import format_cards
from tapete.core.text import Text
from tapete.words import hands
from tapete.words.lines import kept, pot_result, returned, sentences

if TYPE_CHECKING:
    from tapete.core.hand import Hand


_decode = msgspec.json.decode
_encode = msgspec.json.Encoder().encode


def pot_lines(hand: Hand) -> list[dict[str, Any]]:
    """One line per settled pot, then one per return of uncalled chips, each with its numbers
    for the page and the tests: "Ana wins the main pot, 300, with a pair of sevens" /
    "Carla takes back 200 (uncalled)". Made once for a finished hand (each caller gets its
    own copy)."""
    return _copy(kept(hand, "pot_lines", lambda: _encode(_pot_lines(hand))))


def _copy(data: bytes) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = _decode(data)
    return got


def _pot_lines(hand: Hand) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    names = hand.names
    results = hand.results
    for i, r in enumerate(results):
        paid = [(p, x) for p, x in r.shares if x]
        text = pot_result(hand, i, len(results), r.amount, r.rake)
        out.append({"kind": "pot", "index": i, "amount": r.amount, "rake": r.rake,
                    "eligible": [names[p] for p in r.eligible],
                    "winners": [names[p] for p, _ in paid],
                    "shares": [[names[p], x] for p, x in paid], "text": text.to_json()})
    for p, x in enumerate(hand.returned):
        if x:
            out.append({"kind": "returned", "amount": x, "player": names[p],
                        "text": returned(hand, p, x).to_json()})
    return out


def breakdown(hand: Hand) -> Text:
    """The whole result as one text, the sentences joined by "; "."""
    return kept(hand, "breakdown", lambda: sentences(
        [Text(x["text"]["en"], x["text"]["es"]) for x in pot_lines(hand)]))


def shown_hands(hand: Hand) -> list[dict[str, Any]]:
    """Each hand shown at showdown: its cards and its name, with the kicker where a kicker
    tells it from another hand shown ("a pair of fives, ace kicker"). Made once for a
    finished hand (each caller gets its own copy)."""
    return _copy(kept(hand, "shown_hands", lambda: _encode(_shown_hands(hand))))


def _shown_hands(hand: Hand) -> list[dict[str, Any]]:
    out = []
    board = tuple(hand.board)
    for p, cards in hand.shown.items():
        entry: dict[str, Any] = {"player": p, "seat": hand.seats[p], "name": hand.names[p],
                                 "cards": format_cards(cards, " ").split()}
        if len(board) >= 3:
            game = hand.rules.game
            others = [hands.best(c, board, game) for q, c in hand.shown.items() if q != p]
            entry["best"] = hands.name_against(hands.best(cards, board, game),
                                               others).to_json()
        out.append(entry)
    return out
