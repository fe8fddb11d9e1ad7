// The web targets, measured (a benchmark, never a timed test; numbers vary with the machine's load):
//   node bindings/js/tools/bench.mjs [WASM_BUILD=build-wasm] [NATIVE_BUILD=build] [--json]
// - the package's .wasm + JS glue, gzipped (target <= 100 KB);
// - the same C benchmark (stpete-bench --games-only --players 3: random games) native and wasm under Node, same
//   digests; the speed ratio wasm/native from the programs' own game timers, 5 runs alternating native and wasm,
//   the median with its range and runs (target >= 0.7), by CPU time (wasm_over_native_cpu_speed*, the figure that
//   holds on a shared machine) and by wall clock (wasm_over_native_speed*), and the median ns per action of each:
//   - the headline, steady state (no suffix): each process plays the 3000 games once untimed (--warm-up), then
//     the same games timed: V8 has optimized the module's hot functions (TurboFan), as in a long session or a
//     thinking bot; the standard way to measure code run by a just-in-time compiler;
//   - cold start (suffix _cold): a new process times its first 3000 games, which V8 runs on its baseline compiler
//     (Liftoff) while TurboFan compiles the hot functions on other threads (the CPU time counts them): the
//     largest take longer to compile than these games take to play (doc/performance.md, "WebAssembly");
//   - cold start over 30000 games (suffix _cold_30000_games): most of them on optimized code;
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

const runBench = (cmd, pre, games, warmUp) => JSON.parse(execFileSync(cmd, [...pre, '--games-only', '--json',
  '--players', '3', '--games', String(games), ...(warmUp ? ['--warm-up'] : [])], { encoding: 'utf8' })).results[0];
const nativeRun = (games, warmUp) => runBench(join(nativeBuild, 'tools', 'stpete-bench'), [], games, warmUp);
const wasmRun = (games, warmUp) => runBench(process.execPath,
  ['--no-experimental-fetch', join(wasmBuild, 'bindings', 'js', 'stpete-bench.js')], games, warmUp);
const round3 = (x) => Number(x.toFixed(3));
const ns = (seconds, r) => Number((1e9 * seconds / r.actions).toFixed(1));
/** wasm/native speed of `games` random 3-player games, 5 runs alternating native and wasm (each run a new process),
 * into out[`*${suffix}`]: the median ratio, its range and the runs, by CPU time (games_seconds: the native process's
 * CPU time; under Node the wasm program reads process.cpuUsage(), all of Node's threads, V8's compilers too: the
 * ratio that holds on a machine shared with other jobs) and by wall clock (games_wall_seconds: what a user waits
 * for, and what the machine's load changes), and the median ns per action of each. With `warmUp` each process
 * plays the same games once, untimed, before the timed run (stpete-bench --warm-up). Returns whether every
 * native and wasm digest is equal. */
function speedRatio(games, warmUp, suffix) {
  const cpu = [], wall = [], per = { native_cpu: [], wasm_cpu: [], native_wall: [], wasm_wall: [] };
  let digestsEqual = true;
  for (let k = 0; k < 5; k++) {
    const n = nativeRun(games, warmUp);
    const w = wasmRun(games, warmUp);
    cpu.push((n.games_seconds / n.actions) / (w.games_seconds / w.actions));
    wall.push((n.games_wall_seconds / n.actions) / (w.games_wall_seconds / w.actions));
    per.native_cpu.push(ns(n.games_seconds, n)); per.wasm_cpu.push(ns(w.games_seconds, w));
    per.native_wall.push(ns(n.games_wall_seconds, n)); per.wasm_wall.push(ns(w.games_wall_seconds, w));
    digestsEqual &&= n.digest === w.digest && n.actions === w.actions;
  }
  for (const [name, ratios] of [['cpu_speed', cpu], ['speed', wall]]) {
    out[`wasm_over_native_${name}${suffix}`] = round3(median(ratios));
    out[`wasm_over_native_${name}_range${suffix}`] = [round3(Math.min(...ratios)), round3(Math.max(...ratios))];
    out[`wasm_over_native_${name}_runs${suffix}`] = ratios.map(round3);
  }
  for (const [name, xs] of Object.entries(per)) out[`${name}_ns_per_action${suffix}`] = median(xs);
  return digestsEqual;
}
// The headline: the steady state (V8 has compiled the module's hot functions with TurboFan during the warm-up),
// the standard way to measure code run by a just-in-time compiler. Then the cold start: a new process times its
// first games, which V8 starts on its baseline compiler (Liftoff) and moves to TurboFan as the hot functions'
// optimized code arrives (3000 games: a short session, almost all of it on Liftoff; 30000: most on TurboFan).
out.speed_method = 'stpete-bench --games-only --players 3, 5 runs alternating native and wasm (Node), median';
out.digests_equal = [speedRatio(3000, true, ''), speedRatio(3000, false, '_cold'),
  speedRatio(30000, false, '_cold_30000_games')].every(Boolean);

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

// The text output starts with the ratios in words, then every measure as `key: value`.
const ratio = (name, sfx) => `${out[`wasm_over_native_${name}${sfx}`]} ` +
  `(${out[`wasm_over_native_${name}_range${sfx}`].join('-')})`;
const summary = [['steady state, 3000 games after a warm-up of the same games', ''],
  ['cold start, a new process\'s first 3000 games', '_cold'], ['cold start, 30000 games', '_cold_30000_games']]
  .map(([what, sfx]) => `${what}: ${ratio('cpu_speed', sfx)} by CPU time, ${ratio('speed', sfx)} by wall clock`);
if (asJson) console.log(JSON.stringify(out));
else {
  console.log(['wasm/native, median of 5 runs (range):', ...summary].join('\n  '));
  for (const [k, v] of Object.entries(out)) console.log(`${k}: ${Array.isArray(v) ? v.join(' ') : v}`);
}
