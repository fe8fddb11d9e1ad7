/**
 * libstpete for JavaScript: the rules engine of Saint Petersburg (first edition, and the second-edition preset of
 * §11; 2-4 players; the New Society expansion of §12 with 2-5 players, GameOptions.newSociety) compiled to WebAssembly, with the library's bots. ES module for Node >= 20, browsers and module
 * Web Workers; importing it instantiates the wasm module (top-level await).
 *
 * Rules: doc/rules.md (§ and R-ids below). Every rule is the C library's (include/stpete/stpete.h); this package
 * only converts values. Units: rubles (R), victory points (VP), seats 0..players-1.
 *
 * Memory: a Game, State or Bot owns C memory in the wasm heap. Call free() (or `using`, Symbol.dispose) when
 * done: that is the way for loops. A FinalizationRegistry also frees what is dropped, but only after a garbage
 * collection and only when the event loop runs: objects dropped inside one synchronous loop are all alive until
 * the loop returns (their C memory too: tens of thousands of games fill the 2 GiB and end in OutOfMemoryError),
 * and the collector does not see the wasm heap, so even with the event loop running the heap holds thousands of
 * dropped objects (doc/javascript.md, "Memory").
 * The wasm memory grows and never shrinks (wasmMemoryBytes()). Any method of a freed object throws FreedError
 * (the module is untouched). A Game freed while it still has states or bots stays alive in C until the last is
 * freed (its states keep working; the Game object itself throws FreedError). The C pointers are private to the
 * module: no property, argument or symbol reaches them.
 *
 * Errors: every failing C call throws a StpeteError subclass with `status` (the STPETE_E_* code), `function` (the
 * C function) and the library's message: after a call that changes a state or bot (apply, undo, reset,
 * determinize, the event queue; a bot's choose, evaluate, setSeed) the handle's last error; for the calls without
 * a handle (new Game, Game.fromJson, State.fromJson, State.fromReplay, new Bot, clone) the C API's `stpete_error`
 * (for JSON input, with line and column); a query (a const state in C) writes no detail, so its message is the
 * status's (e.g. "stpete_state_winners: game not over"). Arguments are checked before the call: a seat, card or
 * action id that is not an integer in range throws InvalidArgumentError (JavaScript numbers are never wrapped into
 * int32); a text with U+0000 (NUL) throws InvalidArgumentError (a C string would end there: 'pass\0junk' is no
 * action);
 * a text over its documented bound (JSON: 1 MiB for a state, 4 MiB for a replay record or the options of
 * Game.fromJson; a bot spec: 255 bytes) throws TooLargeError (ParseError for a bot spec, as the C library) before
 * it is copied into the wasm heap. Nothing is changed by a call that throws.
 *
 * Numbers: seeds are 64-bit: a non-negative safe integer or a BigInt < 2^64 (seeds read back are numbers up to
 * 2^53 - 1, BigInts above). Information-state keys are BigInts.
 * @module libstpete
 */

/** A 64-bit seed: a non-negative safe integer, or a BigInt in [0, 2^64). */
export type Seed = number | bigint;

/** Status codes (STPETE_OK and STPETE_E_* of the 1.0 C API: every error in [-114, -101], below every value and
 * sentinel; they were -1..-14 before 1.0). StpeteError.status is one of them. */
export declare const Status: Readonly<{
  OK: 0; INVALID_ARGUMENT: -101; ILLEGAL_ACTION: -102; BUFFER_TOO_SMALL: -103; OUT_OF_MEMORY: -104;
  GAME_OVER: -105; NOT_TERMINAL: -106; PARSE: -107; UNSUPPORTED_VERSION: -108; MISMATCH: -109; REENTRANT: -110;
  REDACTED: -111; INCONSISTENT: -112; TOO_LARGE: -113; NO_PRICE: -114;
}>;
/** The editions (GameOptions.edition; §11): the first (2004, default) and the second-edition preset (2014). */
export declare const Edition: Readonly<{ FIRST: 1; SECOND: 2 }>;
/** Colours (§1); also the phase that scores the colour. */
export declare const Colour: Readonly<{ GREEN: 0; BLUE: 1; ORANGE: 2 }>;
/** Rows of the board and where a card comes from (§4.2, §5.1). */
export declare const Source: Readonly<{ UPPER: 0; LOWER: 1; HAND: 2; OBSERVATORY: 3; DISCARD: 4 }>;
/** The four stacks (§1). */
export declare const Stack: Readonly<{ WORKER: 0; BUILDING: 1; ARISTOCRAT: 2; TRADING: 3 }>;
/** The four phases of a round (§4); also the index of each start-player marker. */
export declare const Phase: Readonly<{ WORKER: 0; BUILDING: 1; ARISTOCRAT: 2; TRADING: 3 }>;
/** What the current player decides (§4.2, §7.1, §7.2); CHANCE only in explicit chance mode; with the New Society
 * PRISON (the Debtor's Prison's card: buy, take or put back, §12.7.5, R21), GUILD_HALL (split its 4 into R and VP,
 * §12.7.7, R24) and TRADING_HOUSE (3 R for 2 VP or not, §12.7.6, R25), none of which lists a pass. */
