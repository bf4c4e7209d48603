// The practice table page. The server is the referee: this page draws the state it is sent
// (only this seat's view) and sends intentions; every amount is checked again by the engine.
//
// The server sends `state` (coalesced: a newer state may replace one not yet sent, so nothing
// here relies on seeing every state) and `hands` (the hand list: whole with reset: true when
// the page connects, then one new hand at a time), which this page keeps itself.
import { detectLang, setLang, lang, t, tn, tx, chips, percent, potName, setMoneyFormat, translate } from "../common/i18n.js";
import { cardEl, setCards } from "../common/cards.js";
import { renderTourney, renderSngForm, resetTourney, sngChoice, stillIn, tourneyOf } from "./tourney.js";

const $ = (id) => document.getElementById(id);
// a room table (/t/ID: people play each other) or the practice table (/: you and five bots)
const ROOM = (location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/) || [])[1] || null;
let SEATS = 6;
// seat positions around the oval, in % of the table box; your seat at the bottom
const POS6 = [[50, 99], [7, 76], [9, 20], [50, 1], [91, 20], [93, 76]];
let POS = POS6;
let layoutKey = "6:0:false";
// where each seat's bet stands: that far from the seat towards the middle of the felt
const BET_TOWARDS = [0.42, 0.45];
const OPPONENT_STYLES = [["Ana", "tag"], ["Bruno", "lag"], ["Carla", "nit"], ["Diego", "station"], ["Elena", "maniac"]];
const LIVE_PHASES = new Set(["deal", "betting", "showdown", "runout"]);
const REDUCED = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

let ws = null;
let stopped = false;  // the table turned this page away (closed to spectators, unknown): no reconnecting
let state = null;
let hands = [];
let stateAt = 0;
let sentSeq = null;
let amountSeq = null;
let timerHandle = null;
let toastHandle = null;
let boundsOpen = false;
// the coach as ticked in the lobby: sent once the table exists (the server has no coach
// before you sit down)
let coachWish = localStorage.getItem("tapete.coach") === "1";
let coachPending = false;
let coachAsked = null;  // the coach as last asked of the server, until a state says it is so
let coachOpened = null;  // the coach box unfolded or not, once the person chose
// what the felt showed last, to animate what changed: bets per seat, the board, hole cards
const seen = { hand: null, street: null, bets: [], board: [] };

// ------------------------------------------------------------------ connection
// a room on several nodes: where the table's owner is, as a "moved" error said (a URL, or
// a path behind the proxy); the next connection goes there
let movedTo = null;
let retryMs = 1000;  // the wait before the next try, doubled each failure up to 4 s
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const own = `${proto}//${location.host}${ROOM ? `/ws/t/${ROOM}` : "/ws"}`;
  const target = movedTo === null ? own
    : /^wss?:/.test(movedTo) ? movedTo : `${proto}//${location.host}${movedTo}`;
  movedTo = null;
  ws = new WebSocket(target);
  ws.onopen = () => { $("conn").classList.add("ok"); retryMs = 1000; };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") {
      state = msg;
      setMoneyFormat(msg.money);  // amounts as the server writes them (decimals, currency)
      state.history = hands;
      stateAt = performance.now();
      render();
      if (ROOM) roomHands(msg);
    } else if (msg.type === "hands") {
      // the hand list comes whole when the page connects, then one hand at a time
      hands = msg.reset ? msg.hands.slice() : msg.hands.concat(hands).slice(0, 50);
      if (state) { state.history = hands; render(); }
    } else if (msg.type === "moved") {
      // a room tournament moved this player to another table: follow them there
      stopped = true;
      location.href = `/t/${encodeURIComponent(msg.table)}`;
    } else if (msg.type === "error" && msg.code === "moved") {
      movedTo = msg.url || null;  // the node closes now; the next connection goes there
    } else if (msg.type === "error") {
      sentSeq = null;
      coachAsked = null;
      if (msg.code === "no_spectators" || msg.code === "no_table") stopped = true;
      toast(tx(msg.message));
      if (state) render();
    }
  };
  ws.onclose = () => {
    const c = $("conn");
    c.textContent = t("disconnected");
    c.classList.remove("ok");
    if (stopped) return;
    if (movedTo !== null) {
      setTimeout(connect, 50);
    } else {
      setTimeout(connect, retryMs);
      retryMs = Math.min(4000, retryMs * 2);
    }
  };
}

function askCoach(on) {
  coachAsked = on;
  send({ type: "coach", on });
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastHandle);
  toastHandle = setTimeout(() => { el.hidden = true; }, 5000);
}

// ------------------------------------------------------------------ building blocks
function betPos(i) {
  const [x, y] = POS[i];
  return [x + (50 - x) * BET_TOWARDS[0], y + (50 - y) * BET_TOWARDS[1]];
}

// The chairs of a room table (or a 9-max sit-and-go) around the oval, yours (or the first,
// watching) at the bottom, the others clockwise as at the practice table. They stand at equal
// steps along the oval as it is drawn, wide on a screen and tall on a phone: at equal angles
// the chairs at its narrow ends would crowd each other.
function positions(n, anchor, tall) {
  if (n === 6 && anchor === 0) return POS6;
  const aspect = tall ? 1 / 1.25 : 2 / 1.05;  // the table's width over its height (table.css)
  const steps = 720;
  const pts = [[50, 99]];
  const along = [0];
  for (let k = 1; k <= steps; k++) {
    const a = (2 * Math.PI * k) / steps;
    const p = [50 - 44 * Math.sin(a), 50 + 49 * Math.cos(a)];
    const [x0, y0] = pts[k - 1];
    along.push(along[k - 1] + Math.hypot((p[0] - x0) * aspect, p[1] - y0));
    pts.push(p);
  }
  const total = along[steps];
  const out = [];
  for (let i = 0; i < n; i++) {
    const want = (total * ((i - anchor + n) % n)) / n;
    let k = 0;
    while (k < steps && along[k + 1] <= want) k++;
    out.push(pts[k]);
  }
  return out;
}

/** The table stands up (a phone's width: table.css). */
function tall() {
  return window.innerWidth <= 760;
}

function layout(s) {
  const n = s.seats.length;
  const mineAt = s.seats.findIndex((x) => x && x.you);
  const anchor = mineAt >= 0 ? mineAt : 0;
  const key = `${n}:${anchor}:${tall()}`;
  if (key === layoutKey) return;
  layoutKey = key;
  SEATS = n;
  POS = positions(n, anchor, tall());
  buildSeats();
  seen.bets = [];
}

function buildSeats() {
  const wrap = $("seats");
  wrap.replaceChildren();
  wrap.dataset.n = String(SEATS);  // table.css: smaller seats when there are many
  for (let i = 0; i < SEATS; i++) {
    const [x, y] = POS[i];
    const seat = document.createElement("div");
    seat.className = "seat";
    seat.id = `seat-${i}`;
    seat.setAttribute("data-testid", `seat-${i}`);
    seat.style.left = `${x}%`;
    seat.style.top = `${y}%`;
    seat.innerHTML = `<div class="hole"></div><div class="plate"><div class="name"></div>
      <div class="style"></div><div class="stack"></div><div class="icm" hidden></div></div><div class="best"></div>
      <div class="last" data-testid="last-${i}" hidden></div>
      <button class="sit-here" data-testid="sit-here-${i}" hidden></button>`;
    seat.querySelector(".sit-here").onclick = () => openTakeSeat(i);
    wrap.append(seat);
    const bet = document.createElement("div");
    const [bx, by] = betPos(i);
    bet.className = "bet";
    bet.id = `bet-${i}`;
    bet.setAttribute("data-testid", `bet-${i}`);
    bet.style.left = `${bx}%`;
    bet.style.top = `${by}%`;
    bet.hidden = true;
    wrap.append(bet);
  }
  for (const kind of ["dealer", "sb", "bb"]) {
    const m = document.createElement("div");
    m.className = `marker ${kind}`;
    m.id = `marker-${kind}`;
    m.setAttribute("data-testid", `marker-${kind}`);
    m.hidden = true;
    wrap.append(m);
  }
}

function styleName(style) {
  return style ? t(style) : "";
}

// ------------------------------------------------------------------ what each seat did
// Each seat's last action on this street comes with the hand (hand.players[i].last_action:
// {action, amount, all_in}, or null), as the server reads it from the hand's events.
function lastActions(h) {
  return h.players.map((p) => p.last_action || null);
}

/** "all-in" inside a sentence: "Call 80 (all-in)". */
function allInWord() {
  return t("allIn").toLowerCase();
}

function actionText(a) {
  if (a.action === "fold") return t("fold");
  if (a.action === "check") return t("check");
  if (a.action === "call") return `${t("call")} ${chips(a.amount)}` + (a.all_in ? ` (${allInWord()})` : "");
  if (a.all_in) return `${t("allIn")} ${chips(a.amount)}`;
  return `${a.action === "bet" ? t("bet") : t("raiseTo")} ${chips(a.amount)}`;
}

