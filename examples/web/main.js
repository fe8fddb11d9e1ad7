// Saint Petersburg in the browser: a person against the library's bots. Every rule (legal actions, prices,
// scoring, the log's texts) comes from libstpete (./libstpete/, the JavaScript package); the bots think in a Web
// Worker (worker.js). A game is saved as its setup, seed and actions, and reloaded by replaying them.
import * as S from './libstpete/index.js';

const $ = (id) => document.getElementById(id);
const SAVE_KEY = 'stpete-web-save';
const params = new URLSearchParams(location.search);
/** Pause between bot moves in ms (?delay=0 for tests), so that a person can follow them. */
const BOT_DELAY = Number(params.get('delay') ?? 400);

// Colour names and effect texts are derived here from the card info (a front-end query for colour names is
// planned in the library); the figures themselves come from the library.
const COLOURS = ['green', 'blue', 'orange'];
const PHASES = ['worker', 'building', 'aristocrat', 'trading'];
const SPECIAL = {
  1: 'Building phase: draw a card from a stack instead of a turn (§7.1)',
  2: 'After building scoring: buy VP, 2 R each, up to 5 per Pub (§7.2)',
  3: 'Hand limit 4 (§7.3)',
  4: 'Worth 6 R when displaced (§7.4)',
  5: '+1 R per aristocrat at building scoring (§7.5)',
  6: '+1 R per worker at aristocrat scoring (§7.5)',
  7: 'Blue cards cost you 1 R less (§5.1)',
  8: 'Orange cards cost you 1 R less (§5.1)',
  9: 'Any green trading card may displace it (§6.2)',
  10: '+1 VP per aristocrat at building scoring (§11)',
};

let game = null;
let state = null;
let setup = null;
let info = [];          // card type -> CardInfo of the game's edition
let log = [];           // {text, at: history length after the event}
let myMoves = [];       // history length before each of my moves (for undo)
let lastMine = 0;       // history length after my last move (the log since then is highlighted)
let pending = 0;        // id of the bot request awaited, 0 when none
let requestId = 0;
let botTimer = 0;
let workerReady = false; // the worker loads the module first (top-level await): messages before that are lost

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onmessage = (msg) => onBotReply(msg.data);
worker.onerror = (e) => showError(`bot worker: ${e.message}`);

function showError(text) {
  $('status').textContent = text;
  console.warn(text);
}

// ---- setup, save, load -------------------------------------------------------------------------------------

function optionsOf(su) {
  return { players: su.players, edition: su.edition, pubCap: su.pubPerPlayer ? 1 : 0,
    tieBreak: su.tieTotal ? 1 : 0, publicRubles: su.publicRubles, publicHands: su.publicHands };
}
function botSpec(su) {
  return su.bot === 'mc' || su.bot === 'ismcts' ? `${su.bot}:iterations=${su.strength}` : su.bot;
}
function randomSeed() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return ((BigInt(a[0]) << 32n) | BigInt(a[1])).toString();
}

/** Start (or rebuild by replaying `actions`) a game; throws the library's error for an illegal record. */
function startGame(su, actions = []) {
  const g = new S.Game(optionsOf(su));
  const st = g.newState(BigInt(su.seed));
  const moves = [];
  const entries = [];
  let mine = 0;
  try {
    st.enableEventQueue();
    collect(st, entries);
    for (const id of actions) {
      const me = st.currentPlayer === su.seat;
      if (me) moves.push(st.history().length);
      st.apply(id);
      collect(st, entries);
      if (me) mine = st.history().length;
    }
  } catch (e) {
    st.free();
    g.free();
    throw e;
  }
  cancelBot();
  if (state) state.free();
  if (game) game.free();
  game = g;
  state = st;
  setup = su;
  info = Array.from({ length: S.NUM_CARD_TYPES }, (_, k) => g.cardInfo(k));
  log = entries;
  myMoves = moves;
  lastMine = mine;
  $('final').hidden = true;
  render();
  advance();
}
function collect(st, into) {
  const at = st.history().length;
  for (const e of st.events()) into.push({ text: e.text, at });
}
function saveData() {
  return { format: 'stpete-web-save', version: 1, setup, actions: state.history() };
}
function loadData(data) {
  if (!data || data.format !== 'stpete-web-save' || typeof data.setup !== 'object' || !Array.isArray(data.actions)) {
    throw new Error('not a saved Saint Petersburg game');
  }
  const su = data.setup;
  const okInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
  if (!okInt(su.players, 2, 4) || !okInt(su.seat, 0, su.players - 1) || !/^\d{1,20}$/.test(String(su.seed))
      || !['random', 'greedy', 'mc', 'ismcts'].includes(su.bot) || !okInt(su.strength ?? 1000, 1, 1e7)
      || !data.actions.every((id) => okInt(id, 0, S.NUM_DISTINCT_ACTIONS - 1))) {
    throw new Error('the saved setup or actions are out of range');
  }
  startGame({ ...su, strength: su.strength ?? 1000 }, data.actions);
}

