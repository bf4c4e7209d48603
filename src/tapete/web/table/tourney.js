// A tournament table (the practice table's sit-and-go, a room tournament's table): the state's
// `tournament` says the level, the field and the prizes, each stack's ICM equity, the deal on
// offer and, at the end, the places. This module draws them; table.js calls it on each state
// and hides the cash game's controls a tournament refuses (add chips, sit out, leave while in).
// Every amount here is the server's: equities and deals are whole units of the prize pool that
// add up to it, and nothing is worked out again on the page.
import { t, tn, tx, chips, ordinal } from "../common/i18n.js";

const $ = (id) => document.getElementById(id);

// what the person did here, until a state says it is done
const mine = { dealAsked: null, answered: null, endSeen: null, watching: null };

/** Whether the state is a tournament's. */
export function tourneyOf(s) {
  return s && !s.lobby && s.tournament ? s.tournament : null;
}

/** The person is still in the tournament (not knocked out, not over). */
export function stillIn(tr) {
  return !!tr && tr.place == null && !tr.finished;
}

function blindsText(sb, bb, ante) {
  return `${chips(sb)}/${chips(bb)}` + (ante ? ` ${t("anteWord")} ${chips(ante)}` : "");
}

function whenText(tr) {
  return tn("handsLeft", tr.hands_to_next_level);
}

/** The bar under the header: name, level, blinds and ante, what comes next, the field, the
 * prize pool and what each place pays. */
function renderBar(tr) {
  // a room tournament of several tables: which one this is
  $("t-name").textContent = tx(tr.name) + (tr.tables > 1
    ? ` · ${t("tableOf").replace("{k}", String(tr.table_number)).replace("{tables}", String(tr.tables))}` : "");
  $("t-level").textContent = `${t("level").replace("{level}", String(tr.level))} · ${blindsText(tr.small_blind, tr.big_blind, tr.ante)}`;
  const when = whenText(tr);
  const more = tr.next_big_blind != null && (tr.next_big_blind !== tr.big_blind || tr.next_ante !== tr.ante);
  $("t-next").textContent = tr.finished ? "" : (more && when
    ? t("nextLevel").replace("{blinds}", blindsText(tr.next_small_blind, tr.next_big_blind, tr.next_ante)).replace("{when}", when)
    : "");
  $("t-next").hidden = !$("t-next").textContent;
  $("t-left").textContent = tr.finished ? t("tourneyOver")
    : t("playersLeft").replace("{left}", String(tr.players_left)).replace("{field}", String(tr.entrants));
  $("t-left").dataset.left = String(tr.players_left);
  $("t-left").dataset.entrants = String(tr.entrants);
  $("t-pool").textContent = `${t("prizePool")} ${chips(tr.prize_pool)}`;
  $("t-pool").dataset.amount = String(tr.prize_pool);
  const prizes = $("t-prizes");
  prizes.replaceChildren(...tr.prizes.map((p, i) => {
    const x = document.createElement("span");
    x.className = "t-prize";
    x.dataset.place = String(i + 1);
    x.dataset.amount = String(p);
    x.textContent = `${ordinal(i + 1)} ${chips(p)}`;
    return x;
  }));
  $("tourney").hidden = false;
}

/** Each seat's ICM equity, as money, under its stack. */
function renderEquities(s, tr) {
  const bySeat = {};
  for (const e of tr.equities) bySeat[e.seat] = e;
  for (let i = 0; i < s.seats.length; i++) {
    const el = $(`seat-${i}`);
    if (!el) continue;
    const icm = el.querySelector(".icm");
    const e = s.seats[i] ? bySeat[i] : null;
    icm.hidden = !e;
    icm.textContent = e ? `${t("icm")} ${chips(e.equity)}` : "";
    icm.title = t("icmTitle");
    icm.dataset.amount = e ? String(e.equity) : "";
    if (e) icm.setAttribute("data-testid", `icm-${i}`);
    else icm.removeAttribute("data-testid");
  }
}

/** The deal: buttons to propose one, the offer with each player's amount, the answers as they
 * come, accept or decline for the person, the outcome. */
