// The table document (State.tableToJson, stpete_state_table_to_json; doc/format.md "Table document") against the
// library's own answers, in Node, at every decision of whole games (2-5 players, both editions, the New Society):
// the view, the legal actions with their fields and prices, the offers (State.price and State.displacements), the
// incomes (the library's scoring then gives them), the cards discarded last (the pile's gain), each seat's last
// move and the log (the event queue's lines); spectators and loaded positions. (The schema: tests/schema-check.py.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, sourceDir } from './helpers.mjs';

const S = await load();

/** The multiset difference after - before of two lists. */
function gained(before, after) {
  const left = [...before];
  const out = [];
  for (const x of after) {
    const k = left.indexOf(x);
    if (k >= 0) left.splice(k, 1);
    else out.push(x);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
const SOURCES = ['upper', 'lower', 'hand', 'observatory', 'discard'];

/** Every check of one document of `seat` (a seat or null) against the state. */
function checkDocument(state, seat, doc, names) {
  const g = state.game;
  assert.equal(doc.format, 'stpete-table');
  assert.equal(doc.table_version, S.TABLE_VERSION);
  assert.equal(doc.seat, seat);
  assert.equal(doc.move, state.history().length);
  assert.deepEqual(doc.view, JSON.parse(state.viewToJson(seat)));
  assert.equal(doc.to_act, state.isTerminal || state.isChanceNode ? null : state.currentPlayer);
  assert.equal(doc.decision, S.decisionName(state.decision));
  assert.deepEqual(doc.phases, [0, 1, 2, 3].map(S.phaseName));
  // the legal actions of the viewer when it is to act: the library's ids, texts and prices, decoded
  const mine = seat !== null && doc.to_act === seat;
  assert.deepEqual(doc.actions.map((a) => [a.id, a.text, a.price]),
    mine ? state.legalActions().map((a) => [a.id, a.string, a.price]) : []);
  for (const a of doc.actions) {
    const f = S.decodeAction(a.id);
    assert.equal(a.kind, S.actionKindName(f.kind));
    assert.equal(a.source, f.source >= 0 ? S.sourceName(f.source) : null);
    assert.equal(a.card, f.card >= 0 ? f.card : null);
    assert.equal(a.displaced, f.displaced >= 0 ? f.displaced : null);
  }
  // the offers: every price the library's (stpete_state_price, stpete_state_displacements)
  if (seat === null) {
    assert.equal(doc.offers, null);
  } else {
    assert.deepEqual(doc.offers, state.offers(seat).map((o) => ({ action: o.action, source: S.sourceName(o.source),
      card: o.card, displaced: o.displaced >= 0 ? o.displaced : null, price: o.price, legal: state.isLegal(o.action) })));
    const places = [[S.Source.UPPER, state.row(S.Source.UPPER)], [S.Source.LOWER, state.row(S.Source.LOWER)],
      [S.Source.HAND, state.hand(seat)]];
    if (doc.to_act === seat && state.observatoryCard >= 0) places.push([S.Source.OBSERVATORY, [state.observatoryCard]]);
    if (doc.to_act === seat && state.prisonCard >= 0) places.push([S.Source.DISCARD, [state.prisonCard]]);
    let expected = 0;
    for (const [source, list] of places) {
      for (const card of new Set(list)) {
        const here = doc.offers.filter((o) => o.source === SOURCES[source] && o.card === card);
        if (g.cardInfo(card).trading) {
          assert.deepEqual(here.map((o) => [o.displaced, o.price]),
            state.displacements(seat, card, source).map((d) => [d.displaced, d.price]));
        } else {
          assert.deepEqual(here.map((o) => [o.displaced, o.price]), [[null, state.price(seat, card, source)]]);
        }
        expected += here.length;
      }
    }
    assert.equal(doc.offers.length, expected, 'no offer of a card the seat has no way to');
    // every legal buy or play is an offer at the action's own price
    for (const a of state.legalActions()) {
      if (!mine || ![S.ActionKind.BUY, S.ActionKind.PLAY, S.ActionKind.OBSERVATORY_BUY, S.ActionKind.PRISON_BUY].includes(a.kind)) continue;
      const o = doc.offers.find((x) => x.action === a.id);
      assert.ok(o && o.legal && o.price === a.price, `${a.string}: an offer at ${a.price} R`);
    }
  }
  // the incomes: the library's, per seat and phase; the next scoring's phase
  if (state.isTerminal) {
    assert.equal(doc.incomes, null);
  } else {
    assert.equal(doc.incomes.next, state.nextScoring >= 0 ? S.phaseName(state.nextScoring) : null);
    for (const phase of [0, 1, 2]) {
      assert.deepEqual(doc.incomes[S.phaseName(phase)], Array.from({ length: state.players }, (_, s) => state.income(s, phase)));
    }
  }
  assert.deepEqual(doc.hand_limits, Array.from({ length: state.players }, (_, s) => state.handLimit(s)));
  assert.equal(doc.gold_disc, state.goldDiscHolder >= 0 ? state.goldDiscHolder : null);
  assert.deepEqual(doc.discarded_last, state.lastDiscards());
  assert.deepEqual(doc.result === null, !state.isTerminal);
  if (doc.result) {
    assert.deepEqual(doc.result.winners, state.winners());
    assert.deepEqual(doc.result.scores.map((x) => x.total), state.scores().map((x) => x.total));
  }
  if (names) assert.equal(doc.cards, null);
}

const GAMES = [
  [{ players: 2, edition: 1 }, 1], [{ players: 3, edition: 2 }, 2], [{ players: 4, edition: 1 }, 3],
  [{ players: 2, newSociety: true }, 4], [{ players: 3, newSociety: true }, 5], [{ players: 4, newSociety: true }, 6],
  [{ players: 5, newSociety: true }, 7], [{ players: 5, newSociety: true, markersOneSeat: true, usedPrisonScores: true }, 8],
];
for (const [options, seed] of GAMES) {
  test(`a whole game, ${JSON.stringify(options)}: every seat's and the spectators' document at every decision`, () => {
    const game = new S.Game(options);
    const state = game.newState();
    state.enableEventQueue();
    state.reset(BigInt(seed)); // the setup's events into the queue
    const bot = new S.Bot(game, 'random', seed);
    const lines = []; // {text, seat, kind, move} from the event queue
    const lastMoves = Array(state.players).fill(null);
    const queued = () => { for (const e of state.events()) lines.push({ text: e.text, kind: S.eventKindName(e.kind), seat: e.seat >= 0 ? e.seat : null, move: state.history().length }); };
    queued();
    let pile = JSON.parse(state.viewToJson(null)).discard;
    let discards = 0;
    for (let step = 0; !state.isTerminal; step++) {
      const seats = [null, ...Array.from({ length: state.players }, (_, s) => s)];
      for (const seat of seats) {
        if (step % 3 !== 0 && seat !== state.currentPlayer) continue; // every decision of the seat to act; the others now and then
        const doc = JSON.parse(state.tableToJson(seat));
        checkDocument(state, seat, doc, true);
        assert.deepEqual(doc.log.map((e) => [e.n, e.move, e.seat, e.kind, e.text]),
          lines.map((e, k) => [k + 1, e.move, e.seat, e.kind, e.text]));
        assert.equal(doc.log_size, lines.length);
        assert.deepEqual(doc.last_moves, lastMoves);
        const mineFrom = seat === null ? Math.min(...lastMoves.map((m) => (m === null ? -1 : m))) : (lastMoves[seat] ?? -1);
        assert.equal(doc.recent_from, mineFrom);
      }
      // a later document with `since` holds only the newer entries
      const tail = JSON.parse(state.tableToJson(null, { since: Math.max(0, lines.length - 3) }));
      assert.deepEqual(tail.log.map((e) => e.n), lines.slice(-3).map((_, k) => lines.length - Math.min(3, lines.length) + k + 1));
      const actor = state.currentPlayer;
      lastMoves[actor] = state.history().length;
      state.apply(bot.choose(state));
      queued();
      const view = JSON.parse(state.viewToJson(null));
      const gain = gained(pile, view.discard);
      if (gain.length) {
        assert.deepEqual(state.lastDiscards().map((k) => game.cardInfo(k).name).sort(), gain, 'the cards discarded last are the pile\'s gain');
        discards++;
      }
      assert.deepEqual(gained(view.discard, state.lastDiscards().map((k) => game.cardInfo(k).name)), [], 'a card discarded last is on the pile');
      pile = view.discard;
    }
    const end = JSON.parse(state.tableToJson(0, { cards: true }));
    checkDocument(state, 0, end, false);
    assert.equal(end.cards.length, game.numCardTypes);
    end.cards.forEach((c, k) => {
      const info = game.cardInfo(k);
      assert.deepEqual([c.card, c.name, c.colour, c.trading, c.cost, c.rubles, c.vp, c.copies, c.stack, c.special, c.text],
        [k, info.name, S.colourName(info.colour), info.trading, info.cost, info.rubles, info.vp, info.copies,
          S.stackName(info.stack), info.special, game.cardText(k)]);
      assert.equal(c.scoring, S.phaseName(info.colour));
    });
    assert.ok(discards > 0, `${discards} discards`);
    bot.free();
    state.free();
    game.free();
  });
}

test('the incomes announced are those the scoring then gives (§4.4), whenever the displays are unchanged', () => {
  for (const [options, seed] of GAMES) {
    const game = new S.Game(options);
    const state = game.newState(BigInt(seed) + 100n);
    state.enableEventQueue();
    const bot = new S.Bot(game, 'greedy', seed);
    const displays = () => JSON.stringify(JSON.parse(state.viewToJson(null)).players.map((p) => [p.display, p.observatories_used, p.prison_used]));
    let seen = new Map(); // displays -> incomes of the document then
    let checked = 0;
    while (!state.isTerminal) {
      const doc = JSON.parse(state.tableToJson(null));
      seen.set(displays(), doc.incomes);
      state.apply(bot.choose(state));
      const scoring = state.events().filter((e) => e.kind === S.EventKind.SCORING);
      if (!scoring.length) continue;
      // the scoring ran on the displays of a position before it (its events come after the phase's last pass)
      const before = [...seen.values()].at(-1);
      for (const e of scoring) {
        assert.equal(before.next, S.phaseName(e.phase));
        assert.deepEqual(before[S.phaseName(e.phase)][e.seat], { rubles: e.rubles, vp: e.vp },
          `${JSON.stringify(options)}: seat ${e.seat} at the ${S.phaseName(e.phase)} scoring of round ${e.round}`);
        checked++;
      }
      seen = new Map();
    }
    assert.ok(checked > 10, `${checked} scorings checked`);
    bot.free();
    state.free();
    game.free();
  }
});

test('a loaded position: no log before its root, nothing discarded last; a person\'s document without what people may not get', () => {
  const game = new S.Game({ players: 3, newSociety: true });
  const state = game.newState(9n);
  const bot = new S.Bot(game, 'random', 9);
  for (let k = 0; k < 80; k++) state.apply(bot.choose(state));
  const loaded = S.State.fromJson(state.toJson());
  const doc = JSON.parse(loaded.tableToJson(1));
  assert.deepEqual([doc.move, doc.log_size, doc.log, doc.discarded_last, doc.last_moves], [0, 0, [], [], [null, null, null]]);
  checkDocument(loaded, 1, doc, true);
  loaded.apply(bot.choose(loaded));
  assert.equal(JSON.parse(loaded.tableToJson(1)).move, 1);
  const person = JSON.parse(state.tableToJson(2, { person: true }));
  assert.ok(!('information_state_key' in person.view) && person.view.players.every((p) => !('known_rubles' in p)));
  const full = JSON.parse(state.tableToJson(2));
  assert.ok('information_state_key' in full.view && full.view.players.every((p) => 'known_rubles' in p));
  assert.throws(() => state.tableToJson(3), S.InvalidArgumentError);
  assert.throws(() => state.tableToJson(0, { since: -1 }), S.InvalidArgumentError);
  for (const x of [loaded, state, bot, game]) x.free();
});

test('the page writes a negative amount with its minus sign: "-1 R", never "+-1 R" (issue 45, item 15)', async () => {
  const { incomeText, signed } = await import(pathToFileURL(join(sourceDir, 'bindings', 'js', 'web', 'render.js')).href);
  assert.equal(incomeText({ rubles: -1, vp: 0 }), '-1 R');
  assert.equal(incomeText({ rubles: 3, vp: 1 }), '+3 R +1 VP');
  assert.equal(incomeText({ rubles: -2, vp: 3 }), '-2 R +3 VP');
  assert.equal(incomeText({ rubles: 0, vp: 0 }), 'nothing');
  assert.equal(signed(0, 'VP'), '+0 VP');
  // a real one: a Sycophant's ruble at the aristocrat scoring (§12.7.9) in a document of the library
  const game = new S.Game({ players: 5, newSociety: true });
  let found = null;
  for (let seed = 1n; seed < 40n && !found; seed++) {
    const st = game.newState(seed);
    const bot = new S.Bot(game, 'random', Number(seed));
    while (!st.isTerminal && !found) {
      const doc = JSON.parse(st.tableToJson(null));
      const x = doc.incomes?.aristocrat.find((i) => i.rubles < 0);
      if (x) found = incomeText(x);
      st.apply(bot.choose(st));
    }
    bot.free();
    st.free();
  }
  game.free();
  assert.match(found ?? '', /^-\d+ R/);
});
