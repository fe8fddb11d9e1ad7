// Both setup forms in Debian's chromium (issue 41; issue 42's table of options): the local page's "New game" dialog
// and the server lobby's form are built at run time from the library's table of options (JavaScript's options(),
// the server's GET /api/options), so that
//   - each form's rule fields are the table's options of the rules and of what seats see, in its order, with the
//     table's titles, labels and rules (players "2", "3", "4", "5 (the New Society)"; edition "first (2004)", ...);
//   - "5 (the New Society)" ticks and locks the expansion's box in both, and starts the same game (the local save,
//     the table the server creates);
//   - a box the library would refuse with the current choices is disabled with the library's reason
//     (checkOptions), and a refused combination shows that reason, in the same words in both forms;
//   - a table with one more option (as a library with a new option gives) shows one more field in both forms, with
//     no change to the page;
// at 1280x800 and 390x844 without horizontal scroll (screenshots form-*.png in BUILD/screenshots). The lobby needs
// the native build and aiohttp, as js-server-browser; skipped with the reason otherwise.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { load, wasmBuild } from './helpers.mjs';
import { serve } from './server.mjs';
import { launch, openPage, saved, unavailable, waitTurn } from './browser.mjs';
import { openPage as openOnline, skip as onlineSkip, startServer } from './gameserver.mjs';

const skip = unavailable() ?? false;
const shots = join(wasmBuild, 'screenshots');
mkdirSync(shots, { recursive: true });
const SIZES = [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]];
/** Fields of the forms that are no rule option: the setup's own. */
const OWN = /^(seat\d*|bot|strength|seed)$/;
/** A new option, as a later library's table would describe it: a list and a box. */
const NEW_OPTIONS = [
  { name: 'a_new_rule', key: 'aNewRule', title: 'A new rule', description: 'an option this page has never seen',
    rule: '§99', type: 'enum', category: 'rules', games: ['first-edition'], min: 0, max: 2, default: 'one',
    defaultText: 'one', words: ['one', 'two', 'three'], labels: ['the first way', 'the second way', 'the third way'] },
  { name: 'a_new_view', key: 'aNewView', title: 'A new view', description: 'another option this page has never seen',
    rule: '§98', type: 'bool', category: 'information', games: ['first-edition'], min: 0, max: 1, default: false,
    defaultText: 'false', words: ['false', 'true'], labels: null },
];

let S;
const errors = [];

/** The rule fields of the form in `root`, in order: [{name, kind, texts (a list's), values, label}]. */
function fieldsOf(page, root) {
  return page.$$eval(`${root} input[name], ${root} select[name]`, (inputs, own) => inputs
    .filter((i) => !new RegExp(own).test(i.name))
    .map((i) => ({ name: i.name, kind: i.tagName === 'SELECT' ? 'list' : 'box',
      texts: i.tagName === 'SELECT' ? [...i.options].map((o) => o.textContent) : null,
      values: i.tagName === 'SELECT' ? [...i.options].map((o) => o.value) : null,
      label: i.closest('label').textContent.replace(/\s+/g, ' ').trim() })), OWN.source);
}
/** What the fields must be: the table's options with a box or a list, in its order, those of the rules first, then
 * those of what seats see. */
function expected(table) {
  const shown = (category) => table.filter((o) => o.category === category && ['bool', 'int', 'enum'].includes(o.type));
  return [...shown('rules'), ...shown('information')]
    .map((o) => {
      if (o.type === 'bool') return { name: o.name, kind: 'box', texts: null, values: null, title: o.title };
      const values = o.type === 'enum' ? o.words : Array.from({ length: o.max - o.min + 1 }, (_, k) => String(o.min + k));
      return { name: o.name, kind: 'list', texts: values.map((v, k) => o.labels?.[k] ?? String(v)), values, title: o.title };
    });
}
function assertFields(shown, table, where) {
  const want = expected(table);
  assert.deepEqual(shown.map((f) => f.name), want.map((f) => f.name), `${where}: the fields are the table's`);
  for (const [k, f] of shown.entries()) {
    assert.equal(f.kind, want[k].kind, `${where}: ${f.name}`);
    assert.deepEqual(f.texts, want[k].texts, `${where}: ${f.name}'s labels`);
    assert.deepEqual(f.values, want[k].values, `${where}: ${f.name}'s values`);
    assert.ok(f.label.startsWith(want[k].title), `${where}: ${f.name} is labelled '${f.label}'`);
  }
}
/** Every box of the form is disabled exactly when the library refuses the current choices with it ticked (its
 * reason the label's title), and the reason of refused choices is shown: checked against S.checkOptions. */
