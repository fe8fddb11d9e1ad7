// The page in network mode (stpete_server, doc/server.md): the server holds the game; this page shows what its
// seat knows (the seat's view, §9) and sends the person's clicks. Without an address fragment it is the lobby
// (create a table, get one link per seat); with #t=TABLE&k=TOKEN it plays that seat, with #t=TABLE alone it watches
// (the public view). The token stays in the fragment, which browsers never send to a server or in a Referer.
const $ = (id) => document.getElementById(id);
const COLOURS = ['green', 'blue', 'orange'];
const PHASES = ['worker', 'building', 'aristocrat', 'trading'];

const hash = new URLSearchParams(location.hash.slice(1));
const tableId = hash.get('t');
const token = hash.get('k');

let welcome = null;   // the server's welcome: seat, players, options, cards, seats
let last = null;      // the last state message
let log = [];         // every event line received
let lastMine = 0;     // log length after this seat's last move (the lines since are "since your last move")
let pending = false;  // an action sent, its answer awaited
let byName = new Map();
let socket = null;
let retry = 0;

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
function setConn(online) {
  $('conn').textContent = online ? 'online' : 'offline';
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
      public_hands: f.publicHands.checked },
  };
  const res = await fetch('/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { $('status').textContent = `Refused: ${data.error}`; return; }
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
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  socket = new WebSocket(url);
  socket.onopen = () => {
    retry = 0;
    setConn(true);
    socket.send(JSON.stringify(token ? { type: 'hello', table: tableId, token } : { type: 'hello', table: tableId }));
  };
  socket.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  socket.onclose = () => {
    setConn(false);
    pending = false;
    // Come back with the same link: the server sends the whole table again.
    setTimeout(connect, Math.min(10000, 500 * 2 ** retry++));
  };
}
function onMessage(m) {
  if (m.type === 'welcome') {
    welcome = m;
    byName = new Map(m.cards.map((c) => [c.name, c]));
    log = [];
    lastMine = 0;
    $('version').textContent = m.version;
  } else if (m.type === 'seats') {
    if (welcome) welcome.seats = m.seats;
    render();
  } else if (m.type === 'state') {
    const mineBefore = last && welcome.seat !== null && last.to_act === welcome.seat && m.move > last.move;
    log.push(...m.events);
    if (mineBefore) lastMine = log.length - m.events.length;
    last = m;
    pending = false;
    $('refusal')?.remove();
    render();
    document.body.dataset.move = String(m.move);
    document.body.dataset.over = m.result ? '1' : '0';
  } else if (m.type === 'refused') {
    pending = false;
    $('status').append(el('span', { id: 'refusal' }, ` — refused: ${m.reason}`));
    if (!last) $('status').textContent = `Cannot join: ${m.reason}`;
  }
}
function play(id) {
  if (!last || pending || !socket || socket.readyState !== WebSocket.OPEN) return;
  pending = true;
  socket.send(JSON.stringify({ type: 'act', move: last.move, action: id }));
  render();
}

// ---- drawing (from the view: doc/format.md) ----------------------------------------------------------------

