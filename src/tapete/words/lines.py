"""What each event of a hand did, and how each pot ended, in words."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tapete.core import events as ev
from tapete.core.cards import Card, format_card, format_cards
from tapete.core.hand import Hand
from tapete.core.text import Text, chips

_KINDS_ES = {ev.ANTE: "ante", ev.SMALL_BLIND: "ciega pequeña", ev.BIG_BLIND: "ciega grande",
             ev.STRADDLE: "straddle", ev.DEAD: "ciega muerta", ev.BLIND: "ciega"}
_STREETS = ("Preflop", "Flop", "Turn", "River")


def _both(make: Callable[[str], str]) -> Text:
    return Text(make("en"), make("es"))


def _pot_name(k: int, count: int, lang: str) -> str:
    if k == 0:
        return "Bote principal" if lang == "es" else "Main pot"
    word = "Bote secundario" if lang == "es" else "Side pot"
    return word if count <= 2 else f"{word} {k}"


def _from_pot(k: int, count: int, lang: str) -> str:
    name = _pot_name(k, count, lang).lower()
    if lang == "es":
        return "del " + name
    return "the main pot" if k == 0 else name


def hand_starts() -> Text:
    return Text("The hand starts", "Empieza la mano")


def event_line(hand: Hand, e: ev.Event, pot_count: int) -> Text:
    """What one event did, in words (``hand`` is the state before it; ``pot_count`` how many
    pots the hand ends with)."""
    names = hand.names
    r = hand.rules

    def c(x: int, lang: str) -> str:
        return chips(x, r.decimals, r.currency, lang)

    if isinstance(e, ev.Posted):
        tail = " (all-in)" if e.all_in else ""
        kind_es = _KINDS_ES.get(e.kind, e.kind)
        return Text(f"{names[e.player]} posts {e.kind} {c(e.amount, 'en')}{tail}",
                    f"{names[e.player]} pone {kind_es} {c(e.amount, 'es')}{tail}")
    if isinstance(e, ev.HoleDealt):
        return Text("Hole cards are dealt", "Se reparten las cartas")
    if isinstance(e, ev.BoardDealt):
        name = _STREETS[min(e.street, 3)]
        cards = format_cards(e.cards, " ")
        if len(hand.boards) > 1:
            return Text(f"{name} (run {e.run + 1}): {cards}",
                        f"{name} (tablero {e.run + 1}): {cards}")
        return Text(f"{name}: {cards}", f"{name}: {cards}")
    if isinstance(e, ev.Acted):
        who = names[e.player]
        tail = " (all-in)" if e.all_in else ""
        late = Text(" (time out)", " (tiempo agotado)") if e.timed_out else Text("", "")
        if e.action == ev.FOLD:
            t = Text(f"{who} folds", f"{who} se retira")
        elif e.action == ev.CHECK:
            t = Text(f"{who} checks", f"{who} pasa")
        elif e.action == ev.CALL:
            t = _both(lambda lg: (f"{who} iguala {c(e.added, lg)}" if lg == "es"
                                  else f"{who} calls {c(e.added, lg)}") + tail)
        elif e.action == ev.BET:
            t = _both(lambda lg: (f"{who} apuesta {c(e.to, lg)}" if lg == "es"
                                  else f"{who} bets {c(e.to, lg)}") + tail)
        else:
            t = _both(lambda lg: (f"{who} sube a {c(e.to, lg)}" if lg == "es"
                                  else f"{who} raises to {c(e.to, lg)}") + tail)
        return t + late
    if isinstance(e, ev.Returned):
        who = names[e.player]
        return Text(f"{c(e.amount, 'en')} uncalled, returned to {who}",
                    f"{c(e.amount, 'es')} no igualadas vuelven a {who}")
    if isinstance(e, ev.RunsChosen):
        return Text(f"The rest of the board is run {e.runs} times",
                    f"El resto del tablero se reparte {e.runs} veces")
    if isinstance(e, ev.Shown):
        who = names[e.player]
        cards = format_cards(e.cards, " ")
        board = hand.boards[0]
        s_en = s_es = ""
        if len(board) >= 3:
            s_en = f" ({_strength(e.cards, board, 'en')})"
            s_es = f" ({_strength(e.cards, board, 'es')})"
        return Text(f"{who} shows {cards}{s_en}", f"{who} enseña {cards}{s_es}")
    if isinstance(e, ev.Mucked):
        who = names[e.player]
        return Text(f"{who} mucks", f"{who} tira sus cartas")
    if isinstance(e, ev.Raked):
        return Text(f"Rake {c(e.amount, 'en')} from {_from_pot(e.pot, pot_count, 'en')}",
                    f"Rake de {c(e.amount, 'es')} {_from_pot(e.pot, pot_count, 'es')}")
    if isinstance(e, ev.Awarded):
        who = names[e.player]
        run_en = f" (run {e.run + 1})" if len(hand.boards) > 1 else ""
        run_es = f" (tablero {e.run + 1})" if len(hand.boards) > 1 else ""
        return Text(f"{who} wins {c(e.amount, 'en')} from "
                    f"{_from_pot(e.pot, pot_count, 'en')}{run_en}",
                    f"{who} gana {c(e.amount, 'es')} {_from_pot(e.pot, pot_count, 'es')}"
                    f"{run_es}")
    won = [(names[p], x) for p, x in enumerate(hand.won) if x]
    if not won:
        return Text("Hand over", "Fin de la mano")
    return Text("Hand over: " + ", ".join(f"{w} wins {c(x, 'en')}" for w, x in won),
                "Fin de la mano: " + ", ".join(f"{w} gana {c(x, 'es')}" for w, x in won))


def _strength(hole: Sequence[Card], board: Sequence[Card], lang: str) -> str:
    from tapete.eval.evaluator import describe, evaluate

    return describe(evaluate(tuple(hole) + tuple(board)), lang)


def strength(hole: Sequence[Card], boards: Sequence[Sequence[Card]]) -> Text:
    """The name of what ``hole`` makes on each board of three cards or more, " / " between
    the boards of a run-it-more-than-once."""
    return _both(lambda lg: " / ".join(_strength(hole, b, lg) for b in boards if len(b) >= 3))


def preflop_name(hole: Sequence[Card]) -> str:
    """Two hole cards the way players say them: "AKs", "T9o", "77"."""
    a, b = sorted(hole, reverse=True)
    ra, rb = format_card(a)[0], format_card(b)[0]
    if ra == rb:
        return ra + rb
    return ra + rb + ("s" if a % 4 == b % 4 else "o")


def pot_result(hand: Hand, index: int, count: int, amount: int, rake: int) -> Text:
    """How pot ``index`` (of ``count``) of a finished hand ended: its amount after ``rake``,
    who could win it and who won what."""
    r = hand.rules
    names = hand.names

    def c(x: int, lang: str) -> str:
        return chips(x, r.decimals, r.currency, lang)

    pots = hand.pots()
    won: dict[int, int] = {}
    for e in hand.events:
        if isinstance(e, ev.Awarded) and e.pot == index:
            won[e.player] = won.get(e.player, 0) + e.amount
    eligible = list(pots[index].eligible) if index < len(pots) else sorted(won)
    who = ", ".join(names[p] for p in eligible)
    if len(won) == 1:
        to = names[next(iter(won))]
        to_t = Text(to, to)
    else:
        to_t = _both(lambda lg: ", ".join(f"{names[p]} {c(x, lg)}" for p, x in sorted(won.items())))
    return _both(lambda lg: (
        f"{_pot_name(index, count, lg)} {c(amount, lg)}: {who} → {to_t.in_lang(lg)}"
        + (f" (rake {c(rake, lg)})" if rake else "")))


def returned(hand: Hand, player: int, amount: int) -> Text:
    """Uncalled chips given back, as a result."""
    r = hand.rules
    who = hand.names[player]

    def c(x: int, lang: str) -> str:
        return chips(x, r.decimals, r.currency, lang)

    return _both(lambda lg: (f"{c(amount, lg)} devueltas a {who}" if lg == "es"
                             else f"{c(amount, lg)} returned to {who}"))


def sentences(parts: Sequence[Text]) -> Text:
    """Results told one after the other."""
    return Text.join(list(parts), ". ")
