// Debian's chromium driven headless by playwright-core (bindings/js/node_modules, `npm ci`; no browser download).
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.STPETE_CHROMIUM ?? '/usr/bin/chromium';
const require = createRequire(join(process.env.STPETE_SOURCE ?? '.', 'bindings', 'js', 'package.json'));

/** Why the browser tests cannot run here, or null. */
export function unavailable() {
  if (!existsSync(CHROMIUM)) return `no ${CHROMIUM}`;
  try { require.resolve('playwright-core'); } catch { return 'no playwright-core (npm ci in bindings/js)'; }
  return null;
}

/** Launch chromium headless with an empty profile (a persistent context in a fresh folder): {context, close}.
 * close() ends the browser and removes the profile. */
export async function launch() {
  const { chromium } = require('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'stpete-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { context, close: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}
