// The playable page as a person meets it (issue 33), in Debian's chromium driven by playwright-core: the end of a
// game at desktop (1280x800) and phone (390x844) size, a whole game at 390 px without horizontal scroll, reload in
// the middle and after the end, hostile saves and address parameters (each refused with a visible message, the
// game untouched), axe-core without serious or critical violations, a game by keyboard alone, the live region, the
// seats' knowledge (the library's per-seat view), markers, incomes, the last discarded cards, auto-pass, the log's
// numbers, "New game" asking first. Screenshots (opening, middle, bots' turn, end at both sizes) go to
// BUILD/screenshots.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { load, sourceDir, wasmBuild } from './helpers.mjs';
import { serve } from './server.mjs';
import { launch, openPage, rng, saved, unavailable, waitTurn } from './browser.mjs';

const skip = unavailable() ?? false;
const shots = join(wasmBuild, 'screenshots');
mkdirSync(shots, { recursive: true });
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server;
let browser;
let S;
const errors = [];
const open = (query) => openPage(browser, server.url, query, errors);

test.before(async () => {
  if (skip) return;
  S = await load();
  server = await serve(join(wasmBuild, 'web'));
  browser = await launch();
});
test.after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

/** The page's game replayed in Node by the library from its save: a State (free it). */
async function replayed(page) {
  const data = await saved(page);
  return S.State.fromReplay(JSON.stringify(data.replay));
}
/** No horizontal scroll: the document is no wider than the window. */
async function assertNoHorizontalScroll(page, where) {
  const [doc, win] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(doc <= win, `${where}: the page is ${doc} px wide in a ${win} px window`);
}
/** The element's box lies inside the window (scrolled into view). */
async function assertInView(page, selector) {
  const [box, h, w] = await page.evaluate((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return [{ top: r.top, bottom: r.bottom, left: r.left, right: r.right }, window.innerHeight, window.innerWidth];
  }, selector);
  assert.ok(box.top >= -1 && box.bottom <= h + 1 && box.left >= -1 && box.right <= w + 1,
    `${selector} at ${JSON.stringify(box)} in a ${w}x${h} window`);
}
/** Play the person's moves with `choose(buttons)` (default: a random one, buys preferred) until the end or until
 * `at(moves)` returns true. Calls `each()` at every turn and once at the end. With `scrolled`, each move is the
 * button's key pressed with the page scrolled to its bottom (a person reading the seats). Returns the number of
 * moves. */
async function play(page, seed, { at = async () => false, each = async () => {}, choose = null, scrolled = false } = {}) {
  const random = rng(seed);
  let moves = 0;
  for (;;) {
    const over = await waitTurn(page);
    await each();
    if (over) return moves;
    if (await at(moves)) return moves;
    const buttons = await page.$$('#actions button');
    let button;
    if (choose) button = await choose(buttons, random);
    else {
      const buys = await page.$$('#actions button.buy');
      const pool = buys.length && random() < 0.7 ? buys : buttons;
      button = pool[Math.floor(random() * pool.length)];
    }
    if (scrolled) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.keyboard.press(await button.getAttribute('data-key'));
    } else await button.click();
    moves++;
  }
}
/** The end of a game as the page shows it, checked against the library's replay of the saved game. */
async function checkEnd(page, size) {
  const st = await replayed(page);
  const me = (await saved(page)).setup.seat;
  try {
    assert.ok(st.isTerminal);
    const winners = st.winners();
    const heading = await page.textContent('#winner');
    for (const w of winners) assert.match(heading, new RegExp(w === me ? 'You' : `Seat ${w}`));
    assert.match(heading, new RegExp(`with ${st.scores()[winners[0]].total} VP`));
    await assertInView(page, '#winner');
    await assertInView(page, '#final-table');
    const totals = await page.$$eval('#final-table td.total', (tds) => tds.map((td) => Number(td.textContent)));
    assert.deepEqual(totals, st.scores().map((s) => s.total));
    const rows = await page.$$eval('#final-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    st.scores().forEach((sc, s) => {
      assert.equal(Number(rows[s][1]), sc.vpBefore);
      assert.match(rows[s][2], new RegExp(`^\\+${sc.aristocratBonus} ${sc.aristocratKinds} kind`));
      assert.match(rows[s][3], new RegExp(`^\\+${sc.rublesBonus} ${sc.rubles} R`));
      assert.match(rows[s][4], new RegExp(`^${sc.handPenalty} ${sc.handCards} card`));
      assert.equal(Number(rows[s][6]), sc.tieBreak);
    });
    // The final-scoring lines are in "Since your last move".
    const recent = await page.$$eval('#log-recent li', (lis) => lis.map((li) => li.textContent));
    assert.equal(recent.filter((t) => /final scoring, seat \d/.test(t)).length, st.players, recent.join('\n'));
    assert.ok(recent.some((t) => /Game over after round/.test(t)));
    const [tableWidth, boxWidth] = await page.$eval('#final-table', (t) => [t.scrollWidth, t.parentElement.clientWidth]);
    assert.ok(tableWidth <= boxWidth, `${size}: final table ${tableWidth} px in ${boxWidth} px`);
  } finally {
    st.free();
  }
}

