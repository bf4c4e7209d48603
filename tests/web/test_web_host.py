"""A host's table in a real browser: a host and two players (three browser contexts: three
identities) at a private table opened from the lobby's form with its home-game options.

The host opens the table (seats approved by the host, run it twice, bomb pots by vote, a 7-2
bounty, straddles); the two players come by its link and ask for seats; the host pauses the
table, approves one and turns the other down, who asks again and is let in, and resumes, so
the first hand is dealt to all three. They play 20 hands by clicking the page's buttons: the
7-2 bounty in the first hand (below); a run-it-twice vote that passes (everyone all in,
everyone says yes: two boards) and one that fails (one says no: one board); a bomb pot a
player asks for and the table votes (the next hand has no betting before the flop); rebuys
the host approves. Between two hands the host pauses, changes the blinds (the next hand has
them), sets a stack and resumes; at the end the host ends the game. The chat shows markup as
text, cannot take 201 characters, refuses a flood; a muted player cannot type. A player's page
has no host panel, and a host message forged from it is refused (``not_host``) and changes
nothing.

The 7-2 bounty: the server's ``deck_seed`` (tests only) makes the n-th table a process opens
deal the same decks every run, hand after hand (``Room.create``). Which seat gets which cards
also depends on who is dealt in and where the button is, and the later hands depend on
timing (who busted, whose rebuy was approved before the next deal); the first hand does not:
the table is paused until the three are seated, so it is dealt to seats 0, 1 and 2 with the
button on the host's, and :data:`DECK_SEED` gives the host 7h 2h there. Its holder raises
and the others fold: the 7-2 is shown and collects 2 big blinds from each, and the test
checks the page says so, every run.

The ledger: once the game is over and everyone has cashed out, each player's page shows its
Ledger tab by itself; the figures, read from the page, are the route's JSON, net to zero (with
the house's line and the rake, when there are any) and are squared by its payments, written
in words; the CSV downloaded parses and nets to zero (and comes in Spanish from the Spanish
page), the PHH file passes ``tapete verify`` and the PokerStars text reads back, hand by hand.
Someone who only watched (a fourth context, who never sat) is refused every ledger route (403)
and has no Ledger tab.

Screenshots at 1366x768 and 390x844 go to test-artifacts/host/: the host panel with
requests, a vote prompt, the paused table, the chat, the host's tools, the ledger (in English
and in Spanish).
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import ARTIFACTS as ALL_ARTIFACTS
from browser import WAIT_MS, LiveServer, chromium, require_chromium, settle
from waiting import bound

playwright_sync = require_chromium()

from tapete.history import pokerstars  # noqa: E402
from tapete.history.record import HandRecord  # noqa: E402
from tapete.history.replay import replay  # noqa: E402
from tapete.server import Settings, create_app  # noqa: E402

ARTIFACTS = ALL_ARTIFACTS / "host"
HANDS = 20
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = ("Host", "Bea", "Cid")
# The seeded decks (Settings.deck_seed: the first table a server opens deals the same decks
# every run): with this seed the first hand, dealt to the three seats with the button on the
# host's, gives the host 7h 2h (see the module's docstring).
DECK_SEED = 146

# Before the page's scripts: what the page showed, kept for the test (the felt changes under
# it: a hand's end shows for 0.6 s). Each hand's log lines as the Log tab showed them, and the
# most boards with cards the felt showed for each hand.
RECORDER = """(() => {
  const rec = window.__rec = { lines: {}, boards: {} };
  document.addEventListener("DOMContentLoaded", () => {
    const log = document.getElementById("log");
    if (!log) return;  // the lobby
    new MutationObserver(() => {
      const id = document.body.dataset.handId || "";
      const seen = rec.lines[id] = rec.lines[id] || [];
      for (const li of log.children) if (!seen.includes(li.textContent)) seen.push(li.textContent);
    }).observe(log, { childList: true, subtree: true, characterData: true });
    new MutationObserver(() => {
      const b = document.body.dataset;
      if (b.handId) rec.boards[b.handId] = Math.max(rec.boards[b.handId] || 0, Number(b.boards));
    }).observe(document.body, { attributes: true, attributeFilter: ["data-boards"] });
  });
})();"""

# One look at a page: whose turn, the buttons offered, the votes asked, the hand.
LOOK = """() => {
  const vis = (id) => { const e = document.getElementById(id); return !!e && e.checkVisibility(); };
  const call = document.getElementById('btn-call');
  const hole = document.querySelector('#seats .seat.me .hole');
  const b = document.body.dataset;
  return {
    turn: vis('btn-call') && !call.disabled,
    raise: vis('btn-raise') && !document.getElementById('btn-raise').disabled,
    fold: vis('btn-fold') && !document.getElementById('btn-fold').disabled,
    votes: [...document.querySelectorAll('#votes .vote')]
      .filter((v) => v.checkVisibility() && !v.querySelector('[data-testid=vote-yes]').disabled)
      .map((v) => v.getAttribute('data-testid')),
    add: vis('btn-add'), back: vis('btn-back'), waiting: vis('approval'),
    bomb: vis('btn-bomb') && !document.getElementById('btn-bomb').disabled,
    hand: b.handId || '', phase: b.phase || '', street: Number(b.street || 0),
    players: Number(b.players || 0), seated: b.seated === '1',
    cards: hole ? [...hole.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card) : [],
    board: document.querySelectorAll('#board .card[data-card]').length,
    approvals: document.querySelectorAll('#host-requests [data-testid=approve]').length,
    note: document.getElementById('home-note').checkVisibility()
      ? document.getElementById('home-note').dataset.kind : '',
    log: document.getElementById('log').innerText,
  };
}"""

# Nothing runs off the screen sideways; on a wide screen the side panel (the host's panel,
# the chat) stands clear of the table and above the action bar.
LAYOUT = """() => {
  const r = (id) => document.getElementById(id).getBoundingClientRect();
  const problems = [];
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    problems.push(`page ${document.documentElement.scrollWidth} wide in ${window.innerWidth}`);
  }
  // the bar folds away once the game is over and nothing is left in it
  const bar = document.getElementById('actions').checkVisibility() ? r('actions')
    : { top: innerHeight, bottom: innerHeight, left: 0, right: 0 };
  const [w, h] = [window.innerWidth + 1, window.innerHeight + 1];
  if (bar.bottom > h || bar.right > w) problems.push('bar off screen');
  for (const el of document.querySelectorAll('#votes .vote, #approval, #actions button')) {
    if (!el.checkVisibility()) continue;
    const b = el.getBoundingClientRect();
    if (b.right > w || b.left < -1) problems.push(`${el.id || el.textContent} off screen`);
  }
  const overlap = (a, b) => a.left < b.right && a.right > b.left && a.top < b.bottom
    && a.bottom > b.top;
  if (window.innerWidth > 1000) {
    const side = r('side'), table = r('table');
    if (side.bottom > bar.top + 1) problems.push(`side ${side.bottom} under the bar ${bar.top}`);
    if (document.getElementById('host').checkVisibility() && overlap(r('host'), table)) {
      problems.push('host over table');
    }
    for (const c of document.querySelectorAll('#seats .seat.me .card, #board .card')) {
      if (overlap(c.getBoundingClientRect(), side)) problems.push('a card under the side panel');
      if (overlap(c.getBoundingClientRect(), bar)) problems.push('a card under the bar');
    }
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("host"), think_delay=0.0,
                        result_pause=0.6, deck_seed=DECK_SEED)
    with LiveServer(create_app(settings)) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_sync, ARTIFACTS) as b:
        yield b


