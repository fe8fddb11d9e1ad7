// The online game server (server/stpete_server, doc/server.md) for the browser tests: python3 -m stpete_server on a
// free loopback port with its own database, on the native build's library (-Dnative_build, as the same-games test),
// and chromium launched for it. `skip` says why it cannot run here (false when it can).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CHROMIUM, unavailable } from './browser.mjs';

export const source = process.env.STPETE_SOURCE;
const native = process.env.STPETE_NATIVE_BUILD ?? '';
export const python = '/usr/bin/python3';
const library = join(native, 'libstpete.so');
export const replayTool = join(native, 'examples', 'stpete-replay');
export const skip = unavailable()
  ?? (native === '' ? 'no native build (-Dnative_build)' : null)
  ?? (!existsSync(library) || !existsSync(replayTool) ? `no ${library} or ${replayTool}` : null)
  ?? (spawnSync(python, ['-c', 'import aiohttp']).status !== 0 ? `no aiohttp for ${python}` : null)
  ?? false;
export const env = { ...process.env, PYTHONPATH: `${join(source, 'bindings', 'python')}:${join(source, 'server')}`,
  STPETE_LIBRARY: library, PYTHONDONTWRITEBYTECODE: '1' };

/** python3 -m stpete_server on a free port with a database in a new folder, and chromium: {url, dir, browser,
 * stop()}. */
export async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), 'stpete-server-'));
  const child = spawn(python, ['-m', 'stpete_server', '--port', '0', '--db', join(dir, 'server.sqlite'),
    '--bot-delay', '0.02', '--bot-workers', '1', '--log-level', 'WARNING'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const m = /listening on (http:\/\/\S+?)\/?$/.exec(line);
      if (m) resolve(m[1]); else reject(new Error(`server: ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`the server ended (${code})`)));
  });
  const require = createRequire(join(source, 'bindings', 'js', 'package.json'));
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'] });
  const stop = async () => {
    await browser.close();
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await ended;
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, dir, browser, stop };
}

/** A page of `context` at `address`, ready; console and page errors pushed to `errors`. */
export async function openPage(context, address, errors) {
  const p = await context.newPage();
  p.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  p.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  await p.goto(address);
  await p.waitForSelector('body[data-ready="1"]');
  return p;
}

/** Create a table in the lobby by clicks: players, which seats are people (the others bots), the bots, the rule
 * options (checkboxes and lists of the form, by option name). Returns {table, links (the people's), watch}. */
export async function createTable(lobby, { players, people, bot = 'random', options = {} }) {
  await lobby.selectOption('select[name="players"]', String(players));
  for (let s = 0; s < players; s++) await lobby.selectOption(`select[name="seat${s}"]`, people.includes(s) ? 'human' : 'bot');
  await lobby.selectOption('select[name="bot"]', bot);
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'boolean') await lobby.setChecked(`input[name="${name}"]`, value);
    else await lobby.selectOption(`select[name="${name}"]`, String(value));
  }
  await lobby.click('#btn-create');
  await lobby.waitForSelector('#links:not([hidden]) .seat-link');
  return {
    table: await lobby.evaluate(() => document.body.dataset.table),
    links: await lobby.$$eval('.seat-link', (as) => as.map((a) => a.href)),
    watch: await lobby.$eval('.spectate-link', (a) => a.href),
  };
}
