"""Property tests over random hands (hypothesis) and the regressions they found."""

from __future__ import annotations

from tapete.cards import Deck
from tapete.hand import Hand, Phase
from tapete.rules import Rules


def test_books_balance_when_a_pot_is_won() -> None:
    # regression: the books check compared contributions with contributions + awards, so every
    # hand that awarded a pot raised BooksError (RULES.md section 4: awards + returns + rake =
    # contributions)
    h = Hand(Rules(), [200, 200, 200], deck=Deck(1), auto_showdown=True)
    h.fold()
    h.fold()
    assert h.phase is Phase.DONE
    assert sum(h.stacks) == 600
    assert h.net() == [-1, 1, 0]
