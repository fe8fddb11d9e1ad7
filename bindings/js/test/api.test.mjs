// The JavaScript package: options, legal actions with strings and prices, apply/undo, clone, JSON, views, events,
// scores, observation, information-state keys, determinization, bots, errors and memory.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from './helpers.mjs';

const S = await load();

const freeAll = (...objects) => { for (const x of objects) x.free(); };

/** Play `n` actions (or to the end) with a seeded random bot. */
function play(state, n = Infinity, spec = 'random', seed = 7) {
  const bot = new S.Bot(state.game, spec, seed);
  try {
    for (let k = 0; k < n && !state.isTerminal; k++) state.apply(bot.choose(state));
  } finally { bot.free(); }
  return state;
}

test('options round-trip and the game\'s figures', () => {
  const g = new S.Game({ players: 3, edition: 2, seed: 42, pubCap: S.PubCap.PER_PLAYER, tieBreak: 1,
    publicRubles: true, startMarkers: [0, 1, 2, 0] });
  assert.deepEqual(g.options, { players: 3, pubCap: 1, tieBreak: 1, publicRubles: true, publicHands: false,
    chanceMode: 0, edition: 2, seed: 42, startMarkers: [0, 1, 2, 0], newSociety: false, markersOneSeat: false,
    usedPrisonScores: false, textileWithoutNewSociety: false });
  assert.equal(g.players, 3);
  assert.ok(g.maxGameLength > 100);
  assert.ok(g.observationTensorSize > 100);
  assert.equal(S.cardInfo(S.cardFromName('Lumberjack')).cost, 3);
  assert.equal(g.cardInfo(0).name, 'Lumberjack');
  assert.equal(g.edition, 2);
  g.free();
});

test('the New Society (§12): options, sizes, card table, 5 seats, the gold disc, its decisions and outcomes', () => {
  // 5 players and the expansion's options only with it, edition 1 only (§12.0, R16, R17): the library's messages
  assert.throws(() => new S.Game({ players: 5 }), (e) => e instanceof S.InvalidArgumentError &&
    /players must be 2, 3 or 4, not 5/.test(e.message));
  assert.throws(() => new S.Game({ usedPrisonScores: true }), /an option of the New Society: set new_society/);
  assert.throws(() => new S.Game({ newSociety: true, edition: 2 }), /expansion of the first edition/);
  const base = new S.Game({ players: 2 });
  assert.equal(base.newSociety, false);
  assert.equal(base.numCardTypes, S.NUM_CARD_TYPES);
  assert.equal(base.numDistinctActions, S.NUM_DISTINCT_ACTIONS);
  assert.throws(() => base.cardInfo(S.NewSocietyCard.NEW_FARMER), S.InvalidArgumentError);
  const g = new S.Game({ players: 5, newSociety: true, seed: 3, markersOneSeat: true, usedPrisonScores: true,
    textileWithoutNewSociety: true });
  assert.deepEqual([g.options.newSociety, g.options.markersOneSeat, g.options.usedPrisonScores,
    g.options.textileWithoutNewSociety, g.players], [true, true, true, true, 5]);
  assert.equal(g.newSociety, true);
  assert.equal(g.numCardTypes, 62);
  assert.equal(g.numDistinctActions, 2188);
  const names = Array.from({ length: g.numCardTypes }, (_, k) => g.cardInfo(k).name);
  assert.equal(names[S.NewSocietyCard.DEBTORS_PRISON], "Debtor's Prison");
  assert.equal(names[S.NewSocietyCard.MAYOR], 'Mayor');
  assert.equal(g.cardInfo(S.NewSocietyCard.GUILD_HALL).colour, S.Colour.BLUE);
  const copies = names.reduce((sum, _, k) => sum + g.cardInfo(k).copies, 0);
  assert.equal(copies, 144); // §12.2.4
  assert.throws(() => g.cardInfo(62), S.InvalidArgumentError);
  const st = g.newState();
  const holder = st.goldDiscHolder;
  assert.ok(holder >= 0 && holder < 5 && !st.markerHolders().includes(holder), 'the seat without a marker (R18)');
  assert.equal(st.vp(holder), 2);
  assert.equal(st.prisonCard, S.CARD_NONE);
  assert.equal(st.isPrisonUsed(4), false);
  assert.throws(() => st.isPrisonUsed(5), S.InvalidArgumentError);
  const seen = new Set();
  const bot = new S.Bot(g, 'random', 11);
  while (!st.isTerminal) {
    const d = st.decision;
    seen.add(d);
    if (d === S.Decision.PRISON) {
      assert.ok(st.prisonCard >= 0);
      assert.ok(st.isPrisonUsed(st.currentPlayer));
      assert.ok(st.legalActions().every((a) => a.kind >= S.ActionKind.PRISON_BUY && a.kind <= S.ActionKind.PRISON_PUT_BACK));
    }
    if (d === S.Decision.GUILD_HALL) {
      assert.deepEqual(st.legalActions().map((a) => a.string), [0, 1, 2, 3, 4].map((r) => `guild hall ${r}`));
    }
    st.apply(bot.choose(st));
  }
  assert.ok(seen.has(S.Decision.PRISON) && seen.has(S.Decision.GUILD_HALL), [...seen].join());
  const returns = st.returns();
  assert.equal(returns.length, 5);
  assert.ok(Math.abs(returns.reduce((a, b) => a + b) - 1) < 1e-9);
  assert.equal(bot.evaluate(st).length, 5);
  // explicit chance: the 5-player marker deal is a New Society outcome (§12.3), described as one
  const ex = new S.Game({ players: 5, newSociety: true, chanceMode: S.ChanceMode.EXPLICIT });
  const cs = ex.newState();
  const outcomes = cs.chanceOutcomes();
  assert.equal(outcomes.length, 120); // 5 · 4 · 3 · 2 ways to deal the four markers, one seat each
  assert.ok(outcomes.every((o) => o.id >= S.NS_CHANCE_MARKERS_FIRST && o.kind === -1 && o.card === S.CARD_NONE));
  cs.apply(outcomes[0].id);
  const deal = cs.chanceOutcomes();
  assert.ok(deal.length > 0 && deal.every((o) => o.kind === -1 && o.card >= 0 && o.card < 62));
  freeAll(cs, ex, bot, st, g, base);
});

