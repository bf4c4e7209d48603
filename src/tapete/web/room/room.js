// The room's lobby: the public tables, live (asked again every few seconds), and the form that
// opens a table. Every amount is written by the same rule as the tables' (i18n.js chips).
import { detectLang, setLang, lang, t, tx, chips, translate } from "../common/i18n.js";

const $ = (id) => document.getElementById(id);
let tables = [];

async function refresh() {
  try {
    const [me, list] = await Promise.all([
      fetch("/api/me").then((r) => r.json()),
      fetch("/api/room/tables").then((r) => r.json()),
    ]);
    $("bankroll").textContent = chips(me.bankroll);
    tables = list;
    render();
  } catch {
    // the server is restarting: the next round asks again
  }
}

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

/** The words of each variant a table deals (TableSummary.variant). */
const VARIANT_KEYS = { holdem: "holdem", omaha: "omaha", "omaha-hi-lo": "omahaHiLo" };

function render() {
  const body = $("tables");
  body.replaceChildren(...tables.map((x) => {
    const tr = document.createElement("tr");
    tr.dataset.table = x.table;
    tr.append(
      cell(`${t(x.game)} ${t(VARIANT_KEYS[x.variant])}` + (x.bots ? ` · ${t("withBots")}` : "")),
      cell(`${chips(x.small_blind)}/${chips(x.big_blind)}`),
      cell(`${chips(x.min_buy_in)} – ${chips(x.max_buy_in)}`),
      cell(`${x.taken}/${x.seats}`, "num"),
      cell(String(x.spectators), "num"),
      cell(chips(x.average_pot), "num"),
      cell(String(x.hands_per_hour), "num"),
    );
    const td = document.createElement("td");
    const a = document.createElement("a");
    a.className = "join";
    a.href = `/t/${x.table}`;
    a.textContent = x.taken < x.seats ? t("join") : t("watch");
    a.setAttribute("data-testid", `join-${x.table}`);
    td.append(a);
    tr.append(td);
    return tr;
  }));
  $("no-tables").hidden = tables.length > 0;
}

/** A whole number from a field of the form, at least 0. */
function count(id) {
  const v = Math.round(Number($(id).value));
  return Number.isFinite(v) && v > 0 ? v : 0;
}

/** The home-game options of a private table (its creator hosts it), amounts in chips. */
function homeGame(bb) {
  const bombs = count("bomb-every") > 0 || $("bomb-vote").checked;
  const holdem = $("variant").value === "holdem";
  return {
    auto_approve: !$("approve").checked,
    run_it: $("run-it").checked ? 2 : 1,
    straddle: $("straddle").checked,
    restraddle: $("straddle").checked && $("restraddle").checked,
    bomb_every: count("bomb-every"),
    bomb_vote: $("bomb-vote").checked,
    bomb_ante: bombs ? Math.max(1, count("bomb-ante")) * bb : 0,
    double_board: bombs && $("double-board").checked,
    bounty_72: holdem ? count("bounty") * bb : 0,
    chat: $("chat").checked,
    spectator_chat: $("spectators").checked && $("spectator-chat").checked,
  };
}

/** The home-game group shows with "private"; a choice that needs another follows it. */
function syncForm() {
  $("home").hidden = !$("private").checked;
  $("restraddle").disabled = !$("straddle").checked;
  const bombs = count("bomb-every") > 0 || $("bomb-vote").checked;
  $("bomb-ante").disabled = !bombs;
  $("double-board").disabled = !bombs;
  $("bounty").disabled = $("variant").value !== "holdem";
  $("spectator-chat").disabled = !$("spectators").checked || !$("chat").checked;
}

