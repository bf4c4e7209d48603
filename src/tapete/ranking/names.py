"""Names of hands that a player reads, in English and Spanish ("pair of nines", "póker de ases").

Only what decides the category is named (the pair, the trips, the top of a straight), not the
kickers, the way dealers announce a hand.
"""

from __future__ import annotations

from typing import Final

from tapete.ranking.tables import CLASSES, TABLES

EN_ONE: Final = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
EN_MANY: Final = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)  # fmt: skip
ES_ONE: Final = (
    "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
    "jota", "reina", "rey", "as",
)  # fmt: skip
ES_MANY: Final = (
    "doses", "treses", "cuatros", "cincos", "seises", "sietes", "ochos", "nueves", "dieces",
    "jotas", "reinas", "reyes", "ases",
)  # fmt: skip
ES_FEMININE: Final = frozenset({9, 10})  # la jota, la reina


def _es_to(rank: int) -> str:
    """Spanish "al rey", "a la reina": contracts "a el" and agrees in gender."""
    return ("a la " if rank in ES_FEMININE else "al ") + ES_ONE[rank]


def _en(cat: int, r: tuple[int, ...]) -> str:
    if cat == 0:
        return f"high card, {EN_ONE[r[0]]}"
    if cat == 1:
        return f"pair of {EN_MANY[r[0]]}"
    if cat == 2:
        return f"two pair, {EN_MANY[r[0]]} and {EN_MANY[r[1]]}"
    if cat == 3:
        return f"three of a kind, {EN_MANY[r[0]]}"
    if cat == 4:
        return f"straight, {EN_ONE[r[0]]} high"
    if cat == 5:
        return f"flush, {EN_ONE[r[0]]} high"
    if cat == 6:
        return f"full house, {EN_MANY[r[0]]} full of {EN_MANY[r[1]]}"
    if cat == 7:
        return f"four of a kind, {EN_MANY[r[0]]}"
    if r[0] == 12:
        return "royal flush"
    return f"straight flush, {EN_ONE[r[0]]} high"


def _es(cat: int, r: tuple[int, ...]) -> str:
    if cat == 0:
        return f"carta alta, {ES_ONE[r[0]]}"
    if cat == 1:
        return f"pareja de {ES_MANY[r[0]]}"
    if cat == 2:
        return f"doble pareja, {ES_MANY[r[0]]} y {ES_MANY[r[1]]}"
    if cat == 3:
        return f"trío de {ES_MANY[r[0]]}"
    if cat == 4:
        return f"escalera {_es_to(r[0])}"
    if cat == 5:
        return f"color {_es_to(r[0])}"
    if cat == 6:
        full = "llenas" if r[0] in ES_FEMININE else "llenos"
        return f"full, {ES_MANY[r[0]]} {full} de {ES_MANY[r[1]]}"
    if cat == 7:
        return f"póker de {ES_MANY[r[0]]}"
    if r[0] == 12:
        return "escalera real"
    return f"escalera de color {_es_to(r[0])}"


def describe(strength: int, lang: str = "en") -> str:
    """The name of a strength: ``"two pair, aces and kings"`` or, with ``lang="es"``,
    ``"doble pareja, ases y reyes"``."""
    if not 1 <= strength <= CLASSES:
        raise ValueError(f"not a hand strength: {strength} (1..{CLASSES})")
    cat, ranks = TABLES.class_info[strength]
    return _es(cat, ranks) if lang == "es" else _en(cat, ranks)
