// The online page (stpete_server, doc/server.md): the server holds the game; this page draws the table document
// the server sends for its seat (the library's, doc/format.md "Table document") with render.js, as the local page
// draws its own, and sends the person's clicks. Without an address fragment it is the lobby (create a table, get one
// link per seat); with #t=TABLE&k=TOKEN it plays that seat, with #t=TABLE alone it watches (the public view). The
// token stays in the fragment, which browsers send neither to a server nor in a Referer. This file computes no rule
// fact: prices, incomes, discards, texts, who acted last are the document's.
import { Renderer, el } from './render.js';
import { $, showMessage, installKeys, botFields, botLabelOfSpec, ruleFields } from './page.js';

const hash = new URLSearchParams(location.hash.slice(1));
const tableId = hash.get('t');
const token = hash.get('k');

let welcome = null;   // the server's welcome: seat, players, options, seats
let doc = null;       // the last table document, its log holding every entry received
let log = [];         // every log entry received, in order
let pending = false;  // an action sent, its answer awaited
let autoPass = false;
let socket = null;
let retry = 0;

const renderer = new Renderer(document, { onAction: (id) => play(id), onAutoPass: (on) => { autoPass = on; maybeAutoPass(); } });

function setConn(online) {
  $('conn').textContent = online ? 'online' : 'offline — reconnecting';
  $('conn').className = `conn ${online ? 'online' : 'offline'}`;
}

// ---- lobby -------------------------------------------------------------------------------------------------

/** The server's answer to a JSON request, or a thrown Error with its message. */
async function request(path, body) {
  const res = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error ?? `HTTP ${res.status}`);
  return data;
}
let rules = null;
/** The lobby's form: players and the rule options from the library's table (GET /api/options), which seats are
 * people, the bots. The library's reasons for refused combinations come from POST /api/options/check. */
async function buildLobby() {
  const { options: table } = await request('/api/options');
  rules = await ruleFields(table, async (combinations) => (await request('/api/options/check', { combinations })).reasons);
  const players = rules.players.querySelector('select');
  $('lobby-fields').replaceChildren(rules.players, el('fieldset', { id: 'seat-kinds' }, el('legend', {}, 'Seats')),
    ...botFields(), rules.fields);
  players.addEventListener('change', seatKinds);
  seatKinds();
}
function seatKinds() {
  const n = Number($('create-form').elements.players.value);
  const box = $('seat-kinds');
  const old = [...box.querySelectorAll('select')].map((s) => s.value);
  box.replaceChildren(el('legend', {}, 'Seats'), ...Array.from({ length: n }, (_, s) => el('label', {}, `Seat ${s} `,
    el('select', { name: `seat${s}` }, el('option', { value: 'human' }, 'person'), el('option', { value: 'bot' }, 'bot')))));
  box.querySelectorAll('select').forEach((sel, s) => { sel.value = old[s] ?? (s < 2 ? 'human' : 'bot'); });
}
async function createTable(ev) {
  ev.preventDefault();
  const f = $('create-form').elements;
  const { players, ...options } = rules.read();
  const body = { players, bot: f.bot.value, strength: Number(f.strength.value),
    seats: Array.from({ length: players }, (_, s) => f[`seat${s}`].value), rules: options };
  let data;
  try {
    data = await request('/api/tables', body);
  } catch (e) {
    showMessage(`Refused: ${e.message}`);
    return;
  }
  const base = `${location.origin}/`;
  const items = data.seats.map((s) => (s.token
    ? el('li', { 'data-seat': s.seat }, `Seat ${s.seat} (person): `, el('a', { href: `${base}#t=${data.table}&k=${s.token}`, class: 'seat-link' }, `${base}#t=${data.table}&k=${s.token}`))
    : el('li', { 'data-seat': s.seat }, `Seat ${s.seat}: ${botLabelOfSpec(data.bot)}`)));
  items.push(el('li', {}, 'Spectators: ', el('a', { href: `${base}#t=${data.table}`, class: 'spectate-link' }, `${base}#t=${data.table}`)));
  $('link-list').replaceChildren(...items);
  $('links').hidden = false;
  document.body.dataset.table = data.table;
}

// ---- the connection ----------------------------------------------------------------------------------------

function connect() {
  socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  socket.onopen = () => {
    retry = 0;
    setConn(true);
    socket.send(JSON.stringify(token ? { type: 'hello', table: tableId, token } : { type: 'hello', table: tableId }));
  };
  socket.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  socket.onclose = (ev) => {
    setConn(false);
    pending = false;
    if (ev.code === 1008) { showMessage(`The server closed the connection: ${ev.reason || 'refused'}`); return; }
    // Come back as with the same link: the server sends the whole table again.
    setTimeout(connect, Math.min(10000, 500 * 2 ** retry++));
  };
}
/** Who sits where, for the renderer: a person or a bot (with its label), connected or not. */
function seats() {
  return welcome.seats.map((s) => (s.kind === 'bot' ? { kind: 'bot', label: botLabelOfSpec(s.bot) }
    : { kind: 'person', label: 'person', connected: s.connected }));
}
function onMessage(m) {
  if (m.type === 'welcome') {
    welcome = m;
    log = [];
    $('version').textContent = ` ${m.version}`;
    $('table-name').textContent = `table ${m.table}${m.seat === null ? ' (watching)' : `, seat ${m.seat}`}`;
  } else if (m.type === 'seats') {
    if (welcome) welcome.seats = m.seats;
    render();
  } else if (m.type === 'state') {
    const table = m.document;
    const fresh = table.log.filter((e) => e.n > log.length);
    if (doc !== null) renderer.announce(fresh.filter((e) => e.seat !== table.seat).map((e) => e.text));
    log.push(...fresh);
    doc = table;
    pending = false;
    render();
    document.body.dataset.move = String(table.move);
    document.body.dataset.over = table.result ? '1' : '0';
    maybeAutoPass();
  } else if (m.type === 'refused') {
    pending = false;
    showMessage(doc ? `Refused: ${m.reason}` : `Cannot join: ${m.reason}`);
    render();
  }
}
function play(id) {
  if (!doc || pending || !socket || socket.readyState !== WebSocket.OPEN) return;
  pending = true;
  socket.send(JSON.stringify({ type: 'act', move: doc.move, action: id }));
  render();
}
function maybeAutoPass() {
  if (!autoPass || !doc || pending || doc.result || doc.actions.length !== 1 || doc.actions[0].kind !== 'pass') return;
  const move = doc.move;
  setTimeout(() => { if (doc.move === move && !pending) play(doc.actions[0].id); }, 300);
}
function render() {
  if (!welcome || !doc) return;
  renderer.render({ ...doc, log, seats: seats() }, { mayAct: !pending, busy: pending ? 'Sent…' : null, autoPass });
  document.body.dataset.toAct = doc.to_act ?? '';
}

// ---- start -------------------------------------------------------------------------------------------------

export async function start() {
  installKeys();
  window.addEventListener('hashchange', () => location.reload());
  if (tableId) {
    connect();
  } else {
    $('lobby').hidden = false;
    $('conn').hidden = true;
    for (const id of ['status', 'actions', 'log', 'board', 'players']) $(id).hidden = true;
    $('create-form').onsubmit = createTable;
    try {
      await buildLobby();
    } catch (e) {
      showMessage(`The server did not answer: ${e.message}`);
    }
  }
}