def shot(page: Any, name: str, both: bool = False, show: str | None = None) -> None:
    """A screenshot (and the layout checked); with ``both`` one at phone width too, scrolled
    to ``show`` there (the side panel is under the table on a phone)."""
    sizes = [("desktop", DESKTOP), ("phone", PHONE)] if both else [("", None)]
    for label, size in sizes:
        if size is not None:
            page.set_viewport_size(size)
            settle(page)
        if size is PHONE and show is not None:
            page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'end'})",
                          show)
            # the fixed action bar covers the page's foot: the panel comes up above it
            page.evaluate("() => window.scrollBy(0, document.getElementById('actions')"
                          ".offsetHeight)")
            settle(page)
        problems = page.evaluate(LAYOUT)
        assert problems == [], (name, label, problems)
        page.screenshot(path=str(ARTIFACTS / f"{name}{'-' + label if label else ''}.png"),
                        animations="disabled")  # cards dealt and turned: as they end
    if both:
        page.set_viewport_size(DESKTOP)
        page.evaluate("window.scrollTo(0, 0)")


def number(hand_id: str) -> int:
    """A hand's number, from its id (0: none)."""
    got = hand_id.split("-")[-1]
    return int(got) if got.isdigit() else 0


def hand_no(page: Any) -> int:
    return number(page.evaluate("document.body.dataset.handId") or "")


def click(page: Any, selector: str) -> bool:
    """Click what the page shows now; the page may change under the test (the turn passes,
    the hand ends): a control gone by the click is no failure, the loop looks again."""
    try:
        page.click(selector, timeout=800)
        return True
    except playwright_sync.Error:
        return False


def seven_deuce(cards: list[str]) -> bool:
    return len(cards) == 2 and sorted(c[0] for c in cards) == ["2", "7"]


def lines(page: Any, hand_id: str | None = None) -> list[str]:
    """The log lines the page showed (for one hand, or for all)."""
    rec = page.evaluate("window.__rec.lines")
    if hand_id is not None:
        return list(rec.get(hand_id, []))
    return [x for v in rec.values() for x in v]


def ask_seat(page: Any, link: str | None, seat: int, name: str) -> None:
    if link is not None:
        page.goto(link)
    page.wait_for_selector(f"[data-testid=sit-here-{seat}]", state="visible")
    page.click(f"[data-testid=sit-here-{seat}]")
    page.fill("[data-testid=seat-name]", name)
    assert page.inner_text("[data-testid=take-seat-ok]") == "Ask the host"
    page.click("[data-testid=take-seat-ok]")
    page.wait_for_selector("[data-testid=approval-wait]:visible")
    assert "Waiting for the host's approval" in page.inner_text("[data-testid=approval-wait]")


def request_of(host: Any, name: str, verb: str) -> None:
    host.wait_for_selector(f"#host-requests li[data-name={name}] [data-testid={verb}]")
    host.click(f"#host-requests li[data-name={name}] [data-testid={verb}]")


