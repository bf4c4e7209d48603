"""One hold'em strategy, five styles: preflop ranges by position and action, then equity
against the ranges the opponents' actions imply, pot odds, stack-to-pot ratio, board texture
and sizes. Its ranges are of two-card combos, so they describe hold'em only
(:func:`tapete.bots.ranges.reads`); in the Omaha games the engine offers the same styles play
:mod:`tapete.bots.omaha` (preflop hand classes, nut-aware play after the flop, hi-lo).

A :class:`~tapete.bots.style.Style` is only numbers; :class:`StyleBot` plays any of them. Every
decision is made from a :class:`~tapete.bots.view.SeatView` and a ``random.Random`` given in, so a
bot with the same seed makes the same decisions from the same views.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from tapete.bots import omaha
from tapete.bots import ranges as R
from tapete.bots.seats import open_width, players_behind, position_name
from tapete.bots.style import OpponentStats, Style
from tapete.bots.view import Decision, SeatView, bet_or_raise
from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.betting import Legal
from tapete.core.catalog import t, tn
from tapete.core.rules import Structure
from tapete.core.text import Text
from tapete.words import money_text

_AGGRESSIVE = (ev.BET, ev.RAISE)


def _pct(x: float) -> int:
    return round(100 * x)


@dataclass(slots=True)
class StyleBot:
    """A bot of one :class:`Style`. ``rng`` makes it deterministic per seed."""

    style: Style
    rng: random.Random
    name: str = ""
    stats: dict[str, OpponentStats] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name:
            self.name = self.style.name

    # ------------------------------------------------------------------ learning
    def hand_over(self, view: SeatView) -> None:
        """Remember what the opponents did in a finished hand (public actions only). In an
        Omaha game all but what ranks shown hands with hold'em's preflop order; a hand shown
        after betting is weak there by :func:`tapete.bots.omaha.weak`."""
        if not self.style.adapt:
            return
        holdem = R.reads(view.rules.game)
        if not holdem and not omaha.offered(view.rules.game):
            return
        for p in range(view.n):
            if p == view.seat:
                continue
            st = self.stats.setdefault(view.names[p], OpponentStats())
            st.hands += 1
            acts = [a for a in view.actions if a.player == p]
            if any(a.street == 0 and a.action in (ev.CALL, ev.BET, ev.RAISE) for a in acts):
                st.vpip += 1
            for a in acts:
                if a.street > 0:
                    if a.action in _AGGRESSIVE:
                        st.agg += 1
                    elif a.action in (ev.CHECK, ev.CALL):
                        st.passive += 1
            shown = view.holes[p]
            if shown is not None and holdem:
                pre = [a.action for a in acts if a.street == 0]
                pct = R.hand_percentile(shown)
                if ev.RAISE in pre or ev.BET in pre:
                    st.raised_pct += pct
                    st.raised_n += 1
                    n_agg = 0
                    for a in view.actions:
                        if a.street != 0:
                            break
                        if a.action in _AGGRESSIVE:
                            n_agg += 1
                            if a.player == p and n_agg >= 2:
                                st.reraised_pct += pct
                                st.reraised_n += 1
                                break
                elif ev.CALL in pre:
                    st.called_pct += pct
                    st.called_n += 1
            if shown is not None and len(view.board) >= 3 and any(
                    a.street > 0 and a.action in _AGGRESSIVE for a in acts):
                st.bet_shown += 1
                st.bet_weak += (R.hand_class(shown, view.board) >= R.WEAK_PAIR if holdem
                                else omaha.weak(shown, view.board))
            bet_open = False
            big = False
            street = 0
            pot = sum(view.blinds)  # before each action (antes aside)
            for a in view.actions:
                if a.street != street:
                    street, bet_open, big = a.street, False, False
                if street > 0:
                    if a.player == p and bet_open:
                        st.faced += 1
                        st.folded += a.action == ev.FOLD
                        if big:
                            st.big_faced += 1
                            st.big_folded += a.action == ev.FOLD
                    if a.action in _AGGRESSIVE and a.player != p:
                        bet_open = True
                        big = a.added >= 0.7 * pot
                pot += a.added

    def _fold_rate(self, view: SeatView, players: list[int]) -> float:
        """The lowest fold-to-a-bet rate among ``players`` (0.4 when unknown)."""
        if not self.style.adapt:
            return 0.4
        rates = [st.fold_rate() for q in players
                 if (st := self.stats.get(view.names[q])) is not None]
        return min(rates, default=0.4)

    def _size_blind(self, view: SeatView, p: int) -> bool:
        """Whether ``p`` folds to big bets hardly more often than to any bet (and calls most
        of them): then a value bet should be big."""
        st = self.stats.get(view.names[p])
        if st is None:
            return False
        big = st.big_fold_rate()
        return big < 0.5 and big <= st.fold_rate() + 0.05

    @property
    def learns(self) -> bool:
        """Whether :meth:`hand_over` is worth calling (the style reads its opponents)."""
        return self.style.adapt

    def _reads(self, view: SeatView, p: int) -> tuple[float, float, float]:
        """Looseness, aggression and bluffiness of ``p`` (1, 1, 0 when unknown)."""
        if not self.style.adapt:
            return 1.0, 1.0, 0.0
        st = self.stats.get(view.names[p])
        if st is None:
            return 1.0, 1.0, 0.0
        return st.looseness(), st.aggression(), st.bluffiness()

    def _softness(self, view: SeatView, players: list[int]) -> float:
        """How much wider than usual to play against ``players`` (1.0: not at all), from
        their average looseness; only for a style that exploits its reads."""
        x = self.style.exploit
        if not x or not players:
            return 1.0
        loose = sum(self._reads(view, q)[0] for q in players) / len(players)
        return min(1.0 + x, max(1.0, 1.0 + x * (loose - 1.0)))

    def _widths(self, view: SeatView, p: int) -> tuple[float, float]:
        """The widths of ``p``'s first raise and of its call of a raise."""
        st = self.stats.get(view.names[p]) if self.style.adapt else None
        if st is None:
            return 0.18, 0.22
        loose = st.looseness()
        return max(0.18 * loose, st.raise_width()), max(0.22 * loose, st.call_width())

    # ------------------------------------------------------------------ ranges
    def opponent_range(self, view: SeatView, p: int) -> R.Weights:
        """The hands ``p`` may hold, given every action ``p`` has taken this hand."""
        loose, aggr, bluffy = self._reads(view, p)
        raise_w, call_w = self._widths(view, p)
        st = self.stats.get(view.names[p]) if self.style.adapt else None
        raises = 0
        level = 0  # p's strongest preflop action: 0 none, 1 call, 2+ raise number
        width = 1.0
        capped = 0.0
        cap_w = 1.0
        for a in view.actions:
            if a.street != 0:
                break
            if a.action in _AGGRESSIVE:
                raises += 1
                if a.player == p:
                    level = 1 + raises
                    width = raise_w * {1: 1.0, 2: 0.4}.get(raises, 0.2)
                    if a.all_in and raises == 1 and a.to > 20 * view.big_blind:
                        width = raise_w * 0.45
                    if raises >= 2 and self.style.exploit and st is not None:
                        width = max(width, st.reraise_width())  # one who re-raises anything
                    capped = 0.0
            elif a.action == ev.CALL and a.player == p and level <= 1:
                level = 1
                width, capped, cap_w = {0: (call_w * 2, 0.04, 0.3), 1: (call_w, 0.03, 0.3)}.get(
                    raises, (call_w * 0.4, 0.02, 0.5))
        weights = R.top_range(min(1.0, width), capped, cap_w) if level else R.full_range()
        for street in range(1, view.street + 1):
            board = view.board[: street + 2]
            acts = [a.action for a in view.actions if a.street == street and a.player == p]
            if not acts:
                continue
            if ev.RAISE in acts:
                f = (1.0, 1.0, 0.6, 0.15 * aggr, 0.4 * aggr, 0.1 * aggr)
            elif ev.BET in acts:
                f = (1.0, 1.0, 0.9, 0.35 * aggr, 0.6 * aggr, 0.2 * aggr)
            elif ev.CALL in acts:
                f = (0.6, 0.8, 1.0, 0.8, 0.9, 0.15 * loose)
            else:
                f = (0.5, 0.7, 1.0, 1.0, 1.0, 1.0)
            R.narrow(weights, board, [min(1.0, x + (1.0 - x) * bluffy) for x in f])
        return weights

    # ------------------------------------------------------------------ deciding
    def decide(self, view: SeatView) -> Decision:
        """The style's answer. In hold'em it reads ranges of two-card combos
        (:func:`tapete.bots.ranges.reads`); in an Omaha game the engine offers it plays the
        Omaha strategy (:mod:`tapete.bots.omaha`) with the same style; any other game is
        refused (:class:`~tapete.bots.ranges.NotHoldem`) rather than misread."""
        legal = view.legal
        if legal is None:
            raise ValueError("this seat is not to act")
        if not R.reads(view.rules.game):
            if omaha.offered(view.rules.game):
                return omaha.decide(self, view, legal)
            raise R.NotHoldem(view.rules.game)
        if view.street == 0:
            return self._preflop(view, legal)
        return self._postflop(view, legal)

    def _raise_to(self, view: SeatView, legal: Legal, to: int) -> int:
        assert legal.min_to is not None and legal.max_to is not None
        to = max(legal.min_to, min(legal.max_to, to))
        if view.rules.structure is Structure.NO_LIMIT and to >= 0.6 * (legal.stack + legal.bet):
            to = legal.max_to  # most of the stack: all of it
        return to

    def _raise(self, view: SeatView, legal: Legal, to: int, why: Text) -> Decision:
        to = self._raise_to(view, legal, to)
        allin = to == legal.stack + legal.bet
        c = money_text(to, view.rules)
        if allin:
            say = t("I go all-in ({amount}): {why}", amount=c, why=why)
        elif legal.is_bet:
            say = t("I bet {amount}: {why}", amount=c, why=why)
        else:
            say = t("I raise to {amount}: {why}", amount=c, why=why)
        return Decision(bet_or_raise(legal, to), say)

    def _call(self, view: SeatView, legal: Legal, why: Text) -> Decision:
        if legal.check:
            return Decision(Action.check(), t("I check: {why}", why=why))
        c = money_text(legal.call, view.rules)
        return Decision(Action.call(), t("I call {amount}: {why}", amount=c, why=why))

    def _fold(self, legal: Legal, why: Text) -> Decision:
        if legal.check:
            return Decision(Action.check(), t("I check: {why}", why=why))
        return Decision(Action.fold(), t("I fold: {why}", why=why))

    # ------------------------------------------------------------------ preflop
    def _preflop(self, view: SeatView, legal: Legal) -> Decision:
        st = self.style
        seat = view.seat
        bb = view.big_blind
        hand = R.class_name(view.hole[0], view.hole[1])
        p = R.hand_percentile(view.hole)
        acts = view.street_actions(0)
        raises = [a for a in acts if a.action in _AGGRESSIVE]
        limpers = sum(1 for a in acts if a.action == ev.CALL) if not raises else 0
        pos = position_name(view, seat)
        jitter = 0.85 + 0.3 * self.rng.random()  # blurs the edges of every range
        chips_total = legal.stack + legal.bet
        others = [view.stacks[q] + view.bets[q] for q in view.opponents()]
        eff_bb = min(chips_total, max(others, default=chips_total)) / bb
        can_raise = legal.can_raise

        if not raises:
            width = min(1.0, open_width(view, seat) * st.open) * (0.8 if limpers else 1.0)
            soft = 1.0
            if st.exploit:  # loose players behind or limping in: open and isolate wider
                order = view.preflop_order
                behind = [q for q in order[order.index(seat) + 1:] if not view.folded[q]]
                limping = [a.player for a in acts if a.action == ev.CALL]
                soft = self._softness(view, behind + limping)
                width = min(1.0, width * soft * (1.25 if limping else 1.0))
            in_range = p <= width * jitter
            why_in = t("{hand} is in my top {pct} % from {position}", hand=hand,
                       pct=_pct(width), position=pos)
            if st.exploit and soft > 1.05:
                why_in = t("{why}, wider against loose players", why=why_in)
            why_out = t("{hand} is outside my top {pct} % from {position}", hand=hand,
                        pct=_pct(width), position=pos)
            if legal.check:  # the big blind in a limped pot
                if can_raise and p <= width * 0.35 * jitter:
                    to = legal.level + (3 + limpers) * bb
                    return self._raise(view, legal, to, t(
                        "{hand} is strong enough to punish the limpers", hand=hand))
                return self._call(view, legal, t("{hand}, free to see the flop", hand=hand))
            if in_range and can_raise and (not st.limp or p <= 0.05):
                if eff_bb <= 15 and view.rules.structure is Structure.NO_LIMIT:
                    return self._raise(view, legal, legal.max_to or 0, t(
                        "{hand} with {big_blinds} big blinds: all-in or fold", hand=hand,
                        big_blinds=round(eff_bb)))
                size = st.open_size + limpers + (0.5 if players_behind(view, seat) == 1 else 0)
                return self._raise(view, legal, round(size * bb), why_in)
            if in_range or (players_behind(view, seat) == 1 and p <= width * 1.6
                            and legal.call * 4 <= legal.pot_after_call):
                return self._call(view, legal, why_in)
            return self._fold(legal, why_out)

        last = raises[-1]
        raise_w, _ = self._widths(view, last.player)
        scale = min(2.5, max(0.6, math.sqrt(raise_w / 0.18)))
        price = legal.call / (legal.pot_after_call or 1)
        raiser_pos = position_name(view, raises[0].player)
        committed = legal.call >= 0.35 * chips_total or last.all_in
        n_raises = len(raises)
        if n_raises == 1:
            attack, defend = st.three * scale, st.call * scale
            if players_behind(view, seat) == 0:
                defend *= 1.6
            size_bb = last.to / bb
            if size_bb > 4:
                defend *= (4 / size_bb) ** 0.7
            what = t("an open from {position}", position=raiser_pos)
        elif n_raises == 2:
            attack, defend = st.four * scale, st.call3 * scale
            what = t("a 3-bet")
        else:
            attack, defend = st.jam * scale * 0.6, st.jam * scale * 0.4
            what = t("a {n}-bet", n=n_raises + 1)
        if st.exploit:  # a loose raiser's range is weak: re-raise and defend wider
            soft = self._softness(view, [last.player])
            attack *= soft
            defend *= soft
        if committed or (st.exploit and raise_w >= 0.3 and legal.call >= 0.1 * chips_total):
            # a big raise from a player who raises almost anything says little about the
            # hand: weigh the equity against that wide range rather than the size
            return self._preflop_committed(view, legal, hand, price)
        attack *= jitter
        defend *= jitter
        if can_raise and p <= attack:
            why = t("{hand} is in my top {pct} % against {what}", hand=hand, pct=_pct(attack),
                    what=what)
            if n_raises >= 3 or eff_bb <= 30:
                return self._raise(view, legal, legal.max_to or 0, why)
            ip = players_behind(view, seat) >= 2 and n_raises == 1
            mult = 3.0 if ip else 3.6
            if n_raises == 2:
                mult = 2.3
            to = round(last.to * mult + limpers * bb)
            return self._raise(view, legal, to, why)
        if p <= attack + defend:
            return self._call(view, legal, t(
                "{hand} is in my calling range against {what}; the price is {pct} %",
                hand=hand, what=what, pct=_pct(price)))
        if can_raise and n_raises == 1 and not committed and p <= 0.5 \
                and self.rng.random() < st.bluff * 0.12:
            return self._raise(view, legal, round(last.to * 3.2), t(
                "a 3-bet bluff with {hand}", hand=hand))
        return self._fold(legal, t("{hand} is too weak against {what}", hand=hand, what=what))

    def _preflop_committed(self, view: SeatView, legal: Legal, hand: str,
                           price: float) -> Decision:
        """A call that commits the stack: equity against the ranges of the players in."""
        st = self.style
        seat = view.seat
        involved = sorted({a.player for a in view.street_actions(0)
                           if a.action in (ev.CALL, ev.BET, ev.RAISE) and a.player != seat
                           and not view.folded[a.player]})
        if not involved:
            involved = view.opponents()
        ranges = [self.opponent_range(view, q) for q in involved]
        eq = R.equity(view.hole, (), ranges, st.samples, self.rng)
        versus = R.describe(ranges[0], ()) if len(involved) == 1 else tn(
            "{n} player's range", "{n} players' ranges", len(involved))
        return self._commit(view, legal, hand, price, eq, involved, versus)

    def _commit(self, view: SeatView, legal: Legal, hand: str | Text, price: float, eq: float,
                involved: list[int], versus: Text) -> Decision:
        """Call, move in or fold a call that commits the stack, by the equity ``eq`` against
        the ``involved`` players' ranges (any game's)."""
        st = self.style
        behind = sum(1 for q in view.opponents() if q not in involved and not view.all_in[q])
        need = price + st.call_margin + 0.02 * behind
        k = len(involved)
        why = t("{hand} has {equity} % equity against {versus}, the price is {price} %",
                hand=hand, equity=_pct(eq), versus=versus, price=_pct(price))
        if eq < need:
            return self._fold(legal, why)
        norm = min(1.0, eq * (k + 1) / 2) if k > 1 else eq
        if legal.can_raise and norm >= max(0.55, st.raise_at - 0.15):
            return self._raise(view, legal, legal.max_to or 0, why)
        return self._call(view, legal, why)

    # ------------------------------------------------------------------ after the flop
    def _postflop(self, view: SeatView, legal: Legal) -> Decision:
        st = self.style
        rng = self.rng
        opps = view.opponents()
        ranges = [self.opponent_range(view, q) for q in opps]
        k = len(opps)
        samples = st.samples if k <= 2 else st.samples * 3 // 4
        eq = R.equity(view.hole, view.board, ranges, samples, rng)
        norm = min(1.0, eq * (k + 1) / 2) if k > 1 else eq
        board = view.board
        info = R.board_info(board)
        mine = R.hand_class(view.hole, board)
        pot = view.pot
        price = legal.call / (pot + legal.call) if legal.call else 0.0
        if k == 1:
            versus = R.describe(ranges[0], board)
        else:
            merged = np.sum(ranges, axis=0)
            words = R.range_words(merged, board)
            versus = tn("{n} range of mostly {words}", "{n} ranges of mostly {words}", k,
                        words=words)
        eq_txt = t("{equity} % equity against {versus}", equity=_pct(eq), versus=versus)
        others = [view.stacks[q] for q in opps]
        eff = min(legal.stack, max(others, default=legal.stack))
        spr = eff / max(1, pot)
        draw = mine == R.DRAW and view.street < 3
        limit = view.rules.structure is Structure.FIXED_LIMIT

        if not legal.check:
            implied = 0.05 if draw and not limit and spr > 2 else 0.0
            need = price + st.call_margin - implied
            if st.exploit:  # an aggressive bettor's bets are wider than its shown hands say
                bettor = next((a.player for a in reversed(view.actions)
                               if a.action in _AGGRESSIVE), opps[0])
                need -= min(0.05, 0.03 * st.exploit * (self._reads(view, bettor)[1] - 1.0))
            if legal.can_raise and norm >= st.raise_at:
                frac = self._size(norm, info, value=True, spr=spr, street=view.street)
                to = legal.call_to + round(frac * (pot + legal.call))
                return self._raise(view, legal, to, t("{equity}; raising for value",
                                                      equity=eq_txt))
            if legal.can_raise and draw and rng.random() < st.bluff_raise:
                to = legal.call_to + round(st.sizes[1] * (pot + legal.call))
                return self._raise(view, legal, to, t("{equity}; a semi-bluff with my draw",
                                                      equity=eq_txt))
            if st.exploit and k == 1 and legal.can_raise and not limit and eq < need \
                    and mine >= R.WEAK_PAIR:
                # a bettor who folds to raises more than the price asks: raise it as a bluff
                to = self._raise_to(view, legal, legal.call_to + round(
                    st.sizes[1] * (pot + legal.call)))
                risk = to - legal.bet
                edge = self._fold_rate(view, opps) - risk / (risk + pot)
                if edge > 0.05 and rng.random() < min(1.0, st.exploit * edge):
                    return self._raise(view, legal, to, t(
                        "{equity}; a bluff raise: this player folds too often", equity=eq_txt))
            return self._price_call(view, legal, eq, need, eq_txt, price)

        folds, bet_at = self._bet_at(view, opps)
        if legal.can_raise and norm >= bet_at:
            frac = self._size(norm, info, value=True, spr=spr, street=view.street)
            if st.exploit and frac < 10:
                if folds < 0.4:  # callers pay: bet bigger
                    frac = min(1.5, frac * (1.0 + st.exploit * (0.4 - folds) / 0.4))
                if norm >= 0.7 and k == 1 and self._size_blind(view, opps[0]):
                    frac = max(frac, 1.5 if spr > 2 else 10.0)  # they call big bets as often
            return self._bet(view, legal, frac, info, eq_txt, t("for value"))
        aggressor = any(a.player == view.seat and a.action in _AGGRESSIVE
                        for a in view.actions if a.street == view.street - 1)
        bluff = st.bluff * (1.5 if aggressor else 1.0) * (1.4 if draw else 1.0)
        if st.exploit:  # bluff as often as the reads say everyone folds, against the price
            frac = self._size(norm, info, value=False, spr=spr, street=view.street)
            all_fold = math.prod(self._fold_rate(view, [q]) for q in opps)
            bluff *= min(2.5, max(0.1, 1.0 + 4 * st.exploit * (all_fold - frac / (1 + frac))))
        else:
            bluff *= 0.4 ** (k - 1) * min(2.0, max(0.1, (folds / 0.4) ** 2))
        if mine in (R.TOP_PAIR, R.WEAK_PAIR):
            bluff *= 0.3  # showdown value: no need to bet it
        if legal.can_raise and rng.random() < bluff:
            frac = self._size(norm, info, value=False, spr=spr, street=view.street)
            return self._bet(view, legal, frac, info, eq_txt, t("as a bluff"))
        return self._call(view, legal, t("{equity}, not enough to bet", equity=eq_txt))

    def _price_call(self, view: SeatView, legal: Legal, eq: float, need: float, eq_txt: Text,
                    price: float) -> Decision:
        """Call a bet when the equity ``eq`` reaches ``need`` (the price and margins), else
        fold; ``eq_txt`` says the equity, ``price`` the share of the pot the call is."""
        why = t("{equity}, the price is {price} %", equity=eq_txt, price=_pct(price))
        if eq >= need:
            return self._call(view, legal, why)
        return self._fold(legal, why)

    def _bet_at(self, view: SeatView, opps: list[int]) -> tuple[float, float]:
        """The opponents' lowest fold rate and the normalised equity to bet for value (thinner
        against callers)."""
        folds = self._fold_rate(view, opps)
        return folds, self.style.bet_at - 0.1 * max(0.0, 1.0 - folds / 0.4)

    def _bet(self, view: SeatView, legal: Legal, frac: float, info: R.BoardInfo,
             eq_txt: Text, purpose: Text) -> Decision:
        """Bet ``frac`` of the pot (clamped into the legal range) and say what it came to."""
        pot = view.pot
        to = self._raise_to(view, legal, round(frac * pot))
        size = self._size_words(10.0 if to == legal.stack + legal.bet else to / max(1, pot))
        return self._raise(view, legal, to, t(
            "{equity}; betting {size} {purpose} on {board}", equity=eq_txt, size=size,
            purpose=purpose, board=info.texture()))

    def _size(self, norm: float, info: R.BoardInfo, *, value: bool, spr: float,
              street: int) -> float:
        small, medium, large = self.style.sizes
        if not value:
            return medium if info.wet else small
        if norm >= 0.88:
            if spr <= 1.5 or self.rng.random() < self.style.overbet * (0.5 + 0.25 * street):
                return 1.5 if spr > 1.5 else 10.0
            return large
        if info.wet:
            return large if norm >= 0.75 else medium
        return medium if norm >= 0.7 else small

    @staticmethod
    def _size_words(frac: float) -> Text:
        if frac >= 10:
            return t("everything")
        if frac > 1.05:
            return t("an overbet")
        if frac >= 0.95:
            return t("the pot")
        if frac >= 0.72:
            return t("three quarters of the pot")
        if frac >= 0.6:
            return t("two thirds of the pot")
        if frac >= 0.45:
            return t("half the pot")
        return t("a third of the pot")
