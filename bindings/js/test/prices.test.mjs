// Every price a page shows is the library's (issue 41): at every decision of the person in whole random games at
// 2, 3, 4 and 5 players, on the local page and on the online page (the server's), in Debian's chromium at 1280x800
// and 390x844 (the size changes at every decision), each price on the board, beside a hand card and on an action
// button equals stpete_state_price / stpete_state_displacements / stpete_state_action_price of the position, which
// the test rebuilds itself from the game's record (the local page's save; the server's replay record, published at
// the end). Every card in a row, the drawn card and the person's hand has its prices, and no other is shown.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { load, wasmBuild } from './helpers.mjs';
import { serve } from './server.mjs';
import { launch, openPage as openLocal, rng, saved, unavailable, waitTurn } from './browser.mjs';
import { createTable, openPage as openOnline, skip as serverSkip, startServer } from './gameserver.mjs';

const skip = unavailable() ?? false;
const SIZES = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];
const SOURCES = ['upper', 'lower', 'hand', 'observatory', 'discard'];
const GAMES = [
  { players: 2, options: {}, query: '' }, { players: 3, options: { edition: 2 }, query: '&edition=2' },
  { players: 4, options: { new_society: true }, query: '&ns=1' }, { players: 5, options: {}, query: '&ns=1' },
];
let S;
const errors = [];

/** What the page shows now: the move, its offers (data-* of each price), the places of the cards, the buttons. */
function shown(page) {
  return page.evaluate(() => {
    const num = (v) => (v === '' || v === undefined ? null : Number(v));
    return {
      move: Number(document.body.dataset.move),
      offers: [...document.querySelectorAll('.offer')].map((e) => ({ source: e.dataset.source, card: Number(e.dataset.card),
        displaced: num(e.dataset.displaced), price: Number(e.dataset.price), text: e.textContent })),
      places: {
        upper: [...document.querySelectorAll('#row-upper .card')].map((c) => c.dataset.card),
        lower: [...document.querySelectorAll('#row-lower .card')].map((c) => c.dataset.card),
        drawn: [...document.querySelectorAll('#row-drawn .card')].map((c) => c.dataset.card),
        drawnTitle: document.querySelector('#row-drawn')?.previousElementSibling?.textContent ?? '',
      },
      buttons: [...document.querySelectorAll('#actions button')].map((b) => ({ id: Number(b.dataset.action),
        price: num(b.dataset.price), text: b.textContent })),
    };
  });
}

/** Compare what the page showed at one decision of `seat` with the library's answers in `state`; returns the number
 * of prices checked. */
function check(state, seat, seen, where) {
  const game = state.game;
  const byName = new Map(Array.from({ length: game.numCardTypes }, (_, k) => [game.cardInfo(k).name, k]));
  const names = (list) => list.map((n) => byName.get(n));
  const places = [[S.Source.UPPER, names(seen.places.upper)], [S.Source.LOWER, names(seen.places.lower)],
    [S.Source.HAND, state.hand(seat)]];
  assert.deepEqual(names(seen.places.upper), state.row(S.Source.UPPER), `${where}: the upper row`);
  assert.deepEqual(names(seen.places.lower), state.row(S.Source.LOWER), `${where}: the lower row`);
  if (seen.places.drawn.length) {
    const prison = /Debtor's Prison/.test(seen.places.drawnTitle);
    places.push([prison ? S.Source.DISCARD : S.Source.OBSERVATORY, names(seen.places.drawn)]);
    assert.equal(names(seen.places.drawn)[0], prison ? state.prisonCard : state.observatoryCard, `${where}: the drawn card`);
  }
  let checked = 0;
  for (const [source, cards] of places) {
    for (const card of new Set(cards)) {
      const mine = seen.offers.filter((o) => o.source === SOURCES[source] && o.card === card)
        .map((o) => { assert.ok(o.text.includes(`${o.price} R`), `${where}: "${o.text}" says ${o.price} R`); return [o.displaced, o.price]; });
      const one = game.cardInfo(card).trading
        ? state.displacements(seat, card, source).map((d) => [d.displaced, d.price])
        : [[null, state.price(seat, card, source)]];
      const copies = cards.filter((c) => c === card).length; // each copy in the place shows its prices
      const want = Array.from({ length: copies }, () => one).flat();
      assert.deepEqual(mine, want, `${where}: ${game.cardInfo(card).name} (${SOURCES[source]}, ${copies} shown)`);
      checked += mine.length;
    }
  }
  assert.equal(checked, seen.offers.length, `${where}: a price of a card in no place`);
  for (const b of seen.buttons) {
    assert.equal(b.price, state.actionPrice(b.id), `${where}: the button ${b.text}`);
    if (b.price !== null) assert.ok(b.text.endsWith(`— ${b.price} R`), `${where}: ${b.text}`);
    checked += b.price === null ? 0 : 1;
  }
  return checked;
}