test('1.0 statuses: -101..-114, one Error subclass each, named by the library', () => {
  const classes = [S.InvalidArgumentError, S.IllegalActionError, S.BufferTooSmallError, S.OutOfMemoryError,
    S.GameOverError, S.NotTerminalError, S.ParseError, S.UnsupportedVersionError, S.MismatchError,
    S.ReentrantError, S.RedactedError, S.InconsistentError, S.TooLargeError, S.NoPriceError];
  const codes = Object.entries(S.Status).filter(([name]) => name !== 'OK').map(([, code]) => code);
  assert.deepEqual(codes, classes.map((_, k) => -101 - k));
  assert.equal(new Set(classes).size, 14);
  // every status maps to its class (the classes are only reachable through failing calls: spot checks)
  assert.throws(() => S.cardFromName('Nobody'), (e) => e instanceof S.ParseError && e.status === S.Status.PARSE);
  const g = new S.Game({ players: 2 });
  const s = g.newState(3);
  assert.throws(() => s.undo(), (e) => e.constructor === S.InvalidArgumentError && e.status === -101);
  freeAll(s, g);
});

test('card info as each edition prints it (§2, §11), with its stack; action strings with the edition\'s names', () => {
  const judge = S.cardFromName('Judge');
  const pope = S.cardFromName('Pope');
  const first = S.cardInfo(pope);
  const second = S.cardInfo(pope, S.Edition.SECOND);
  assert.equal(first.name, 'Pope');
  assert.equal(second.name, 'Abbot');
  assert.equal(S.cardFromName('Abbot'), pope);
  assert.deepEqual([S.cardInfo(judge).cost, S.cardInfo(judge, S.Edition.SECOND).cost], [16, 17]);
  assert.deepEqual([S.cardInfo(0).stack, S.cardInfo(judge).stack, S.cardInfo(S.cardFromName('Market')).stack,
    S.cardInfo(S.cardFromName('Wharf')).stack], [S.Stack.WORKER, S.Stack.ARISTOCRAT, S.Stack.BUILDING,
    S.Stack.TRADING]);
  for (let card = 0; card < S.NUM_CARD_TYPES; card++) {
    const info = S.cardInfo(card);
    assert.equal(info.stack, info.trading ? S.Stack.TRADING : info.colour, info.name);
  }
  assert.throws(() => S.cardInfo(judge, 3), S.InvalidArgumentError);
  assert.throws(() => S.cardInfo(S.NUM_CARD_TYPES), S.InvalidArgumentError);
  const g2 = new S.Game({ players: 2, edition: 2 });
  assert.deepEqual(g2.cardInfo(pope), second);
  const id = S.parseAction('take Pope from upper');
  assert.equal(g2.actionString(id), 'take Abbot from upper');
  const g1 = new S.Game({ players: 2 });
  assert.equal(g1.actionString(id), 'take Pope from upper');
  freeAll(g1, g2);
});

