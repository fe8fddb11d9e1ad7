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

/** The library's bot kinds (include/stpete/bots.h) a person may choose, weakest first; `search`: the kind takes a
 * strength (iterations per move). */
export const BOTS = Object.freeze([
  { kind: 'random', name: 'random' }, { kind: 'greedy', name: 'greedy' },
  { kind: 'mc', name: 'Monte Carlo', search: true }, { kind: 'ismcts', name: 'ISMCTS', search: true },
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
/** The library's spec of a choice: "random", "greedy", "mc:iterations=N", "ismcts:iterations=N". */
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

/** The rule options neither setup form offers: the seed is the page's (the local dialog has its own field, a server
 * draws it), start markers are dealt, and chance nodes need someone to deal (the pages play sampled games). */
export const NOT_OFFERED = Object.freeze(['seed', 'start_markers', 'chance_mode']);

/** A word for people from an option's JSON word: "new_society" -> "New Society". */
const title = (word) => word.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');

/** The setup form's rule fields, built from `table` (the library's options table, [{name, type: "bool" | "int" |
 * "enum", default, min, max, values, description, rule}]) and `checkMany(list)` (the library's reason each
 * combination of the list is refused, or null; an array or a promise of one). `players` is a select of the table's
 * range, each value labelled with what the library needs beside it: a value it refuses alone but accepts with one
 * more option on is "5 (New Society)", and choosing it turns that option on (its box ticked and locked), so that
 * both forms offer and start the same games. Resolves to {players: the players' label, fields: the fieldset of the
 * other rule options, read(): the options chosen (JSON words, the defaults left out)}. `skip`: option names the
 * form does not show. */
export async function ruleFields(table, checkMany, { skip = NOT_OFFERED, values = {} } = {}) {
  const byName = new Map(table.map((o) => [o.name, o]));
  const defaults = Object.fromEntries(table.filter((o) => !skip.includes(o.name)).map((o) => [o.name, o.default]));
  const players = byName.get('players');
  const counts = Array.from({ length: players.max - players.min + 1 }, (_, k) => players.min + k);
  const bools = table.filter((o) => o.type === 'bool' && !skip.includes(o.name) && !o.default);
  // for each player count: alone, then with each bool option on (one question to the library for all)
  const asked = counts.flatMap((n) => [{ ...defaults, players: n },
    ...bools.map((o) => ({ ...defaults, players: n, [o.name]: true }))]);
  const reasons = await checkMany(asked);
  /** What a player count needs beside it: the one bool option that makes the library accept it, or null. */
  const needs = (n, k) => {
    const at = k * (bools.length + 1);
    if (reasons[at] === null) return null;
    const fixes = bools.filter((o, j) => reasons[at + 1 + j] === null);
    return fixes.length === 1 ? fixes[0].name : null;
  };
  const implied = new Map();
  const playersSelect = el('select', { name: 'players' });
  for (const [k, n] of counts.entries()) {
    const need = needs(n, k);
    if (need) implied.set(n, need);
    playersSelect.append(el('option', { value: n, selected: n === (values.players ?? players.default) },
      need ? `${n} (${title(need)})` : String(n)));
  }
  const inputs = new Map();
  const rows = [];
  for (const o of table) {
    if (o.name === 'players' || skip.includes(o.name)) continue;
    const value = values[o.name] ?? o.default;
    const help = `${o.description}${o.rule ? ` (${o.rule})` : ''}`;
    let input;
    if (o.type === 'bool') {
      input = el('input', { type: 'checkbox', name: o.name, checked: value === true });
      rows.push(el('label', { class: 'option', title: help }, input, ` ${help}`));
    } else {
      const choices = o.type === 'enum' ? o.values : Array.from({ length: o.max - o.min + 1 }, (_, k) => o.min + k);
      input = el('select', { name: o.name }, ...choices.map((v) => el('option', { value: String(v), selected: v === value }, String(v))));
      rows.push(el('label', { class: 'option', title: help }, `${help} `, input));
    }
    inputs.set(o.name, input);
  }
  const sync = () => { // a player count that needs an option turns it on
    for (const [, name] of implied) {
      const box = inputs.get(name);
      if (box) box.disabled = false;
    }
    const need = implied.get(Number(playersSelect.value));
    const box = need && inputs.get(need);
    if (box) { box.checked = true; box.disabled = true; }
  };
  playersSelect.addEventListener('change', sync);
  sync();
  const read = () => {
    const out = { players: Number(playersSelect.value) };
    for (const [name, input] of inputs) {
      const o = byName.get(name);
      if (o.type === 'bool') out[name] = input.checked;
      else if (o.type === 'int') out[name] = Number(input.value);
      else out[name] = input.value;
      if (out[name] === o.default) delete out[name];
    }
    const need = implied.get(out.players);
    if (need) out[need] = true;
    return out;
  };
  return {
    players: el('label', {}, 'Players ', playersSelect),
    fields: el('fieldset', { class: 'rules' }, el('legend', {}, 'Rules'), ...rows),
    read,
  };
}