/** The person's moves by clicks (buys preferred), each decision's prices recorded first; the size alternates. */
async function playRecording(page, seed, isOver) {
  const random = rng(seed);
  const decisions = [];
  for (let k = 0; ; k++) {
    await page.waitForFunction(() => document.body.dataset.turn === 'over' || document.body.dataset.over === '1'
      || document.querySelector('#actions button') !== null, null, { timeout: 120000 });
    if (await isOver(page)) return decisions;
    await page.setViewportSize(SIZES[k % 2]);
    const seen = await shown(page);
    if (!seen.buttons.length) continue; // re-rendered meanwhile
    decisions.push({ ...seen, size: SIZES[k % 2].width });
    const buttons = await page.$$('#actions button');
    const buys = await page.$$('#actions button.buy');
    const pool = buys.length && random() < 0.7 ? buys : buttons;
    try {
      await pool[Math.floor(random() * pool.length)].click({ timeout: 2000 });
      await page.waitForFunction((n) => Number(document.body.dataset.move) > n, seen.move, { timeout: 60000 });
    } catch { /* re-rendered meanwhile (a new state arrived): look again */ }
  }
}

/** The positions of a game by its actions: positions[n] after n actions (free them). */
function positions(replay) {
  const end = S.State.fromReplay(JSON.stringify(replay));
  const ids = end.history();
  const game = end.game;
  const st = game.newState(BigInt(replay.options.seed));
  const out = [st.clone()];
  for (const id of ids) { st.apply(id); out.push(st.clone()); }
  st.free();
  return { out, free: () => { for (const x of out) x.free(); end.free(); } };
}

test('the local page: every price shown at every decision of random games at 2-5 players, both sizes', { skip }, async (t) => {
  S = await load();
  const server = await serve(join(wasmBuild, 'web'));
  const browser = await launch();
  try {
    let total = 0;
    let count = 0;
    for (const [k, g] of GAMES.entries()) {
      const page = await openLocal(browser, server.url, `players=${g.players}&seat=${k % g.players}&bot=random&seed=${60 + k}&delay=0${g.query}`, errors);
      const decisions = await playRecording(page, 60 + k, async (p) => (await p.getAttribute('body', 'data-turn')) === 'over');
      const data = await saved(page);
      const game = positions(data.replay);
      for (const d of decisions) total += check(game.out[d.move], data.setup.seat, d, `local, ${g.players} players, move ${d.move}, ${d.size} px`);
      count += decisions.length;
      game.free();
      assert.ok(decisions.length > 10, `${decisions.length} decisions`);
      await page.close();
    }
    assert.ok(total > 500, `${total} prices checked`);
    t.diagnostic(`${total} prices checked at ${count} decisions`);
  } finally {
    await browser.close();
    await server.close();
  }
  assert.deepEqual(errors, []);
});

test('the online page: every price shown at every decision of random games at 2-5 players, both sizes',
  { skip: skip || serverSkip }, async (t) => {
    S ??= await load();
    const server = await startServer();
    try {
      let total = 0;
      let count = 0;
      for (const [k, g] of GAMES.entries()) {
        const context = await server.browser.newContext({ viewport: SIZES[0] });
        const lobby = await openOnline(context, `${server.url}/`, errors);
        const seat = k % g.players;
        const options = g.players === 5 ? {} : g.options; // "5 (New Society)" turns the expansion on
        const { table, links } = await createTable(lobby, { players: g.players, people: [seat], options });
        const page = await openOnline(context, links[0], errors);
        const decisions = await playRecording(page, 70 + k, (p) => p.evaluate(() => document.body.dataset.over === '1'));
        const res = await fetch(`${server.url}/api/tables/${table}/replay`);
        assert.equal(res.status, 200);
        const replay = await res.json();
        const game = positions(replay);
        for (const d of decisions) total += check(game.out[d.move], seat, d, `online, ${g.players} players, move ${d.move}, ${d.size} px`);
        count += decisions.length;
        game.free();
        assert.ok(decisions.length > 10, `${decisions.length} decisions`);
        await context.close();
      }
      assert.ok(total > 500, `${total} prices checked`);
      t.diagnostic(`${total} prices checked at ${count} decisions`);
    } finally {
      await server.stop();
    }
    assert.deepEqual(errors, []);
  });
