// The practice table page. The server is the referee: this page draws the state it is sent
// (only this seat's view) and sends intentions; every amount is checked again by the engine.
import { detectLang, setLang, lang, t, tx, chips, translate } from "../common/i18n.js";
import { cardEl, setCards } from "../common/cards.js";

const $ = (id) => document.getElementById(id);
const SEATS = 6;
// seat positions around the oval, in % of the table box; seat 0 (you) at the bottom
const POS = [[50, 99], [7, 76], [9, 20], [50, 1], [91, 20], [93, 76]];
const OPPONENT_STYLES = [["Ana", "tag"], ["Bruno", "lag"], ["Carla", "nit"], ["Diego", "station"], ["Elena", "maniac"]];

let ws = null;
let state = null;
let hands = [];
let stateAt = 0;
let sentSeq = null;
let amountSeq = null;
let timerHandle = null;
let toastHandle = null;
let boundsOpen = false;

// ------------------------------------------------------------------ connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws`);
  ws.onopen = () => { $("conn").classList.add("ok"); };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") {
      state = msg;
      state.history = hands;
      stateAt = performance.now();
      render();
    } else if (msg.type === "hands") {
      // the hand list comes whole when the page connects, then one hand at a time
      hands = msg.reset ? msg.hands.slice() : msg.hands.concat(hands).slice(0, 50);
      if (state) { state.history = hands; render(); }
    } else if (msg.type === "error") {
      sentSeq = null;
      toast(tx(msg.message));
      if (state) render();
    }
  };
  ws.onclose = () => {
    const c = $("conn");
    c.textContent = t("disconnected");
    c.classList.remove("ok");
    setTimeout(connect, 1000);
  };
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
function buildSeats() {
  const wrap = $("seats");
  wrap.replaceChildren();
  for (let i = 0; i < SEATS; i++) {
    const [x, y] = POS[i];
    const seat = document.createElement("div");
    seat.className = "seat" + (i === 0 ? " me" : "");
    seat.id = `seat-${i}`;
    seat.dataset.testid = `seat-${i}`;
    seat.setAttribute("data-testid", `seat-${i}`);
    seat.style.left = `${x}%`;
    seat.style.top = `${y}%`;
    seat.innerHTML = `<div class="hole"></div><div class="plate"><div class="name"></div>
      <div class="style"></div><div class="stack"></div></div><div class="best"></div>`;
    wrap.append(seat);
    const bet = document.createElement("div");
    bet.className = "bet";
    bet.id = `bet-${i}`;
    bet.setAttribute("data-testid", `bet-${i}`);
    bet.style.left = `${x + (50 - x) * 0.42}%`;
    bet.style.top = `${y + (50 - y) * 0.45}%`;
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

function placeMarker(kind, seat, offset) {
  const m = $(`marker-${kind}`);
  if (seat == null) { m.hidden = true; return; }
  const [x, y] = POS[seat];
  m.hidden = false;
  const side = seat === 0 || seat === 3 ? 9 : 0;
  m.style.left = `${x + (50 - x) * 0.26 + offset + side}%`;
  m.style.top = `${y + (50 - y) * (seat === 0 || seat === 3 ? 0.12 : 0.3)}%`;
  m.textContent = kind === "dealer" ? "D" : t(kind);
  m.title = kind === "dealer" ? t("dealer") : t(kind);
}

function styleName(style) {
  return style ? t(style) : "";
}

// ------------------------------------------------------------------ render
function render() {
  const s = state;
  document.body.dataset.lobby = s.lobby ? "1" : "0";
  $("bankroll").textContent = chips(s.me.total);
  const inPlay = s.me.at_table + (s.me.in_pot || 0);  // the stack as the board is shown + the pot
  $("at-table").textContent = inPlay ? `(${chips(inPlay)} ${t("atTable")})` : "";
  $("leave").hidden = s.lobby;
  $("lobby").hidden = !s.lobby;
  $("room").hidden = s.lobby;
  if (s.lobby) return renderLobby(s);
  renderRoom(s);
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
  renderHands(s, $("lobby-hands"));
}

function updateBuyIn() {
  if (!state || !state.lobby) return;
  const i = Number($("blinds").value || 0);
  const bb = state.options.blinds[i][1];
  const buy = Math.min(state.options.max_buy_in_bb * bb, state.me.bankroll);
  $("buyin-amount").textContent = chips(buy);
}

function handView(s) {
  return s.hand;
}

function renderRoom(s) {
  const h = handView(s);
  const bySeat = {};
  if (h) for (const [i, p] of h.players.entries()) bySeat[p.seat] = { ...p, index: i };
  const actorSeat = h && h.actor != null ? h.players[h.actor].seat : null;
  const done = h && h.phase === "done";
  const winners = new Set();
  if (done && h.results) for (const r of h.results) for (const [p, x] of r.shares) if (x > 0) winners.add(h.players[p].seat);
  const shown = {};
  const lr = s.last_result;
  if (done && lr && h && lr.hand_id === h.hand_id) for (const x of lr.shown) shown[x.seat] = x;
  document.body.dataset.phase = h ? h.phase : "none";
  document.body.dataset.handId = h ? h.hand_id : "";
  document.body.dataset.seq = s.seq == null ? "" : String(s.seq);

  for (let i = 0; i < SEATS; i++) {
    const el = $(`seat-${i}`);
    const seat = s.seats[i];
    const p = bySeat[i];
    el.hidden = !seat;
    if (!seat) continue;
    el.querySelector(".name").textContent = seat.name + (seat.you ? ` (${t("you")})` : "");
    el.querySelector(".style").textContent = seat.bot ? styleName(seat.style) : "";
    const stack = p ? p.stack : seat.chips;
    el.querySelector(".stack").textContent = chips(stack) + (p && p.all_in ? ` · ${t("allIn")}` : "");
    let cards = [];
    if (p && p.cards) cards = p.cards;
    else if (p && p.has_cards) cards = [null, null];
    setCards(el.querySelector(".hole"), cards);
    el.classList.toggle("folded", !!(p && p.folded));
    el.classList.toggle("out", !p && (seat.sitting_out || !!h));
    el.classList.toggle("acting", actorSeat === i);
    el.classList.toggle("winner", winners.has(i));
    const best = shown[i] && shown[i].best ? tx(shown[i].best) : "";
    el.querySelector(".best").textContent = best || (p && p.folded ? t("folded") : (!p && seat.sitting_out ? t("out") : ""));
    const bet = $(`bet-${i}`);
    const amount = p ? p.bet : 0;
    bet.hidden = !(amount > 0) || done || h.phase === "runout";  // gathered into the pot
    bet.textContent = chips(amount);
  }
  placeMarker("dealer", s.button_seat, 0);
  placeMarker("sb", h ? s.sb_seat : null, 3);
  placeMarker("bb", h ? s.bb_seat : null, 3);
  if (s.sb_seat != null && s.sb_seat === s.button_seat) $("marker-sb").style.left = `calc(${$("marker-sb").style.left} + 1.8rem)`;

  // board and pots
  const board = h ? h.boards[0] : [];
  const boardEl = $("board");
  const key = JSON.stringify(board) + lang();
  if (boardEl.dataset.cards !== key) {
    boardEl.dataset.cards = key;
    const els = board.map((c) => cardEl(c));
    while (els.length < 5) { const e = document.createElement("div"); e.className = "card empty"; els.push(e); }
    boardEl.replaceChildren(...els);
  }
  const pots = $("pots");
  pots.replaceChildren();
  if (h && h.pot > 0) {
    const list = done && h.results ? h.results.map((r) => ({ amount: r.amount })) : h.pots;
    if (list.length > 1) {
      list.forEach((x, i) => {
        const d = document.createElement("span");
        d.className = "pot";
        d.dataset.amount = String(x.amount);
        d.textContent = `${i === 0 ? t("mainPot") : t("sidePot") + (list.length > 2 ? " " + i : "")} ${chips(x.amount)}`;
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
  renderActions(s, h, bySeat);
  renderCoach(s);
  renderResult(s);
  renderHands(s);
  renderLog(s);
}

function bannerText(s, h, actorSeat) {
  if (!h) return s.waiting ? "" : "";
  if (h.phase === "runout") return t("allInRunout");
  if (h.phase === "done") {
    const lr = s.last_result;
    if (lr && lr.hand_id === h.hand_id) return lr.pots.filter((x) => x.kind === "pot").map((x) => tx(x.text)).join(" ");
    return "";
  }
  if (s.decision) return t("yourTurn");
  if (actorSeat != null && s.seats[actorSeat]) return `${s.seats[actorSeat].name} ${t("thinking")}`;
  return "";
}

// ------------------------------------------------------------------ acting
function legalNow() {
  return state && state.decision && state.hand && state.hand.legal ? state.hand.legal : null;
}

function potAfterCall(h, lg) {
  return h.pot + lg.call;
}

function presetAmount(kind, h, lg) {
  if (lg.min_to == null) return null;
  let to;
  if (kind === "min") to = lg.min_to;
  else if (kind === "max") to = lg.max_to;
  else {
    const f = Number(kind);
    to = lg.is_bet ? Math.round(h.pot * f) : Math.round(lg.call_to + potAfterCall(h, lg) * f);
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

function updateRaiseLabel() {
  const lg = legalNow();
  if (!lg || lg.min_to == null) return;
  const x = currentAmount();
  const word = lg.is_bet ? t("bet") : t("raiseTo");
  $("btn-raise").textContent = `${word} ${chips(x)}` + (x === lg.max_to && lg.max_to === lg.bet + lg.stack_total ? "" : "");
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
  renderActions(state, state.hand, null);
}

function renderActions(s, h, _bySeat) {
  const lg = legalNow();
  const meSeat = s.seats[0];
  const inHand = !!(s.live && h && h.you != null);
  const me = inHand ? h.players[h.you] : null;
  $("decide").hidden = !lg;
  $("timer").hidden = !lg;
  const waitingSent = lg && sentSeq === s.seq;
  if (lg) {
    $("btn-fold").textContent = `${t("fold")}`;
    $("btn-fold").disabled = !lg.fold || waitingSent;
    $("btn-call").textContent = lg.check ? t("check") : `${t("call")} ${chips(lg.call)}` + (lg.call_all_in ? ` (${t("allIn")})` : "");
    $("btn-call").disabled = waitingSent;
    const canRaise = lg.min_to != null;
    $("btn-raise").hidden = !canRaise;
    $("btn-raise").disabled = waitingSent;
    $("sizing").hidden = !canRaise;
    const reasons = `${tx(lg.min_reason)}\n${tx(lg.max_reason)}`;
    $("bounds").textContent = reasons;
    $("bounds-info").title = reasons;
    $("raise-slider").title = reasons;
    $("raise-input").title = reasons;
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
        const x = presetAmount(b.dataset.preset, h, lg);
        b.title = x == null ? "" : chips(x);
        b.disabled = lg.min_to === lg.max_to;
      }
      sl.disabled = inp.disabled = lg.min_to === lg.max_to;
      updateRaiseLabel();
    } else {
      $("bounds").textContent = tx(lg.min_reason);
    }
    $("bounds").hidden = canRaise && !boundsOpen;
    if (!timerHandle) timerHandle = setInterval(tickTimer, 200);
    tickTimer();
  } else if (timerHandle) {
    clearInterval(timerHandle);
    timerHandle = null;
  }
  // pre-actions: while the hand goes on and it is not your turn
  const canPre = !lg && inHand && me && !me.folded && !me.all_in && h.phase === "betting";
  $("pre").hidden = !canPre;
  $("pre-check-fold").checked = s.pre_action === "check_fold";
  $("pre-call-any").checked = s.pre_action === "call_any";
  // away: sat out, or no chips
  const busted = meSeat && meSeat.chips <= 0 && !inHand;
  const away = (s.sitting_out && !inHand) || busted;
  $("away").hidden = !away;
  $("btn-back").hidden = !s.sitting_out;
  $("btn-post").hidden = !(s.sitting_out && s.owes_blinds);
  $("btn-add").hidden = !busted;
  const awayWhy = tx(s.sat_out_reason) || t("sittingOut");
  $("away-text").textContent = busted ? t("busted")
    : `${awayWhy} ${s.owes_blinds ? t("owesBlinds") : t("botsPlayOn")}`;
  $("sit-out").checked = !!s.sitting_out;
  $("btn-next").hidden = !(h && h.phase === "done");
  const waitingBB = !inHand && !s.sitting_out && meSeat && meSeat.chips > 0 && (s.live || s.waiting_for_big_blind);
  $("status").textContent = tx(s.notice) || (lg ? tx(s.decision.summary) : (waitingBB ? t("waitingBB") : ""));
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
  $("coach-toggle").checked = !!s.coach_on;
  const c = s.coach;
  el.hidden = !(s.coach_on && s.decision);
  if (el.hidden) return;
  if (!c || c.equity == null) { el.textContent = t("thinking"); return; }
  const eq = lang() === "es" ? c.equity.toFixed(1).replace(".", ",") : c.equity.toFixed(1);
  const against = c.ranges ? tx(c.against) : t("vsRandom").replace("{n}", String(c.opponents));
  const parts = [`${t("equity")}: ${eq} % ${against}`];
  // what each opponent's actions say they hold (read from your seat's view, never their cards)
  if (c.ranges) parts.push(c.ranges.map((r) => `${r.name}: ${tx(r.words)}`).join(" · "));
  if (c.pot_odds != null) parts.push(tx(c.verdict));
  else parts.push(t("noCall"));
  el.replaceChildren(...parts.map((x) => { const p = document.createElement("div"); p.textContent = x; return p; }));
}

function renderResult(s) {
  const el = $("tab-result");
  const r = s.last_result;
  if (!r) { el.innerHTML = `<p>${t("noHands")}</p>`; return; }
  const key = `${r.hand_id}|${lang()}|${s.coach_on}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren();
  el.className = "tab result";
  el.dataset.handId = r.hand_id;
  const h3 = document.createElement("h3");
  h3.textContent = `${t("handNo")} #${r.number} · ${t("net")}: ${r.net > 0 ? "+" : ""}${chips(r.net)}`;
  el.append(h3);
  if (r.board.length) {
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

function renderHands(s, ol = $("hand-list")) {
  const key = `${s.history.length ? s.history[0].hand_id : ""}|${s.history.length}|${lang()}`;
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  if (!s.history.length) { ol.innerHTML = `<li>${t("noHands")}</li>`; return; }
  ol.replaceChildren(...s.history.map((x) => {
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

// ------------------------------------------------------------------ wiring
function wire() {
  $("lang").onclick = () => {
    setLang(lang() === "es" ? "en" : "es");
    translate();
    if (state) {
      for (const id of ["tab-result", "hand-list", "lobby-hands"]) $(id).dataset.key = "";
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
  $("coach-toggle").onchange = (e) => send({ type: "coach", on: e.target.checked });
  $("leave").onclick = () => send({ type: "leave" });
  $("reset").onclick = () => { if (confirm(t("resetConfirm"))) send({ type: "reset" }); };
  $("blinds").onchange = updateBuyIn;
  $("sit-form").onsubmit = (e) => {
    e.preventDefault();
    const structure = document.querySelector("input[name=structure]:checked").value;
    const msg = { type: "sit", structure, blinds: Number($("blinds").value || 0) };
    const name = $("name").value.trim();
    msg.name = name || t("defaultName");
    msg.lang = lang();
    localStorage.setItem("tapete.name", name);
    send(msg);
  };
  $("name").value = localStorage.getItem("tapete.name") || "";
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
      if (lg) setAmount(presetAmount(b.dataset.preset, state.hand, lg));
    };
  }
  $("bounds-info").onclick = () => { boundsOpen = !boundsOpen; $("bounds").hidden = !boundsOpen; };
  $("pre-check-fold").onchange = (e) => send({ type: "pre", value: e.target.checked ? "check_fold" : null });
  $("pre-call-any").onchange = (e) => send({ type: "pre", value: e.target.checked ? "call_any" : null });
  $("btn-back").onclick = () => send({ type: "sit_in" });
  $("btn-post").onclick = () => send({ type: "sit_in", post: true });
  const addChips = () => {
    const bb = state.rules.big_blind;
    const mine = state.seats[0] ? state.seats[0].chips : 0;
    send({ type: "add_chips", amount: Math.max(1, 100 * bb - mine) });
  };
  $("btn-add").onclick = addChips;
  $("btn-add2").onclick = addChips;
  $("btn-next").onclick = () => send({ type: "next" });
  $("sit-out").onchange = (e) => send({ type: e.target.checked ? "sit_out" : "sit_in" });
  for (const b of document.querySelectorAll(".tabs button")) {
    b.onclick = () => {
      for (const o of document.querySelectorAll(".tabs button")) o.classList.toggle("on", o === b);
      for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== `tab-${b.dataset.tab}`;
    };
  }
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
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
      setAmount(presetAmount(kinds[Number(k) - 1], state.hand, lg));
    } else if ((k === "arrowup" || k === "arrowdown") && lg.min_to != null) {
      const step = state.rules.big_blind;
      setAmount(currentAmount() + (k === "arrowup" ? step : -step));
    } else return;
    e.preventDefault();
  });
}

setLang(detectLang());
translate();
buildSeats();
wire();
connect();
