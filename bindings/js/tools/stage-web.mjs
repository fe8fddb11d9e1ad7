// Stages the page (bindings/js/web) with the package beside it: node tools/stage-web.mjs WEB_DIR STAMP
// PACKAGE_DIR FILE... (the page imports ./libstpete/index.js). Serve WEB_DIR on 127.0.0.1.
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const [dir, stamp, packageDir, ...files] = process.argv.slice(2);
rmSync(dir, { recursive: true, force: true }); // no file of an earlier page stays
mkdirSync(dir, { recursive: true });
for (const f of files) copyFileSync(f, join(dir, basename(f)));
cpSync(join(packageDir, 'src'), join(dir, 'libstpete'), { recursive: true });
writeFileSync(stamp, 'staged\n');
