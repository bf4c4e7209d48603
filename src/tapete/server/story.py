"""The hand told in words, in both languages: the pot breakdown, the hands shown, the log."""

from __future__ import annotations

from typing import Any

from tapete.core import events as ev
from tapete.core.cards import format_cards
from tapete.core.hand import Hand
from tapete.core.text import Text, chips
from tapete.eval.evaluator import describe, evaluate


def _c(hand: Hand, amount: int, lang: str) -> str:
    return chips(amount, hand.rules.decimals, hand.rules.currency, lang)


def pot_lines(hand: Hand) -> list[dict[str, Any]]:
    """One line per settled pot, then one per return of uncalled chips.

    "Main pot 300: Ana, Bruno, Carla → Ana." / "Side pot 400: Bruno, Carla → Carla." /
    "200 returned to Carla." Each line also carries its numbers for the page and the tests.
    """
    out: list[dict[str, Any]] = []
    names = hand.names
    results = hand.results
    sides = len(results) - 1
    for i, r in enumerate(results):
        if not results or sides == 0:
            label = Text("Pot", "Bote")
        elif i == 0:
            label = Text("Main pot", "Bote principal")
        elif sides == 1:
            label = Text("Side pot", "Bote secundario")
        else:
            label = Text(f"Side pot {i}", f"Bote secundario {i}")
        eligible = ", ".join(names[p] for p in r.eligible)
        paid = [(p, x) for p, x in r.shares if x]
        if len(paid) == 1:
            who_en = who_es = names[paid[0][0]]
        else:
            who_en = ", ".join(f"{names[p]} {_c(hand, x, 'en')}" for p, x in paid)
            who_es = ", ".join(f"{names[p]} {_c(hand, x, 'es')}" for p, x in paid)
        rake_en = rake_es = ""
        if r.rake:
            rake_en = f" (rake {_c(hand, r.rake, 'en')})"
            rake_es = f" (comisión {_c(hand, r.rake, 'es')})"
        text = Text(
            f"{label.en} {_c(hand, r.amount, 'en')}{rake_en}: {eligible} → {who_en}.",
            f"{label.es} {_c(hand, r.amount, 'es')}{rake_es}: {eligible} → {who_es}.")
        out.append({"kind": "pot", "index": i, "amount": r.amount,
                    "eligible": [names[p] for p in r.eligible],
                    "winners": [names[p] for p, _ in paid],
                    "shares": [[names[p], x] for p, x in paid], "text": text.to_json()})
    for p, x in enumerate(hand.returned):
        if x:
            text = Text(f"{_c(hand, x, 'en')} returned to {names[p]}.",
                        f"{_c(hand, x, 'es')} devueltas a {names[p]}.")
            out.append({"kind": "returned", "amount": x, "player": names[p],
                        "text": text.to_json()})
    return out


def breakdown(hand: Hand) -> Text:
    """The whole pot breakdown as one sentence per line, joined by spaces."""
    lines = pot_lines(hand)
    return Text(" ".join(x["text"]["en"] for x in lines), " ".join(x["text"]["es"] for x in lines))


def shown_hands(hand: Hand) -> list[dict[str, Any]]:
    """Each hand shown at showdown: its cards and its name ("two pair, kings and nines")."""
    out = []
    board = tuple(hand.board)
    for p, cards in hand.shown.items():
        entry: dict[str, Any] = {"player": p, "seat": hand.seats[p], "name": hand.names[p],
                                 "cards": format_cards(cards, " ").split()}
        if len(board) >= 3:
            s = evaluate(tuple(cards) + board)
            entry["best"] = {"en": describe(s, "en"), "es": describe(s, "es")}
        out.append(entry)
    return out


_ACT = {
    ev.FOLD: ("folds", "se retira"),
    ev.CHECK: ("checks", "pasa"),
    ev.CALL: ("calls", "iguala"),
    ev.BET: ("bets", "apuesta"),
    ev.RAISE: ("raises to", "sube a"),
}
_STREETS = (("Flop", "Flop"), ("Turn", "Turn"), ("River", "River"))


def log_lines(hand: Hand, events: list[ev.Event] | None = None) -> list[Text]:
    """The hand's public story, one line per event: no hidden card ever appears here."""
    names = hand.names
    out: list[Text] = []
    for e in (events if events is not None else hand.events):
        if isinstance(e, ev.Posted):
            kinds = {ev.SMALL_BLIND: ("posts the small blind", "pone la ciega pequeña"),
                     ev.BIG_BLIND: ("posts the big blind", "pone la ciega grande"),
                     ev.ANTE: ("posts an ante", "pone un ante"),
                     ev.DEAD: ("posts a dead blind", "pone una ciega muerta"),
                     ev.STRADDLE: ("straddles", "pone un straddle")}
            en, es = kinds.get(e.kind, ("posts a blind", "pone una ciega"))
            out.append(Text(f"{names[e.player]} {en} {_c(hand, e.amount, 'en')}",
                            f"{names[e.player]} {es} {_c(hand, e.amount, 'es')}"))
        elif isinstance(e, ev.Acted):
            en, es = _ACT.get(e.action, (e.action, e.action))
            if e.action in (ev.CALL, ev.BET, ev.RAISE):
                amount = e.added if e.action == ev.CALL else e.to
                en += f" {_c(hand, amount, 'en')}"
                es += f" {_c(hand, amount, 'es')}"
            if e.all_in:
                en += " (all-in)"
                es += " (all-in)"
            if e.timed_out:
                en += " (out of time)"
                es += " (sin tiempo)"
            out.append(Text(f"{names[e.player]} {en}", f"{names[e.player]} {es}"))
        elif isinstance(e, ev.BoardDealt):
            en, es = _STREETS[min(e.street, 3) - 1]
            cards = format_cards(e.cards, " ")
            out.append(Text(f"{en}: {cards}", f"{es}: {cards}"))
        elif isinstance(e, ev.Returned):
            out.append(Text(f"{_c(hand, e.amount, 'en')} returned to {names[e.player]}",
                            f"{_c(hand, e.amount, 'es')} devueltas a {names[e.player]}"))
        elif isinstance(e, ev.Shown):
            cards = format_cards(e.cards, " ")
            out.append(Text(f"{names[e.player]} shows {cards}",
                            f"{names[e.player]} enseña {cards}"))
        elif isinstance(e, ev.Mucked):
            out.append(Text(f"{names[e.player]} mucks", f"{names[e.player]} no enseña"))
        elif isinstance(e, ev.Awarded):
            out.append(Text(f"{names[e.player]} wins {_c(hand, e.amount, 'en')}",
                            f"{names[e.player]} gana {_c(hand, e.amount, 'es')}"))
    return out