export declare const Decision: Readonly<{
  TURN: 0; OBSERVATORY: 1; PUB: 2; GAME_OVER: 3; CHANCE: 4; PRISON: 5; GUILD_HALL: 6; TRADING_HOUSE: 7;
}>;
/** Kinds of action (include/stpete/stpete.h, "Actions"). */
export declare const ActionKind: Readonly<{
  PASS: 0; BUY: 1; PLAY: 2; TAKE: 3; OBSERVATORY: 4; OBSERVATORY_BUY: 5; OBSERVATORY_TAKE: 6;
  OBSERVATORY_DISCARD: 7; PUB: 8;
  /** New Society (§12.7.5-§12.7.7): the Prison's pick (card), its buy (source DISCARD, no row discount), take and
   * put back; the Guild Hall (amount = rubles taken, 4 - amount VP); the Trading House (amount 1 buys, 0 declines). */
  PRISON: 9; PRISON_BUY: 10; PRISON_TAKE: 11; PRISON_PUT_BACK: 12; GUILD_HALL: 13; TRADING_HOUSE: 14;
}>;
/** Kinds of event (include/stpete/stpete.h, "Events"). */
export declare const EventKind: Readonly<{
  PHASE_START: 0; DEAL: 1; BUY: 2; PLAY: 3; TAKE: 4; DISPLACE: 5; PASS: 6; OBSERVATORY_DRAW: 7;
  OBSERVATORY_DISCARD: 8; SCORING: 9; PUB: 10; ROUND_END: 11; MARKERS_MOVED: 12; LAST_ROUND: 13;
  FINAL_SCORING: 14; GAME_OVER: 15; UNDO: 16;
  /** New Society (§12.3, §12.7.5-§12.7.9). */
  PRISON: 17; PRISON_PUT_BACK: 18; GUILD_HALL: 19; TRADING_HOUSE: 20; SYCOPHANT_DISCARD: 21; GOLD_DISC: 22;
}>;
/** The 49 card types of the base game (§2.1-§2.4), as stpete.h numbers them. */
export declare const Card: Readonly<{
  LUMBERJACK: 0; GOLD_MINER: 1; SHEPHERD: 2; FUR_TRAPPER: 3; SHIP_BUILDER: 4; CZAR_AND_CARPENTER: 5; MARKET: 6;
  CUSTOMS_HOUSE: 7; FIREHOUSE: 8; HOSPITAL: 9; LIBRARY: 10; THEATER: 11; ACADEMY: 12; POTJOMKINS_VILLAGE: 13;
  PUB: 14; WAREHOUSE: 15; OBSERVATORY: 16; AUTHOR: 17; ADMINISTRATOR: 18; WAREHOUSE_MANAGER: 19; SECRETARY: 20;
  CONTROLLER: 21; JUDGE: 22; MISTRESS_OF_CEREMONIES: 23; CARPENTER_WORKSHOP: 24; GOLD_SMELTER: 25;
  WEAVING_MILL: 26; FUR_SHOP: 27; WHARF: 28; MARIINSKIJ_THEATER: 29; BANK: 30; PETERHOF: 31;
  ST_ISAACS_CATHEDRAL: 32; CHURCH_OF_THE_RESURRECTION: 33; HARBOR: 34; CATHERINE_THE_GREAT_PALACE: 35;
  SMOLNY_CATHEDRAL: 36; HERMITAGE: 37; WINTER_PALACE: 38; POPE: 39; WEAPON_MASTER: 40; CHAMBER_MAID: 41;
  BUILDER: 42; SENATOR: 43; PATRIARCH: 44; TAX_MAN: 45; ADMIRAL: 46; MINISTER_OF_FOREIGN_AFFAIRS: 47; CZAR: 48;
}>;
/** Special abilities of a card type (CardInfo.special; §7, §11, §12.7). */
export declare const Special: Readonly<{
  NONE: 0; OBSERVATORY: 1; PUB: 2; WAREHOUSE: 3; POTJOMKINS_VILLAGE: 4; MARIINSKIJ_THEATER: 5; TAX_MAN: 6;
  CARPENTER_WORKSHOP: 7; GOLD_SMELTER: 8; CZAR_AND_CARPENTER: 9; MARIINSKY_THEATER_VP: 10; COFFEE_HOUSE: 11;
  DEBTORS_PRISON: 12; TRADING_HOUSE: 13; SYCOPHANT: 14; OBSHCHINA_COMMUNE: 15; NEW_SOCIETY: 16; GUILD_HALL: 17;
  TEXTILE_FACTORY: 18; MAYOR: 19;
}>;
/** How State.applyRandom turns its random number into an index of the n listed actions: MODULO `random % n` (the
 * random bot's draw, State.randomAction), SCALED `((random >> 32) * n) >> 32` (the search bots' playouts). */
export declare const Pick: Readonly<{ MODULO: 0; SCALED: 1 }>;
/** The type of an option's value (stpete_option_type; OptionInfo.type is its word in lowercase). */
export declare const OptionType: Readonly<{ BOOL: 0; INT: 1; ENUM: 2; SEED: 3; SEATS: 4 }>;
/** What an option changes (stpete_option_category; OptionInfo.category is its word in lowercase). */
export declare const OptionCategory: Readonly<{ RULES: 0; INFORMATION: 1; PLAY: 2 }>;
/** The kinds of game an option applies to, a mask (stpete_games; OptionInfo.games lists them as words). */
export declare const Games: Readonly<{ FIRST_EDITION: 1; SECOND_EDITION: 2; NEW_SOCIETY: 4; ALL: 7 }>;
/** The 13 card types of the New Society (§12.2.3), numbered after the 49 of the base game (a game with
 * newSociety has card types [0, NUM_CARD_TYPES_NEW_SOCIETY)). */
export declare const NewSocietyCard: Readonly<{
  NEW_FARMER: 49; COFFEE_HOUSE: 50; DEBTORS_PRISON: 51; TRADING_HOUSE: 52; SYCOPHANT: 53; OBSHCHINA_COMMUNE: 54;
  NEW_SOCIETY: 55; ST_PETERSBURG_UNIVERSITY: 56; GUILD_HALL: 57; TEXTILE_FACTORY: 58; MERCHANT: 59; LT_KIJE: 60;
  MAYOR: 61;
}>;
/** Most players: 5, with the New Society only (§12.0, R17). */
export declare const MAX_PLAYERS: 5;
/** Card types of a game with the New Society (§12.2.3): 62 (Game.numCardTypes). */
export declare const NUM_CARD_TYPES_NEW_SOCIETY: 62;
/** Distinct action ids of a game with the New Society: 2188 (Game.numDistinctActions). Its new actions are the ids
 * [NS_ACTION_FIRST, 2188); the base game's ids keep their meaning. */
