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
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CHROMIUM, unavailable } from './browser.mjs';

const source = process.env.STPETE_SOURCE;
const native = process.env.STPETE_NATIVE_BUILD ?? '';
const python = '/usr/bin/python3';
const library = join(native, 'libstpete.so');
const replayTool = join(native, 'examples', 'stpete-replay');
const skip = unavailable()
  ?? (native === '' ? 'no native build (-Dnative_build)' : null)
  ?? (!existsSync(library) || !existsSync(replayTool) ? `no ${library} or ${replayTool}` : null)
  ?? (spawnSync(python, ['-c', 'import aiohttp']).status !== 0 ? `no aiohttp for ${python}` : null)
  ?? false;

const env = { ...process.env, PYTHONPATH: `${join(source, 'bindings', 'python')}:${join(source, 'server')}`,
  STPETE_LIBRARY: library, PYTHONDONTWRITEBYTECODE: '1' };
let dir;
let server;
let url;
let browser;
const errors = [];

/** python3 -m stpete_server on a free port; resolves when it listens. */
function startServer(db) {
  const child = spawn(python, ['-m', 'stpete_server', '--port', '0', '--db', db, '--bot-delay', '0.02',
    '--bot-workers', '1', '--log-level', 'WARNING'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const m = /listening on (http:\/\/\S+?)\/?$/.exec(line);
      if (m) resolve({ child, url: m[1] }); else reject(new Error(`server: ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`the server ended (${code})`)));
  });
}
async function page(context, address) {
  const p = await context.newPage();
  p.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  p.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  await p.goto(address);
  await p.waitForSelector('body[data-ready="1"]');
  return p;
}
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
      }
    } catch { /* re-rendered meanwhile (a new state arrived): look again */ }
  }
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
  dir = mkdtempSync(join(tmpdir(), 'stpete-server-'));
  ({ child: server, url } = await startServer(join(dir, 'server.sqlite')));
  const require = createRequire(join(source, 'bindings', 'js', 'package.json'));
  const { chromium } = require('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'] });
});
test.after(async () => {
  if (browser) await browser.close();
  if (server) {
    const ended = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await ended;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('two people in two browsers and a bot play a whole game through the server', { skip }, async () => {
  const [ctxA, ctxB, ctxC] = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
  // the lobby: 3 players, seats 0 and 1 people, seat 2 a greedy bot, second edition
  const lobby = await page(ctxA, `${url}/`);
  await lobby.selectOption('select[name="players"]', '3');
  await lobby.selectOption('select[name="seat0"]', 'human');
  await lobby.selectOption('select[name="seat1"]', 'human');
  await lobby.selectOption('select[name="seat2"]', 'bot');
  await lobby.selectOption('select[name="edition"]', '2');
  await lobby.selectOption('select[name="bot"]', 'greedy');
  await lobby.click('#btn-create');
  await lobby.waitForSelector('#links:not([hidden]) .seat-link');
  const links = await lobby.$$eval('.seat-link', (as) => as.map((a) => a.href));
  const watch = await lobby.$eval('.spectate-link', (a) => a.href);
  const table = await lobby.evaluate(() => document.body.dataset.table);
  assert.equal(links.length, 2);
  // each person opens their own link in their own browser context
  const a = await page(ctxA, links[0]);
  const b = await page(ctxB, links[1]);
  const spectator = await page(ctxC, watch);
  const clicks = await Promise.all([playByClicks(a, 1), playByClicks(b, 2, 15)]);
  assert.ok(clicks[0] > 10 && clicks[1] > 10, `clicks ${clicks}`);
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
  await lobby.selectOption('select[name="players"]', '5'); // "5 (New Society)": the expansion without its box
  for (let s = 0; s < 5; s++) await lobby.selectOption(`select[name="seat${s}"]`, 'human');
  await lobby.click('#btn-create');
  await lobby.waitForSelector('#links:not([hidden]) .seat-link');
  const links = await lobby.$$eval('.seat-link', (as) => as.map((a) => a.href));
  const table = await lobby.evaluate(() => document.body.dataset.table);
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