// ------------------------------------------------------------------ render
function render() {
  const s = state;
  document.body.dataset.lobby = s.lobby ? "1" : "0";
  if (!s.lobby) layout(s);
  if (ROOM) renderRoomBar(s);
  $("bankroll").textContent = chips(s.me.total);
  const inPlay = s.me.at_table + (s.me.in_pot || 0);  // the stack as the board is shown + the pot
  $("at-table").textContent = inPlay ? `(${chips(inPlay)} ${t("atTable")})` : "";
  // a tournament: no leaving while still in it (after a bust, or at the end, the person may)
  const tr = tourneyOf(s);
  $("leave").hidden = s.lobby || stillIn(tr);
  $("leave").textContent = tr && !ROOM ? t("leaveTourney") : (ROOM ? $("leave").textContent : t("leave"));
  $("lobby").hidden = !s.lobby;
  $("room").hidden = s.lobby;
  if (s.lobby) {
    document.body.classList.remove("deciding");
    renderLobby(s);
  } else {
    if (coachPending) {
      coachPending = false;
      if (!!s.coach_on !== coachWish) askCoach(coachWish);
    }
    if (coachAsked === !!s.coach_on) coachAsked = null;
    renderRoom(s);
    if (ROOM && s.room) renderHome(s);
    renderTourney(s, send);
    hideEmptyBar(s);
  }
  measure();
}

function renderLobby(s) {
  const sel = $("blinds");
  const prev = sel.value;
  sel.replaceChildren(...s.options.blinds.map(([sb, bb], i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = `${chips(sb)}/${chips(bb)}`;
    return o;
  }));
  sel.value = prev || "0";
  updateBuyIn();
  $("opponent-list").replaceChildren(...OPPONENT_STYLES.map(([n, st]) => {
    const li = document.createElement("li");
    li.textContent = `${n} — ${t(st)}`;
    return li;
  }));
  $("lobby-notice").textContent = tx(s.notice);
  $("coach-toggle").checked = coachWish;
  renderHands(s, $("lobby-hands"));
  renderSngForm(s);
  // "New Sit & Go" at the end of one: the table left, the next one starts at once
  if (sngAgain) { const msg = sngAgain; sngAgain = null; resetTourney(); send(msg); }
}

let sngAgain = null;  // the sit-and-go to start again once the lobby is back

function updateBuyIn() {
  if (!state || !state.lobby) return;
  const i = Number($("blinds").value || 0);
  const bb = state.options.blinds[i][1];
  const buy = Math.min(state.options.max_buy_in_bb * bb, state.me.bankroll);
  $("buyin-amount").textContent = chips(buy);
}

function renderRoom(s) {
  const h = s.hand;
  const bySeat = {};
  if (h) for (const [i, p] of h.players.entries()) bySeat[p.seat] = { ...p, index: i };
  const actorSeat = h && h.actor != null ? h.players[h.actor].seat : null;
  const done = h && h.phase === "done";
  // a live hand: dealt and not yet settled (a finished hand's view stays on the felt)
  const live = !!(h && s.live && LIVE_PHASES.has(h.phase));
  const winners = new Set();
  if (done && h.results) for (const r of h.results) for (const [p, x] of r.shares) if (x > 0) winners.add(h.players[p].seat);
  const shown = {};
  const lr = s.last_result;
  if (done && lr && h && lr.hand_id === h.hand_id) for (const x of lr.shown) shown[x.seat] = x;
  const acted = live && h.phase === "betting" ? lastActions(h) : [];
  document.body.dataset.phase = h ? h.phase : "none";
  document.body.dataset.handId = h ? h.hand_id : "";
  document.body.dataset.seq = s.seq == null ? "" : String(s.seq);
  const newHand = !!h && h.hand_id !== seen.hand;
  const newStreet = !!h && !newHand && h.street !== seen.street;
  if (newHand) seen.bets = [];

  const seated = !ROOM || (s.room && s.room.seated);
  for (let i = 0; i < SEATS; i++) {
    const el = $(`seat-${i}`);
    const seat = s.seats[i];
    const p = bySeat[i];
    // an empty chair at a room table: "Sit here" for whoever is watching
    const sitHere = el.querySelector(".sit-here");
    sitHere.hidden = !!seat || seated || noSitting(s);
    sitHere.textContent = t("sitHere");
    el.classList.toggle("empty", !seat);
    el.hidden = !seat && sitHere.hidden;
    el.classList.toggle("me", !!(seat && seat.you));
    if (!seat) { el.querySelector(".name").textContent = ""; el.querySelector(".stack").textContent = ""; showHole(el, i, [], null); continue; }
    el.querySelector(".name").textContent = seat.name + (seat.you ? ` (${t("you")})` : "");
    el.querySelector(".style").textContent = seat.bot ? styleName(seat.style) : "";
    // a room table between hands: the seat's chips (a rebuy, a stack the host set count)
    const stack = p && (live || !ROOM) ? p.stack : seat.chips;
    // all-in only while it is true: no chips behind, in a hand still being played
    const allIn = !!(p && live && !p.folded && p.stack === 0);
    const stackEl = el.querySelector(".stack");
    stackEl.textContent = chips(stack);
    stackEl.dataset.amount = String(stack);
    if (allIn) {
      const b = document.createElement("span");
      b.className = "allin";
      b.textContent = ` · ${t("allIn")}`;
      stackEl.append(b);
    }
    el.dataset.allIn = allIn ? "1" : "0";
    let cards = [];
    if (p && p.cards) cards = p.cards;
    else if (p && p.has_cards) cards = new Array((s.rules && s.rules.hole_cards) || 2).fill(null);
    showHole(el, i, cards, h ? h.hand_id : null);
    el.classList.toggle("folded", !!(p && p.folded));
    el.classList.toggle("out", !p && (seat.sitting_out || !!h));
    el.classList.toggle("acting", actorSeat === i);
    el.classList.toggle("winner", winners.has(i));
    const best = shown[i] && shown[i].best ? tx(shown[i].best) : "";
    const bestText = best || (p && p.folded ? t("folded") : (!p && seat.sitting_out ? t("out") : ""));
    el.querySelector(".best").textContent = bestText;
    // what the seat did last on this street
    const lastEl = el.querySelector(".last");
    const a = p ? acted[p.index] : null;
    lastEl.hidden = !a || a.action === "fold" || !!bestText;
    lastEl.textContent = a ? actionText(a) : "";
    lastEl.dataset.action = a ? a.action : "";
    lastEl.dataset.allIn = a && a.all_in ? "1" : "0";
    const bet = $(`bet-${i}`);
    const amount = p ? p.bet : 0;
    const gathered = !(amount > 0) || done || (h && h.phase === "runout");
    // chips go to the pot when the street ends (or the hand does)
    const before = seen.bets[i] || 0;
    if (!newHand && before > 0 && (gathered || newStreet)) flyToPot(bet, before);
    bet.hidden = gathered;
    bet.textContent = chips(amount);
    bet.dataset.amount = String(gathered ? 0 : amount);
    if (!gathered && amount > before && !newStreet) {
      bet.classList.remove("grow");
      void bet.offsetWidth;  // restart the animation
      bet.classList.add("grow");
    }
    seen.bets[i] = gathered ? 0 : amount;
  }
  // board and pots: the first board, then the other runs (or a bomb pot's second board)
  const boards = h ? h.boards : [];
  const board = boards.length ? boards[0] : [];
  renderRuns(boards);
  document.body.dataset.boards = String(boards.filter((b) => b.length).length);
  document.body.dataset.street = h ? String(h.street) : "";
  document.body.dataset.players = h ? String(h.players.length) : "0";
  if (done && h.boards.length > 1) runsOf[h.hand_id] = h.boards.map((b) => b.slice());
  const boardEl = $("board");
  const key = JSON.stringify(board) + lang();
  if (boardEl.dataset.cards !== key) {
    boardEl.dataset.cards = key;
    const was = newHand ? [] : seen.board;
    const els = board.map((c, k) => {
      const e = cardEl(c);
      if (was[k] !== c) {  // a card just dealt: it turns over
        e.classList.add("turn");
        e.style.setProperty("--delay", `${0.09 * Math.max(0, k - was.length)}s`);
      }
      return e;
    });
    while (els.length < 5) { const e = document.createElement("div"); e.className = "card empty"; els.push(e); }
    boardEl.replaceChildren(...els);
  }
  seen.board = board.slice();
  seen.hand = h ? h.hand_id : null;
  seen.street = h ? h.street : null;
  const pots = $("pots");
  pots.replaceChildren();
  if (h && h.pot > 0) {
    const list = done && h.results ? h.results.map((r) => ({ amount: r.amount })) : h.pots;
    if (list.length > 1) {
      list.forEach((x, i) => {
        const d = document.createElement("span");
        d.className = "pot";
        d.dataset.amount = String(x.amount);
        d.textContent = `${potName(i, list.length)} ${chips(x.amount)}`;
        pots.append(d);
      });
    }
    const total = document.createElement("span");
    total.className = "pot total";
    total.setAttribute("data-testid", "pot-total");
    total.textContent = `${t("pot")} ${chips(h.pot)}`;
    pots.prepend(total);
  }
  $("banner").textContent = bannerText(s, h, actorSeat);
  renderActions(s, h);
  renderCoach(s);
  renderResult(s);
  renderHands(s);
  renderLog(s);
  fitBoard();
  placeMarkers(s, h);
}

/** The board's cards smaller where a seat beside it would touch them (a phone's narrow oval
 * with a seat at each side: 4 or 8 chairs), a step at a time, as long as one does. */