async function assertReasons(page, root, where) {
  await page.waitForSelector(`${root} div.rules[data-settled="1"]`, { state: 'attached' });
  const state = await page.$$eval(`${root} input[type=checkbox][name], ${root} select[name]`, (inputs, [own, form]) => {
    const out = { choices: {}, boxes: [] };
    for (const i of inputs) {
      if (new RegExp(own).test(i.name)) continue;
      if (i.type === 'checkbox') {
        out.choices[i.name] = i.checked;
        out.boxes.push({ name: i.name, checked: i.checked, disabled: i.disabled, title: i.closest('label').title });
      } else {
        out.choices[i.name] = i.value;
      }
    }
    out.reason = document.querySelector(`${form} .rules-reason`).textContent;
    return out;
  }, [OWN.source, root]);
  const table = S.options();
  const choices = {};
  for (const [name, value] of Object.entries(state.choices)) {
    const o = table.find((x) => x.name === name);
    choices[name] = o.type === 'int' ? Number(value) : value;
  }
  assert.equal(state.reason, S.checkOptions(choices) ?? '', `${where}: the reason shown`);
  for (const box of state.boxes) {
    if (box.checked) continue;
    const reason = S.checkOptions({ ...choices, [box.name]: true });
    assert.equal(box.disabled, reason !== null, `${where}: ${box.name} ${box.disabled ? 'disabled' : 'enabled'}`);
    if (reason !== null) assert.equal(box.title, reason, `${where}: ${box.name}'s reason`);
  }
  return choices;
}
/** The page at both sizes: no horizontal scroll, a screenshot each. */
async function bothSizes(page, name) {
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    const [doc, win] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(doc <= win, `${name} at ${size}: the page is ${doc} px wide in a ${win} px window`);
    await page.screenshot({ path: join(shots, `form-${name}-${size}.png`) });
  }
  await page.setViewportSize(SIZES[0][1]);
}
/** The same steps on either form: the table's fields, the library's reasons at the default, with edition 2, and
 * with 5 players ("5 (the New Society)" ticks and locks the expansion's box). */
async function sameSteps(page, root, where) {
  assertFields(await fieldsOf(page, root), S.options(), where);
  const players = S.options().find((o) => o.name === 'players');
  assert.ok(players.labels.some((l) => /New Society/.test(l)), 'the table labels a player count with the New Society');
  await assertReasons(page, root, `${where}, the defaults`);
  await page.selectOption(`${root} select[name="edition"]`, '2');
  await assertReasons(page, root, `${where}, edition 2`);
  await page.selectOption(`${root} select[name="players"]`, '5');
  await assertReasons(page, root, `${where}, edition 2 and 5 players`);
  assert.notEqual(await page.textContent(`${root} .rules-reason`), '', `${where}: 5 players of the second edition are refused`);
  await page.selectOption(`${root} select[name="edition"]`, '1');
  const five = await page.$$eval(`${root} select[name="players"] option`, (os) => os.find((o) => o.value === '5').textContent);
  assert.equal(five, players.labels[5 - players.min], `${where}: 5 players are labelled as the table labels them`);
  // the expansion's box: the one the library needs beside 5 players, ticked and locked
  const needed = S.options().filter((o) => o.type === 'bool' && S.checkOptions({ players: 5 }) !== null
    && S.checkOptions({ players: 5, [o.name]: true }) === null);
  assert.equal(needed.length, 1, 'one box makes 5 players a game');
  assert.deepEqual(await page.$eval(`${root} input[name="${needed[0].name}"]`, (b) => [b.checked, b.disabled]), [true, true],
    `${where}: 5 players tick and lock ${needed[0].name}`);
  const choices = await assertReasons(page, root, `${where}, 5 players`);
  assert.equal(S.checkOptions(choices), null);
  return needed[0].name;
}

