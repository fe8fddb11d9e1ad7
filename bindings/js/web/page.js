// What the local page (local.js) and the online page (online.js) share, written once: the message box, the keys,
// the bots a person may choose and their labels, and the setup form's fields, built at run time from the library's
// table of rule options (a new option appears in both forms with no change here). Nothing here knows a rule: which
// options exist, their words, ranges and descriptions, and which combinations the library accepts (with its
// reason) come from the table and the check the page is given.
import { el, ACTION_KEYS } from './render.js';

export const $ = (id) => document.getElementById(id);

/** A refusal or error the person must see (the game on the page is unchanged). */
export function showMessage(text) {
  $('message-text').textContent = text;
  $('message').hidden = false;
}
export function clearMessage() {
  $('message').hidden = true;
  $('message-text').textContent = '';
}
$('message-close').onclick = clearMessage;

/** The keys: 1-9 and a-z press the action button showing that key; U calls `undo` when the page has one. Keys typed
 * into a form field or with a modifier, and keys while a dialog is open, are the browser's. */
export function installKeys({ undo = null } = {}) {
  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement
        || document.querySelector('dialog[open]') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (undo && (ev.key === 'u' || ev.key === 'U')) { undo(); return; }
    if (ev.key.length !== 1 || !ACTION_KEYS.includes(ev.key)) return;
    const button = document.querySelector(`#actions button[data-key="${CSS.escape(ev.key)}"]`);
    if (button) { ev.preventDefault(); button.click(); }
  });
}

// ---- the bots a person may choose (both setup forms, the seats' labels) -------------------------------------

/** The library's bot kinds (include/stpete/bots.h) a person may choose; `search`: the kind takes a
 * strength (iterations per move). */
export const BOTS = Object.freeze([
  { kind: 'random', name: 'random' }, { kind: 'greedy', name: 'greedy' },
  { kind: 'mc', name: 'Monte Carlo', search: true }, { kind: 'ismcts', name: 'ISMCTS', search: true },
  // issue 43: ismcts with a trained network at its leaves (doc/learning.md); weaker than ismcts at equal time so far
  { kind: 'learned', name: 'learned', search: true },
]);
/** Strengths offered (iterations per move of a search bot). Above 20,000 a move takes seconds in a browser (about
 * 30,000 iterations per second in Chromium on a 2-core machine); below 10 the bots play nearly at random. */
export const STRENGTHS = Object.freeze([
  { value: 200, name: 'weak (200)' }, { value: 1000, name: 'default (1000)' }, { value: 4000, name: 'strong (4000)' },
  { value: 20000, name: 'strongest (20000)' },
]);
export const STRENGTH_MIN = 10;
export const STRENGTH_MAX = 20000;
export const DEFAULT_BOT = 'ismcts';
export const DEFAULT_STRENGTH = 1000;
const botOf = (kind) => BOTS.find((b) => b.kind === kind);
/** The library's spec of a choice: "random", "greedy", "mc:iterations=N", "ismcts:iterations=N",
 * "learned:iterations=N". */
export function botSpec(kind, strength) {
  return botOf(kind)?.search ? `${kind}:iterations=${strength}` : kind;
}
/** A seat's label: "bot, ISMCTS 1000". */
export function botLabel(kind, strength) {
  const bot = botOf(kind);
  if (!bot) return `bot, ${kind}`;
  return bot.search ? `bot, ${bot.name} ${strength}` : `bot, ${bot.name}`;
}
/** The label of a spec as a server stores it ("ismcts:iterations=1000" -> "bot, ISMCTS 1000"). */
export function botLabelOfSpec(spec) {
  const [kind, ...keys] = String(spec).split(':');
  const iterations = keys.map((k) => /^iterations=(\d+)$/.exec(k)).find(Boolean);
  return botLabel(kind, iterations ? Number(iterations[1]) : DEFAULT_STRENGTH);
}
/** The bot and strength fields of a setup form. */
export function botFields({ bot = DEFAULT_BOT, strength = DEFAULT_STRENGTH } = {}) {
  return [
    el('label', {}, 'Bots ', el('select', { name: 'bot' }, ...BOTS.map((b) => el('option', { value: b.kind, selected: b.kind === bot }, b.name)))),
    el('label', {}, 'Strength ', el('select', { name: 'strength' },
      ...STRENGTHS.map((s) => el('option', { value: s.value, selected: s.value === strength }, s.name)))),
  ];
}

// ---- the rule options, from the library's table ---------------------------------------------------------------

/** The fieldsets of a setup form, by the options' categories (the table's): the rules, then what each seat sees
 * (§9). Options of play (the seed, the chance mode) are each program's own: no form offers them. */
const SECTIONS = Object.freeze([['rules', 'Rules'], ['information', 'What each seat sees (§9)']]);
/** The types of option a form offers: a box or a list. Seats (explicit start markers, §3.3) are dealt. */
const OFFERED_TYPES = Object.freeze(['bool', 'int', 'enum']);
/** The options of `table` a setup form offers. */
export const offered = (table) => table.filter((o) => SECTIONS.some(([c]) => c === o.category)
  && OFFERED_TYPES.includes(o.type));
/** A value's label: the table's label of an integer or a word, else the value. */
const labelOf = (o, v, k) => o.labels?.[k] ?? String(v);

