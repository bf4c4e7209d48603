// Words on the page in English and Spanish. Server messages travel as {en, es} and are picked
// here too, so switching language re-renders everything without asking the server.
// A counted word has two keys: KEY for any number, KEYOne for exactly one (see tn).

export const WORDS = {
  title: ["Practice table", "Mesa de práctica"],
  sitHere: ["Sit here", "Sentarse aquí"],
  toLobby: ["Lobby", "Vestíbulo"],
  copyLink: ["Copy the link", "Copiar el enlace"],
  linkCopied: ["Link copied: send it to your friends.", "Enlace copiado: envíalo a tus amigos."],
  watching: ["{n} watching", "{n} mirando"],
  fairShort: ["deck", "baraja"],
  fairDeal: ["Deck committed before the deal (SHA-256 of the deck and a secret, both shown when the hand ends: tapete verify checks the hand): {hash}", "Baraja comprometida antes del reparto (SHA-256 de la baraja y un secreto, que se muestran al acabar la mano: tapete verify comprueba la mano): {hash}"],
  watchingOne: ["1 watching", "1 mirando"],
  takeSeat: ["Take this seat", "Ocupar este asiento"],
  cancel: ["Cancel", "Cancelar"],
  roomTable: ["Room table", "Mesa de la sala"],
  watchingPick: ["You are watching: pick an empty seat to play.", "Estás mirando: elige un asiento libre para jugar."],
  waitingPlayers: ["Waiting for another player…", "Esperando a otro jugador…"],
  roomPageTitle: ["tapete · Room", "tapete · Sala"],
  roomName: ["Room", "Sala"],
  roomLink: ["Play people", "Jugar con personas"],
  practiceLink: ["Practice table", "Mesa de práctica"],
  replayerLink: ["Replayer", "Reproductor"],
  publicTables: ["Public tables", "Mesas públicas"],
  publicIntro: ["Play people at shared tables with virtual chips from your bankroll. A private table is reached by its link only.",
    "Juega contra personas en mesas compartidas con fichas virtuales de tu saldo. A una mesa privada solo se llega por su enlace."],
  stakes: ["Stakes", "Ciegas"],
  seatsTaken: ["Seats", "Asientos"],
  watchingHead: ["Watching", "Mirando"],
  avgPot: ["Average pot", "Bote medio"],
  handsHour: ["Hands/hour", "Manos/hora"],
  noTables: ["No public tables yet: open one.", "Aún no hay mesas públicas: abre una."],
  openTable: ["Open a table", "Abrir una mesa"],
  buyInRange: ["Buy-in (big blinds)", "Entrada (ciegas grandes)"],
  seatsCount: ["Seats", "Asientos"],
  actTime: ["Seconds to act", "Segundos para actuar"],
  bankTime: ["Time bank, in seconds", "Tiempo extra, en segundos"],
  botsFill: ["Bots fill the empty seats", "Los bots ocupan los asientos libres"],
  privateTable: ["Private: only people with the link", "Privada: solo quien tenga el enlace"],
  allowWatch: ["Anyone with the link may watch", "Cualquiera con el enlace puede mirar"],
  openIt: ["Open the table", "Abrir la mesa"],
  withBots: ["with bots", "con bots"],
  join: ["Sit down", "Sentarse"],
  watch: ["Watch", "Mirar"],
  bankroll: ["Bankroll", "Saldo"],
  atTable: ["at the table", "en la mesa"],
  reset: ["Reset to 10,000", "Reiniciar a 10.000"],
  resetConfirm: ["Reset your bankroll to 10,000 chips?", "¿Reiniciar tu saldo a 10.000 fichas?"],
  lang: ["Español", "English"],
  fourColor: ["4-colour deck", "Baraja de 4 colores"],
  coach: ["Coach", "Entrenador"],
  leave: ["Leave table", "Dejar la mesa"],
  lobbyTitle: ["Sit down at a practice table", "Siéntate en una mesa de práctica"],
  lobbyIntro: [
    "Texas Hold'em or Omaha with virtual chips, no sign-up, against five automatic opponents.",
    "Texas Hold'em u Omaha con fichas virtuales, sin registro y frente a cinco rivales automáticos.",
  ],
  game: ["Game", "Juego"],
  nl: ["No-limit", "Sin límite"],
  pl: ["Pot-limit", "Límite del bote"],
  fl: ["Fixed-limit", "Límite fijo"],
  variant: ["Variant", "Variante"],
  holdem: ["Hold'em", "Hold'em"],
  omaha: ["Omaha", "Omaha"],
  omahaHiLo: ["Omaha hi-lo", "Omaha hi-lo"],
  blinds: ["Blinds", "Ciegas"],
  yourName: ["Your name", "Tu nombre"],
  buyIn: ["Buy-in", "Entrada"],
  sit: ["Sit down", "Sentarse"],
  opponents: ["Your opponents", "Tus rivales"],
  fold: ["Fold", "Retirarse"],
  check: ["Check", "Pasar"],
  call: ["Call", "Igualar"],
  bet: ["Bet", "Apostar"],
  raiseTo: ["Raise to", "Subir a"],
  allIn: ["All-in", "All-in"],
  min: ["Min", "Mín"],
  halfPot: ["½ pot", "½ bote"],
  threeQuarterPot: ["¾ pot", "¾ bote"],
  pot: ["Pot", "Bote"],
  mainPot: ["Main pot", "Bote principal"],
  sidePot: ["Side pot", "Bote secundario"],
  bounds: ["Why these amounts?", "¿Por qué estas cantidades?"],
  checkFold: ["Check/fold", "Pasar/retirarse"],
  callAny: ["Call any", "Igualar todo"],
  preActions: ["Before your turn:", "Antes de tu turno:"],
  timeBank: ["time bank", "tiempo extra"],
  yourTurn: ["Your turn", "Tu turno"],
  waitingFor: ["Waiting for", "Esperando a"],
  sittingOut: ["You are sitting out.", "Estás fuera de la mesa."],
  imBack: ["I'm back", "He vuelto"],
  sitOut: ["Sit out next hand", "Salir la próxima mano"],
  addChips: ["Add chips", "Añadir fichas"],
  busted: ["You have no chips at the table.", "No te quedan fichas en la mesa."],
  lastHand: ["Last hand", "Última mano"],
  hands: ["Hands", "Manos"],
  log: ["Log", "Registro"],
  noHands: ["No hands yet.", "Aún no hay manos."],
  download: ["PHH", "PHH"],
  replay: ["Replay", "Reproducir"],
  handNo: ["Hand", "Mano"],
  net: ["Result", "Resultado"],
  board: ["Board", "Mesa"],
  shows: ["shows", "enseña"],
  wins: ["wins", "gana"],
  equity: ["Your equity", "Tu equity"],
  vsRandom: ["against {n} random hands", "contra {n} manos al azar"],
  vsRandomOne: ["against {n} random hand", "contra {n} mano al azar"],
  noCall: ["Nothing to call: checking is free.", "Nada que igualar: pasar es gratis."],
  whyBots: ["Why the bots acted", "Por qué actuaron los bots"],
  coachOff: ["Turn the coach on to see your equity and the bots' reasons.",
    "Activa el entrenador para ver tu equity y las razones de los bots."],
  thinking: ["thinking…", "pensando…"],
  folded: ["Folded", "Retirado"],
  out: ["Sitting out", "Fuera"],
  dealer: ["Dealer button", "Botón"],
  sb: ["SB", "CP"],
  bb: ["BB", "CG"],
  next: ["Next hand", "Siguiente mano"],
  connecting: ["Connecting…", "Conectando…"],
  disconnected: ["Connection lost: reconnecting…", "Conexión perdida: reconectando…"],
  shortcuts: ["Keys: F fold · C check/call · R bet/raise · 1–5 sizes · ↑↓ adjust",
    "Teclas: F retirarse · C pasar/igualar · R apostar/subir · 1–5 tamaños · ↑↓ ajustar"],
  tag: ["tight-aggressive", "selectivo y agresivo"],
  lag: ["loose-aggressive", "suelto y agresivo"],
  nit: ["tight-passive", "selectivo y pasivo"],
  station: ["calling station", "pagador compulsivo"],
  maniac: ["maniac", "maníaco"],
  caller: ["caller", "igualador"],
  you: ["you", "tú"],
  allInRunout: ["All-in: the board is dealt street by street", "All-in: se reparte calle a calle"],
  split: ["split", "reparto"],
  returned: ["returned", "devuelto"],
  menu: ["Menu", "Menú"],
  waitingBB: ["Waiting for the big blind…", "Esperando la ciega grande…"],
  postNow: ["Post the blinds and play now", "Poner las ciegas y jugar ya"],
  owesBlinds: ["You missed the blinds: come back at the big blind, or post them and play now.",
    "Te has perdido las ciegas: vuelve en la ciega grande o ponlas y juega ya."],
  defaultName: ["Hero", "Héroe"],
  cardFaceDown: ["card face down", "carta boca abajo"],
  cardOf: ["of", "de"],
  rank2: ["Two", "Dos"],
  rank3: ["Three", "Tres"],
  rank4: ["Four", "Cuatro"],
  rank5: ["Five", "Cinco"],
  rank6: ["Six", "Seis"],
  rank7: ["Seven", "Siete"],
  rank8: ["Eight", "Ocho"],
  rank9: ["Nine", "Nueve"],
  rankT: ["Ten", "Diez"],
  rankJ: ["Jack", "Jota"],
  rankQ: ["Queen", "Reina"],
  rankK: ["King", "Rey"],
  rankA: ["Ace", "As"],
  suitc: ["clubs", "tréboles"],
  suitd: ["diamonds", "diamantes"],
  suith: ["hearts", "corazones"],
  suits: ["spades", "picas"],
  pageTitle: ["tapete · Practice table", "tapete · Mesa de práctica"],
  boundsInfo: ["Why these amounts?", "¿Por qué estas cantidades?"],
  amount: ["Amount", "Cantidad"],
  botsPlayOn: ["The others play on while you sit out.", "Los demás siguen jugando mientras estás fuera."],
  hostButton: ["Host", "Anfitrión"],
  hostTitle: ["You host this table", "Eres el anfitrión de esta mesa"],
  hostTools: ["Host tools", "Herramientas"],
  autoApprove: ["Let people sit and rebuy without asking me", "Dejar sentarse y recomprar sin preguntarme"],
  pauseNext: ["Pause after this hand", "Pausar tras esta mano"],
  pauseNow: ["Pause now", "Pausar ya"],
  resume: ["Resume", "Reanudar"],
  smallBlind: ["Small blind", "Ciega pequeña"],
  bigBlind: ["Big blind", "Ciega grande"],
  fromNextHand: ["From the next hand", "Desde la próxima mano"],
  blindsWord: ["blinds", "ciegas"],
  nextChanges: ["From the next hand: {changes}", "Desde la próxima mano: {changes}"],
  players: ["Players", "Jugadores"],
  spectatorsHead: ["Spectators", "Espectadores"],
  endGame: ["End the game", "Terminar la partida"],
  endConfirm: ["End the game? The hand in play is the last; then everyone cashes out.",
    "¿Terminar la partida? La mano en juego es la última; después todos cobran."],
  approve: ["Approve", "Aprobar"],
  deny: ["Deny", "Rechazar"],
  asksSeat: ["{name} asks for a seat with {chips}", "{name} pide un asiento con {chips}"],
  asksChips: ["{name} asks to add {chips}", "{name} pide añadir {chips}"],
  noRequests: ["No requests waiting.", "No hay peticiones pendientes."],
  stackOf: ["{name}'s stack", "Fichas de {name}"],
  setStack: ["Set", "Fijar"],
  kick: ["Remove", "Expulsar"],
  kickConfirm: ["Remove {name} from the table?", "¿Expulsar a {name} de la mesa?"],
  mute: ["Mute", "Silenciar"],
  unmute: ["Unmute", "Dejar hablar"],
  makeHost: ["Make host", "Hacer anfitrión"],
  hostConfirm: ["Hand the host's role to {name}?", "¿Pasar el papel de anfitrión a {name}?"],
  mutedTag: ["muted", "silenciado"],
  hostTag: ["host", "anfitrión"],
  askSeat: ["Ask the host", "Pedírselo al anfitrión"],
  waitingSeat: ["Waiting for the host's approval of your seat…", "Esperando a que el anfitrión apruebe tu asiento…"],
  waitingChips: ["Waiting for the host's approval to add {chips}…", "Esperando a que el anfitrión apruebe añadir {chips}…"],
  requestDenied: ["The host turned down your request.", "El anfitrión ha rechazado tu petición."],
  pausedByHost: ["Paused by the host", "Pausado por el anfitrión"],
  pausedNow: ["Paused by the host: the clock is stopped", "Pausado por el anfitrión: el reloj está parado"],
  pausingAfter: ["The host pauses the game after this hand", "El anfitrión pausa la partida tras esta mano"],
  gameOver: ["Game over: the host has ended the game", "Fin de la partida: el anfitrión la ha terminado"],
  bombNext: ["Bomb pot next hand", "Bomb pot en la próxima mano"],
  runTwiceQ: ["Run it twice?", "¿La corremos dos veces?"],
  runThriceQ: ["Run it three times?", "¿La corremos tres veces?"],
  bombQ: ["Bomb pot next hand?", "¿Bomb pot en la próxima mano?"],
  voteYesRuns: ["Yes, run it again", "Sí, otra vez"],
  voteNoRuns: ["No, once", "No, una vez"],
  voteYes: ["Yes", "Sí"],
  voteNo: ["Not now", "Ahora no"],
  straddle: ["Straddle", "Hacer straddle"],
  bombPot: ["Ask for a bomb pot", "Pedir un bomb pot"],
  chatTitle: ["Table chat", "Chat de la mesa"],
  chatMessage: ["Chat message", "Mensaje de chat"],
  send: ["Send", "Enviar"],
  spectator: ["Spectator", "Espectador"],
  watchingTag: ["watching", "mirando"],
  chatOff: ["Chat is off at this table.", "El chat está desactivado en esta mesa."],
  chatMuted: ["The host has muted you.", "El anfitrión te ha silenciado."],
  chatNoSpectators: ["Spectators do not chat at this table.", "Los espectadores no chatean en esta mesa."],
  chatSay: ["Say something to the table", "Di algo a la mesa"],
  chatSpectators: ["Chat with the other spectators", "Chatea con los demás espectadores"],
  runNo: ["Board {k}", "Mesa {k}"],
  homeGame: ["Home game", "Partida en casa"],
  approveSeats: ["I approve seats and rebuys", "Apruebo asientos y recompras"],
  runItTwice: ["Run it twice when all in, if everyone agrees", "Correrla dos veces con all-in, si todos aceptan"],
  straddles: ["Straddles allowed", "Se permite el straddle"],
  restraddles: ["Re-straddles too", "También el re-straddle"],
  bombEvery: ["A bomb pot every (hands, 0: never)", "Un bomb pot cada (manos, 0: nunca)"],
  bombByVote: ["Bomb pots by vote", "Bomb pots por votación"],
  bombAnte: ["Bomb pot ante (big blinds)", "Apuesta del bomb pot (ciegas grandes)"],
  doubleBoard: ["Bomb pots on two boards", "Bomb pots con dos mesas"],
  bounty72: ["7-2 bounty (big blinds, 0: none)", "Premio por 7-2 (ciegas grandes, 0: ninguno)"],
  tableChat: ["Chat at the table", "Chat en la mesa"],
  spectatorChat: ["Spectators chat among themselves", "Los espectadores chatean entre ellos"],
  ledger: ["Ledger", "Cuentas"],
  seeLedger: ["See who pays whom", "Ver quién paga a quién"],
  ledgerAfter: ["Ledger after {n} hands", "Cuentas tras {n} manos"],
  ledgerAfterOne: ["Ledger after 1 hand", "Cuentas tras 1 mano"],
  ledgerFinal: ["Final ledger: {n} hands", "Cuentas finales: {n} manos"],
  ledgerFinalOne: ["Final ledger: 1 hand", "Cuentas finales: 1 mano"],
  ledgerPlayer: ["Player", "Jugador"],
  ledgerBuyIn: ["Buy-in", "Entrada"],
  ledgerRebuys: ["Rebuys", "Recompras"],
  ledgerCashOuts: ["Cash-outs", "Retiradas"],
  ledgerAtTable: ["At the table", "En la mesa"],
  ledgerNet: ["Net", "Neto"],
  ledgerRake: ["Rake (the house keeps it)", "Rake (se lo queda la casa)"],
  ledgerYou: ["you", "tú"],
  ledgerLeft: ["left", "se fue"],
  whoPaysWhom: ["Who pays whom", "Quién paga a quién"],
  paysTo: ["{from} pays {to} {chips}", "{from} paga {chips} a {to}"],
  allSquare: ["Nobody owes anything: everyone is square.", "Nadie debe nada: todos están en paz."],
  ledgerCsv: ["Ledger (CSV)", "Cuentas (CSV)"],
  handsPhh: ["Hands (PHH)", "Manos (PHH)"],
  handsTxt: ["Hands (PokerStars text)", "Manos (texto de PokerStars)"],
  ledgerError: ["The ledger could not be read; it is read again after the next hand.", "No se han podido leer las cuentas; se leen de nuevo tras la próxima mano."],
  homeGameIntro: ["You host this table: you let people sit, pause, change the blinds and end the game.",
    "Tú eres el anfitrión: dejas sentarse, pausas, cambias las ciegas y terminas la partida."],
  sngTitle: ["Sit & Go", "Sit & Go"],
  sngIntro: ["A one-table tournament: you and 5 or 8 bots each pay the buy-in and start with the same chips; the blinds rise level by level, and the last players share the prize pool. The buy-in comes from your bankroll, and the prize goes back to it.",
    "Un torneo de una mesa: tú y 5 u 8 bots pagáis la entrada y empezáis con las mismas fichas; las ciegas suben nivel a nivel y los últimos jugadores se reparten el bote de premios. La entrada sale de tu saldo y el premio vuelve a él."],
  sngSeats: ["Players", "Jugadores"],
  sixMax: ["6 (you and 5 bots)", "6 (tú y 5 bots)"],
  nineMax: ["9 (you and 8 bots)", "9 (tú y 8 bots)"],
  sngSpeed: ["Speed", "Velocidad"],
  regular: ["Regular", "Normal"],
  turbo: ["Turbo: shorter levels", "Turbo: niveles más cortos"],
  sngStart: ["Start the Sit & Go", "Empezar el Sit & Go"],
  sngPool: ["{entries} entries of {buy}: a prize pool of {pool}", "{entries} entradas de {buy}: un bote de premios de {pool}"],
  sngNoMoney: ["Your bankroll does not cover a buy-in.", "Tu saldo no cubre ninguna entrada."],
  level: ["Level {level}", "Nivel {level}"],
  anteWord: ["ante", "ante"],
  nextLevel: ["Next {blinds} in {when}", "Siguen {blinds} en {when}"],
  handsLeft: ["{n} hands", "{n} manos"],
  handsLeftOne: ["1 hand", "1 mano"],
  lastLevel: ["Last level", "Último nivel"],
  playersLeft: ["{left} of {field} left", "Quedan {left} de {field}"],
  prizePool: ["Prize pool", "Bote de premios"],
  icm: ["ICM", "ICM"],
  icmTitle: ["What this stack is worth in prizes (Independent Chip Model)", "Lo que valen estas fichas en premios (modelo ICM)"],
  handForHand: ["Hand for hand: every table plays one hand at a time", "Mano a mano: cada mesa juega una mano y espera a las demás"],
  tableOf: ["Table {k} of {tables}", "Mesa {k} de {tables}"],
  dealAsk: ["Propose a deal:", "Proponer un trato:"],
  dealIcm: ["ICM deal", "Trato por ICM"],
  dealChop: ["Chip chop", "Reparto por fichas"],
  dealTitleIcm: ["ICM deal offered", "Trato por ICM propuesto"],
  dealTitleChop: ["Chip chop offered", "Reparto por fichas propuesto"],
  dealAccept: ["Accept", "Aceptar"],
  dealDecline: ["Decline", "Rechazar"],
  dealYes: ["accepts", "acepta"],
  dealNo: ["declines", "rechaza"],
  dealWaiting: ["thinking…", "pensando…"],
  dealMade: ["Deal made: everyone is paid the amount above.", "Trato hecho: cada uno cobra lo indicado."],
  dealRefused: ["No deal: play goes on.", "No hay trato: se sigue jugando."],
  dealWaitOthers: ["Waiting for the others' answers…", "Esperando las respuestas de los demás…"],
  place: ["Place", "Puesto"],
  prize: ["Prize", "Premio"],
  finishedWon: ["You finished {place} of {field} and won {prize}", "Terminaste {place} de {field} y ganaste {prize}"],
  finishedOut: ["You finished {place} of {field}", "Terminaste {place} de {field}"],
  tourneyOver: ["The tournament is over", "El torneo ha terminado"],
  watchRest: ["Watch the rest", "Ver el resto"],
  sngAgain: ["New Sit & Go", "Nuevo Sit & Go"],
  backToLobby: ["Back to the lobby", "Volver al vestíbulo"],
  showResults: ["Results", "Resultados"],
  leaveTourney: ["Leave", "Salir"],
  tournamentsTitle: ["Tournaments", "Torneos"],
  tournamentsIntro: ["Multi-table tournaments: register with the buy-in from your bankroll (unregistering gives it back); once one starts, its tables are linked here.",
    "Torneos de varias mesas: apúntate con la entrada de tu saldo (si te borras, te la devuelven); cuando empiece, aquí están sus mesas."],
  tName: ["Tournament", "Torneo"],
  tStatus: ["Status", "Estado"],
  noTournaments: ["No tournaments yet: create one.", "Aún no hay torneos: crea uno."],
  createTournament: ["Create a tournament", "Crear un torneo"],
  tNameField: ["Name", "Nombre"],
  seatsPerTable: ["Seats per table", "Asientos por mesa"],
  turboShort: ["Turbo", "Turbo"],
  startingStack: ["Starting stack", "Fichas iniciales"],
  maxPlayers: ["Most players", "Máximo de jugadores"],
  botsToFill: ["Bots to fill the field", "Bots para completar"],
  createIt: ["Create", "Crear"],
  register: ["Register", "Apuntarse"],
  unregister: ["Unregister", "Borrarse"],
  statusRegistering: ["Registering", "Inscripción abierta"],
  statusRunning: ["Running", "En juego"],
  statusFinished: ["Finished", "Terminado"],
  registeredTag: ["registered", "apuntado"],
  botsWord: ["bots", "bots"],
  startNow: ["Start now", "Empezar ya"],
  tableN: ["Table {k}", "Mesa {k}"],
};