test('the end of a game at desktop size: winners at the top, the final table of §8 in view, the final scoring in '
  + 'the log', { skip }, async () => {
  const page = await open('players=4&seat=1&bot=random&seed=21&delay=0');
  let shotMiddle = false;
  let shotBots = false;
  await waitTurn(page);
  await page.screenshot({ path: join(shots, 'desktop-opening.png') });
  await play(page, 3, {
    scrolled: true,
    at: async (moves) => {
      if (moves >= 15 && !shotMiddle && (await page.$$('#actions button')).length >= 5) {
        shotMiddle = true;
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(shots, 'desktop-middle.png') });
      }
      return false;
    },
  });
  // A bots' turn: another game with slow bots, shot while they think.
  await checkEnd(page, 'desktop');
  await page.screenshot({ path: join(shots, 'desktop-end.png') });
  const thinking = await open('players=3&seat=0&bot=ismcts&strength=20000&seed=4&delay=0');
  await waitTurn(thinking);
  await thinking.click('#actions button.buy');
  await thinking.waitForSelector('body[data-turn="bots"]');
  await thinking.screenshot({ path: join(shots, 'desktop-bots.png') });
  shotBots = true;
  assert.ok(shotMiddle && shotBots);
  await thinking.close();
  await page.close();
});

test('the strongest level: the learned bot (issue 43) from the setup dialog plays the other seats, and says so',
  { skip }, async () => {
  const page = await open('players=2&seat=0&bot=random&seed=3&delay=0');
  await waitTurn(page);
  await page.click('#btn-new');
  if (await page.$eval('#confirm-new', (d) => d.open)) await page.click('#btn-discard');
  await page.waitForFunction(() => document.getElementById('setup').open);
  await page.selectOption('#setup select[name="players"]', '4');
  await page.selectOption('#setup select[name="seat"]', '0');
  await page.selectOption('#setup select[name="bot"]', 'learned');
  await page.selectOption('#setup select[name="strength"]', '20000');
  await page.fill('#setup input[name="seed"]', '7');
  await page.click('#btn-start');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('stpete-web-save')).setup.bot === 'learned');
  await waitTurn(page);
  const who = await page.$$eval('#players .who', (els) => els.map((e) => e.textContent));
  assert.deepEqual(who, ['Seat 0: you', 'Seat 1: bot, learned 20000', 'Seat 2: bot, learned 20000',
    'Seat 3: bot, learned 20000']);
  const t0 = Date.now();
  await page.click('#actions button.buy');
  await page.waitForSelector('body[data-turn="bots"]');
  await waitTurn(page);
  // three bot decisions at the strongest level (a benchmark's figure, printed, never asserted)
  console.log(`# the learned bot at 20000 iterations: ${((Date.now() - t0) / 3).toFixed(0)} ms per decision, with the page`);
  assert.equal(await page.getAttribute('body', 'data-turn'), 'you');
  await page.close();
});