function fitBoard() {
  const center = document.querySelector("#table .center");
  const seats = [...document.querySelectorAll("#seats .seat")].filter((el) => !el.hidden);
  const touches = () => {
    const b = $("board").getBoundingClientRect();
    if (!b.width) return false;
    return seats.some((el) => {
      const r = el.getBoundingClientRect();
      return r.right + 6 > b.left && r.left - 6 < b.right && r.bottom > b.top && r.top < b.bottom;
    });
  };
  center.classList.remove("tight", "tighter");
  if ($("room").hidden || !touches()) return;
  center.classList.add("tight");
  if (touches()) center.classList.add("tighter");
}

function bannerText(s, h, actorSeat) {
  if (!h) return "";
  if (h.phase === "runout") return t("allInRunout");
  if (h.phase === "done") {
    const lr = s.last_result;
    // the server's sentences, joined as tapete.words.sentences joins them
    if (lr && lr.hand_id === h.hand_id) return lr.pots.filter((x) => x.kind === "pot").map((x) => tx(x.text)).join("; ");
    return "";
  }
  if (s.decision) return t("yourTurn");
  if (actorSeat != null && s.seats[actorSeat]) return `${s.seats[actorSeat].name} ${t("thinking")}`;
  return "";
}

// ------------------------------------------------------------------ motion
function calm() {
  return REDUCED.matches;
}

/** A seat's hole cards: dealt towards the seat in a new hand, turned over when shown. */
function showHole(el, i, codes, handId) {
  const hole = el.querySelector(".hole");
  const prev = hole._codes || [];
  const sameHand = hole._hand === handId;
  setCards(hole, codes);
  hole.classList.toggle("many", codes.length > 2);  // Omaha: four or five cards, fanned
  const same = sameHand && JSON.stringify(prev) === JSON.stringify(codes);
  hole._codes = codes;
  hole._hand = handId;
  if (same || !codes.length) return;
  const cards = hole.querySelectorAll(".card");
  if (!sameHand || !prev.length) {
    const table = $("table");
    const [x, y] = POS[i];
    const dx = ((50 - x) / 100) * table.clientWidth;
    const dy = ((50 - y) / 100) * table.clientHeight;
    cards.forEach((c, k) => {
      c.classList.add("deal");
      c.style.setProperty("--from-x", `${Math.round(dx)}px`);
      c.style.setProperty("--from-y", `${Math.round(dy)}px`);
      c.style.setProperty("--delay", `${(0.03 * i + 0.18 * k).toFixed(2)}s`);
    });
  } else if (prev.every((c) => !c) && codes.some((c) => c)) {
    cards.forEach((c, k) => {
      c.classList.add("turn");
      c.style.setProperty("--delay", `${0.08 * k}s`);
    });
  }
}

/** A bet's chips slide into the pot. */
function flyToPot(bet, amount) {
  if (calm()) return;
  const table = $("table");
  const potEl = $("pots");
  const tr = table.getBoundingClientRect();
  const pr = potEl.getBoundingClientRect();
  if (!tr.width) return;
  const fly = document.createElement("div");
  fly.className = "bet chip-fly";
  fly.setAttribute("aria-hidden", "true");
  fly.textContent = chips(amount);
  fly.style.left = bet.style.left;
  fly.style.top = bet.style.top;
  $("seats").append(fly);
  void fly.offsetWidth;
  fly.style.left = `${((pr.left + pr.width / 2 - tr.left) / tr.width) * 100}%`;
  fly.style.top = `${((pr.top + pr.height / 2 - tr.top) / tr.height) * 100}%`;
  fly.classList.add("gone");
  setTimeout(() => fly.remove(), 600);
}

// ------------------------------------------------------------------ the buttons D, SB, BB
// Each marker goes to the free place on the felt nearest its seat: clear of every seat (its
// cards, plate and the line under it), of the bets' places, of the board and of the other
// markers.
function placeMarkers(s, h) {
  const table = $("table");
  const tr = table.getBoundingClientRect();
  const want = [["dealer", s.button_seat], ["sb", h ? s.sb_seat : null], ["bb", h ? s.bb_seat : null]];
  for (const [kind, seat] of want) {
    const m = $(`marker-${kind}`);
    m.hidden = seat == null || !s.seats[seat];
    m.textContent = kind === "dealer" ? "D" : t(kind);
    m.title = kind === "dealer" ? t("dealer") : t(kind);
  }
  if (!tr.width || $("room").hidden) return;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const pad = 3;
  const taken = [];
  const rel = (r) => ({ l: r.left - tr.left - pad, t: r.top - tr.top - pad, r: r.right - tr.left + pad, b: r.bottom - tr.top + pad });
  for (let i = 0; i < SEATS; i++) {
    const el = $(`seat-${i}`);
    if (el.hidden) continue;
    // the whole seat: its cards' place (dealt or not), its plate and the line under it
    taken.push(rel(el.getBoundingClientRect()));
    const [bx, by] = betPos(i);
    const px = (bx / 100) * tr.width, py = (by / 100) * tr.height;
    taken.push({ l: px - 2.4 * rem, r: px + 2.4 * rem, t: py - 0.8 * rem, b: py + 0.8 * rem });
  }
  for (const el of [$("board"), $("pots"), $("banner")]) taken.push(rel(el.getBoundingClientRect()));
  const w = tr.width, hgt = tr.height;
  const rail = parseFloat(getComputedStyle(table.querySelector(".felt")).borderTopWidth) || 14;
  for (const [kind, seat] of want) {
    const m = $(`marker-${kind}`);
    if (m.hidden) continue;
    const size = (m.offsetWidth || 1.6 * rem) / 2;
    const [sx, sy] = POS[seat];
    const ox = (sx / 100) * w, oy = (sy / 100) * hgt;
    let ux = w / 2 - ox, uy = hgt / 2 - oy;
    const len = Math.hypot(ux, uy) || 1;
    ux /= len; uy /= len;
    // places towards the middle of the felt (r) and to either side (o), nearest first
    const tries = [];
    for (let r = 0; r <= len * 0.75; r += 6) {
      for (let o = -96; o <= 96; o += 8) tries.push([Math.hypot(r, o), r, o]);
    }
    tries.sort((a, b) => a[0] - b[0]);
    let best = null;
    for (const [, r, o] of tries) {
      const x = ox + ux * r - uy * o, y = oy + uy * r + ux * o;
      // on the felt, inside the rail
      const ex = (x - w / 2) / (w / 2 - rail - size), ey = (y - hgt / 2) / (hgt / 2 - rail - size);
      if (ex * ex + ey * ey > 1) continue;
      const box = { l: x - size, r: x + size, t: y - size, b: y + size };
      if (taken.some((q) => box.l < q.r && box.r > q.l && box.t < q.b && box.b > q.t)) continue;
      best = [x, y, box];
      break;
    }
    if (!best) {  // nowhere free (a tiny window): beside the bet's place
      const [bx, by] = betPos(seat);
      best = [(bx / 100) * w + 2.6 * rem, (by / 100) * hgt, null];
    }
    const [x, y, box] = best;
    if (box) taken.push(box);
    m.style.left = `${((x / w) * 100).toFixed(2)}%`;
    m.style.top = `${((y / hgt) * 100).toFixed(2)}%`;
  }
}

// ------------------------------------------------------------------ layout
// The action bar is fixed at the bottom of the window; the page keeps room for it and the
// table takes the height that is left (table.css reads --head-h and --bar-h).
function measure() {
  const root = document.documentElement.style;
  const head = document.querySelector("header.bar");
  const bar = $("actions");
  const headH = `${head.offsetHeight}px`;
  const barH = `${$("room").hidden ? 0 : bar.offsetHeight}px`;
  if (root.getPropertyValue("--head-h") !== headH) root.setProperty("--head-h", headH);
  if (root.getPropertyValue("--bar-h") !== barH) root.setProperty("--bar-h", barH);
}

// ------------------------------------------------------------------ acting
function legalNow() {
  return state && state.decision && state.hand && state.hand.legal ? state.hand.legal : null;
}

function mine() {
  const h = state && state.hand;
  return h && h.you != null ? h.players[h.you] : null;
}

// A pot-fraction preset: the street total after calling plus that fraction of the pot after
// calling (the engine's pot_after_call; a bet, with nothing to call: of the pot).
function presetAmount(kind, lg) {
  if (lg.min_to == null) return null;
  let to;
  if (kind === "min") to = lg.min_to;
  else if (kind === "max") to = lg.max_to;
  else {
    const f = Number(kind);
    to = Math.round(lg.call_to + lg.pot_after_call * f);
  }
  return Math.max(lg.min_to, Math.min(lg.max_to, to));
}

function setAmount(v) {
  const lg = legalNow();
  if (!lg || lg.min_to == null) return;
  const x = Math.max(lg.min_to, Math.min(lg.max_to, Math.round(Number(v) || lg.min_to)));
  $("raise-slider").value = String(x);
  $("raise-input").value = String(x);
  updateRaiseLabel();
}

function currentAmount() {
  const lg = legalNow();
  const v = Math.round(Number($("raise-input").value));
  return Math.max(lg.min_to, Math.min(lg.max_to, Number.isFinite(v) ? v : lg.min_to));
}

/** The call button's words: "Check", "Call 40", "Call 80 (all-in)" when it takes every chip. */
function callLabel(lg) {
  if (lg.check) return t("check");
  return `${t("call")} ${chips(lg.call)}` + (lg.call_all_in ? ` (${allInWord()})` : "");
}

/** The raise button's words: "Bet 60", "Raise to 120", "All-in 139" for the whole stack. */
function raiseLabel(lg, me, to) {
  if (me && to === me.bet + me.stack) return `${t("allIn")} ${chips(to)}`;
  return `${lg.is_bet ? t("bet") : t("raiseTo")} ${chips(to)}`;
}

