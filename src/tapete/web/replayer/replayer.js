// The hand replayer. The server replays the hand through the engine and sends a timeline, one
// frame per event (stacks, bets, pots, boards, the legal options, strengths, equity); this page
// only draws frames and moves between them. No build step. What each route answers is known by
// the route (tapete.server.replay_protocol, docs/protocol.md): a Timeline, a FileAnswer, an
// IcmAnswer, or an ErrorAnswer for any other status; the page reads only their fields.
import { detectLang, setLang, lang, tx, chips, decimal, percent as share, potName } from "../common/i18n.js";
import { cardEl, setCards } from "../common/cards.js";

const $ = (id) => document.getElementById(id);

export const W = {
  title: ["Hand replayer", "Reproductor de manos"],
  pageTitle: ["tapete · Hand replayer", "tapete · Reproductor de manos"],
  first: ["First action (Home)", "Primera acción (Inicio)"],
  prev: ["One action back (←)", "Una acción atrás (←)"],
  play: ["Play / pause (space)", "Reproducir / pausa (espacio)"],
  next: ["One action forward (→)", "Una acción adelante (→)"],
  last: ["Last action (End)", "Última acción (Fin)"],
  speed: ["Speed", "Velocidad"],
  dealer: ["Dealer button", "Botón"],
  scrub: ["Action", "Acción"],
  open: ["Open file…", "Abrir archivo…"],
  fourColor: ["4-colour deck", "Baraja de 4 colores"],
  lang: ["Español", "English"],
  welcomeTitle: ["Replay a hand", "Reproduce una mano"],
  welcomeText: [
    "Open a PHH file or a PokerStars hand history: step through it action by action, with the pots, the legal options and each player's equity on every street.",
    "Abre un archivo PHH o un historial de PokerStars: recórrelo acción a acción, con los botes, las opciones legales y la equity de cada jugador en cada calle.",
  ],
  drop: ["Drop a PHH or PokerStars file here, or click to choose one",
    "Suelta aquí un archivo PHH o de PokerStars, o haz clic para elegirlo"],
  dropHere: ["Drop the file", "Suelta el archivo"],
  loading: ["Loading…", "Cargando…"],
  toAct: ["to act", "por actuar"],
  did: ["Did", "Hizo"],
  handsInFile: ["Hands in this file", "Manos del archivo"],
  result: ["Result", "Resultado"],
  resultLater: ["Shown at the end of the hand (End).", "Se muestra al final de la mano (Fin)."],
  unfinished: ["The hand does not finish.", "La mano no termina."],
  actionsTitle: ["Actions", "Acciones"],
  share: ["Share", "Compartir"],
  copy: ["Copy link", "Copiar enlace"],
  copied: ["Copied", "Copiado"],
  keys: ["Keys: ← → one action · Home/End · space play/pause · 1–4 streets",
    "Teclas: ← → una acción · Inicio/Fin · espacio reproducir/pausa · 1–4 calles"],
  mainPot: ["Main pot", "Bote principal"],
  sidePot: ["Side pot", "Bote secundario"],
  pot: ["Pot", "Bote"],
  folded: ["Folded", "Retirado"],
  mucked: ["Mucked", "Tiró las cartas"],
  exact: ["Exact equity: every live hand is known.", "Equity exacta: se conocen todas las manos vivas."],
  range: ["Equity against any two cards for the hands not known ({who}); Monte Carlo.",
    "Equity contra dos cartas cualesquiera para las manos desconocidas ({who}); Monte Carlo."],
  step: ["Step", "Paso"],
  error: ["Error", "Error"],
  illegal: ["The hand stops here", "La mano se detiene aquí"],
  partial: ["Partial hand", "Mano parcial"],
  network: ["The server could not be reached.", "No se pudo contactar con el servidor."],
  noHand: ["Open a file to replay a hand.", "Abre un archivo para reproducir una mano."],
  streets: [["Preflop", "Flop", "Turn", "River"], ["Preflop", "Flop", "Turn", "River"]],
  mismatch: ["The file's summary disagrees with the rules", "El resumen del archivo no cuadra con las reglas"],
  icmTitle: ["Tournament: ICM", "Torneo: ICM"],
  icmGo: ["Price the stacks", "Valorar las fichas"],
  prizes: ["Prizes", "Premios"],
  icmHint: ["Prizes still to be won, first place first: what each stack is worth before and after the hand (Independent Chip Model).",
    "Premios que quedan por ganar, del primero al último: lo que vale cada stack antes y después de la mano (modelo ICM)."],
  icmPlayer: ["Player", "Jugador"],
  icmBefore: ["Before", "Antes"],
  icmAfter: ["After", "Después"],
  icmChange: ["Change", "Cambio"],
  uploadFailed: ["Could not open {name}", "No se pudo abrir {name}"],
  fairTitle: ["Fair dealing", "Reparto justo"],
  fairCommitment: ["Commitment (SHA-256 of the deck and a secret, published before the first card)",
    "Compromiso (SHA-256 de la baraja y un secreto, publicado antes de la primera carta)"],
  fairHint: ["The server checked the revealed deck against it; anyone can check again with tapete verify.",
    "El servidor ha comprobado la baraja revelada con él; cualquiera puede volver a comprobarlo con tapete verify."],
};