/** The setup form's rule fields, built from `table` (the library's table of options, in its order: [{name, title,
 * description, rule, type, category, default, min, max, words, labels}], JavaScript's options() or the server's
 * GET /api/options) and `checkMany(list)` (the library's reason each combination of the list is refused, or null;
 * an array or a promise of one). Every option of the rules and of information whose value is a boolean, an integer
 * or a word becomes a box or a list, with the table's title, labels, description and rule: a new option of the
 * library appears here with no change. The players' list is the table's range with its labels ("5 (the New
 * Society)"); a count the library refuses alone but accepts with one more box ticked ticks and locks that box when
 * chosen, so that both forms start the same games. A box the library would refuse with the current choices is
 * disabled with its reason, and a refused combination shows the reason under the fields. Resolves to {players:
 * the players' label, fields: the fieldsets, read(): the options chosen (the JSON format's values, players always,
 * the other defaults left out), reason(): the library's reason the choices are refused, or null}. `values`
 * presets the fields (by name). */
export async function ruleFields(table, checkMany, { values = {} } = {}) {
  const shown = offered(table);
  const players = table.find((o) => o.name === 'players');
  const counts = Array.from({ length: players.max - players.min + 1 }, (_, k) => players.min + k);
  const boxes = shown.filter((o) => o.type === 'bool' && !o.default);
  // for each player count: alone, then with each box ticked (one question to the library for all)
  const asked = counts.flatMap((n) => [{ players: n }, ...boxes.map((o) => ({ players: n, [o.name]: true }))]);
  const reasons = await checkMany(asked);
  const implied = new Map(); // a count -> the one box the library needs with it
  counts.forEach((n, k) => {
    const at = k * (boxes.length + 1);
    const fixes = boxes.filter((o, j) => reasons[at] !== null && reasons[at + 1 + j] === null);
    if (fixes.length === 1) implied.set(n, fixes[0].name);
  });
  const playersSelect = el('select', { name: 'players' }, ...counts.map((n, k) => el('option',
    { value: n, selected: n === (values.players ?? players.default) }, labelOf(players, n, k))));
  const inputs = new Map();
  const helps = new Map();
  const sections = new Map(SECTIONS.map(([c, legend]) => [c, [el('legend', {}, legend)]]));
  for (const o of shown) {
    if (o.name === players.name) continue;
    const value = values[o.name] ?? o.default;
    const help = `${o.description}${o.rule ? ` (${o.rule})` : ''}`;
    let input;
    if (o.type === 'bool') {
      input = el('input', { type: 'checkbox', name: o.name, checked: value === true });
      sections.get(o.category).push(el('label', { class: 'option', title: help }, input, ` ${o.title}`,
        el('small', {}, ` ${o.rule}`)));
    } else {
      const choices = o.type === 'enum' ? o.words : Array.from({ length: o.max - o.min + 1 }, (_, k) => o.min + k);
      input = el('select', { name: o.name }, ...choices.map((v, k) => el('option',
        { value: String(v), selected: v === value }, labelOf(o, v, k))));
      sections.get(o.category).push(el('label', { class: 'option', title: help }, `${o.title} `, input));
    }
    inputs.set(o.name, input);
    helps.set(o.name, help);
  }
  const why = el('p', { class: 'rules-reason', role: 'status' });
  const box = el('div', { class: 'rules', 'data-settled': '0' });
  const read = () => {
    const out = { players: Number(playersSelect.value) };
    for (const [name, input] of inputs) {
      const o = shown.find((x) => x.name === name);
      const v = o.type === 'bool' ? input.checked : o.type === 'int' ? Number(input.value) : input.value;
      if (v !== o.default) out[name] = v;
    }
    const need = implied.get(out.players);
    if (need) out[need] = true;
    return out;
  };
  let asking = 0;
  let refused = null;
  /** After each change: the box a count needs ticked and locked, the boxes the library would refuse disabled with
   * its reason, the reason of a refused combination shown. */
  const sync = async () => {
    const need = implied.get(Number(playersSelect.value));
    if (need) inputs.get(need).checked = true;
    const now = read();
    const flips = boxes.filter((o) => o.name !== need && !inputs.get(o.name).checked);
    const ask = ++asking;
    box.dataset.settled = '0'; // the library is asked (tests wait for 1)
    const [reason, ...flipped] = await checkMany([now, ...flips.map((o) => ({ ...now, [o.name]: true }))]);
    if (ask !== asking) return; // a later change asked again
    for (const o of boxes) {
      const input = inputs.get(o.name);
      const k = flips.indexOf(o);
      const no = k >= 0 ? flipped[k] : null;
      input.disabled = o.name === need || no !== null;
      input.parentElement.title = no ?? (o.name === need ? `${playersSelect.value} players need it` : helps.get(o.name));
    }
    refused = reason;
    why.textContent = reason ?? '';
    box.dataset.settled = '1';
  };
  playersSelect.addEventListener('change', sync);
  for (const input of inputs.values()) input.addEventListener('change', sync);
  await sync();
  return {
    players: el('label', { title: `${players.description} (${players.rule})` }, `${players.title} `, playersSelect),
    fields: (box.append(...SECTIONS.filter(([c]) => sections.get(c).length > 1)
      .map(([c]) => el('fieldset', { class: `rules ${c}` }, ...sections.get(c))), why), box),
    read,
    reason: () => refused,
  };
}