test('a whole game at phone size (390x844): no horizontal scroll on any screen, the end in view', { skip }, async () => {
  const page = await open('players=4&seat=0&bot=random&seed=33&delay=0');
  await page.setViewportSize(PHONE);
  await waitTurn(page);
  await page.screenshot({ path: join(shots, 'phone-opening.png') });
  let screens = 0;
  let shotPhone = false;
  await play(page, 8, {
    scrolled: true,
    each: async () => {
      screens++;
      await assertNoHorizontalScroll(page, `screen ${screens}`);
      if (screens >= 20 && !shotPhone && (await page.$$('#actions button')).length >= 4) {
        shotPhone = true;
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(shots, 'phone-middle.png') });
      }
    },
  });
  assert.ok(screens > 20 && shotPhone);
  // The person's actions and the log since the last move come before the other seats.
  const order = await page.evaluate(() => ['actions', 'log', 'players'].map((id) => document.getElementById(id).getBoundingClientRect().top));
  assert.ok(order[1] < order[2], `log at ${order[1]}, players at ${order[2]}`);
  await checkEnd(page, 'phone');
  await assertNoHorizontalScroll(page, 'the end');
  await page.screenshot({ path: join(shots, 'phone-end.png') });
  // Other seats are compact (closed) and open on demand; the person's own seat is open.
  const open0 = await page.$$eval('#players details.seat', (ds) => ds.map((d) => d.open));
  assert.deepEqual(open0, [true, false, false, false]);
  await page.click('#players details.seat[data-seat="2"] summary');
  assert.equal(await page.$eval('#players details.seat[data-seat="2"]', (d) => d.open), true);
  await assertNoHorizontalScroll(page, 'a seat opened');
  const bots = await open('players=3&seat=0&bot=ismcts&strength=20000&seed=4&delay=0');
  await bots.setViewportSize(PHONE);
  await waitTurn(bots);
  const order2 = await bots.evaluate(() => ['actions', 'log', 'board', 'players'].map((id) => document.getElementById(id).getBoundingClientRect().top));
  assert.ok(order2[0] < order2[2] && order2[1] < order2[2] && order2[2] < order2[3], JSON.stringify(order2));
  assert.ok(order2[0] < PHONE.height / 3, `the actions start at ${order2[0]} px`);
  await bots.click('#actions button.buy');
  await bots.waitForSelector('body[data-turn="bots"]');
  await assertNoHorizontalScroll(bots, 'bots\' turn');
  await bots.screenshot({ path: join(shots, 'phone-bots.png') });
  await bots.close();
  await page.close();
});

