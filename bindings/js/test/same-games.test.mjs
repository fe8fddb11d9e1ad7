// Same games everywhere: stpete-selfplay compiled to wasm (under Node) prints the same summary and digest of every
// action and final score as the native build, for many seeds, both editions, 2-4 players, random and greedy bots;
// and the same games driven from JavaScript through the package give the same digest.
import test from 'node:test';
import assert from 'node:assert/strict';
import { wasmSelfplay, nativeSelfplay, hasNative, load, DIGEST_INIT, digestAdd } from './helpers.mjs';

const configs = [];
for (const players of [2, 3, 4]) {
  for (const edition of [1, 2]) configs.push({ players, edition });
}
const GAMES = 40;
const argsOf = ({ players, edition }, bots, games = GAMES) =>
  ['--players', String(players), '--edition', String(edition), '--seed', String(1000 * players + 100 * edition),
    '--games', String(games), '--bots', bots, '--quiet'];
const digestOf = (out) => /^digest: ([0-9a-f]{16})$/m.exec(out)?.[1];

for (const cfg of configs) {
  for (const bots of ['random', 'greedy,random']) {
    test(`wasm = native: ${cfg.players} players, edition ${cfg.edition}, ${GAMES} games, bots ${bots}`,
      { skip: hasNative ? false : 'no native build (meson option native_build)' }, () => {
        const wasm = wasmSelfplay(argsOf(cfg, bots));
        assert.ok(digestOf(wasm), `no digest in: ${wasm}`);
        assert.equal(wasm, nativeSelfplay(argsOf(cfg, bots)));
      });
  }
}

test('games driven from JavaScript through the package: the digest of stpete-selfplay --bots random', async () => {
  const S = await load();
  for (const cfg of configs) {
    const game = new S.Game({ players: cfg.players, edition: cfg.edition });
    const bot = new S.Bot(game, 'random');
    const state = game.newState();
    const seed0 = 1000 * cfg.players + 100 * cfg.edition;
    let h = DIGEST_INIT;
    for (let g = 0; g < 10; g++) {
      const seed = BigInt(seed0 + g);
      state.reset(seed);
      bot.setSeed(seed ^ 0xB0751E5n);
      while (!state.isTerminal) {
        const id = bot.choose(state);
        state.apply(id);
        h = digestAdd(h, id);
      }
      for (const s of state.scores()) h = digestAdd(h, s.total);
    }
    const expected = digestOf(wasmSelfplay(argsOf(cfg, 'random', 10)));
    assert.equal(h.toString(16).padStart(16, '0'), expected, `${cfg.players} players, edition ${cfg.edition}`);
    state.free();
    bot.free();
    game.free();
  }
});
