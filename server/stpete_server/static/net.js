// The page in network mode (stpete_server, doc/server.md): the server holds the game; this page draws what its
// seat knows with examples/web's renderer (render.js: a model made of the seat's view and legal actions) and
// sends the person's clicks. Without an address fragment it is the lobby (create a table, get one link per seat);
// with #t=TABLE&k=TOKEN it plays that seat, with #t=TABLE alone it watches (the public view). The token stays in the
// fragment, which browsers send neither to a server nor in a Referer.
import { Renderer, el } from '/web/render.js';
import { boardPrices } from '/web/model.js';

const $ = (id) => document.getElementById(id);
const hash = new URLSearchParams(location.hash.slice(1));
const tableId = hash.get('t');
const token = hash.get('k');

let welcome = null;   // the server's welcome: seat, players, options, cards, seats
let last = null;      // the last state message
let log = [];         // every event received: {text, seat, kind}
let lastMine = 0;     // index in log of the first event of this seat's last move (0: none yet)
let pending = false;  // an action sent, its answer awaited
let autoPass = false;
let socket = null;
let retry = 0;

const renderer = new Renderer(document, { onAction: (id) => play(id), onAutoPass: (on) => { autoPass = on; maybeAutoPass(); } });

function showMessage(text) {
  $('message-text').textContent = text;
  $('message').hidden = false;
}
$('message-close').onclick = () => { $('message').hidden = true; };
function setConn(online) {
  $('conn').textContent = online ? 'online' : 'offline — reconnecting';
  $('conn').className = `conn ${online ? 'online' : 'offline'}`;
}

