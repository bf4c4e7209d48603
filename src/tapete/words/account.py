"""``tapete replay``'s readable account of a replayed hand (:func:`account`), and its headings
and frame: the hand's title, the stacks, the hole cards, each street's heading with its board,
the pots, the finishing stacks and what the file states otherwise. The lines of the hand's
events are the narrator's own (:func:`tapete.words.log_lines`); this module says only what a
table's log has no line for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from tapete.core import events as ev
from tapete.core.cards import Card, format_cards
from tapete.core.text import Text
from tapete.words.catalog import t
from tapete.words.lines import (
    and_list,
    log_lines,
    not_in_file,
    players_count,
    pot_name,
    pot_result,
    sentences,
)
from tapete.words.money import money_text
from tapete.words.rules import describe

if TYPE_CHECKING:
    from tapete.core.rules import Rules
    from tapete.history.replay import ReplayResult


def title(hand: str, rules: Rules, players: int) -> Text:
    """ "dwan-ivey-2009.phh — No-limit hold'em 1,000/2,000, ante 500, 3 players"."""
    return t("{hand} — {rules}, {players}", hand=hand, rules=describe(rules),
             players=players_count(players))


def unreadable(hand: str, error: Text) -> Text:
    """A hand that could not be read at all: "bad.phh: ERROR: cannot read the hand: ..."."""
    return t("{hand}: ERROR: {error}", hand=hand, error=error)


def _amounts(amounts: Sequence[tuple[str, int]], rules: Rules) -> Text:
    return and_list([t("{who} {amount}", who=who, amount=money_text(x, rules))
                     for who, x in amounts])


def stacks(amounts: Sequence[tuple[str, int]], rules: Rules) -> Text:
    """ "Stacks: p1 Ana 1,000, p2 Bruno 2,000 and p3 Carla 500"."""
    return t("Stacks: {stacks}", stacks=_amounts(amounts, rules))


def hole_cards(holes: Sequence[tuple[str, Sequence[Card]]]) -> Text:
    """ "Hole cards: p1 Ana [Ac 2d] and p3 Carla [7h 6h]": the cards the file knows."""
    each = [t("{who} [{cards}]", who=who, cards=format_cards(tuple(cards), " "))
            for who, cards in holes]
    return t("Hole cards: {cards}", cards=and_list(each))


def street(street: int, board: Sequence[Card] = (), run: int | None = None) -> Text:
    """A street's heading: "Preflop", "Turn [Jc 3d 5c 4h]" (the whole board so far), or when
    the rest of the board is run more than once, "Turn, run 2 [Jc 3d 5c 9s]"."""
    if street <= 0:
        return t("Preflop")
    cards = format_cards(tuple(board), " ")
    if run is not None:
        if street == 1:
            return t("Flop, run {run} [{board}]", run=run + 1, board=cards)
        if street == 2:
            return t("Turn, run {run} [{board}]", run=run + 1, board=cards)
        return t("River, run {run} [{board}]", run=run + 1, board=cards)
    if street == 1:
        return t("Flop [{board}]", board=cards)
    if street == 2:
        return t("Turn [{board}]", board=cards)
    return t("River [{board}]", board=cards)


def street_line(heading: Text, lines: Sequence[Text]) -> Text:
    """A street and what happened on it: "Flop [Jc 3d 5c]: Ana bets 35; Carla calls 35" (the
    heading alone when nobody was left to act)."""
    if not lines:
        return heading
    return t("{street}: {events}", street=heading, events=sentences(lines))


def error(message: Text) -> Text:
    """ "ERROR: action 4 ..."."""
    return t("ERROR: {error}", error=message)


def partial(note: Text) -> Text:
    """ "Partial hand: the actions stop on the turn with p2 to act"."""
    return t("Partial hand: {why}", why=note)


def open_pot(index: int, count: int, amount: int, players: Sequence[str],
             rules: Rules) -> Text:
    """A pot of a hand that did not finish: "Main pot, 300 (p1 Ana and p2 Bruno)"."""
    return t("{pot}, {amount} ({players})", pot=pot_name(index, count),
             amount=money_text(amount, rules), players=and_list(players))


def settled_pot(result: Text, players: Sequence[str]) -> Text:
    """How a pot ended (the narrator's sentence) and, when more than one could win it, who
    could: "p3 Carla wins the pot, 1,109,500, with a straight, seven high — between p1 Ana and
    p3 Carla"."""
    if len(players) <= 1:
        return result
    return t("{result} — between {players}", result=result, players=and_list(players))


def finishing_stacks(amounts: Sequence[tuple[str, int]], rules: Rules) -> Text:
    """ "Finishing stacks: p1 Ana 572,100, ..."."""
    return t("Finishing stacks: {stacks}", stacks=_amounts(amounts, rules))


def other_finishing_stacks() -> Text:
    return t("Note: the file states other finishing stacks")


def mismatch(what: Text) -> Text:
    """A figure of the file's own summary the replay does not reproduce, both figures given."""
    return t("DOES NOT MATCH the file's summary: {what}", what=what)


# ---------------------------------------------------------------------------- a replayed hand

# the events whose lines the account leaves to others: the hole cards (one line of their own,
# the cards the file knows), the awards and the rake (the pots' sentences), the end. The
# boards and the choice to run the rest more than once are the streets' headings
_UNTOLD: Final = (ev.HoleDealt, ev.Awarded, ev.Raked, ev.Ended)


def account(res: ReplayResult, lang: str = "en") -> str:
    """A readable account of a replayed hand, street by street, in English or Spanish (the
    lines of :func:`account_lines`, each after the first indented)."""
    return "\n  ".join([line.in_lang(lang) for line in account_lines(res)])


def account_lines(res: ReplayResult) -> list[Text]:
    """The account's lines in every language, all of them the narrator's
    (:mod:`tapete.words`): the title, the stacks, the hole cards the file knows, each street
    with its board and the lines of its events as the table's log writes them (an action the
    file leaves out said as not in the file), then the pots as sentences and the finishing
    stacks, or the error, or why a partial hand stops. Players are named by their PHH label
    and their name ("p3 Tom Dwan")."""
    source = res.source + (f" #{res.hand}" if res.hand else "")
    hand = res.engine
    if hand is None:
        return [unreadable(source, res.error if res.error is not None else Text.join([]))]
    rules = hand.rules
    n = hand.n
    names: list[str] = []
    for p in range(n):
        label = res.label(p)
        names.append(label if hand.names[p] == label else f"{label} {hand.names[p]}")
    out = [title(source, rules, n),
           stacks([(names[p], hand.starting_stacks[p]) for p in range(n)], rules)]
    told = [(k, e) for k, e in enumerate(hand.events) if not isinstance(e, _UNTOLD)]
    said = dict(zip([k for k, _ in told],
                    log_lines(hand, [e for _, e in told], names=names), strict=True))
    inferred = set(res.inferred_at)
    holes: list[tuple[str, Sequence[Card]]] = []
    current: list[Text] = []
    heading = street(0)
    on_board = False  # the heading is a board's: said even when nobody was left to act
    # boards dealt once the players chose to run the rest more than once are named, and
    # those of a double board
    runs = 2 if hand.double_board else 1

    def flush() -> None:
        if holes:
            out.append(hole_cards(holes))
            holes.clear()
        if current or on_board:
            out.append(street_line(heading, current))
            current.clear()

    for k, e in enumerate(hand.events):
        if isinstance(e, ev.HoleDealt):
            if e.cards is not None:
                holes.append((names[e.player], e.cards))
        elif isinstance(e, ev.BoardDealt):
            if current or holes or on_board:
                flush()
            board = hand.boards[e.run][: 3 + max(0, e.street - 1)]
            heading = street(e.street, board, e.run if runs > 1 else None)
            on_board = True
        elif isinstance(e, ev.RunsChosen):
            runs = e.runs  # the boards' headings say it
        elif k in said:
            line = said[k]
            current.append(not_in_file(line) if k in inferred else line)
    flush()
    if res.error is not None:
        out.append(error(res.error))
    elif res.partial:
        out.append(partial(res.note if res.note is not None else Text.join([])))
        for k, pot in enumerate(res.pots):
            out.append(open_pot(k, len(res.pots), pot.amount,
                                [names[p] for p in pot.players], rules))
    else:
        for k, pot in enumerate(res.pots):
            result = pot_result(hand, k, len(res.pots), pot.amount, pot.rake, names=names)
            out.append(settled_pot(result, [names[p] for p in pot.players]))
        out.append(finishing_stacks([(names[p], x) for p, x in enumerate(hand.stacks)], rules))
        if res.stated_stacks_agree is False:
            out.append(other_finishing_stacks())
        for m in res.mismatches:
            out.append(mismatch(m))
    return out