test('the New Society with 5 players (§12): the setup dialog, a whole game at phone size without horizontal scroll, '
  + 'its decisions as buttons, the gold disc, the end at both sizes', { skip }, async () => {
  // the dialog, built from the library's table of options: "5 (the New Society)" is the one player count the
  // library accepts only with the expansion, and choosing it turns the expansion on (as the lobby does, js-browser-forms)
  const page = await open('players=2&seat=0&bot=random&seed=3&delay=0');
  await waitTurn(page);
  await page.click('#btn-new'); // no move made yet: the dialog at once, else "Discard it" first
  if (await page.$eval('#confirm-new', (d) => d.open)) await page.click('#btn-discard');
  await page.waitForFunction(() => document.getElementById('setup').open);
  assert.deepEqual(await page.$$eval('#setup select[name="players"] option', (os) => os.map((o) => o.textContent)),
    S.options().find((o) => o.name === 'players').labels);
  await page.selectOption('#setup select[name="players"]', '5');
  assert.deepEqual(await page.$eval('#setup input[name="new_society"]', (b) => [b.checked, b.disabled]), [true, true]);
  await page.selectOption('#setup select[name="seat"]', '4');
  await page.selectOption('#setup select[name="bot"]', 'random');
  await page.fill('#setup input[name="seed"]', '17');
  await page.click('#btn-start');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('stpete-web-save')).setup.options.players === 5);
  const setup = (await saved(page)).setup;
  assert.deepEqual([setup.options.new_society, setup.seat], [true, 4]);
  await waitTurn(page);
  assert.equal(await page.$$eval('#players details.seat', (ds) => ds.length), 5);
  assert.equal(await page.$$eval('#players .marker.gold', (m) => m.length), 1, 'one seat holds the gold disc (§12.3)');
  await page.screenshot({ path: join(shots, 'desktop-ns5-opening.png') });
  // a whole game at 390 px, preferring the expansion's cards and decisions
  await page.setViewportSize(PHONE);
  const wanted = /Debtor's Prison|Guild Hall|Trading House|^prison|^guild hall|^trading house/;
  const seen = new Set();
  let screens = 0;
  await play(page, 5, {
    each: async () => {
      screens++;
      await assertNoHorizontalScroll(page, `New Society, screen ${screens}`);
      const texts = await page.$$eval('#actions button', (bs) => bs.map((b) => b.textContent));
      for (const t of texts) {
        const m = /(prison (?:buy|take|put back)|guild hall \d|trading house (?:buy|decline))/.exec(t);
        if (m) seen.add(m[1].replace(/ \d$/, '').replace(/ (buy|take|put back|decline)$/, ''));
      }
      if (screens === 25) await page.screenshot({ path: join(shots, 'phone-ns5-middle.png') });
      if (texts.some((t) => /prison put back/.test(t)) && !seen.has('prison card shown')) {
        // the Debtor's Prison's card on the board, under its own title, while its owner decides (§12.7.5)
        assert.match(await page.textContent('#board'), /Picked from the discard pile with the Debtor's Prison/);
        seen.add('prison card shown');
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(shots, 'phone-ns5-prison.png') });
      }
    },
    choose: async (buttons, random) => {
      const texts = await Promise.all(buttons.map((b) => b.textContent()));
      const ns = texts.findIndex((t) => wanted.test(t.replace(/^\S\s*/, ''))); // after the key's letter
      return buttons[ns >= 0 && random() < 0.9 ? ns : Math.floor(random() * buttons.length)];
    },
  });
  assert.ok(screens > 20, `${screens} screens`);
  assert.ok(seen.has('prison') || seen.has('guild hall') || seen.has('trading house'),
    `the person met a decision of the New Society: ${[...seen]}`);
  await checkEnd(page, 'phone, New Society');
  await assertNoHorizontalScroll(page, 'New Society, the end');
  await page.screenshot({ path: join(shots, 'phone-ns5-end.png') });
  await page.setViewportSize(DESKTOP);
  await page.evaluate(() => window.scrollTo(0, 0)); // the window grown: the top of the page, as a new visit shows it
  await checkEnd(page, 'desktop, New Society');
  await page.screenshot({ path: join(shots, 'desktop-ns5-end.png') });
  // a saved game at a seat's Debtor's Prison decision (found by the library in Node), imported at 390 px: the
  // card on the board under its title with its price, its actions as buttons (put back always), no pass (§12.7.5)
  const game = new S.Game({ players: 5, newSociety: true });
  let save = null;
  for (let seed = 1; !save; seed++) {
    const st = game.newState(BigInt(seed));
    const bot = new S.Bot(game, 'random', seed);
    while (!st.isTerminal && st.decision !== S.Decision.PRISON) st.apply(bot.choose(st));
    if (!st.isTerminal) {
      save = { format: 'stpete-web-save', version: 3, actions: st.history(), replay: JSON.parse(st.replayToJson()),
        setup: { seat: st.currentPlayer, bot: 'random', strength: 1000, seed: String(seed),
          options: { players: 5, new_society: true } },
        card: game.cardInfo(st.prisonCard).name };
    }
    bot.free();
    st.free();
  }
  game.free();
  await page.setViewportSize(PHONE);
  const { card, ...data } = save;
  await page.setInputFiles('#file-import', { name: 'prison.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(data)) });
  await page.waitForFunction((n) => JSON.parse(localStorage.getItem('stpete-web-save')).actions.length === n,
    data.actions.length);
  await waitTurn(page);
  const board = await page.textContent('#board');
  assert.match(board, new RegExp(`Picked from the discard pile with the Debtor's Prison${card}`));
  const buttons = await page.$$eval('#actions button', (bs) => bs.map((b) => b.textContent.slice(1)));
  assert.ok(buttons.includes('prison put back') && buttons.every((b) => b.startsWith('prison ')), buttons.join(' | '));
  await assertNoHorizontalScroll(page, 'the Prison\'s decision');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(shots, 'phone-ns5-prison.png') });
  await page.close();
});

test('the game survives a reload, in the middle and after the end; "New game" asks before discarding it', { skip }, async () => {
  const page = await open('players=2&seat=0&bot=greedy&seed=12&delay=0');
  assert.equal(new URL(page.url()).search, '?delay=0', 'the address\'s setup leaves the address once started');
  await play(page, 4, { at: async (moves) => moves === 10 });
  const middle = await saved(page);
  assert.equal(middle.version, 3);
  assert.ok(middle.actions.length >= 10);
  const status = await page.textContent('#status-line');
  await page.reload();
  await page.waitForSelector('body[data-ready="1"][data-worker="ready"]', { state: 'attached' });
  await waitTurn(page);
  assert.deepEqual((await saved(page)).actions, middle.actions);
  assert.equal(await page.textContent('#status-line'), status);
  assert.equal(await page.isHidden('#message'), true);
  // New game asks first; "Keep playing" keeps the game.
  await page.click('#btn-new');
  assert.equal(await page.$eval('#confirm-new', (d) => d.open), true);
  assert.equal(await page.$eval('#setup', (d) => d.open), false);
  await page.click('#confirm-new button[value="keep"]');
  assert.deepEqual((await saved(page)).actions, middle.actions);
  // To the end, then reload: the end is shown again (winners, table in view).
  await play(page, 6);
  const end = await saved(page);
  await page.reload();
  await page.waitForSelector('body[data-ready="1"][data-turn="over"]', { state: 'attached' });
  assert.deepEqual((await saved(page)).actions, end.actions);
  await checkEnd(page, 'desktop, reloaded');
  // After the end, New game does not ask; "Discard it" then Start gives a new game.
  await page.click('#btn-new');
  assert.equal(await page.$eval('#setup', (d) => d.open), true);
  await page.selectOption('#setup select[name="bot"]', 'random');
  await page.click('#btn-start');
  await page.waitForFunction(() => document.body.dataset.turn !== 'over');
  const fresh = await saved(page);
  assert.notDeepEqual(fresh.actions, end.actions);
  await play(page, 9, { at: async (moves) => moves === 2 });
  await page.click('#btn-new');
  await page.click('#btn-discard');
  await page.waitForFunction(() => document.getElementById('setup').open);
  await page.selectOption('#setup select[name="players"]', '3');
  await page.fill('#setup input[name="seed"]', '5');
  await page.click('#btn-start');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('stpete-web-save')).setup.options.players === 3);
  await page.close();
});

