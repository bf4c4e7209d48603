"""What each event of a hand did, and how each pot ended, in words: one wording for the
table's log, its results, the web replayer and the hand lists.

Pot names have one version: a lone pot is "Pot"; with side pots the first is "Main pot" and
the others "Side pot 1", "Side pot 2", ... ("Bote", "Bote principal", "Bote secundario 1").
A pot's result is a sentence: "Elena wins the main pot, 381, with a pair of sevens".
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from babel.lists import format_list

from tapete.core import events as ev
from tapete.core.cards import Card, format_cards
from tapete.core.game import Game, best_low
from tapete.core.text import LANGS, Text
from tapete.words import hands
from tapete.words.catalog import t, tc, tn
from tapete.words.money import money_text

if TYPE_CHECKING:
    from tapete.core.hand import Hand
    from tapete.core.rules import Rules

T = TypeVar("T")


# ---------------------------------------------------------------------------- small words

def and_list(items: Sequence[str | Text]) -> Text:
    """Names or clauses joined as each language joins them: "Ana, Bruno and Carla"
    ("Ana, Bruno y Carla")."""
    out = []
    for lang in LANGS:
        words = [x.in_lang(lang) if isinstance(x, Text) else x for x in items]
        out.append(format_list(words, locale=lang) if words else "")
    return Text(*out)


def pot_name(index: int, count: int) -> Text:
    """A pot as a label: "Pot" when it is the only one, else "Main pot", "Side pot 1", ...
    (``count`` is how many pots the hand has)."""
    if index == 0:
        return t("Pot") if count <= 1 else t("Main pot")
    return t("Side pot {k}", k=index)


def _pot_the(index: int, count: int) -> Text:
    """A pot within a sentence: "the pot", "the main pot", "side pot 1"."""
    if index == 0:
        return t("the pot") if count <= 1 else t("the main pot")
    return t("side pot {k}", k=index)


def _pot_bare(index: int, count: int) -> Text:
    """A pot with no article, for the languages that join one to a preposition ("del bote")."""
    if index == 0:
        return tc("no article", "pot") if count <= 1 else tc("no article", "main pot")
    return tc("no article", "side pot {k}", k=index)


def hand_starts() -> Text:
    return t("The hand starts")


def hands_count(n: int) -> Text:
    """ "1 hand", "2 hands" ("1 mano", "2 manos")."""
    return tn("{n} hand", "{n} hands", n)


def players_count(n: int) -> Text:
    """ "1 player", "6 players" ("1 jugador", "6 jugadores")."""
    return tn("{n} player", "{n} players", n)


# ---------------------------------------------------------------------------- event lines

def _all_in(line: Text, rules: Rules, stack: int) -> Text:
    """ "(all-in)", or in a cap game, for a player with chips behind, "(reaches the $80 cap)"."""
    if rules.hand_cap is not None and stack > rules.hand_cap:
        return t("{line} (reaches the {cap} cap)", line=line,
                 cap=money_text(rules.hand_cap, rules))
    return t("{line} (all-in)", line=line)


def not_in_file(line: Text) -> Text:
    """An action a hand history leaves out and the replay infers: "p8 folds (not in the
    file)"."""
    return t("{line} (not in the file)", line=line)


def _posted(e: ev.Posted, who: str, amount: Text, rules: Rules, stack: int) -> Text:
    if e.kind == ev.SMALL_BLIND:
        line = t("{who} posts the small blind {amount}", who=who, amount=amount)
    elif e.kind == ev.BIG_BLIND:
        line = t("{who} posts the big blind {amount}", who=who, amount=amount)
    elif e.kind == ev.ANTE:
        line = t("{who} posts an ante {amount}", who=who, amount=amount)
    elif e.kind == ev.DEAD:
        line = t("{who} posts a dead blind {amount}", who=who, amount=amount)
    elif e.kind == ev.STRADDLE:
        line = t("{who} straddles {amount}", who=who, amount=amount)
    elif e.kind == ev.BOMB:
        line = t("{who} posts the bomb pot's ante {amount}", who=who, amount=amount)
    else:
        line = t("{who} posts a blind {amount}", who=who, amount=amount)
    return _all_in(line, rules, stack) if e.all_in else line