export declare const NUM_DISTINCT_ACTIONS_NEW_SOCIETY: 2188;
/** The first action id of the New Society (include/stpete/stpete.h, "Actions"): 1277. */
export declare const NS_ACTION_FIRST: 1277;
/** New Society chance outcomes: NS_CHANCE_CARD_FIRST + k deals card type 49 + k (§4.5, §7.1). */
export declare const NS_CHANCE_CARD_FIRST: 2188;
/** With 5 players: NS_CHANCE_MARKERS_FIRST + m0 + 5·m1 + 25·m2 + 125·m3 deals the markers (§12.3, R18). */
export declare const NS_CHANCE_MARKERS_FIRST: 2201;
/** Pub cap (§7.2, R10). */
export declare const PubCap: Readonly<{ PER_PUB: 0; PER_PLAYER: 1 }>;
/** Tie-break (§8, R14). */
export declare const TieBreak: Readonly<{ RUBLES_MOD_10: 0; RUBLES_TOTAL: 1 }>;
/** How random events happen (§3.1; OpenSpiel's ChanceMode). */
export declare const ChanceMode: Readonly<{ SAMPLED: 0; EXPLICIT: 1 }>;
/** currentPlayer at a chance node (explicit chance mode). */
export declare const PLAYER_CHANCE: -1;
/** currentPlayer once the game is over. */
export declare const PLAYER_TERMINAL: -4;
/** Number of card types of the base game (§2): 49 (Game.numCardTypes: a game's). */
export declare const NUM_CARD_TYPES: 49;
/** Number of distinct action ids of the base game: 972 (ids are stable within an ABI major; Game.numDistinctActions:
 * a game's). */
export declare const NUM_DISTINCT_ACTIONS: 972;
/** First chance outcome id (explicit chance mode): CHANCE_CARD_FIRST + card type is "a card of that type is dealt
 * or drawn" (§4.5, §7.1); equal to NUM_DISTINCT_ACTIONS. */
export declare const CHANCE_CARD_FIRST: 972;
/** First start-player marker outcome id: CHANCE_MARKERS_FIRST + m0 + 4·m1 + 16·m2 + 64·m3 deals the markers of
 * the four phases to seats m0..m3 (§3.3). */
export declare const CHANCE_MARKERS_FIRST: 1021;
/** Number of chance outcome ids (OpenSpiel's MaxChanceOutcomes): 49 card types + 256 marker deals. */
export declare const NUM_CHANCE_OUTCOMES: 305;
/** Physical cards of the base game (§2): 116; with the New Society 144 (§12.2.4). */
export declare const NUM_CARDS: 116;
export declare const NUM_CARDS_NEW_SOCIETY: 144;
/** An unused member of an action or event (equal to CARD_NONE). */
export declare const NONE: -1;
/** Phases of a round and start-player markers (§4); stacks (§1). */
export declare const NUM_PHASES: 4;
export declare const NUM_STACKS: 4;
/** Fewest players (§3). */
export declare const MIN_PLAYERS: 2;
/** Cards on the board across both rows (§1), except after a 5-player New Society opening (10, §12.4.1, R20). */
export declare const BOARD_SIZE: 8;
/** Largest hand: 3, or 4 with a Warehouse (§7.3). */
export declare const MAX_HAND: 4;
/** Most rubles a seat can hold, and most VP (and fewest, -VP_MAX): gains saturate (doc/format.md). */
export declare const RUBLES_MAX: 100000;
export declare const VP_MAX: 100000;
/** Card variants (card type x displaced type) of the base game, and with the New Society. */
export declare const NUM_CARD_VARIANTS: 214;
export declare const NUM_CARD_VARIANTS_NEW_SOCIETY: 334;
/** Bounds on the number of legal actions (without, with the New Society). */
export declare const MAX_LEGAL_ACTIONS: 160;
export declare const MAX_LEGAL_ACTIONS_NEW_SOCIETY: 400;
/** Version of the action-id encoding (bumped only with the ABI major). */
export declare const ACTION_ENCODING_VERSION: 1;
/** Longest action string and event line, NUL included (C buffers). */
export declare const ACTION_STRING_MAX: 96;
export declare const EVENT_STRING_MAX: 192;
/** The JSON formats' versions (doc/format.md): 3, and 4 for a game with the New Society. */
export declare const FORMAT_VERSION: 3;
export declare const FORMAT_VERSION_NEW_SOCIETY: 4;
/** Largest state document and replay record the readers accept, in bytes. */
export declare const JSON_STATE_MAX: 1048576;
export declare const JSON_REPLAY_MAX: 4194304;
/** Results files (doc/format.md "Results files"): a definition hash's size in bytes, NUL included (16 hex digits),
 * and the largest game number a game line may carry (2^53 - 1, JavaScript's largest exact integer). */
export declare const RESULTS_HASH_SIZE: 17;
export declare const RESULTS_GAME_MAX: 9007199254740991;
/** State.determinize's flag for others' secret rubles (its `rubles: true`). */
export declare const DETERMINIZE_RUBLES: 1;
/** One past the last id of a game with the New Society, chance outcomes included. */
export declare const NS_ID_END: 2826;
/** The range of status codes: every StpeteError.status is in [E_LAST, E_FIRST]. */
export declare const E_FIRST: -101;
export declare const E_LAST: -114;
/** Longest bot spec, NUL included (a spec has at most 255 bytes). */
export declare const BOT_SPEC_MAX: 256;
/** The salt of the bots' seeds in the project's programs (seed ^ BOT_SEED_SALT, bots.h). */
export declare const BOT_SEED_SALT: 185029093;
/** Longest text of Game.cardText, NUL included (C buffers). */
export declare const CARD_TEXT_MAX: 384;
/** Bytes that hold any option's value as text (stpete_options_value), NUL included. */
export declare const OPTION_VALUE_MAX: 32;
/** Most offers of any position (State.offers). */
export declare const MAX_OFFERS: 256;
/** The table document's version (State.tableToJson, doc/format.md "Table document"). */
export declare const TABLE_VERSION: 1;
/** stpete_state_table_to_json's flags (State.tableToJson's `cards` and `person`). */
export declare const TABLE_CARDS: 1;
export declare const TABLE_PERSON: 2;
/** Seat argument of State.viewToJson for the spectators' view (§9). */
export declare const VIEW_PUBLIC: -1;
/** The hash that names a run's definition in its results file: 16 hex digits (stpete_results_hash()).
 * @throws ParseError for text that is not a JSON object */
