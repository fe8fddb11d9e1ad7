// The TypeScript declarations (src/index.d.ts, the API reference) type-check in strict mode, and a typical program
// against them compiles: tsc from `npm ci` in bindings/js (skipped with the reason when it is missing).
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageDir, sourceDir } from './helpers.mjs';
import { spawnSync } from 'node:child_process';

const tsc = join(sourceDir, 'bindings', 'js', 'node_modules', 'typescript', 'bin', 'tsc');
const skip = existsSync(tsc) ? false : 'no typescript (npm ci in bindings/js)';

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
