// The local page: a person against the library's bots in this browser. The setup (the dialog or the address), the
// bots (a Web Worker, worker.js), the save after every move (this browser's localStorage), export and import, undo
// and auto-pass. What the page shows is the library's table document of the person's seat
// (State.tableToJson, doc/format.md), drawn by render.js as the online page draws the server's: this file computes
// no rule fact. A game is saved as its setup, seed and actions with the library's replay record, and rebuilt by
// replaying them.
import * as S from './libstpete/index.js';
import { Renderer, el } from './render.js';
import {
  $, showMessage, clearMessage, installKeys, BOTS, STRENGTH_MIN, STRENGTH_MAX, DEFAULT_BOT, DEFAULT_STRENGTH,
  botSpec, botLabel, botFields, ruleFields, offered,
} from './page.js';

const SAVE_KEY = 'stpete-web-save';
const PREFS_KEY = 'stpete-web-prefs';
/** What this browser has started or loaded: the rule options of each game by its identity, so that no save can
 * change the rules of a game in progress, whatever game is on the page (issue 46, item 13). */
const LEDGER_KEY = 'stpete-web-games';
const LEDGER_MAX = 64;
/** Save format: 3 keeps the rule options as the library's words (`setup.options`); 2 added `replay` (required), from
 * which its options are read; 1 (no replay record, its own names for five options) is still read. */
const SAVE_VERSION = 3;
/** Pause between bot moves in ms (address `delay`, 0..5000; 0 for tests), so that a person can follow them. */
const DELAY_MAX = 5000;

let game = null;
let state = null;
let setup = null;
let cards = null;       // the game's card table (the first document's), sent to the renderer once per game
let myMoves = [];       // history length before each move of the person that was a choice (for undo)
let logSeen = 0;        // log entries already announced
let pending = 0;        // id of the bot request awaited, 0 when none
let requestId = 0;
let botTimer = 0;
let autoTimer = 0;
let workerReady = false; // the worker loads the module first (top-level await): messages before that are lost
const prefs = readPrefs();
let delay = 400;

const renderer = new Renderer(document, { onAction: (id) => play(id), onAutoPass: setAutoPass });
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onmessage = (msg) => onBotReply(msg.data);
worker.onerror = (e) => showMessage(`The bots stopped: ${e.message}`);

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

// The rule options are the library's (S.options(), the table of options): the page spells none. A setup holds them
// by name with the JSON format's values (players always, the others set away from their defaults).
/** The options of play (the seed, the chance mode) are the page's own: a setup sets none of them. */
const ofPlay = (name) => S.options().find((o) => o.name === name)?.category === 'play';
/** The library's reason for refusing these options, or null (S.checkOptions: the setup rule's one home). */
function reasonOf(options) {
  try {
    return S.checkOptions(options);
  } catch (e) {
    return e.message; // no option at all: an unknown name, a value of the wrong type
  }
}
/** A game of these options and seed; throws the library's refusal. */
const gameOf = (options, seed) => new S.Game({ ...options, seed });
/** A game's rule options (the JSON format's values, by name): every option of the table but those of play. */
const optionsOf = (g) => Object.fromEntries(Object.entries(g.optionsJson).filter(([name]) => !ofPlay(name)));
/** A setup checked field by field (from the dialog, the address or a save): {seat, bot, strength, seed, options}
 * with the rule options as the library's words, which the library checks (its reason is the refusal's). */
