// The TypeScript declarations (src/index.d.ts, the API reference) type-check in strict mode, a typical program
// against them compiles, also a user's file with `tsc --strict` and TypeScript's defaults (issue 33), and `using`
// works where the lib has it: tsc from `npm ci` in bindings/js (skipped with the reason when it is missing).
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageDir, sourceDir } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const tsc = join(sourceDir, 'bindings', 'js', 'node_modules', 'typescript', 'bin', 'tsc');
const skip = existsSync(tsc) ? false : 'no typescript (npm ci in bindings/js)';

/** tsc on `files` (name -> text) in a fresh folder where the package is installed as node_modules/libstpete, as a
 * user has it; returns spawnSync's result. */
function tscUser(files, args) {
  const dir = mkdtempSync(join(tmpdir(), 'stpete-ts-user-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(packageDir, join(dir, 'node_modules', 'libstpete'), 'dir');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return spawnSync(process.execPath, [tsc, ...args, ...Object.keys(files)], { encoding: 'utf8', cwd: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const userProgram = `
  import { Game, Bot, State, type Action } from 'libstpete';
  const game = new Game({ players: 3, seed: 42 });
  const state: State = game.newState();
  const actions: Action[] = state.legalActions();
  const bot = new Bot(game, 'greedy');
  while (!state.isTerminal) state.apply(bot.choose(state));
  const key: bigint = state.informationStateKey(0);
  console.log(actions.length, state.scores().map((s) => s.total), state.winners(), key);
  state.free(); bot.free(); game.free();
`;

test('a user\'s file compiles with `tsc --strict` and TypeScript\'s defaults (target ES5, no lib chosen)', { skip },
  () => {
    // the defaults: target ES5 (whose lib has no Symbol value), module commonjs, no lib chosen
    const r = tscUser({ 'main.ts': userProgram }, ['--noEmit', '--strict']);
    assert.equal(r.status, 0, `tsc --strict: ${r.stdout}${r.stderr}`);
  });

test('`using` type-checks for a Game, State and Bot where the lib has Disposable (esnext), not for the rest',
  { skip }, () => {
    const program = `
      import { Game, Bot } from 'libstpete';
      export function play(): number[] {
        using game = new Game({ players: 2 });
        using state = game.newState(3);
        using bot = new Bot(game, 'random', 1);
        while (!state.isTerminal) state.apply(bot.choose(state));
        const d: Disposable = state;
        return d === state ? state.winners() : [];
      }
    `;
    const args = ['--noEmit', '--strict', '--target', 'esnext', '--module', 'nodenext'];
    const ok = tscUser({ 'main.ts': program }, args);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const bad = tscUser({ 'main.ts': program.replace('using bot = new Bot(game, \'random\', 1)',
      'using bot = { choose: (s: unknown) => 0 }') }, args);
    assert.notEqual(bad.status, 0, 'using a value without [Symbol.dispose] must not compile');
    assert.match(bad.stdout, /Symbol\.dispose/);
  });

test('index.d.ts type-checks (strict) with a program that uses it; a type error is reported', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'stpete-ts-'));
  try {
    const index = join(packageDir, 'src', 'index.js');
    const program = `
      import { Game, State, Bot, IllegalActionError, Source, type Action, type Score } from ${JSON.stringify(index)};
      const game: Game = new Game({ players: 3, edition: 2, seed: 2n ** 60n, publicRubles: true });
      const state: State = game.newState();
      const actions: Action[] = state.legalActions();
      const price: number | null = actions[0].price;
      const bot = new Bot(game, 'greedy', 1);
      state.apply(bot.choose(state)).apply(actions[0]);
      const key: bigint = state.informationStateKey(0);
      const tensor: Float32Array = state.observationTensor(1);
      const scores: Score[] = state.scores();
      const p: number = state.price(0, 0, Source.LOWER);
      try { state.apply('pass'); } catch (e) { if (e instanceof IllegalActionError) console.log(e.status, e.function); }
      const loaded = State.fromJson(state.toJson());
      console.log(price, key, tensor.length, scores[0].total, p, loaded.equals(state));
      loaded[Symbol.dispose]();
    `;
    const compile = (text) => {
      writeFileSync(join(dir, 'main.ts'), text);
      return spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext',
        '--moduleResolution', 'nodenext', '--lib', 'es2022,esnext.disposable,dom', '--skipLibCheck', 'false',
        join(dir, 'main.ts')], { encoding: 'utf8', cwd: dir });
    };
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
    const ok = compile(program);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const bad = compile(program.replace('const key: bigint', 'const key: number'));
    assert.notEqual(bad.status, 0, 'a wrong type must not compile');
    assert.match(bad.stdout, /bigint/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