test('hostile saves and addresses are refused with a visible message; the game on the page is untouched', { skip }, async () => {
  const page = await open('players=3&seat=1&bot=greedy&seed=77&delay=0');
  await play(page, 2, { at: async (moves) => moves === 5 });
  const good = await saved(page);
  const same = async (what) => {
    assert.deepEqual(await saved(page), good, `${what}: the saved game changed`);
    assert.equal(await page.isVisible('#message'), true, `${what}: no message`);
  };
  const importText = async (text) => {
    await page.setInputFiles('#file-import', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForSelector('#message:not([hidden])');
    return page.textContent('#message-text');
  };
  const edit = (f) => { const d = structuredClone(good); f(d); return JSON.stringify(d); };
  // A replay of the same game with another action: what the library says about the replay.
  const otherAction = edit((d) => { d.actions[2] = 971; d.replay.actions[2] = { id: 971, action: 'pass' }; });
  const cases = [
    ['not json', 'not JSON', /not JSON/],
    ['an empty object', '{}', /not a saved Saint Petersburg game/],
    ['a file over 4 MiB', ' '.repeat((4 << 20) + 1), /too large/],
    ['version 99', edit((d) => { d.version = 99; }), /save version 99 is not supported/],
    ['version 999 and replay format_version 999', edit((d) => { d.version = 999; d.replay.format_version = 999; }), /version 999/],
    ['replay format_version 999', edit((d) => { d.replay.format_version = 999; }), /replay record is refused by the library/],
    ['replay with an illegal action', otherAction, /replay record is refused by the library/],
    ['no replay in version 2', edit((d) => { delete d.replay; }), /replay record is missing/],
    ['setup and replay differ', edit((d) => { d.setup.seed = '78'; }), /seed/],
    ['public_hands turned on', edit((d) => { d.setup.options.public_hands = true; }), /public_hands/],
    ['public_hands turned on in both', edit((d) => { d.setup.options.public_hands = true; d.replay.options.public_hands = true; }),
      /rules of a game in progress do not change/],
    ['an option the library does not have', edit((d) => { d.setup.options.cheat = true; }), /rule option "cheat" is unknown/],
    ['chance nodes', edit((d) => { d.setup.options.chance_mode = 'explicit'; }), /the page sets chance_mode itself/],
    ['strength 10^7', edit((d) => { d.setup.bot = 'ismcts'; d.setup.strength = 1e7; }), /strength must be 10 to 20000/],
    ['strength 0', edit((d) => { d.setup.bot = 'mc'; d.setup.strength = 0; }), /strength/],
    ['seat -1', edit((d) => { d.setup.seat = -1; }), /seat must be 0 to 2/],
    ['players 9', edit((d) => { d.setup.options.players = 9; }), /players must be 2, 3 or 4/],
    ['players 5 without the New Society', edit((d) => { d.setup.options.players = 5; }), /players must be 2, 3 or 4, not 5/],
    ['action 972', edit((d) => { d.actions.push(972); }), /not a list of action ids/],
    ['a version-1 save with public hands', JSON.stringify({ format: 'stpete-web-save', version: 1,
      setup: { players: 3, seat: 1, edition: 1, bot: 'greedy', strength: 1000, seed: '5', publicHands: true },
      actions: [0] }), /version-1 save/],
  ];
  for (const [what, text, message] of cases) {
    const shown = await importText(text);
    assert.match(shown, message, what);
    assert.match(shown, /unchanged/, what);
    await same(what);
    await page.click('#message-close');
  }
  // A save of 1.1 (version 2: the setup's own names, the options in the replay record) still loads.
  const version2 = JSON.stringify({ format: 'stpete-web-save', version: 2, actions: good.actions, replay: good.replay,
    setup: { players: 3, seat: 1, edition: 1, bot: 'greedy', strength: 1000, seed: good.setup.seed, pubPerPlayer: false,
      tieTotal: false, publicRubles: false, publicHands: false } });
  await page.setInputFiles('#file-import', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(version2) });
  await page.waitForTimeout(500); // the same game: loaded again, or a message
  assert.equal(await page.isHidden('#message'), true, await page.textContent('#message-text'));
  assert.deepEqual((await saved(page)).actions, good.actions);
  // The same save with only the bots changed is accepted (the checks refuse only what is wrong).
  const other = edit((d) => { d.setup.bot = 'random'; d.setup.strength = 20000; });
  await page.setInputFiles('#file-import', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(other) });
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('stpete-web-save')).setup.bot === 'random');
  assert.equal(await page.isHidden('#message'), true);
  await page.close();

  // Issue 46, item 13: a save of this game with public rubles and hands turned on in its setup and its replay
  // record is refused also once another game is on the page (the page keeps the rule options of every game it has
  // played: the rules of a game in progress do not change, whatever is on the page); the other game stays.
  const another = await open('players=2&seat=0&bot=random&seed=91&delay=0');
  await waitTurn(another);
  const forged = edit((d) => {
    Object.assign(d.setup.options, { public_hands: true, public_rubles: true });
    Object.assign(d.replay.options, { public_hands: true, public_rubles: true });
  });
  await another.setInputFiles('#file-import', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(forged) });
  await another.waitForSelector('#message:not([hidden])');
  assert.match(await another.textContent('#message-text'), /rules of a game in progress do not change/);
  assert.equal((await saved(another)).setup.seed, '91');
  await another.close();

  // Addresses: each refused with a message, the saved game continues.
  const before = await (async () => {
    const p = await open('players=2&seat=0&bot=random&seed=3&delay=0');
    await play(p, 1, { at: async (moves) => moves === 3 });
    const d = await saved(p);
    await p.close();
    return d;
  })();
  for (const [query, message] of [
    ['seat=-1', /seat must be 0 to 3, not -1/], ['players=9', /players must be 2, 3 or 4/],
    ['players=2&seat=2', /seat must be 0 to 1/], ['strength=10000000', /strength must be 10 to 20000/],
    ['bot=evil', /bots must be one of/], ['seed=-5', /seed/], ['seed=18446744073709551616', /seed/],
    ['edition=3', /edition must be 1 \(first \(2004\)\) or 2/], ['delay=-1', /delay must be 0 to 5000/], ['delay=9999999', /delay/],
    ['players=two', /whole number/], ['cheat=1', /parameter cheat is unknown/]]) {
    const p = await open(query);
    await p.waitForSelector('#message:not([hidden])');
    assert.match(await p.textContent('#message-text'), message, query);
    assert.deepEqual((await saved(p)).actions.slice(0, before.actions.length), before.actions, query);
    assert.equal((await saved(p)).setup.seed, before.setup.seed, query);
    await p.close();
  }
  // A damaged save in this browser: a message at the reload, and a new game.
  const p = await open('');
  await p.evaluate(() => localStorage.setItem('stpete-web-save', '{"format": "stpete-web-save", "version": 7}'));
  await p.reload();
  await p.waitForSelector('#message:not([hidden])');
  assert.match(await p.textContent('#message-text'), /not loaded: save version 7/);
  await p.close();
});

