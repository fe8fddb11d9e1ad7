// The package as strict as the C library (issue 31, item 7): errors of queries are their own, chance nodes are
// described, texts the C library could not read whole (U+0000) or over their documented bound are refused before
// they reach the wasm heap, the C pointers are unreachable from outside the module, a bad seed makes no bot.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from './helpers.mjs';

const S = await load();

const freeAll = (...objects) => { for (const x of objects) x.free(); };

test('a query\'s error is its own: the last error of an earlier apply is not repeated', () => {
  const g = new S.Game({ players: 2, seed: 4 });
  const s = g.newState();
  assert.throws(() => s.apply(960), (e) => e instanceof S.IllegalActionError && /960/.test(e.message));
  // const queries after the failed apply: their statuses, with no word of the apply's message
  assert.throws(() => s.winners(), (e) => e instanceof S.NotTerminalError
    && e.message === 'stpete_state_winners: game not over');
  const wharf = S.cardFromName('Wharf');
  assert.throws(() => s.price(0, wharf, S.Source.UPPER, S.cardFromName('Pope')),
    (e) => e instanceof S.InvalidArgumentError && e.function === 'stpete_state_price' && !/960|legal/.test(e.message));
  // a call that changes the state still says why, with the rule
  assert.throws(() => s.apply('observatory discard'), (e) => e instanceof S.IllegalActionError
    && /§7\.1/.test(e.message));
  // the same for a bot: choose (it changes the bot) gives its message; the game over comes from the state's rule
  const bot = new S.Bot(g, 'random', 1);
  const t = g.newState(5);
  while (!t.isTerminal) t.apply(bot.choose(t));
  assert.throws(() => bot.choose(t), S.GameOverError);
  assert.match(bot.spec, /^random/);
  freeAll(bot, t, s, g);
});

test('explicit chance mode: legalActions() describes every chance node\'s outcomes; a whole game by them', () => {
  for (const players of [2, 3, 4]) {
    const g = new S.Game({ players, seed: players, chanceMode: S.ChanceMode.EXPLICIT });
    const s = g.newState();
    const bot = new S.Bot(g, 'random', players);
    let chanceNodes = 0;
    for (let k = 0; !s.isTerminal; k++) {
      if (!s.isChanceNode) { s.apply(bot.choose(s)); continue; }
      chanceNodes++;
      const actions = s.legalActions();
      assert.deepEqual(actions.map((a) => a.id), s.legalActionIds());
      const outcomes = s.chanceOutcomes();
      assert.deepEqual(outcomes.map(({ probability, ...a }) => a), actions);
      assert.ok(Math.abs(outcomes.reduce((sum, o) => sum + o.probability, 0) - 1) < 1e-9);
      for (const a of actions) {
        assert.ok(a.id >= S.CHANCE_CARD_FIRST && a.id < S.CHANCE_CARD_FIRST + S.NUM_CHANCE_OUTCOMES, a.string);
        assert.equal(a.kind, -1);
        assert.equal(a.price, null);
        assert.equal(S.parseAction(a.string), a.id);
        if (a.id < S.CHANCE_MARKERS_FIRST) {
          assert.equal(a.string, `chance ${g.cardInfo(a.card).name}`);
        } else {
          assert.equal(a.card, S.CARD_NONE);
          assert.match(a.string, /^chance markers( \d){4}$/);
        }
      }
      s.apply(actions[k % actions.length]);
    }
    assert.ok(chanceNodes > 40, `${chanceNodes} chance nodes`);
    assert.deepEqual(s.chanceOutcomes(), []);
    assert.throws(() => s.describeAction(S.CHANCE_CARD_FIRST + S.NUM_CHANCE_OUTCOMES), S.InvalidArgumentError);
    freeAll(bot, s, g);
  }
});

test('U+0000 in a text is refused (InvalidArgumentError), never cut: actions, card names, bot specs, JSON', () => {
  const g = new S.Game({ players: 2, seed: 6 });
  const s = g.newState();
  const before = s.toJson();
  assert.throws(() => s.apply('pass\0junk'), (e) => e instanceof S.InvalidArgumentError && /U\+0000/.test(e.message));
  assert.equal(s.toJson(), before);
  assert.deepEqual(s.history(), []);
  assert.throws(() => s.isLegal('pass\0'), S.InvalidArgumentError);
  assert.throws(() => S.parseAction('pass\0'), S.InvalidArgumentError);
  assert.throws(() => S.cardFromName('Market\0Pub'), S.InvalidArgumentError);
  const live = S.liveObjects();
  assert.throws(() => new S.Bot(g, 'random\0greedy'), (e) => e instanceof S.InvalidArgumentError
    && e.function === 'stpete_bot_new' && /U\+0000/.test(e.message));
  assert.throws(() => new S.Bot(g, 'ismcts:iterations=10\0:c=9999'), S.InvalidArgumentError);
  assert.equal(S.liveObjects(), live);
  for (const text of [before + '\0', before.replace('"format"', '"form\0at"')]) {
    assert.throws(() => S.State.fromJson(text), S.InvalidArgumentError);
    assert.throws(() => S.State.fromJson(text, g), S.InvalidArgumentError);
    assert.throws(() => S.Game.fromJson(text), S.InvalidArgumentError);
  }
  assert.throws(() => S.State.fromReplay(s.replayToJson() + '\0'), S.InvalidArgumentError);
  assert.equal(S.liveObjects(), live);
  freeAll(s, g);
});