def _acted(e: ev.Acted, who: str, rules: Rules, stack: int) -> Text:
    if e.action == ev.FOLD:
        line = t("{who} folds", who=who)
    elif e.action == ev.CHECK:
        line = t("{who} checks", who=who)
    elif e.action == ev.CALL:
        line = t("{who} calls {amount}", who=who, amount=money_text(e.added, rules))
    elif e.action == ev.BET:
        line = t("{who} bets {amount}", who=who, amount=money_text(e.to, rules))
    else:
        line = t("{who} raises to {amount}", who=who, amount=money_text(e.to, rules))
    if e.all_in:
        line = _all_in(line, rules, stack)
    if e.timed_out:
        line = t("{line} (out of time)", line=line)
    return line


def _board(e: ev.BoardDealt, runs: int) -> Text:
    cards = format_cards(e.cards, " ")
    street = min(e.street, 3)
    if runs > 1:
        if street == 1:
            return t("Flop (run {run}): {cards}", run=e.run + 1, cards=cards)
        if street == 2:
            return t("Turn (run {run}): {cards}", run=e.run + 1, cards=cards)
        return t("River (run {run}): {cards}", run=e.run + 1, cards=cards)
    if street == 1:
        return t("Flop: {cards}", cards=cards)
    if street == 2:
        return t("Turn: {cards}", cards=cards)
    return t("River: {cards}", cards=cards)


def _shown(who: str, cards: Sequence[Card], boards: Sequence[Sequence[Card]],
           others: Sequence[Sequence[Card]], game: Game) -> Text:
    """ "Ana shows 3h As (a pair of fives, ace kicker)": the hand on each full enough board,
    with its kicker where it tells it from a hand shown before."""
    shown = format_cards(tuple(cards), " ")
    names = []
    for b in boards:
        if len(b) < 3:
            continue
        mine = hands.best(cards, b, game)
        names.append(hands.name_against(mine, [hands.best(o, b, game) for o in others]))
    if not names:
        return t("{who} shows {cards}", who=who, cards=shown)
    return t("{who} shows {cards} ({hand})", who=who, cards=shown,
             hand=Text.join(names, " / "))


def _line(e: ev.Event, names: Sequence[str], rules: Rules, stacks: Sequence[int],
          boards: Sequence[Sequence[Card]], shown: Mapping[int, Sequence[Card]],
          won: Sequence[int], pot_count: int) -> Text:
    if isinstance(e, ev.Posted):
        return _posted(e, names[e.player], money_text(e.amount, rules), rules, stacks[e.player])
    if isinstance(e, ev.HoleDealt):
        return t("Hole cards are dealt")
    if isinstance(e, ev.BoardDealt):
        return _board(e, len(boards))
    if isinstance(e, ev.Acted):
        return _acted(e, names[e.player], rules, stacks[e.player])
    if isinstance(e, ev.Returned):
        return t("{who} takes back {amount} (uncalled)", who=names[e.player],
                 amount=money_text(e.amount, rules))
    if isinstance(e, ev.RunsChosen):
        return tn("The rest of the board is run once", "The rest of the board is run {n} times",
                  e.runs)
    if isinstance(e, ev.Shown):
        others = [c for p, c in shown.items() if p != e.player]
        return _shown(names[e.player], e.cards, boards, others, rules.game)
    if isinstance(e, ev.Mucked):
        return t("{who} mucks", who=names[e.player])
    if isinstance(e, ev.Raked):
        return t("{pot}: rake {amount}", pot=pot_name(e.pot, pot_count),
                 amount=money_text(e.amount, rules))
    if isinstance(e, ev.Awarded):
        who = names[e.player]
        amount = money_text(e.amount, rules)
        pot, bare = _pot_the(e.pot, pot_count), _pot_bare(e.pot, pot_count)
        if e.half:  # a high-low pot's half (docs/rules.md section 4)
            half = tc("half of a pot", "the high") if e.half == ev.HIGH \
                else tc("half of a pot", "the low")
            if len(boards) > 1:
                return t("{who} wins {amount} from {pot} in run {run} with {half}", who=who,
                         amount=amount, pot=pot, bare=bare, run=e.run + 1, half=half)
            return t("{who} wins {amount} from {pot} with {half}", who=who, amount=amount,
                     pot=pot, bare=bare, half=half)
        if len(boards) > 1:
            return t("{who} wins {amount} from {pot} in run {run}", who=who, amount=amount,
                     pot=pot, bare=bare, run=e.run + 1)
        return t("{who} wins {amount} from {pot}", who=who, amount=amount, pot=pot, bare=bare)
    if isinstance(e, ev.BountyPaid):
        return t("{payer} pays {who} the 7-2 bounty, {amount}", payer=names[e.payer],
                 who=names[e.player], amount=money_text(e.amount, rules))
    wins = [t("{who} wins {amount}", who=names[p], amount=money_text(x, rules))
            for p, x in enumerate(won) if x]
    if not wins:
        return t("Hand over")
    return t("Hand over: {wins}", wins=and_list(wins))


