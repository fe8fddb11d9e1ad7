// `npm pack` makes a tarball of the staged package; installed offline into an empty project, it plays a game.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageDir, run } from './helpers.mjs';

test('npm pack, then npm install --offline into an empty project: import and play', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stpete-pack-'));
  try {
    const env = { ...process.env, npm_config_cache: join(dir, 'cache'), npm_config_update_notifier: 'false',
      npm_config_audit: 'false', npm_config_fund: 'false' };
    const name = run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: packageDir, env }).trim()
      .split('\n').at(-1);
    const project = join(dir, 'project');
    run('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty', private: true, type: 'module' }));
    run('npm', ['install', '--offline', '--no-save', join(dir, name)], { cwd: project, env });
    writeFileSync(join(project, 'main.js'), `
      import { Game, Bot, version } from 'libstpete';
      const game = new Game({ players: 3, seed: 5 });
      const state = game.newState();
      const bot = new Bot(game, 'greedy');
      while (!state.isTerminal) state.apply(bot.choose(state));
      console.log(version(), state.winners().length > 0, state.scores().length);
    `);
    assert.equal(run(process.execPath, ['main.js'], { cwd: project }).trim(), `${JSON.parse(
      run(process.execPath, ['-p', 'JSON.stringify(require("./package.json").version)'], { cwd: packageDir }))} true 3`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