test('axe-core finds no serious or critical violation (opening, bots\' turn, dialog, end; both sizes)', { skip }, async () => {
  const axePath = createRequire(join(sourceDir, 'bindings', 'js', 'package.json')).resolve('axe-core/axe.min.js');
  const check = async (page, where) => {
    await page.addScriptTag({ path: axePath });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
    });
    const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad, [], `${where}: ${JSON.stringify(bad)}`);
  };
  for (const size of [DESKTOP, PHONE]) {
    const page = await open('players=3&seat=0&bot=ismcts&strength=20000&seed=4&delay=0');
    await page.setViewportSize(size);
    await waitTurn(page);
    await check(page, `opening ${size.width}`);
    await page.click('#actions button.buy');
    await page.waitForSelector('body[data-turn="bots"]');
    await check(page, `bots' turn ${size.width}`);
    await page.click('#btn-new');
    await check(page, `confirm dialog ${size.width}`);
    await page.close();
    const end = await open('players=2&seat=0&bot=random&seed=5&delay=0');
    await end.setViewportSize(size);
    await play(end, 1);
    await end.click('#players details.seat[data-seat="1"] summary').catch(() => {});
    await check(end, `end ${size.width}`);
    await end.close();
  }
});

test('a whole game by keyboard alone (Tab, Enter, the action keys), started from "New game"', { skip }, async () => {
  const page = await open('players=2&seat=0&bot=random&seed=40&delay=0');
  await waitTurn(page);
  // New game by keys: Shift+Tab back to "New game", Enter, the question (Tab to "Discard it"), the setup (2
  // players, random bots, by typing in the lists), Start.
  await page.keyboard.press('1');
  await waitTurn(page);
  await page.keyboard.press('Shift+Tab');
  for (let k = 0; k < 40 && await page.evaluate(() => document.activeElement.id) !== 'btn-new'; k++) await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('#confirm-new', (d) => d.open), true);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'btn-discard');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('setup').open);
  for (let k = 0; k < 20 && await page.evaluate(() => document.activeElement.id) !== 'btn-start'; k++) {
    const name = await page.evaluate(() => document.activeElement.name);
    if (name === 'players') await page.keyboard.press('2');
    if (name === 'bot') await page.keyboard.press('r');
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('setup').open);
  const setup = (await saved(page)).setup;
  assert.deepEqual([setup.options.players, setup.bot, (await saved(page)).actions.length <= 1], [2, 'random', true]);
  // The game: the focus is on the first action at each turn; Enter plays it, or an action's key, or Tab then Enter.
  const random = rng(11);
  let moves = 0;
  while (!(await waitTurn(page))) {
    // the focus comes to the actions when they are drawn (after the bots' moves and the dialog's close, which may
    // land in either order on a loaded machine): wait for it, a bounded time
    const focused = await page.waitForFunction(() => document.activeElement?.closest('#actions') != null, null,
      { timeout: 5000 }).then(() => true, () => false);
    assert.ok(focused, `move ${moves}: the focus is on the actions`);
    const keys = await page.$$eval('#actions button', (bs) => bs.map((b) => b.dataset.key));
    const r = random();
    if (r < 0.4) await page.keyboard.press('Enter');
    else if (r < 0.6 && keys.length > 1) { await page.keyboard.press('Tab'); await page.keyboard.press('Enter'); }
    else await page.keyboard.press(keys[Math.floor(random() * keys.length)]);
    moves++;
  }
  assert.ok(moves > 10);
  const st = await replayed(page);
  assert.ok(st.isTerminal);
  st.free();
  await page.close();
});