test('predicates (1.0: a status and an int out-parameter) on a loaded position', () => {
  const g = new S.Game({ players: 2, seed: 21 });
  const s = play(g.newState());
  const loaded = S.State.fromJson(s.toJson(), g);
  assert.equal(loaded.isTerminal, true);
  assert.equal(loaded.isFinalRound, true);
  assert.ok(loaded.equals(s));
  assert.equal(loaded.isLegal(0), false);
  const t = S.State.fromJson(g.newState(21).toJson(), g);
  assert.equal(t.isTerminal, false);
  assert.equal(t.isFinalRound, false);
  assert.equal(t.isLegal(0), true);
  assert.ok(!t.equals(loaded));
  freeAll(t, loaded, s, g);
});

test('bad options and arguments throw, never wrap: InvalidArgumentError with the library\'s message', () => {
  assert.throws(() => new S.Game({ players: 5 }), (e) => e instanceof S.InvalidArgumentError && e.status === -101
    && e.message === 'stpete_game_new: players must be 2, 3 or 4, not 5: 5 players need the New Society '
      + '(new_society, §12.0, R17)');
  assert.throws(() => new S.Game({ players: 2 ** 32 + 2 }), S.InvalidArgumentError);
  assert.throws(() => new S.Game({ players: 2.5 }), S.InvalidArgumentError);
  assert.throws(() => new S.Game({ colour: 'red' }), S.InvalidArgumentError);
  assert.throws(() => new S.Game({ seed: -1 }), S.InvalidArgumentError);
  assert.throws(() => new S.Game({ seed: 2 ** 53 }), S.InvalidArgumentError);
  assert.throws(() => new S.Game({ seed: 1n << 64n }), S.InvalidArgumentError);
  const g = new S.Game({ players: 2 });
  const s = g.newState(1);
  assert.throws(() => s.rubles(2), S.InvalidArgumentError);
  assert.throws(() => s.rubles(2 ** 32), S.InvalidArgumentError);
  assert.throws(() => s.apply(2 ** 32 + 1), S.InvalidArgumentError);
  freeAll(s, g);
});