function checkSetup(su) {
  if (typeof su !== 'object' || su === null) throw new Refused('the setup is missing');
  if (typeof su.options !== 'object' || su.options === null || Array.isArray(su.options)) throw new Refused('the setup has no rule options');
  const known = new Set(S.options().map((o) => o.name));
  for (const key of Object.keys(su.options)) {
    if (!known.has(key)) throw new Refused(`the rule option ${JSON.stringify(key)} is unknown`);
    if (ofPlay(key)) throw new Refused(`the page sets ${key} itself`);
  }
  const options = { ...su.options };
  const reason = reasonOf(options);
  if (reason !== null) throw new Refused(reason);
  const players = gameOf(options, 0).players;
  if (!isInt(su.seat, 0, players - 1)) throw new Refused(`your seat must be 0 to ${players - 1}, not ${JSON.stringify(su.seat)}`);
  if (!BOTS.some((b) => b.kind === su.bot)) {
    throw new Refused(`the bots must be one of ${BOTS.map((b) => b.kind).join(', ')}, not ${JSON.stringify(su.bot)}`);
  }
  const strength = su.strength ?? DEFAULT_STRENGTH;
  if (!isInt(strength, STRENGTH_MIN, STRENGTH_MAX)) {
    throw new Refused(`the strength must be ${STRENGTH_MIN} to ${STRENGTH_MAX} iterations, not ${JSON.stringify(su.strength)}`);
  }
  const seed = typeof su.seed === 'number' && Number.isSafeInteger(su.seed) ? String(su.seed) : su.seed;
  if (typeof seed !== 'string' || !/^\d{1,20}$/.test(seed) || BigInt(seed) >= 1n << 64n) {
    throw new Refused(`the seed must be a whole number below 2^64, not ${JSON.stringify(su.seed)}`);
  }
  return { seat: su.seat, bot: su.bot, strength, seed: BigInt(seed).toString(), options };
}
/** A setup of save version 2 in today's form: its rule options are its replay record's (the library's words). */
function setupOfVersion2(su, replay) {
  if (typeof su !== 'object' || su === null) return su;
  const options = typeof replay?.options === 'object' && replay.options !== null ? { ...replay.options } : {};
  for (const o of S.options()) { // those of play (the seed is the setup's): at their defaults, as if not given
    if (o.category === 'play' && (o.type === 'seed' || JSON.stringify(options[o.name]) === JSON.stringify(o.default))) {
      delete options[o.name];
    }
  }
  return { seat: su.seat, bot: su.bot, strength: su.strength, seed: su.seed, options };
}
/** Save version 1's names (1.0's page) of four rule options, each a boolean: the option's second value when true. */
const VERSION_1 = Object.freeze({ pubPerPlayer: 'pub_cap', tieTotal: 'tie_break', publicRubles: 'public_rubles', publicHands: 'public_hands' });
/** A setup of save version 1 (1.0: no replay record, its own names for four rule options) in today's form. */
function setupOfVersion1(su) {
  if (typeof su !== 'object' || su === null) return su;
  const options = { players: su.players, ...(su.edition === undefined ? {} : { edition: su.edition }) };
  for (const [key, name] of Object.entries(VERSION_1)) {
    if (su[key] === undefined) continue;
    if (typeof su[key] !== 'boolean') throw new Refused(`${key} must be true or false`);
    const o = S.options().find((x) => x.name === name);
    options[name] = o.type === 'enum' ? o.words[su[key] ? 1 : 0] : su[key];
  }
  return { seat: su.seat, bot: su.bot, strength: su.strength, seed: su.seed, options };
}
function randomSeed() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return ((BigInt(a[0]) << 32n) | BigInt(a[1])).toString();
}

/** Whether an option changes only what seats see (the table's category information, §9). */
const ofInformation = (name) => S.options().find((o) => o.name === name)?.category === 'information';
/** The identity of a game for the ledger: its seed and every rule option that shapes play (the library's words;
 * the options of information, public rubles and hands, aside). */
