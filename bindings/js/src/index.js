// libstpete for JavaScript: Saint Petersburg (first edition and the second-edition preset, 2-4 players; the New
// Society expansion, 2-5 players, §12) on the C
// library compiled to WebAssembly. An ES module for Node >= 20 and browsers (also in module Web Workers); the
// declarations with every shape, unit, error and rule reference are in index.d.ts (the reference of this API).
// The rules are the C library's (doc/rules.md, § and R-ids there): nothing here reimplements them.
import createStpeteModule from './libstpete.mjs';
import { FUNCTIONS, LAYOUT, CONSTANTS, ENUMS } from './capi.js';

const isNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

async function instantiate() {
  const settings = {};
  if (isNode) {
    // The 3.1.6 glue would fetch() a file path under Node: hand it the bytes instead.
    const { readFile } = await import('node:fs/promises');
    settings.wasmBinary = await readFile(new URL('./libstpete.wasm', import.meta.url));
  } else {
    settings.locateFile = (path) => new URL(path, import.meta.url).href;
  }
  return createStpeteModule(settings);
}

const mod = await instantiate();
/** The C functions by the package's names (src/capi.js). */
const c = Object.fromEntries(Object.entries(FUNCTIONS).map(([name, symbol]) => {
  const fn = mod['_' + symbol];
  if (typeof fn !== 'function') throw new Error(`libstpete: the wasm module does not export ${symbol}`);
  return [name, fn];
}));

// ---- memory ------------------------------------------------------------------------------------------------

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let heapBuffer = null;
let u8 = null;
let i32 = null;
let f32 = null;
let f64 = null;
let u64 = null;
/** Typed views on the wasm memory, renewed when it has grown. */
function heap() {
  const buffer = mod.HEAPU8.buffer;
  if (buffer !== heapBuffer) {
    heapBuffer = buffer;
    u8 = new Uint8Array(buffer);
    i32 = new Int32Array(buffer);
    f32 = new Float32Array(buffer);
    f64 = new Float64Array(buffer);
    u64 = new BigUint64Array(buffer);
  }
}

// One scratch area for the outputs of every call (calls are synchronous: no two use it at once).
const SCRATCH = 64 * 1024;
const scratch = c.malloc(SCRATCH);
const OUT = scratch;              // 8 bytes: an int, size_t, pointer or uint64_t out-parameter
const OUT2 = scratch + 8;         // 8 more
const ERR = scratch + 16;         // 288 bytes: the stpete_error of a constructor, parser or options check
const STRUCT = ERR + 288;         // 256 bytes: a struct out-parameter
const BUF = STRUCT + 256;         // the rest: arrays and strings
const BUF_SIZE = SCRATCH - (BUF - scratch);

function getI32(ptr) { heap(); return i32[ptr >> 2]; }
function setI32(ptr, v) { heap(); i32[ptr >> 2] = v; }
function cstr(ptr) {
  if (!ptr) return null;
  heap();
  let end = ptr;
  while (u8[end] !== 0) end++;
  return decoder.decode(u8.subarray(ptr, end));
}
/** Where a text given to the library contains U+0000 (NUL), or -1. A C string ends at its first NUL, so the C
 * library would read a prefix of it ('pass\0junk' as 'pass'); JSON text has no NUL either (RFC 8259 allows no
 * control character outside strings, and a string writes it \u0000). */
function nulIndex(text) { return text.indexOf('\0'); }
/** Refuse text the C library could not read whole, before anything is copied into the wasm heap: an
 * InvalidArgumentError, as the Python binding refuses it (ValueError). */
function refuseNul(text, fn, what) {
  const at = nulIndex(text);
  if (at >= 0) {
    const message = `${fn}: ${what} contains U+0000 (NUL) at index ${at} (a C string would end there)`;
    throw new InvalidArgumentError(message, Status.INVALID_ARGUMENT, fn);
  }
}
/** Copy a JavaScript string into fresh wasm memory as NUL-terminated UTF-8: [ptr, byte length]. Free ptr.
 * `bound` is the documented size bound of the C reader ({max: bytes, refuse(bytes): the Error the C reader gives}):
 * longer text is refused before anything is copied into the wasm heap, which grows and never shrinks. */
function toC(text, fn, what, bound) {
  refuseNul(text, fn, what);
  // UTF-8 has at least one byte per UTF-16 unit: text.length > max is over the bound without encoding it
  if (bound && text.length > bound.max) throw bound.refuse(`more than ${bound.max}`);
  const bytes = encoder.encode(text);
  if (bound && bytes.length > bound.max) throw bound.refuse(bytes.length);
  const ptr = c.malloc(bytes.length + 1);
  if (!ptr) throw makeError(Status.OUT_OF_MEMORY, 'malloc');
  heap();
  u8.set(bytes, ptr);
  u8[ptr + bytes.length] = 0;
  return [ptr, bytes.length];
}
/** The bounds of the JSON readers (include/stpete/stpete.h; doc/format.md), refused as the C readers refuse them. */
function jsonBound(fn, document, max) {
  return { max, refuse: (bytes) => new TooLargeError(
    `${fn}: the document has ${bytes} bytes; a ${document} has at most ${max} (doc/format.md)`, Status.TOO_LARGE, fn) };
}
/** The int members of a struct (every member but struct_size; pointers come as numbers). */
function readStruct(ptr, layout) {
  heap();
  const out = {};
  for (const [field, offset] of Object.entries(layout)) {
    if (field !== 'size' && field !== 'struct_size') out[field] = i32[(ptr + offset) >> 2];
  }
  return out;
}
/** Prepare a struct that may grow (1.0: it begins with size_t struct_size) for a call that writes it: zeroed, with
 * this package's struct_size (LAYOUT, checked against the header at build time). Returns ptr. */
function initStruct(ptr, layout) {
  heap();
  u8.fill(0, ptr, ptr + layout.size);
  i32[(ptr + layout.struct_size) >> 2] = layout.size;
  return ptr;
}
function intArray(ptr, n) { heap(); return Array.from(i32.subarray(ptr >> 2, (ptr >> 2) + n)); }

// ---- constants (include/stpete/stpete.h, bots.h; src/capi.js checks each against the headers at build time) -----

const E = Object.fromEntries(Object.entries(ENUMS).map(([name, [, members]]) => [name, Object.freeze({ ...members })]));
/** Status codes (STPETE_OK and STPETE_E_*). */
export const Status = E.Status;
export const Edition = E.Edition;
export const Colour = E.Colour;
/** The 49 card types of the base game (§2), as stpete.h numbers them. */
export const Card = E.Card;
/** The 13 card types of the New Society (§12.2.3), numbered after the 49 of the base game. */
export const NewSocietyCard = E.NewSocietyCard;
/** Special abilities of a card type (CardInfo.special; §7, §11, §12.7). */
export const Special = E.Special;
export const Source = E.Source;
export const Stack = E.Stack;
export const Phase = E.Phase;
export const Decision = E.Decision;
export const ActionKind = E.ActionKind;
export const EventKind = E.EventKind;
export const PubCap = E.PubCap;
export const TieBreak = E.TieBreak;
export const ChanceMode = E.ChanceMode;
/** How applyRandom turns its random number into an index of the listed actions. */
export const Pick = E.Pick;
/** The type of an option's value (OptionInfo.type is its word, lowercase: 'bool', 'int', ...). */
export const OptionType = E.OptionType;
/** What an option changes (OptionInfo.category is its word, lowercase: 'rules', 'information', 'play'). */
export const OptionCategory = E.OptionCategory;
/** The kinds of game an option applies to, a mask (OptionInfo.games lists them: 'first-edition', ...). */
export const Games = E.Games;
/** The header's numbers (src/capi.js CONSTANTS). */
const K = Object.fromEntries(Object.entries(CONSTANTS).map(([name, [, value]]) => [name, value]));
export const {
  NUM_CARD_TYPES, NUM_CARD_TYPES_NEW_SOCIETY, NUM_CARDS, NUM_CARDS_NEW_SOCIETY, CARD_NONE, NONE, NUM_PHASES,
  NUM_STACKS, PLAYER_CHANCE, PLAYER_TERMINAL, MAX_PLAYERS, MIN_PLAYERS, BOARD_SIZE, MAX_HAND, RUBLES_MAX, VP_MAX,
  NUM_DISTINCT_ACTIONS, NUM_CARD_VARIANTS, MAX_LEGAL_ACTIONS, ACTION_ENCODING_VERSION, NS_ACTION_FIRST,
  NUM_DISTINCT_ACTIONS_NEW_SOCIETY, NUM_CARD_VARIANTS_NEW_SOCIETY, MAX_LEGAL_ACTIONS_NEW_SOCIETY, ACTION_STRING_MAX,
  EVENT_STRING_MAX, FORMAT_VERSION, FORMAT_VERSION_NEW_SOCIETY, JSON_STATE_MAX, JSON_REPLAY_MAX, VIEW_PUBLIC,
  DETERMINIZE_RUBLES, CHANCE_CARD_FIRST, CHANCE_MARKERS_FIRST, NUM_CHANCE_OUTCOMES, NS_CHANCE_CARD_FIRST,
  NS_CHANCE_MARKERS_FIRST, NS_ID_END, E_FIRST, E_LAST, BOT_SPEC_MAX, BOT_SEED_SALT, CARD_TEXT_MAX, MAX_OFFERS,
  TABLE_VERSION, TABLE_CARDS, TABLE_PERSON, OPTION_VALUE_MAX, RESULTS_HASH_SIZE, RESULTS_GAME_MAX,
} = K;
/** The buffers of legal actions and chance outcomes: the larger bound, any game's (§12.4.1). */
const MAX_LISTED = K.MAX_LEGAL_ACTIONS_NEW_SOCIETY;

