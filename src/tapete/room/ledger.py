"""The ledger of a room table: what each player brought, took away and still has there, and
who pays whom to settle up. Pure: the table's records in (:meth:`EventLog.read
<tapete.room.log.EventLog.read>`), figures out; whole chips only.

The rules
---------
Every figure is a move of the player's bankroll that a record states, or chips still on the
table:

- **buy-in**: the player's first ``sat`` (its ``chips``);
- **rebuys**: every later move into the table: another ``sat`` (the player left and sat again,
  under any name), ``chips`` (a rebuy or top-up: the chips ``taken``) and a host's stack edit
  that added chips (``stack`` with ``delta`` > 0, the chips taken from the bankroll);
- **cash-outs**: every move back to the bankroll: ``left`` (the seat emptied, its ``chips``),
  ``refund`` (chips added during a hand that found no room under the table maximum, given
  back: a cash-out, not a smaller rebuy, because the ledger's figures are the bankroll's moves
  as they were made) and a stack edit that took chips off (``delta`` < 0);
- **at the table**: the chips of a player still seated, as the table counts them (the stack
  as it stood when the hand in play began, with chips waiting for that hand's end). A running
  table gives them (``chips_now``); otherwise they are worked out from the records: the
  chips brought, less the chips taken away, plus the player's result in every finished hand
  (its ``Ended`` stack less its starting stack), the same figure;
- **net** = cash-outs + at the table - buy-in - rebuys.

Players are merged by player id (ids are secret: never written out), shown under the latest
name they sat with; two people whose latest names are the same are told apart by a number
("Ana (2)"). The bots (``is_bot``) are one line, **the house**. The **rake** is what the
finished hands raked (their ``Raked`` events). The books: the people's nets, plus the house's
net, plus the rake, are zero (every chip won was lost at the table, or raked);
:func:`ledger` checks it and raises :class:`~tapete.core.errors.BooksError` when they are not.

The settlement
--------------
Who pays whom so that everyone is square: the parties are the people and the house, whose
balance is its net plus the rake (the room keeps the rake: whoever paid it pays it to the
house). Those who are down pay those who are up, in the **fewest** payments (:func:`settle`):
exactly the fewest for up to :data:`EXACT_MOST` parties with something to settle (``n`` of
them need ``n - g`` payments, ``g`` the most groups they split into that each sum to zero:
found over every subset, :func:`settle_exact`), and, above that, the largest debtor pays the
largest creditor until all are square (:func:`settle_greedy`: at most ``n - 1`` payments).
"""

from __future__ import annotations

import csv
import heapq
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tapete.core.catalog import t, tc
from tapete.core.errors import BooksError
from tapete.core.text import Text
from tapete.room.hands import finished
from tapete.room.log import Record

#: the most parties :func:`settle` settles in exactly the fewest payments (2^n subsets)
EXACT_MOST = 15
# a spreadsheet reads a cell that starts so as a formula: such a name is written after a '
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


class Payment(NamedTuple):
    """``payer`` pays ``payee`` ``amount`` chips; both are indexes of :attr:`Ledger.lines`."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the ledger: a person, or the house (every bot together)."""

    name: Text
    buy_in: int = 0
    rebuys: int = 0
    cash_out: int = 0
    at_table: int = 0
    seated: bool = False  # still at the table (the house: a bot is)
    house: bool = False
    players: frozenset[str] = field(default=frozenset())  # the line's player ids (secret)

    @property
    def net(self) -> int:
        return self.cash_out + self.at_table - self.buy_in - self.rebuys