function renderDeal(s, tr, send) {
  const box = $("deal");
  const d = tr.deal;
  const inIt = stillIn(tr);
  // may propose: the server says when (deal_allowed: three players or fewer, all of them in
  // the money, none on offer), and not already asked at this count
  const canAsk = inIt && tr.deal_allowed && mine.dealAsked !== tr.players_left;
  $("deal-propose").hidden = !canAsk;
  const offer = $("deal-offer");
  offer.hidden = !d;
  if (d) {
    offer.dataset.kind = d.kind;
    offer.dataset.open = d.open ? "1" : "0";
    $("deal-title").textContent = d.kind === "icm" ? t("dealTitleIcm") : t("dealTitleChop");
    const me = s.seats.find((x) => x && x.you);
    const myName = me ? me.name : null;
    $("deal-lines").replaceChildren(...d.amounts.map((x) => {
      const { name, amount, answer: a } = x;
      const li = document.createElement("li");
      li.dataset.name = name;
      li.dataset.amount = String(amount);
      li.dataset.answer = a === true ? "yes" : a === false ? "no" : "";
      li.setAttribute("data-testid", "deal-line");
      const who = document.createElement("b");
      who.textContent = name === myName ? `${name} (${t("you")})` : name;
      const what = document.createElement("span");
      what.className = "amount";
      what.textContent = ` ${chips(amount)}`;
      const ans = document.createElement("span");
      ans.className = `answer ${li.dataset.answer}`;
      ans.textContent = a === true ? ` · ${t("dealYes")}` : a === false ? ` · ${t("dealNo")}` : (d.open && name !== myName ? ` · ${t("dealWaiting")}` : "");
      li.append(who, what, ans);
      return li;
    }));
    const anyNo = d.amounts.some((x) => x.answer === false);
    const mineLine = d.amounts.find((x) => x.name === myName);
    const myAnswer = mineLine ? mineLine.answer : null;
    let outcome = "";
    if (!d.open) outcome = anyNo || !tr.finished ? t("dealRefused") : t("dealMade");
    else if (mine.answered === dealKey(d) || myAnswer != null) outcome = t("dealWaitOthers");
    $("deal-outcome").textContent = outcome;
    $("deal-outcome").dataset.outcome = !d.open ? (anyNo || !tr.finished ? "refused" : "made") : "";
    const ask = d.open && inIt && mineLine != null && myAnswer == null && mine.answered !== dealKey(d);
    $("deal-yes").hidden = !ask;
    $("deal-no").hidden = !ask;
    const answer = (yes) => {
      mine.answered = dealKey(d);
      send({ type: "deal_answer", yes });
      $("deal-yes").hidden = $("deal-no").hidden = true;
      $("deal-outcome").textContent = t("dealWaitOthers");
    };
    $("deal-yes").onclick = () => answer(true);
    $("deal-no").onclick = () => answer(false);
  }
  $("deal-icm").onclick = () => { mine.dealAsked = tr.players_left; send({ type: "deal", kind: "icm" }); };
  $("deal-chop").onclick = () => { mine.dealAsked = tr.players_left; send({ type: "deal", kind: "chop" }); };
  box.hidden = !canAsk && !d;
}

/** A deal told apart from another: its kind and amounts. */
function dealKey(d) {
  return `${d.kind}:${d.amounts.map((x) => `${x.name}=${x.amount}`).join(",")}`;
}

