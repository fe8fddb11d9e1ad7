// The online game server's page comes back by itself when its server process dies (issue 44, doc/server.md
// "Several processes": "the page reconnects by itself ... to the same address, which is now served by the others").
// In Debian's chromium (playwright-core): a person plays a table of two (the other seat a random bot) by clicks;
// after 10 moves the server process is killed with SIGKILL, and a new process is started on the same database and
// the same address (what the other processes behind one address are to the page). The page, untouched, shows
// 'offline', reconnects by itself, receives the whole table and the person plays on to the end. The stored record
// (GET /api/tables/ID/replay) has as many moves as the page's last position: no acknowledged move was lost, none
// stored twice. Needs the native build (-Dnative_build) for the server's library; skipped with the reason otherwise.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { launch, unavailable } from './browser.mjs';

const source = process.env.STPETE_SOURCE;
const library = join(process.env.STPETE_NATIVE_BUILD ?? '', 'libstpete.so');
const python = '/usr/bin/python3';
const skip = unavailable()
  ?? (!process.env.STPETE_NATIVE_BUILD || !existsSync(library) ? `no native build's ${library} (-Dnative_build)` : null)
  ?? (spawnSync(python, ['-c', 'import aiohttp']).status !== 0 ? `no aiohttp for ${python}` : null)
  ?? false;

/** A server process on database `db` at `port` (0: a free one): {child, port}, once it listens. */
function serve(db, port) {
  const child = spawn(python, ['-m', 'stpete_server', '--db', db, '--port', String(port), '--bot-delay', '0.02',
    '--bot-workers', '1', '--log-level', 'ERROR'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PYTHONPATH: [join(source, 'bindings', 'python'), join(source, 'server')].join(':'),
      STPETE_LIBRARY: library, PYTHONDONTWRITEBYTECODE: '1' },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the server ended (${code ?? signal})`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const listening = /listening on http:\/\/[^/]*:(\d+)/.exec(line);
      if (listening) resolve({ child, port: Number(listening[1]) });
      else reject(new Error(`the server said: ${line}`));
    });
  });
}
function ended(child) {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve));
}
/** The page's position number (body[data-move]). */
const moveOf = (p) => p.evaluate(() => Number(document.body.dataset.move ?? -1));
/** Click one of the person's buttons whenever there are some, until the page's position reaches `until` or the
 * game is over. */
async function playUntil(p, until) {
  for (;;) {
    await p.waitForFunction(() => document.body.dataset.over === '1'
      || document.querySelector('#actions button') !== null, null, { timeout: 120000 });
    if (await p.evaluate(() => document.body.dataset.over === '1') || await moveOf(p) >= until) return;
    try {
      await p.click('#actions button >> nth=0', { timeout: 2000 });
    } catch { /* re-rendered meanwhile (a new state arrived): look again */ }
  }
}

test('the page comes back by itself when its server process is killed', { skip, timeout: 240000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stpete-reconnect-'));
  const db = join(dir, 'server.sqlite');
  const servers = [];
  let browser;
  try {
    servers.push(await serve(db, 0));
    const { port } = servers[0];
    const base = `http://127.0.0.1:${port}`;
    const created = await fetch(`${base}/api/tables`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ players: 2, seats: ['human', 'bot'], bot: 'random' }) });
    assert.equal(created.status, 200);
    const { table, seats } = await created.json();

    browser = await launch();
    const p = await browser.context.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(`${base}/#t=${table}&k=${seats[0].token}`);
    await p.waitForSelector('body[data-ready="1"]');
    await p.waitForSelector('#conn.online');
    await playUntil(p, 10);
    const before = await moveOf(p);
    assert.ok(before >= 10, `position ${before}`);

    servers[0].child.kill('SIGKILL');
    await ended(servers[0].child);
    await p.waitForSelector('#conn.offline', { timeout: 10000 });
    servers.push(await serve(db, port)); // the same address, served by another process
    await p.waitForSelector('#conn.online', { timeout: 30000 }); // the page's own retry (at most 10 s apart)
    await p.waitForFunction((n) => Number(document.body.dataset.move) >= n, before, { timeout: 30000 });
    await playUntil(p, Infinity);
    const last = await moveOf(p);

    const record = await (await fetch(`${base}/api/tables/${table}/replay`)).json();
    assert.equal(record.actions.length, last, 'the stored moves are the page\'s positions');
    assert.deepEqual(errors, []);
  } finally {
    if (browser) await browser.close();
    for (const { child } of servers) {
      child.kill('SIGTERM');
      await ended(child);
    }
    rmSync(dir, { recursive: true, force: true });
  }
});