def event_line(hand: Hand, e: ev.Event, pot_count: int, *,
               names: Sequence[str] | None = None) -> Text:
    """What one event did, in words (``hand`` is the state before it; ``pot_count`` how many
    pots the hand ends with; ``names`` other labels for the players, "p3 Tom Dwan")."""
    return _line(e, names or hand.names, hand.rules, hand.starting_stacks, hand.boards,
                 hand.shown, hand.won, pot_count)


def log_lines(hand: Hand, events: Sequence[ev.Event] | None = None, *,
              names: Sequence[str] | None = None) -> list[Text]:
    """The hand's public story, one line per event (the hole cards dealt are one line; the end
    of the hand has none: the awards say it). No hidden card ever appears here. ``names``:
    other labels for the players. ``events``: the story of these events only (the first ones
    of a hand, or a list of its own); without them, the whole hand's, told by its
    :class:`Narration` (the lines said before are kept: only the new events are told)."""
    if events is None:
        return list(narration(hand, names).lines)
    return told_afresh(hand, events, names=names)


def _pot_count(hand: Hand) -> int:
    """How many pots the hand's pot lines name: the hand's pots once it is done, at least as
    many as its awards and rakes name (a lone pot until then)."""
    pot_count = len(hand.pots()) if hand.done else 0
    return max(pot_count, max((e.pot + 1 for e in hand.events
                               if isinstance(e, ev.Awarded | ev.Raked)), default=1))


def told_afresh(hand: Hand, events: Sequence[ev.Event] | None = None, *,
                names: Sequence[str] | None = None) -> list[Text]:
    """:func:`log_lines` told from the first event, each time (what :class:`Narration` says
    line by line as the hand grows)."""
    story = Narration(hand, names)
    story.pot_count = _pot_count(hand)
    for e in (events if events is not None else hand.events):
        story.tell(hand, e)
    return story.lines


