"""Money analysis for the web replayer: tournament equity (ICM) and all-in insurance.

Both are pure functions of a hand's stacks and cards (``tapete.icm``, ``tapete.insurance``);
this module turns them into what the page shows, in both languages, and serves ``/api/icm``:
the question is read with its cap; a small one (a few players, a few paid places: exact and a
few milliseconds, :data:`IN_PROCESS_STEPS`) is answered at once, in the process; a larger one is
priced in a worker process (:mod:`.work`, already running), with a deadline, since an exact sum
over many players and paid places can take minutes. What it sends
is a model of :mod:`.replay_protocol` (:class:`~.replay_protocol.IcmAnswer`,
:class:`~.replay_protocol.Insurance`, :class:`~.replay_protocol.ErrorAnswer`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from fractions import Fraction
from math import comb

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from tapete.core.cards import Card, format_card
from tapete.core.catalog import N_, t
from tapete.core.hand import Hand, Phase
from tapete.core.money import amount_text
from tapete.core.text import Text
from tapete.eval.icm import IcmError, icm_table, parse_prizes
from tapete.eval.insurance import InsuranceError, quote
from tapete.server import replay_protocol as rp
from tapete.server import work

CASH_OUT_FEE_BPS = 100  # a cash-out keeps 1 % for the house, as the rooms that offer it do
MAX_BODY = 20_000  # bytes of an /api/icm question
ICM_DEADLINE = 10.0  # seconds an ICM question may take (in a worker process)
# the largest question answered in the process, as players x the sets of players the exact sum
# goes over (icm.exact_is_practical's count): about 5 ms of CPU with 15-digit stacks (nine
# players, three paid: 414); beyond it the question goes to a worker
# (benchmarks/bench_requests.py measures the line)
IN_PROCESS_STEPS = 500

log = logging.getLogger("tapete.server")
_TOO_LARGE = N_("the request is too large")


def _ints(value: object, what: str) -> list[int]:
    if not isinstance(value, list) or not 1 <= len(value) <= 23 \
            or any(type(x) is not int for x in value):
        raise IcmError(t("{what}: a list of whole numbers of chips is needed", what=what))
    limit = 10 ** work.MAX_DIGITS
    if any(not -limit < x < limit for x in value):
        raise IcmError(t("{what}: stacks of up to {digits} digits, please", what=what,
                         digits=work.MAX_DIGITS))
    return value


def icm_job(data: bytes) -> tuple[int, bytes]:
    """An ``/api/icm`` question's status and JSON answer (run in a worker process)."""
    try:
        try:
            body = json.loads(data)
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise IcmError(t("the request is not a JSON object"))
        start, end = _ints(body.get("start"), "start"), _ints(body.get("end"), "end")
        prizes = body.get("prizes")
        if not isinstance(prizes, str):
            raise IcmError(t("give the prizes, first place first: 50 30 20"))
        # icm_table's JSON values, as their model: no field the model does not describe
        out: rp.IcmAnswer | rp.ErrorAnswer = msgspec.convert(
            icm_table(start, end, prizes), rp.IcmAnswer, strict=True)
        status = 200
    except IcmError as exc:
        status, out = 400, rp.error(exc.message)
    return status, rp.encode(out)


def icm_steps(data: bytes) -> int:
    """The work of an ``/api/icm`` question: its players times the sets of players the exact
    sum goes over (twice that, before and after the hand, in fact); 0 for a question that is
    refused at once (not JSON, no stacks, no prizes: :func:`icm_job` says why)."""
    try:
        body = json.loads(data)
    except ValueError:
        return 0
    if not isinstance(body, dict):
        return 0
    start, prizes = body.get("start"), body.get("prizes")
    if not isinstance(start, list) or not isinstance(prizes, str):
        return 0
    try:
        paid = len(parse_prizes(prizes)[0])
    except IcmError:
        return 0
    n = len(start)
    return n * sum(comb(n, k) for k in range(min(paid, n)))