function readSetupForm() {
  const f = $('setup-form').elements;
  const players = Number(f.players.value);
  const seed = f.seed.value.trim() === '' ? randomSeed() : f.seed.value.trim();
  if (!/^\d+$/.test(seed) || BigInt(seed) >= 1n << 64n) throw new Error('the seed is a whole number below 2^64');
  return { players, seat: Math.min(Number(f.seat.value), players - 1), edition: Number(f.edition.value),
    bot: f.bot.value, strength: Number(f.strength.value), seed, pubPerPlayer: f.pubPerPlayer.checked,
    tieTotal: f.tieTotal.checked, publicRubles: f.publicRubles.checked, publicHands: f.publicHands.checked };
}

// ---- playing -----------------------------------------------------------------------------------------------

function advance() {
  if (!state || state.isTerminal) { render(); return; }
  if (state.currentPlayer === setup.seat) { render(); return; }
  if (pending || botTimer || !workerReady) { render(); return; }
  botTimer = setTimeout(askBot, BOT_DELAY);
  render();
}
function askBot() {
  botTimer = 0;
  if (!state || state.isTerminal || state.currentPlayer === setup.seat) return;
  pending = ++requestId;
  const seed = (BigInt(setup.seed) ^ BigInt(state.history().length)) & ((1n << 64n) - 1n);
  worker.postMessage({ id: pending, state: state.toJson(), spec: botSpec(setup), seed });
  render();
}
function onBotReply(data) {
  if (data.ready) {
    workerReady = true;
    document.body.dataset.worker = 'ready';
    advance();
    return;
  }
  if (data.id !== pending) return; // an answer for a position taken back or replaced
  pending = 0;
  if (data.error) { showError(`bot: ${data.error}`); return; }
  try {
    state.apply(data.action);
  } catch (e) {
    showError(`bot move refused: ${e.message}`);
    return;
  }
  collect(state, log);
  advance();
}
function cancelBot() {
  pending = 0;
  if (botTimer) clearTimeout(botTimer);
  botTimer = 0;
}
function play(id) {
  if (!state || state.currentPlayer !== setup.seat || pending) return;
  myMoves.push(state.history().length);
  try {
    state.apply(id);
  } catch (e) {
    myMoves.pop();
    showError(e.message);
    return;
  }
  lastMine = state.history().length;
  collect(state, log);
  advance();
}
function undo() {
  if (!state || myMoves.length === 0) return;
  cancelBot();
  const target = myMoves.pop();
  while (state.history().length > target) state.undo();
  state.events(); // the undo events: the log is cut back instead
  log = log.filter((e) => e.at <= target);
  lastMine = myMoves.length ? myMoves[myMoves.length - 1] + 1 : 0;
  $('final').hidden = true;
  render();
  advance();
}

