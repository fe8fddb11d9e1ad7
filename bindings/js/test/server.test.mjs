// The online game server (server/stpete_server, doc/server.md) in Debian's chromium, driven by playwright-core:
// a table of three created on the lobby page by clicks, two people in two browser contexts (each with its own
// seat link) and one bot play a whole game, each person by clicks (one reloads the page midway and continues); a
// spectator watches in a third context. The final table on every page equals the stored replay record (python3 -m
// stpete_server.export, read from the server's database) replayed by the native stpete-replay; no console error
// anywhere. Then a 5-player New Society table (§12): five people by clicks at phone size, its opening's 10 board
// cards drawn, the same final table (screenshots in BUILD/screenshots). Needs the native build (-Dnative_build, as the same-games test) for the server's library and
// stpete-replay; skipped with the reason otherwise.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTable, env, openPage, python, replayTool, skip, startServer } from './gameserver.mjs';

let server;
let url;
let dir;
let browser;
const errors = [];
const page = (context, address) => openPage(context, address, errors);
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 2 ** 32; };
}
/** A person: wait for the buttons of a turn (or the end), click one (buys preferred); the number of clicks. After
 * `reloadAt` clicks the person closes the page and opens the same link again (a browser closed and come back). */
async function playByClicks(p, seed, reloadAt = -1) {
  const random = rng(seed);
  let clicks = 0;
  for (;;) {
    await checkWaiting(p);
    await p.waitForFunction(() => document.body.dataset.over === '1'
      || document.querySelector('#actions button') !== null, null, { timeout: 120000 });
    if (await p.evaluate(() => document.body.dataset.over === '1')) return clicks;
    const buttons = await p.$$('#actions button');
    const buys = await p.$$('#actions button.buy');
    const pool = buys.length && random() < 0.7 ? buys : buttons;
    try {
      await pool[Math.floor(random() * pool.length)].click({ timeout: 2000 });
      clicks++;
      if (clicks === reloadAt) {
        const before = await p.evaluate(() => Number(document.body.dataset.move));
        await p.reload();
        await p.waitForSelector('body[data-ready="1"]');
        await p.waitForFunction((n) => Number(document.body.dataset.move) >= n, before);
        await checkSinceLastMove(p);
      }
    } catch { /* re-rendered meanwhile (a new state arrived): look again */ }
  }
}
/** The status line names who the table waits for (issue 41): the person's own turn, another person's seat, the
 * bots, a spectator's watching; read in one go with the seat to act the page draws. */
/** A spectator's status line until the end. */
async function watchWaiting(p) {
  while (!(await p.evaluate(() => document.body.dataset.over === '1'))) {
    await checkWaiting(p);
    await p.waitForTimeout(100);
  }
  return 0;
}
async function checkWaiting(p) {
  const [toAct, line, seat] = await p.evaluate(() => [document.body.dataset.toAct,
    document.getElementById('status-line')?.textContent ?? '', document.getElementById('table-name').textContent]);
  if (toAct === undefined || toAct === '' || /Game over|Sent/.test(line)) return;
  const mine = /seat (\d+)$/.exec(seat)?.[1];
  if (mine === undefined) assert.match(line, new RegExp(`You are watching: seat ${toAct} \\((person|bot, [^()]+)\\) to act`), line);
  else if (mine === toAct) assert.match(line, /Your turn/, line);
  else assert.match(line, new RegExp(`Waiting for seat ${toAct} \\(person(, away)?\\)|Waiting for the bots: seat ${toAct} \\(bot, [^()]+\\) is thinking`), line);
}
/** After the same link is opened again, "Since your last move" starts at the person's last move, as before
 * (issue 45, item 2): its first line is the person's own, and the game before it is folded in "Earlier". */