/** The end, for the person: the place and the prize, and the whole results once it is over. */
function renderEnd(s, tr) {
  const panel = $("t-end");
  const out = tr.place != null || tr.finished;
  const key = `${tr.id}|${tr.place}|${tr.finished}`;
  if (!out) { panel.hidden = true; return; }
  // knocked out with the tournament going on: the person may watch the rest (the panel folds)
  if (mine.watching === key) { panel.hidden = true; return; }
  panel.hidden = false;
  panel.dataset.place = tr.place == null ? "" : String(tr.place);
  panel.dataset.prize = String(tr.prize || 0);  // null: no prize
  panel.dataset.finished = tr.finished ? "1" : "0";
  let title = t("tourneyOver");
  if (tr.place != null) {
    const words = tr.prize > 0 ? t("finishedWon") : t("finishedOut");
    title = words.replace("{place}", ordinal(tr.place)).replace("{field}", String(tr.entrants)).replace("{prize}", chips(tr.prize));
  }
  $("t-end-title").textContent = title;
  const results = tr.results;
  $("t-results").replaceChildren(...results.map((r) => {
    const row = document.createElement("tr");
    row.dataset.place = String(r.place);
    row.dataset.name = r.name;
    row.dataset.prize = String(r.prize);
    row.setAttribute("data-testid", "t-result");
    const me = s.seats.find((x) => x && x.you);
    row.classList.toggle("you", !!me && me.name === r.name);
    for (const text of [ordinal(r.place), r.name, r.prize ? chips(r.prize) : "–"]) {
      const td = document.createElement("td");
      td.textContent = text;
      row.append(td);
    }
    return row;
  }));
  panel.querySelector("table").hidden = !results.length;
  $("t-watch").hidden = !!tr.finished;
  $("t-again").hidden = tr.kind !== "sng";  // a room tournament's end: back to the lobby only
  $("t-watch").onclick = () => { mine.watching = key; panel.hidden = true; };
}

/** The notices in the bar: hand-for-hand. */
function renderNote(tr) {
  const el = $("t-note");
  let note = "";
  if (tr.hand_for_hand && !tr.finished) note = t("handForHand");
  el.textContent = note;
  el.hidden = !note;
  el.dataset.kind = tr.hand_for_hand ? "hand-for-hand" : "";
}

/** Draw the tournament's parts of the page (none at a cash table). */
export function renderTourney(s, send) {
  const tr = tourneyOf(s);
  document.body.dataset.tourney = tr ? (stillIn(tr) ? "in" : "out") : "";
  if (!tr) {
    for (const id of ["tourney", "t-note", "deal", "t-end"]) $(id).hidden = true;
    for (const el of document.querySelectorAll("#seats .icm")) el.hidden = true;
    return;
  }
  renderBar(tr);
  renderEquities(s, tr);
  renderNote(tr);
  renderDeal(s, tr, send);
  renderEnd(s, tr);
}

/** The buy-ins a sit-and-go may have, and the page's choice among those the bankroll covers. */
export const SNG_BUY_INS = [100, 200, 500, 1000, 2000];

/** What the start screen's Sit & Go form asks for (the name as the cash table's form has it). */
export function sngChoice(name, lang) {
  const msg = {
    type: "sng",
    seats: Number(document.querySelector("input[name=sng-seats]:checked").value),
    speed: document.querySelector("input[name=sng-speed]:checked").value,
    buy_in: Number($("sng-buyin").value),
    lang,
  };
  if (name) msg.name = name;
  return msg;
}

/** Fill the Sit & Go form's buy-ins (those the bankroll covers) and its prize-pool line. */
export function renderSngForm(s) {
  const sel = $("sng-buyin");
  const prev = sel.value;
  const can = SNG_BUY_INS.filter((b) => b <= s.me.bankroll);
  sel.replaceChildren(...can.map((b) => {
    const o = document.createElement("option");
    o.value = String(b);
    o.textContent = chips(b);
    return o;
  }));
  if (can.includes(Number(prev))) sel.value = prev;
  const start = document.querySelector("[data-testid=sng-start]");
  start.disabled = !can.length;
  const seats = Number(document.querySelector("input[name=sng-seats]:checked").value);
  const buy = Number(sel.value || 0);
  $("sng-pool").textContent = can.length
    ? t("sngPool").replace("{entries}", String(seats)).replace("{buy}", chips(buy)).replace("{pool}", chips(seats * buy))
    : t("sngNoMoney");
}

/** Forget what the person did at the last tournament (a new one starts). */
export function resetTourney() {
  mine.dealAsked = null;
  mine.answered = null;
  mine.watching = null;
}