// ---- drawing -----------------------------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const ch of children) if (ch !== null && ch !== undefined) e.append(ch);
  return e;
}
function effectText(ci) {
  const parts = [];
  if (ci.trading) {
    const target = ci.colour === 0 ? `a ${ci.ware >= 0 ? info[ci.ware].name : 'worker'} (or Czar and Carpenter)`
      : ci.colour === 1 ? 'a building' : 'an aristocrat';
    parts.push(`Displaces ${target}.`);
  }
  if (ci.rubles || ci.vp) parts.push(`${PHASES[ci.colour]} scoring: ${ci.rubles ? `+${ci.rubles} R` : ''}${ci.rubles && ci.vp ? ' ' : ''}${ci.vp ? `+${ci.vp} VP` : ''}.`);
  if (ci.special && SPECIAL[ci.special]) parts.push(SPECIAL[ci.special]);
  return parts.join(' ');
}
function cardBox(card, extra = null, count = 1) {
  const ci = info[card];
  return el('div', { class: `card ${COLOURS[ci.colour]}`, 'data-card': ci.name },
    el('div', { class: 'name' }, ci.name, count > 1 ? el('span', { class: 'count' }, ` ×${count}`) : null),
    el('div', {}, `cost ${ci.cost} R`),
    el('div', { class: 'effect' }, effectText(ci)),
    extra);
}
/** What the person would pay for a board card now, and for a trading card what it could displace (§5, §6). */
function priceInfo(card, source) {
  const me = setup.seat;
  const ci = info[card];
  if (!ci.trading) return el('div', { class: 'price' }, `you pay ${state.price(me, card, source)} R`);
  const options = [];
  for (const d of new Set(state.display(me))) {
    try {
      options.push(`${info[d].name}: ${state.price(me, card, source, d)} R`);
    } catch (e) {
      if (!(e instanceof S.InvalidArgumentError)) throw e; // not one of its targets (§6.2)
    }
  }
  return el('div', { class: 'disp' }, options.length ? `could displace ${options.join(', ')}` : 'nothing of yours to displace');
}
function renderBoard() {
  const stacks = state.stackSizes();
  const rows = [0, 1].map((r) => el('div', {},
    el('h2', {}, r === 0 ? 'Upper row' : 'Lower row (1 R cheaper)'),
    el('div', { class: 'row', id: r === 0 ? 'row-upper' : 'row-lower' }, ...state.row(r).map((card) => cardBox(card, priceInfo(card, r))))));
  const drawn = state.observatoryCard >= 0
    ? el('div', {}, el('h2', {}, 'Drawn with the Observatory'), el('div', { class: 'row' }, cardBox(state.observatoryCard, priceInfo(state.observatoryCard, S.Source.OBSERVATORY))))
    : null;
  $('board').replaceChildren(...[...rows, drawn].filter(Boolean),
    el('div', { class: 'stacks' }, `Stacks: ${PHASES.map((p, k) => `${p} ${stacks[k]}`).join(' · ')}`));
}
function renderActions() {
  const box = $('actions');
  if (state.isTerminal) { box.replaceChildren(); return; }
  const mine = state.currentPlayer === setup.seat && !pending;
  const keys = '123456789abcdefghijklmnopqrstvwxyz';
  const buttons = mine ? state.legalActions().map((a, k) => {
    const kind = a.kind === S.ActionKind.PASS ? 'pass' : a.kind === S.ActionKind.BUY ? 'buy' : 'other';
    const key = keys[k] ?? '';
    return el('button', { type: 'button', class: kind, 'data-action': a.id, 'data-key': key,
      onclick: () => play(a.id) }, key ? el('kbd', {}, key) : null,
    a.string + (a.price !== null ? ` — ${a.price} R` : ''));
  }) : [];
  box.replaceChildren(el('h2', {}, mine ? 'Your move' : 'Waiting for the bots'), el('div', { class: 'buttons' }, ...buttons));
}
function renderPlayers() {
  const opts = game.options;
  const markers = state.markerHolders();
  const seats = [];
  for (let s = 0; s < state.players; s++) {
    const me = s === setup.seat;
    const showRubles = me || opts.publicRubles || state.isTerminal;
    const hand = state.hand(s);
    const groups = [0, 1, 2].map((colour) => {
      const counts = new Map();
      for (const card of state.display(s)) if (info[card].colour === colour) counts.set(card, (counts.get(card) ?? 0) + 1);
      return el('div', { class: 'group', 'data-colour': COLOURS[colour] }, ...[...counts].map(([card, n]) => cardBox(card, null, n)));
    });
    const ownsObservatory = state.display(s).some((card) => info[card].special === 1);
    seats.push(el('div', { class: `seat${state.currentPlayer === s ? ' current' : ''}`, 'data-seat': s },
      el('div', { class: 'facts' }, el('strong', {}, me ? `Seat ${s}: you` : `Seat ${s}: bot (${botSpec(setup)})`),
        ` · ${showRubles ? state.rubles(s) : '?'} R · ${state.vp(s)} VP`,
        ` · markers: ${markers.map((h, p) => (h === s ? PHASES[p] : null)).filter(Boolean).join(', ') || 'none'}`,
        ` · hand ${hand.length}/${state.handLimit(s)}`,
        ownsObservatory ? ` · Observatories used ${state.observatoriesUsed(s)}` : ''),
      (me || opts.publicHands) && hand.length
        ? el('div', { class: 'group hand' }, el('span', { class: 'label' }, 'hand'), ...hand.map((card) => cardBox(card))) : null,
      ...groups));
  }
  $('players').replaceChildren(el('h2', {}, 'Players'), ...seats);
}
function renderLog() {
  const recent = log.filter((e) => e.at > lastMine || lastMine === 0);
  const older = log.filter((e) => !(e.at > lastMine || lastMine === 0));
  const wasOpen = $('log-older')?.open ?? false;
  const parts = [el('h2', {}, 'Since your last move'),
    el('ol', { id: 'log-recent' }, ...recent.map((e) => el('li', {}, e.text)))];
  if (older.length) {
    const details = el('details', { id: 'log-older' }, el('summary', {}, `Earlier (${older.length})`),
      el('ol', { class: 'older' }, ...older.map((e) => el('li', {}, e.text))));
    details.open = wasOpen;
    parts.push(details);
  }
  $('log').replaceChildren(...parts);
  const ol = $('log-recent');
  ol.scrollTop = ol.scrollHeight;
}
function renderFinal() {
  const box = $('final');
  if (!state.isTerminal) { box.hidden = true; return; }
  const winners = state.winners();
  const rows = state.scores().map((sc, s) => el('tr', { class: winners.includes(s) ? 'winner' : '', 'data-seat': s },
    el('td', {}, s === setup.seat ? `Seat ${s} (you)` : `Seat ${s}`),
    el('td', {}, String(sc.vpBefore)), el('td', {}, `${sc.aristocratBonus} (${sc.aristocratKinds} kinds)`),
    el('td', {}, `${sc.rublesBonus} (${sc.rubles} R)`), el('td', {}, String(sc.handPenalty)),
    el('td', { class: 'total' }, String(sc.total)), el('td', {}, String(sc.tieBreak))));
  box.replaceChildren(el('h2', {}, `Final scoring (§8): ${winners.map((w) => (w === setup.seat ? 'you win' : `seat ${w} wins`)).join(', ')}`),
    el('table', { id: 'final-table' }, el('tr', {}, ...['', 'VP', 'aristocrats', 'rubles', 'hand', 'total', 'tie-break'].map((h) => el('th', {}, h))), ...rows));
  box.hidden = false;
}
function render() {
  if (!state) return;
  const who = state.isTerminal ? 'Game over'
    : state.currentPlayer === setup.seat ? 'Your turn' : `Seat ${state.currentPlayer} (bot) is thinking`;
  $('status').textContent = `Round ${state.round}${state.isFinalRound ? ' (last)' : ''} · ${PHASES[state.phase]} phase · ${who}`;
  $('status').classList.toggle('thinking', !state.isTerminal && state.currentPlayer !== setup.seat);
  $('btn-undo').disabled = myMoves.length === 0;
  renderBoard();
  renderActions();
  renderPlayers();
  renderLog();
  renderFinal();
}