export declare function resultsHash(definition: object | string): string;
/** The header line (no newline) of a results file of `program` for `definition` (stpete_results_header_to_json()).
 * @throws ParseError */
export declare function resultsHeader(program: string, definition: object | string): string;
/** "No card": State.observatoryCard when no Observatory draw is pending (§7.1), and unused action and event
 * fields (STPETE_CARD_NONE). */
export declare const CARD_NONE: -1;

/** A C call failed. */
export declare class StpeteError extends Error {
  /** The STPETE_E_* status (negative). */
  readonly status: number;
  /** The C function that failed, or 'argument' for an argument refused before the call. */
  readonly function: string;
}
/** STPETE_E_INVALID_ARGUMENT (-101): a seat, card, row, stack, action id, option or seed out of range; a text
 * with U+0000 (NUL), which a C string cannot carry. */
export declare class InvalidArgumentError extends StpeteError {}
/** STPETE_E_ILLEGAL_ACTION (-102): the action is not legal now (the message says why, with the rule). */
export declare class IllegalActionError extends StpeteError {}
/** STPETE_E_BUFFER_TOO_SMALL (-103): never seen (the package sizes its buffers). */
export declare class BufferTooSmallError extends StpeteError {}
/** STPETE_E_OUT_OF_MEMORY (-104): the wasm heap could not grow. */
export declare class OutOfMemoryError extends StpeteError {}
/** STPETE_E_GAME_OVER (-105): the game has ended (§4.6, §8). */
export declare class GameOverError extends StpeteError {}
/** STPETE_E_NOT_TERMINAL (-106): winners need a finished game. */
export declare class NotTerminalError extends StpeteError {}
/** STPETE_E_PARSE (-107): an action string, card name, bot spec (also one over 255 bytes) or JSON text that
 * cannot be read. */
export declare class ParseError extends StpeteError {}
/** STPETE_E_UNSUPPORTED_VERSION (-108): a JSON format newer than the library. */
export declare class UnsupportedVersionError extends StpeteError {}
/** STPETE_E_MISMATCH (-109): a state of a game with other rule options. */
export declare class MismatchError extends StpeteError {}
/** STPETE_E_REENTRANT (-110): never thrown (the package sets no event callback). */
export declare class ReentrantError extends StpeteError {}
/** STPETE_E_REDACTED (-111): a per-seat or public view cannot be loaded as a playable state. */
export declare class RedactedError extends StpeteError {}
/** STPETE_E_INCONSISTENT (-112): a saved position or replay that breaks the rules (doc/format.md). */
export declare class InconsistentError extends StpeteError {}
/** STPETE_E_TOO_LARGE (-113): JSON text over its size bound (1 MiB state, 4 MiB replay record and Game.fromJson),
 * refused before it is copied into the wasm heap. */
export declare class TooLargeError extends StpeteError {}
/** STPETE_E_NO_PRICE (-114): never thrown (actionPrice returns null). */
export declare class NoPriceError extends StpeteError {}
/** A method of a freed Game, State or Bot (status INVALID_ARGUMENT). */
export declare class FreedError extends InvalidArgumentError {}

/** One card type (a row of the §2 tables). */
export interface CardInfo {
  card: number;
  /** Printed English name (the game's edition's with Game.cardInfo, §11). */
  name: string;
  /** Colour (Colour). */
  colour: number;
  /** One of the 30 trading cards (§2.4). */
  trading: boolean;
  /** Printed cost in rubles. */
  cost: number;
  /** Income in rubles at its colour's scoring (§4.4). */
  rubles: number;
  /** Income in VP at its colour's scoring (§4.4). */
  vp: number;
  /** Copies in the game. */
  copies: number;
  /** Workers and green trading cards: the worker type of their ware (§6.2); -1 otherwise and for Czar and
   * Carpenter. */
  ware: number;
  /** Special ability (§7): 0 none, 1 Observatory, 2 Pub, 3 Warehouse, 4 Potjomkin's Village, ... (stpete.h). */
  special: number;
  /** The stack the card is dealt from (Stack; §1, §2): its colour's for workers, buildings and aristocrats,
   * TRADING for the 30 trading cards. */
  stack: number;
}
/** The structured form of an action id; unused fields are -1. */
export interface ActionFields {
  kind: number; source: number; card: number; displaced: number; stack: number; amount: number;
}
/** A legal action as State.legalActions() describes it. A chance outcome (an id in [CHANCE_CARD_FIRST,
 * NS_ACTION_FIRST) or from NS_CHANCE_CARD_FIRST, at a chance node of the explicit chance mode) has kind -1, card = its card type (-1 for a marker deal), every other field -1 and
 * price null. */
export interface Action extends ActionFields {
  id: number;
  /** Canonical string with the game's card names, e.g. "buy Wharf from upper displacing Ship Builder",
   * "chance Market", "chance markers 0 1 0 1". */
  string: string;
  /** Rubles the acting seat pays (§5, R5-R7), or null for an action that costs nothing. */
  price: number | null;
}
/** A card a trading card could displace, with the price (State.displacements; §5.2, §6.2). */
export interface Displacement {
  /** The card type displaced. */
  displaced: number;
  /** Rubles the seat would pay (at least 1). */
  price: number;
}
/** One card a seat could buy or play, in one way, and its price (State.offers; stpete_state_offers). */
export interface Offer {
  /** The action id that buys or plays it so (legal or not now). */
  action: number;
  /** Where the card is (Source). */
  source: number;
  card: number;
  /** For a trading card the card type it displaces (§6.2), else -1. */
  displaced: number;
  /** Rubles (at least 1; §5, §5.2). */
  price: number;
}
/** What Bot.choose did last (Bot.stats; stpete_bot_get_stats). */
export interface BotStats {
  /** Determinized playouts run (mc, ismcts); 0 for random and greedy and with a single legal action. */
  iterations: number;
  /** Wall-clock duration of the choice, in nanoseconds. */
  elapsedNs: number;
  /** ismcts: tree nodes built, the root included; 0 for the other kinds. */
  nodes: number;
  /** mc, ismcts: actions applied in playouts. */
  playoutActions: number;
  /** mc, ismcts: mean return of the chosen action for the acting seat, in [0, 1]; greedy: its projected VP. */
  value: number;
  /** The action chosen, the seat it was chosen for, among how many legal actions (-1, -1, 0 before the first). */
  action: number;
  seat: number;
  legalActions: number;
}
/** One option of the library's table of options (options(); stpete_option_get_info, include/stpete/stpete.h "The
 * table of options"): what a setup form is built from. */