class Narration:
    """A hand's story as it grows: the lines said so far are kept, and each new event adds
    its line (or none), so that a table's state, made after every event, does not tell the
    hand again from its first event. The lines are :func:`log_lines`'s, byte for byte; both
    languages are in each line (a :class:`Text`) and nothing hidden is ever said, so one
    narration serves every viewer. :func:`narration` keeps one for each hand (and each set
    of names) it is asked for.

    One thing said early depends on the hand's end: how many pots a pot line names ("the
    pot" or "the main pot"). A line of a pot is only said once the pots are settled; if the
    count changes after one was said, the story is told again from the start."""

    __slots__ = ("events", "names", "pot_count", "lines", "ends", "_json", "_boards", "_shown",
                 "_dealt", "_pot_said", "_pots_named", "_told", "results")

    def __init__(self, hand: Hand, names: Sequence[str] | None = None) -> None:
        self.events = hand.events  # the hand's own list: only ever appended to
        self.names = tuple(names) if names else None
        # what is said of the hand once it is done, made once (:func:`kept`)
        self.results: dict[str, object] = {}
        self._told = 0  # the events told
        self._pots_named = 0  # the highest pot named by an award or a rake, plus one
        self._start(hand, 1)

    def _start(self, hand: Hand, pot_count: int) -> None:
        self.pot_count = pot_count
        self.lines: list[Text] = []
        self.ends: list[int] = [0]  # lines said after the first k events told: ends[k]
        self._json: list[bytes] = []  # the lines encoded, as many as were asked for
        self._boards: list[list[Card]] = [[] for _ in range(2 if hand.double_board else 1)]
        self._shown: dict[int, Sequence[Card]] = {}
        self._dealt = False
        self._pot_said = False  # a line says a pot's name (it depends on pot_count)
        self._told = 0

    def tell(self, hand: Hand, e: ev.Event) -> None:
        """Say event ``e``, the next one (``hand``: the hand it belongs to)."""
        self._told += 1
        if isinstance(e, ev.HoleDealt):
            if not self._dealt:
                self.lines.append(t("Hole cards are dealt"))
            self._dealt = True
            self.ends.append(len(self.lines))
            return
        if isinstance(e, ev.RunsChosen):
            self._boards = [list(self._boards[0]) for _ in range(e.runs)]
        elif isinstance(e, ev.Awarded | ev.Raked):
            self._pot_said = True
            self._pots_named = max(self._pots_named, e.pot + 1)
        if not isinstance(e, ev.Ended):
            self.lines.append(_line(e, self.names or hand.names, hand.rules,
                                    hand.starting_stacks, self._boards, self._shown, (),
                                    self.pot_count))
        if isinstance(e, ev.BoardDealt):
            self._boards[e.run].extend(e.cards)
        elif isinstance(e, ev.Shown):
            self._shown[e.player] = e.cards
        self.ends.append(len(self.lines))

    def catch_up(self, hand: Hand) -> None:
        """Say the events the hand added since the last call (``hand``: this narration's)."""
        events = hand.events
        told = self._told
        if told == len(events) and not hand.done:
            return
        for k in range(told, len(events)):  # the awards and rakes to come name pots too
            e = events[k]
            if isinstance(e, ev.Awarded | ev.Raked):
                self._pots_named = max(self._pots_named, e.pot + 1)
        count = max(len(hand.pots()) if hand.done else 0, self._pots_named, 1)
        if count != self.pot_count:
            if self._pot_said:  # said with another count: told again
                self._start(hand, count)
                told = 0
            self.pot_count = count
        for k in range(told, len(events)):
            self.tell(hand, events[k])

    def upto(self, events: int) -> list[Text]:
        """The lines of the hand's first ``events`` events (told already)."""
        return self.lines[:self.ends[min(events, len(self.ends) - 1)]]

    def encoded(self, encode: Callable[[object], bytes]) -> list[bytes]:
        """Each line's JSON (``{"en": ..., "es": ...}``), encoded once by ``encode``."""
        done = self._json
        for line in self.lines[len(done):]:
            done.append(encode(line.to_json()))
        return done


# hands whose narration is kept, the most recently asked for: more than the hands a node plays
# at once (one a table, and the one that just ended); a six-player hand's is about 12 KB, and
# it keeps the hand's events too. One forgotten is told afresh when asked for again
NARRATIONS = 2048
_narrations: OrderedDict[tuple[int, tuple[str, ...] | None], Narration] = OrderedDict()
_narrating = threading.Lock()


