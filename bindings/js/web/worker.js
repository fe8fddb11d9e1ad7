// The bots think here, off the page's thread (the page never freezes). Message in: {id, state: JSON of the full
// state, spec, seed}; out: {id, action} or {id, error}. Bots read only what the acting seat may know (§9).
import { Bot, State } from './libstpete/index.js';

const bots = new Map(); // "options|spec" -> Bot, reused across moves (a bot is seat-independent)

self.onmessage = (msg) => {
  const { id, state: json, spec, seed } = msg.data;
  let state = null;
  try {
    state = State.fromJson(json);
    const key = JSON.stringify(state.game.options) + '|' + spec;
    let bot = bots.get(key);
    if (!bot) {
      bot = new Bot(state.game, spec);
      bots.set(key, bot);
    }
    bot.setSeed(seed);
    self.postMessage({ id, action: bot.choose(state) });
  } catch (e) {
    self.postMessage({ id, error: `${e.name}: ${e.message}` });
  } finally {
    if (state) state.free();
  }
};
self.postMessage({ ready: true });