test('what each seat shows: the library\'s per-seat view (hands, rubles), markers, incomes, the last discarded '
  + 'cards, the live region, the log\'s numbers', { skip }, async () => {
  const page = await open('players=3&seat=0&bot=greedy&seed=61&delay=0');
  const takes = async (buttons, random) => {
    for (const b of buttons) if (/^\S*take /.test(await b.textContent()) && random() < 0.5) return b;
    return buttons[Math.floor(random() * buttons.length)];
  };
  let checked = 0;
  let handsSeen = 0;
  await play(page, 17, {
    choose: takes,
    each: async () => {
      if (await page.getAttribute('body', 'data-turn') === 'over') return;
      const st = await replayed(page);
      try {
        const view = JSON.parse(st.viewToJson(0));
        for (let s = 0; s < 3; s++) {
          const seat = `#players details.seat[data-seat="${s}"]`;
          const facts = await page.textContent(`${seat} summary`);
          const rubles = view.players[s].rubles;
          assert.match(facts, new RegExp(` ${rubles === null ? '\\?' : rubles} R `), facts);
          if (s !== 0) assert.equal(rubles, null, 'other seats\' rubles are secret by default (§9)');
          const hand = await page.$$eval(`${seat} [data-hand] .card`, (cs) => cs.map((c) => c.dataset.card));
          assert.deepEqual(hand, view.players[s].hand.map((c) => c ?? '?'));
          if (s !== 0 && hand.length) handsSeen++;
          const holds = st.markerHolders().map((h, p) => (h === s ? S.phaseName(p) : null)).filter(Boolean);
          if (holds.length) assert.match(facts, new RegExp(`▶ ${holds.join(', ')}`), facts);
          else assert.doesNotMatch(facts, /▶/);
          if (!(view.final_round && view.phase === 'trading')) assert.match(facts, /scoring (nothing|\+\d+ R|\+\d+ VP)/);
        }
        // The log's numbers are whole ("10.", not ".0") and inside their list.
        const numbers = await page.$$eval('#log li .n', (ns) => ns.map((n) => {
          const list = n.closest('ol').getBoundingClientRect();
          const r = n.getBoundingClientRect();
          return { text: n.textContent, inside: r.width === 0 || (r.left >= list.left && r.right <= list.right) };
        }));
        for (const n of numbers) assert.ok(n.inside, `log number ${n.text} is cut`);
        const texts = numbers.map((n) => n.text);
        if (texts.length >= 10) assert.ok(texts.includes('10.') || Number(texts[0]) > 10, texts.join(' '));
        checked++;
      } finally {
        st.free();
      }
    },
  });
  assert.ok(checked > 10 && handsSeen > 0, `${checked} turns checked, ${handsSeen} bot hands seen`);
  // The live region names the bots' moves.
  assert.equal(await page.getAttribute('#announce', 'aria-live'), 'polite');
  assert.match(await page.textContent('#announce'), /Game over\. .* with \d+ VP/);
  assert.match(await page.textContent('#discarded'), /Last discarded: [A-Z]/);
  await page.close();

  const p = await open('players=2&seat=0&bot=greedy&seed=2&delay=0');
  await waitTurn(p);
  await p.click('#actions button.buy');
  await p.waitForFunction(() => /seat 1 /.test(document.getElementById('announce').textContent));
  await p.close();
});