let current = "en";

export function detectLang() {
  const saved = localStorage.getItem("tapete.lang");
  if (saved === "en" || saved === "es") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return String(langs[0]).toLowerCase().startsWith("es") ? "es" : "en";
}

export function setLang(lang) {
  current = lang === "es" ? "es" : "en";
  localStorage.setItem("tapete.lang", current);
  document.documentElement.lang = current;
}

export function lang() {
  return current;
}

/** A word of the page, in the current language. */
export function t(key) {
  const w = WORDS[key];
  if (!w) return key;
  return current === "es" ? w[1] : w[0];
}

/** A counted word: "1 hand", "2 hands" ("1 mano", "2 manos"); {n} is the number. */
export function tn(key, n) {
  const one = n === 1 && WORDS[key + "One"] ? key + "One" : key;
  return t(one).replace("{n}", String(n));
}

/** A message from the server ({en, es}) in the current language. */
export function tx(text) {
  if (text == null) return "";
  if (typeof text === "string") return text;
  return current === "es" ? (text.es ?? text.en) : text.en;
}

// How amounts are written, per language, as the server sends it (tapete.words.money_format):
// the page writes exactly what the server's messages write. Until the server says otherwise:
// whole chips, grouped by three.
const PLAIN = {
  en: { group: ",", decimal: ".", minus: "-", decimals: 0, before: "", after: "",
        percent_before: "", percent_after: "%" },
  es: { group: ".", decimal: ",", minus: "-", decimals: 0, before: "", after: "",
        percent_before: "", percent_after: "\u00a0%" },
};
let moneyFormat = PLAIN;