def _kept(hand: Hand, names: Sequence[str] | None) -> Narration:
    """``hand``'s narration as kept (not told further); call with :data:`_narrating` held."""
    key = (id(hand.events), tuple(names) if names else None)
    story = _narrations.get(key)
    # the same list: the same hand (the narration holds it, so its id is not reused)
    if story is None or story.events is not hand.events:
        story = _narrations[key] = Narration(hand, names)
        while len(_narrations) > NARRATIONS:
            _narrations.popitem(last=False)
    else:
        _narrations.move_to_end(key)
    return story


def narration(hand: Hand, names: Sequence[str] | None = None) -> Narration:
    """``hand``'s :class:`Narration` (with ``names`` for its players), told up to its last
    event: kept for the :data:`NARRATIONS` hands last asked for, so that each event of a hand
    is told once, however many states, results and viewers ask for its story."""
    with _narrating:
        story = _kept(hand, names)
        story.catch_up(hand)
        return story


def kept(hand: Hand, what: str, make: Callable[[], T]) -> T:
    """What ``make`` says of ``hand`` (``what`` names it), made once when the hand is done
    and kept with its narration (each seat's result, each list of hands asks for the same
    sentences); made each time while the hand goes on. What is kept is shared: the caller
    may not change it (:mod:`.results` hands out copies)."""
    if not hand.done:
        return make()
    with _narrating:
        results = _kept(hand, None).results
        if what in results:
            return cast(T, results[what])
    made = make()  # outside the lock: it may tell the hand (a pot's result)
    with _narrating:
        return cast(T, _kept(hand, None).results.setdefault(what, made))


def log_json(hand: Hand, encode: Callable[[object], bytes]) -> bytes:
    """:func:`log_lines` of the whole hand as a JSON list, ``[{"en": ..., "es": ...}, ...]``
    (what ``encode`` writes of ``[line.to_json() for line in log_lines(hand)]``, for an
    encoder that writes no spaces, as msgspec's): each line encoded once, when first said."""
    story = narration(hand)
    with _narrating:
        return b"[" + b",".join(story.encoded(encode)) + b"]"


# ---------------------------------------------------------------------------- results

def _awards(hand: Hand, index: int) -> dict[int, dict[int, int]]:
    """Pot ``index``'s awards, run by run: {run: {player: chips}}."""
    runs: dict[int, dict[int, int]] = {}
    for e in hand.events:
        if isinstance(e, ev.Awarded) and e.pot == index:
            got = runs.setdefault(e.run, {})
            got[e.player] = got.get(e.player, 0) + e.amount
    return runs


def _halves(hand: Hand, index: int) -> dict[int, dict[str, dict[int, int]]]:
    """A high-low pot's awards, run by run and half by half: {run: {half: {player: chips}}}
    (empty for a pot played high only)."""
    runs: dict[int, dict[str, dict[int, int]]] = {}
    for e in hand.events:
        if isinstance(e, ev.Awarded) and e.pot == index and e.half:
            got = runs.setdefault(e.run, {}).setdefault(e.half, {})
            got[e.player] = got.get(e.player, 0) + e.amount
    return runs