async function checkSinceLastMove(p) {
  const [first, earlier, recent] = await p.evaluate(() => [document.querySelector('#log-recent li')?.className ?? '',
    document.getElementById('log-older') !== null, document.querySelectorAll('#log-recent li').length]);
  assert.equal(first, 'mine', 'the first line since the last move is the person\'s own');
  assert.ok(earlier, 'the game before the person\'s last move is under "Earlier"');
  assert.ok(recent < 60, `${recent} lines since the person's last move`);
}
/** The final table of a page: per seat [vp, aristocrats, rubles, hand, total, tie-break] and the winners. */
async function finalTable(p) {
  await p.waitForSelector('#final-table');
  return p.evaluate(() => ({
    rows: [...document.querySelectorAll('#final-table tr[data-seat]')].map((tr) => [...tr.children].slice(1).map((td) => td.textContent)),
    winners: [...document.querySelectorAll('#final-table tr.winner')].map((tr) => Number(tr.dataset.seat)),
  }));
}
/** The same from stpete-replay's log of the stored record. */
function replayed(table) {
  const record = spawnSync(python, ['-m', 'stpete_server.export', '--db', join(dir, 'server.sqlite'), '--', table],
    { env, encoding: 'utf8' });
  assert.equal(record.status, 0, record.stderr);
  const out = spawnSync(replayTool, ['-'], { input: record.stdout, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const rows = [];
  const re = /^final scoring, seat (\d+): (-?\d+) VP \+ (\d+) \(aristocrats: (\d+) different\) \+ (\d+) \((\d+) R\) ([+-]\d+) \((\d+) hand cards?\) = (-?\d+) VP, tie-break (\d+)$/gm;
  const plural = (n, word) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
  for (const m of out.stdout.matchAll(re)) {
    // as render.js writes them: VP, +aristocrat bonus and kinds, +rubles bonus and rubles, hand penalty and cards
    rows[Number(m[1])] = [m[2], `+${m[3]} ${plural(m[4], 'kind')}`, `+${m[5]} ${m[6]} R`,
      `${Number(m[7])} ${plural(m[8], 'card')}`, m[9], m[10]];
  }
  const over = /Game over after round \d+: (?:seat (\d+) wins|seats ([\d, and]+) share the win)/.exec(out.stdout);
  assert.ok(over, out.stdout.slice(-500));
  const winners = over[1] !== undefined ? [Number(over[1])] : over[2].match(/\d+/g).map(Number);
  return { rows, winners, record: JSON.parse(record.stdout) };
}

test.before(async () => {
  if (skip) return;
  server = await startServer();
  ({ url, dir, browser } = server);
});
test.after(async () => {
  if (server) await server.stop();
});

test('two people in two browsers and a bot play a whole game through the server', { skip }, async () => {
  const [ctxA, ctxB, ctxC] = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
  // the lobby: 3 players, seats 0 and 1 people, seat 2 a greedy bot, second edition
  const lobby = await page(ctxA, `${url}/`);
  const { table, links, watch } = await createTable(lobby, { players: 3, people: [0, 1], bot: 'greedy',
    options: { edition: 2 } });
  assert.equal(links.length, 2);
  // each person opens their own link in their own browser context
  const a = await page(ctxA, links[0]);
  const b = await page(ctxB, links[1]);
  const spectator = await page(ctxC, watch);
  // the spectator's page (issue 45, item 5): no move section and no pass box, the board where they would be, the
  // log since every seat's last move, the seats' labels once
  await spectator.waitForSelector('#board .row');
  const look = await spectator.evaluate(() => ({
    actions: document.getElementById('actions').hidden, box: document.getElementById('autopass'),
    heading: document.querySelector('#log h2').textContent,
    gap: document.getElementById('board').getBoundingClientRect().top - document.getElementById('status').getBoundingClientRect().bottom,
    labels: [...document.querySelectorAll('#players .who')].map((w) => w.textContent),
  }));
  assert.deepEqual([look.actions, look.box, look.heading], [true, null, 'Since every seat\'s last move']);
  assert.ok(look.gap < 30, `${look.gap} px between the status line and the board`);
  assert.match(look.labels.join(' | '), /^Seat 0: person(, away)? \| Seat 1: person(, away)? \| Seat 2: bot, greedy$/);
  const clicks = await Promise.all([playByClicks(a, 1), playByClicks(b, 2, 15), watchWaiting(spectator)]);
  assert.ok(clicks[0] > 10 && clicks[1] > 10, `clicks ${clicks.slice(0, 2)}`);
  await spectator.waitForFunction(() => document.body.dataset.over === '1', null, { timeout: 60000 });
  const expected = replayed(table);
  assert.equal(expected.record.actions.length > 50, true);
  for (const p of [a, b, spectator]) {
    const shown = await finalTable(p);
    assert.deepEqual(shown.rows, expected.rows);
    assert.deepEqual(shown.winners, expected.winners);
    assert.equal(await p.evaluate(() => Number(document.body.dataset.move)), expected.record.actions.length);
  }
  assert.deepEqual(errors, []);
  await Promise.all([ctxA.close(), ctxB.close(), ctxC.close()]);
});

test('a 5-player New Society table: five people, at phone size', { skip }, async () => {
  const shots = join(process.env.STPETE_WASM_BUILD ?? dir, 'screenshots');
  mkdirSync(shots, { recursive: true });
  const contexts = await Promise.all([0, 1, 2, 3, 4].map(() => browser.newContext({ viewport: { width: 390, height: 844 } })));
  const lobby = await page(contexts[0], `${url}/`);
  // "5 (the New Society)": the expansion without its box (as in the local page's dialog, js-browser-forms)
  const { table, links } = await createTable(lobby, { players: 5, people: [0, 1, 2, 3, 4] });
  assert.equal(links.length, 5);
  const pages = await Promise.all(links.map((link, s) => page(contexts[s], link)));
  // the opening (§12.4.1, R20), before anyone moves: ten cards on the board
  await pages[0].waitForSelector('#row-upper .card');
  const board = await pages[0].$$eval('#board .row .card', (cards) => cards.map((c) => c.dataset.card));
  assert.equal(board.length, 10, board.join(', '));
  await pages[0].screenshot({ path: join(shots, 'server-new-society-phone-opening.png') });
  const clicks = await Promise.all(pages.map((p, s) => playByClicks(p, 10 + s)));
  assert.ok(clicks.every((n) => n > 5), `clicks ${clicks}`);
  const expected = replayed(table);
  assert.equal(expected.record.options.new_society, true);
  for (const p of pages) {
    const shown = await finalTable(p);
    assert.deepEqual(shown.rows, expected.rows);
    assert.deepEqual(shown.winners, expected.winners);
  }
  await pages[0].screenshot({ path: join(shots, 'server-new-society-phone-end.png') });
  assert.deepEqual(errors, []);
  await Promise.all(contexts.map((c) => c.close()));
});