function updateRaiseLabel() {
  const lg = legalNow();
  if (!lg || lg.min_to == null) return;
  const me = mine();
  const x = currentAmount();
  const b = $("btn-raise");
  b.textContent = raiseLabel(lg, me, x);
  b.classList.toggle("allin", !!me && x === me.bet + me.stack);
}

function act(action) {
  const lg = legalNow();
  if (!lg || sentSeq === state.seq) return;
  const msg = { type: "act", seq: state.seq, action };
  if (action === "raise") {
    if (lg.min_to == null) return;
    msg.amount = currentAmount();
  }
  sentSeq = state.seq;
  send(msg);
  renderActions(state, state.hand);
}

function renderActions(s, h) {
  const lg = legalNow();
  const meSeat = s.seats.find((x) => x && x.you) || null;
  const inHand = !!(s.live && h && h.you != null);
  const me = inHand ? h.players[h.you] : null;
  $("decide").hidden = !lg;
  $("timer").hidden = !lg;
  document.body.classList.toggle("deciding", !!lg);
  const waitingSent = lg && sentSeq === s.seq;
  if (lg) {
    $("btn-fold").textContent = t("fold");
    $("btn-fold").disabled = !lg.fold || waitingSent;
    $("btn-call").textContent = callLabel(lg);
    $("btn-call").disabled = waitingSent;
    const canRaise = lg.min_to != null;
    // one amount only (fixed-limit, or nothing but all-in): the button says it, no sizing
    const single = canRaise && (lg.min_to === lg.max_to || lg.fixed_limit);
    $("btn-raise").hidden = !canRaise;
    $("btn-raise").disabled = waitingSent;
    $("sizing").hidden = !canRaise || single;
    $("decide").classList.toggle("single", !canRaise || single);
    const lines = canRaise ? [tx(lg.min_reason), tx(lg.max_reason)] : [tx(lg.min_reason)];
    const reasons = lines.filter(Boolean);
    $("bounds").replaceChildren(...reasons.map((x) => { const d = document.createElement("div"); d.textContent = x; return d; }));
    $("bounds-info").title = reasons.join("\n");
    $("raise-slider").title = reasons.join("\n");
    $("raise-input").title = reasons.join("\n");
    if (canRaise) {
      const sl = $("raise-slider");
      sl.min = String(lg.min_to);
      sl.max = String(lg.max_to);
      sl.step = "1";
      const inp = $("raise-input");
      inp.min = String(lg.min_to);
      inp.max = String(lg.max_to);
      if (amountSeq !== s.seq) { amountSeq = s.seq; setAmount(lg.min_to); }
      for (const b of document.querySelectorAll("[data-preset]")) {
        const x = presetAmount(b.dataset.preset, lg);
        b.title = x == null ? "" : chips(x);
      }
      updateRaiseLabel();
    } else {
      $("btn-raise").classList.remove("allin");
    }
    $("bounds").hidden = !boundsOpen || !canRaise || single;
    $("bounds-info").setAttribute("aria-expanded", boundsOpen ? "true" : "false");
    if (!timerHandle) timerHandle = setInterval(tickTimer, 200);
    tickTimer();
  } else if (timerHandle) {
    clearInterval(timerHandle);
    timerHandle = null;
  }
  // pre-actions: while the hand goes on and it is not your turn
  const canPre = !lg && inHand && me && !me.folded && me.stack > 0 && h.phase === "betting";
  $("pre").hidden = !canPre;
  $("pre-check-fold").checked = s.pre_action === "check_fold";
  $("pre-call-any").checked = s.pre_action === "call_any";
  // away: sat out, or no chips (at a tournament: knocked out, nothing to add)
  const tourney = !!tourneyOf(s);
  const busted = meSeat && meSeat.chips <= 0 && !inHand && !tourney;
  const away = (s.sitting_out && !inHand) || busted;
  $("away").hidden = !away;
  $("btn-back").hidden = !s.sitting_out;
  $("btn-post").hidden = !(s.sitting_out && s.owes_blinds);
  $("btn-add").hidden = !busted;
  $("btn-add2").hidden = !!busted || tourney;  // one "Add chips" at a time; none in a tournament
  $("sit-out").closest("label").hidden = tourney;
  const awayWhy = tx(s.sat_out_reason) || t("sittingOut");
  $("away-text").textContent = busted ? t("busted")
    : `${awayWhy} ${s.owes_blinds ? t("owesBlinds") : t("botsPlayOn")}`;
  $("sit-out").checked = !!s.sitting_out;
  const trn = tourneyOf(s);
  $("btn-next").hidden = !!ROOM || !(h && h.phase === "done") || !!(trn && trn.finished);
  const waitingBB = !inHand && !s.sitting_out && meSeat && meSeat.chips > 0 && (s.live || s.waiting_for_big_blind);
  // watching a room table: nothing to play, a seat to pick
  const watching = !!ROOM && !meSeat;
  const over = !!(ROOM && s.room && s.room.home.over);  // the host ended the game: nobody to wait for
  $("more").hidden = watching;
  $("status").textContent = tx(s.notice) || (lg ? tx(s.decision.summary) : (waitingBB ? t("waitingBB")
    : (watching && !noSitting(s) ? t("watchingPick") : (ROOM && s.waiting && !over ? t("waitingPlayers") : ""))));
}

function tickTimer() {
  const s = state;
  if (!s || !s.decision) return;
  const elapsed = (performance.now() - stateAt) / 1000;
  const d = s.decision;
  let left = d.time_left - elapsed;
  let bank = d.bank;
  const timer = $("timer");
  if (left < 0) { bank = Math.max(0, d.bank + left); left = 0; }
  timer.classList.toggle("bank", left <= 0);
  const frac = left > 0 ? left / d.action_time : (d.bank > 0 ? bank / Math.max(d.bank, 1) : 0);
  $("timer-bar").style.width = `${Math.max(0, Math.min(1, frac)) * 100}%`;
  $("timer-text").textContent = left > 0 ? `${Math.ceil(left)} s` : `${Math.ceil(bank)} s ${t("timeBank")}`;
}

// ------------------------------------------------------------------ coach, result, hands, log
function renderCoach(s) {
  const el = $("coach");
  $("coach-toggle").checked = coachAsked != null ? coachAsked : !!s.coach_on;
  const c = s.coach;
  el.hidden = !(s.coach_on && s.decision);
  if (el.hidden) return;
  // unfolded where there is room beside the buttons; on narrow screens its first line only
  el.open = coachOpened != null ? coachOpened : window.innerWidth > 900;
  if (!c || c.equity == null) {
    $("coach-head").textContent = `${t("coach")}: ${t("thinking")}`;
    $("coach-body").replaceChildren();
    return;
  }
  const against = c.ranges ? tx(c.against) : tn("vsRandom", c.opponents);
  $("coach-head").textContent = `${t("equity")}: ${percent(c.equity / 100)} ${against}`;
  const parts = [];
  // what each opponent's actions say they hold (read from your seat's view, never their cards)
  if (c.ranges) parts.push(c.ranges.map((r) => `${r.name}: ${tx(r.words)}`).join(" · "));
  if (c.pot_odds != null) parts.push(tx(c.verdict));
  else parts.push(t("noCall"));
  $("coach-body").replaceChildren(...parts.map((x) => { const p = document.createElement("div"); p.textContent = x; return p; }));
}

function renderResult(s) {
  const el = $("tab-result");
  const r = s.last_result;
  if (!r) {
    if (el.dataset.key !== `none|${lang()}`) {
      el.dataset.key = `none|${lang()}`;
      const p = document.createElement("p");
      p.className = "small";
      p.textContent = t("noHands");
      el.replaceChildren(p);
    }
    return;
  }
  const runs = runsOf[r.hand_id] || null;
  const key = `${r.hand_id}|${lang()}|${s.coach_on}|${runs ? runs.length : 1}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren();
  el.className = "tab result";
  el.dataset.handId = r.hand_id;
  const h3 = document.createElement("h3");
  // a hand watched (a spectator, or sitting out) has no result of yours
  h3.textContent = r.played
    ? `${t("handNo")} #${r.number} · ${t("net")}: ${r.net > 0 ? "+" : ""}${chips(r.net)}`
    : `${t("handNo")} #${r.number}`;
  el.append(h3);
  if (runs) {
    // run more than once (or two boards): each board on its own line
    runs.forEach((cards, k) => {
      const b = document.createElement("div");
      b.className = "run";
      b.setAttribute("data-testid", "result-run");
      const label = document.createElement("span");
      label.className = "small";
      label.textContent = `${t("runNo").replace("{k}", String(k + 1))} `;
      b.append(label, ...cards.map((c) => cardEl(c, { small: true })));
      el.append(b);
    });
  } else if (r.board.length) {
    const b = document.createElement("div");
    b.append(...r.board.map((c) => cardEl(c, { small: true })));
    el.append(b);
  }
  if (r.shown.length) {
    const ul = document.createElement("ul");
    ul.className = "shown";
    for (const x of r.shown) {
      const li = document.createElement("li");
      li.append(`${x.name} ${t("shows")} `, ...x.cards.map((c) => cardEl(c, { small: true })), x.best ? ` — ${tx(x.best)}` : "");
      ul.append(li);
    }
    el.append(ul);
  }
  const ol = document.createElement("ul");
  ol.className = "pots-text";
  ol.setAttribute("data-testid", "pot-breakdown");
  for (const line of r.pots) {
    const li = document.createElement("li");
    li.dataset.kind = line.kind;
    li.dataset.amount = String(line.amount);
    if (line.kind === "pot") li.dataset.winners = line.winners.join(",");
    else li.dataset.player = line.player;
    li.textContent = tx(line.text);
    ol.append(li);
  }
  el.append(ol);
  if (ROOM) return;  // a room table has no coach: people's reasons are their own
  const ex = document.createElement("div");
  ex.className = "explain";
  const h = document.createElement("h3");
  h.textContent = t("whyBots");
  ex.append(h);
  if (s.coach_on) {
    const ul = document.createElement("ul");
    ul.setAttribute("data-testid", "explanations");
    for (const e of r.explanations) {
      const li = document.createElement("li");
      const b = document.createElement("b");
      b.textContent = `${tx(e.action)}: `;
      li.append(b, tx(e.why));
      ul.append(li);
    }
    ex.append(ul);
  } else {
    const p = document.createElement("p");
    p.textContent = t("coachOff");
    ex.append(p);
  }
  el.append(ex);
}