// ---- errors ------------------------------------------------------------------------------------------------

/** A C call failed: `status` is the STPETE_E_* code, `message` the library's message, `function` the call. */
export class StpeteError extends Error {
  constructor(message, status, fn) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.function = fn;
  }
}
export class InvalidArgumentError extends StpeteError {}
export class IllegalActionError extends StpeteError {}
export class BufferTooSmallError extends StpeteError {}
export class OutOfMemoryError extends StpeteError {}
export class GameOverError extends StpeteError {}
export class NotTerminalError extends StpeteError {}
export class ParseError extends StpeteError {}
export class UnsupportedVersionError extends StpeteError {}
export class MismatchError extends StpeteError {}
export class ReentrantError extends StpeteError {}
export class RedactedError extends StpeteError {}
export class InconsistentError extends StpeteError {}
export class TooLargeError extends StpeteError {}
export class NoPriceError extends StpeteError {}
/** A method of a Game, State or Bot called after free(): status INVALID_ARGUMENT, the module is untouched. */
export class FreedError extends InvalidArgumentError {}

const errorClasses = {
  [Status.INVALID_ARGUMENT]: InvalidArgumentError, [Status.ILLEGAL_ACTION]: IllegalActionError,
  [Status.BUFFER_TOO_SMALL]: BufferTooSmallError, [Status.OUT_OF_MEMORY]: OutOfMemoryError,
  [Status.GAME_OVER]: GameOverError, [Status.NOT_TERMINAL]: NotTerminalError, [Status.PARSE]: ParseError,
  [Status.UNSUPPORTED_VERSION]: UnsupportedVersionError, [Status.MISMATCH]: MismatchError,
  [Status.REENTRANT]: ReentrantError, [Status.REDACTED]: RedactedError, [Status.INCONSISTENT]: InconsistentError,
  [Status.TOO_LARGE]: TooLargeError, [Status.NO_PRICE]: NoPriceError,
};
/** STPETE_FAILED(): statuses are <= -100; values and sentinels (-1, -4) are above. */
const failed = (r) => r <= -100;
function makeError(status, fn, detail) {
  const Class = errorClasses[status] ?? StpeteError;
  const base = cstr(c.strerror(status)) ?? `status ${status}`;
  let message = detail && detail !== base ? `${fn}: ${detail}` : `${fn}: ${base}`;
  if (status === Status.OUT_OF_MEMORY) {
    message += ` (the wasm memory has ${wasmMemoryBytes()} bytes; ${live} games, states and bots are not freed: ` +
      'free() them, or let the event loop run so that the FinalizationRegistry frees the ones dropped)';
  }
  return new Class(message, status, fn);
}
/** Throw for a status (STPETE_FAILED); `detail` gives the library's message (the handle's last error after a
 * call that changes the handle, or the stpete_error of a call without a handle; a query on a const handle writes
 * no detail, so it has none: its status has the one meaning its documentation gives). Returns what the call
 * returned (a value, a count or STPETE_OK). */
function check(status, fn, detail) {
  if (failed(status)) throw makeError(status, fn, typeof detail === 'function' ? detail() : detail);
  return status;
}
/** ERR prepared for a call that takes a last `stpete_error *err` (constructors, parsers, options check). */
function errOut() { return initStruct(ERR, LAYOUT.error); }
/** The message of ERR after a failed call, with the line and column of a JSON syntax error. */
function errText() {
  const e = readStruct(ERR, LAYOUT.error);
  const text = cstr(ERR + LAYOUT.error.message);
  return e.line > 0 ? `${text} (line ${e.line}, column ${e.column})` : text;
}
function argError(what, value) {
  return new InvalidArgumentError(`${what}: ${String(value)} is out of range`, Status.INVALID_ARGUMENT, 'argument');
}
/** An int argument: wasm would wrap anything outside int32 (2**32 is 0), so check before the call. */
function int(value, what, lo = -0x80000000, hi = 0x7fffffff) {
  if (!Number.isInteger(value) || value < lo || value > hi) throw argError(what, value);
  return value;
}
/** A 64-bit seed: a safe non-negative integer or a BigInt in [0, 2**64). */
function seed64(value, what = 'seed') {
  if (typeof value === 'bigint') {
    if (value < 0n || value >= 1n << 64n) throw argError(what, value);
    return value;
  }
  if (!Number.isSafeInteger(value) || value < 0) throw argError(what, value);
  return BigInt(value);
}

// ---- ownership ---------------------------------------------------------------------------------------------

// The safety net: a Game, State or Bot that was never freed is freed when JavaScript collects it.
const registry = new FinalizationRegistry((release) => release());
let live = 0;
/** The number of C objects (games, states, bots) not freed yet, by free() or by the finalization registry. */
export function liveObjects() { return live; }
/** Bytes of the wasm memory (the C heap and the package's scratch area): it grows when the C heap needs more and
 * never shrinks (a WebAssembly memory cannot); memory freed in C is reused by later objects. */
export function wasmMemoryBytes() { return mod.HEAPU8.buffer.byteLength; }

// Module-private: the internal constructors of State and the C pointers of games, states and bots are reachable
// only from this module (the token and the functions set in the classes' static blocks are never exported), so
// no code outside can adopt, free or use another object's C memory.
const INTERNAL = Symbol('libstpete internal');
let isGame, gamePtr, gameLife, adoptGame, isState, statePtr;
const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');

