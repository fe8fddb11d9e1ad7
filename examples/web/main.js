// Saint Petersburg in the browser: a person against the library's bots. This file drives a local game: the setup
// (the dialog or the address), the bots (a Web Worker, worker.js), the save after every move (this browser's
// localStorage), export and import, undo, auto-pass and the keys. Every rule (legal actions, prices, incomes,
// scoring, the log's texts) comes from libstpete (./libstpete/, the JavaScript package); model.js turns a game into
// what one seat sees and render.js draws it. A game is saved as its setup, seed and actions (and the library's
// replay record), and rebuilt by replaying them.
import * as S from './libstpete/index.js';
import { Renderer, ACTION_KEYS } from './render.js';
import { Chronicle, seatModel } from './model.js';

const $ = (id) => document.getElementById(id);
const SAVE_KEY = 'stpete-web-save';
const PREFS_KEY = 'stpete-web-prefs';
/** Save format: 2 adds `replay` (the library's replay record, required) and the strength bounds; 1 is still read. */
const SAVE_VERSION = 2;
const BOTS = ['random', 'greedy', 'mc', 'ismcts', 'learned'];
/** Bot strength: iterations per move of mc, ismcts and learned. Above 20000 an ismcts move takes seconds in a browser
 * (about 30,000 iterations/s in Chromium on a 2-core machine; learned's iterations are cheaper, doc/learning.md);
 * below 10 the bots play nearly at random. 'learned' (issue 43) is offered at every strength, 'strongest' included. */
export const STRENGTH_MIN = 10;
export const STRENGTH_MAX = 20000;
/** Pause between bot moves in ms (address `delay`, 0..5000; 0 for tests), so that a person can follow them. */
const DELAY_MAX = 5000;
const MAX_ACTIONS = 2000; // far above any game (stpete_game_max_length); a save beyond is refused unread

let game = null;
let state = null;
let setup = null;
let cards = [];
let chronicle = null;
let myMoves = [];       // history length before each move of the person that was a choice (for undo)
let lastMine = 0;       // history length after the person's last move
let pending = 0;        // id of the bot request awaited, 0 when none
let requestId = 0;
let botTimer = 0;
let autoTimer = 0;
let workerReady = false; // the worker loads the module first (top-level await): messages before that are lost
let prefs = readPrefs();
let delay = 400;

const renderer = new Renderer(document, { onAction: (id) => play(id), onAutoPass: setAutoPass });
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onmessage = (msg) => onBotReply(msg.data);
worker.onerror = (e) => showMessage(`The bots stopped: ${e.message}`);

/** A refusal or error the person must see (the game on the page is unchanged). */
function showMessage(text) {
  $('message-text').textContent = text;
  $('message').hidden = false;
}
function clearMessage() {
  $('message').hidden = true;
  $('message-text').textContent = '';
}
function readPrefs() {
  try {
    const p = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}');
    return { autoPass: p?.autoPass === true };
  } catch {
    return { autoPass: false };
  }
}
function setAutoPass(on) {
  prefs.autoPass = on;
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // kept for this page only
  }
  if (!on && autoTimer) { // a pass about to be made for the person is left to the person again
    clearTimeout(autoTimer);
    autoTimer = 0;
  }
  advance();
}

// ---- setups and saves: every input checked here -----------------------------------------------------------

/** A refusal of an input: its message is shown, nothing changes. */
class Refused extends Error {}