// A room table's hands are stored among yours (with the cards you saw) once each ends: the
// list is this table's, read again when a hand you played is over.
let roomHandsFor = null;
async function roomHands(s, again = true) {
  const last = s.last_result;
  if (!last || !last.played || roomHandsFor === last.hand_id) return;
  roomHandsFor = last.hand_id;
  try {
    const r = await fetch("/api/hands");
    if (!r.ok) return;
    const all = await r.json();
    hands = all.filter((x) => x.hand_id.startsWith(`${ROOM}-`)).slice(0, 50);
    if (state) { state.history = hands; render(); }
    // stored just after the hand's end: not there yet, look once more in a moment
    if (again && !hands.some((x) => x.hand_id.startsWith(`${last.hand_id}-`))) {
      setTimeout(() => { roomHandsFor = null; if (state) roomHands(state, false); }, 1000);
    }
  } catch (e) { /* the list is read again after the next hand */ }
}

function renderHands(s, list = $("hand-list")) {
  const key = `${s.history.length ? s.history[0].hand_id : ""}|${s.history.length}|${lang()}`;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  if (!s.history.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("noHands");
    list.replaceChildren(li);
    return;
  }
  // each hand says its own number ("#41"): the list itself is not numbered
  list.replaceChildren(...s.history.map((x) => {
    const li = document.createElement("li");
    li.dataset.handId = x.hand_id;
    const net = document.createElement("span");
    net.className = "net " + (x.net > 0 ? "plus" : x.net < 0 ? "minus" : "");
    net.textContent = `${x.net > 0 ? "+" : ""}${chips(x.net)}`;
    const a = document.createElement("a");
    a.href = `/api/hands/${encodeURIComponent(x.hand_id)}.phh`;
    a.textContent = t("download");
    a.setAttribute("download", `tapete-${x.hand_id}.phh`);
    a.setAttribute("data-testid", "phh-link");
    const replay = document.createElement("a");
    replay.href = `/replay/${encodeURIComponent(x.hand_id)}`;
    replay.target = "_blank";
    replay.rel = "noopener";
    replay.textContent = t("replay");
    replay.setAttribute("data-testid", "replay-link");
    const txt = document.createElement("div");
    txt.className = "small";
    txt.textContent = tx(x.breakdown);
    li.append(`#${x.number} ${x.cards} | ${x.board} `, net, a, replay, txt);
    return li;
  }));
}

function renderLog(s) {
  const ol = $("log");
  const lines = s.log || (s.last_result ? s.last_result.log : []);
  ol.replaceChildren(...lines.map((x) => { const li = document.createElement("li"); li.textContent = tx(x); return li; }));
}

/** Show one tab of the side panel ("result", "hands", "log", "ledger"). */
function showTab(name) {
  for (const o of document.querySelectorAll(".tabs button")) o.classList.toggle("on", o.dataset.tab === name);
  for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== `tab-${name}`;
}

// ------------------------------------------------------------------ wiring
function wire() {
  $("lang").onclick = () => {
    setLang(lang() === "es" ? "en" : "es");
    translate();
    if (state) {
      for (const id of ["tab-result", "hand-list", "lobby-hands", "tab-ledger"]) $(id).dataset.key = "";
      render();
    }
  };
  const four = localStorage.getItem("tapete.fourColor") === "1";
  document.body.classList.toggle("four-color", four);
  $("four-color").checked = four;
  $("four-color").onchange = (e) => {
    document.body.classList.toggle("four-color", e.target.checked);
    localStorage.setItem("tapete.fourColor", e.target.checked ? "1" : "0");
  };
  $("coach-toggle").onchange = (e) => {
    coachWish = e.target.checked;
    localStorage.setItem("tapete.coach", coachWish ? "1" : "0");
    // in the lobby there is no table to tell yet: the wish goes with you when you sit down
    if (state && !state.lobby) askCoach(coachWish);
  };
  // the person folds or unfolds the coach: that holds from then on (a click on its first line
  // toggles it after this handler)
  $("coach-head").addEventListener("click", () => { coachOpened = !$("coach").open; });
  $("leave").onclick = () => {
    if (ROOM && !(state && state.room && state.room.seated)) location.href = "/room";
    else send({ type: "leave" });
  };
  $("take-seat").onsubmit = (e) => {
    e.preventDefault();
    const name = $("seat-name").value.trim();
    localStorage.setItem("tapete.name", name);
    send({ type: "take_seat", seat_number: Number($("take-seat").dataset.seat), name: name || t("defaultName"),
           buy_in: Math.round(Number($("seat-buyin").value)) });
    $("take-seat").hidden = true;
  };
  $("take-cancel").onclick = () => { $("take-seat").hidden = true; };
  $("copy-link").onclick = async () => {
    const url = location.href.split("?")[0];
    try { await navigator.clipboard.writeText(url); toast(t("linkCopied")); } catch { toast(url); }
  };
  $("reset").onclick = () => { if (confirm(t("resetConfirm"))) send({ type: "reset" }); };
  $("blinds").onchange = updateBuyIn;
  $("sit-form").onsubmit = (e) => {
    e.preventDefault();
    const structure = document.querySelector("input[name=structure]:checked").value;
    const msg = { type: "sit", structure, blinds: Number($("blinds").value || 0),
                  variant: $("variant").value };
    const name = $("name").value.trim();
    msg.name = name || t("defaultName");
    msg.lang = lang();
    localStorage.setItem("tapete.name", name);
    coachPending = true;
    send(msg);
  };
  $("name").value = localStorage.getItem("tapete.name") || "";
  $("sng-form").onsubmit = (e) => {
    e.preventDefault();
    resetTourney();
    coachPending = true;
    send(sngChoice($("name").value.trim(), lang()));
  };
  $("sng-form").onchange = () => { if (state && state.lobby) renderSngForm(state); };
  $("t-again").onclick = () => { sngAgain = sngChoice($("name").value.trim(), lang()); send({ type: "leave" }); };
  $("t-lobby").onclick = () => {
    if (ROOM) location.href = "/room";
    else send({ type: "leave" });
  };
  $("btn-fold").onclick = () => act("fold");
  $("btn-call").onclick = () => { const lg = legalNow(); if (lg) act(lg.check ? "check" : "call"); };
  $("btn-raise").onclick = () => act("raise");
  $("raise-slider").oninput = (e) => { $("raise-input").value = e.target.value; updateRaiseLabel(); };
  $("raise-input").oninput = () => {
    const lg = legalNow();
    const v = Number($("raise-input").value);
    if (lg && Number.isFinite(v)) $("raise-slider").value = String(Math.max(lg.min_to, Math.min(lg.max_to, v)));
    updateRaiseLabel();
  };
  $("raise-input").onchange = () => setAmount($("raise-input").value);
  for (const b of document.querySelectorAll("[data-preset]")) {
    b.onclick = () => {
      const lg = legalNow();
      if (lg) setAmount(presetAmount(b.dataset.preset, lg));
    };
  }
  $("bounds-info").onclick = () => {
    boundsOpen = !boundsOpen;
    $("bounds").hidden = !boundsOpen;
    $("bounds-info").setAttribute("aria-expanded", boundsOpen ? "true" : "false");
    measure();
  };
  $("pre-check-fold").onchange = (e) => send({ type: "pre", value: e.target.checked ? "check_fold" : null });
  $("pre-call-any").onchange = (e) => send({ type: "pre", value: e.target.checked ? "call_any" : null });
  $("btn-back").onclick = () => send({ type: "sit_in" });
  $("btn-post").onclick = () => send({ type: "sit_in", post: true });
  const addChips = () => {
    const bb = state.rules.big_blind;
    const mineSeat = state.seats.find((x) => x && x.you);
    const have = mineSeat ? mineSeat.chips : 0;
    const top = state.room ? state.room.config.max_buy_in : 100 * bb;
    send({ type: "add_chips", amount: Math.max(1, top - have) });
  };
  $("btn-add").onclick = addChips;
  $("btn-add2").onclick = addChips;
  $("btn-next").onclick = () => send({ type: "next" });
  $("sit-out").onchange = (e) => send({ type: e.target.checked ? "sit_out" : "sit_in" });
  for (const b of document.querySelectorAll(".tabs button")) {
    b.onclick = () => {
      showTab(b.dataset.tab);
      if (b.dataset.tab === "ledger") readLedger();  // opened: read again
    };
  }
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // the chat's and the host's fields take text (Enter sends it): they do not act
    if (e.target instanceof HTMLInputElement && e.target.closest("#chat, #host, #take-seat")) return;
    const lg = legalNow();
    if (!lg) return;
    const inInput = e.target instanceof HTMLInputElement && e.target.type !== "range" && e.target.type !== "checkbox";
    if (inInput && e.key !== "Enter") return;
    const k = e.key.toLowerCase();
    if (k === "f" && lg.fold) act("fold");
    else if (k === "c" || k === "k") act(lg.check ? "check" : "call");
    else if (k === "r" || k === "b" || k === "enter") { if (lg.min_to != null) act("raise"); }
    else if ("12345".includes(k) && k.length === 1 && lg.min_to != null) {
      const kinds = ["min", "0.5", "0.75", "1", "max"];
      setAmount(presetAmount(kinds[Number(k) - 1], lg));
    } else if ((k === "arrowup" || k === "arrowdown") && lg.min_to != null) {
      const step = state.rules.big_blind;
      setAmount(currentAmount() + (k === "arrowup" ? step : -step));
    } else return;
    e.preventDefault();
  });
  // the bar's height and the header's follow the window (and the coach, the bounds box)
  if (window.ResizeObserver) {
    const ro = new ResizeObserver(() => { measure(); if (state && !state.lobby) placeMarkers(state, state.hand); });
    ro.observe(document.querySelector("header.bar"));
    ro.observe($("actions"));
    ro.observe($("table"));
  }
  window.addEventListener("resize", () => {
    measure();
    if (!state || state.lobby) return;
    if (!layoutKey.endsWith(`:${tall()}`)) render();  // the oval stood up or lay down
    else placeMarkers(state, state.hand);
  });
}