export interface OptionInfo {
  /** The option's name: the JSON format's key and a key of GameOptions, e.g. "pub_cap". */
  readonly name: string;
  /** The same in camelCase, e.g. "pubCap" (GameOptions and ResolvedOptions accept and give it). */
  readonly key: string;
  /** A short label for a form, e.g. "Pub cap". */
  readonly title: string;
  /** One line of English: what it does and its values. */
  readonly description: string;
  /** The rule it sets, e.g. "§7.2, R10". */
  readonly rule: string;
  /** How its value is given: a boolean, an integer in [min, max], one of `words`, a seed, or seats. */
  readonly type: 'bool' | 'int' | 'enum' | 'seed' | 'seats';
  /** What it changes: the rules, what seats see (§9), or how a program deals and drives its games (the seed and
   * the chance mode: not a rule). */
  readonly category: 'rules' | 'information' | 'play';
  /** The kinds of game it applies to: elsewhere it must keep its default (checkOptions says why). */
  readonly games: readonly ('first-edition' | 'second-edition' | 'new-society')[];
  /** The smallest and largest value (an enum's word numbers; seats: -1 = random, then seats). A value in range may
   * still be refused in a combination (5 players without the New Society). */
  readonly min: number;
  readonly max: number;
  /** The default as the JSON format writes it: a boolean, a number, a word, a seed string, null (random seats). */
  readonly default: boolean | number | string | null;
  /** The default as text, e.g. "per-pub", "4", "false". */
  readonly defaultText: string;
  /** An enum's words (its value's JSON word is words[number]); a bool's "false", "true"; else null. */
  readonly words: readonly string[] | null;
  /** int and enum: a short label per value from min to max, e.g. "5 (the New Society)"; else null. */
  readonly labels: readonly string[] | null;
}
/** The value of an option in GameOptions: a boolean, an integer (an enum's number too), a word, a seed (number,
 * BigInt or decimal string), or seats (4 numbers, or null for random). */
export type OptionValue = boolean | number | bigint | string | number[] | null;
/** Options of a game (§3, §7.2, §8, §9, §11, §12): any option of the table (options()), by its name ("pub_cap")
 * or its camelCase key ("pubCap"). Unknown keys throw InvalidArgumentError; values the library refuses throw
 * InvalidArgumentError with its reason. The keys below are this version's. */
export interface GameOptions {
  /** 2..4 (default 4); 5 with newSociety (§12.0, R17). */
  players?: number;
  /** 1 (first edition, default) or 2 (second-edition preset, §11). */
  edition?: number;
  /** Default seed of the game's states (default 0). */
  seed?: Seed | string;
  /** PubCap (§7.2, R10): its number or word ("per-pub", "per-player"). */
  pubCap?: number | string;
  /** TieBreak (§8, R14): its number or word ("rubles-mod-10", "rubles-total"). */
  tieBreak?: number | string;
  /** startMarkers[phase] = seat holding that phase's marker (§3.3), or null for a random deal. */
  startMarkers?: number[] | null;
  /** Rubles are public (§9 option). */
  publicRubles?: boolean;
  /** Hand card identities are public (§9 option). */
  publicHands?: boolean;
  /** ChanceMode (§3.1): its number or word ("sampled", "explicit"). */
  chanceMode?: number | string;
  /** The New Society expansion (§12: 144 cards, the Debtor's Prison, Guild Hall, Trading House, ..., 2-5 players);
   * the first edition only (R17: refused with edition 2). Default false. */
  newSociety?: boolean;
  /** New Society, 5 players (§12.4.1, R19): the markers move one seat a round, not two [option]. */
  markersOneSeat?: boolean;
  /** New Society (§12.7.5, R22): a used Debtor's Prison still scores its VP [option]. */
  usedPrisonScores?: boolean;
  /** New Society (§12.7.8, R29): the Textile Factory does not count the New Society [option]. */
  textileWithoutNewSociety?: boolean;
  /** Any other option of the table, by its name or camelCase key. */
  [option: string]: OptionValue | undefined;
}
/** The options as the game holds them: every option of the table by its camelCase key (the enums as numbers). */
export interface ResolvedOptions {
  players: number; edition: number; seed: Seed; pubCap: number; tieBreak: number;
  startMarkers: number[] | null; publicRubles: boolean; publicHands: boolean; chanceMode: number;
  newSociety: boolean; markersOneSeat: boolean; usedPrisonScores: boolean; textileWithoutNewSociety: boolean;
  [option: string]: OptionValue;
}
/** Final scoring of a seat (§8, R13); VP unless said. */
export interface Score {
  vpBefore: number; aristocratKinds: number; aristocratBonus: number;
  /** Rubles held. */
  rubles: number;
  rublesBonus: number; handCards: number; handPenalty: number;
  /** vpBefore + aristocratBonus + rublesBonus + handPenalty. */
  total: number;
  /** The tie-break value (§8, R14). */
  tieBreak: number;
}
/** An event of apply/undo/reset (include/stpete/stpete.h, "Events"); unused fields are -1. */
export interface StpeteEvent {
  kind: number; seat: number; card: number; displaced: number; source: number; stack: number;
  /** Rubles paid. */
  price: number;
  rubles: number; vp: number; amount: number; phase: number; round: number;
  /** The library's log line, e.g. "seat 1 buys Wharf from the upper row, displacing Ship Builder, for 5 R". */
  text: string;
}