async function create(e) {
  e.preventDefault();
  const [sb, bb] = $("stakes").value.split("/").map(Number);
  const minBb = Math.round(Number($("min-bb").value));
  const maxBb = Math.round(Number($("max-bb").value));
  const body = {
    game: document.querySelector("input[name=game]:checked").value,
    variant: $("variant").value,
    small_blind: sb, big_blind: bb,
    min_buy_in: minBb * bb, max_buy_in: maxBb * bb,
    seats: Number($("seats").value),
    act_ms: 1000 * Number($("act").value), bank_ms: 1000 * Number($("bank").value),
    bots: $("bots").checked, public: !$("private").checked, spectators: $("spectators").checked,
  };
  if ($("private").checked) Object.assign(body, homeGame(bb));
  $("create-error").textContent = "";
  const r = await fetch("/api/room/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await r.json();
  if (!r.ok) { $("create-error").textContent = tx(answer.error); return; }
  location.href = answer.url;
}

// ------------------------------------------------------------------ the tournaments
// GET /api/room/tournaments lists them (server/tournaments.py); POST creates one; a row's
// buttons register (with the name typed here), unregister, start (its creator), and once it
// runs open its tables. The list does not say which registered name or table is this
// person's: the page remembers the names it registered and the tournaments it created.
const TOURNAMENTS = "/api/room/tournaments";
let tournaments = null;
const mineKey = "tapete.tournaments";

function remembered() {
  try { return JSON.parse(localStorage.getItem(mineKey) || "{}"); } catch { return {}; }
}

function remember(id, what) {
  const all = remembered();
  all[id] = { ...(all[id] || {}), ...what };
  localStorage.setItem(mineKey, JSON.stringify(all));
}

async function refreshTournaments() {
  try {
    const r = await fetch(TOURNAMENTS, { cache: "no-store" });
    if (!r.ok) { tournaments = null; renderTournaments(); return; }
    tournaments = await r.json();
    renderTournaments();
  } catch {
    // asked again at the next round
  }
}

function button(text, testid, primary, onclick) {
  const b = document.createElement("button");
  b.textContent = text;
  b.className = primary ? "primary" : "";
  b.setAttribute("data-testid", testid);
  b.onclick = onclick;
  return b;
}

function renderTournaments() {
  $("tournaments").hidden = tournaments == null;
  if (tournaments == null) return;
  const mine = remembered();
  $("tournament-rows").replaceChildren(...tournaments.map((x) => {
    const tr = document.createElement("tr");
    const status = x.finished ? "finished" : x.started ? "running" : "registering";
    const me = mine[x.id] || {};
    const registered = !!me.name && x.registered.includes(me.name);
    tr.dataset.tournament = x.id;
    tr.dataset.status = status;
    tr.setAttribute("data-testid", `tournament-${x.id}`);
    const name = cell(x.name);
    if (registered) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = t("registeredTag");
      name.append(" ", tag);
    }
    const players = x.started && x.players_left != null
      ? t("playersLeft").replace("{left}", String(x.players_left)).replace("{field}", String(x.registered.length + x.bots))
      : `${x.registered.length}/${x.max_players}` + (x.bots ? ` + ${x.bots} ${t("botsWord")}` : "");
    const st = cell(t(STATUS[status]));
    if (x.finished && x.results.length) st.textContent += ` · ${x.results[0].name}`;
    tr.append(name, cell(players, "num"), cell(chips(x.buy_in), "num"), st);
    const td = document.createElement("td");
    td.className = "actions-cell";
    if (!x.started) {
      td.append(registered
        ? button(t("unregister"), "t-unregister", false, () => tournamentCall(`${TOURNAMENTS}/${encodeURIComponent(x.id)}/unregister`, "POST"))
        : button(t("register"), "t-register", true, () => register(x.id)));
      if (me.created) td.append(" ", button(t("startNow"), "t-start", false, () => tournamentCall(`${TOURNAMENTS}/${encodeURIComponent(x.id)}/start`, "POST")));
    } else if (!x.finished) {
      for (const [k, tableId] of Object.entries(x.tables)) {
        const a = document.createElement("a");
        a.className = "join";
        a.href = `/t/${tableId}`;
        a.textContent = t("tableN").replace("{k}", k);
        a.setAttribute("data-testid", "t-table");
        td.append(a, " ");
      }
    }
    tr.append(td);
    return tr;
  }));
  $("no-tournaments").hidden = tournaments.length > 0;
}

const STATUS = { registering: "statusRegistering", running: "statusRunning", finished: "statusFinished" };

async function tournamentCall(url, method, body) {
  $("tournament-error").textContent = "";
  const r = await fetch(url, {
    method, headers: { "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) $("tournament-error").textContent = tx(answer.error) || String(r.status);
  await refreshTournaments();
  refresh();
  return r.ok ? answer : null;
}

async function register(id) {
  const name = $("t-player").value.trim() || t("defaultName");
  localStorage.setItem("tapete.name", name);
  const done = await tournamentCall(`${TOURNAMENTS}/${encodeURIComponent(id)}/register`, "POST", { name });
  if (done) { remember(id, { name: done.registered.includes(name) ? name : null }); renderTournaments(); }
}

// turbo: the server's levels, each half as long (server/tournaments.py's default has 6 hands)
const TURBO = "25/50x3 50/100x3 75/150/150x3 100/200/200x3 150/300/300x3 200/400/400x3 300/600/600x3";

async function createTournament(e) {
  e.preventDefault();
  const num = (id) => Math.round(Number($(id).value));
  const body = {
    name: $("t-name").value.trim() || t("tName"), seats: num("t-seats"),
    starting_stack: num("t-stack"), buy_in: num("t-buyin"), max_players: num("t-max"), bots: num("t-bots"),
  };
  if ($("t-speed").value === "turbo") body.levels = TURBO;
  const made = await tournamentCall(TOURNAMENTS, "POST", body);
  if (made) { remember(made.id, { created: true }); renderTournaments(); }
}

setLang(detectLang());
translate();
$("lang").onclick = () => { setLang(lang() === "es" ? "en" : "es"); translate(); render(); renderTournaments(); };
$("t-create").onsubmit = createTournament;
$("t-player").value = localStorage.getItem("tapete.name") || "";
$("create").onsubmit = create;
$("create").addEventListener("input", syncForm);
$("create").addEventListener("change", syncForm);
syncForm();
refresh();
refreshTournaments();
setInterval(refresh, 3000);
setInterval(refreshTournaments, 3000);