// ---- lobby -------------------------------------------------------------------------------------------------

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
  const players = Number(f.players.value);
  const body = {
    players, bot: f.bot.value, strength: Number(f.strength.value),
    seats: Array.from({ length: players }, (_, s) => f[`seat${s}`].value),
    rules: { edition: Number(f.edition.value), pub_cap: f.pubPerPlayer.checked ? 'per-player' : 'per-pub',
      tie_break: f.tieTotal.checked ? 'rubles-total' : 'rubles-mod-10', public_rubles: f.publicRubles.checked,
      public_hands: f.publicHands.checked,
      // the New Society (§12): asked for, or implied by 5 players (R17); the server refuses it with edition 2
      new_society: f.newSociety.checked || players === 5 },
  };
  let data;
  let res;
  try {
    res = await fetch('/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    data = await res.json();
  } catch (e) {
    showMessage(`The server did not answer: ${e.message}`);
    return;
  }
  if (!res.ok) { showMessage(`Refused: ${data.error}`); return; }
  const base = `${location.origin}/`;
  const items = data.seats.map((s) => (s.token
    ? el('li', { 'data-seat': s.seat }, `Seat ${s.seat} (person): `, el('a', { href: `${base}#t=${data.table}&k=${s.token}`, class: 'seat-link' }, `${base}#t=${data.table}&k=${s.token}`))
    : el('li', { 'data-seat': s.seat }, `Seat ${s.seat}: bot (${data.bot})`)));
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
function onMessage(m) {
  if (m.type === 'welcome') {
    welcome = m;
    log = [];
    lastMine = 0;
    $('version').textContent = m.version;
    $('table-name').textContent = `table ${m.table}${m.seat === null ? ' (watching)' : `, seat ${m.seat}`}`;
  } else if (m.type === 'seats') {
    if (welcome) welcome.seats = m.seats;
    render();
  } else if (m.type === 'state') {
    const myMove = last !== null && welcome.seat !== null && last.to_act === welcome.seat && m.move > last.move;
    if (myMove) lastMine = log.length;
    log.push(...m.events);
    if (last !== null) renderer.announce(m.events.filter((e) => e.seat !== welcome.seat).map((e) => e.text));
    last = m;
    pending = false;
    render();
    document.body.dataset.move = String(m.move);
    document.body.dataset.over = m.result ? '1' : '0';
    maybeAutoPass();
  } else if (m.type === 'refused') {
    pending = false;
    showMessage(last ? `Refused: ${m.reason}` : `Cannot join: ${m.reason}`);
    render();
  }
}
function play(id) {
  if (!last || pending || !socket || socket.readyState !== WebSocket.OPEN) return;
  pending = true;
  socket.send(JSON.stringify({ type: 'act', move: last.move, action: id }));
  render();
}
function maybeAutoPass() {
  if (!autoPass || !last || pending || last.result || last.actions.length !== 1 || last.actions[0].kind !== 0) return;
  const move = last.move;
  setTimeout(() => { if (last.move === move && !pending) play(last.actions[0].id); }, 300);
}

// ---- the renderer's model (examples/web/render.js) from the server's messages ------------------------------

function labels() {
  return welcome.seats.map((s, k) => (k === welcome.seat ? 'you'
    : s.kind === 'bot' ? `bot (${s.bot})` : `person${s.connected ? '' : ', away'}`));
}
function final(result) {
  if (!result) return null;
  const scores = result.scores.map((s) => ({ vpBefore: s.vp_before, aristocratKinds: s.aristocrat_kinds,
    aristocratBonus: s.aristocrat_bonus, rubles: s.rubles, rublesBonus: s.rubles_bonus, handCards: s.hand_cards,
    handPenalty: s.hand_penalty, total: s.total, tieBreak: s.tie_break }));
  return { scores, winners: result.winners };
}
/** The board's price notes, worded by examples/web's model.js (boardPrices) from the prices the server computed
 * with the library for this seat: a stand-in for the package's State that answers from the state message. */
class InvalidArgumentError extends Error {}
const SOURCES = { Source: { UPPER: 0, LOWER: 1, OBSERVATORY: 3, DISCARD: 4 }, InvalidArgumentError }; // stpete_source
function prices(seat) {
  if (!last.prices) return null;
  const byName = new Map(welcome.cards.map((c, k) => [c.name, k]));
  const id = (name) => byName.get(name);
  const table = new Map(last.prices.map(([source, card, displaced, price]) => [`${source}/${card}/${displaced}`, price]));
  const v = last.view;
  const asked = {
    display: (s) => v.players[s].display.map(id),
    row: (source) => (source === 0 ? v.upper_row : v.lower_row).map(id),
    // the view's observatory_card holds the Debtor's Prison's card during its decision (§12.7.5)
    observatoryCard: v.observatory_card === null || v.decision === 'prison' ? -1 : id(v.observatory_card),
    prisonCard: v.observatory_card !== null && v.decision === 'prison' ? id(v.observatory_card) : -1,
    price: (s, card, source, displaced = -1) => {
      const price = table.get(`${source}/${card}/${displaced}`);
      if (price === undefined) throw new InvalidArgumentError('not one of its targets');
      return price;
    },
  };
  return boardPrices(SOURCES, asked, seat, welcome.cards);
}
function model() {
  const seat = welcome.seat; // null: a spectator
  const names = labels();
  const mine = seat !== null && last.to_act === seat && !pending && last.actions.length > 0;
  const endLine = (e) => e.kind === 'final-scoring' || e.kind === 'game-over';
  return {
    seat,
    labels: names,
    view: last.view,
    cards: welcome.cards,
    legal: mine ? last.actions.map((a) => ({ id: a.id, string: a.text, price: a.price, kind: a.kind })) : null,
    waiting: last.result ? null : pending ? 'Sent…' : `Seat ${last.to_act} (${names[last.to_act]}) to act`,
    prices: seat === null || last.result ? null : prices(seat),
    income: null,
    handLimits: last.hand_limits,
    discarded: last.discarded,
    log: log.map((e, k) => ({ n: k + 1, text: e.text, mine: seat !== null && e.seat === seat,
      recent: lastMine === 0 || k >= lastMine || endLine(e) })),
    final: final(last.result),
    autoPass,
  };
}
function render() {
  if (welcome && last) renderer.render(model());
}

// ---- start -------------------------------------------------------------------------------------------------

document.addEventListener('keydown', (ev) => {
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const button = document.querySelector(`#actions button[data-key="${CSS.escape(ev.key)}"]`);
  if (button) button.click();
});
window.addEventListener('hashchange', () => location.reload());
if (tableId) {
  connect();
} else {
  $('lobby').hidden = false;
  $('conn').hidden = true;
  for (const id of ['status', 'actions', 'log', 'board', 'players']) $(id).hidden = true;
  $('create-form').elements.players.onchange = seatKinds;
  $('create-form').onsubmit = createTable;
  seatKinds();
}
document.body.dataset.ready = '1';