def chat(page: Any, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.press("[data-testid=chat-input]", "Enter")


def test_a_host_two_players_votes_bombs_pause_and_chat(server: LiveServer, browser: Any,
                                                       tmp_path: Any) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-US") for _ in range(3)]
    pages = [c.new_page() for c in contexts]
    errors: list[str] = []
    for pg in pages:
        pg.add_init_script(RECORDER)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("dialog", lambda d: d.accept())  # End the game? Yes
    host, bea, cid = pages
    started = time.monotonic()

    # ---------------------------------------------------------------- the lobby's form
    host.goto(server.url + "room")
    assert not host.is_visible("[data-testid=home-game]")
    host.check("[data-testid=private]")
    assert host.is_visible("[data-testid=home-game]")
    assert host.is_checked("[data-testid=approve-seats]")  # approvals by default
    host.check("[data-testid=run-it]")
    host.check("[data-testid=straddle]")
    host.check("[data-testid=bomb-vote]")
    host.fill("[data-testid=bomb-ante]", "2")  # big blinds
    host.fill("[data-testid=bounty-72]", "2")
    host.select_option("[data-testid=act-time]", "30")  # the most: no time-outs on a busy machine
    host.select_option("[data-testid=bank-time]", "0")
    host.select_option("[data-testid=seats]", "4")
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        host.set_viewport_size(size)
        settle(host)
        assert host.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        host.screenshot(path=str(ARTIFACTS / f"01-lobby-form-{label}.png"), full_page=True)
    host.set_viewport_size(DESKTOP)
    host.click("[data-testid=create]")
    host.wait_for_url("**/t/*")
    link = host.url
    table_id = link.rsplit("/", 1)[-1]
    running = server.app.state.room.get(table_id)
    rt = running.table
    c = rt.config
    assert (c.public, c.auto_approve, c.run_it, c.bomb_vote, c.bomb_ante, c.bounty_72,
            c.straddle, c.spectator_chat) == (False, False, 2, True, 4, 4, True, True)

    # ---------------------------------------------------------------- seats, by approval
    host.click("[data-testid=sit-here-0]")
    host.fill("[data-testid=seat-name]", "Host")
    assert host.inner_text("[data-testid=take-seat-ok]") == "Sit down"  # the host just sits
    host.click("[data-testid=take-seat-ok]")
    host.wait_for_function("() => document.body.dataset.seated === '1'")
    assert host.is_visible("[data-testid=host-panel]")
    assert host.is_visible("[data-testid=host-open]")
    ask_seat(bea, link, 1, "Bea")
    ask_seat(cid, link, 2, "Cid")
    shot(bea, "02-waiting-for-approval")
    # a spectator's message is the spectators' own, marked as one
    chat(cid, "hello from the rail")
    cid.wait_for_selector("#chat-lines li.spectator [data-testid=spectator-tag]")
    host.wait_for_function(
        "() => document.querySelectorAll('#host-requests [data-testid=approve]').length === 2")
    assert host.inner_text("[data-testid=host-count]") == "2"
    assert "Bea asks for a seat with 200" in host.inner_text("[data-testid=host-requests]")
    shot(host, "03-host-request", both=True, show="#host-requests")
    for other in (bea, cid):  # a player's page has no host panel
        assert not other.is_visible("[data-testid=host-panel]")
        assert not other.is_visible("[data-testid=host-open]")
    # paused until the three are seated: the first hand is dealt to all three, the same every
    # run (the seeded deck's 7-2 goes to the host)
    host.click("[data-testid=host-toggle]")
    host.click("[data-testid=host-pause]")
    host.wait_for_function("() => document.body.dataset.paused === 'next'")
    request_of(host, "Bea", "approve")
    request_of(host, "Cid", "deny")
    bea.wait_for_function("() => document.body.dataset.seated === '1'")
    cid.wait_for_selector("[data-testid=toast]:has-text('turned down your request')")
    cid.wait_for_selector("[data-testid=approval-wait]", state="hidden")
    assert not cid.evaluate("document.body.dataset.seated === '1'")
    assert "hello from the rail" not in host.inner_text("#chat-lines")  # the seated do not see it
    ask_seat(cid, None, 2, "Cid")  # asks again
    request_of(host, "Cid", "approve")
    cid.wait_for_function("() => document.body.dataset.seated === '1'")
    cid.check("[data-testid=straddle]")  # Cid straddles whenever the seat after the big blind
    cid.wait_for_function("() => document.getElementById('straddle').checked")
    for pg, name in zip(pages, NAMES, strict=True):
        assert pg.inner_text("#seats .seat.me .name").startswith(name)
    assert rt.hand_no == 0 and [s is not None for s in rt.table.seats] == [True] * 3 + [False]
    # a fourth person watches and never sits: no ledger for them
    watch_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    watcher = watch_ctx.new_page()
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    watcher.goto(link)
    watcher.wait_for_selector("[data-testid=sit-here-3]", state="visible")
    refused(watch_ctx, server, table_id)
    watcher.wait_for_function("() => document.body.dataset.ledger === '0'")  # refused
    assert not watcher.is_visible("[data-testid=tab-ledger]")
    watcher.close()  # back at the game's end (a page less to draw meanwhile)
    host.click("[data-testid=host-resume]")
    host.wait_for_function("() => document.body.dataset.paused === ''")
    host.click("[data-testid=host-toggle]")  # the tools folded again

    # ---------------------------------------------------------------- play, by clicking
    runs_yes = runs_no = None  # the hand run twice, and the one run once after a no
    bomb_voted_at = bomb_hand = None  # the hand the bomb pot was voted in, the bomb pot's
    bomb_asked = False
    bounty_line = None
    sevens: set[str] = set()  # hands where a page was dealt 7-2
    paused_done = straddled = vote_shot = two_shot = False
    mode: dict[str, str] = {}  # hand id -> how it is played: shove-yes, shove-no, normal
    k = 0
    # a bound, not a pace: the loop ends once all of it is done (some 70 s on two idle cores)
    deadline = time.monotonic() + bound(600)
    while time.monotonic() < deadline:
        looks = [pg.evaluate(LOOK) for pg in pages]
        hand, phase = looks[0]["hand"], looks[0]["phase"]
        # the hand's number from the same look as the rest (the page moves on meanwhile)
        n = number(hand)
        if runs_yes and runs_no and bomb_hand and paused_done and n >= HANDS \
                and phase != "betting":
            break
        # a seven-deuce dealt: its holder raises, the others fold (before the runs votes)
        holder = next((i for i, x in enumerate(looks) if x["hand"] == hand
                       and phase == "betting" and seven_deuce(x["cards"])), None)
        if holder is not None and mode.get(hand, "normal") == "normal":
            mode[hand] = f"bounty-{holder}"
            sevens.add(hand)
        # all in twice, everyone dealt in (and every page's cards seen: not a 7-2): the runs
        # votes (yes, then a no from Cid)
        if hand and hand not in mode and phase == "betting" and looks[0]["street"] == 0 \
                and looks[0]["players"] == 3 \
                and all(x["hand"] == hand and len(x["cards"]) == 2 for x in looks):
            if runs_yes is None:
                mode[hand] = "shove-yes"
            elif runs_no is None:
                mode[hand] = "shove-no"
        how = mode.get(hand, "normal")
        # a bomb pot, once both runs votes are done: Bea asks, Cid agrees, the host does not
        if runs_yes and runs_no and not bomb_asked and looks[1]["bomb"]:
            bomb_asked = click(bea, "[data-testid=btn-bomb]")
            if bomb_asked:
                host.wait_for_selector("[data-testid=vote-bomb]")
                assert host.inner_text("[data-testid=vote-bomb] .q") == "Bomb pot next hand?"
                shot(host, "06-bomb-vote")
                continue
        acted = False
        for i, (pg, look) in enumerate(zip(pages, looks, strict=True)):
            for vote in look["votes"]:
                if vote == "vote-runs":
                    if how == "shove-yes" and not vote_shot:
                        shot(pg, "04-vote-prompt", both=True)
                        vote_shot = True
                    no = pg is cid if how == "shove-no" else how != "shove-yes"
                else:  # the bomb pot
                    no = pg is host
                acted = click(pg, f"[data-testid={vote}] [data-testid=vote-"
                                  f"{'no' if no else 'yes'}]") or acted
            if look["add"] and not look["waiting"]:  # busted: chips (the host's at once)
                acted = click(pg, "[data-testid=btn-add]") or acted
            if look["back"]:
                acted = click(pg, "[data-testid=btn-back]") or acted
            if i == 0 and look["approvals"]:  # rebuys wait for the host
                acted = click(host, "#host-requests [data-testid=approve]") or acted
            if not look["turn"] or look["hand"] != hand:
                continue
            if how.startswith("shove"):
                if look["raise"] and click(pg, "[data-testid=preset-allin]"):
                    acted = click(pg, "[data-testid=btn-raise]") or acted
                else:
                    acted = click(pg, "[data-testid=btn-call]") or acted
            elif how.startswith("bounty"):
                mine = i == int(how.rsplit("-", 1)[-1])
                button = ("btn-raise" if look["raise"] else "btn-call") if mine else \
                    ("btn-fold" if look["fold"] else "btn-call")
                acted = click(pg, f"[data-testid={button}]") or acted
            elif k % 17 == 5 and look["raise"] and look["street"] > 0:
                acted = click(pg, "[data-testid=btn-raise]") or acted
            else:
                acted = click(pg, "[data-testid=btn-call]") or acted
            k += 1
        if how == "shove-yes" and not two_shot and host.evaluate(
                "document.body.dataset.boards") == "2":
            shot(host, "05-two-boards")
            two_shot = True
        # what the hands over showed: the runs on the felt and in the log
        boards = host.evaluate("window.__rec.boards")
        for h, m in list(mode.items()):
            if h == hand or m not in ("shove-yes", "shove-no"):
                continue
            said = lines(host, h)
            if m == "shove-yes" and runs_yes is None:
                if any("The rest of the board is run 2 times" in x for x in said):
                    assert boards.get(h) == 2, (h, boards.get(h))  # two boards on the felt
                    assert "Everyone agrees: the board runs 2 times" in host.inner_text(
                        "#chat-lines")
                    runs_yes = h
            elif m == "shove-no" and runs_no is None and \
                    any("The rest of the board is run once" in x for x in said):
                assert boards.get(h) == 1, (h, boards.get(h))  # one board
                assert "The board runs once" in host.inner_text("#chat-lines")
                runs_no = h
            if h not in (runs_yes, runs_no):
                mode[h] = "missed"  # no vote came (a player short of chips...): again
        # the bomb pot: voted in one hand, played the next, no betting before the flop
        if bomb_asked and bomb_voted_at is None and looks[0]["note"] == "bomb":
            bomb_voted_at = n
        said = lines(host, hand)
        if bomb_asked and bomb_hand is None and phase == "betting" and (
                any("posts the bomb pot's ante 4" in x for x in said)
                or bomb_voted_at is not None and n > bomb_voted_at):
            if bomb_voted_at is not None:  # seen voted in (a vote between hands is quick)
                assert n == bomb_voted_at + 1, (n, bomb_voted_at)
            assert any("posts the bomb pot's ante 4" in x for x in said), said
            assert not any("posts the big blind" in x for x in said), said
            assert looks[0]["street"] >= 1 and looks[0]["board"] >= 3
            bomb_hand = hand
        straddled = straddled or any("Cid straddles" in x for x in lines(host))
        if bounty_line is None:
            paid = [x for pg in pages for x in lines(pg) if "the 7-2 bounty" in x]
            bounty_line = paid[0] if paid else None
        # between two hands: the host pauses, changes the blinds, sets a stack, resumes
        if not paused_done and runs_yes and runs_no and bomb_hand and n >= 10:
            pause_and_change(host, bea, cid, running, table_id)
            paused_done = True
            continue
        if not acted:
            time.sleep(0.05)

    shot(host, "11-host-end-of-play")
    played = hand_no(host)
    assert errors == [], errors
    assert runs_yes and runs_no, (runs_yes, runs_no, mode)
    assert bomb_hand is not None, "no bomb pot was played"
    assert paused_done
    assert played >= HANDS, f"{played} hands in {time.monotonic() - started:.0f} s"
    assert straddled, "Cid never straddled"
    # the 7-2 bounty: the seeded first hand gives the host 7-2; raised, the others fold, it is
    # shown and collects from each of them
    assert f"{table_id}-1" in sevens, sevens
    assert bounty_line is not None, f"no 7-2 bounty paid (7-2 dealt in {sorted(sevens)})"
    assert re.search(r"^(Bea|Cid) pays Host the 7-2 bounty, 4$", bounty_line), bounty_line
    paid = {x for pg in pages for x in lines(pg, f"{table_id}-1") if "the 7-2 bounty" in x}
    assert paid == {"Bea pays Host the 7-2 bounty, 4", "Cid pays Host the 7-2 bounty, 4"}, paid
    print(f"\n7-2 dealt in {sorted(sevens) or 'no hand'}; bounty: {bounty_line or 'not paid'};"
          f" {played} hands in {time.monotonic() - started:.0f} s")

    # ---------------------------------------------------------------- the game's end
    host.click("[data-testid=host-end]")  # the confirm is accepted
    for pg in pages:
        pg.wait_for_function("() => document.body.dataset.over === '1'")
        assert pg.inner_text("[data-testid=home-note]").startswith("Game over")
    # the hand in play is the last: then every seat cashes out
    deadline = time.monotonic() + bound()
    while any(s is not None for s in rt.table.seats) and time.monotonic() < deadline:
        for pg in pages:
            look = pg.evaluate(LOOK)
            if look["turn"]:
                click(pg, "[data-testid=btn-call]")
            for vote in look["votes"]:
                click(pg, f"[data-testid={vote}] [data-testid=vote-no]")
        time.sleep(0.05)
    assert all(s is None for s in rt.table.seats)
    for pg in pages:
        pg.wait_for_function("() => document.body.dataset.seated === '0'")
        assert not pg.is_visible(".sit-here")  # nobody sits at a game that is over
    shot(bea, "12-game-over", both=True)
    assert not bea.is_visible("[data-testid=host-panel]")
    assert errors == [], errors
    rt.check_books()

    # ---------------------------------------------------------------- the ledger
    check_ledger(pages, contexts, server, table_id, played, tmp_path)
    host.evaluate("document.getElementById('tab-ledger').scrollTop = 0")  # the clicks scrolled it
    shot(host, "13-ledger", both=True, show="#tab-ledger")
    host.click("[data-testid=lang-toggle]")  # in Spanish: the CSV link asks for Spanish headers
    host.wait_for_selector("[data-testid=tab-ledger]:has-text('Cuentas')")
    assert host.get_attribute("[data-testid=ledger-csv]", "href").endswith("ledger.csv?lang=es")
    assert "quién paga a quién" in host.inner_text("[data-testid=ledger-open]")
    with host.expect_download() as got:
        host.click("[data-testid=ledger-csv]")
    rows = list(csv.reader(got.value.path().read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["jugador", "entrada", "recompras", "retiradas", "en la mesa", "neto"]
    shot(host, "14-ledger-es", both=True, show="#tab-ledger")
    host.click("[data-testid=lang-toggle]")
    # the one who only watched: refused, and no Ledger tab, before and after the game's end
    watcher = watch_ctx.new_page()
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    watcher.goto(link)
    watcher.wait_for_function("() => document.body.dataset.over === '1'")
    refused(watch_ctx, server, table_id)
    watcher.wait_for_function("() => document.body.dataset.ledger === '0'")
    assert not watcher.is_visible("[data-testid=tab-ledger]")
    assert not watcher.is_visible("[data-testid=ledger-open]")
    assert watcher.is_visible("[data-testid=result]")  # the Last hand tab, as ever
    assert errors == [], errors
    for ctx in [*contexts, watch_ctx]:
        ctx.close()


# The ledger as the page shows it: a line per person (and the house), the rake, the payments.
LEDGER_DOM = """() => {
  const el = document.getElementById('tab-ledger');
  const n = (x) => Number(x);
  const lines = [...el.querySelectorAll('[data-testid=ledger-line]')].map((tr) => ({
    name: tr.dataset.name, house: tr.dataset.house === '1', you: tr.dataset.you === '1',
    buy_in: n(tr.dataset.buyIn), rebuys: n(tr.dataset.rebuys), cash_out: n(tr.dataset.cashOut),
    at_table: n(tr.dataset.atTable), net: n(tr.dataset.net),
    cells: [...tr.cells].map((c) => c.innerText.trim()),
  }));
  const rake = el.querySelector('[data-testid=ledger-rake]');
  return {
    shown: el.checkVisibility(), final: el.dataset.final === '1', hands: n(el.dataset.hands),
    title: document.getElementById('ledger-title').innerText, lines,
    rake: rake ? n(rake.dataset.net) : 0,
    payments: [...el.querySelectorAll('[data-testid=ledger-payment]')].map((li) => ({
      from: n(li.dataset.from), to: n(li.dataset.to), amount: n(li.dataset.amount),
      text: li.innerText })),
    links: ['csv', 'phh', 'txt'].map((k) => document.getElementById('ledger-' + k).href),
  };
}"""
LEDGER_ROUTES = ("ledger", "ledger.csv", "hands.phhs", "hands.txt")


def refused(ctx: Any, server: LiveServer, table_id: str) -> None:
    """Someone who never sat at the table: every ledger route answers 403."""
    for route in LEDGER_ROUTES:
        answer = ctx.request.get(f"{server.url}api/room/tables/{table_id}/{route}")
        assert answer.status == 403, (route, answer.status)
        assert "Only the players who have sat" in answer.json()["error"]["en"]


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def check_ledger(pages: list[Any], contexts: list[Any], server: LiveServer, table_id: str,
                 played: int, tmp_path: Any) -> None:
    """Each player's page shows the table's final ledger, open at the game's end: the same as
    the route's JSON, netting to zero, squared by its payments; the downloads read back."""
    base = f"{server.url}api/room/tables/{table_id}"
    for pg, ctx, name in zip(pages, contexts, NAMES, strict=True):
        answer = ctx.request.get(f"{base}/ledger")
        assert answer.status == 200, answer.status
        data = answer.json()
        lines = data["lines"]
        # every person has left: nothing at the table, the game's every finished hand
        assert [x["name"]["en"] for x in lines if not x["house"]] == list(NAMES), lines
        assert not any(x["seated"] for x in lines) and not any(x["at_table"] for x in lines)
        assert data["hands"] >= played - 1, (data["hands"], played)  # a voided hand is left out
        assert [x["name"]["en"] for x in lines if x["you"]] == [name]
        # the books: the nets (the house's too) and the rake sum to zero
        assert sum(x["net"] for x in lines) + data["rake"] == 0, data
        for x in lines:
            assert x["net"] == x["cash_out"] + x["at_table"] - x["buy_in"] - x["rebuys"], x
        # the page: open at the game's end, as the route gives it
        deadline = time.monotonic() + bound()
        while True:
            dom = pg.evaluate(LEDGER_DOM)
            same = [{k: y[k] for k in ("name", "house", "you", "buy_in", "rebuys", "cash_out",
                                       "at_table", "net")} for y in dom["lines"]] == \
                [{**{k: x[k] for k in ("house", "you", "buy_in", "rebuys", "cash_out",
                                       "at_table", "net")}, "name": x["name"]["en"]}
                 for x in lines]
            if same and dom["final"] and dom["hands"] == data["hands"] or \
                    time.monotonic() > deadline:
                break
            pg.wait_for_timeout(200)
        assert same, (name, dom["lines"], lines)
        assert dom["shown"] and dom["final"], (name, dom)  # shown by itself at the end
        assert pg.evaluate("document.body.dataset.ledger") == "1"
        assert pg.is_visible("[data-testid=tab-ledger].on")
        assert pg.is_visible("[data-testid=ledger-open]")
        assert dom["title"] == f"Final ledger: {data['hands']} hands", dom["title"]
        assert dom["rake"] == data["rake"]
        assert sum(y["net"] for y in dom["lines"]) + dom["rake"] == 0
        for y in dom["lines"]:  # the figures as written: whole chips, the net signed
            assert [digits(c) for c in y["cells"][1:]] == [str(abs(y[k])) for k in (
                "buy_in", "rebuys", "cash_out", "at_table", "net")], y
            assert y["cells"][5].startswith("+" if y["net"] > 0 else "-" if y["net"] else "0")
        # who pays whom: the route's payments, in words; they bring everyone to zero
        assert [{k: p[k] for k in ("from", "to", "amount")} for p in dom["payments"]] == [
            {"from": p["from"], "to": p["to"], "amount": p["amount"]}
            for p in data["settlement"]]
        balance = [x["net"] + (data["rake"] if x["house"] else 0) for x in lines]
        for p in data["settlement"]:
            assert p["amount"] > 0 and balance[p["from"]] < 0 < balance[p["to"]], (p, balance)
            balance[p["from"]] += p["amount"]
            balance[p["to"]] -= p["amount"]
        assert balance == [0] * len(lines), balance
        for p in dom["payments"]:
            payer, payee = (lines[p[k]]["name"]["en"] for k in ("from", "to"))
            assert p["text"] == f"{payer} pays {payee} {p['amount']:,}", p["text"]
        if not data["settlement"]:
            assert "everyone is square" in pg.inner_text("[data-testid=ledger-settlement]")
        assert dom["links"] == [f"{base}/ledger.csv", f"{base}/hands.phhs", f"{base}/hands.txt"]
    # the downloads, as the host's page links them
    host = pages[0]
    saved = {}
    for key in ("csv", "phh", "txt"):
        with host.expect_download() as got:
            host.click(f"[data-testid=ledger-{key}]")
        dl = got.value
        assert dl.suggested_filename == f"tapete-{table_id}-" + {
            "csv": "ledger.csv", "phh": "hands.phhs", "txt": "hands.txt"}[key]
        saved[key] = tmp_path / dl.suggested_filename
        dl.save_as(saved[key])
    # the CSV: a line per person (and the rake), the nets summing to zero, then the payments
    rows = list(csv.reader(saved["csv"].read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["player", "buy-in", "rebuys", "cash-outs", "at the table", "net"], rows
    gap = rows.index([])
    body, payments = rows[1:gap], rows[gap + 2:]
    assert rows[gap + 1] == ["pays", "to", "chips"], rows
    assert sum(int(r[5]) for r in body) == 0, body
    assert [r[0] for r in body if r[0] in NAMES] == list(NAMES)
    data = contexts[0].request.get(f"{base}/ledger").json()
    people = [r for r in body if r[0] != "rake"]
    assert [[int(v) for v in r[1:]] for r in people] == [
        [x[k] for k in ("buy_in", "rebuys", "cash_out", "at_table", "net")]
        for x in data["lines"]]
    assert [[r[0], r[1], int(r[2])] for r in payments] == [
        [data["lines"][p["from"]]["name"]["en"], data["lines"][p["to"]]["name"]["en"],
         p["amount"]] for p in data["settlement"]]
    # the PHH file: tapete verify checks every hand's deal against its commitment
    tapete = Path(sys.executable).with_name("tapete")  # the console script beside python
    done = subprocess.run([str(tapete), "verify", "--lang", "en", str(saved["phh"])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(done.stdout.splitlines()) == data["hands"], done.stdout
    # the PokerStars text reads back, every hand
    records = list(pokerstars.read_text(saved["txt"].read_text(encoding="utf-8")))
    bad = [r for r in records if not isinstance(r, HandRecord)]
    assert not bad, bad[:3]
    assert len(records) == data["hands"]
    assert all(replay(r).error is None for r in records)


def pause_and_change(host: Any, bea: Any, cid: Any, running: Any, table_id: str) -> None:
    """Between two hands: the host pauses, the chat is tried, a forged host message is refused,
    the blinds change and a stack is set; then the game goes on with the new blinds."""
    rt = running.table
    pages = (host, bea, cid)
    if not host.is_visible("[data-testid=host-tools]"):
        host.click("[data-testid=host-toggle]")
    host.click("[data-testid=host-pause]")
    host.wait_for_function("() => document.body.dataset.paused === 'next'")
    # the hand in play goes on, played out by calls
    deadline = time.monotonic() + bound()
    while rt.hand is not None and time.monotonic() < deadline:
        for pg in pages:
            look = pg.evaluate(LOOK)
            if look["turn"]:
                click(pg, "[data-testid=btn-call]")
            for vote in look["votes"]:
                click(pg, f"[data-testid={vote}] [data-testid=vote-no]")
            if look["add"]:
                click(pg, "[data-testid=btn-add]")
        time.sleep(0.05)
    assert rt.hand is None
    for pg in pages:
        pg.wait_for_selector("[data-testid=home-note][data-kind=paused]")
        assert pg.inner_text("[data-testid=home-note]") == "Paused by the host"
    before = rt.hand_no
    time.sleep(1.5)  # longer than the pause between hands: no hand is dealt
    assert rt.hand_no == before and rt.hand is None
    shot(bea, "07-paused", both=True)
    assert bea.is_hidden("[data-testid=host-panel]")
    # the ledger during the game, opened between hands: the route's, every finished hand in it
    bea.click("[data-testid=tab-ledger]")
    want = bea.context.request.get(
        f"{bea.url.split('/t/')[0]}/api/room/tables/{table_id}/ledger").json()
    bea.wait_for_function("(n) => document.getElementById('tab-ledger').dataset.hands"
                          " === String(n)", arg=want["hands"])
    dom = bea.evaluate(LEDGER_DOM)
    assert [(y["name"], y["net"], y["you"]) for y in dom["lines"]] == [
        (x["name"]["en"], x["net"], x["you"]) for x in want["lines"]], (dom, want)
    assert dom["title"] == f"Ledger after {want['hands']} hands" and not dom["final"]
    assert sum(x["net"] for x in want["lines"]) + want["rake"] == 0
    assert sum(x["at_table"] for x in want["lines"]) == sum(
        s.chips + s.pending_chips for s in rt.table.seats if s is not None)
    bea.click(".tabs button[data-tab=result]")

    # rebuys asked for before the pause are answered now
    while host.is_visible("#host-requests [data-testid=approve]"):
        click(host, "#host-requests [data-testid=approve]")
        host.wait_for_timeout(200)

    # a host message forged from Bea's page, on a socket of its own (Bea's cookie): refused
    seq, config = rt.seq, rt.config
    got = bea.evaluate("""async ([table, most]) => {
      const ws = new WebSocket(`ws://${location.host}/ws/t/${table}`);
      const codes = [];
      await new Promise((ok) => { ws.onopen = ok; });
      const answered = new Promise((ok) => {
        ws.onmessage = (e) => { const m = JSON.parse(e.data);
          if (m.type === 'error') { codes.push(m.code); if (codes.length === 3) ok(); } };
      });
      for (const m of [{ type: 'host', action: 'end' },
                       { type: 'host', action: 'settings', changes: { big_blind: 100 } },
                       { type: 'host', action: 'kick', seat_number: 0 }]) {
        ws.send(JSON.stringify(m));
      }
      await Promise.race([answered, new Promise((ok) => setTimeout(ok, most))]);
      ws.close();
      return codes;
    }""", [table_id, WAIT_MS])
    assert got == ["not_host"] * 3, got
    assert rt.seq == seq and rt.config == config and not rt.over and rt.changes == {}
    assert rt.seat_of(rt.host) == 0 and rt.players.get(0) == rt.host

    # the chat: markup shows as text; 200 characters at most; a flood is refused
    chat(bea, "<b>bold</b> & <i>not</i> <img src=x onerror=alert(1)>")
    host.wait_for_selector("#chat-lines li:has-text('<b>bold</b>')")
    line = host.locator("#chat-lines li[data-kind=chat]").last
    assert line.locator("[data-testid=chat-text]").inner_text() == \
        "<b>bold</b> & <i>not</i> <img src=x onerror=alert(1)>"
    assert host.evaluate("document.querySelectorAll('#chat-lines .text *').length") == 0
    assert bea.get_attribute("[data-testid=chat-input]", "maxlength") == "200"
    bea.click("[data-testid=chat-input]")
    bea.keyboard.type("x" * 201)
    assert len(bea.input_value("[data-testid=chat-input]")) == 200
    bea.press("[data-testid=chat-input]", "Enter")
    host.wait_for_selector("#chat-lines li:has-text('" + "x" * 200 + "')")
    shot(host, "08-chat", both=True, show="#chat-form")
    # 5 in 10 seconds: the rest are refused. The 7 sent at once, through the chat's form (a
    # slow machine could take 10 seconds to type them one by one)
    cid.evaluate("""() => {
      for (let i = 0; i < 7; i++) {
        document.getElementById('chat-input').value = `spam ${i}`;
        document.getElementById('chat-form').requestSubmit();
      }
    }""")
    cid.wait_for_selector("[data-testid=toast]:has-text('slow down')")
    host.wait_for_selector("#chat-lines li:has-text('spam 4')")
    assert "spam 6" not in host.inner_text("#chat-lines")
    # a muted player's input says why it is off; unmuted, it is on again
    host.click("li[data-name=Cid] [data-testid=host-mute]")
    cid.wait_for_selector("[data-testid=chat-input]:disabled")
    assert cid.inner_text("[data-testid=chat-why]") == "The host has muted you."
    shot(cid, "08b-chat-muted", both=True, show="#chat-form")
    host.click("li[data-name=Cid] [data-testid=host-mute]")  # now "Unmute"
    cid.wait_for_selector("[data-testid=chat-input]:enabled")

    # the blinds from the next hand; Bea's stack set now (between hands)
    host.fill("[data-testid=host-sb]", "2")
    host.fill("[data-testid=host-bb]", "4")
    host.click("[data-testid=host-blinds-ok]")
    host.wait_for_selector("[data-testid=host-next]:has-text('From the next hand: blinds 2/4')")
    assert "1/2" in host.inner_text("[data-testid=room-title]")
    bea_stack = host.locator("li[data-name=Bea] [data-testid=host-stack]")
    bea_stack.fill("150")
    host.click("li[data-name=Bea] [data-testid=host-stack-set]")
    bea.wait_for_selector("#seats .seat.me .stack[data-amount='150']")
    shot(host, "09-host-tools", both=True, show="#host-tools")
    host.click("[data-testid=lang-toggle]")  # the host's panel in Spanish
    host.wait_for_selector("[data-testid=host-resume]:has-text('Reanudar')")
    shot(host, "10-host-tools-es", both=True, show="#host-tools")
    host.click("[data-testid=lang-toggle]")
    host.click("[data-testid=host-resume]")
    for pg in pages:
        pg.wait_for_function("() => document.body.dataset.paused === ''")
    # the next hand has the new blinds
    host.wait_for_function(f"() => Number((document.body.dataset.handId || '').split('-').pop())"
                           f" > {before}")
    host.wait_for_selector("[data-testid=room-title]:has-text('2/4')")
    host.wait_for_function("() => [...document.querySelectorAll('#log li')]"
                           ".some((li) => /posts the (big blind 4|bomb pot)/.test(li.textContent))")
