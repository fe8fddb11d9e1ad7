// The page's model (examples/web/model.js) against the library in Node: the income it announces for the next
// scoring is the income the library's scoring then gives (whenever the displays have not changed since), and the
// cards it names as discarded last are the ones the discard pile gained (§4.4, §4.5, §6, §7.1, §7.5).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, sourceDir } from './helpers.mjs';

const S = await load();
const { Chronicle, nextIncome, seatModel } = await import(pathToFileURL(join(sourceDir, 'examples', 'web', 'model.js')).href);

/** The multiset difference after - before of two lists of names. */
function gained(before, after) {
  const left = [...before];
  const out = [];
  for (const x of after) {
    const k = left.indexOf(x);
    if (k >= 0) left.splice(k, 1);
    else out.push(x);
  }
  return out.sort();
}

test('render.js draws a model without the library: it imports nothing', () => {
  const src = readFileSync(join(sourceDir, 'examples', 'web', 'render.js'), 'utf8');
  assert.doesNotMatch(src, /^\s*import\b/m);
  assert.doesNotMatch(src, /libstpete/);
});

test('a model in the middle of a game: the legal actions of the seat to act, with texts and prices', () => {
  const game = new S.Game({ players: 3 });
  const state = game.newState(4n);
  const cards = Array.from({ length: S.NUM_CARD_TYPES }, (_, k) => game.cardInfo(k));
  const chronicle = new Chronicle(S, cards);
  state.enableEventQueue();
  chronicle.record(state);
  const seat = state.currentPlayer;
  const model = seatModel(S, state, seat, cards, { labels: ['a', 'b', 'c'], chronicle, lastMove: 0 });
  assert.deepEqual(model.legal, state.legalActions().map(({ id, string, price, kind }) => ({ id, string, price, kind })));
  assert.equal(seatModel(S, state, (seat + 1) % 3, cards, { labels: [], chronicle, lastMove: 0 }).legal, null);
  assert.equal(seatModel(S, state, seat, cards, { labels: [], chronicle, lastMove: 0, mayAct: false }).legal, null);
  assert.equal(model.prices.upper.length, state.row(S.Source.UPPER).length);
  assert.equal(model.final, null);
  assert.deepEqual(model.income.phase, 'worker');
  assert.deepEqual(JSON.parse(JSON.stringify(model)), model);
  state.free();
  game.free();
});

test('the New Society with 5 players (§12): the gold disc, the Prison\'s card and its price in the model', () => {
  const game = new S.Game({ players: 5, newSociety: true });
  const cards = Array.from({ length: game.numCardTypes }, (_, k) => game.cardInfo(k));
  assert.equal(cards.length, 62);
  let prisonModels = 0;
  for (let seed = 1n; seed <= 6n && prisonModels === 0; seed++) {
    const state = game.newState(seed);
    const chronicle = new Chronicle(S, cards);
    state.enableEventQueue();
    chronicle.record(state);
    const bot = new S.Bot(game, 'random', seed);
    const labels = ['a', 'b', 'c', 'd', 'e'];
    assert.equal(seatModel(S, state, 0, cards, { labels, chronicle, lastMove: 0 }).goldDisc, state.goldDiscHolder);
    while (!state.isTerminal) {
      if (state.decision === S.Decision.PRISON) { // §12.7.5: the card picked, bought without a row discount
        const seat = state.currentPlayer;
        const model = seatModel(S, state, seat, cards, { labels, chronicle, lastMove: 0 });
        assert.equal(model.view.observatory_card, cards[state.prisonCard].name);
        const want = cards[state.prisonCard].trading ? /^(displacing|nothing)/
          : new RegExp(`^you pay ${state.price(seat, state.prisonCard, S.Source.DISCARD)} R$`);
        assert.match(model.prices.observatory, want);
        assert.ok(model.legal.every((a) => a.kind >= S.ActionKind.PRISON_BUY && a.kind <= S.ActionKind.PRISON_PUT_BACK));
        prisonModels++;
      }
      const lower = state.row(S.Source.LOWER);
      state.apply(bot.choose(state));
      chronicle.record(state, lower);
    }
    const end = seatModel(S, state, 0, cards, { labels, chronicle, lastMove: 0 });
    assert.equal(end.final.scores.length, 5);
    bot.free();
    state.free();
  }
  assert.ok(prisonModels > 0, 'a Prison decision was met');
  game.free();
});