/** The table's or the hand's way of writing amounts ({en: {...}, es: {...}} from the server). */
export function setMoneyFormat(format) {
  moneyFormat = format && format.en ? format : PLAIN;
}

/** Integer chips for people, by the server's rule: "1,234" / "1.234", "$1,234.56" / "1.234,56 €". */
export function chips(n, format = moneyFormat) {
  const f = format[current] || format.en;
  const a = Math.abs(Math.trunc(n));
  const unit = 10 ** f.decimals;
  let s = String(Math.floor(a / unit)).replace(/\B(?=(\d{3})+(?!\d))/g, f.group);
  if (f.decimals) s += f.decimal + String(a % unit).padStart(f.decimals, "0");
  return (n < 0 ? f.minus : "") + f.before + s + f.after;
}

/** A decimal number the server wrote with a point ("-1234.50", "+3.25"), every digit kept,
 * with the reader's separators: "-1,234.50" / "-1.234,50" (tapete.words.decimal). */
export function decimal(s, format = moneyFormat) {
  const f = format[current] || format.en;
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(String(s));
  if (!m) return String(s);
  const whole = m[2].replace(/\B(?=(\d{3})+(?!\d))/g, f.group);
  return (m[1] === "-" ? f.minus : m[1]) + whole + (m[3] ? f.decimal + m[3] : "");
}

/** A share (0.125) with `digits` after the point, as the server writes one
 * (tapete.words.percent): "12.5%" / "12,5 %". */
export function percent(x, digits = 1, format = moneyFormat) {
  const f = format[current] || format.en;
  return f.percent_before + decimal((100 * x).toFixed(digits), format) + f.percent_after;
}

/** A pot's name, by the server's rule (tapete.words.pot_name): "Pot" when it is the only one,
 * else "Main pot", "Side pot 1", "Side pot 2"... */
export function potName(i, count) {
  if (i === 0) return count > 1 ? t("mainPot") : t("pot");
  return `${t("sidePot")} ${i}`;
}

/** Fill every [data-i18n] element of a subtree with its word. */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}

/** A finishing place in words: "1st", "2nd", "3rd", "11th" / "1.º", "2.º". */
export function ordinal(n) {
  if (current === "es") return `${n}.º`;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}
