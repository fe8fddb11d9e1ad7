// Stages the npm package in the build folder: node tools/stage.mjs PACKAGE_DIR STAMP FILE...
// The wasm glue (libstpete.mjs) brings its libstpete.wasm from the same folder; sources go to src/.
import { copyFileSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const [dir, stamp, ...files] = process.argv.slice(2);
mkdirSync(join(dir, 'src'), { recursive: true });
for (const f of files) {
  const name = basename(f);
  const to = name.endsWith('.js') || name.endsWith('.ts') ? join(dir, 'src', name) : join(dir, name);
  if (name === 'libstpete.mjs') {
    copyFileSync(f, join(dir, 'src', name));
    const wasm = join(dirname(f), 'libstpete.wasm');
    if (!existsSync(wasm)) throw new Error(`stage: ${wasm} missing`);
    copyFileSync(wasm, join(dir, 'src', 'libstpete.wasm'));
  } else {
    copyFileSync(f, to);
  }
}
writeFileSync(stamp, new Date(0).toISOString() + '\n');