// ------------------------------------------------------------------ a room table
function renderRoomBar(s) {
  document.body.dataset.room = "1";
  const seated = !!(s.room && s.room.seated);
  document.body.dataset.seated = seated ? "1" : "0";
  $("leave").textContent = seated ? t("leave") : t("toLobby");
  $("leave").hidden = false;
  const c = s.room ? s.room.config : null;
  if (c) {
    $("room-title").textContent = `${t(c.game)} ${chips(c.small_blind)}/${chips(c.big_blind)}`
      + (s.room.spectators ? ` · ${tn("watching", s.room.spectators)}` : "");
  }
  // the hand's commitment (provably fair dealing), published before its first card
  const fair = $("fair-deal");
  fair.hidden = !s.room.commitment;
  if (s.room.commitment) {
    fair.textContent = `${t("fairShort")} ${s.room.commitment.slice(0, 8)}`;
    fair.title = t("fairDeal").replace("{hash}", s.room.commitment);
  }
}

function openTakeSeat(i) {
  const c = state && state.room ? state.room.config : null;
  if (!c) return;
  const f = $("take-seat");
  f.dataset.seat = String(i);
  const inp = $("seat-buyin");
  inp.min = String(c.min_buy_in);
  inp.max = String(Math.min(c.max_buy_in, state.me.bankroll));
  inp.value = String(Math.min(c.max_buy_in, state.me.bankroll));
  $("seat-range").textContent = `${chips(c.min_buy_in)} – ${chips(c.max_buy_in)}`;
  $("seat-name").value = localStorage.getItem("tapete.name") || "";
  const hm = state.room.home;
  $("take-seat-ok").textContent = hm.hosted && !hm.host && !hm.auto_approve ? t("askSeat") : t("sit");
  f.hidden = false;
  $("seat-name").focus();
}

// ------------------------------------------------------------------ a host's table
// A private table's creator hosts it (HomeInfo, room.home): seats and rebuys may wait for the
// host's approval, the host pauses, changes the blinds from the next hand, sets stacks,
// removes or mutes a player, lets spectators watch and chat, hands the role over and ends the
// game. Every table has its chat (room.chat: messages, the host's actions and the votes, in
// words) and the home-game options of its settings: votes to run it twice and for a bomb
// pot, straddles.
const runsOf = {};  // hand id -> its boards, once a hand run more than once is over
let hostOpen = false;  // the host's tools unfolded
let voteClock = null;
const voted = new Set();  // votes this page answered, until a state says so
let seatAsked = null;  // the seat request of this page waiting, to tell a refusal

/** No "Sit here" now: the game is over, or this person's seat request waits. */
function noSitting(s) {
  if (!ROOM || !s.room) return false;
  const hm = s.room.home;
  return hm.over || (!hm.host && hm.requests.some((r) => r.kind === "seat"));
}

/** The boards after the first (the runs of a hand run more than once, a second board). */
function renderRuns(boards) {
  const el = $("board-runs");
  const extra = boards.slice(1);
  el.hidden = !extra.length;
  el.closest(".center").classList.toggle("multi", extra.length > 0);
  const key = JSON.stringify(extra) + lang();
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren(...extra.map((cards, k) => {
    const row = document.createElement("div");
    row.className = "board run";
    row.setAttribute("data-testid", `board-${k + 1}`);
    const els = cards.map((c) => cardEl(c));
    while (els.length < 5) { const e = document.createElement("div"); e.className = "card empty"; els.push(e); }
    row.append(...els);
    return row;
  }));
  const kept = Object.keys(runsOf);
  for (const id of kept.slice(0, Math.max(0, kept.length - 8))) delete runsOf[id];
}

function hostSend(action, fields = {}) {
  send({ type: "host", action, ...fields });
}

function renderHome(s) {
  const hm = s.room.home;
  const c = s.room.config;
  const seated = !!s.room.seated;
  const h = s.hand;
  const live = !!(s.live && h && LIVE_PHASES.has(h.phase));
  document.body.dataset.host = hm.host ? "1" : "0";
  document.body.dataset.paused = hm.paused || "";
  document.body.dataset.over = hm.over ? "1" : "0";
  // on the felt: paused, over, a bomb pot coming
  let note = "";
  let kind = "";
  if (hm.over) { note = t("gameOver"); kind = "over"; }
  else if (hm.paused === "now") { note = t("pausedNow"); kind = "paused"; }
  else if (hm.paused === "next") { note = live ? t("pausingAfter") : t("pausedByHost"); kind = live ? "pausing" : "paused"; }
  else if (hm.bomb_next) { note = t("bombNext"); kind = "bomb"; }
  const noteEl = $("home-note");
  noteEl.textContent = note;
  noteEl.dataset.kind = kind;
  noteEl.hidden = !note;
  // waiting for the host: this person's own requests
  const mine = hm.host ? [] : hm.requests;
  const wait = mine.map((r) => (r.kind === "seat" ? t("waitingSeat")
    : t("waitingChips").replace("{chips}", chips(r.chips)))).join(" ");
  $("approval").textContent = wait;
  $("approval").hidden = !wait;
  const seatReq = mine.find((r) => r.kind === "seat");
  if (seatAsked != null && !seatReq && !seated && !hm.over) toast(t("requestDenied"));
  seatAsked = seatReq ? seatReq.request : null;
  // the home-game buttons of a seated player
  const straddle = $("straddle-wrap");
  straddle.hidden = !(c.straddle && seated && !hm.over);
  $("straddle").checked = !!hm.straddling;
  const bomb = $("btn-bomb");
  bomb.hidden = !(c.bomb_vote && seated && !hm.over);
  bomb.disabled = hm.bomb_next || hm.votes.some((v) => v.kind === "bomb");
  renderVotes(s, hm);
  renderChat(s, hm, c, seated);
  maybeLedger(s, hm, seated, live);  // before the host's panel: the game's end folds its tools
  renderHostPanel(s, hm, c, live);
}

// ------------------------------------------------------------------ the ledger
// Whoever has sat at a room table reads its ledger (GET /api/room/tables/ID/ledger; anyone
// else is answered 403, and has no Ledger tab): each person's buy-in, rebuys, cash-outs, chips
// at the table and net, the house's line (the bots), and the fewest payments that square
// everyone, with the downloads (the ledger as CSV in the page's language, the hands as PHH and
// as PokerStars text). It is read when its tab opens, after each hand's end, when seats or
// stacks change between hands, and when the game ends, when it is shown at once.
const ledger = { allowed: null, data: null, failed: false, key: "", busy: false, again: false, overShown: false };

function maybeLedger(s, hm, seated, live) {
  if (seated && ledger.allowed === false) ledger.allowed = null;  // sat down since: ask again
  // between hands the seats and their chips (a rebuy, a stack set, someone gone) count too
  const between = live ? "" : s.seats.map((x) => (x ? `${x.name}:${x.chips}` : "-")).join(",");
  const key = [s.last_result ? s.last_result.hand_id : "", hm.over, seated, between].join("|");
  if (key !== ledger.key) {
    ledger.key = key;
    if (ledger.allowed !== false) readLedger();
  }
  if (hm.over && ledger.allowed && !ledger.overShown) {  // the game's end: the ledger at once
    ledger.overShown = true;
    showTab("ledger");
    hostOpen = false;  // the host's tools folded: the ledger has their room
  }
  $("ledger-open").hidden = !(hm.over && ledger.allowed);
  renderLedger();
}