@dataclass(frozen=True, slots=True)
class Ledger:
    """A table's ledger: the people in the order they first sat, then the house (when a bot
    sat or a hand was raked); the rake; the finished hands; the settlement."""

    lines: tuple[Line, ...]
    rake: int
    hands: int
    payments: tuple[Payment, ...]

    def to_json(self, viewer: str | None = None) -> dict[str, Any]:
        """What the table's page shows (names, never ids; ``you``: ``viewer``'s line)."""
        return {
            "lines": [{"name": x.name.to_json(), "house": x.house,
                       "you": not x.house and viewer in x.players, "seated": x.seated,
                       "buy_in": x.buy_in, "rebuys": x.rebuys, "cash_out": x.cash_out,
                       "at_table": x.at_table, "net": x.net} for x in self.lines],
            "rake": self.rake, "hands": self.hands,
            "settlement": [{"from": p.payer, "to": p.payee, "amount": p.amount}
                           for p in self.payments]}

    def to_csv(self, lang: str = "en") -> str:
        """The ledger as CSV, in ``lang``: a header row and a row per line (and one for the
        rake, when there is one: the column of nets then sums to zero), an empty row, then
        the settlement under its own header row."""
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow([tc("ledger", "player").in_lang(lang), tc("ledger", "buy-in").in_lang(lang),
                    tc("ledger", "rebuys").in_lang(lang), tc("ledger", "cash-outs").in_lang(lang),
                    tc("ledger", "at the table").in_lang(lang), tc("ledger", "net").in_lang(lang)])
        for x in self.lines:
            w.writerow([_cell(x.name.in_lang(lang)), x.buy_in, x.rebuys, x.cash_out,
                        x.at_table, x.net])
        if self.rake:
            w.writerow([tc("ledger", "rake").in_lang(lang), "", "", "", "", self.rake])
        w.writerow([])
        w.writerow([tc("ledger", "pays").in_lang(lang), tc("ledger", "to").in_lang(lang),
                    tc("ledger", "chips").in_lang(lang)])
        for p in self.payments:
            w.writerow([_cell(self.lines[p.payer].name.in_lang(lang)),
                        _cell(self.lines[p.payee].name.in_lang(lang)), p.amount])
        return out.getvalue()


def _cell(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA) else text


@dataclass(slots=True)
class _Account:
    """One player's moves, as the records give them."""

    name: str
    buy_in: int = 0
    rebuys: int = 0
    cash_out: int = 0
    result: int = 0  # won less lost in the finished hands
    at_table: int = 0
    brought: bool = False  # the buy-in is made: what comes next is a rebuy
    seated: bool = False

    def money_in(self, chips: int) -> None:
        if self.brought:
            self.rebuys += chips
        else:
            self.buy_in += chips
            self.brought = True


def ledger(records: Sequence[Record], is_bot: Callable[[str], bool],
           chips_now: Mapping[str, int] | None = None) -> Ledger:
    """The ledger of a table's ``records`` (the module's rules). ``chips_now``: the chips of
    each player still seated, by player id, as a running table counts them (None: worked out
    from the records). Raises :class:`BooksError` when the books do not balance."""
    accounts: dict[str, _Account] = {}
    for r in records:
        p = r.payload
        kind = r.kind
        if kind not in ("sat", "chips", "left", "refund", "stack"):
            continue  # a hand's records, a seat's state, and every kind still to come
        pid = str(p["player"])
        a = accounts.get(pid)
        if a is None:
            a = accounts[pid] = _Account(str(p.get("name", "")))
        if kind == "sat":
            a.name, a.seated = str(p["name"]), True
            a.money_in(int(p["chips"]))
        elif kind == "chips":
            a.money_in(int(p["taken"]))
        elif kind == "stack":
            delta = int(p["delta"])
            if delta > 0:
                a.money_in(delta)
            else:
                a.cash_out -= delta
        else:
            a.cash_out += int(p["chips"])
            if kind == "left":
                a.seated = False
    hands = finished(records)
    rake = 0
    for played in hands:
        rake += played.rake()
        for pid, won in zip(played.players, played.net(), strict=True):
            accounts.setdefault(pid, _Account("")).result += won
    for pid, a in accounts.items():
        if not a.seated:
            continue
        if chips_now is not None:
            a.at_table = chips_now.get(pid, 0)
        else:
            a.at_table = a.buy_in + a.rebuys - a.cash_out + a.result
    people = [pid for pid in accounts if not is_bot(pid)]
    bots = [pid for pid in accounts if is_bot(pid)]
    names = _told_apart([accounts[pid].name for pid in people])
    lines = [_line(Text(name, name), [accounts[pid]], {pid}) for name, pid in
             zip(names, people, strict=True)]
    if bots or rake:
        lines.append(_line(t("the house"), [accounts[pid] for pid in bots], set(bots),
                           house=True))
    total = sum(x.net for x in lines) + rake
    if total != 0:
        raise BooksError(f"the ledger does not balance: the nets and the rake ({rake}) sum"
                         f" to {total}, not 0")
    balances = [x.net + (rake if x.house else 0) for x in lines]
    return Ledger(tuple(lines), rake, len(hands), tuple(settle(balances)))