for (const [players, edition, seed] of [[2, 1, 1], [3, 2, 2], [4, 1, 3], [4, 2, 4], [3, 1, 5]]) {
  test(`${players} players, edition ${edition}: next income = the scoring's income; last discarded = the pile's gain`, () => {
    const game = new S.Game({ players, edition });
    const state = game.newState(BigInt(seed));
    const bot = new S.Bot(game, 'greedy', seed);
    const cards = Array.from({ length: S.NUM_CARD_TYPES }, (_, k) => game.cardInfo(k));
    const chronicle = new Chronicle(S, cards);
    state.enableEventQueue();
    chronicle.record(state);
    const publicView = () => JSON.parse(state.viewToJson(S.VIEW_PUBLIC));
    const displays = (v) => JSON.stringify(v.players.map((p) => [p.display, p.observatories_used]));
    let predictions = []; // since the last scoring: {displays, income}
    let scorings = 0;
    let discards = 0;
    let view = publicView();
    while (!state.isTerminal) {
      predictions.push({ displays: displays(view), income: nextIncome(S, state) });
      const lower = state.row(S.Source.LOWER);
      state.apply(bot.choose(state));
      const events = chronicle.record(state, lower);
      const after = publicView();
      const scoring = events.filter((e) => e.kind === S.EventKind.SCORING);
      if (scoring.length) {
        const first = predictions.find((p) => p.displays === displays(after));
        assert.ok(first, 'the position before the scoring was predicted');
        assert.equal(first.income.phase, S.phaseName(scoring[0].phase));
        for (const e of scoring) assert.deepEqual(first.income.seats[e.seat], { rubles: e.rubles, vp: e.vp });
        scorings++;
        predictions = [];
      }
      const pile = gained(view.discard, after.discard);
      if (pile.length) {
        assert.deepEqual([...chronicle.discarded].sort(), pile);
        discards++;
      }
      view = after;
    }
    assert.equal(nextIncome(S, state), null);
    assert.ok(scorings >= 3 && discards > 0, `${scorings} scorings, ${discards} discards`);
    // The model of a seat: the library's view of that seat, numbered log, final scores at the end.
    const model = seatModel(S, state, 0, cards, { labels: [], chronicle, lastMove: 0 });
    assert.deepEqual(model.view, JSON.parse(state.viewToJson(0)));
    assert.deepEqual(model.log.map((e) => e.n), chronicle.entries.map((_, k) => k + 1));
    assert.deepEqual(model.final.winners, state.winners());
    assert.equal(model.legal, null);
    // Plain data: a server may send it as JSON to a client that draws it with render.js.
    assert.deepEqual(JSON.parse(JSON.stringify(model)), model);
    bot.free();
    state.free();
    game.free();
  });
}

test('the New Society: the cards discarded last are the pile\'s gain, and stay on the pile (§12.7.5, §12.7.9)', () => {
  const kinds = new Set();
  for (const [players, seed] of [[5, 6n], [3, 7n], [4, 8n], [2, 9n]]) {
    const game = new S.Game({ players, newSociety: true });
    const state = game.newState(seed);
    const bot = new S.Bot(game, 'random', Number(seed));
    const cards = Array.from({ length: game.numCardTypes }, (_, k) => game.cardInfo(k));
    const chronicle = new Chronicle(S, cards);
    state.enableEventQueue();
    chronicle.record(state);
    let view = JSON.parse(state.viewToJson(S.VIEW_PUBLIC));
    while (!state.isTerminal) {
      const lower = state.row(S.Source.LOWER);
      state.apply(bot.choose(state));
      for (const e of chronicle.record(state, lower)) kinds.add(e.kind);
      const after = JSON.parse(state.viewToJson(S.VIEW_PUBLIC));
      const pile = gained(view.discard, after.discard);
      if (pile.length) assert.deepEqual([...chronicle.discarded].sort(), pile);
      assert.deepEqual(gained(after.discard, chronicle.discarded), [], 'a card discarded last is not on the pile');
      view = after;
    }
    bot.free();
    state.free();
    game.free();
  }
  for (const k of ['PRISON', 'PRISON_PUT_BACK', 'SYCOPHANT_DISCARD']) assert.ok(kinds.has(S.EventKind[k]), `no ${k} event met`);
});
