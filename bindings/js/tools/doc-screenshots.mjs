// The documentation's pictures of the page (doc/images): the local page in the middle of a 4-player game at 1280x800
// and at the end of a 3-player game at 390x844, the online page (python3 -m stpete_server) of a seat in the middle
// of a 3-player table at 1280x800 and of a 5-player New Society table at 390x844. The local games have fixed seeds
// and choices (a run draws the same pictures); the server draws its tables' seeds.
//
//   node bindings/js/tools/doc-screenshots.mjs WASM_BUILD NATIVE_BUILD OUT_DIR
//
// WASM_BUILD holds the staged page (WASM_BUILD/web), NATIVE_BUILD libstpete.so for the server; needs Debian's
// chromium and python3 with aiohttp, and playwright-core (npm ci in bindings/js). Writes web-desktop.png,
// web-phone.png, server-desktop.png and server-phone.png into OUT_DIR.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { serve } from '../test/server.mjs';

const [wasmBuild, nativeBuild, out] = process.argv.slice(2).map((p) => resolve(p));
if (!out) {
  console.error('usage: node doc-screenshots.mjs WASM_BUILD NATIVE_BUILD OUT_DIR');
  process.exit(2);
}
const source = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(join(source, 'bindings', 'js', 'package.json'));
const { chromium } = require('playwright-core');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const errors = [];

function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 2 ** 32; };
}
async function newPage(context, address) {
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  await page.goto(address);
  await page.waitForSelector('body[data-ready="1"]');
  return page;
}
/** Click the person's moves (buys preferred) until `moves` of them and a turn with at least 4 choices, or the
 * end. */
async function play(page, seed, moves = Infinity) {
  const random = rng(seed);
  for (let made = 0; ;) {
    await page.waitForFunction(() => document.body.dataset.over === '1' || document.body.dataset.turn === 'over'
      || document.querySelector('#actions button') !== null, null, { timeout: 120000 });
    if (await page.evaluate(() => document.body.dataset.over === '1' || document.body.dataset.turn === 'over')) return;
    if (made >= moves && (await page.$$('#actions button')).length >= 4) return;
    const buys = await page.$$('#actions button.buy');
    const pool = buys.length && random() < 0.8 ? buys : await page.$$('#actions button');
    try {
      await pool[Math.floor(random() * pool.length)].click({ timeout: 2000 });
      made++;
    } catch { /* drawn again meanwhile */ }
    await page.waitForTimeout(150);
  }
}
/** Wait until the bots are done and the person may act (or the game is over), then take the picture. */
async function shoot(page, file) {
  await page.waitForFunction(() => document.body.dataset.over === '1' || document.body.dataset.turn === 'over'
    || document.querySelector('#actions button') !== null, null, { timeout: 120000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, file) });
  console.log(join(out, file));
}

const browser = await chromium.launch({ executablePath: process.env.STPETE_CHROMIUM ?? '/usr/bin/chromium',
  headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
const site = await serve(join(wasmBuild, 'web'));
const db = mkdtempSync(join(tmpdir(), 'stpete-shots-'));
const server = spawn('/usr/bin/python3', ['-m', 'stpete_server', '--port', '0', '--db', join(db, 'server.sqlite'),
  '--bot-delay', '0', '--bot-workers', '1', '--log-level', 'WARNING'], { stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, PYTHONPATH: `${join(source, 'bindings', 'python')}:${join(source, 'server')}`,
    STPETE_LIBRARY: join(nativeBuild, 'libstpete.so'), PYTHONDONTWRITEBYTECODE: '1' } });
try {
  const url = await new Promise((ok, fail) => {
    createInterface({ input: server.stdout }).once('line', (line) => {
      const m = /listening on (http:\/\/\S+?)\/?$/.exec(line);
      if (m) ok(m[1]); else fail(new Error(`server: ${line}`));
    });
    server.once('exit', (code) => fail(new Error(`the server ended (${code})`)));
  });

  // the local page: the middle of a 4-player game at desktop size, the end of a 3-player game at phone size
  const local = await browser.newContext({ viewport: DESKTOP });
  const middle = await newPage(local, `${site.url}index.html?players=4&seat=0&bot=greedy&seed=5&delay=0`);
  await play(middle, 5, 14);
  await shoot(middle, 'web-desktop.png');
  await local.close();
  const phone = await browser.newContext({ viewport: PHONE });
  const end = await newPage(phone, `${site.url}index.html?players=3&seat=0&bot=greedy&seed=9&delay=0`);
  await play(end, 9);
  await shoot(end, 'web-phone.png');
  await phone.close();

  // the online page: a seat of a 3-player table (two bots) at desktop size; a seat of a 5-player New Society table
  // (four bots) at phone size
  for (const [viewport, players, moves, file] of [[DESKTOP, 3, 10, 'server-desktop.png'], [PHONE, 5, 8, 'server-phone.png']]) {
    const context = await browser.newContext({ viewport });
    const lobby = await newPage(context, `${url}/`);
    await lobby.selectOption('select[name="players"]', String(players));
    for (let s = 0; s < players; s++) await lobby.selectOption(`select[name="seat${s}"]`, s === 0 ? 'human' : 'bot');
    await lobby.selectOption('#create-form select[name="bot"]', 'greedy');
    await lobby.click('#btn-create');
    await lobby.waitForSelector('#links:not([hidden]) .seat-link');
    const link = await lobby.$eval('.seat-link', (a) => a.href);
    const seat = await newPage(context, link);
    await play(seat, players, moves);
    await shoot(seat, file);
    await context.close();
  }
} finally {
  await browser.close();
  await site.close();
  const ended = new Promise((ok) => server.once('exit', ok));
  server.kill('SIGTERM');
  await ended;
  rmSync(db, { recursive: true, force: true });
}
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