def _half_clause(hand: Hand, index: int, run: int, half: str, won: Mapping[int, int],
                 names: Sequence[str]) -> Text:
    """Who won one half of a high-low pot on board ``run``, how much, and with what: "Olga
    wins the high, 202, with a pair of fours"; "Elena wins the low, 201, with 8-6-4-2-A low".
    ``half`` "": the high took the whole of this run's share, no low qualifying."""
    rules, game = hand.rules, hand.rules.game
    winners = sorted(won)
    board = hand.boards[run] if run < len(hand.boards) else hand.boards[0]
    side = tc("half of a pot", "the low") if half == ev.LOW else \
        tc("half of a pot", "the high") if half == ev.HIGH else tc("half of a pot", "it all")
    who = and_list([names[p] for p in winners])
    got = money_text(sum(won.values()), rules)
    made: Text | None = None
    if len(board) >= 5 and all(p in hand.shown for p in winners):
        cards = hand.shown[winners[0]]
        if half == ev.LOW:
            made = hands.low_name(best_low(game, cards, board))
        else:
            others = [p for p in _contenders(hand, index) if p not in won]
            made = hands.name_against(hands.best(cards, board, game),
                                      [hands.best(hand.shown[p], board, game) for p in others],
                                      after_with=True)
    if made is None:
        line = (t("{who} wins {half}, {amount}", who=who, half=side, amount=got)
                if len(winners) == 1 else
                t("{who} split {half}, {amount}", who=who, half=side, amount=got))
    else:
        line = (t("{who} wins {half}, {amount}, with {hand}", who=who, half=side, amount=got,
                  hand=made) if len(winners) == 1 else
                t("{who} split {half}, {amount}, with {hand}", who=who, half=side, amount=got,
                  hand=made))
    if len(set(won.values())) > 1:  # an odd chip: say who got what
        shares = and_list([t("{who} {amount}", who=names[p], amount=money_text(x, rules))
                           for p, x in sorted(won.items())])
        line = t("{line} ({shares})", line=line, shares=shares)
    return line


def _hi_lo_result(hand: Hand, index: int, count: int, amount: int,
                  halves: dict[int, dict[str, dict[int, int]]],
                  names: Sequence[str]) -> Text:
    """A high-low pot split on at least one run: "The pot, 403: Olga wins the high, 202,
    with a pair of fours; Elena wins the low, 201, with 8-6-4-2-A low", run by run when the
    board ran more than once."""
    per_run: list[Text] = []
    for run in sorted(halves):
        got = halves[run]
        if ev.LOW not in got:  # no low on this board: the high takes it all
            parts = [_half_clause(hand, index, run, ev.WHOLE, got[ev.HIGH], names)]
        else:
            parts = [_half_clause(hand, index, run, half, got[half], names)
                     for half in (ev.HIGH, ev.LOW) if half in got]
        per_run.append(Text.join(parts, "; "))
    total = money_text(amount, hand.rules)
    if len(per_run) == 1:
        return t("{pot}, {amount}: {halves}", pot=pot_name(index, count), amount=total,
                 halves=per_run[0])
    runs = Text.join([t("run {run}: {halves}", run=k + 1, halves=x)
                      for k, x in enumerate(per_run)], "; ")
    return tn("{pot}, {amount}, run once: {runs}", "{pot}, {amount}, run {n} times: {runs}",
              len(per_run), pot=pot_name(index, count), amount=total, runs=runs)


def _contenders(hand: Hand, index: int) -> list[int]:
    pots = hand.pots()
    if index < len(pots):
        return [p for p in pots[index].eligible if p in hand.shown]
    return sorted(p for p in hand.shown)


