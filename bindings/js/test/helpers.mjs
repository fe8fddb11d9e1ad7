// Shared by the Node tests: where the staged package and the builds are (set by bindings/js/meson.build).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

export const packageDir = process.env.STPETE_PACKAGE;
export const wasmBuild = process.env.STPETE_WASM_BUILD;
export const nativeBuild = process.env.STPETE_NATIVE_BUILD ?? '';
export const sourceDir = process.env.STPETE_SOURCE;
if (!packageDir) throw new Error('run through meson test (STPETE_PACKAGE is not set)');

/** The staged package's module. */
export const load = () => import(pathToFileURL(join(packageDir, 'src', 'index.js')).href);

/** Run a program; its stdout, or a thrown Error with its stderr. */
export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** stpete-selfplay of the wasm build under Node, and of the native build (null when there is none). */
export const wasmSelfplay = (args) =>
  run(process.execPath, ['--no-experimental-fetch', join(wasmBuild, 'bindings', 'js', 'stpete-selfplay.js'), ...args]);
export const nativeSelfplayPath = nativeBuild ? join(nativeBuild, 'examples', 'stpete-selfplay') : '';
export const hasNative = nativeSelfplayPath !== '' && existsSync(nativeSelfplayPath);
export const nativeSelfplay = (args) => run(nativeSelfplayPath, args);

/** stpete-selfplay's digest (FNV-1a style over 64-bit words) of every applied action and final score. */
export const DIGEST_INIT = 0xcbf29ce484222325n;
export const digestAdd = (h, word) => BigInt.asUintN(64, (h ^ BigInt.asUintN(64, BigInt(word))) * 0x100000001b3n);