function identity(su, words) {
  const shaping = Object.fromEntries(Object.entries(words).filter(([k]) => !ofInformation(k)));
  return JSON.stringify([su.seed, shaping]);
}
function readLedger() {
  try {
    const list = JSON.parse(localStorage.getItem(LEDGER_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((e) => Array.isArray(e) && e.length === 2) : [];
  } catch {
    return [];
  }
}
/** Remember the rule options of a game this page plays. */
function remember(su, words) {
  const id = identity(su, words);
  const list = readLedger().filter(([k]) => k !== id);
  list.push([id, words]);
  try {
    localStorage.setItem(LEDGER_KEY, JSON.stringify(list.slice(-LEDGER_MAX)));
  } catch {
    // a browser without storage keeps no ledger (nor saves)
  }
}

/** What a save or export holds: the setup, the actions and the library's replay record of them. */
function saveData() {
  return { format: 'stpete-web-save', version: SAVE_VERSION, setup, actions: state.history(),
    replay: JSON.parse(state.replayToJson()) };
}
/** A save or export checked: {setup, actions}; throws Refused. Its version, setup and actions, and its replay
 * record through the library's own reader (State.fromReplay: format, version, every action legal), which must be
 * the same game (options, seed, actions). The rules of a game in progress do not change: a save of a game this
 * browser has played, with other rule options than it had, is refused (public rubles or hands included), whatever
 * game is on the page. */
function checkSave(data) {
  if (typeof data !== 'object' || data === null || data.format !== 'stpete-web-save') throw new Refused('this is not a saved Saint Petersburg game');
  if (!isInt(data.version, 1, SAVE_VERSION)) {
    throw new Refused(`save version ${JSON.stringify(data.version)} is not supported (this page reads versions 1 to ${SAVE_VERSION})`);
  }
  const su = checkSetup(data.version === 1 ? setupOfVersion1(data.setup)
    : data.version === 2 ? setupOfVersion2(data.setup, data.replay) : data.setup);
  const g = gameOf(su.options, 0);
  const words = optionsOf(g);
  const [ids, longest] = [g.numDistinctActions, g.maxGameLength];
  g.free();
  if (!Array.isArray(data.actions) || data.actions.length > longest || !data.actions.every((id) => isInt(id, 0, ids - 1))) {
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
      const theirs = optionsOf(replayed.game);
      for (const key of new Set([...Object.keys(words), ...Object.keys(theirs)])) {
        if (JSON.stringify(words[key]) !== JSON.stringify(theirs[key])) {
          throw new Refused(`the setup's ${key} (${JSON.stringify(words[key])}) is not the replay's (${JSON.stringify(theirs[key])})`);
        }
      }
      if (String(replayed.seed) !== su.seed) throw new Refused('the setup\'s seed is not the replay\'s');
      const h = replayed.history();
      if (h.length !== data.actions.length || h.some((id, k) => id !== data.actions[k])) {
        throw new Refused('the actions are not the replay\'s');
      }
    } finally {
      replayed.free();
    }
  } else if (data.actions.length > 0 && S.options().some((o) => ofInformation(o.name) && words[o.name] !== o.default)) {
    throw new Refused('a version-1 save of a game in progress cannot make rubles or hands public (its options are not recorded by the library)');
  }
  const known = readLedger().find(([k]) => k === identity(su, words));
  if (known && data.actions.length > 0 && JSON.stringify(known[1]) !== JSON.stringify(words)) {
    throw new Refused('this is a game played in this browser, with other rule options: the rules of a game in progress do not change');
  }
  return { setup: su, actions: data.actions };
}
/** Parse a save's text and check it; throws Refused. */
function parseSave(text) {
  if (text.length > S.JSON_REPLAY_MAX) throw new Refused('the file is too large for a save');
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Refused(`this is not JSON (${e.message})`);
  }
  return checkSave(data);
}

/** The address's parameters besides the rule options: the setup's own, and `delay`. */
const ADDRESS = Object.freeze(['seat', 'bot', 'strength', 'seed', 'delay']);
/** 1.1's links said ns=1 for the New Society: the same as its option by name. */
const ADDRESS_FORMER = Object.freeze({ ns: 'new_society' });
/** The address's setup (seat, bot, strength, seed, and any rule option a setup form offers by its name: players,
 * edition, new_society=1 ...; delay), or null when it sets none. Throws Refused for an unknown name or a value the
 * library refuses. */
function addressSetup(params) {
  const rules = new Map(offered(S.options()).map((o) => [o.name, o]));
  for (const key of params.keys()) {
    if (!ADDRESS.includes(key) && !rules.has(ADDRESS_FORMER[key] ?? key)) {
      throw new Refused(`the address parameter ${key} is unknown (known: ${[...ADDRESS, ...rules.keys()].join(', ')})`);
    }
  }
  const num = (key) => {
    const v = params.get(key);
    if (!/^-?\d{1,15}$/.test(v)) throw new Refused(`the address parameter ${key} must be a whole number, not ${JSON.stringify(v)}`);
    return Number(v);
  };
  if (params.has('delay')) {
    const d = num('delay');
    if (!isInt(d, 0, DELAY_MAX)) throw new Refused(`the address parameter delay must be 0 to ${DELAY_MAX} ms, not ${d}`);
  }
  if ([...params.keys()].every((k) => k === 'delay')) return null;
  const options = { players: rules.get('players').default };
  for (const [key, text] of params) {
    const o = rules.get(ADDRESS_FORMER[key] ?? key);
    if (!o) continue;
    if (o.type === 'bool') {
      if (!['0', '1', 'false', 'true'].includes(text)) throw new Refused(`the address parameter ${key} must be 0 or 1, not ${JSON.stringify(text)}`);
      options[o.name] = text === '1' || text === 'true';
    } else {
      options[o.name] = o.type === 'int' ? num(key) : text;
    }
  }
  const su = { seat: params.has('seat') ? num('seat') : 0, bot: params.get('bot') ?? DEFAULT_BOT,
    strength: params.has('strength') ? num('strength') : DEFAULT_STRENGTH, seed: params.get('seed') ?? randomSeed(), options };
  try {
    return checkSetup(su);
  } catch (e) {
    throw new Refused(`the address: ${e.message}`);
  }
}