test('texts over their documented bound are refused before they are copied into the wasm heap', () => {
  const g = new S.Game({ players: 2 });
  const s = g.newState(1);
  const live = S.liveObjects();
  const pad = (n, ch = ' ') => s.toJson() + ch.repeat(n);
  const big = 32 << 20; // more than the wasm heap has free: copied, it would grow the memory
  const cases = [
    [() => S.State.fromJson(pad(big)), 'stpete_state_from_json', S.TooLargeError],
    [() => S.State.fromJson(pad(big), g), 'stpete_state_from_json', S.TooLargeError],
    // 600,000 two-byte characters: fewer UTF-16 units than the bound, more UTF-8 bytes
    [() => S.State.fromJson(pad(600000, '\u00e9'), g), 'stpete_state_from_json', S.TooLargeError],
    [() => S.Game.fromJson(pad(big)), 'stpete_game_from_json', S.TooLargeError],
    [() => S.State.fromReplay(s.replayToJson() + ' '.repeat(big)), 'stpete_replay_from_json', S.TooLargeError],
    [() => new S.Bot(g, 'random:seed=' + '0'.repeat(big)), 'stpete_bot_new', S.ParseError],
  ];
  for (const [call, fn, Class] of cases) {
    const bytes = S.wasmMemoryBytes();
    assert.throws(call, (e) => e instanceof Class && e.function === fn && /at most/.test(e.message)
      || assert.fail(`${fn}: ${e}`));
    assert.equal(S.wasmMemoryBytes(), bytes, `${fn}: the wasm memory grew`);
  }
  assert.equal(S.liveObjects(), live);
  // a text at the bound is read (and is no document here): the bound is the C reader's, not a smaller one
  assert.throws(() => S.State.fromJson(' '.repeat(1 << 20), g), (e) => e instanceof S.ParseError);
  freeAll(s, g);
});

test('the C pointers are unreachable from outside the module: no adoption, no private property, no forgery', () => {
  const g = new S.Game({ players: 2, seed: 3 });
  const s = g.newState();
  const bot = new S.Bot(g, 'random', 2);
  for (const x of [g, s, bot]) {
    for (const o of [x, Object.getPrototypeOf(x), x.constructor]) {
      for (const key of Reflect.ownKeys(o)) {
        assert.ok(typeof key === 'symbol' ? key === Symbol.dispose : !key.startsWith('_'), `${String(key)}`);
      }
    }
    assert.equal(x._ptr, undefined);
  }
  assert.equal(S.State._create, undefined);
  // new Game(options, pointer) takes no pointer: it makes a game of the options
  const live = S.liveObjects();
  const other = new S.Game({ players: 3 }, 65536);
  assert.equal(other.players, 3);
  assert.equal(S.liveObjects(), live + 1);
  other.free();
  const dflt = new S.Game({}, 8);
  const plain = new S.Game();
  assert.deepEqual(dflt.options, plain.options);
  freeAll(dflt, plain);
  // new State(...) from outside throws, also from a subclass; forged objects are refused
  assert.throws(() => new S.State(g, 8), TypeError);
  class Forged extends S.State { constructor() { super(g, 8, 0); } }
  assert.throws(() => new Forged(), TypeError);
  assert.equal(S.liveObjects(), live);
  const fake = Object.create(S.State.prototype);
  assert.throws(() => bot.choose(fake), S.InvalidArgumentError);
  assert.equal(s.equals(fake), false);
  assert.throws(() => new S.Bot(Object.create(S.Game.prototype)), S.InvalidArgumentError);
  assert.throws(() => S.State.fromJson(s.toJson(), Object.create(S.Game.prototype)), S.InvalidArgumentError);
  assert.ok(s.equals(s.clone()));
  for (let k = 0; k < 10; k++) s.apply(bot.choose(s));
  freeAll(bot, s, g);
});

test('new Bot(game, spec, badSeed) checks the seed before it makes the C bot', () => {
  const g = new S.Game({ players: 2 });
  const live = S.liveObjects();
  for (const seed of [-1, 2 ** 53, 1.5, 1n << 64n, '7']) {
    assert.throws(() => new S.Bot(g, 'random', seed), S.InvalidArgumentError, String(seed));
    assert.equal(S.liveObjects(), live, `seed ${String(seed)} left a bot`);
  }
  const big = new S.Bot(g, 'random', (1n << 64n) - 1n);
  assert.ok(g.newState(1).isLegal(big.choose(g.newState(1))));
  big.free();
  g.free();
});