function cardBox(name, extra = null, count = 1) {
  const ci = byName.get(name);
  return el('div', { class: `card ${COLOURS[ci.colour]}`, 'data-card': name },
    el('div', { class: 'name' }, name, count > 1 ? el('span', { class: 'count' }, ` ×${count}`) : null),
    el('div', {}, `cost ${ci.cost} R`), extra);
}
function backBox(stack) {
  return el('div', { class: 'card back' }, `${stack ?? '?'} card`);
}
/** The cheapest legal purchase of a card from a row, from the legal actions' texts and prices. */
function priceOf(name, where) {
  const prices = last.actions.filter((a) => a.price !== null && a.text.startsWith(`buy ${name} from ${where}`)).map((a) => a.price);
  return prices.length ? el('div', { class: 'price' }, `you pay ${Math.min(...prices)} R`) : null;
}
function renderBoard(v) {
  const rows = [['upper', v.upper_row, 'Upper row'], ['lower', v.lower_row, 'Lower row (1 R cheaper)']].map(([w, cards, title]) =>
    el('div', {}, el('h2', {}, title), el('div', { class: 'row', id: `row-${w}` }, ...cards.map((c) => cardBox(c, priceOf(c, w))))));
  if (v.observatory_card) rows.push(el('div', {}, el('h2', {}, 'Drawn with the Observatory'), el('div', { class: 'row' }, cardBox(v.observatory_card))));
  const s = v.stack_sizes;
  $('board').replaceChildren(...rows, el('div', { class: 'stacks' }, `Stacks: ${PHASES.map((p) => `${p} ${s[p]}`).join(' · ')}`));
}
function renderActions() {
  const box = $('actions');
  if (last.result) { box.replaceChildren(); return; }
  const mine = welcome.seat !== null && last.to_act === welcome.seat && !pending;
  const keys = '123456789abcdefghijklmnopqrstvwxyz';
  const buttons = mine ? last.actions.map((a, k) => {
    const kind = a.text === 'pass' ? 'pass' : a.text.startsWith('buy ') ? 'buy' : 'other';
    const key = keys[k] ?? '';
    return el('button', { type: 'button', class: kind, 'data-action': a.id, 'data-key': key, onclick: () => play(a.id) },
      key ? el('kbd', {}, key) : null, a.text + (a.price !== null ? ` — ${a.price} R` : ''));
  }) : [];
  const title = welcome.seat === null ? 'Watching' : mine ? 'Your move' : pending ? 'Sent…' : 'Waiting for the others';
  box.replaceChildren(el('h2', {}, title), el('div', { class: 'buttons' }, ...buttons));
}
function seatName(s) {
  const info = welcome.seats[s];
  const who = s === welcome.seat ? 'you' : info.kind === 'bot' ? `bot (${info.bot})` : `person${info.connected ? '' : ' (away)'}`;
  return `Seat ${s}: ${who}`;
}
function renderPlayers(v) {
  const seats = v.players.map((p, s) => {
    const groups = [0, 1, 2].map((colour) => {
      const counts = new Map();
      for (const c of p.display) if (byName.get(c).colour === colour) counts.set(c, (counts.get(c) ?? 0) + 1);
      return el('div', { class: 'group', 'data-colour': COLOURS[colour] }, ...[...counts].map(([c, n]) => cardBox(c, null, n)));
    });
    const markers = v.start_player_markers.map((h, k) => (h === s ? PHASES[k] : null)).filter(Boolean).join(', ') || 'none';
    return el('div', { class: `seat${v.current_player === s && !last.result ? ' current' : ''}`, 'data-seat': s },
      el('div', { class: 'facts' }, el('strong', {}, seatName(s)),
        ` · ${p.rubles === null ? '?' : p.rubles} R · ${p.vp} VP · markers: ${markers} · hand ${p.hand_size}`,
        p.observatories_used ? ` · Observatories used ${p.observatories_used}` : ''),
      p.hand_size ? el('div', { class: 'group hand' }, el('span', { class: 'label' }, 'hand'),
        ...p.hand.map((c, k) => (c === null ? backBox(p.hand_backs[k]) : cardBox(c)))) : null,
      ...groups);
  });
  $('players').replaceChildren(el('h2', {}, 'Players'), ...seats);
}
function renderLog() {
  const recent = log.slice(lastMine);
  const older = log.slice(0, lastMine);
  const wasOpen = $('log-older')?.open ?? false;
  const parts = [el('h2', {}, welcome.seat === null ? 'Log' : 'Since your last move'),
    el('ol', { id: 'log-recent' }, ...recent.map((t) => el('li', {}, t)))];
  if (older.length) {
    const details = el('details', { id: 'log-older' }, el('summary', {}, `Earlier (${older.length})`),
      el('ol', { class: 'older' }, ...older.map((t) => el('li', {}, t))));
    details.open = wasOpen;
    parts.push(details);
  }
  $('log').replaceChildren(...parts);
  $('log-recent').scrollTop = $('log-recent').scrollHeight;
}
function renderFinal() {
  const box = $('final');
  const r = last.result;
  if (!r) { box.hidden = true; return; }
  const rows = r.scores.map((sc) => el('tr', { class: r.winners.includes(sc.seat) ? 'winner' : '', 'data-seat': sc.seat },
    el('td', {}, sc.seat === welcome.seat ? `Seat ${sc.seat} (you)` : `Seat ${sc.seat}`),
    el('td', {}, String(sc.vp_before)), el('td', {}, `${sc.aristocrat_bonus} (${sc.aristocrat_kinds} kinds)`),
    el('td', {}, `${sc.rubles_bonus} (${sc.rubles} R)`), el('td', {}, String(sc.hand_penalty)),
    el('td', { class: 'total' }, String(sc.total)), el('td', {}, String(sc.tie_break))));
  box.replaceChildren(el('h2', {}, `Final scoring (§8): ${r.winners.map((w) => (w === welcome.seat ? 'you win' : `seat ${w} wins`)).join(', ')}`),
    el('table', { id: 'final-table' }, el('tr', {}, ...['', 'VP', 'aristocrats', 'rubles', 'hand', 'total', 'tie-break'].map((h) => el('th', {}, h))), ...rows));
  box.hidden = false;
}
function render() {
  if (!welcome || !last) return;
  const v = last.view;
  const who = last.result ? 'Game over'
    : last.to_act === welcome.seat ? 'Your turn' : `Seat ${last.to_act} (${welcome.seats[last.to_act].kind}) to act`;
  $('status').textContent = `Table ${welcome.table} · move ${last.move} · Round ${v.round}${v.final_round ? ' (last)' : ''} · ${v.phase} phase · ${who}`;
  renderBoard(v);
  renderActions();
  renderPlayers(v);
  renderLog();
  renderFinal();
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
  $('create-form').elements.players.onchange = seatKinds;
  $('create-form').onsubmit = createTable;
  seatKinds();
}
document.body.dataset.ready = '1';
