// Playing cards drawn with HTML and CSS: readable at any size, no images to load.
// Codes are the engine's: rank (23456789TJQKA) + suit (c d h s), e.g. "Ah", "Td".
// Screen readers get the card's name in the page's language ("Ace of hearts", "As de corazones").
import { lang, t } from "./i18n.js";

const SUIT_SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANK_TEXT = { T: "10" };

/** One card element; null or undefined gives the back of a card. */
export function cardEl(code, { small = false } = {}) {
  const el = document.createElement("div");
  el.className = "card" + (small ? " small" : "");
  if (!code) {
    el.classList.add("back");
    el.setAttribute("aria-label", t("cardFaceDown"));
    return el;
  }
  const rank = code[0];
  const suit = code[1];
  el.classList.add("suit-" + suit);
  el.dataset.card = code;
  el.setAttribute("aria-label", cardName(code));
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = RANK_TEXT[rank] || rank;
  const s = document.createElement("span");
  s.className = "suit";
  s.textContent = SUIT_SYMBOL[suit] || "?";
  const big = document.createElement("span");
  big.className = "pip";
  big.textContent = SUIT_SYMBOL[suit] || "?";
  el.append(r, s, big);
  return el;
}

/** A card's name for people, in the page's language: "Ace of hearts", "As de corazones". */
export function cardName(code) {
  const rank = t(`rank${code[0]}`);
  const suit = t(`suit${code[1]}`);
  return `${rank} ${t("cardOf")} ${suit}`;
}

/** Replace a container's cards only when they changed (keeps the page calm). */
export function setCards(container, codes, opts = {}) {
  const key = JSON.stringify(codes) + (opts.small ? "s" : "") + lang();
  if (container.dataset.cards === key) return;
  container.dataset.cards = key;
  container.replaceChildren(...codes.map((c) => cardEl(c, opts)));
}