async def _icm(request: Request) -> Response:
    try:
        with work.admit() as ticket:
            data = await work.read_body(request, MAX_BODY)
            if icm_steps(data) <= IN_PROCESS_STEPS:  # exact and a few milliseconds: at once
                status, body = icm_job(data)
            else:
                status, body = await work.run(ticket, icm_job, data, deadline=ICM_DEADLINE)
        return Response(body, status_code=status, media_type="application/json")
    except work.BodyTooLarge:
        return work.error(t(_TOO_LARGE), 400, close=True)
    except (work.Busy, work.BodyTimeout, ClientDisconnect) as exc:
        return work.refusal(exc)
    except work.TooSlow:
        return work.error(t("this would take too long to work out exactly: fewer players or paid"
                            " places"), 422)
    except work.WorkerFailed as exc:
        log.error("icm: failed in a worker: %s", exc)
    except Exception:
        log.exception("icm: failed")
    return work.error(t("the tournament equity could not be worked out: {why}",
                        why=t(work.INTERNAL)), 500)


def routes() -> list[BaseRoute]:
    return [Route("/api/icm", _icm, methods=["POST"])]


def insurance_note(hand: Hand, known: Sequence[tuple[Card, ...] | None]
                   ) -> rp.Insurance | None:
    """The insurance and cash-out the player ahead could take now: only once the betting is
    over, on the flop or the turn of a single board, with every live hand known."""
    if not hand.betting_over or hand.phase is not Phase.DEAL or len(hand.boards) != 1 \
            or not 3 <= len(hand.boards[0]) <= 4:
        return None
    live = [p for p in range(hand.n) if not hand.folded[p]]
    holes: dict[int, tuple[Card, ...]] = {}
    for p in live:
        cards = known[p]
        if cards is None:
            return None
        holes[p] = cards
    pots = [(pot.amount, pot.eligible) for pot in hand.pots()]
    try:
        q = quote(holes, hand.boards[0], pots, game=hand.rules.game)
    except InsuranceError:
        return None
    if q is None:
        return None
    r = hand.rules
    name = hand.names[q.leader]

    def c(x: int | Fraction) -> Text:
        return amount_text(int(x), r.decimals, r.currency)

    def ratio(x: Fraction) -> Text:
        s = f"{float(x):.1f}".removesuffix(".0")  # odds read by a person, not chips
        return Text(s, s.replace(".", ","))

    outs = len(q.outs)
    cash, fee = c(q.expected), c(q.cash_out(CASH_OUT_FEE_BPS))
    if q.odds is None or q.premium is None or q.fair_odds is None or q.fair_premium is None:
        why = t("no outs") if not outs else \
            t("{outs} outs is more than the room insures", outs=outs)
        text = t("Insurance: {who} leads for {stake}; no insurance ({why}). Cash-out: {cash}"
                 " ({fee} after a 1 % fee).", who=name, stake=c(q.stake), why=why, cash=cash,
                 fee=fee)
    else:
        text = t("Insurance: {who} leads for {stake}; {outs} outs of {unseen} ({cards}). The"
                 " room pays {odds} to 1 (fair: {fair_odds} to 1): covering the pot costs"
                 " {premium} (fair {fair_premium}). Cash-out: {cash} ({fee} after a 1 % fee).",
                 who=name, stake=c(q.stake), outs=outs, unseen=q.unseen,
                 cards=" ".join(format_card(x) for x in q.outs), odds=ratio(q.odds),
                 fair_odds=ratio(q.fair_odds), premium=c(q.premium),
                 fair_premium=c(q.fair_premium), cash=cash, fee=fee)
    return rp.Insurance(leader=q.leader, outs=[format_card(x) for x in q.outs],
                        unseen=q.unseen, stake=q.stake, premium=q.premium,
                        cash_out=q.cash_out(CASH_OUT_FEE_BPS), text=rp.said(text))