def _clause(hand: Hand, index: int, run: int, won: Mapping[int, int],
            count: int, amount: int | None,
            names: Sequence[str] | None = None) -> tuple[Text, Text | None]:
    """Who won pot ``index`` on board ``run`` and with what, and one line of why when a kicker
    or a tie decided. ``amount`` None: the clause of one run of several."""
    names, rules = names or hand.names, hand.rules
    winners = sorted(won)
    board = hand.boards[run] if run < len(hand.boards) else hand.boards[0]
    showdown = len(board) >= 5 and all(p in hand.shown for p in winners)
    hand_t: Text | None = None
    reason: Text | None = None
    if showdown:
        others = [p for p in _contenders(hand, index) if p not in won]
        strength = {p: hands.best(hand.shown[p], board, hand.rules.game)
                    for p in (*winners, *others)}
        top = strength[winners[0]]
        hand_t = hands.name_against(top, [strength[p] for p in others], after_with=True)
        if len(winners) > 1:
            reason = hands.tie()
        else:
            reason = hands.why(names[winners[0]], top, [(names[p], strength[p]) for p in others])
    who = and_list([names[p] for p in winners])
    pot, bare = _pot_the(index, count), _pot_bare(index, count)
    if amount is not None:
        total = money_text(amount, rules)
        if len(winners) == 1:
            if hand_t is None:
                line = t("{who} wins {pot}, {amount}", who=who, pot=pot, bare=bare,
                         amount=total)
            else:
                line = t("{who} wins {pot}, {amount}, with {hand}", who=who, pot=pot,
                         bare=bare, amount=total, hand=hand_t)
        elif hand_t is None:
            line = t("{who} split {pot}, {amount}", who=who, pot=pot, bare=bare, amount=total)
        else:
            line = t("{who} split {pot}, {amount}, with {hand}", who=who, pot=pot, bare=bare,
                     amount=total, hand=hand_t)
    else:
        got = money_text(sum(won.values()), rules)
        if len(winners) == 1:
            if hand_t is None:
                line = t("{who} wins {amount} in run {run}", who=who, amount=got, run=run + 1)
            else:
                line = t("{who} wins {amount} with {hand} in run {run}", who=who, amount=got,
                         hand=hand_t, run=run + 1)
        elif hand_t is None:
            line = t("{who} split {amount} in run {run}", who=who, amount=got, run=run + 1)
        else:
            line = t("{who} split {amount} with {hand} in run {run}", who=who, amount=got,
                     hand=hand_t, run=run + 1)
    if len(set(won.values())) > 1:  # an odd chip: say who got what
        shares = and_list([t("{who} {amount}", who=names[p], amount=money_text(x, rules))
                           for p, x in sorted(won.items())])
        line = t("{line} ({shares})", line=line, shares=shares)
    return line, reason


def pot_result(hand: Hand, index: int, count: int, amount: int, rake: int, *,
               names: Sequence[str] | None = None) -> Text:
    """How pot ``index`` (of ``count``) of a finished hand ended, as a sentence: "Elena wins
    the main pot, 381, with a pair of sevens"; with the rake taken from it, and one line of why
    when a kicker or a tie decided: "Ana wins the pot, 22, with a pair of fives, ace kicker
    (kicker: ace against Auditor's queen)". ``names``: other labels for the players."""
    runs = _awards(hand, index)
    halves = _halves(hand, index)
    if any(ev.LOW in h for h in halves.values()):  # a low won a half (docs/rules.md)
        line = _hi_lo_result(hand, index, count, amount, halves, names or hand.names)
        reason = None
    elif len(runs) <= 1:
        won = next(iter(runs.values()), {})
        if not won:
            line = t("{pot}, {amount}: no one wins it", pot=pot_name(index, count),
                     amount=money_text(amount, hand.rules))
            reason = None
        else:
            line, reason = _clause(hand, index, next(iter(runs)), won, count, amount, names)
    else:
        clauses = []
        reasons = []
        for run in sorted(runs):
            c, r = _clause(hand, index, run, runs[run], count, None, names)
            clauses.append(c)
            if r is not None:
                reasons.append(t("run {run}: {why}", run=run + 1, why=r))
        line = tn("{pot}, {amount}, run once: {runs}", "{pot}, {amount}, run {n} times: {runs}",
                  len(runs), pot=pot_name(index, count), amount=money_text(amount, hand.rules),
                  runs=and_list(clauses))
        reason = Text.join(reasons, "; ") if reasons else None
    if rake:
        line = t("{line} (rake {amount})", line=line, amount=money_text(rake, hand.rules))
    if reason is not None:
        line = t("{line} ({why})", line=line, why=reason)
    return line


def returned(hand: Hand, player: int, amount: int) -> Text:
    """Uncalled chips given back, as a result: "Carla takes back 200 (uncalled)"."""
    return t("{who} takes back {amount} (uncalled)", who=hand.names[player],
             amount=money_text(amount, hand.rules))


def sentences(parts: Sequence[Text]) -> Text:
    """Results told one after the other: "Elena wins the main pot, 381, with a pair of
    sevens; Diego wins side pot 1, 10, with ace high"."""
    return Text.join(list(parts), "; ")