function w(key) {
  const x = W[key];
  if (!x) return key;
  return lang() === "es" ? x[1] : x[0];
}

const S = {
  data: null, // the file's answer (a FileAnswer: {name, hands, selected, timeline}) or null
  tl: null, // the timeline (a Timeline)
  step: 0,
  timer: null,
  source: null, // {kind: "stored", id} | {kind: "file", key} | {kind: "link", code} | {kind: "upload", file}
  icm: null, // what fetchJSON gave for this hand's ICM question ({answer} or {failed}), or null
};

// ------------------------------------------------------------------ amounts and words
function money(n) {
  return chips(n, S.tl && S.tl.money ? S.tl.money : undefined);
}

function percent(x) {
  return share(x, 1, S.tl && S.tl.money ? S.tl.money : undefined);
}


function translate() {
  document.documentElement.lang = lang();
  for (const el of document.querySelectorAll("[data-w]")) el.textContent = w(el.dataset.w);
  for (const el of document.querySelectorAll("[data-w-title]")) el.title = w(el.dataset.wTitle);
  for (const el of document.querySelectorAll("[data-w-aria]")) el.setAttribute("aria-label", w(el.dataset.wAria));
  $("lang").textContent = w("lang");
  const names = W.streets[lang() === "es" ? 1 : 0];
  for (const b of document.querySelectorAll("[data-street]")) b.textContent = names[+b.dataset.street];
}

// ------------------------------------------------------------------ errors
function showError(msg) {
  const el = $("error");
  if (!msg) { el.hidden = true; el.textContent = ""; return; }
  el.hidden = false;
  el.textContent = typeof msg === "string" ? msg : tx(msg);
  el.dataset.en = typeof msg === "string" ? msg : msg.en;
}

// ------------------------------------------------------------------ loading
/** {answer}: the route's answer (status 200); {failed}: why there is none, in words (an
 * ErrorAnswer's error, or the status, or the network). */
async function fetchJSON(url, opts) {
  $("loading").hidden = false;
  try {
    const r = await fetch(url, opts);
    let body = null;
    try { body = await r.json(); } catch { body = null; }
    if (r.ok && body) return { answer: body };
    return { failed: (!r.ok && body && body.error) || { en: `HTTP ${r.status}`, es: `HTTP ${r.status}` } };
  } catch {
    return { failed: { en: W.network[0], es: W.network[1] } };
  } finally {
    $("loading").hidden = true;
  }
}