test('the local page\'s dialog: the table\'s fields, the library\'s reasons, "5 (the New Society)" starts its game, '
  + 'a new option appears', { skip }, async () => {
  S = await load();
  const server = await serve(join(wasmBuild, 'web'));
  const browser = await launch();
  try {
    const page = await openPage(browser, server.url, 'players=2&seat=0&bot=random&seed=3&delay=0', errors);
    await waitTurn(page);
    await page.click('#btn-new');
    if (await page.$eval('#confirm-new', (d) => d.open)) await page.click('#btn-discard');
    await page.waitForFunction(() => document.getElementById('setup').open);
    await bothSizes(page, 'local');
    const expansion = await sameSteps(page, '#setup', 'the local dialog');
    await page.selectOption('#setup select[name="seat"]', '4');
    await page.selectOption('#setup select[name="bot"]', 'random');
    await page.fill('#setup input[name="seed"]', '17');
    await page.click('#btn-start');
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('stpete-web-save')).setup.options.players === 5);
    const { setup } = await saved(page);
    assert.deepEqual(setup.options, { players: 5, [expansion]: true }, 'the game the dialog started');
    await page.close();

    // a library with two more options: the package's options() gives them, and the dialog shows them
    await browser.context.route('**/libstpete/index.js', async (route) => {
      const text = await (await route.fetch()).text();
      const marker = 'export function options() {';
      assert.ok(text.includes(marker), 'the package still declares options() so');
      // the package's own calls keep the library's table; what it exports has the two rows more
      await route.fulfill({ contentType: 'text/javascript', body: `${text.replace(marker, 'function options() {')}
export { laterOptions as options };
function laterOptions() { return Object.freeze([...options(), ...${JSON.stringify(NEW_OPTIONS)}]); }
` });
    });
    const later = await openPage(browser, server.url, 'players=3&seat=0&bot=random&seed=4&delay=0', errors);
    await waitTurn(later);
    await later.click('#btn-new');
    if (await later.$eval('#confirm-new', (d) => d.open)) await later.click('#btn-discard');
    await later.waitForFunction(() => document.getElementById('setup').open);
    assertFields(await fieldsOf(later, '#setup'), [...S.options(), ...NEW_OPTIONS], 'the local dialog of a later library');
    await later.screenshot({ path: join(shots, 'form-local-new-option.png') });
    await later.close();
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('the lobby\'s form: the same fields, reasons and "5 (the New Society)" as the dialog, and a new option appears',
  { skip: skip || onlineSkip }, async () => {
  S ??= await load();
  const { url, browser, stop } = await startServer();
  try {
    const context = await browser.newContext({ viewport: SIZES[0][1] });
    const lobby = await openOnline(context, `${url}/`, errors);
    await lobby.waitForSelector('#create-form select[name="players"]');
    await bothSizes(lobby, 'lobby');
    const expansion = await sameSteps(lobby, '#create-form', 'the lobby');
    for (let s = 0; s < 5; s++) await lobby.selectOption(`select[name="seat${s}"]`, s === 0 ? 'human' : 'bot');
    await lobby.selectOption('#create-form select[name="bot"]', 'random');
    const [request] = await Promise.all([lobby.waitForRequest('**/api/tables'), lobby.click('#btn-create')]);
    await lobby.waitForSelector('#links:not([hidden]) .seat-link');
    const body = JSON.parse(request.postData());
    assert.deepEqual([body.players, body.rules], [5, { [expansion]: true }], 'the table the lobby created');
    const link = await lobby.$eval('.seat-link', (a) => a.href);
    const seat = await openOnline(context, link, errors);
    await seat.waitForSelector('#players details.seat');
    assert.equal(await seat.$$eval('#players details.seat', (d) => d.length), 5);
    assert.equal(await seat.$$eval('#players .marker.gold', (m) => m.length), 1, 'the gold disc (§12.3)');
    await seat.close();
    await lobby.close();

    // a server on a library with two more options: GET /api/options gives them, and the form shows them
    await context.route('**/api/options', async (route) => {
      const table = await (await route.fetch()).json();
      await route.fulfill({ json: { options: [...table.options, ...NEW_OPTIONS] } });
    });
    const later = await openOnline(context, `${url}/`, errors);
    await later.waitForSelector('#create-form select[name="a_new_rule"]');
    const offered = S.options().filter((o) => o.name === 'players' || o.category !== 'play');
    assertFields(await fieldsOf(later, '#create-form'), [...offered, ...NEW_OPTIONS], 'the lobby of a later library');
    await later.screenshot({ path: join(shots, 'form-lobby-new-option.png') });
    await later.close();
    await context.close();
    assert.deepEqual(errors, []);
  } finally {
    await stop();
  }
});