async function readLedger() {
  if (!ROOM || ledger.allowed === false) return;
  if (ledger.busy) { ledger.again = true; return; }
  ledger.busy = true;
  try {
    const r = await fetch(`/api/room/tables/${ROOM}/ledger`, { cache: "no-store" });
    if (r.status === 403 || r.status === 404) {
      ledger.allowed = false;
      ledger.data = null;
    } else if (r.ok) {
      ledger.data = await r.json();
      ledger.allowed = true;
      ledger.failed = false;
    } else ledger.failed = true;
  } catch (e) {
    ledger.failed = true;  // read again at the next change
  }
  ledger.busy = false;
  if (ledger.again) { ledger.again = false; readLedger(); }
  if (state) render();
}

/** A name from the ledger (Words), its first letter up: "The house". */
function ledgerName(line) {
  const name = tx(line.name);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function signed(n) {
  return `${n > 0 ? "+" : ""}${chips(n)}`;
}

function renderLedger() {
  const button = $("tab-ledger-btn");
  button.hidden = !ledger.allowed;
  document.body.dataset.ledger = ledger.allowed == null ? "" : (ledger.allowed ? "1" : "0");
  if (!ledger.allowed && button.classList.contains("on")) showTab("result");
  $("ledger-note").hidden = !ledger.failed;
  const d = ledger.data;
  const el = $("tab-ledger");
  if (!d) return;
  const over = !!(state && state.room && state.room.home.over);
  const key = `${JSON.stringify(d)}|${lang()}|${chips(1000)}|${over}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.dataset.hands = String(d.hands);
  el.dataset.final = over ? "1" : "0";
  $("ledger-title").textContent = tn(over ? "ledgerFinal" : "ledgerAfter", d.hands);
  const cell = (text, amount, cls = "") => {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    if (amount != null) td.dataset.amount = String(amount);
    return td;
  };
  const rows = d.lines.map((x, i) => {
    const tr = document.createElement("tr");
    tr.className = (x.house ? "house" : "person") + (x.you ? " you" : "");
    tr.setAttribute("data-testid", "ledger-line");
    Object.assign(tr.dataset, { line: String(i), house: x.house ? "1" : "0", you: x.you ? "1" : "0",
      buyIn: String(x.buy_in), rebuys: String(x.rebuys), cashOut: String(x.cash_out),
      atTable: String(x.at_table), net: String(x.net) });
    const name = document.createElement("td");
    name.className = "name";
    name.textContent = ledgerName(x);
    tr.dataset.name = tx(x.name);
    const tag = x.you ? t("ledgerYou") : (!x.house && !x.seated && !over ? t("ledgerLeft") : "");
    if (tag) {
      const span = document.createElement("span");
      span.className = "tag";
      span.textContent = tag;
      name.append(" ", span);
    }
    tr.append(name, cell(chips(x.buy_in), x.buy_in), cell(chips(x.rebuys), x.rebuys),
      cell(chips(x.cash_out), x.cash_out), cell(chips(x.at_table), x.at_table),
      cell(signed(x.net), x.net, `net ${x.net > 0 ? "plus" : x.net < 0 ? "minus" : ""}`));
    return tr;
  });
  if (d.rake) {  // the rake: with it the column of nets sums to zero
    const tr = document.createElement("tr");
    tr.className = "rake";
    tr.setAttribute("data-testid", "ledger-rake");
    tr.dataset.net = String(d.rake);
    const name = cell(t("ledgerRake"));
    name.className = "name";
    name.colSpan = 5;
    tr.append(name, cell(chips(d.rake), d.rake, "net"));
    rows.push(tr);
  }
  $("ledger-lines").replaceChildren(...rows);
  const list = $("ledger-settle");
  if (!d.settlement.length) {
    const li = document.createElement("li");
    li.className = "empty small";
    li.textContent = t("allSquare");
    list.replaceChildren(li);
  } else {
    list.replaceChildren(...d.settlement.map((p) => {
      const li = document.createElement("li");
      li.setAttribute("data-testid", "ledger-payment");
      Object.assign(li.dataset, { from: String(p.from), to: String(p.to), amount: String(p.amount) });
      const text = t("paysTo").replace("{from}", tx(d.lines[p.from].name)).replace("{to}", tx(d.lines[p.to].name))
        .replace("{chips}", chips(p.amount));
      li.textContent = text.charAt(0).toUpperCase() + text.slice(1);
      return li;
    }));
  }
  const base = `/api/room/tables/${encodeURIComponent(ROOM)}`;
  $("ledger-csv").href = `${base}/ledger.csv${lang() === "es" ? "?lang=es" : ""}`;
  $("ledger-phh").href = `${base}/hands.phhs`;
  $("ledger-txt").href = `${base}/hands.txt`;
}

// ------------------------------------------------------------------ votes
function renderVotes(s, hm) {
  const el = $("votes");
  const asked = hm.votes.filter((v) => v.mine);
  for (const id of [...voted]) if (!asked.some((v) => v.vote === id)) voted.delete(id);
  const key = asked.map((v) => `${v.vote}:${v.kind}:${v.runs}:${voted.has(v.vote)}`).join(",") + lang();
  if (el.dataset.key !== key) {
    el.dataset.key = key;
    el.replaceChildren(...asked.map((v) => {
      const row = document.createElement("div");
      row.className = `vote ${v.kind}`;
      row.dataset.vote = String(v.vote);
      row.setAttribute("data-testid", `vote-${v.kind}`);
      const q = document.createElement("span");
      q.className = "q";
      q.textContent = v.kind === "bomb" ? t("bombQ") : (v.runs === 3 ? t("runThriceQ") : t("runTwiceQ"));
      const secs = document.createElement("span");
      secs.className = "secs";
      secs.setAttribute("data-testid", "vote-seconds");
      const yes = document.createElement("button");
      yes.className = "primary";
      yes.setAttribute("data-testid", "vote-yes");
      yes.textContent = v.kind === "bomb" ? t("voteYes") : t("voteYesRuns");
      const no = document.createElement("button");
      no.setAttribute("data-testid", "vote-no");
      no.textContent = v.kind === "bomb" ? t("voteNo") : t("voteNoRuns");
      for (const [b, answer] of [[yes, true], [no, false]]) {
        b.disabled = voted.has(v.vote);
        b.onclick = () => {
          voted.add(v.vote);
          send({ type: "vote", vote: v.vote, yes: answer });
          yes.disabled = no.disabled = true;
        };
      }
      row.append(q, secs, yes, no);
      return row;
    }));
  }
  el.hidden = !asked.length;
  if (asked.length && !voteClock) voteClock = setInterval(tickVotes, 250);
  else if (!asked.length && voteClock) { clearInterval(voteClock); voteClock = null; }
  tickVotes();
}

/** The seconds each vote has left, counted down between states. */
function tickVotes() {
  if (!state || !state.room) return;
  const elapsed = (performance.now() - stateAt) / 1000;
  for (const v of state.room.home.votes) {
    const row = document.querySelector(`#votes .vote[data-vote="${v.vote}"] .secs`);
    if (row) row.textContent = `${Math.max(0, Math.ceil(v.seconds_left - elapsed))} s`;
  }
}

// ------------------------------------------------------------------ chat
function chatLine(x) {
  const li = document.createElement("li");
  li.className = `line k-${x.kind}` + (x.spectator ? " spectator" : "");
  li.dataset.seq = String(x.seq);
  li.dataset.kind = x.kind;
  if (x.kind !== "chat") {  // what the host did, a vote opened or decided: in words
    li.textContent = tx(x.words);
    return li;
  }
  const who = document.createElement("b");
  who.className = "who";
  who.textContent = x.name || t("spectator");
  li.append(who);
  if (x.spectator) {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.setAttribute("data-testid", "spectator-tag");
    tag.textContent = t("watchingTag");
    li.append(" ", tag);
  }
  const text = document.createElement("span");
  text.className = "text";
  text.setAttribute("data-testid", "chat-text");
  text.textContent = x.text || "";  // plain text, never HTML
  li.append(" ", text);
  return li;
}

function renderChat(s, hm, c, seated) {
  const list = $("chat-lines");
  const lines = s.room.chat;
  const last = lines.length ? lines[lines.length - 1].seq : 0;
  const key = `${lines.length}|${last}|${lang()}`;
  if (list.dataset.key !== key) {
    const first = !list.dataset.key;
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.dataset.key = key;
    list.replaceChildren(...lines.map(chatLine));
    if (first || atEnd) list.scrollTop = list.scrollHeight;
  }
  let why = "";
  if (!c.chat) why = t("chatOff");
  else if (hm.muted) why = t("chatMuted");
  else if (!seated && !(c.spectators && c.spectator_chat)) why = t("chatNoSpectators");
  const input = $("chat-input");
  input.disabled = !!why;
  $("chat-send").disabled = !!why;
  input.placeholder = why ? "" : (seated ? t("chatSay") : t("chatSpectators"));
  $("chat-why").textContent = why;
  $("chat-why").hidden = !why;
}

// ------------------------------------------------------------------ the host's panel
/** A number field the page fills from the state, unless the person is typing in it. */
function fill(input, value) {
  if (document.activeElement === input || input.dataset.dirty === "1") return;
  input.value = String(value);
}