test('the table of options (issue 42): options(), checkOptions(), Game from names or camelCase, optionsJson', () => {
  const table = S.options();
  assert.equal(table, S.options()); // built once
  assert.deepEqual(table.slice(0, 3).map((o) => o.name), ['players', 'seed', 'pub_cap']);
  const pubCap = table.find((o) => o.name === 'pub_cap');
  assert.deepEqual([pubCap.key, pubCap.type, pubCap.category, pubCap.default, pubCap.rule, [...pubCap.words]],
    ['pubCap', 'enum', 'rules', 'per-pub', '§7.2, R10', ['per-pub', 'per-player']]);
  const players = table.find((o) => o.name === 'players');
  assert.deepEqual([players.min, players.max, players.labels.at(-1)], [2, 5, '5 (the New Society)']);
  const ns = table.find((o) => o.name === 'markers_one_seat');
  assert.deepEqual(ns.games, ['new-society']);
  // the setup rule, the library's one reason
  assert.equal(S.checkOptions({ players: 5, newSociety: true }), null);
  assert.match(S.checkOptions({ players: 5 }), /5 players need the New Society \(new_society, §12.0, R17\)/);
  assert.match(S.checkOptions({ new_society: true, edition: 2 }), /expansion of the first edition/);
  assert.match(S.checkOptions({ pub_cap: 'per-seat' }), /pub_cap must be "per-pub" or "per-player"/);
  assert.throws(() => S.checkOptions({ colour: 'red' }), S.InvalidArgumentError);
  // every option and value of the table: the same game by name, by key and from optionsJson
  for (const option of table) {
    const values = option.type === 'bool' ? [false, true] : option.type === 'enum' ? [...option.words]
      : option.type === 'int' ? Array.from({ length: option.max - option.min + 1 }, (_, k) => option.min + k)
        : option.type === 'seed' ? ['18446744073709551615', 7] : [null, [1, 0, 1, 0]];
    for (const value of values) {
      const given = { [option.name]: value, players: option.name === 'players' ? value : 2 };
      if (!option.games.includes('first-edition')) given.new_society = true;
      if (option.name === 'players' && value === 5) given.new_society = true;
      const reason = S.checkOptions(given);
      assert.equal(reason, null, `${option.name}=${value}: ${reason}`);
      const byName = new S.Game(given);
      const byKey = new S.Game(Object.fromEntries(Object.entries(given).map(([k, v]) =>
        [table.find((o) => o.name === k).key, v])));
      const back = new S.Game(byName.optionsJson);
      assert.deepEqual(byKey.optionsJson, byName.optionsJson);
      assert.deepEqual(back.optionsJson, byName.optionsJson);
      const json = option.type === 'seed' ? String(value) : value;
      assert.deepEqual(byName.optionsJson[option.name], json);
      const st = byName.newState();
      const replay = JSON.parse(st.replayToJson()).options; // the JSON format's words are the table's
      for (const [k, v] of Object.entries(replay)) assert.deepEqual(byName.optionsJson[k], v, k);
      freeAll(st, byName, byKey, back);
    }
  }
});

test('seeds over 2^53 are exact: BigInt seeds give distinct, reproducible games', () => {
  const g = new S.Game({ players: 4 });
  const big = (1n << 63n) + 1n;
  const a = g.newState(big);
  const b = g.newState(big + 2n);
  const c = g.newState(big);
  assert.equal(a.seed, big);
  assert.ok(a.equals(c));
  assert.ok(!a.equals(b));
  const g2 = new S.Game({ seed: big });
  assert.equal(g2.options.seed, big);
  for (const x of [a, b, c]) x.free();
  freeAll(g, g2);
});

test('legal actions: ids, strings, prices; apply by id, string or described action; illegal leaves the state', () => {
  const g = new S.Game({ players: 2, seed: 3 });
  const s = g.newState();
  const actions = s.legalActions();
  assert.equal(actions[0].string, 'pass');
  assert.equal(actions[0].price, null);
  const buy = actions.find((a) => a.kind === S.ActionKind.BUY);
  assert.equal(buy.price, s.price(s.currentPlayer, buy.card, buy.source, buy.displaced));
  assert.equal(S.parseAction(buy.string), buy.id);
  const before = s.toJson();
  assert.throws(() => s.apply(971), (e) => e instanceof S.IllegalActionError && e.status === -102
    && /not legal/.test(e.message));
  assert.throws(() => s.apply('fly to the moon'), S.ParseError);
  assert.equal(s.toJson(), before);
  const rubles = s.rubles(s.currentPlayer);
  const seat = s.currentPlayer;
  s.apply(buy.string);
  assert.equal(s.rubles(seat), rubles - buy.price);
  s.undo();
  assert.equal(s.toJson(), before);
  s.apply(buy);
  assert.deepEqual(s.history(), [buy.id]);
  freeAll(s, g);
});

