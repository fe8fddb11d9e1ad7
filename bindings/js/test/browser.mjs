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

/** A new page of the staged site at `query`, waiting until the module and the bots' worker are ready; every console
 * error or page error is pushed to `errors`. */
export async function openPage(browser, url, query, errors) {
  const page = await browser.context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  await page.goto(`${url}index.html${query ? `?${query}` : ''}`);
  await page.waitForSelector('body[data-ready="1"][data-worker="ready"]', { state: 'attached' });
  return page;
}
/** Wait until the person may act (action buttons) or the game is over; true when over. */
export async function waitTurn(page) {
  await page.waitForFunction(() => document.body.dataset.turn === 'over'
    || document.querySelector('#actions button') !== null, null, { timeout: 120000 });
  return (await page.getAttribute('body', 'data-turn')) === 'over';
}
/** A small deterministic PRNG. */
export function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 2 ** 32; };
}
/** The game saved by the page after its last move: {format, version, setup, actions, replay}. */
export async function saved(page) {
  return JSON.parse(await page.evaluate(() => localStorage.getItem('stpete-web-save')));
}