function params() {
  const q = new URLSearchParams(location.search);
  const h = new URLSearchParams(location.hash.replace(/^#/, ""));
  return { q, h };
}

async function loadFromLocation() {
  const { q, h } = params();
  const s = q.get("s") || h.get("s");
  const step = s == null ? null : Number(s);
  const path = location.pathname.replace(/\/+$/, "");
  let m;
  if ((m = path.match(/^\/replay\/f\/([^/]+)$/))) {
    S.source = { kind: "file", key: m[1] };
    const hand = Number(q.get("hand") || 0);
    return showFile(await fetchJSON(`/api/replay/file/${encodeURIComponent(m[1])}?hand=${hand}`), step);
  }
  if ((m = path.match(/^\/replay\/([^/]+)$/))) {
    S.source = { kind: "stored", id: decodeURIComponent(m[1]) };
    return showTimeline(await fetchJSON(`/api/replay/hand/${encodeURIComponent(S.source.id)}`), step);
  }
  const code = h.get("h") || q.get("h");
  if (code) {
    S.source = { kind: "link", code };
    return showTimeline(await fetchJSON("/api/replay/link", { method: "POST", body: code }), step);
  }
  $("welcome").hidden = false;
  $("room").hidden = true;
}

async function upload(file, hand = 0) {
  showError(null);
  stop();
  S.source = { kind: "upload", file };
  const url = `/api/replay/upload?name=${encodeURIComponent(file.name || "upload")}&hand=${hand}`;
  showFile(await fetchJSON(url, { method: "POST", body: file }), null);
}

async function selectHand(k) {
  stop();
  const src = S.source;
  if (src && src.kind === "upload") return upload(src.file, k);
  if (src && src.kind === "file") {
    S.step = 0;
    return showFile(await fetchJSON(`/api/replay/file/${encodeURIComponent(src.key)}?hand=${k}`), null);
  }
}

/** Nothing of the hand shown before stays on screen: the felt, the lists, the title, the
 * share link and the address that would open it again. */
function clearHand() {
  S.tl = null;
  S.icm = null;
  for (const id of ["seats", "boards", "pots", "pot-detail", "dec-why", "log", "result"]) $(id).replaceChildren();
  delete $("boards").dataset.cards;
  for (const id of ["banner", "hand-title", "counter", "equity-note", "insurance", "notice", "mismatches",
    "dec-who", "dec-legal", "dec-next", "fair-verdict", "fair-commitment"]) $(id).textContent = "";
  $("fair-reasons").replaceChildren();
  delete $("fairness").dataset.status;
  for (const id of ["decision", "insurance", "notice", "mismatches", "fairness", "share-box", "icm", "icm-error"]) $(id).hidden = true;
  $("share").value = "";
  $("scrub").max = "0";
  $("scrub").value = "0";
  delete document.body.dataset.step;
  if (location.hash || location.search || location.pathname !== "/replay") history.replaceState(null, "", "/replay");
}

/** Why the hand could not be opened; an upload says which file. */
function failure(why) {
  const src = S.source;
  if (!src || src.kind !== "upload") return why;
  const name = src.file.name || "upload";
  const msg = typeof why === "string" ? { en: why, es: why } : why;
  return {
    en: `${W.uploadFailed[0].replace("{name}", name)}: ${msg.en}`,
    es: `${W.uploadFailed[1].replace("{name}", name)}: ${msg.es ?? msg.en}`,
  };
}

/** A file's answer: its hands, and the timeline of one (null when that hand cannot be read). */
function showFile(got, step) {
  const file = got.answer || null;
  if (file && file.timeline) show(file, file.timeline, step);
  else fail(file, file ? file.error : got.failed);
}

/** A hand's answer: its timeline. */
function showTimeline(got, step) {
  if (got.answer) show(null, got.answer, step);
  else fail(null, got.failed);
}

/** No hand to show: why, and a file with other hands keeps its list to pick another one; else
 * the welcome again. */
function fail(file, why) {
  clearHand();
  S.data = file;
  renderHandList();
  showError(failure(why || { en: W.network[0], es: W.network[1] }));
  const others = !!(file && file.hands.length > 1);
  $("room").hidden = !others;
  $("welcome").hidden = others;
}

function show(file, tl, step) {
  showError(null);
  S.data = file;
  S.tl = tl;
  $("welcome").hidden = true;
  $("room").hidden = false;
  buildSeats();
  renderHandList();
  renderLog();
  $("scrub").max = String(tl.frames.length - 1);
  $("hand-title").textContent = `${tl.title || ""} · ${tx(tl.game)}`;
  if (tl.error) showError(`${w("illegal")}: ${tx(tl.error)}`);
  const notice = $("notice");
  notice.hidden = !tl.partial;
  notice.textContent = tl.partial ? `${w("partial")}: ${tx(tl.note) || w("unfinished")}` : "";
  renderMismatches();
  renderFairness();
  $("share-box").hidden = !tl.share;
  if (!tl.share) $("share").value = "";
  S.icm = null;
  renderIcm();
  if ($("prizes").value.trim()) priceStacks();
  // a hand stopped by an illegal action opens where it stops, unless a step was asked for
  goto(step != null && Number.isFinite(step) ? step : tl.error ? tl.frames.length - 1 : 0);
}

// ------------------------------------------------------------------ the table
function seatAngle(k, n) {
  return Math.PI / 2 + (2 * Math.PI * k) / n;
}

function buildSeats() {
  const tl = S.tl;
  const n = tl.players.length;
  const seats = $("seats");
  seats.replaceChildren();
  $("table").classList.toggle("crowded", n >= 7);  // a phone's felt makes room for the board
  tl.players.forEach((p, k) => {
    const a = seatAngle(k, n);
    const el = document.createElement("div");
    el.className = "seat";
    el.id = `seat-${k}`;
    el.dataset.testid = "seat";
    el.setAttribute("data-testid", `seat-${k}`);
    el.style.setProperty("--cx", Math.cos(a).toFixed(4));
    el.style.setProperty("--cy", Math.sin(a).toFixed(4));
    el.innerHTML = '<div class="hole"></div><div class="plate"><div class="name"></div><div class="stack"></div></div><div class="best"></div><div class="eq" data-testid="equity"></div>';
    el.querySelector(".name").textContent = p.name;
    seats.append(el);
    const bet = document.createElement("div");
    bet.className = "bet";
    bet.id = `bet-${k}`;
    bet.setAttribute("data-testid", `bet-${k}`);
    bet.style.setProperty("--cx", Math.cos(a).toFixed(4));
    bet.style.setProperty("--cy", Math.sin(a).toFixed(4));
    seats.append(bet);
  });
  const b = tl.button;
  const a = seatAngle(b, n) + 0.32;
  const m = document.createElement("div");
  m.className = "marker dealer";
  m.textContent = "D";
  m.title = w("dealer");
  m.style.setProperty("--cx", Math.cos(a).toFixed(4));
  m.style.setProperty("--cy", Math.sin(a).toFixed(4));
  seats.append(m);
}

function render() {
  const tl = S.tl;
  if (!tl) return;
  const f = tl.frames[S.step];
  const n = tl.players.length;
  const last = S.step === tl.frames.length - 1;
  const winners = new Set();
  for (let p = 0; p < n; p++) if (f.awarded[p] > 0) winners.add(p);
  document.body.dataset.step = String(S.step);
  for (let p = 0; p < n; p++) {
    const el = $(`seat-${p}`);
    const pl = tl.players[p];
    const mucked = f.mucked.includes(p);
    el.querySelector(".stack").textContent = money(f.stacks[p]);
    el.querySelector(".stack").dataset.amount = String(f.stacks[p]);
    el.classList.toggle("allin", f.all_in[p] && !f.folded[p]);
    el.classList.toggle("folded", f.folded[p] || mucked);
    el.classList.toggle("acting", f.actor === p);
    el.classList.toggle("winner", winners.has(p));
    const hole = el.querySelector(".hole");
    if (f.folded[p] || mucked) setCards(hole, pl.cards ? pl.cards : []);
    else setCards(hole, pl.cards ? pl.cards : [null, null]);
    const st = f.strength[p];
    el.querySelector(".best").textContent = f.folded[p] ? w("folded") : mucked ? w("mucked") : st ? tx(st) : "";
    const eqEl = el.querySelector(".eq");
    const eq = f.equity && f.equity.values[p] != null ? f.equity.values[p] : null;
    if (eq == null) {
      eqEl.replaceChildren();
      delete eqEl.dataset.equity;
    } else {
      eqEl.dataset.equity = String(eq);
      eqEl.classList.toggle("range", !f.equity.exact);
      const bar = document.createElement("span");
      bar.className = "eqbar";
      const i = document.createElement("i");
      i.style.width = `${(100 * eq).toFixed(1)}%`;
      bar.append(i);
      eqEl.replaceChildren(document.createTextNode(percent(eq)), bar);
    }
    const bet = $(`bet-${p}`);
    bet.hidden = !(f.bets[p] > 0) || f.phase === "done";
    bet.textContent = money(f.bets[p]);
    bet.dataset.amount = String(f.bets[p]);
  }
  // boards
  const boards = $("boards");
  boards.classList.toggle("multi", f.boards.length > 1);
  const key = JSON.stringify(f.boards) + lang();
  if (boards.dataset.cards !== key) {
    boards.dataset.cards = key;
    boards.replaceChildren(...f.boards.map((b) => {
      const row = document.createElement("div");
      row.className = "board";
      const els = b.map((c) => cardEl(c));
      while (els.length < 5) { const e = document.createElement("div"); e.className = "card empty"; els.push(e); }
      row.replaceChildren(...els);
      return row;
    }));
  }
  // pots
  const pots = $("pots");
  pots.replaceChildren();
  if (f.pot_total > 0) {
    const total = document.createElement("span");
    total.className = "pot total";
    total.setAttribute("data-testid", "pot-total");
    total.dataset.amount = String(f.pot_total);
    total.textContent = `${w("pot")} ${money(f.pot_total)}`;
    pots.append(total);
    f.pots.forEach((x, i) => {
      const d = document.createElement("span");
      d.className = "pot";
      d.setAttribute("data-testid", "pot");
      d.dataset.amount = String(x.amount);
      d.dataset.eligible = x.eligible.map((q) => tl.players[q].name).join(",");
      d.textContent = `${potName(i, f.pots.length)} ${money(x.amount)}`;
      d.title = x.eligible.map((q) => tl.players[q].name).join(", ");
      d.hidden = f.pots.length === 1;  // a lone pot is the total: "Pot 11", not "Pot 11 · Pot 11"
      pots.append(d);
    });
  }
  $("pot-detail").replaceChildren(...f.pots.map((x, i) => {
    const li = document.createElement("li");
    li.textContent = `${potName(i, f.pots.length)} ${money(x.amount)}: ${x.eligible.map((q) => tl.players[q].name).join(", ")}`;
    return li;
  }));
  $("banner").textContent = tx(f.text);
  // transport
  $("counter").textContent = `${w("step")} ${S.step} / ${tl.frames.length - 1}`;
  $("scrub").value = String(S.step);
  $("btn-play").textContent = S.timer ? "❚❚" : "▶";
  const street = currentStreet();
  for (const b of document.querySelectorAll("[data-street]")) {
    const s = +b.dataset.street;
    b.disabled = tl.streets[s] == null;
    b.classList.toggle("on", s === street);
  }
  // the decision
  const dec = $("decision");
  if (f.legal) {
    dec.hidden = false;
    $("dec-who").textContent = tl.players[f.legal.player].name;
    $("dec-legal").textContent = tx(f.legal.summary);
    $("dec-why").replaceChildren(...f.legal.why.map((x) => { const li = document.createElement("li"); li.textContent = tx(x); return li; }));
    $("dec-next").textContent = f.next ? tx(f.next) : "–";
  } else dec.hidden = true;
  // insurance and cash-out, once the betting is over with cards to come
  const ins = $("insurance");
  ins.hidden = !f.insurance;
  ins.textContent = f.insurance ? tx(f.insurance.text) : "";
  // equity note
  const note = $("equity-note");
  if (f.equity) {
    note.textContent = f.equity.exact ? w("exact")
      : w("range").replace("{who}", f.equity.unknown.map((q) => tl.players[q].name).join(", "));
  } else note.textContent = "";
  // log and result
  for (const li of $("log").children) li.classList.toggle("on", +li.dataset.step === S.step);
  const on = $("log").querySelector("li.on");
  if (on) keepInBox($("log"), on);
  renderResult(last);
  updateUrl();
}

/** Scroll a list's own box so that an item is in it; never the page (on a phone the log is
 * below the table: scrolling the page to it would take the table out of sight at each step). */
function keepInBox(box, item) {
  const b = box.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

function currentStreet() {
  const tl = S.tl;
  let s = 0;
  for (let k = 0; k < 4; k++) if (tl.streets[k] != null && tl.streets[k] <= S.step) s = k;
  return s;
}

function renderResult(last) {
  const ul = $("result");
  const tl = S.tl;
  ul.replaceChildren();
  if (!tl.result) {
    const li = document.createElement("li");
    li.className = "returned";
    li.textContent = w("unfinished");
    ul.append(li);
    return;
  }
  if (!last) {
    const li = document.createElement("li");
    li.className = "returned";
    li.textContent = w("resultLater");
    ul.append(li);
    return;
  }
  for (const item of tl.result.items) {
    const li = document.createElement("li");
    li.dataset.kind = item.kind;
    li.dataset.amount = String(item.amount);
    if (item.kind === "pot") {
      li.dataset.winners = item.winners.map((q) => tl.players[q].name).join(",");
      li.dataset.eligible = item.eligible.map((q) => tl.players[q].name).join(",");
    } else {
      li.className = "returned";
      li.dataset.player = tl.players[item.player].name;
    }
    li.textContent = tx(item.text);
    ul.append(li);
  }
}

function renderLog() {
  const tl = S.tl;
  const ol = $("log");
  ol.replaceChildren(...tl.frames.map((f) => {
    const li = document.createElement("li");
    li.dataset.step = String(f.i);
    li.value = f.i;  // numbered as the counter counts: step 0 is the hand before any action
    li.textContent = tx(f.text);
    if (f.event && f.event.type === "BoardDealt") li.className = "street";
    li.addEventListener("click", () => { stop(); goto(f.i); });
    return li;
  }));
}

function renderHandList() {
  const box = $("hand-list-box");
  const d = S.data;
  if (!d || d.hands.length < 2) { box.hidden = true; return; }
  box.hidden = false;
  const sel = $("hand-list");
  sel.replaceChildren(...d.hands.map((h) => {
    const o = document.createElement("option");
    o.value = String(h.index);
    o.textContent = `${h.index + 1}. #${h.label}` + (h.players ? ` · ${h.players}` : "") + (h.error ? ` · ${w("error")}: ${tx(h.error)}` : "");
    return o;
  }));
  sel.value = String(d.selected);
}

function renderMismatches() {
  const box = $("mismatches");
  const list = S.tl ? S.tl.mismatches : [];
  box.hidden = !list.length;
  box.textContent = list.length ? `${w("mismatch")}: ${list.map((m) => tx(m)).join("; ")}` : "";
}

/** The hand's commitment to its deck and the server's verdict on it (hidden for a hand that
 * carries none): the page only shows what the server found. */
function renderFairness() {
  const box = $("fairness");
  const f = S.tl ? S.tl.fairness : null;
  box.hidden = !f;
  if (!f) return;
  box.dataset.status = f.status;
  $("fair-verdict").textContent = tx(f.summary);
  $("fair-reasons").replaceChildren(...f.reasons.map((r) => {
    const li = document.createElement("li");
    li.textContent = tx(r);
    return li;
  }));
  $("fair-commitment").textContent = f.commitment;
}

// ------------------------------------------------------------------ tournament equity
async function priceStacks() {
  const tl = S.tl;
  if (!tl) return;
  const last = tl.frames[tl.frames.length - 1];
  const body = JSON.stringify({
    start: tl.players.map((p) => p.start), end: last.stacks, prizes: $("prizes").value,
  });
  S.icm = await fetchJSON("/api/icm", { method: "POST", body, headers: { "Content-Type": "application/json" } });
  renderIcm();
}

function renderIcm() {
  const table = $("icm");
  const err = $("icm-error");
  const failed = S.icm && S.icm.failed;
  const res = S.icm && S.icm.answer;
  err.hidden = !failed;
  err.textContent = failed ? tx(failed) : "";
  table.hidden = !res;
  table.replaceChildren();
  if (!res) return;
  const row = (cells, head) => {
    const tr = document.createElement("tr");
    for (const c of cells) {
      const td = document.createElement(head ? "th" : "td");
      td.textContent = c;
      tr.append(td);
    }
    return tr;
  };
  const num = (s) => decimal(s, S.tl.money);
  table.append(row([w("icmPlayer"), w("icmBefore"), w("icmAfter"), w("icmChange")], true));
  res.players.forEach((p, k) => {
    const tr = row([S.tl.players[k].name, num(p.before), num(p.after), num(p.change)], false);
    tr.dataset.testid = `icm-${k}`;
    table.append(tr);
  });
}

// ------------------------------------------------------------------ moving
function goto(k) {
  const tl = S.tl;
  if (!tl) return;
  S.step = Math.max(0, Math.min(tl.frames.length - 1, Math.trunc(k) || 0));
  render();
}

function stop() {
  if (S.timer) clearInterval(S.timer);
  S.timer = null;
  if (S.tl) $("btn-play").textContent = "▶";
}

function play() {
  if (S.timer) { stop(); return; }
  const tl = S.tl;
  if (!tl) return;
  if (S.step >= tl.frames.length - 1) goto(0);
  const speed = Number($("speed").value) || 1;
  S.timer = setInterval(() => {
    if (S.step >= S.tl.frames.length - 1) { stop(); return; }
    goto(S.step + 1);
  }, 1000 / speed);
  $("btn-play").textContent = "❚❚";
}

function jumpStreet(s) {
  const tl = S.tl;
  if (!tl || tl.streets[s] == null) return;
  stop();
  goto(tl.streets[s]);
}

function updateUrl() {
  const src = S.source;
  const tl = S.tl;
  if (!src || !tl) return;
  let url = null;
  if (src.kind === "stored") url = `/replay/${encodeURIComponent(src.id)}?s=${S.step}`;
  else if (src.kind === "file") url = `/replay/f/${src.key}?hand=${S.data ? S.data.selected : 0}&s=${S.step}`;
  else if (tl.share) url = `/replay?s=${S.step}#h=${tl.share}`;
  else if (src.kind === "link") url = `/replay?s=${S.step}#h=${src.code}`;
  if (url && url !== location.pathname + location.search + location.hash) history.replaceState(null, "", url);
  if (tl.share) $("share").value = `${location.origin}/replay?s=${S.step}#h=${tl.share}`;
}

// ------------------------------------------------------------------ wiring
function wire() {
  $("btn-first").onclick = () => { stop(); goto(0); };
  $("btn-prev").onclick = () => { stop(); goto(S.step - 1); };
  $("btn-next").onclick = () => { stop(); goto(S.step + 1); };
  $("btn-last").onclick = () => { stop(); if (S.tl) goto(S.tl.frames.length - 1); };
  $("btn-play").onclick = () => play();
  $("speed").onchange = () => { if (S.timer) { stop(); play(); } };
  $("scrub").oninput = () => { stop(); goto(Number($("scrub").value)); };
  for (const b of document.querySelectorAll("[data-street]")) b.onclick = () => jumpStreet(+b.dataset.street);
  $("hand-list").onchange = () => selectHand(Number($("hand-list").value));
  $("file-input").onchange = () => { const f = $("file-input").files[0]; if (f) upload(f); $("file-input").value = ""; };
  $("lang").onclick = () => { setLang(lang() === "es" ? "en" : "es"); translate(); renderHandList(); renderIcm(); renderMismatches(); renderFairness(); if (S.tl) { renderLog(); render(); } };
  $("icm-form").onsubmit = (e) => { e.preventDefault(); priceStacks(); };
  const four = $("four-color");
  four.checked = localStorage.getItem("tapete.fourColor") === "1";
  document.body.classList.toggle("four-color", four.checked);
  four.onchange = () => { localStorage.setItem("tapete.fourColor", four.checked ? "1" : "0"); document.body.classList.toggle("four-color", four.checked); };
  $("copy").onclick = async () => {
    $("share").select();
    try { await navigator.clipboard.writeText($("share").value); } catch { document.execCommand && document.execCommand("copy"); }
    $("copy").textContent = w("copied");
    setTimeout(() => { $("copy").textContent = w("copy"); }, 1500);
  };
  document.addEventListener("keydown", (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "checkbox")) return;
    if (e.ctrlKey || e.metaKey || e.altKey || !S.tl) return;
    if (e.key === "ArrowRight") { stop(); goto(S.step + 1); } else if (e.key === "ArrowLeft") { stop(); goto(S.step - 1); } else if (e.key === "Home") { stop(); goto(0); } else if (e.key === "End") { stop(); goto(S.tl.frames.length - 1); } else if (e.key === " " || e.code === "Space") { play(); } else if (/^[1-4]$/.test(e.key)) { jumpStreet(Number(e.key) - 1); } else return;
    e.preventDefault();
  });
  let depth = 0;
  window.addEventListener("dragenter", (e) => { e.preventDefault(); depth++; $("dropping").hidden = false; });
  window.addEventListener("dragleave", () => { depth = Math.max(0, depth - 1); if (!depth) $("dropping").hidden = true; });
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    $("dropping").hidden = true;
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (f) upload(f);
  });
  window.addEventListener("hashchange", () => { const { h } = params(); if (h.get("h") && (!S.tl || h.get("h") !== S.tl.share)) loadFromLocation(); });
}

setLang(detectLang());
translate();
wire();
loadFromLocation();