test('rubles and hands as the game\'s options say: public rubles and hands from the setup dialog (§9)', { skip }, async () => {
  const page = await open('players=3&seat=0&bot=random&seed=6&delay=0');
  await play(page, 3, { at: async (moves) => moves === 1 });
  await page.click('#btn-new');
  await page.click('#btn-discard');
  await page.waitForFunction(() => document.getElementById('setup').open);
  await page.selectOption('#setup select[name="players"]', '3');
  await page.selectOption('#setup select[name="bot"]', 'random');
  await page.fill('#setup input[name="seed"]', '6');
  await page.check('#setup input[name="public_rubles"]');
  await page.check('#setup input[name="public_hands"]');
  await page.click('#btn-start');
  await play(page, 4, { at: async (moves) => moves === 8 });
  const data = await saved(page);
  assert.equal(data.setup.options.public_rubles, true);
  const st = S.State.fromReplay(JSON.stringify(data.replay));
  for (let s = 1; s < 3; s++) {
    const facts = await page.textContent(`#players details.seat[data-seat="${s}"] summary`);
    assert.match(facts, new RegExp(` ${st.rubles(s)} R `), facts);
    const hand = await page.$$eval(`#players details.seat[data-seat="${s}"] [data-hand] .card`, (cs) => cs.map((c) => c.dataset.card));
    assert.deepEqual(hand, st.hand(s).map((c) => st.game.cardInfo(c).name));
  }
  st.free();
  await page.close();
});

test('auto-pass: with the option on, the page passes for the person when pass is the only action', { skip }, async () => {
  const page = await open('players=2&seat=0&bot=greedy&seed=8&delay=0');
  await waitTurn(page);
  await page.check('#autopass');
  await play(page, 5, {
    choose: async (buttons) => {
      // Spend: a buy, else a take, else pass; never a single pass button on screen.
      assert.ok(buttons.length > 1, 'a turn with pass as the only action was left to the person');
      const texts = await Promise.all(buttons.map((b) => b.textContent()));
      const buy = texts.findIndex((t) => /^\wbuy /.test(t));
      const take = texts.findIndex((t) => /^\wtake /.test(t));
      return buttons[buy >= 0 ? buy : take >= 0 ? take : 0];
    },
  });
  const st = await replayed(page);
  const h = st.history();
  st.free();
  const game = new S.Game({ players: 2 });
  const x = game.newState(8n);
  let forced = 0;
  for (const id of h) {
    if (x.currentPlayer === 0 && x.legalActionIds().length === 1) forced++;
    x.apply(id);
  }
  x.free();
  game.free();
  assert.ok(forced > 0, 'the game had forced passes of the person');
  assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('stpete-web-prefs'))), { autoPass: true });
  await page.close();
});

test('no console error or page error in any page', { skip }, () => {
  assert.deepEqual(errors, []);
});
