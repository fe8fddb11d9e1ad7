// Same games everywhere: stpete-selfplay compiled to wasm (under Node) prints the same summary and digest of every
// action and final score as the native build, for many seeds, both editions, 2-4 players, and the New Society
// (§12) at 2-5 players, random and greedy bots, and the learned bot (its network computes in integers: issue 43);
// and the same games driven from JavaScript through the package give the same digest.
import test from 'node:test';
import assert from 'node:assert/strict';
import { wasmSelfplay, nativeSelfplay, hasNative, load, DIGEST_INIT, digestAdd } from './helpers.mjs';

const configs = [];
for (const players of [2, 3, 4]) {
  for (const edition of [1, 2]) configs.push({ players, edition, newSociety: false });
}
for (const players of [2, 3, 4, 5]) configs.push({ players, edition: 1, newSociety: true });
const GAMES = 40;
const seedOf = ({ players, edition, newSociety }) => 1000 * players + 100 * edition + (newSociety ? 50 : 0);
const argsOf = (cfg, bots, games = GAMES) =>
  ['--players', String(cfg.players), '--edition', String(cfg.edition), '--seed', String(seedOf(cfg)),
    '--games', String(games), '--bots', bots, '--quiet', ...(cfg.newSociety ? ['--new-society'] : [])];
const nameOf = (cfg) => `${cfg.players} players, edition ${cfg.edition}${cfg.newSociety ? ', New Society' : ''}`;
const digestOf = (out) => /^digest: ([0-9a-f]{16})$/m.exec(out)?.[1];

for (const cfg of configs) {
  for (const bots of ['random', 'greedy,random']) {
    test(`wasm = native: ${nameOf(cfg)}, ${GAMES} games, bots ${bots}`,
      { skip: hasNative ? false : 'no native build (meson option native_build)' }, () => {
        const wasm = wasmSelfplay(argsOf(cfg, bots));
        assert.ok(digestOf(wasm), `no digest in: ${wasm}`);
        assert.equal(wasm, nativeSelfplay(argsOf(cfg, bots)));
      });
  }
}

// The learned bot (lib/bots/bot_value.c) against greedy: a few games of each configuration, its search and its
// network's every evaluation on the way, the same in wasm as in the native build.
const LEARNED_GAMES = 3;
for (const cfg of configs) {
  const bots = 'learned:iterations=40,greedy';
  test(`wasm = native: ${nameOf(cfg)}, ${LEARNED_GAMES} games, bots ${bots}`,
    { skip: hasNative ? false : 'no native build (meson option native_build)' }, () => {
      const wasm = wasmSelfplay(argsOf(cfg, bots, LEARNED_GAMES));
      assert.ok(digestOf(wasm), `no digest in: ${wasm}`);
      assert.equal(wasm, nativeSelfplay(argsOf(cfg, bots, LEARNED_GAMES)));
    });
}

test('games driven from JavaScript through the package: the digest of stpete-selfplay --bots random', async () => {
  const S = await load();
  const nsDecisions = new Set(); // the decisions met in the New Society's games
  for (const cfg of configs) {
    const game = new S.Game({ players: cfg.players, edition: cfg.edition, newSociety: cfg.newSociety });
    assert.equal(game.newSociety, cfg.newSociety);
    const bot = new S.Bot(game, 'random');
    const state = game.newState();
    const seed0 = seedOf(cfg);
    const decisions = new Set();
    let h = DIGEST_INIT;
    for (let g = 0; g < 10; g++) {
      const seed = BigInt(seed0 + g);
      state.reset(seed);
      bot.setSeed(seed ^ 0xB0751E5n);
      while (!state.isTerminal) {
        const id = bot.choose(state);
        decisions.add(state.decision);
        assert.ok(id >= 0 && id < game.numDistinctActions, `${id} in [0, ${game.numDistinctActions})`);
        state.apply(id);
        h = digestAdd(h, id);
      }
      for (const s of state.scores()) h = digestAdd(h, s.total);
    }
    const expected = digestOf(wasmSelfplay(argsOf(cfg, 'random', 10)));
    assert.equal(h.toString(16).padStart(16, '0'), expected, nameOf(cfg));
    if (cfg.newSociety) for (const d of decisions) nsDecisions.add(d);
    state.free();
    bot.free();
    game.free();
  }
  // those games reached the New Society's decisions (§12.7.5-§12.7.7), ids of its range included
  for (const d of [S.Decision.PRISON, S.Decision.GUILD_HALL, S.Decision.TRADING_HOUSE]) {
    assert.ok(nsDecisions.has(d), `decision ${d} in ${[...nsDecisions]}`);
  }
});