const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
/** A setup checked field by field (from the dialog, the address or a save); throws Refused naming the field. */
function checkSetup(su) {
  if (typeof su !== 'object' || su === null) throw new Refused('the setup is missing');
  const out = {};
  if (su.newSociety !== undefined && typeof su.newSociety !== 'boolean') throw new Refused('newSociety must be true or false');
  out.newSociety = su.newSociety === true; // the New Society (§12): 2-5 players, the first edition only (R17)
  if (!isInt(su.players, 2, out.newSociety ? 5 : 4)) {
    throw new Refused(`players must be 2, 3 or 4${out.newSociety ? ' or 5' : ' (5 with the New Society)'}, not ${JSON.stringify(su.players)}`);
  }
  out.players = su.players;
  if (!isInt(su.seat, 0, su.players - 1)) throw new Refused(`your seat must be 0 to ${su.players - 1}, not ${JSON.stringify(su.seat)}`);
  out.seat = su.seat;
  out.edition = su.edition ?? 1;
  if (out.edition !== 1 && out.edition !== 2) throw new Refused(`the edition must be 1 or 2, not ${JSON.stringify(su.edition)}`);
  if (out.newSociety && out.edition !== 1) throw new Refused('the New Society is an expansion of the first edition (§12.0)');
  if (!BOTS.includes(su.bot)) throw new Refused(`the bots must be one of ${BOTS.join(', ')}, not ${JSON.stringify(su.bot)}`);
  out.bot = su.bot;
  out.strength = su.strength ?? 1000;
  if (!isInt(out.strength, STRENGTH_MIN, STRENGTH_MAX)) {
    throw new Refused(`the strength must be ${STRENGTH_MIN} to ${STRENGTH_MAX} iterations, not ${JSON.stringify(su.strength)}`);
  }
  const seed = typeof su.seed === 'number' && Number.isSafeInteger(su.seed) ? String(su.seed) : su.seed;
  if (typeof seed !== 'string' || !/^\d{1,20}$/.test(seed) || BigInt(seed) >= 1n << 64n) {
    throw new Refused(`the seed must be a whole number below 2^64, not ${JSON.stringify(su.seed)}`);
  }
  out.seed = BigInt(seed).toString();
  for (const key of ['pubPerPlayer', 'tieTotal', 'publicRubles', 'publicHands']) {
    if (su[key] !== undefined && typeof su[key] !== 'boolean') throw new Refused(`${key} must be true or false`);
    out[key] = su[key] === true;
  }
  return out;
}
/** The library's options of a setup (§3, §7.2 R10, §8 R14, §9, §11, §12). */
function optionsOf(su) {
  return { players: su.players, edition: su.edition, pubCap: su.pubPerPlayer ? 1 : 0,
    tieBreak: su.tieTotal ? 1 : 0, publicRubles: su.publicRubles, publicHands: su.publicHands,
    newSociety: su.newSociety === true };
}
function botSpec(su) {
  return ['mc', 'ismcts', 'learned'].includes(su.bot) ? `${su.bot}:iterations=${su.strength}` : su.bot;
}
function randomSeed() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return ((BigInt(a[0]) << 32n) | BigInt(a[1])).toString();
}

/** What a save or export holds: the setup, the actions and the library's replay record of them. */
function saveData() {
  return { format: 'stpete-web-save', version: SAVE_VERSION, setup, actions: state.history(),
    replay: JSON.parse(state.replayToJson()) };
}
/** A save or export checked: {setup, actions}; throws Refused. Its version, setup and actions, and its replay
 * record through the library's own reader (State.fromReplay: format, version, every action legal), which must be
 * the same game (options, seed, actions). The rule options of the game on the page cannot be changed by loading
 * it again with others. */
