// libstpete for JavaScript: Saint Petersburg (first edition and the second-edition preset, 2-4 players; the New
// Society expansion, 2-5 players, §12) on the C
// library compiled to WebAssembly. An ES module for Node >= 20 and browsers (also in module Web Workers); the
// declarations with every shape, unit, error and rule reference are in index.d.ts (the reference of this API).
// The rules are the C library's (doc/rules.md, § and R-ids there): nothing here reimplements them.
import createStpeteModule from './libstpete.mjs';
import { FUNCTIONS, LAYOUT, CONSTANTS } from './capi.js';

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

// ---- constants (include/stpete/stpete.h) -------------------------------------------------------------------

export const Status = Object.freeze({
  OK: 0, INVALID_ARGUMENT: -101, ILLEGAL_ACTION: -102, BUFFER_TOO_SMALL: -103, OUT_OF_MEMORY: -104,
  GAME_OVER: -105, NOT_TERMINAL: -106, PARSE: -107, UNSUPPORTED_VERSION: -108, MISMATCH: -109, REENTRANT: -110,
  REDACTED: -111, INCONSISTENT: -112, TOO_LARGE: -113, NO_PRICE: -114,
});
export const Edition = Object.freeze({ FIRST: 1, SECOND: 2 });
export const Colour = Object.freeze({ GREEN: 0, BLUE: 1, ORANGE: 2 });
export const Source = Object.freeze({ UPPER: 0, LOWER: 1, HAND: 2, OBSERVATORY: 3, DISCARD: 4 });
export const Stack = Object.freeze({ WORKER: 0, BUILDING: 1, ARISTOCRAT: 2, TRADING: 3 });
export const Phase = Object.freeze({ WORKER: 0, BUILDING: 1, ARISTOCRAT: 2, TRADING: 3 });
export const Decision = Object.freeze({
  TURN: 0, OBSERVATORY: 1, PUB: 2, GAME_OVER: 3, CHANCE: 4, PRISON: 5, GUILD_HALL: 6, TRADING_HOUSE: 7,
});
export const ActionKind = Object.freeze({
  PASS: 0, BUY: 1, PLAY: 2, TAKE: 3, OBSERVATORY: 4, OBSERVATORY_BUY: 5, OBSERVATORY_TAKE: 6,
  OBSERVATORY_DISCARD: 7, PUB: 8, PRISON: 9, PRISON_BUY: 10, PRISON_TAKE: 11, PRISON_PUT_BACK: 12, GUILD_HALL: 13,
  TRADING_HOUSE: 14,
});
export const EventKind = Object.freeze({
  PHASE_START: 0, DEAL: 1, BUY: 2, PLAY: 3, TAKE: 4, DISPLACE: 5, PASS: 6, OBSERVATORY_DRAW: 7,
  OBSERVATORY_DISCARD: 8, SCORING: 9, PUB: 10, ROUND_END: 11, MARKERS_MOVED: 12, LAST_ROUND: 13,
  FINAL_SCORING: 14, GAME_OVER: 15, UNDO: 16, PRISON: 17, PRISON_PUT_BACK: 18, GUILD_HALL: 19, TRADING_HOUSE: 20,
  SYCOPHANT_DISCARD: 21, GOLD_DISC: 22,
});
/** The 13 card types of the New Society (§12.2.3), numbered after the 49 of the base game. */
export const NewSocietyCard = Object.freeze({
  NEW_FARMER: 49, COFFEE_HOUSE: 50, DEBTORS_PRISON: 51, TRADING_HOUSE: 52, SYCOPHANT: 53, OBSHCHINA_COMMUNE: 54,
  NEW_SOCIETY: 55, ST_PETERSBURG_UNIVERSITY: 56, GUILD_HALL: 57, TEXTILE_FACTORY: 58, MERCHANT: 59, LT_KIJE: 60,
  MAYOR: 61,
});
export const PubCap = Object.freeze({ PER_PUB: 0, PER_PLAYER: 1 });
export const TieBreak = Object.freeze({ RUBLES_MOD_10: 0, RUBLES_TOTAL: 1 });
export const ChanceMode = Object.freeze({ SAMPLED: 0, EXPLICIT: 1 });
export const PLAYER_CHANCE = -1;
export const PLAYER_TERMINAL = -4;
export const NUM_CARD_TYPES = 49;
export const NUM_DISTINCT_ACTIONS = c.numDistinctActions();
/** The header's bounds (src/capi.js CONSTANTS, checked against the header when the module is built). */
const K = Object.fromEntries(Object.entries(CONSTANTS).map(([name, [, value]]) => [name, value]));
export const CHANCE_CARD_FIRST = K.CHANCE_CARD_FIRST;
export const CHANCE_MARKERS_FIRST = K.CHANCE_MARKERS_FIRST;
export const NUM_CHANCE_OUTCOMES = K.NUM_CHANCE_OUTCOMES;
export const MAX_PLAYERS = K.MAX_PLAYERS;
export const NUM_CARD_TYPES_NEW_SOCIETY = K.NUM_CARD_TYPES_NEW_SOCIETY;
export const NUM_DISTINCT_ACTIONS_NEW_SOCIETY = K.NUM_DISTINCT_ACTIONS_NEW_SOCIETY;
export const NS_ACTION_FIRST = K.NS_ACTION_FIRST;
export const NS_CHANCE_CARD_FIRST = K.NS_CHANCE_CARD_FIRST;
export const NS_CHANCE_MARKERS_FIRST = K.NS_CHANCE_MARKERS_FIRST;
/** The buffers of legal actions and chance outcomes: the larger bound, any game's (§12.4.1). */
const MAX_LISTED = K.MAX_LEGAL_ACTIONS_NEW_SOCIETY;
export const VIEW_PUBLIC = -1;
export const CARD_NONE = -1;

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
/** The library's version string, e.g. "1.0.0". */
export function version() { return cstr(c.version()); }

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
  /** The canonical string of an action id (or chance outcome id) with this game's card names. */
  actionString(id) { return actionString(this.edition, id); }
  /** A new state at the start of a game (§3) from `seed` (default: the options' seed). */
  newState(seed) { return newState(this, seed); }
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
    const id = this.#id(action);
    this.#fail(c.stateApply(this.#ptr, id), 'stpete_state_apply');
    return this;
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
  /** The bot's estimate of each seat's return (constant-sum 1). */
  evaluate(state) {
    if (!isState(state)) throw argError('state', state);
    this.#fail(c.botEvaluate(this.#handle.ptr, statePtr(state), BUF, MAX_PLAYERS), 'stpete_bot_evaluate');
    heap();
    return Array.from(f64.subarray(BUF >> 3, (BUF >> 3) + state.players));
  }
}