// ---- the game ----------------------------------------------------------------------------------------------

/** Start (or rebuild by replaying `actions`) a game. Nothing on the page changes when it throws. */
function startGame(su, actions = []) {
  const g = gameOf(su.options, 0);
  const st = g.newState(BigInt(su.seed));
  const moves = [];
  try {
    for (const id of actions) {
      if (st.currentPlayer === su.seat && st.legalActionIds().length > 1) moves.push(st.history().length);
      st.apply(id);
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
  cards = null;
  myMoves = moves;
  logSeen = Infinity; // what the replay reported is not announced
  remember(su, optionsOf(g));
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

/** The table document of the person's seat (the library's), with who sits where. */
function tableDocument() {
  const doc = JSON.parse(state.tableToJson(setup.seat, { cards: cards === null }));
  if (doc.cards) cards = doc.cards;
  const bot = { kind: 'bot', label: botLabel(setup.bot, setup.strength) };
  doc.seats = Array.from({ length: state.players }, (_, s) => (s === setup.seat ? { kind: 'person', label: 'you' } : bot));
  return doc;
}
function render() {
  if (!state) return null;
  const doc = tableDocument();
  const thinking = !state.isTerminal && state.currentPlayer !== setup.seat;
  renderer.render(doc, { mayAct: !pending && !autoTimer, busy: autoTimer ? 'Passing for you' : null, autoPass: prefs.autoPass });
  // the live region says what the others did (the library's lines since the last announcement)
  if (logSeen !== Infinity) {
    const news = doc.log.filter((e) => e.n > logSeen && e.seat !== setup.seat).map((e) => e.text);
    renderer.announce(news);
  }
  logSeen = doc.log_size;
  $('btn-undo').disabled = myMoves.length === 0;
  document.body.dataset.turn = state.isTerminal ? 'over' : thinking ? 'bots' : 'you';
  document.body.dataset.move = String(doc.move);
  document.body.dataset.toAct = doc.to_act ?? '';
  return doc;
}
/** The end of a game: the winners and the final table come into view; the live region says who won. */
function gameOver() {
  const doc = render();
  const w = doc.result.winners;
  renderer.announce([`Game over. ${w.map((s) => (s === setup.seat ? 'You win' : `Seat ${s} wins`)).join(', ')} with ${doc.result.scores[w[0]].total} VP`]);
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
  worker.postMessage({ id: pending, state: state.toJson(), spec: botSpec(setup.bot, setup.strength), seed });
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
  if (data.error) { showMessage(`The bot failed: ${data.error}`); render(); return; }
  try {
    state.apply(data.action);
  } catch (e) {
    showMessage(`The bot's move was refused: ${e.message}`);
    render();
    return;
  }
  save();
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
  try {
    state.apply(id);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  if (choice) myMoves.push(at);
  save();
  if (automatic) renderer.announce([`automatic: ${state.game.actionString(id)}`]);
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

/** The "New game" dialog's fields: players and the rule options from the library's table, your seat, the bots,
 * the seed. */
let rules = null;
async function buildSetupForm() {
  rules = await ruleFields(S.options(), (list) => list.map(reasonOf));
  const seat = el('select', { name: 'seat' });
  const seats = () => {
    const n = Number(rules.players.querySelector('select').value);
    const old = Number(seat.value || 0);
    seat.replaceChildren(...Array.from({ length: n }, (_, s) => el('option', { value: s, selected: s === Math.min(old, n - 1) }, String(s))));
  };
  rules.players.querySelector('select').addEventListener('change', seats);
  seats();
  $('setup-fields').replaceChildren(rules.players, el('label', {}, 'Your seat ', seat), ...botFields(),
    el('label', {}, 'Seed ', el('input', { name: 'seed', type: 'text', inputmode: 'numeric', value: '', placeholder: 'random' })),
    rules.fields);
}
function readSetupForm() {
  const f = $('setup-form').elements;
  const seed = f.seed.value.trim() === '' ? randomSeed() : f.seed.value.trim();
  return checkSetup({ seat: Number(f.seat.value), bot: f.bot.value, strength: Number(f.strength.value), seed,
    options: rules.read() });
}
await buildSetupForm();
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
installKeys({ undo });

// ---- opening: the address's game, else the saved one, else a new default game ------------------------------

$('version').textContent = ` ${S.version()}`;
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
  if (!restored) startGame({ seat: 0, bot: DEFAULT_BOT, strength: DEFAULT_STRENGTH, seed: randomSeed(), options: { players: S.options().find((o) => o.name === 'players').default } });
}