/** A C handle: freed once, by free() or by the registry; every use after free throws FreedError. */
class Handle {
  #ptr;
  #release;
  constructor(ptr, release, what) {
    this.#ptr = ptr;
    this.what = what;
    let done = false;
    live++;
    this.#release = () => { if (!done) { done = true; live--; release(ptr); } };
    registry.register(this, this.#release, this);
  }
  get ptr() {
    if (!this.#ptr) throw new FreedError(`${this.what} used after free()`, Status.INVALID_ARGUMENT, this.what);
    return this.#ptr;
  }
  get freed() { return this.#ptr === 0; }
  free() {
    if (!this.#ptr) return;
    this.#ptr = 0;
    registry.unregister(this);
    this.#release();
  }
}

/** A game's C handle lives until the game is freed and every state and bot of it is freed (C: it must outlive
 * them). */
class GameHandle {
  constructor(ptr) { this.ptr = ptr; this.users = 1; }
  retain() { this.users++; }
  release() { if (--this.users === 0) { c.gameFree(this.ptr); this.ptr = 0; } }
}

// ---- cards, actions, names ---------------------------------------------------------------------------------

/** The §2 description of a card type as an edition prints it (§11 for the second edition; default the first;
 * Game.cardInfo gives the game's edition's). */
export function cardInfo(card, edition = Edition.FIRST) {
  int(card, 'card');
  int(edition, 'edition');
  check(c.cardGetInfo(edition, card, initStruct(STRUCT, LAYOUT.card_info)), 'stpete_card_get_info');
  return cardInfoAt(card);
}
/** The card description the last call wrote at STRUCT. */
function cardInfoAt(card) {
  const info = readStruct(STRUCT, LAYOUT.card_info);
  return { card, name: cstr(info.name), colour: info.colour, trading: info.trading === 1, cost: info.cost,
    rubles: info.rubles, vp: info.vp, copies: info.copies, ware: info.ware, special: info.special,
    stack: info.stack };
}
/** A C parser of a NUL-terminated string into an int (a card type, an action id). The parsers take no
 * stpete_error: the message names the text. */
function parseInt32(fn, name, text, what) {
  const [ptr] = toC(String(text), name, 'text');
  try {
    check(fn(ptr, OUT), name, `no ${what} ${JSON.stringify(text)}`);
    return getI32(OUT);
  } finally { c.free(ptr); }
}
/** The card type of a name of either edition (§2, §11), case-insensitive. */
export function cardFromName(name) {
  return parseInt32(c.cardFromName, 'stpete_card_from_name', name, 'card is named');
}
/** The structured form of an action id (include/stpete/stpete.h, "Actions"); unused fields are -1. */
export function decodeAction(id) {
  int(id, 'action');
  check(c.actionDecode(id, STRUCT), 'stpete_action_decode');
  return readStruct(STRUCT, LAYOUT.action);
}
/** The action id of a canonical action string (case-insensitive). */
export function parseAction(text) {
  return parseInt32(c.actionFromString, 'stpete_action_from_string', text, 'action is written');
}
function nameOf(fn, value) { int(value, 'value'); return cstr(fn(value)); }
export const phaseName = (phase) => nameOf(c.phaseName, phase);
export const stackName = (stack) => nameOf(c.stackName, stack);
export const decisionName = (decision) => nameOf(c.decisionName, decision);
export const sourceName = (source) => nameOf(c.sourceName, source);
export const eventKindName = (kind) => nameOf(c.eventKindName, kind);
export const colourName = (colour) => nameOf(c.colourName, colour);
/** The word of an action kind (ActionKind): "pass", "buy", ... "trading-house"; null out of range. */
export const actionKindName = (kind) => nameOf(c.actionKindName, kind);
/** The word of a Pub cap (§7.2, R10): "per-pub", "per-player"; null out of range. */
export const pubCapName = (value) => nameOf(c.optionsPubCapName, value);
/** The word of a tie-break (§8, R14): "rubles-mod-10", "rubles-total"; null out of range. */
export const tieBreakName = (value) => nameOf(c.optionsTieBreakName, value);
/** The word of a chance mode (§3.1): "sampled", "explicit"; null out of range. */
export const chanceModeName = (value) => nameOf(c.optionsChanceModeName, value);
/** The PubCap of a word (exact, case-sensitive); ParseError for another word. */
export function pubCapFromName(word) {
  return parseInt32(c.optionsPubCapFromName, 'stpete_options_pub_cap_from_name', word, 'Pub cap is named');
}
/** The TieBreak of a word; ParseError for another word. */
export function tieBreakFromName(word) {
  return parseInt32(c.optionsTieBreakFromName, 'stpete_options_tie_break_from_name', word, 'tie-break is named');
}
/** The ChanceMode of a word; ParseError for another word. */
export function chanceModeFromName(word) {
  return parseInt32(c.optionsChanceModeFromName, 'stpete_options_chance_mode_from_name', word,
    'chance mode is named');
}
/** The id of a structured action (the inverse of decodeAction; unused fields are ignored). */
export function encodeAction(action) {
  if (typeof action !== 'object' || action === null) throw argError('action', action);
  heap();
  const L = LAYOUT.action;
  for (const field of ['kind', 'source', 'card', 'displaced', 'stack', 'amount']) {
    i32[(STRUCT + L[field]) >> 2] = int(action[field] ?? -1, field);
  }
  check(c.actionEncode(STRUCT, OUT), 'stpete_action_encode');
  return getI32(OUT);
}
/** The library's version string, e.g. "1.0.0". */
export function version() { return cstr(c.version()); }
/** The library's version as a number: MAJOR * 10000 + MINOR * 100 + PATCH. */
export function versionNumber() { return c.versionNumber(); }
/** Distinct action ids of the base game's encoding (972; Game.numDistinctActions: a game's). */
export function numDistinctActions() { return c.numDistinctActions(); }

// ---- results files (doc/format.md, "Results files"): stpete-arena's and stpete.experiment's -----------------

/** A run's definition or a game's fields as JSON text: an object is written with JSON.stringify (the library
 * reads it in canonical form: key order and spacing do not change the hash), a string passed as is. */
function jsonObjectText(value, what) {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw argError(what, value);
  return JSON.stringify(value);
}
/** Call f with C copies of the strings (freed after). */
function withStrings(texts, fn, f) {
  const ptrs = [];
  try {
    for (const [text, what] of texts) ptrs.push(toC(text, fn, what)[0]);
    return f(...ptrs);
  } finally { for (const p of ptrs) c.free(p); }
}
/** The hash that names a run's `definition` (a JSON object, or its text) in its results file: 16 hex digits
 * (stpete_results_hash()). @throws ParseError for text that is not a JSON object */
export function resultsHash(definition) {
  const fn = 'stpete_results_hash';
  return withStrings([[jsonObjectText(definition, 'definition'), 'definition']], fn,
    (d) => textOut(fn, (b, n, len) => c.resultsHash(d, b, n, len)));
}
/** The header line (no newline) of a results file of `program` for `definition` (stpete_results_header_to_json()).
 * @throws ParseError for a definition that is not a JSON object */
export function resultsHeader(program, definition) {
  const fn = 'stpete_results_header_to_json';
  return withStrings([[String(program), 'program'], [jsonObjectText(definition, 'definition'), 'definition']], fn,
    (p, d) => textOut(fn, (b, n, len) => c.resultsHeaderToJson(p, d, b, n, len)));
}

/** Call a C writer of text with the conventions of the JSON functions: size it, then write it. */
function textOut(name, call, detail) {
  let size = BUF_SIZE;
  let ptr = BUF;
  for (;;) {
    const status = call(ptr, size, OUT);
    heap();
    if (status === Status.BUFFER_TOO_SMALL && ptr === BUF) {
      size = i32[OUT >> 2] + 1;
      ptr = c.malloc(size);
      if (!ptr) throw makeError(Status.OUT_OF_MEMORY, name);
      continue;
    }
    try {
      check(status, name, detail);
      return decoder.decode(u8.subarray(ptr, ptr + i32[OUT >> 2]));
    } finally { if (ptr !== BUF) c.free(ptr); }
  }
}

/** The canonical string of an action id with an edition's card names (§2, §11). */
function actionString(edition, id) {
  int(id, 'action');
  check(c.actionToString(edition, id, BUF, K.ACTION_STRING_MAX), 'stpete_action_to_string');
  return cstr(BUF);
}

// ---- games -------------------------------------------------------------------------------------------------

// The table of options (include/stpete/stpete.h "The table of options"; issue 42): every option is the library's,
// reached by its name; this package spells none. A key of an options object is the option's name (the JSON
// format's word, "pub_cap") or the same in camelCase ("pubCap").

const OPTION_TYPES = ['bool', 'int', 'enum', 'seed', 'seats'];
const OPTION_CATEGORIES = ['rules', 'information', 'play'];
/** The kinds of game of stpete_option_info.games, bit by bit (enum stpete_games). */
const GAME_KINDS = ['first-edition', 'second-edition', 'new-society'];
/** "pub_cap" -> "pubCap". */
function camelCase(name) { return name.replace(/_([a-z0-9])/g, (_, ch) => ch.toUpperCase()); }
/** An int64_t member of the struct at ptr (a value of the table fits a double). */
function int64At(ptr) { heap(); return i32[(ptr + 4) >> 2] * 0x100000000 + (i32[ptr >> 2] >>> 0); }
/** n C strings from an array of pointers at ptr. */
function cstrings(ptr, n) { return ptr ? intArray(ptr, n).map(cstr) : null; }
let optionTable = null;
let optionsByKey = null;
/** One row of the table (stpete_option_get_info) as an OptionInfo. */
function optionInfo(i) {
  const L = LAYOUT.option_info;
  check(c.optionGetInfo(i, initStruct(STRUCT, L)), 'stpete_option_get_info');
  const r = readStruct(STRUCT, L);
  const type = OPTION_TYPES[r.type];
  const min = int64At(STRUCT + L.min), max = int64At(STRUCT + L.max);
  const words = cstrings(r.words, r.num_words);
  const defaultText = cstr(r.default_text);
  return Object.freeze({
    name: cstr(r.name), key: camelCase(cstr(r.name)), title: cstr(r.title), description: cstr(r.description),
    rule: cstr(r.rule), type, category: OPTION_CATEGORIES[r.category],
    games: Object.freeze(GAME_KINDS.filter((_, bit) => (r.games >> bit) & 1)),
    min, max, default: jsonValue(type, defaultText), defaultText,
    words: words && Object.freeze(words), labels: r.labels ? Object.freeze(cstrings(r.labels, max - min + 1)) : null,
  });
}
/** The library's table of options, in its order (the JSON format's): each option's name, camelCase key, title,
 * one-line description, rule (§ / R-id), type, category, the games it applies to, range, default, words and
 * labels. Built once from the library (stpete_option_count, stpete_option_get_info). */
export function options() {
  if (!optionTable) {
    optionTable = Object.freeze(Array.from({ length: c.optionCount() }, (_, i) => optionInfo(i)));
    optionsByKey = new Map(optionTable.flatMap((o) => [[o.name, o], [o.key, o]]));
  }
  return optionTable;
}
/** A value's text as the JSON format holds it, by type: boolean, number, word, seed (a decimal string) or seats. */
function jsonValue(type, text) {
  if (type === 'bool') return text === 'true';
  if (type === 'int') return Number(text);
  if (type === 'seats') return text === 'random' ? null : text.split(',').map(Number);
  return text;
}
/** A JavaScript value of an option as the text stpete_options_set() reads: a boolean, an integer, a word (or an
 * enum's index), a seed (number, BigInt or decimal string), seats (an array of 4 seats, or null for random). */
function optionText(option, value, key) {
  if (option.type === 'seats') {
    if (value === null) return 'random';
    if (!Array.isArray(value) || value.length !== 4) throw argError(key, value);
    return value.map((seat) => int(seat, key)).join(',');
  }
  if (option.type === 'seed') return String(typeof value === 'string' && /^[0-9]+$/.test(value) ? BigInt(value)
    : seed64(value, key));
  if (typeof value === 'boolean') {
    if (option.type !== 'bool') throw argError(key, value);
    return value ? 'true' : 'false';
  }
  if (typeof value === 'string') return value;
  return String(int(value, key));
}
/** A new stpete_options (the library's size) with the given options set by name, or the library's reason:
 * {ptr} or {reason, status, fn}. The caller frees ptr (c.optionsFree). */
function optionsFrom(given) {
  if (typeof given !== 'object' || given === null) throw argError('options', given);
  options();
  check(c.optionsNew(OUT, errOut()), 'stpete_options_new', errText);
  const ptr = getI32(OUT);
  try {
    for (const [key, value] of Object.entries(given)) {
      if (value === undefined) continue;
      const option = optionsByKey.get(key);
      if (!option) {
        throw new InvalidArgumentError(`unknown option ${key} (known: ${optionTable.map((o) => o.key).join(', ')})`,
          Status.INVALID_ARGUMENT, 'Game');
      }
      const [name, text] = [toC(option.name, 'Game', key), toC(optionText(option, value, key), 'Game', key)];
      try {
        const status = c.optionsSet(ptr, name[0], text[0], errOut());
        if (failed(status)) return { reason: errText(), status, fn: 'stpete_options_set', ptr };
      } finally { c.free(name[0]); c.free(text[0]); }
    }
  } catch (e) { c.optionsFree(ptr); throw e; }
  return { ptr };
}
/** Why the library refuses a combination of options (stpete_options_set, stpete_options_check: the setup rule, e.g.
 * 5 players only with the New Society, R17), or null when it is a game. Keys and values as new Game() takes them. */
export function checkOptions(given) {
  const made = optionsFrom(given);
  try {
    if (made.reason !== undefined) return made.reason;
    return failed(c.optionsCheck(made.ptr, errOut())) ? errText() : null;
  } finally { c.optionsFree(made.ptr); }
}
/** The options of the struct at ptr as {name: JSON value} (every option of the table, by its name). */
function optionsJsonAt(ptr) {
  const out = {};
  for (const option of options()) {
    const [name] = toC(option.name, 'stpete_options_value', 'name');
    try {
      check(c.optionsValue(ptr, name, BUF, K.OPTION_VALUE_MAX, OUT), 'stpete_options_value');
    } finally { c.free(name); }
    out[option.name] = jsonValue(option.type, cstr(BUF));
  }
  return out;
}

/** The immutable configuration of a game: rule options (§3, §7.2, §8, §9, §11) and the default seed. */
export class Game {
  #handle;
  #gh;
  /** new Game({players, edition, seed, pubCap, ...}): any option of the table (options()), by its name or in
   * camelCase; values as the JSON format writes them (a word for pubCap, tieBreak, chanceMode; the enum's number
   * too), a seed as a number, BigInt or decimal string. */
  constructor(options = {}) {
    let ptr = adopting;
    adopting = 0;
    if (!ptr) {
      const made = optionsFrom(options);
      try {
        if (made.reason !== undefined) throw makeError(made.status, made.fn, made.reason);
        check(c.gameNew(made.ptr, OUT, errOut()), 'stpete_game_new', errText);
        ptr = getI32(OUT);
      } finally { c.optionsFree(made.ptr); }
    }
    const gh = new GameHandle(ptr);
    this.#gh = gh;
    this.#handle = new Handle(ptr, () => gh.release(), 'Game');
  }
  static {
    isGame = (x) => typeof x === 'object' && x !== null && #handle in x;
    /** The C game of a live Game (FreedError after free()). */
    gamePtr = (g) => g.#handle.ptr;
    /** The lifetime of a live Game's C game, which its states and bots retain. */
    gameLife = (g) => { g.#handle.ptr; return g.#gh; };
    /** A Game owning a C game made here (the constructor takes no pointer from outside). */
    adoptGame = (ptr) => {
      adopting = ptr;
      try { return new Game(); } finally { adopting = 0; }
    };
  }
  /** The game described by the "options" of a saved state or replay record (JSON text). */
  static fromJson(text) {
    const fn = 'stpete_game_from_json';
    const [ptr, len] = toC(String(text), fn, 'document', jsonBound(fn, 'document', K.JSON_REPLAY_MAX));
    try {
      return gameFromC(ptr, len);
    } finally { c.free(ptr); }
  }
  /** The options as the game holds them: every option of the table by its camelCase key, the enums as numbers
   * (PubCap, TieBreak, ChanceMode), the seed a number (a BigInt above 2**53). */
  get options() {
    const json = this.optionsJson;
    const out = {};
    for (const option of options()) {
      let v = json[option.name];
      if (option.type === 'enum') v = option.words.indexOf(v);
      if (option.type === 'seed') v = BigInt(v) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : BigInt(v);
      out[option.key] = v;
    }
    return out;
  }
  /** The options as the JSON format writes them (doc/format.md "options"): every option of the table by its name,
   * the enums as words, the seed a decimal string. new Game(game.optionsJson) is the same game. */
  get optionsJson() {
    check(c.optionsNew(OUT, errOut()), 'stpete_options_new', errText);
    const opts = getI32(OUT);
    try {
      check(c.gameGetOptions(gamePtr(this), opts), 'stpete_game_get_options');
      return optionsJsonAt(opts);
    } finally { c.optionsFree(opts); }
  }
  get players() { return c.gameNumPlayers(gamePtr(this)); }
  /** 1 (first edition) or 2 (the second-edition preset, §11). */
  get edition() { return check(c.gameEdition(gamePtr(this)), 'stpete_game_edition'); }
  get maxGameLength() { return check(c.gameMaxLength(gamePtr(this)), 'stpete_game_max_length'); }
  /** Whether states of this game and `other` are states of the same game (every option but the seed: §3, §7.2,
   * §8, §9, §11, §12; stpete_game_check_compatible). */
  isCompatible(other) {
    if (!isGame(other)) throw argError('other', other);
    const status = c.gameCheckCompatible(gamePtr(this), gamePtr(other));
    if (status === Status.MISMATCH) return false;
    check(status, 'stpete_game_check_compatible');
    return true;
  }
  get observationTensorSize() {
    return check(c.gameObservationTensorSize(gamePtr(this)), 'stpete_game_observation_tensor_size');
  }
  /** Whether the game plays the New Society expansion (§12). */
  get newSociety() {
    check(c.gameIsNewSociety(gamePtr(this), OUT), 'stpete_game_is_new_society');
    return getI32(OUT) === 1;
  }
  /** Card types of the game: 49, or 62 with the New Society (§12.2.3); every card argument is below it. */
  get numCardTypes() { return check(c.gameNumCardTypes(gamePtr(this)), 'stpete_game_num_card_types'); }
  /** Distinct action ids of the game: 972, or 2188 with the New Society (OpenSpiel's NumDistinctActions). */
  get numDistinctActions() {
    return check(c.gameNumDistinctActions(gamePtr(this)), 'stpete_game_num_distinct_actions');
  }
  /** A card type as this game plays it (stpete_game_get_card_info: §2, §11, the New Society's rows §12.2). */
  cardInfo(card) {
    const ptr = gamePtr(this);
    int(card, 'card');
    check(c.gameGetCardInfo(ptr, card, initStruct(STRUCT, LAYOUT.card_info)), 'stpete_game_get_card_info');
    return cardInfoAt(card);
  }
  /** What a card type does in this game, in words, with its rule (stpete_game_card_text: its targets, §6.2, and
   * its special ability, §7, §11, §12.7, as the game's edition and options play them); "" for a card that only
   * scores its income. */
  cardText(card) {
    const ptr = gamePtr(this);
    const k = int(card, 'card');
    return textOut('stpete_game_card_text', (b, n, len) => c.gameCardText(ptr, k, b, n, len));
  }
  /** The canonical string of an action id (or chance outcome id) with this game's card names. */
  actionString(id) { return actionString(this.edition, id); }
  /** A new state at the start of a game (§3) from `seed` (default: the options' seed). */
  newState(seed) { return newState(this, seed); }
  /** A game line (no newline) of a results file: game `number` (an integer in [0, RESULTS_GAME_MAX]) of the run
   * `definition`, played from `seed` with `actions` (ids, its replay record: each checked), with the program's
   * `fields` (an object, or JSON text on one line) (stpete_results_game_to_json()).
   * @throws IllegalActionError, ParseError (definition or fields not a JSON object), InvalidArgumentError */
  resultsLine(definition, number, seed, actions, fields) {
    const fn = 'stpete_results_game_to_json';
    const g = gamePtr(this);
    const n = int(number, 'number', 0, Number.MAX_SAFE_INTEGER);
    const s = seed64(seed);
    const ids = Array.from(actions, (a, i) => int(a, `actions[${i}]`));
    const arr = c.malloc(Math.max(ids.length, 1) * 4);
    if (!arr) throw makeError(Status.OUT_OF_MEMORY, 'malloc');
    try {
      heap();
      i32.set(ids, arr >> 2);
      return withStrings([[jsonObjectText(definition, 'definition'), 'definition'],
        [jsonObjectText(fields, 'fields'), 'fields']], fn,
      (d, f) => textOut(fn, (b, cap, len) => c.resultsGameToJson(g, d, BigInt(n), s, arr, ids.length, f, b, cap, len)));
    } finally { c.free(arr); }
  }
  free() { this.#handle.free(); }
  [dispose]() { this.free(); }
  get freed() { return this.#handle.freed; }
}
/** The C pointer adoptGame hands to the constructor (0 otherwise: module-private, reset at once). */
let adopting = 0;
/** A Game from JSON text already in the wasm heap (ptr, len bytes). */
function gameFromC(ptr, len) {
  check(c.gameFromJson(ptr, len, 0, OUT, errOut()), 'stpete_game_from_json', errText);
  return adoptGame(getI32(OUT));
}

// ---- states ------------------------------------------------------------------------------------------------

/** A position of a game: what the players hold, whose turn, the legal actions. Mutable; free() it. */
export class State {
  #handle;
  #game;
  #gh;
  #ownsGame;
  #seed;
  /** Not for use: game.newState(), state.clone(), State.fromJson() and State.fromReplay() make states (the
   * arguments are module-private; any other call throws TypeError). */
  constructor(token, game, gh, ptr, seed, ownsGame = false) {
    if (token !== INTERNAL) {
      throw new TypeError('use game.newState(), state.clone(), State.fromJson() or State.fromReplay()');
    }
    gh.retain();
    this.#game = game;
    this.#gh = gh;
    this.#ownsGame = ownsGame;
    this.#handle = new Handle(ptr, (p) => { c.stateFree(p); gh.release(); }, 'State');
    this.#seed = seed;
  }
  static {
    isState = (x) => typeof x === 'object' && x !== null && #handle in x;
    /** The C state of a live State (FreedError after free()). */
    statePtr = (st) => st.#handle.ptr;
  }
  get #ptr() { return this.#handle.ptr; }
  /** The seed the game started from (newState or reset), null for a loaded state. */
  get seed() { return this.#seed; }
  get game() { this.#handle.ptr; return this.#game; }
  get freed() { return this.#handle.freed; }
  /** Free the C state (and the game State.fromJson or fromReplay made for it); later calls throw FreedError. */
  free() {
    this.#handle.free();
    if (this.#ownsGame) this.#game.free();
  }
  [dispose]() { this.free(); }
  /** Check the status of a call that changes the state: the detail is the state's last error (C: only such calls
   * write it). */
  #fail(status, fn) {
    const ptr = this.#ptr;
    check(status, fn, () => cstr(c.stateLastError(ptr)));
    return status;
  }
  /** Check the status of a query (a const state in C): it writes no detail, so the last error, which belongs to an
   * earlier call that changed the state, is not its message. */
  #query(status, fn) { return check(status, fn); }
  #seat(seat) { return int(seat, 'seat', 0, this.players - 1); }
  /** A C predicate (1.0: a status, and 1 or 0 written through an int *) as a boolean. */
  #flag(fn, name, ...args) {
    this.#query(fn(this.#ptr, ...args, OUT), name);
    return getI32(OUT) === 1;
  }

  get players() { this.#handle.ptr; return c.gameNumPlayers(this.#gh.ptr); }
  /** The seat to act; PLAYER_CHANCE at a chance node (explicit chance mode); PLAYER_TERMINAL at the end. */
  get currentPlayer() { return c.stateCurrentPlayer(this.#ptr); }
  get isTerminal() { return this.#flag(c.stateIsTerminal, 'stpete_state_is_terminal'); }
  get isChanceNode() { return this.currentPlayer === PLAYER_CHANCE; }
  get decision() { return c.stateDecision(this.#ptr); }
  get phase() { return c.statePhase(this.#ptr); }
  get round() { return c.stateRound(this.#ptr); }
  get isFinalRound() { return this.#flag(c.stateIsFinalRound, 'stpete_state_is_final_round'); }
  get consecutivePasses() { return c.stateConsecutivePasses(this.#ptr); }

  /** Legal action ids, ascending (§4.2, §7.1, §7.2). */
  legalActionIds() {
    this.#query(c.stateLegalActions(this.#ptr, BUF, MAX_LISTED, OUT), 'stpete_state_legal_actions');
    return intArray(BUF, getI32(OUT));
  }
  /** Legal actions with their strings and prices in rubles (null for an action that costs nothing); at a chance
   * node (explicit chance mode) the outcomes, described as describeAction describes them. */
  legalActions() { return this.legalActionIds().map((id) => this.describeAction(id)); }
  /** An action id with its structured form, string and price now; a chance outcome id (from CHANCE_CARD_FIRST)
   * with kind -1, its card type (-1 for a deal of the start-player markers, §3.3), its string and price null. */
  describeAction(id) {
    int(id, 'action');
    const string = actionString(c.gameEdition(this.#gh.ptr), id);
    const card = chanceCard(id);
    if (card !== undefined) {
      return { id, kind: -1, source: -1, card, displaced: -1, stack: -1, amount: -1, string, price: null };
    }
    return { id, ...decodeAction(id), string, price: this.actionPrice(id) };
  }
  /** At a chance node (explicit chance mode): the outcomes of the pending random event with their exact
   * probabilities (stpete_state_chance_outcomes; §3.3, §4.5, §7.1), ids ascending; [] elsewhere. */
  chanceOutcomes() {
    const probs = (BUF + MAX_LISTED * 4 + 7) & ~7; // doubles after the ids, 8-byte aligned
    this.#query(c.stateChanceOutcomes(this.#ptr, BUF, probs, MAX_LISTED, OUT),
      'stpete_state_chance_outcomes');
    const n = getI32(OUT);
    const ids = intArray(BUF, n);
    heap();
    const p = Array.from(f64.subarray(probs >> 3, (probs >> 3) + n));
    return ids.map((id, k) => ({ ...this.describeAction(id), probability: p[k] }));
  }
  isLegal(action) { return this.#flag(c.stateIsLegal, 'stpete_state_is_legal', this.#id(action)); }
  /** Rubles the acting seat pays for a legal action (§5); null for pass, take and other free actions. */
  actionPrice(action) {
    const status = c.stateActionPrice(this.#ptr, this.#id(action), OUT);
    if (status === Status.NO_PRICE) return null;
    this.#query(status, 'stpete_state_action_price');
    return getI32(OUT);
  }
  #id(action) {
    if (typeof action === 'string') return parseAction(action);
    if (typeof action === 'object' && action !== null && 'id' in action) return int(action.id, 'action');
    return int(action, 'action');
  }
  /** Apply a legal action (id, string or described action); the state is unchanged when it throws. */
  apply(action) {
    if (typeof action === 'string') { // the library parses it (stpete_state_apply_string)
      const [text] = toC(action, 'stpete_state_apply_string', 'action');
      try {
        this.#fail(c.stateApplyString(this.#ptr, text), 'stpete_state_apply_string');
      } finally { c.free(text); }
      return this;
    }
    const id = this.#id(action);
    this.#fail(c.stateApply(this.#ptr, id), 'stpete_state_apply');
    return this;
  }
  /** A uniform random legal action without a list: the listed action at index `random % n` (random: 64 bits, a
   * safe integer or a BigInt; §4.2). GameOverError at the end. The random bot's draw. */
  randomAction(random) {
    this.#query(c.stateRandomAction(this.#ptr, seed64(random, 'random'), OUT), 'stpete_state_random_action');
    return getI32(OUT);
  }
  /** A playout step: pick a legal action with `random` (Pick.MODULO: as randomAction; Pick.SCALED: the search
   * bots' draw) and apply it (§4.2-§8). Returns the id applied. */
  applyRandom(random, pick = Pick.MODULO) {
    this.#fail(c.stateApplyRandom(this.#ptr, seed64(random, 'random'), int(pick, 'pick'), OUT),
      'stpete_state_apply_random');
    return getI32(OUT);
  }
  /** The legal actions as a mask: a new Uint8Array of game.numDistinctActions entries, 1 where legal. */
  legalActionMask() {
    const n = c.gameNumDistinctActions(this.#gh.ptr);
    this.#query(c.stateLegalActionMask(this.#ptr, BUF, n), 'stpete_state_legal_action_mask');
    heap();
    return u8.slice(BUF, BUF + n);
  }
  /** Take back the last action applied since this state was created or loaded. */
  undo() { this.#fail(c.stateUndo(this.#ptr), 'stpete_state_undo'); return this; }
  /** Action ids applied since the start (or since the state was loaded from JSON). */
  history() {
    const ptr = this.#ptr;
    let status = c.stateHistory(ptr, 0, 0, OUT);
    const n = getI32(OUT);
    if (n === 0) return [];
    const buf = n * 4 <= BUF_SIZE ? BUF : c.malloc(n * 4);
    try {
      status = c.stateHistory(ptr, buf, n, OUT);
      this.#query(status, 'stpete_state_history');
      return intArray(buf, n);
    } finally { if (buf !== BUF) c.free(buf); }
  }
  /** Copy `other`'s position into this state without allocating (same game: MismatchError otherwise); the
   * history begins again at the copied position. */
  copyFrom(other) {
    if (!isState(other)) throw argError('other', other);
    this.#fail(c.stateCopy(this.#ptr, statePtr(other)), 'stpete_state_copy');
    this.#seed = null;
    return this;
  }
  clone() {
    check(c.stateClone(this.#ptr, OUT, errOut()), 'stpete_state_clone', errText);
    return new State(INTERNAL, this.#game, this.#gh, getI32(OUT), this.#seed);
  }
  equals(other) {
    return isState(other) && this.#flag(c.stateEqual, 'stpete_state_equal', statePtr(other));
  }
  /** Restart from the setup of §3 with a new seed. */
  reset(seed) {
    const s = seed64(seed);
    this.#fail(c.stateReset(this.#ptr, s), 'stpete_state_reset');
    this.#seed = seedValue(s);
    return this;
  }

  // -- what is on the table (§1)
  #cards(fn, name, ...args) {
    this.#query(fn(this.#ptr, ...args, BUF, 256, OUT), name); // a display of the New Society's 144 cards fits
    return intArray(BUF, getI32(OUT));
  }
  /** Card types in a row (Source.UPPER or Source.LOWER), in board order. */
  row(row) { return this.#cards(c.stateRow, 'stpete_state_row', int(row, 'row', 0, 1)); }
  stackSizes() { return [0, 1, 2, 3].map((s) => c.stateStackSize(this.#ptr, s)); }
  display(seat) { return this.#cards(c.stateDisplay, 'stpete_state_display', this.#seat(seat)); }
  hand(seat) { return this.#cards(c.stateHand, 'stpete_state_hand', this.#seat(seat)); }
  handLimit(seat) { return this.#query(c.stateHandLimit(this.#ptr, this.#seat(seat)), 'stpete_state_hand_limit'); }
  rubles(seat) { return this.#query(c.stateRubles(this.#ptr, this.#seat(seat)), 'stpete_state_rubles'); }
  vp(seat) {
    this.#query(c.stateVp(this.#ptr, this.#seat(seat), OUT), 'stpete_state_vp');
    return getI32(OUT);
  }
  /** Copies of a card type in a seat's display (§1). */
  displayCount(seat, card) {
    return this.#query(c.stateDisplayCount(this.#ptr, this.#seat(seat), int(card, 'card')),
      'stpete_state_display_count');
  }
  /** Copies of a card type in the discard pile (public, §9). */
  discardCount(card) {
    return this.#query(c.stateDiscardCount(this.#ptr, int(card, 'card')), 'stpete_state_discard_count');
  }
  /** `seat`'s rubles as `viewer` (a seat, or VIEW_PUBLIC / null: a spectator) may see them now (§9), or null when
   * they are hidden from the viewer (stpete_state_visible_rubles). */
  visibleRubles(viewer, seat) {
    const v = viewer === null ? VIEW_PUBLIC : int(viewer, 'viewer', VIEW_PUBLIC, this.players - 1);
    const status = c.stateVisibleRubles(this.#ptr, v, this.#seat(seat), OUT);
    if (status === Status.REDACTED) return null;
    this.#query(status, 'stpete_state_visible_rubles');
    return getI32(OUT);
  }
  observatoriesUsed(seat) {
    return this.#query(c.stateObservatoriesUsed(this.#ptr, this.#seat(seat)), 'stpete_state_observatories_used');
  }
  /** The card drawn by an Observatory awaiting its decision (§7.1), or -1. */
  get observatoryCard() { return c.stateObservatoryCard(this.#ptr); }
  /** The card picked with the Debtor's Prison awaiting its owner's decision (§12.7.5, R21), or -1. */
  get prisonCard() { return this.#query(c.statePrisonCard(this.#ptr), 'stpete_state_prison_card'); }
  /** Whether the seat's Debtor's Prison is used this round (§12.7.5, R21, R22); false without the New Society. */
  isPrisonUsed(seat) {
    return this.#flag(c.stateIsPrisonUsed, 'stpete_state_is_prison_used', this.#seat(seat));
  }
  /** The seat holding the gold disc (5 players, §12.3, R18: the seat without a marker), or -1. */
  get goldDiscHolder() { return this.#query(c.stateGoldDiscHolder(this.#ptr), 'stpete_state_gold_disc_holder'); }
  /** markerHolders()[phase] = seat holding that phase's start-player marker (§3.3, §4.5). */
  markerHolders() { return [0, 1, 2, 3].map((p) => c.stateMarkerHolder(this.#ptr, p)); }
  /** The price `seat` would pay for `card` from `source` (displacing `displaced`, trading cards) (§5, R5-R7). */
  /** What the trading card `card` could displace in `seat`'s display, each with the price (§5.2, §6.2, R8, R9):
   * [{displaced, price}], ascending card type; [] when it can displace nothing (stpete_state_displacements). */
  displacements(seat, card, source = Source.UPPER) {
    const n = K.NUM_CARD_TYPES_NEW_SOCIETY;
    this.#query(c.stateDisplacements(this.#ptr, this.#seat(seat), int(card, 'card'), int(source, 'source'), BUF, n,
      OUT), 'stpete_state_displacements');
    const count = getI32(OUT);
    const L = LAYOUT.displacement;
    return Array.from({ length: count }, (_, k) => ({ displaced: getI32(BUF + k * L.size + L.displaced),
      price: getI32(BUF + k * L.size + L.price) }));
  }
  /** Every card `seat` could buy or play now, in every way, with its price (stpete_state_offers: the rows, the
   * drawn or picked card of the seat deciding it, the seat's hand; §5, §5.2, §6.2, §7.1, §12.7.5): [{action,
   * source, card, displaced (-1 for a card that displaces nothing), price}], whether or not the seat is to act. */
  offers(seat) {
    this.#query(c.stateOffers(this.#ptr, this.#seat(seat), BUF, K.MAX_OFFERS, OUT), 'stpete_state_offers');
    const L = LAYOUT.offer;
    return Array.from({ length: getI32(OUT) }, (_, k) => {
      const at = BUF + k * L.size;
      return { action: getI32(at + L.action), source: getI32(at + L.source), card: getI32(at + L.card),
        displaced: getI32(at + L.displaced), price: getI32(at + L.price) };
    });
  }
  /** {rubles, vp} that `seat`'s display as it is now earns at `phase`'s next scoring (stpete_state_income: §4.4,
   * §7.1, R22, §7.5, §11, §12.7; negative rubles for Sycophants, §12.7.9). InvalidArgumentError for the trading phase. */
  income(seat, phase) {
    this.#query(c.stateIncome(this.#ptr, this.#seat(seat), int(phase, 'phase'), OUT, OUT2), 'stpete_state_income');
    return { rubles: getI32(OUT), vp: getI32(OUT2) };
  }
  /** The phase whose scoring comes next (§4.4), or -1 (NONE) when none is left (stpete_state_next_scoring). */
  get nextScoring() { return this.#query(c.stateNextScoring(this.#ptr), 'stpete_state_next_scoring'); }
  /** The cards the last action that put cards on the discard pile put there, less those the Debtor's Prison
   * picked since (stpete_state_last_discards: §4.5, §6, §7.1, §12.7.5, §12.7.9), ascending card types. */
  lastDiscards() { return this.#cards(c.stateLastDiscards, 'stpete_state_last_discards'); }
  /** The table document of `seat` (VIEW_PUBLIC or null: spectators), as JSON text: everything a table UI draws
   * (stpete_state_table_to_json, doc/format.md "Table document"). `since`: the log entries already known (0: the
   * whole log); `cards`: with the card table; `person`: without what a person at a table may not be handed. */
  tableToJson(seat = VIEW_PUBLIC, { since = 0, cards = false, person = false } = {}) {
    const ptr = this.#ptr;
    const s = seat === null ? VIEW_PUBLIC : int(seat, 'seat', VIEW_PUBLIC, this.players - 1);
    const from = int(since, 'since', 0);
    const flags = (cards ? K.TABLE_CARDS : 0) | (person ? K.TABLE_PERSON : 0);
    return textOut('stpete_state_table_to_json', (b, n, len) => c.stateTableToJson(ptr, s, from, flags, b, n, len));
  }
  price(seat, card, source = Source.UPPER, displaced = -1) {
    this.#query(c.statePrice(this.#ptr, this.#seat(seat), int(card, 'card'), int(source, 'source'),
      int(displaced ?? -1, 'displaced'), OUT), 'stpete_state_price');
    return getI32(OUT);
  }
  /** Final scoring of a seat (§8, R13): applied at the end, projected before. */
  score(seat) {
    this.#query(c.stateGetScore(this.#ptr, this.#seat(seat), initStruct(STRUCT, LAYOUT.score)),
      'stpete_state_get_score');
    const s = readStruct(STRUCT, LAYOUT.score);
    return { vpBefore: s.vp_before, aristocratKinds: s.aristocrat_kinds, aristocratBonus: s.aristocrat_bonus,
      rubles: s.rubles, rublesBonus: s.rubles_bonus, handCards: s.hand_cards, handPenalty: s.hand_penalty,
      total: s.total, tieBreak: s.tie_break };
  }
  scores() { return Array.from({ length: this.players }, (_, s) => this.score(s)); }
  /** Winning seats of a finished game (§8, R14); throws NotTerminalError before the end. */
  winners() {
    this.#query(c.stateWinners(this.#ptr, OUT), 'stpete_state_winners');
    const mask = getI32(OUT);
    return Array.from({ length: this.players }, (_, s) => s).filter((s) => mask & (1 << s));
  }
  /** 1/k for each of the k winners at the end, else 0 (OpenSpiel Returns). */
  returns() {
    this.#query(c.stateReturns(this.#ptr, BUF, MAX_PLAYERS), 'stpete_state_returns');
    heap();
    return Array.from(f64.subarray(BUF >> 3, (BUF >> 3) + this.players));
  }

  // -- events
  /** Queue the events of later apply/undo/reset calls (read with nextEvent() or events()). */
  enableEventQueue(enabled = true) {
    this.#fail(c.stateSetEventQueue(this.#ptr, enabled ? 1 : 0), 'stpete_state_set_event_queue');
    return this;
  }
  get pendingEvents() { return this.#query(c.statePendingEvents(this.#ptr), 'stpete_state_pending_events'); }
  /** The oldest queued event with its log line (`text`), or null. */
  nextEvent() {
    const ptr = this.#ptr;
    const status = c.stateNextEvent(ptr, initStruct(STRUCT, LAYOUT.event));
    if (status === 0) return null;
    this.#fail(status, 'stpete_state_next_event');
    const e = readStruct(STRUCT, LAYOUT.event);
    check(c.eventToString(STRUCT, 0, BUF, K.EVENT_STRING_MAX), 'stpete_event_to_string');
    e.text = cstr(BUF);
    return e;
  }
  /** Every queued event, oldest first. */
  events() {
    const out = [];
    for (let e = this.nextEvent(); e; e = this.nextEvent()) out.push(e);
    return out;
  }

  // -- JSON (doc/format.md)
  toJson() {
    const ptr = this.#ptr;
    return textOut('stpete_state_to_json', (b, n, len) => c.stateToJson(ptr, b, n, len));
  }
  /** What `seat` may know (§9), or the public view with VIEW_PUBLIC / null. */
  viewToJson(seat = VIEW_PUBLIC) {
    const ptr = this.#ptr;
    const s = seat === null ? VIEW_PUBLIC : int(seat, 'seat', VIEW_PUBLIC, this.players - 1);
    return textOut('stpete_state_view_to_json', (b, n, len) => c.stateViewToJson(ptr, s, b, n, len));
  }
  /** Load a full state (JSON); with no game, a new game from the text's options (freed with the state). */
  static fromJson(text, game) {
    const own = game === undefined || game === null;
    if (!own && !isGame(game)) throw argError('game', game);
    const fn = 'stpete_state_from_json';
    const [ptr, len] = toC(String(text), fn, 'document', jsonBound(fn, 'stpete-state', K.JSON_STATE_MAX));
    let g = null;
    try {
      g = own ? gameFromC(ptr, len) : game;
      check(c.stateFromJson(gamePtr(g), ptr, len, OUT, errOut()), fn, errText);
      return new State(INTERNAL, g, gameLife(g), getI32(OUT), null, own);
    } catch (e) {
      if (own && g) g.free();
      throw e;
    } finally {
      c.free(ptr);
    }
  }
  /** The replay record (doc/format.md) of this game: its seed and history; needs a state started by newState. */
  replayToJson() {
    if (this.#seed === null || this.#seed === undefined) {
      throw new InvalidArgumentError('replayToJson: the seed of a loaded state is unknown', Status.INVALID_ARGUMENT,
        'stpete_replay_to_json');
    }
    const ids = this.history();
    const gptr = this.#gh.ptr;
    const arr = c.malloc(Math.max(ids.length, 1) * 4);
    try {
      heap();
      i32.set(ids, arr >> 2);
      return textOut('stpete_replay_to_json',
        (b, n, len) => c.replayToJson(gptr, seed64(this.#seed), arr, ids.length, b, n, len));
    } finally { c.free(arr); }
  }
  /** Read and check one line of a results file of `program` for `definition` (stpete_results_read_line()): the
   * header gives {number: -1}; a game line {number, seed, fields}, its record replayed into this state (a state
   * of the run's game), which then holds the game's last position with the record's actions as its history: the
   * result comes from the state, never from the line. On failure the state is unchanged.
   * @throws ParseError, UnsupportedVersionError, MismatchError (another program, definition or game),
   *   InconsistentError (an illegal action, a result the actions do not reach), TooLargeError */
  readResultsLine(program, definition, line) {
    const fn = 'stpete_results_read_line';
    const text = String(line);
    const g = gamePtr(this.#game);
    const st = this.#ptr;
    const [lp, ll] = toC(text, fn, 'line', jsonBound(fn, 'results line', K.JSON_REPLAY_MAX));
    const cap = ll + 1; // the fields are shorter than their line
    const fields = c.malloc(cap);
    try {
      if (!fields) throw makeError(Status.OUT_OF_MEMORY, 'malloc');
      withStrings([[String(program), 'program'], [jsonObjectText(definition, 'definition'), 'definition']], fn,
        (p, d) => check(c.resultsReadLine(g, p, d, lp, ll, st, OUT, OUT2, fields, cap, STRUCT, errOut()), fn,
          errText));
      heap();
      const number = Number(BigInt.asIntN(64, u64[OUT >> 3]));
      if (number < 0) return { number: -1 };
      const seed = seedValue(u64[OUT2 >> 3]);
      this.#seed = seed;
      return { number, seed, fields: JSON.parse(decoder.decode(u8.subarray(fields, fields + i32[STRUCT >> 2]))) };
    } finally { c.free(lp); c.free(fields); }
  }
  /** Replay a record (every action checked) and return the state at its end, with a new game of its options. */
  static fromReplay(text) {
    const fn = 'stpete_replay_from_json';
    const [ptr, len] = toC(String(text), fn, 'document', jsonBound(fn, 'stpete-replay', K.JSON_REPLAY_MAX));
    let arr = 0;
    try {
      // Sized first: BUFFER_TOO_SMALL with the count and no game; a record of no action succeeds (a game) at once.
      const status = c.replayFromJson(ptr, len, 0, OUT, 0, 0, OUT2, errOut());
      if (status !== Status.BUFFER_TOO_SMALL) check(status, 'stpete_replay_from_json', errText);
      const n = status === Status.OK ? 0 : getI32(OUT2);
      if (status !== Status.OK) {
        arr = c.malloc(Math.max(n, 1) * 4);
        if (!arr) throw makeError(Status.OUT_OF_MEMORY, 'malloc');
        check(c.replayFromJson(ptr, len, 0, OUT, arr, n, OUT2, errOut()), 'stpete_replay_from_json', errText);
      }
      const game = adoptGame(getI32(OUT));
      const ids = intArray(arr, n);
      let state = null;
      try {
        state = newState(game, undefined, true);
        for (const id of ids) state.apply(id);
        return state;
      } catch (e) {
        if (state) state.free(); else game.free();
        throw e;
      }
    } finally { c.free(ptr); if (arr) c.free(arr); }
  }

  // -- hidden information (§9)
  /** Redraw in place what `seat` cannot know (stack orders, unseen hand cards; also others' secret rubles with
   * {rubles: true}) consistently with what it knows (OpenSpiel ResampleFromInfostate). */
  determinize(seat, seed, { rubles = false } = {}) {
    this.#fail(c.stateDeterminize(this.#ptr, this.#seat(seat), seed64(seed), rubles ? 1 : 0),
      'stpete_state_determinize');
    return this;
  }
  /** determinize(seat, seed) (OpenSpiel's name; C 1.0 removed stpete_state_resample for it). */
  resample(seat, seed) { return this.determinize(seat, seed); }
  /** What `seat` may know now as floats (layout: doc/observation.md). A new Float32Array. */
  observationTensor(seat) {
    const n = c.gameObservationTensorSize(this.#gh.ptr);
    this.#query(c.stateObservationTensor(this.#ptr, this.#seat(seat), BUF, n), 'stpete_state_observation_tensor');
    heap();
    return f32.slice(BUF >> 2, (BUF >> 2) + n);
  }
  observationString(seat) {
    const ptr = this.#ptr;
    const s = this.#seat(seat);
    return textOut('stpete_state_observation_string',
      (b, n, len) => c.stateObservationString(ptr, s, b, n, len));
  }
  informationStateString(seat) {
    const ptr = this.#ptr;
    const s = this.#seat(seat);
    return textOut('stpete_state_information_state_string',
      (b, n, len) => c.stateInformationStateString(ptr, s, b, n, len));
  }
  /** The 64-bit information-state key of `seat` (perfect recall), as a BigInt. */
  informationStateKey(seat) {
    this.#query(c.stateInformationStateKey(this.#ptr, this.#seat(seat), OUT), 'stpete_state_information_state_key');
    heap();
    return u64[OUT >> 3];
  }
}

/** The card type of a chance outcome id (CARD_NONE for a deal of the markers, §3.3, §12.3), undefined for an
 * action id: the base game's outcomes [CHANCE_CARD_FIRST, NS_ACTION_FIRST) and the New Society's from
 * NS_CHANCE_CARD_FIRST (its actions lie between: include/stpete/stpete.h, "Actions"). */
function chanceCard(id) {
  if (id >= K.CHANCE_CARD_FIRST && id < K.NS_ACTION_FIRST) {
    return id < K.CHANCE_MARKERS_FIRST ? id - K.CHANCE_CARD_FIRST : CARD_NONE;
  }
  if (id >= K.NS_CHANCE_CARD_FIRST) {
    return id < K.NS_CHANCE_MARKERS_FIRST ? NUM_CARD_TYPES + id - K.NS_CHANCE_CARD_FIRST : CARD_NONE;
  }
  return undefined;
}
/** Seeds read back: a number up to 2^53 - 1, a BigInt above. */
const seedValue = (s) => (s <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(s) : s);
/** A new State of `game` at the setup of §3 from `seed` (default: the options' seed). */
function newState(game, seed, ownsGame = false) {
  const gptr = gamePtr(game);
  const s = seed === undefined ? null : seed64(seed);
  check(c.stateNew(gptr, OUT, errOut()), 'stpete_state_new', errText);
  const ptr = getI32(OUT);
  if (s !== null) {
    const status = c.stateReset(ptr, s);
    if (failed(status)) {
      const detail = cstr(c.stateLastError(ptr));
      c.stateFree(ptr);
      check(status, 'stpete_state_reset', detail);
    }
  }
  return new State(INTERNAL, game, gameLife(game), ptr, s === null ? game.options.seed : seedValue(s), ownsGame);
}

// ---- bots --------------------------------------------------------------------------------------------------

/** One of the library's bots (include/stpete/bots.h): "random", "greedy", "mc:...", "ismcts:...", "learned:...". */
export class Bot {
  #handle;
  #game;
  constructor(game, spec = 'greedy', seed) {
    if (!isGame(game)) throw argError('game', game);
    const s = seed === undefined ? null : seed64(seed); // checked before the C bot exists
    const fn = 'stpete_bot_new';
    const max = K.BOT_SPEC_MAX - 1;
    const [sp] = toC(String(spec), fn, 'bot spec', { max, refuse: (bytes) => new ParseError(
      `${fn}: bot spec is ${bytes} bytes long; at most ${max} are accepted`, Status.PARSE, fn) });
    try {
      check(c.botNew(gamePtr(game), sp, OUT, errOut()), fn, errText);
    } finally { c.free(sp); }
    const ptr = getI32(OUT);
    const gh = gameLife(game);
    gh.retain();
    this.#game = game;
    this.#handle = new Handle(ptr, (p) => { c.botFree(p); gh.release(); }, 'Bot');
    if (s !== null) this.setSeed(s);
  }
  get game() { this.#handle.ptr; return this.#game; }
  get freed() { return this.#handle.freed; }
  free() { this.#handle.free(); }
  [dispose]() { this.free(); }
  /** Check the status of a call that changes the bot: the detail is the bot's last error (C: only such calls
   * write it; stpete_bot_spec, a query, writes none). */
  #fail(status, fn) {
    const ptr = this.#handle.ptr;
    return check(status, fn, () => cstr(c.botLastError(ptr)));
  }
  /** The canonical spec, e.g. "ismcts:iterations=1000:c=0.7:playout=random:depth=0:temp=10:seed=0". */
  get spec() {
    check(c.botSpec(this.#handle.ptr, BUF, K.BOT_SPEC_MAX, OUT), 'stpete_bot_spec');
    return cstr(BUF);
  }
  setSeed(seed) { this.#fail(c.botSetSeed(this.#handle.ptr, seed64(seed)), 'stpete_bot_set_seed'); return this; }
  /** A legal action id for the seat to act in `state` (reads only what that seat may know, §9). */
  choose(state) {
    if (!isState(state)) throw argError('state', state);
    this.#fail(c.botChoose(this.#handle.ptr, statePtr(state), OUT), 'stpete_bot_choose');
    return getI32(OUT);
  }
  /** What the last choose() did (stpete_bot_get_stats): iterations, elapsedNs, nodes and playoutActions
   * (numbers), value (mean return of the choice in [0, 1]; greedy: its projected VP), action, seat and
   * legalActions (-1, -1 and 0 before the first choice). */
  stats() {
    const L = LAYOUT.bot_stats;
    check(c.botGetStats(this.#handle.ptr, initStruct(STRUCT, L)), 'stpete_bot_get_stats');
    heap();
    const n = (field) => Number(u64[(STRUCT + L[field]) >> 3]);
    return { iterations: n('iterations'), elapsedNs: n('elapsed_ns'), nodes: n('nodes'),
      playoutActions: n('playout_actions'), value: f64[(STRUCT + L.value) >> 3], action: getI32(STRUCT + L.action),
      seat: getI32(STRUCT + L.seat), legalActions: getI32(STRUCT + L.legal_actions) };
  }
  /** Play `state` on with `bots[s]` choosing for seat s (stpete_bot_play: §4.1-§4.6) until the end, a chance node
   * or `maxActions` actions (0: no limit). Returns the number of actions applied; on a failure it throws, and the
   * state holds the actions applied before it. */
  static play(state, bots, maxActions = 0) {
    if (!isState(state)) throw argError('state', state);
    if (!Array.isArray(bots) || bots.length === 0 || bots.length > 64) throw argError('bots', bots);
    const ptrs = bots.map((b, k) => {
      if (!(b instanceof Bot)) throw argError(`bots[${k}]`, b);
      return b.#handle.ptr;
    });
    const max = int(maxActions, 'maxActions', 0);
    heap();
    i32.set(ptrs, BUF >> 2);
    const status = c.botPlay(BUF, ptrs.length, statePtr(state), max, OUT);
    if (failed(status)) {
      const culprit = bots[state.currentPlayer]; // the bot that failed, or the state (its last error) for apply
      const detail = culprit ? cstr(c.botLastError(culprit.#handle.ptr)) || cstr(c.stateLastError(statePtr(state)))
        : cstr(c.stateLastError(statePtr(state)));
      check(status, 'stpete_bot_play', detail);
    }
    return getI32(OUT);
  }
  /** The bot's estimate of each seat's return (constant-sum 1). */
  evaluate(state) {
    if (!isState(state)) throw argError('state', state);
    this.#fail(c.botEvaluate(this.#handle.ptr, statePtr(state), BUF, MAX_PLAYERS), 'stpete_bot_evaluate');
    heap();
    return Array.from(f64.subarray(BUF >> 3, (BUF >> 3) + state.players));
  }
}