test('clone, JSON save and load (a loaded position plays on like the original), views hide secrets', () => {
  for (const players of [2, 3, 4]) {
    for (const edition of [1, 2]) {
      const g = new S.Game({ players, edition, seed: players * 10 + edition });
      const s = play(g.newState(), 60);
      const copy = s.clone();
      const loaded = S.State.fromJson(s.toJson());
      assert.ok(loaded.equals(s));
      assert.deepEqual(loaded.legalActions(), s.legalActions());
      play(copy, Infinity, 'random', 11);
      play(loaded, Infinity, 'random', 11);
      assert.deepEqual(loaded.scores(), copy.scores());
      assert.deepEqual(loaded.winners(), copy.winners());
      const view = JSON.parse(s.viewToJson(0));
      assert.equal(view.players[1].rubles, null);
      assert.equal(JSON.parse(s.viewToJson(null)).players[0].rubles, null);
      assert.throws(() => S.State.fromJson(s.viewToJson(0)), S.RedactedError);
      for (const x of [s, copy, loaded]) x.free();
      g.free();
    }
  }
});

test('bad JSON: a ParseError or InconsistentError with where and why, nothing built', () => {
  const g = new S.Game({ players: 2 });
  const s = g.newState(5);
  assert.throws(() => S.State.fromJson('{"format":'), (e) => e instanceof S.ParseError
    && e.function === 'stpete_game_from_json' && /line 1, column \d+\)$/.test(e.message));
  assert.throws(() => S.State.fromJson('{"format":', g), (e) => e instanceof S.ParseError
    && e.function === 'stpete_state_from_json' && /line 1/.test(e.message));
  assert.throws(() => S.State.fromReplay('[1, 2'), (e) => e instanceof S.ParseError
    && e.function === 'stpete_replay_from_json' && /line 1/.test(e.message));
  const doc = JSON.parse(s.toJson());
  doc.players[0].rubles = 100001;
  assert.throws(() => S.State.fromJson(JSON.stringify(doc)), (e) => e instanceof S.StpeteError
    && /rubles/.test(e.message));
  assert.throws(() => S.State.fromJson(s.toJson(), new S.Game({ players: 3 })), S.MismatchError);
  freeAll(s, g);
});

test('replay records: written from the history and read back with every action checked', () => {
  const g = new S.Game({ players: 3, seed: 99 });
  const s = play(g.newState());
  const r = S.State.fromReplay(s.replayToJson());
  assert.ok(r.equals(s));
  assert.deepEqual(r.history(), s.history());
  assert.throws(() => S.State.fromJson(s.toJson()).replayToJson(), S.InvalidArgumentError);
  const start = g.newState();
  const empty = S.State.fromReplay(start.replayToJson()); // no action: the C call makes its game at the first call
  assert.ok(empty.equals(start));
  assert.deepEqual(empty.history(), []);
  freeAll(empty, start, r, s, g);
});

test('results files: the header and a game line read back; a forged result is refused, the state unchanged', () => {
  const g = new S.Game({ players: 3, seed: 99 });
  const s = play(g.newState());
  const definition = { players: 3, seed: 99, bots: ['random'] };
  const hash = S.resultsHash(definition);
  assert.match(hash, /^[0-9a-f]{16}$/);
  assert.equal(S.resultsHash('{"seed":99,"bots":["random"],"players":3}'), hash); // key order: the same run
  const header = S.resultsHeader('js-test', definition);
  const line = g.resultsLine(definition, 5, 99, s.history(), { note: 'x' });
  const r = g.newState();
  assert.deepEqual(r.readResultsLine('js-test', definition, header), { number: -1 });
  assert.deepEqual(r.readResultsLine('js-test', definition, line), { number: 5, seed: 99, fields: { note: 'x' } });
  assert.ok(r.equals(s));
  assert.deepEqual(r.history(), s.history());
  const doc = JSON.parse(line);
  doc.record.result.vp.reverse(); // a result the actions do not reach
  const before = g.newState();
  assert.throws(() => before.readResultsLine('js-test', definition, JSON.stringify(doc)),
    (e) => e instanceof S.InconsistentError && e.function === 'stpete_results_read_line');
  assert.ok(before.equals(g.newState()));
  assert.throws(() => r.readResultsLine('other', definition, header), S.MismatchError);
  assert.throws(() => g.resultsLine(definition, 0, 99, [960], {}), S.IllegalActionError);
  assert.throws(() => S.resultsHash('[1]'), S.ParseError);
  freeAll(before, r, s, g);
});