def _line(name: Text, accounts: list[_Account], players: set[str],
          house: bool = False) -> Line:
    return Line(name, sum(a.buy_in for a in accounts), sum(a.rebuys for a in accounts),
                sum(a.cash_out for a in accounts), sum(a.at_table for a in accounts),
                any(a.seated for a in accounts), house, frozenset(players))


def _told_apart(names: list[str]) -> list[str]:
    """The names, the second and later of one name (whatever its case) numbered: "Ana (2)"."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        k = seen[name.casefold()] = seen.get(name.casefold(), 0) + 1
        out.append(name if k == 1 else f"{name} ({k})")
    return out


# ---------------------------------------------------------------------------- settlement

def settle(balances: Sequence[int]) -> list[Payment]:
    """The payments that square ``balances`` (each party's: > 0 is owed, < 0 owes; they sum
    to zero), between their indexes: the fewest there can be for up to :data:`EXACT_MOST`
    parties with a balance, the greedy's above (the module's docstring)."""
    if sum(balances) != 0:
        raise ValueError(f"balances that do not sum to zero: {list(balances)}")
    if sum(1 for b in balances if b) <= EXACT_MOST:
        return settle_exact(balances)
    return settle_greedy(balances)


def settle_greedy(balances: Sequence[int],
                  among: Sequence[int] | None = None) -> list[Payment]:
    """The largest debtor pays the largest creditor (the lower index first on a tie), until
    everyone is square: each payment squares one of the two, so ``n`` parties with a balance
    need at most ``n - 1``. ``among``: only these indexes (their balances sum to zero)."""
    who = range(len(balances)) if among is None else among
    owed = [(-balances[i], i) for i in who if balances[i] > 0]
    owes = [(balances[i], i) for i in who if balances[i] < 0]  # the most negative first
    heapq.heapify(owed)
    heapq.heapify(owes)
    out: list[Payment] = []
    while owes and owed:
        debt, i = heapq.heappop(owes)
        credit, j = heapq.heappop(owed)
        amount = min(-debt, -credit)
        out.append(Payment(i, j, amount))
        if -debt > amount:
            heapq.heappush(owes, (debt + amount, i))
        if -credit > amount:
            heapq.heappush(owed, (credit + amount, j))
    return out


def settle_exact(balances: Sequence[int]) -> list[Payment]:
    """The fewest payments that square ``balances`` (at most :data:`EXACT_MOST` of them not
    zero): the parties split into the most groups that each sum to zero (over every subset:
    ``best[m]``, the most such groups a chain of subsets up to ``m`` passes), each group then
    squared by :func:`settle_greedy` in one payment fewer than its size."""
    members = [i for i, b in enumerate(balances) if b]
    n = len(members)
    if n > EXACT_MOST:
        raise ValueError(f"{n} parties: the exact settlement takes at most {EXACT_MOST}")
    size = 1 << n
    total = [0] * size
    for m in range(1, size):
        low = m & -m
        total[m] = total[m ^ low] + balances[members[low.bit_length() - 1]]
    best = [0] * size
    for m in range(1, size):
        most = 0
        rest = m
        while rest:
            low = rest & -rest
            if best[m ^ low] > most:
                most = best[m ^ low]
            rest ^= low
        best[m] = most + (1 if total[m] == 0 else 0)
    # back down the best chain: the subsets on it that sum to zero cut it into the groups
    cuts: list[int] = []
    m = size - 1
    while m:
        zero = total[m] == 0
        if zero:
            cuts.append(m)
        need = best[m] - (1 if zero else 0)
        rest = m
        while best[m ^ (rest & -rest)] != need:
            rest ^= rest & -rest
        m ^= rest & -rest
    out: list[Payment] = []
    for k, cut in enumerate(cuts):
        group = cut & ~cuts[k + 1] if k + 1 < len(cuts) else cut
        out += settle_greedy(balances, [members[b] for b in range(n) if group >> b & 1])
    return out