function checkSave(data) {
  if (typeof data !== 'object' || data === null || data.format !== 'stpete-web-save') throw new Refused('this is not a saved Saint Petersburg game');
  if (!isInt(data.version, 1, SAVE_VERSION)) {
    throw new Refused(`save version ${JSON.stringify(data.version)} is not supported (this page reads versions 1 to ${SAVE_VERSION})`);
  }
  const su = checkSetup(data.setup);
  if (!Array.isArray(data.actions) || data.actions.length > MAX_ACTIONS
      || !data.actions.every((id) => isInt(id, 0, (su.newSociety ? S.NUM_DISTINCT_ACTIONS_NEW_SOCIETY : S.NUM_DISTINCT_ACTIONS) - 1))) {
    throw new Refused('the actions are not a list of action ids');
  }
  if (data.version >= 2 || data.replay !== undefined) {
    if (typeof data.replay !== 'object' || data.replay === null) throw new Refused('the replay record is missing');
    let replayed;
    try {
      replayed = S.State.fromReplay(JSON.stringify(data.replay));
    } catch (e) {
      throw new Refused(`the replay record is refused by the library: ${e.message}`);
    }
    try {
      const o = replayed.game.options;
      const want = optionsOf(su);
      for (const key of Object.keys(want)) {
        if (o[key] !== want[key]) throw new Refused(`the setup's ${key} (${want[key]}) is not the replay's (${o[key]})`);
      }
      if (String(replayed.seed) !== su.seed) throw new Refused('the setup\'s seed is not the replay\'s');
      const h = replayed.history();
      if (h.length !== data.actions.length || h.some((id, k) => id !== data.actions[k])) {
        throw new Refused('the actions are not the replay\'s');
      }
    } finally {
      replayed.free();
    }
  } else if (data.actions.length > 0 && (su.publicRubles || su.publicHands)) {
    throw new Refused('a version-1 save of a game in progress cannot make rubles or hands public (its options are not recorded by the library)');
  }
  if (state && setup && su.seed === setup.seed && su.players === setup.players && su.edition === setup.edition) {
    const h = state.history();
    const n = Math.min(h.length, data.actions.length);
    const same = n > 0 && h.slice(0, n).every((id, k) => id === data.actions[k]);
    const o1 = optionsOf(su);
    const o2 = optionsOf(setup);
    if (same && Object.keys(o1).some((k) => o1[k] !== o2[k])) {
      throw new Refused('this is the game on the page with other rule options: the rules of a game in progress do not change');
    }
  }
  return { setup: su, actions: data.actions };
}
/** Parse a save's text and check it; throws Refused. */
function parseSave(text) {
  if (text.length > 4 << 20) throw new Refused('the file is too large for a save');
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Refused(`this is not JSON (${e.message})`);
  }
  return checkSave(data);
}

/** The address's setup (players, seat, edition, ns (1: the New Society, §12), bot, strength, seed; delay), or null
 * when it sets none. Throws Refused for an unknown name or a value out of range. */
function addressSetup(params) {
  const known = ['players', 'seat', 'edition', 'ns', 'bot', 'strength', 'seed', 'delay'];
  for (const key of params.keys()) if (!known.includes(key)) throw new Refused(`the address parameter ${key} is unknown (known: ${known.join(', ')})`);
  const num = (key) => {
    const v = params.get(key);
    if (!/^-?\d{1,15}$/.test(v)) throw new Refused(`the address parameter ${key} must be a whole number, not ${JSON.stringify(v)}`);
    return Number(v);
  };
  if (params.has('delay')) {
    const d = num('delay');
    if (!isInt(d, 0, DELAY_MAX)) throw new Refused(`the address parameter delay must be 0 to ${DELAY_MAX} ms, not ${d}`);
  }
  if (!['players', 'seat', 'edition', 'ns', 'bot', 'strength', 'seed'].some((k) => params.has(k))) return null;
  const su = { players: 4, seat: 0, edition: 1, bot: 'ismcts', strength: 1000, seed: randomSeed() };
  for (const key of ['players', 'seat', 'edition', 'strength']) if (params.has(key)) su[key] = num(key);
  if (params.has('ns')) {
    if (!['0', '1'].includes(params.get('ns'))) throw new Refused(`the address parameter ns must be 0 or 1, not ${JSON.stringify(params.get('ns'))}`);
    su.newSociety = params.get('ns') === '1';
  }
  for (const key of ['bot', 'seed']) if (params.has(key)) su[key] = params.get(key);
  try {
    return checkSetup(su);
  } catch (e) {
    throw new Refused(`the address: ${e.message}`);
  }
}

// ---- the game ----------------------------------------------------------------------------------------------

/** Start (or rebuild by replaying `actions`) a game. Nothing on the page changes when it throws. */
function startGame(su, actions = []) {
  const g = new S.Game(optionsOf(su));
  const st = g.newState(BigInt(su.seed));
  const info = Array.from({ length: g.numCardTypes }, (_, k) => g.cardInfo(k)); // 49, or 62 with the New Society
  const chron = new Chronicle(S, info);
  const moves = [];
  let mine = 0;
  try {
    st.enableEventQueue();
    chron.record(st);
    for (const id of actions) {
      const me = st.currentPlayer === su.seat;
      if (me && st.legalActionIds().length > 1) moves.push(st.history().length);
      const lower = st.row(S.Source.LOWER);
      st.apply(id);
      chron.record(st, lower);
      if (me) mine = st.history().length;
    }
  } catch (e) {
    st.free();
    g.free();
    throw new Refused(`the actions cannot be replayed: ${e.message}`);
  }
  cancelTimers();
  if (state) state.free();
  if (game) game.free();
  game = g;
  state = st;
  setup = su;
  cards = info;
  chronicle = chron;
  myMoves = moves;
  lastMine = mine;
  save();
  if (state.isTerminal) gameOver();
  advance();
}
/** Save after every move: the game survives a reload. */
function save() {
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify(saveData()));
  } catch (e) {
    showMessage(`The game could not be saved in this browser: ${e.message}`);
  }
}
const inProgress = () => state && !state.isTerminal && state.history().length > 0;

