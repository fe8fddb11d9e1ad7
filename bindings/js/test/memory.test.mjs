// Memory over many games (issue 31, item 7): 50,000 games whose objects are only dropped, as doc/javascript.md says
// a program that drops objects must run (it lets the event loop run, so the FinalizationRegistry frees them), then
// 10,000 games freed with free(): the wasm memory and the JavaScript heap stay bounded. Without freeing and without
// the event loop, 74,628 such games fill the 2 GiB wasm memory (doc/javascript.md, "Memory").
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from './helpers.mjs';

const S = await load();
const MiB = 2 ** 20;
const GAMES = 50000;

/** One game to its end: a new game, state and bot each time (the most C objects per game). */
function playOne(k) {
  const game = new S.Game({ players: 2 + (k % 3) });
  const state = game.newState(k);
  const bot = new S.Bot(game, 'random', k);
  while (!state.isTerminal) state.apply(bot.choose(state));
  return [game, state, bot];
}

test(`${GAMES} games dropped, the event loop running every 100 games: bounded wasm memory and JS heap`, async () => {
  const live = S.liveObjects();
  let peakLive = 0;
  let peakHeap = 0;
  for (let k = 0; k < GAMES; k++) {
    playOne(k); // dropped: left to the FinalizationRegistry
    if (k % 100 === 99) {
      await new Promise((resolve) => setImmediate(resolve)); // the documented way: let the event loop run
      peakLive = Math.max(peakLive, S.liveObjects() - live);
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
  }
  const wasm = S.wasmMemoryBytes();
  // 50,000 games hold 150,000 C objects (about 1.5 GB of wasm memory if none were freed); the collector frees
  // them in batches of thousands, so the memory peaks at a few hundred MB and stays there (it cannot shrink)
  assert.ok(peakLive < 60000, `${peakLive} objects alive at once`);
  assert.ok(wasm < 640 * MiB, `wasm memory ${wasm / MiB} MiB`);
  assert.ok(peakHeap < 256 * MiB, `JS heap ${peakHeap / MiB} MiB`);
  console.log(`# dropped: ${peakLive} objects alive at most, wasm memory ${wasm / MiB} MiB, ` +
    `JS heap at most ${(peakHeap / MiB).toFixed(1)} MiB`);
  // everything dropped is freed once the collector has run
  for (let k = 0; k < 20 && S.liveObjects() > live; k++) {
    if (typeof gc === 'function') gc(); // eslint-disable-line no-undef
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(S.liveObjects() - live < 300, `${S.liveObjects() - live} objects left`);
  // and the memory is reused: 10,000 games more, freed this time, do not grow it
  for (let k = 0; k < 10000; k++) for (const x of playOne(k)) x.free();
  assert.equal(S.liveObjects(), live);
  assert.equal(S.wasmMemoryBytes(), wasm, 'freed games grew the wasm memory');
});