/* `using` (explicit resource management): Game, State and Bot have a [Symbol.dispose]() method that calls free().
 * The declarations name it through the global `Disposable` interface, never through `Symbol.dispose`, so that they
 * compile with TypeScript's defaults (target ES5, whose lib has no Symbol value) and with any lib: where the lib
 * declares Disposable (esnext.disposable, lib esnext or es2025 and later), each class is Disposable and `using`
 * works; elsewhere this empty declaration adds nothing. */
declare global {
  interface Disposable {}
}
/** Disposable where the lib declares it: [Symbol.dispose]() calls free(). */
export interface Game extends Disposable {}
/** Disposable where the lib declares it: [Symbol.dispose]() calls free(). */
export interface State extends Disposable {}
/** Disposable where the lib declares it: [Symbol.dispose]() calls free(). */
export interface Bot extends Disposable {}

/** The immutable configuration of a game. */
export declare class Game {
  /** @throws InvalidArgumentError for options out of range (the library's message says which). */
  constructor(options?: GameOptions);
  /** The game described by the "options" of a saved state or replay record. @throws ParseError,
   * UnsupportedVersionError, InconsistentError, TooLargeError */
  static fromJson(text: string): Game;
  readonly options: ResolvedOptions;
  /** The options as the JSON format writes them (doc/format.md "options"): every option of the table by its name,
   * the enums as words, the seed a decimal string, random seats null. new Game(game.optionsJson) is the same game. */
  readonly optionsJson: { [name: string]: boolean | number | string | number[] | null };
  readonly players: number;
  /** 1 (first edition) or 2 (the second-edition preset, §11): the card names and figures of cardInfo and
   * actionString. */
  readonly edition: number;
  /** Upper bound on the number of actions of a game (OpenSpiel MaxGameLength; stpete_game_max_length). */
  readonly maxGameLength: number;
  /** Whether states of this game and `other` are states of the same game: every option agrees but the seed (§3,
   * §7.2, §8, §9, §11, §12; stpete_game_check_compatible). */
  isCompatible(other: Game): boolean;
  /** Length of State.observationTensor(). */
  readonly observationTensorSize: number;
  /** Whether the game plays the New Society (§12; stpete_game_is_new_society). */
  readonly newSociety: boolean;
  /** Card types of the game: 49, or 62 with the New Society (§12.2.3; stpete_game_num_card_types). */
  readonly numCardTypes: number;
  /** Distinct action ids of the game: 972, or 2188 with the New Society (stpete_game_num_distinct_actions). */
  readonly numDistinctActions: number;
  /** A card type as this game plays it: its edition's name and figures (§2, §11), with the New Society its rows
   * (§12.2) and the 13 new cards (stpete_game_get_card_info). @throws InvalidArgumentError for a card outside
   * [0, numCardTypes). */
  cardInfo(card: number): CardInfo;
  /** What a card type does in this game, in words, with its rule: its targets (§6.2) and special ability (§7, §11,
   * §12.7) as the game's edition and options play them; "" for a card that only scores its income
   * (stpete_game_card_text). @throws InvalidArgumentError for a card outside [0, numCardTypes) */
  cardText(card: number): string;
  /** Canonical string of an action id with this edition's card names. @throws InvalidArgumentError */
  actionString(id: number): string;
  /** A new state at the setup of §3, from `seed` (default: the options' seed). The caller frees it. */
  newState(seed?: Seed): State;
  /** A game line (no newline) of a results file (doc/format.md, "Results files"): game `number` of the run
   * `definition`, played from `seed` with `actions` (its replay record, each action checked), and the program's
   * `fields` (stpete_results_game_to_json()).
   * @throws IllegalActionError, ParseError (a definition or fields that are not JSON objects), InvalidArgumentError */
  resultsLine(definition: object | string, number: number, seed: Seed, actions: ArrayLike<number>,
    fields: object | string): string;
  readonly freed: boolean;
  free(): void;
}

/** A position: mutable; free() it when done. */
export declare class State {
  private constructor();
  /** Load a full state written by toJson (every field checked against the rules, doc/format.md). Without
   * `game`, a new game is made from the text's options and freed with the state.
   * @throws ParseError, RedactedError (a view), MismatchError (other options than `game`), InconsistentError,
   *   UnsupportedVersionError, TooLargeError */
  static fromJson(text: string, game?: Game): State;
  /** Replay a record (each action checked) and return the position at its end, with its own game.
   * @throws ParseError, InconsistentError, TooLargeError */
  static fromReplay(text: string): State;
  readonly game: Game;
  /** The seed the game started from (null for a loaded state). */
  readonly seed: Seed | null;
  readonly players: number;
  /** The seat to act, PLAYER_CHANCE or PLAYER_TERMINAL. */
  readonly currentPlayer: number;
  readonly isTerminal: boolean;
  readonly isChanceNode: boolean;
  readonly decision: number;
  readonly phase: number;
  /** Round, from 1. */
  readonly round: number;
  /** A stack ran out: this is the last round (§4.6). */
  readonly isFinalRound: boolean;
  readonly consecutivePasses: number;
  /** The card drawn by an Observatory awaiting its decision (§7.1), or CARD_NONE (-1). */
  readonly observatoryCard: number;
  /** The card picked with the Debtor's Prison awaiting its owner's decision (§12.7.5, R21), or CARD_NONE. */
  readonly prisonCard: number;
  /** Whether the seat's Debtor's Prison is used this round (§12.7.5, R21, R22; false without the New Society).
   * @throws InvalidArgumentError for a bad seat. */
  isPrisonUsed(seat: number): boolean;
  /** The seat holding the gold disc (5 players: the seat without a marker, §12.3, R18, R19), or -1. */
  readonly goldDiscHolder: number;
  readonly pendingEvents: number;
  readonly freed: boolean;
  free(): void;