function renderHostPanel(s, hm, c, live) {
  const panel = $("host");
  panel.hidden = !hm.host;
  $("host-open").hidden = !hm.host;
  if (!hm.host) { hostOpen = false; return; }
  const count = $("host-count");
  count.textContent = String(hm.requests.length);
  count.hidden = !hm.requests.length;
  $("host-open").classList.toggle("asking", hm.requests.length > 0);
  // the requests waiting, each with Approve and Deny
  const list = $("host-requests");
  const rkey = JSON.stringify(hm.requests.map((r) => [r.request, r.kind, r.name, r.chips])) + lang() + chips(1000);
  if (list.dataset.key !== rkey) {
    list.dataset.key = rkey;
    if (!hm.requests.length) {
      const li = document.createElement("li");
      li.className = "empty small";
      li.textContent = t("noRequests");
      list.replaceChildren(li);
    } else {
      list.replaceChildren(...hm.requests.map((r) => {
        const li = document.createElement("li");
        li.dataset.request = String(r.request);
        li.dataset.name = r.name;
        const what = document.createElement("span");
        what.className = "what";
        what.textContent = (r.kind === "seat" ? t("asksSeat") : t("asksChips"))
          .replace("{name}", r.name).replace("{chips}", chips(r.chips));
        const ok = document.createElement("button");
        ok.className = "primary";
        ok.setAttribute("data-testid", "approve");
        ok.textContent = t("approve");
        ok.onclick = () => hostSend("approve", { request: r.request });
        const no = document.createElement("button");
        no.setAttribute("data-testid", "deny");
        no.textContent = t("deny");
        no.onclick = () => hostSend("deny", { request: r.request });
        const buttons = document.createElement("span");
        buttons.className = "row";
        buttons.append(ok, no);
        li.append(what, buttons);
        return li;
      }));
    }
  }
  $("host-tools").hidden = !hostOpen;
  $("host-toggle").setAttribute("aria-expanded", hostOpen ? "true" : "false");
  $("host-toggle").classList.toggle("on", hostOpen);
  $("host-open").setAttribute("aria-expanded", hostOpen ? "true" : "false");
  $("host-auto").checked = !!hm.auto_approve;
  // pause after the hand, pause now (the clock stopped: only during a hand), resume
  $("host-pause").hidden = !!hm.paused || hm.over;
  $("host-pause-now").hidden = hm.paused === "now" || !live || hm.over;
  $("host-resume").hidden = !hm.paused || hm.over;
  // the blinds, from the next hand
  const next = hm.next;
  const entries = Object.entries(next);
  const nextSb = entries.find(([k]) => k === "small_blind");
  const nextBb = entries.find(([k]) => k === "big_blind");
  fill($("host-sb"), nextSb ? nextSb[1] : c.small_blind);
  fill($("host-bb"), nextBb ? nextBb[1] : c.big_blind);
  const changes = [];
  if (nextSb || nextBb) {
    changes.push(`${t("blindsWord")} ${chips(nextSb ? nextSb[1] : c.small_blind)}/${chips(nextBb ? nextBb[1] : c.big_blind)}`);
  }
  for (const [k, v] of entries) if (k !== "small_blind" && k !== "big_blind") changes.push(`${k} ${v}`);
  $("host-next").textContent = changes.length ? t("nextChanges").replace("{changes}", changes.join(", ")) : "";
  $("host-next").hidden = !changes.length;
  // the players: a stack each, remove, mute, hand the role over
  const people = [];
  s.seats.forEach((x, i) => { if (x && !x.bot) people.push([i, x]); });
  const muted = new Set(hm.muted_seats);
  const skey = JSON.stringify(people.map(([i, x]) => [i, x.name, x.you, muted.has(i)])) + lang();
  const ul = $("host-seats");
  if (ul.dataset.key !== skey) {
    ul.dataset.key = skey;
    ul.replaceChildren(...people.map(([i, x]) => hostSeatRow(i, x, muted.has(i))));
  }
  for (const [i, x] of people) {
    const input = ul.querySelector(`li[data-seat="${i}"] input`);
    if (input) fill(input, x.chips);
  }
  $("host-watch").checked = !!c.spectators;
  $("host-watch-chat").checked = !!c.spectator_chat;
  $("host-watch-chat").disabled = !c.spectators;
  $("host-end").hidden = hm.over;
}

function hostSeatRow(i, x, isMuted) {
  const li = document.createElement("li");
  li.dataset.seat = String(i);
  li.dataset.name = x.name;
  li.setAttribute("data-testid", `host-seat-${i}`);
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = x.name;
  if (x.you || isMuted) {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = x.you ? t("hostTag") : t("mutedTag");
    name.append(" ", tag);
  }
  const form = document.createElement("form");
  form.className = "stack-form";
  const input = document.createElement("input");
  input.type = "number";
  input.min = "0";
  input.inputMode = "numeric";
  input.setAttribute("data-testid", "host-stack");
  input.setAttribute("aria-label", t("stackOf").replace("{name}", x.name));
  input.oninput = () => { input.dataset.dirty = "1"; };
  const set = document.createElement("button");
  set.type = "submit";
  set.setAttribute("data-testid", "host-stack-set");
  set.textContent = t("setStack");
  form.onsubmit = (e) => {
    e.preventDefault();
    const v = Math.round(Number(input.value));
    input.dataset.dirty = "";
    if (Number.isFinite(v) && v >= 0) hostSend("stack", { seat_number: i, chips: v });
  };
  form.append(input, set);
  li.append(name, form);
  if (!x.you) {
    const mute = document.createElement("button");
    mute.setAttribute("data-testid", "host-mute");
    mute.textContent = isMuted ? t("unmute") : t("mute");
    mute.onclick = () => hostSend("mute", { seat_number: i, on: !isMuted });
    const kick = document.createElement("button");
    kick.className = "danger";
    kick.setAttribute("data-testid", "host-kick");
    kick.textContent = t("kick");
    kick.onclick = () => { if (confirm(t("kickConfirm").replace("{name}", x.name))) hostSend("kick", { seat_number: i }); };
    const hand = document.createElement("button");
    hand.setAttribute("data-testid", "host-handover");
    hand.textContent = t("makeHost");
    hand.onclick = () => { if (confirm(t("hostConfirm").replace("{name}", x.name))) hostSend("host", { seat_number: i }); };
    const row = document.createElement("span");
    row.className = "row";
    row.append(mute, kick, hand);
    li.append(row);
  }
  return li;
}

function wireHome() {
  const openTools = (on) => {
    hostOpen = on;
    if (state) render();
  };
  $("host-toggle").onclick = () => openTools(!hostOpen);
  $("host-open").onclick = () => {
    openTools(!hostOpen || !isInView($("host")));
    if (hostOpen) $("host").scrollIntoView({ block: "nearest", behavior: calm() ? "auto" : "smooth" });
  };
  $("host-auto").onchange = (e) => hostSend("auto_approve", { on: e.target.checked });
  $("host-pause").onclick = () => hostSend("pause", { now: false });
  $("host-pause-now").onclick = () => hostSend("pause", { now: true });
  $("host-resume").onclick = () => hostSend("resume");
  for (const id of ["host-sb", "host-bb"]) $(id).oninput = () => { $(id).dataset.dirty = "1"; };
  $("host-blinds").onsubmit = (e) => {
    e.preventDefault();
    const sb = Math.round(Number($("host-sb").value));
    const bb = Math.round(Number($("host-bb").value));
    $("host-sb").dataset.dirty = $("host-bb").dataset.dirty = "";
    if (Number.isFinite(sb) && Number.isFinite(bb)) hostSend("settings", { changes: { small_blind: sb, big_blind: bb } });
  };
  const spectators = () => hostSend("spectators", { allowed: $("host-watch").checked,
                                                    chat: $("host-watch").checked && $("host-watch-chat").checked });
  $("host-watch").onchange = spectators;
  $("host-watch-chat").onchange = spectators;
  $("host-end").onclick = () => { if (confirm(t("endConfirm"))) hostSend("end"); };
  $("chat-form").onsubmit = (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text || input.disabled) return;
    send({ type: "chat", text });
    input.value = "";
  };
  $("straddle").onchange = (e) => send({ type: "straddle", on: e.target.checked });
  $("btn-bomb").onclick = () => { $("btn-bomb").disabled = true; send({ type: "propose", kind: "bomb" }); };
  $("ledger-open").onclick = () => {
    showTab("ledger");
    readLedger();
    $("tab-ledger").scrollIntoView({ block: "nearest", behavior: calm() ? "auto" : "smooth" });
  };
}

/** Whether an element is wholly in the window. */
function isInView(el) {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
}

setLang(detectLang());
translate();
if (ROOM) {
  document.body.dataset.room = "1";
  for (const id of ["coach-toggle", "reset"]) { const el = $(id); (el.closest("label") || el).hidden = true; }
  $("btn-next").hidden = true;
}
buildSeats();
wire();
if (ROOM) wireHome();
connect();

/** The action bar once play is over for good (a home game ended, a tournament over) with
 * nothing left in it: folded away, not an empty strip over the page's foot. While play goes
 * on it stays, even empty for a moment, so the table does not change size between states. */
function hideEmptyBar(s) {
  const bar = $("actions");
  const tr = tourneyOf(s);
  const over = !!(ROOM && s.room && s.room.home.over) || !!(tr && tr.finished);
  const parts = ["timer", "approval", "votes", "deal", "decide", "pre", "away"].some((id) => !$(id).hidden);
  const more = !$("more").hidden
    && [...$("more").children].some((el) => !el.hidden && !el.classList.contains("keys"));
  bar.hidden = over && !parts && !more && !$("status").textContent.trim() && $("coach").hidden;
}