test('events: the queue gives the library\'s log lines; scores, winners and returns at the end', () => {
  const g = new S.Game({ players: 2, seed: 12 });
  const s = g.newState();
  s.enableEventQueue();
  play(s);
  const events = s.events();
  assert.equal(s.pendingEvents, 0);
  assert.ok(events.some((e) => e.kind === S.EventKind.BUY && /buys/.test(e.text)));
  assert.equal(events.at(-1).kind, S.EventKind.GAME_OVER);
  const scores = s.scores().map((x) => x.total);
  const best = Math.max(...scores);
  for (const w of s.winners()) assert.equal(scores[w], best);
  assert.equal(s.returns().reduce((a, b) => a + b), 1);
  assert.throws(() => s.apply(0), S.GameOverError);
  const t = g.newState();
  assert.throws(() => t.winners(), S.NotTerminalError);
  freeAll(t, s, g);
});

test('observation tensor, information-state keys (BigInt) and determinization keep what a seat knows', () => {
  const g = new S.Game({ players: 3, seed: 4 });
  const s = play(g.newState(), 40);
  const obs = s.observationTensor(0);
  assert.ok(obs instanceof Float32Array);
  assert.equal(obs.length, g.observationTensorSize);
  const key = s.informationStateKey(0);
  assert.equal(typeof key, 'bigint');
  const d = s.clone().determinize(0, 2n ** 60n); // a resample: the seat cannot tell it apart
  assert.equal(d.informationStateKey(0), key);
  assert.deepEqual(d.observationTensor(0), obs);
  // { rubles: true } keeps the observation; in a played game the seat counted every purse, so its key changes
  const r = s.clone().determinize(0, 2n ** 60n, { rubles: true });
  assert.deepEqual(r.observationTensor(0), obs);
  r.free();
  assert.deepEqual(d.hand(0), s.hand(0));
  assert.match(s.informationStateString(0), /./);
  assert.match(s.observationString(1), /./);
  freeAll(d, s, g);
});

test('bots: specs, seeds, evaluation; errors carry the bot\'s message', () => {
  const g = new S.Game({ players: 2, seed: 8 });
  const s = g.newState();
  const bot = new S.Bot(g, 'ismcts:iterations=50', 3);
  assert.match(bot.spec, /^ismcts:iterations=50/);
  const id = bot.choose(s);
  assert.ok(s.isLegal(id));
  assert.equal(new S.Bot(g, 'ismcts:iterations=50', 3).choose(s), id);
  const ev = bot.evaluate(s);
  assert.equal(ev.length, 2);
  assert.throws(() => new S.Bot(g, 'ismcts:c=1000'), (e) => e instanceof S.InvalidArgumentError && /c/.test(e.message));
  assert.throws(() => new S.Bot(g, 'nobody'), (e) => e instanceof S.ParseError
    && e.function === 'stpete_bot_new' && /nobody/.test(e.message));
  assert.throws(() => bot.choose(new S.Game({ players: 3 }).newState()), S.MismatchError);
  freeAll(bot, s, g);
});

test('memory: use after free is a FreedError, free twice is harmless, a freed game lives on for its states', () => {
  const g = new S.Game({ players: 2 });
  const s = g.newState(1);
  const bot = new S.Bot(g, 'greedy');
  g.free();
  g.free(); // a second free() is a no-op
  assert.throws(() => g.newState(), (e) => e instanceof S.FreedError && e instanceof S.InvalidArgumentError);
  for (let k = 0; k < 20; k++) s.apply(bot.choose(s));
  assert.equal(s.legalActions()[0].string, 'pass');
  const copy = s.clone(); // a state of a freed game clones (the C game lives while a state uses it)
  assert.ok(copy.equals(s));
  copy.free();
  assert.equal(s.players, 2);
  s.free();
  assert.throws(() => s.legalActions(), S.FreedError);
  assert.throws(() => bot.choose(s), S.FreedError);
  bot.free();
  assert.throws(() => bot.spec, S.FreedError);
  const t = new S.Game({ players: 2 });
  t[Symbol.dispose]();
  assert.ok(t.freed);
});

