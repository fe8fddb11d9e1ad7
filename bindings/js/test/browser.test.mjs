// The playable page (bindings/js/web, staged in BUILD/web) in Debian's chromium, headless, driven by playwright-core:
// whole games by clicking and by keys (2, 3 and 4 players, both editions) whose final table equals the library's
// scores for the same moves (the page's exported JSON replayed in Node through the package), undo, a click answered within 100 ms while a bot thinks, no console error anywhere. Screenshots (opening,
// mid-game, final table, phone size) are kept in BUILD/screenshots.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, wasmBuild } from './helpers.mjs';
import { serve } from './server.mjs';
import { launch, openPage, rng, saved, unavailable, waitTurn } from './browser.mjs';

const skip = unavailable() ?? false;
const shots = join(wasmBuild, 'screenshots');
mkdirSync(shots, { recursive: true });

let server;
let browser;
const errors = [];

/** A new page of the staged site; every console error or page error is recorded (and fails the run). */
const open = (query) => openPage(browser, server.url, query, errors);
/** Play to the end: each move a click (or every third a key press); buys preferred. Calls `at(moves)`. */
async function playToEnd(page, seed, at = async () => {}) {
  const random = rng(seed);
  let moves = 0;
  while (!(await waitTurn(page))) {
    const buttons = await page.$$('#actions button');
    const buys = await page.$$('#actions button.buy');
    const pool = buys.length && random() < 0.7 ? buys : buttons;
    const button = pool[Math.floor(random() * pool.length)];
    const key = await button.getAttribute('data-key');
    if (key && moves % 3 === 2) await page.keyboard.press(key);
    else await button.click();
    moves++;
    await at(moves);
  }
  return moves;
}
/** The page's export (a download): {format, setup, actions, replay}. */
async function exported(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-export')]);
  return JSON.parse(readFileSync(await download.path(), 'utf8'));
}

test.before(async () => {
  if (skip) return;
  server = await serve(join(wasmBuild, 'web'));
  browser = await launch();
});
test.after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

const games = [
  { players: 2, edition: 1, seat: 0 },
  { players: 3, edition: 2, seat: 1 },
  { players: 4, edition: 1, seat: 3 },
  { players: 4, edition: 2, seat: 0 },
];
for (const [k, g] of games.entries()) {
  test(`a whole game by clicking: ${g.players} players, edition ${g.edition}, seat ${g.seat}; the final table `
    + 'equals the library\'s scores for the same moves', { skip }, async () => {
    const page = await open(`players=${g.players}&edition=${g.edition}&seat=${g.seat}&bot=random&seed=${77 + k}&delay=0`);
    if (k === 0) {
      await waitTurn(page);
      await page.screenshot({ path: join(shots, 'opening.png') });
    }
    await playToEnd(page, 1000 + k, async (moves) => {
      if (k === 2 && moves === 25) {
        await page.screenshot({ path: join(shots, 'mid-game.png') });
        await page.screenshot({ path: join(shots, 'mid-game-full.png'), fullPage: true });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: join(shots, 'phone.png') });
        await page.screenshot({ path: join(shots, 'phone-full.png'), fullPage: true });
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    });
    await page.locator('#final').scrollIntoViewIfNeeded();
    if (k === 2) await page.screenshot({ path: join(shots, 'final-table.png') });
    const shown = (await page.$$eval('#final-table td.total', (tds) => tds.map((td) => Number(td.textContent))));
    const data = await exported(page);
    assert.equal(data.setup.options.players, g.players);
    const S = await load();
    const replayed = S.State.fromReplay(JSON.stringify(data.replay));
    assert.ok(replayed.isTerminal);
    assert.deepEqual(replayed.history(), data.actions);
    assert.deepEqual(shown, replayed.scores().map((s) => s.total));
    const winners = await page.$$eval('#final-table tr.winner', (trs) => trs.map((tr) => Number(tr.dataset.seat)));
    assert.deepEqual(winners, replayed.winners());
    replayed.free();
    await page.close();
  });
}

test('undo takes back the person\'s last move (and the bots\' after it)', { skip }, async () => {
  const page = await open('players=3&seat=0&bot=greedy&seed=9&delay=0');
  await playToEnd(page, 5, async (moves) => { if (moves === 6) throw new Error('stop'); }).catch((e) => {
    if (e.message !== 'stop') throw e;
  });
  await waitTurn(page);
  const before = await saved(page);
  await page.click('#btn-undo');
  await waitTurn(page);
  const after = await saved(page);
  assert.ok(after.actions.length < before.actions.length);
  assert.deepEqual(after.actions, before.actions.slice(0, after.actions.length));
  const S = await load();
  const game = new S.Game({ players: 3 });
  const st = game.newState(9n);
  for (const id of after.actions) st.apply(id);
  assert.equal(st.currentPlayer, 0, 'after undo it is the person\'s turn again');
  assert.ok(st.legalActionIds().length > 1, 'undo goes back to a choice');
  st.free();
  game.free();
  await page.close();
});

test('the page answers a click within 100 ms while a bot thinks (the bots run in a Web Worker)', { skip }, async () => {
  // Seat 2 starts with this seed (markers of §3.3): the person moves first, then a bot thinks for a long time.
  const page = await open('players=4&seat=2&bot=ismcts&strength=20000&seed=3&delay=0');
  await waitTurn(page);
  await page.locator('#actions button').first().click();
  await page.waitForSelector('#status.thinking');
  await page.evaluate(() => {
    window.latencies = [];
    document.addEventListener('click', (ev) => {
      const t0 = ev.timeStamp;
      requestAnimationFrame(() => window.latencies.push(performance.now() - t0));
    }, true);
  });
  for (let k = 0; k < 5; k++) {
    await page.click('h1');
    await page.waitForTimeout(30);
  }
  await page.waitForFunction(() => window.latencies.length === 5);
  const latencies = await page.evaluate(() => window.latencies);
  assert.ok(await page.isVisible('#status.thinking'), 'the bot was still thinking');
  assert.ok(Math.max(...latencies) < 100, `click to next frame: ${latencies.map((x) => x.toFixed(1)).join(', ')} ms`);
  await page.close();
});

test('no console error or page error in any page', { skip }, () => {
  assert.deepEqual(errors, []);
});