  /** Legal action ids, ascending (§4.2, §7.1, §7.2; empty at the end). */
  legalActionIds(): number[];
  /** Legal actions with strings and prices. */
  /** The legal actions (at a chance node the outcomes) with strings and prices. */
  legalActions(): Action[];
  /** An action id or chance outcome id with its fields, string and price now. @throws InvalidArgumentError for an
   * id that is neither */
  describeAction(id: number): Action;
  /** At a chance node (explicit chance mode): the outcomes of the pending random event with their exact
   * probabilities (copies left / cards left for a card, §4.5, §7.1; uniform over the deals §3.3 allows), ids
   * ascending; empty elsewhere. */
  chanceOutcomes(): (Action & { probability: number })[];
  isLegal(action: number | string | { id: number }): boolean;
  /** Rubles the acting seat would pay (§5), or null for a free action. @throws IllegalActionError */
  actionPrice(action: number | string | { id: number }): number | null;
  /** Apply a legal action (a string is parsed by the library, stpete_state_apply_string). @throws
   * IllegalActionError (why, with the rule), GameOverError, ParseError */
  apply(action: number | string | { id: number }): this;
  /** A uniform random legal action without a list: the listed action at index `random % n` (§4.2; the random
   * bot's draw). `random` is 64 bits. @throws GameOverError */
  randomAction(random: Seed): number;
  /** A playout step: pick a legal action with `random` (Pick) and apply it (§4.2-§8); returns the id applied.
   * @throws GameOverError, InvalidArgumentError (an unknown pick) */
  applyRandom(random: Seed, pick?: number): number;
  /** The legal actions as a mask of game.numDistinctActions bytes, 1 where legal (all 0 at a chance node). */
  legalActionMask(): Uint8Array;
  /** Copy `other`'s position into this state without allocating; its history begins again there.
   * @throws MismatchError for a state of another game */
  copyFrom(other: State): this;
  /** Take back the last action. @throws InvalidArgumentError when there is none */
  undo(): this;
  /** Action ids applied since the start (or since the state was loaded). */
  history(): number[];
  clone(): State;
  /** Same position (same cards everywhere, same PRNG). */
  equals(other: State): boolean;
  /** Restart from the setup of §3 with a new seed. */
  reset(seed: Seed): this;

  /** Card types of a row (Source.UPPER or Source.LOWER), in board order. */
  row(row: number): number[];
  /** Cards left in each stack (Stack order). */
  stackSizes(): number[];
  display(seat: number): number[];
  /** Hand card types (a secret of §9: front ends show only the viewer's). */
  hand(seat: number): number[];
  handLimit(seat: number): number;
  rubles(seat: number): number;
  vp(seat: number): number;
  observatoriesUsed(seat: number): number;
  /** Copies of a card type in a seat's display (§1). */
  displayCount(seat: number, card: number): number;
  /** Copies of a card type in the discard pile (public, §9). */
  discardCount(card: number): number;
  /** `seat`'s rubles as `viewer` (a seat, or VIEW_PUBLIC / null: a spectator) may see them now (§9), or null
   * when hidden from the viewer (stpete_state_visible_rubles). */
  visibleRubles(viewer: number | null, seat: number): number | null;
  /** What the trading card `card` could displace in `seat`'s display and for how much (§5.2, §6.2, R8, R9),
   * ascending card type; [] when nothing. @throws InvalidArgumentError for a card that is no trading card */
  displacements(seat: number, card: number, source?: number): Displacement[];
  /** markerHolders()[phase] = seat with that phase's start-player marker (§3.3). */
  markerHolders(): number[];
  /** Every card `seat` could buy or play now, in every way, with its price: the rows, the drawn or picked card of
   * the seat deciding it, the seat's hand (§5, §5.2, §6.2, §7.1, §12.7.5), whether or not it is to act. */
  offers(seat: number): Offer[];
  /** What `seat`'s display earns at `phase`'s scoring if scored now (§4.4, §7.1, §7.5, §11, §12.7; rubles may be
   * negative with Sycophants, §12.7.9). @throws InvalidArgumentError for the trading phase (no scoring) */
  income(seat: number, phase: number): { rubles: number; vp: number };
  /** The phase whose scoring comes next (§4.4), or -1 when none is left. */
  readonly nextScoring: number;
  /** The cards the last action that put cards on the discard pile put there, less those the Debtor's Prison
   * picked since (§4.5, §6, §7.1, §12.7.5, §12.7.9), ascending; from the replay of the history. */
  lastDiscards(): number[];
  /** The table document of `seat` (VIEW_PUBLIC or null: spectators) as JSON text: everything a table UI draws
   * (doc/format.md "Table document"). `since`: log entries already known (0: all); `cards`: with the card table;
   * `person`: without each purse a person may not be handed (`known_rubles`) and the key. */
  tableToJson(seat?: number | null, options?: { since?: number; cards?: boolean; person?: boolean }): string;
  /** Price in rubles `seat` would pay for `card` from `source`, displacing `displaced` (trading cards) (§5,
   * R5-R7; at least 1 R). @throws InvalidArgumentError for a displaced type that is no target (§6.2) */
  price(seat: number, card: number, source?: number, displaced?: number): number;
  /** Final scoring (§8, R13): applied at the end, projected before. */
  score(seat: number): Score;
  scores(): Score[];
  /** Winning seats (§8, R14; several on a shared win). @throws NotTerminalError */
  winners(): number[];
  /** 1/k for each of the k winners at the end, 0 otherwise (OpenSpiel Returns). */
  returns(): number[];

  /** Queue the events of later apply, undo and reset calls. */
  enableEventQueue(enabled?: boolean): this;
  /** The oldest queued event, or null. */
  nextEvent(): StpeteEvent | null;
  /** Every queued event, oldest first (empties the queue). */
  events(): StpeteEvent[];