// ---- controls ----------------------------------------------------------------------------------------------

$('btn-new').onclick = () => $('setup').showModal();
$('setup-form').addEventListener('submit', (ev) => {
  if (ev.submitter?.value !== 'start') return;
  try {
    startGame(readSetupForm());
  } catch (e) {
    ev.preventDefault();
    showError(e.message);
  }
});
$('btn-undo').onclick = undo;
$('btn-save').onclick = () => {
  if (!state) return;
  localStorage.setItem(SAVE_KEY, JSON.stringify(saveData()));
  $('status').textContent = 'Saved in this browser.';
};
$('btn-load').onclick = () => {
  const text = localStorage.getItem(SAVE_KEY);
  if (!text) { showError('nothing saved in this browser'); return; }
  try { loadData(JSON.parse(text)); } catch (e) { showError(`cannot load: ${e.message}`); }
};
$('btn-export').onclick = () => {
  if (!state) return;
  const data = { ...saveData(), replay: JSON.parse(state.replayToJson()) };
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: 'application/json' }));
  const a = el('a', { href: url, download: 'stpete-game.json' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
$('file-import').onchange = async (ev) => {
  const file = ev.target.files[0];
  ev.target.value = '';
  if (!file) return;
  try { loadData(JSON.parse(await file.text())); } catch (e) { showError(`cannot import: ${e.message}`); }
};
document.addEventListener('keydown', (ev) => {
  if (ev.target instanceof HTMLInputElement || $('setup').open || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === 'u' || ev.key === 'U') { undo(); return; }
  const button = document.querySelector(`#actions button[data-key="${CSS.escape(ev.key)}"]`);
  if (button) button.click();
});

$('version').textContent = S.version();
// Open with a default game (4 players, you are seat 1), or the setup given in the address (for links and tests):
// ?players=3&seat=0&edition=2&bot=random&seed=5
const initial = { players: 4, seat: 0, edition: 1, bot: 'ismcts', strength: 1000, seed: randomSeed(),
  pubPerPlayer: false, tieTotal: false, publicRubles: false, publicHands: false };
for (const key of ['players', 'seat', 'edition', 'strength']) if (params.has(key)) initial[key] = Number(params.get(key));
for (const key of ['bot', 'seed']) if (params.has(key)) initial[key] = params.get(key);
try {
  startGame(initial);
} catch (e) {
  showError(e.message);
}
document.body.dataset.ready = '1';