function labels() {
  const name = { random: 'random', greedy: 'greedy', mc: `Monte Carlo ${setup.strength}`, ismcts: `ISMCTS ${setup.strength}`,
    learned: `learned ${setup.strength}` }[setup.bot];
  return Array.from({ length: setup.players }, (_, s) => (s === setup.seat ? 'you' : `bot, ${name}`));
}
function render() {
  if (!state) return;
  const thinking = !state.isTerminal && state.currentPlayer !== setup.seat;
  renderer.render(seatModel(S, state, setup.seat, cards, {
    labels: labels(), chronicle, lastMove: lastMine, mayAct: !pending && !autoTimer,
    waiting: thinking ? `Seat ${state.currentPlayer} (bot) is thinking` : autoTimer ? 'Passing for you' : null,
    autoPass: prefs.autoPass,
  }));
  $('btn-undo').disabled = myMoves.length === 0;
  document.body.dataset.turn = state.isTerminal ? 'over' : thinking ? 'bots' : 'you';
}
/** The end of a game: the winners and the final table come into view; the live region says who won. */
function gameOver() {
  render();
  const w = state.winners();
  const sc = state.scores();
  renderer.announce([`Game over. ${w.map((s) => (s === setup.seat ? 'You win' : `Seat ${s} wins`)).join(', ')} with ${sc[w[0]].total} VP`]);
  $('banner').scrollIntoView({ block: 'start' });
  $('final').scrollIntoView({ block: 'nearest' });
  $('winner').focus({ preventScroll: true });
}
function advance() {
  if (!state) return;
  if (state.isTerminal || pending || botTimer || autoTimer) { render(); return; }
  if (state.currentPlayer === setup.seat) {
    const legal = state.legalActions();
    if (prefs.autoPass && legal.length === 1 && legal[0].kind === S.ActionKind.PASS) {
      autoTimer = setTimeout(() => { autoTimer = 0; play(legal[0].id, true); }, delay);
    }
    render();
    return;
  }
  if (workerReady) botTimer = setTimeout(askBot, delay);
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
/** Apply a move of the game's current seat, log it, save; the bots' moves are announced. */
function applyMove(id) {
  const lower = state.row(S.Source.LOWER);
  const before = chronicle.entries.length;
  state.apply(id);
  chronicle.record(state, lower);
  save();
  return chronicle.entries.slice(before).map((e) => e.text);
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
  if (data.error) { showMessage(`The bot failed: ${data.error}`); render(); return; }
  let lines;
  try {
    lines = applyMove(data.action);
  } catch (e) {
    showMessage(`The bot's move was refused: ${e.message}`);
    render();
    return;
  }
  renderer.announce(lines);
  if (state.isTerminal) gameOver();
  advance();
}
function cancelTimers() {
  pending = 0;
  clearTimeout(botTimer);
  clearTimeout(autoTimer);
  botTimer = 0;
  autoTimer = 0;
}
function play(id, automatic = false) {
  if (!state || state.isTerminal || state.currentPlayer !== setup.seat || pending || (autoTimer && !automatic)) return;
  const choice = state.legalActionIds().length > 1;
  const at = state.history().length;
  let lines;
  try {
    lines = applyMove(id);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  if (choice) myMoves.push(at);
  lastMine = state.history().length;
  if (automatic) renderer.announce(lines.map((t) => `automatic: ${t}`));
  if (state.isTerminal) gameOver();
  advance();
}
/** Take back the person's last move that was a choice (and every move after it): the game is replayed up to it. */
function undo() {
  if (!state || myMoves.length === 0) return;
  const target = myMoves[myMoves.length - 1];
  startGame(setup, state.history().slice(0, target));
}

// ---- controls ----------------------------------------------------------------------------------------------

function readSetupForm() {
  const f = $('setup-form').elements;
  const players = Number(f.players.value);
  const seed = f.seed.value.trim() === '' ? randomSeed() : f.seed.value.trim();
  return checkSetup({ players, seat: Math.min(Number(f.seat.value), players - 1), edition: Number(f.edition.value),
    newSociety: f.newSociety.checked,
    bot: f.bot.value, strength: Number(f.strength.value), seed, pubPerPlayer: f.pubPerPlayer.checked,
    tieTotal: f.tieTotal.checked, publicRubles: f.publicRubles.checked, publicHands: f.publicHands.checked });
}
$('btn-new').onclick = () => (inProgress() ? $('confirm-new') : $('setup')).showModal();
$('confirm-form').addEventListener('submit', (ev) => {
  if (ev.submitter?.value === 'discard') setTimeout(() => $('setup').showModal(), 0);
});
$('setup-form').addEventListener('submit', (ev) => {
  if (ev.submitter?.value !== 'start') return;
  try {
    const su = readSetupForm();
    clearMessage();
    startGame(su);
  } catch (e) {
    ev.preventDefault();
    $('setup-error').textContent = e.message;
  }
});
// A started game is played from its first action button (the dialog would give the focus back to "New game").
$('setup').addEventListener('close', () => {
  if ($('setup').returnValue !== 'start') return;
  renderer.focusActions = true;
  const first = document.querySelector('#actions button');
  if (first) first.focus();
  else document.activeElement?.blur(); // the bots move first: the focus comes to the actions when they are drawn
});
$('btn-undo').onclick = undo;
$('btn-export').onclick = () => {
  if (!state) return;
  const url = URL.createObjectURL(new Blob([JSON.stringify(saveData(), null, 1)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'stpete-game.json';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
$('file-import').onchange = async (ev) => {
  const file = ev.target.files[0];
  ev.target.value = '';
  if (!file) return;
  try {
    const { setup: su, actions } = parseSave(await file.text());
    clearMessage();
    startGame(su, actions);
  } catch (e) {
    showMessage(`Import refused: ${e.message}. The game on the page is unchanged.`);
  }
};
$('message-close').onclick = clearMessage;
document.addEventListener('keydown', (ev) => {
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement
      || document.querySelector('dialog[open]') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === 'u' || ev.key === 'U') { undo(); return; }
  if (ev.key.length !== 1 || !ACTION_KEYS.includes(ev.key)) return;
  const button = document.querySelector(`#actions button[data-key="${CSS.escape(ev.key)}"]`);
  if (button) { ev.preventDefault(); button.click(); }
});

// ---- opening: the address's game, else the saved one, else a new default game ------------------------------

$('version').textContent = S.version();
const params = new URLSearchParams(location.search);
let fromAddress = null;
try {
  fromAddress = addressSetup(params);
  if (params.has('delay')) delay = Number(params.get('delay'));
} catch (e) {
  showMessage(`${e.message}. The address was ignored.`);
}
let restored = false;
if (fromAddress) {
  startGame(fromAddress);
  // The address is a link to a new game: once started, it leaves the address, so a reload continues the game.
  const keep = new URLSearchParams();
  if (params.has('delay')) keep.set('delay', params.get('delay'));
  history.replaceState(null, '', `${location.pathname}${keep.size ? `?${keep}` : ''}`);
} else {
  let text = null;
  try {
    text = localStorage.getItem(SAVE_KEY);
  } catch (e) {
    showMessage(`This browser keeps no saved game here: ${e.message}`);
  }
  if (text) {
    try {
      const { setup: su, actions } = parseSave(text);
      startGame(su, actions);
      restored = true;
    } catch (e) {
      showMessage(`The game saved in this browser was not loaded: ${e.message}`);
    }
  }
  if (!restored) {
    startGame({ players: 4, seat: 0, edition: 1, bot: 'ismcts', strength: 1000, seed: randomSeed(),
      pubPerPlayer: false, tieTotal: false, publicRubles: false, publicHands: false });
  }
}
document.body.dataset.ready = '1';
