// The web targets, measured (a benchmark, never a timed test; numbers vary with the machine's load):
//   node bindings/js/tools/bench.mjs [WASM_BUILD=build-wasm] [NATIVE_BUILD=build] [--json]
// - the package's .wasm + JS glue, gzipped (target <= 100 KB);
// - the same C benchmark (stpete-bench --games-only: random games) native and wasm under Node, same digests; the
//   speed ratio wasm/native from the programs' own game timers, median of 5 runs (target >= 0.7), by wall clock
//   (wasm_over_native_speed*) and by CPU time (wasm_over_native_cpu_speed*, the figure for a shared machine): 3000 games
//   (wasm_over_native_speed: V8 starts the module on its baseline compiler, Liftoff, and moves hot functions to
//   TurboFan while the games run) and 30000 games (wasm_over_native_speed_30000_games: mostly optimized code, what a
//   long session or a thinking bot gets);
// - random games driven from JavaScript through the package (one call across the boundary per action), games/s,
//   in Node and in Debian's chromium (playwright-core);
// - the page interactive (navigation start to the first drawn position with its buttons) from a 127.0.0.1 server;
// - a default-strength bot move (ismcts:iterations=1000 at the opening of a 4-player game) in Node.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2).filter((a) => a !== '--json');
const asJson = process.argv.includes('--json');
const wasmBuild = resolve(args[0] ?? 'build-wasm');
const nativeBuild = resolve(args[1] ?? 'build');
process.env.STPETE_SOURCE ??= resolve(new URL('../../..', import.meta.url).pathname);
const out = {};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const pkg = join(wasmBuild, 'bindings', 'js', 'package', 'src');
const gz = (f) => gzipSync(readFileSync(join(pkg, f)), { level: 9 }).length;
out.wasm_gzip_bytes = gz('libstpete.wasm');
out.glue_gzip_bytes = gz('libstpete.mjs');
out.package_js_gzip_bytes = gz('index.js') + gz('capi.js');

const runBench = (games, cmd, pre = []) => JSON.parse(execFileSync(cmd,
  [...pre, '--games-only', '--json', '--players', '3', '--games', String(games)], { encoding: 'utf8' })).results[0];
/** Median wasm/native speed ratio of 5 runs of `games` games each (run on an idle machine). */
function speedRatio(games, suffix) {
  const ratios = [];
  const cpuRatios = [];
  let digestsEqual = true;
  for (let k = 0; k < 5; k++) {
    const n = runBench(games, join(nativeBuild, 'tools', 'stpete-bench'));
    const w = runBench(games, process.execPath,
      ['--no-experimental-fetch', join(wasmBuild, 'bindings', 'js', 'stpete-bench.js')]);
    // Wall-clock for both (what a user waits for), and CPU time for both (games_seconds: the native process's CPU
    // time; under Node the wasm program reads process.cpuUsage(), all of Node's threads): the CPU ratio holds on a
    // machine shared with other jobs, where the wall-clock one measures the load.
    ratios.push((n.games_wall_seconds / n.actions) / (w.games_wall_seconds / w.actions));
    cpuRatios.push((n.games_seconds / n.actions) / (w.games_seconds / w.actions));
    digestsEqual &&= n.digest === w.digest;
    out[`native_wall_ns_per_action${suffix}`] = Number((1e9 * n.games_wall_seconds / n.actions).toFixed(1));
    out[`wasm_wall_ns_per_action${suffix}`] = Number((1e9 * w.games_wall_seconds / w.actions).toFixed(1));
    out[`native_cpu_ns_per_action${suffix}`] = Number((1e9 * n.games_seconds / n.actions).toFixed(1));
    out[`wasm_cpu_ns_per_action${suffix}`] = Number((1e9 * w.games_seconds / w.actions).toFixed(1));
  }
  out[`wasm_over_native_speed${suffix}`] = Number(median(ratios).toFixed(3));
  out[`wasm_over_native_runs${suffix}`] = ratios.map((r) => Number(r.toFixed(3)));
  out[`wasm_over_native_cpu_speed${suffix}`] = Number(median(cpuRatios).toFixed(3));
  out[`wasm_over_native_cpu_runs${suffix}`] = cpuRatios.map((r) => Number(r.toFixed(3)));
  return digestsEqual;
}
out.digests_equal = speedRatio(3000, '') && speedRatio(30000, '_30000_games');

// Random games from JavaScript: the same loop in Node and in the browser.
const jsGames = async (S, seconds) => {
  const game = new S.Game({ players: 3 });
  const bot = new S.Bot(game, 'random', 1);
  const state = game.newState(1);
  let games = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    state.reset(games + 1);
    while (!state.isTerminal) state.apply(bot.choose(state));
    games++;
  }
  const rate = games / ((performance.now() - t0) / 1000);
  state.free(); bot.free(); game.free();
  return rate;
};
const S = await import(pathToFileURL(join(pkg, 'index.js')).href);
out.node_js_games_per_second = Math.round(await jsGames(S, 2));
{
  const game = new S.Game({ players: 4 });
  const bot = new S.Bot(game, 'ismcts:iterations=1000', 1);
  const state = game.newState(1);
  const t0 = performance.now();
  bot.choose(state);
  out.node_default_bot_move_ms = Math.round(performance.now() - t0);
  state.free(); bot.free(); game.free();
}

const { unavailable, launch } = await import('../test/browser.mjs');
const { serve } = await import('../test/server.mjs');
if (!unavailable()) {
  const server = await serve(join(wasmBuild, 'web'));
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    const loads = [];
    for (let k = 0; k < 5; k++) {
      await page.goto(`${server.url}index.html?seed=1&bot=random&delay=0&seat=0`);
      await page.waitForSelector('#actions button');
      loads.push(await page.evaluate(() => performance.now()));
    }
    out.page_interactive_ms = Math.round(median(loads));
    out.chromium_js_games_per_second = Math.round(await page.evaluate(
      `(async () => { const S = await import('./libstpete/index.js'); return (${jsGames.toString()})(S, 2); })()`));
  } finally {
    await browser.close();
    await server.close();
  }
}

if (asJson) console.log(JSON.stringify(out));
else for (const [k, v] of Object.entries(out)) console.log(`${k}: ${Array.isArray(v) ? v.join(' ') : v}`);