  /** The full state as JSON (doc/format.md). @throws ReentrantError inside the state's own event callback, where
   * it is between two steps of a move (stpete_state_to_json): save it after the call that applies the move. */
  toJson(): string;
  /** What `seat` may know (§9), or the public view (VIEW_PUBLIC or null); secrets are null. */
  viewToJson(seat?: number | null): string;
  /** A replay record (doc/format.md) of this game from its seed. @throws InvalidArgumentError for a loaded
   * state (its seed is unknown) */
  replayToJson(): string;
  /** Read and check one line of a results file of `program` for `definition` (stpete_results_read_line()): the
   * header gives `{number: -1}`; a game line its number, seed and fields, its record replayed into this state
   * (which then holds the game's end, the record's actions its history). On failure the state is unchanged.
   * @throws ParseError, UnsupportedVersionError, MismatchError, InconsistentError, TooLargeError */
  readResultsLine(program: string, definition: object | string, line: string):
    { number: -1 } | { number: number; seed: Seed; fields: Record<string, unknown> };

  /** Redraw what `seat` cannot know (stack orders, unseen hand cards; with rubles: true also others' secret
   * rubles) consistently with what it knows (§9). */
  determinize(seat: number, seed: Seed, options?: { rubles?: boolean }): this;
  /** determinize(seat, seed) under OpenSpiel's name (ResampleFromInfostate). */
  resample(seat: number, seed: Seed): this;
  /** What `seat` may know, as floats (doc/observation.md); a new array of game.observationTensorSize. */
  observationTensor(seat: number): Float32Array;
  observationString(seat: number): string;
  informationStateString(seat: number): string;
  /** 64-bit information-state key of `seat` (perfect recall), the same on every platform. */
  informationStateKey(seat: number): bigint;
}

/** One of the library's bots (include/stpete/bots.h): "random", "greedy", "mc[:key=value...]",
 * "ismcts[:key=value...]", "learned[:key=value...]" (ismcts with a learned evaluation, doc/learning.md). Plays by
 * the legal actions; reads only what the acting seat may know (§9). */
export declare class Bot {
  /** @throws ParseError (unknown kind or key, a spec over 255 bytes), InvalidArgumentError (a value or the seed
   * out of range, checked before the bot is made; a spec with U+0000), FreedError */
  constructor(game: Game, spec?: string, seed?: Seed);
  readonly game: Game;
  /** The canonical spec with every key. */
  readonly spec: string;
  setSeed(seed: Seed): this;
  /** A legal action id for the seat to act. @throws GameOverError, MismatchError, InvalidArgumentError (a chance
   * node) */
  choose(state: State): number;
  /** Estimated returns per seat (sum 1). */
  evaluate(state: State): number[];
  /** What the last choose() did. */
  stats(): BotStats;
  /** Play `state` on with bots[s] choosing for seat s until the end, a chance node or `maxActions` actions (0: no
   * limit; stpete_bot_play, §4.1-§4.6). Returns the actions applied. @throws the first failure (the state keeps
   * the actions applied before it) */
  static play(state: State, bots: Bot[], maxActions?: number): number;
  readonly freed: boolean;
  free(): void;
}

/** A card type as an edition prints it (§2; §11 for Edition.SECOND: its costs and names), by default the first
 * edition; Game.cardInfo gives the game's edition's. @throws InvalidArgumentError for a card outside
 * [0, NUM_CARD_TYPES) or an edition other than 1 and 2 */
export declare function cardInfo(card: number, edition?: number): CardInfo;
/** The card type of a name of either edition (§2, §11), case-insensitive. @throws ParseError */
export declare function cardFromName(name: string): number;
/** The structured form of an action id. @throws InvalidArgumentError */
export declare function decodeAction(id: number): ActionFields;
/** The id of a canonical action string. @throws ParseError */
export declare function parseAction(text: string): number;
export declare function phaseName(phase: number): string | null;
export declare function stackName(stack: number): string | null;
export declare function decisionName(decision: number): string | null;
export declare function sourceName(source: number): string | null;
export declare function eventKindName(kind: number): string | null;
/** The word of an action kind (ActionKind): "pass", "buy", ..., "trading-house"; null out of range. */
export declare function actionKindName(kind: number): string | null;
/** "green", "blue" or "orange" (§1); null out of range. */
export declare function colourName(colour: number): string | null;
/** The words of the options' enums (the JSON format's): "per-pub", "per-player" (§7.2); "rubles-mod-10",
 * "rubles-total" (§8); "sampled", "explicit" (§3.1); null out of range. */
export declare function pubCapName(pubCap: number): string | null;
export declare function tieBreakName(tieBreak: number): string | null;
export declare function chanceModeName(chanceMode: number): string | null;
/** The value of an option's word (exact). @throws ParseError for another word */
export declare function pubCapFromName(word: string): number;
export declare function tieBreakFromName(word: string): number;
export declare function chanceModeFromName(word: string): number;
/** The id of a structured action (the inverse of decodeAction). @throws InvalidArgumentError for a combination no
 * id represents (e.g. a trading card without a valid target, §6.2) */
export declare function encodeAction(action: Partial<ActionFields> & { kind: number }): number;
/** The base game's number of distinct action ids (972). */
export declare function numDistinctActions(): number;
/** The library's version as MAJOR * 10000 + MINOR * 100 + PATCH. */
export declare function versionNumber(): number;
/** The library's table of options in its order (the JSON format's): every option a Game takes, with its type,
 * default, range or words, labels, description and rule. The same array on every call. */
export declare function options(): readonly OptionInfo[];
/** Why the library refuses a combination of options (the setup rule: 5 players only with the New Society, R17;
 * the New Society only with the first edition; ...), or null when it is a game. Keys and values as new Game()
 * takes them; the reason names options by their names ("new_society"). */
export declare function checkOptions(options: GameOptions): string | null;
/** The library's version, e.g. "1.0.0". */
export declare function version(): string;
/** C objects (games, states, bots) not freed yet: for leak checks. */
export declare function liveObjects(): number;
/** Bytes of the wasm memory (the C heap): it grows when the heap needs more and never shrinks; freed C memory is
 * reused. */
export declare function wasmMemoryBytes(): number;