test('the finalization registry frees what is dropped', { skip: typeof gc !== 'function' && 'needs --expose-gc' },
  async () => {
    const g = new S.Game({ players: 4 });
    const before = S.liveObjects();
    for (let k = 0; k < 2000; k++) g.newState(k);
    assert.equal(S.liveObjects(), before + 2000);
    for (let k = 0; k < 10 && S.liveObjects() > before; k++) {
      gc(); // eslint-disable-line no-undef
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(S.liveObjects() < before + 100, `${S.liveObjects() - before} states left`);
    g.free();
  });

test('the JavaScript examples of README.md ("Web"), doc/javascript.md and bindings/js/README.md run as shown', async () => {
  const { readFileSync, writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { pathToFileURL } = await import('node:url');
  const { run, packageDir, sourceDir } = await import('./helpers.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'stpete-doc-'));
  try {
    for (const doc of ['README.md', 'doc/javascript.md', 'bindings/js/README.md']) {
      const text = readFileSync(join(sourceDir, doc), 'utf8');
      const block = /```js\n([\s\S]*?)```\n/.exec(text)?.[1];
      assert.ok(block, `${doc} has a js example`);
      const file = join(dir, 'example.mjs');
      writeFileSync(file, block.replace("from 'libstpete'",
        `from '${pathToFileURL(join(packageDir, 'src', 'index.js')).href}'`));
      assert.match(run(process.execPath, [file]), /\d/, doc);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the 1.0 and 1.1 calls the package did not reach before 1.2 (issue 41, point 4), against the calls they equal', () => {
  const g = new S.Game({ players: 4, newSociety: true, seed: 5 });
  const st = g.newState();
  play(st, 160);
  // displacements = price per target of the seat's display (§5.2, §6.2); the lower row's discount
  let trading = 0;
  for (let seat = 0; seat < 4; seat++) {
    for (let card = 0; card < g.numCardTypes; card++) {
      if (!g.cardInfo(card).trading) {
        assert.throws(() => st.displacements(seat, card), S.InvalidArgumentError);
        continue;
      }
      for (const source of [S.Source.UPPER, S.Source.LOWER]) {
        const list = st.displacements(seat, card, source);
        for (const { displaced, price } of list) {
          assert.ok(st.displayCount(seat, displaced) > 0);
          assert.equal(price, st.price(seat, card, source, displaced));
          trading++;
        }
      }
    }
  }
  assert.ok(trading > 0, 'some trading card had a target');
  // display and discard counts add up to the lists
  for (let seat = 0; seat < 4; seat++) {
    const display = st.display(seat);
    for (let card = 0; card < g.numCardTypes; card++) {
      assert.equal(st.displayCount(seat, card), display.filter((c) => c === card).length);
    }
  }
  const pile = Array.from({ length: g.numCardTypes }, (_, k) => st.discardCount(k));
  assert.equal(pile.reduce((a, b) => a + b, 0), JSON.parse(st.toJson()).discard.length);
  // visibleRubles: one's own, null for another's secret purse, every purse with publicRubles (§9)
  assert.equal(st.visibleRubles(1, 1), st.rubles(1));
  assert.equal(st.visibleRubles(1, 2), null);
  assert.equal(st.visibleRubles(null, 2), null);
  const open = new S.Game({ players: 3, publicRubles: true });
  const os = open.newState();
  assert.equal(os.visibleRubles(S.VIEW_PUBLIC, 2), os.rubles(2));
  // the mask, randomAction and applyRandom are the listing's
  const ids = st.legalActionIds();
  const mask = st.legalActionMask();
  assert.equal(mask.length, g.numDistinctActions);
  assert.deepEqual([...mask.keys()].filter((k) => mask[k] === 1), ids);
  for (const r of [0, 1, 7, 2 ** 53 - 1, (1n << 64n) - 1n]) {
    assert.equal(st.randomAction(r), ids[Number(BigInt(r) % BigInt(ids.length))]);
  }
  const twin = st.clone();
  const applied = st.applyRandom(12345n);
  assert.equal(applied, ids[12345 % ids.length]);
  twin.apply(applied);
  assert.ok(twin.equals(st));
  assert.throws(() => st.applyRandom(1, 9), S.InvalidArgumentError);
  // copyFrom: the position, not the history; refused across games
  const copy = g.newState(99);
  copy.copyFrom(st);
  assert.ok(copy.equals(st));
  assert.deepEqual(copy.history(), []);
  const other = new S.Game({ players: 3 });
  const os2 = other.newState();
  assert.throws(() => os2.copyFrom(st), S.MismatchError);
  assert.equal(g.isCompatible(new S.Game({ players: 4, newSociety: true, seed: 77 })), true);
  assert.equal(g.isCompatible(other), false);
  // apply(string) is the library's parse (stpete_state_apply_string), with its message
  const pass = st.legalActions().find((a) => a.kind === S.ActionKind.PASS);
  if (pass) {
    const t = st.clone();
    t.apply(pass.string);
    assert.equal(t.history().at(-1), pass.id);
    t.free();
  }
  assert.throws(() => st.apply('buy Nothing from upper'), (e) => e instanceof S.ParseError && e.function === 'stpete_state_apply_string');
  freeAll(copy, twin, os, os2, st, open, other, g);
});

test('encodeAction inverts decodeAction; option words; checkOptions gives the library\'s reason; versionNumber', () => {
  for (let id = 0; id < S.NUM_DISTINCT_ACTIONS_NEW_SOCIETY; id++) {
    if (id >= S.CHANCE_CARD_FIRST && id < S.NS_ACTION_FIRST) continue; // chance outcomes, no player action
    assert.equal(S.encodeAction(S.decodeAction(id)), id);
  }
  assert.throws(() => S.encodeAction({ kind: S.ActionKind.BUY, source: S.Source.UPPER, card: S.Card.WHARF,
    displaced: S.Card.MARKET }), S.InvalidArgumentError); // a Wharf displaces no Market (§6.2)
  assert.equal(S.pubCapFromName('per-player'), S.PubCap.PER_PLAYER);
  assert.equal(S.tieBreakName(S.tieBreakFromName('rubles-total')), 'rubles-total');
  assert.equal(S.chanceModeFromName('explicit'), S.ChanceMode.EXPLICIT);
  assert.throws(() => S.pubCapFromName('per-seat'), S.ParseError);
  assert.equal(S.checkOptions({ players: 5, newSociety: true }), null);
  assert.match(S.checkOptions({ players: 5 }), /players must be 2, 3 or 4, not 5/);
  assert.match(S.checkOptions({ newSociety: true, edition: 2 }), /first edition/);
  assert.throws(() => S.checkOptions({ colour: 1 }), S.InvalidArgumentError);
  const [major, minor, patch] = S.version().split('.').map(Number);
  assert.equal(S.versionNumber(), major * 10000 + minor * 100 + patch);
  assert.equal(S.numDistinctActions(), S.NUM_DISTINCT_ACTIONS);
});

test('Bot.play plays on with one bot per seat as choose and apply do; stats say what the last choice did', () => {
  const g = new S.Game({ players: 3, seed: 11 });
  const a = g.newState();
  const b = g.newState();
  const bots = [0, 1, 2].map((s) => new S.Bot(g, s === 1 ? 'greedy' : 'random', 40 + s));
  const twins = [0, 1, 2].map((s) => new S.Bot(g, s === 1 ? 'greedy' : 'random', 40 + s));
  assert.equal(S.Bot.play(a, bots, 25), 25);
  for (let k = 0; k < 25; k++) b.apply(twins[b.currentPlayer].choose(b));
  assert.ok(a.equals(b));
  const played = S.Bot.play(a, bots);
  assert.ok(a.isTerminal && played > 0);
  const fresh = new S.Bot(g, 'ismcts:iterations=50', 3);
  assert.equal(fresh.stats().action, -1);
  const st = g.newState();
  const id = fresh.choose(st);
  const stats = fresh.stats();
  assert.equal(stats.action, id);
  assert.equal(stats.seat, st.currentPlayer);
  assert.equal(stats.legalActions, st.legalActionIds().length);
  assert.equal(stats.iterations, 50);
  assert.ok(stats.nodes >= 1 && stats.value >= 0 && stats.value <= 1 && stats.elapsedNs > 0);
  assert.throws(() => S.Bot.play(st, [fresh]), S.InvalidArgumentError); // fewer bots than seats
  freeAll(fresh, st, ...bots, ...twins, a, b, g);
});
