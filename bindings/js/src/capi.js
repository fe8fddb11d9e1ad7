// The C API as the JavaScript package sees it: every C function the package calls, by the package's own name,
// with its C signature, and the wasm32 layout of every C struct it reads or writes (include/stpete/stpete.h,
// include/stpete/bots.h; the 1.0 API, the 1.1 additions of the New Society, §12, and 1.2's table of options). This file is the one place C names and signatures appear: the build exports
// exactly these functions from the wasm module, and checks each signature and each layout offset against the
// header with a static assertion (tools/exports.mjs writes them, layout-check.c includes them): a C signature or
// struct that changes fails the wasm build, never a game.

/** Package name -> [C symbol, C function type]. The type is written as the header declares it (const included). */
export const SIGNATURES = Object.freeze({
  version: ['stpete_version', 'const char *(void)'],
  strerror: ['stpete_strerror', 'const char *(int)'],
  cardGetInfo: ['stpete_card_get_info', 'int (int, int, stpete_card_info *)'],
  cardFromName: ['stpete_card_from_name', 'int (const char *, int *)'],
  phaseName: ['stpete_phase_name', 'const char *(int)'],
  stackName: ['stpete_stack_name', 'const char *(int)'],
  decisionName: ['stpete_decision_name', 'const char *(int)'],
  sourceName: ['stpete_source_name', 'const char *(int)'],
  actionDecode: ['stpete_action_decode', 'int (int, stpete_action *)'],
  actionToString: ['stpete_action_to_string', 'int (int, int, char *, size_t)'],
  actionFromString: ['stpete_action_from_string', 'int (const char *, int *)'],
  optionsCheck: ['stpete_options_check', 'int (const stpete_options *, stpete_error *)'],
  // the table of options (1.2, issue 42): every option reached by name, never by a member
  optionCount: ['stpete_option_count', 'int (void)'],
  optionGetInfo: ['stpete_option_get_info', 'int (int, stpete_option_info *)'],
  optionsNew: ['stpete_options_new', 'int (stpete_options **, stpete_error *)'],
  optionsFree: ['stpete_options_free', 'void (stpete_options *)'],
  optionsSet: ['stpete_options_set', 'int (stpete_options *, const char *, const char *, stpete_error *)'],
  optionsValue: ['stpete_options_value', 'int (const stpete_options *, const char *, char *, size_t, size_t *)'],
  gameNew: ['stpete_game_new', 'int (const stpete_options *, stpete_game **, stpete_error *)'],
  gameFree: ['stpete_game_free', 'void (stpete_game *)'],
  gameGetOptions: ['stpete_game_get_options', 'int (const stpete_game *, stpete_options *)'],
  gameNumPlayers: ['stpete_game_num_players', 'int (const stpete_game *)'],
  gameEdition: ['stpete_game_edition', 'int (const stpete_game *)'],
  gameIsNewSociety: ['stpete_game_is_new_society', 'int (const stpete_game *, int *)'],
  gameNumCardTypes: ['stpete_game_num_card_types', 'int (const stpete_game *)'],
  gameNumDistinctActions: ['stpete_game_num_distinct_actions', 'int (const stpete_game *)'],
  gameGetCardInfo: ['stpete_game_get_card_info', 'int (const stpete_game *, int, stpete_card_info *)'],
  gameMaxLength: ['stpete_game_max_length', 'int (const stpete_game *)'],
  gameObservationTensorSize: ['stpete_game_observation_tensor_size', 'int (const stpete_game *)'],
  numDistinctActions: ['stpete_num_distinct_actions', 'int (void)'],
  stateNew: ['stpete_state_new', 'int (const stpete_game *, stpete_state **, stpete_error *)'],
  stateReset: ['stpete_state_reset', 'int (stpete_state *, uint64_t)'],
  stateFree: ['stpete_state_free', 'void (stpete_state *)'],
  stateClone: ['stpete_state_clone', 'int (const stpete_state *, stpete_state **, stpete_error *)'],
  stateEqual: ['stpete_state_equal', 'int (const stpete_state *, const stpete_state *, int *)'],
  stateLastError: ['stpete_state_last_error', 'const char *(const stpete_state *)'],
  stateCurrentPlayer: ['stpete_state_current_player', 'int (const stpete_state *)'],
  stateIsTerminal: ['stpete_state_is_terminal', 'int (const stpete_state *, int *)'],
  stateDecision: ['stpete_state_decision', 'int (const stpete_state *)'],
  stateLegalActions: ['stpete_state_legal_actions', 'int (const stpete_state *, int *, size_t, size_t *)'],
  stateIsLegal: ['stpete_state_is_legal', 'int (const stpete_state *, int, int *)'],
  stateActionPrice: ['stpete_state_action_price', 'int (const stpete_state *, int, int *)'],
  stateApply: ['stpete_state_apply', 'int (stpete_state *, int)'],
  stateUndo: ['stpete_state_undo', 'int (stpete_state *)'],
  stateHistory: ['stpete_state_history', 'int (const stpete_state *, int *, size_t, size_t *)'],
  statePhase: ['stpete_state_phase', 'int (const stpete_state *)'],
  stateRound: ['stpete_state_round', 'int (const stpete_state *)'],
  stateIsFinalRound: ['stpete_state_is_final_round', 'int (const stpete_state *, int *)'],
  stateConsecutivePasses: ['stpete_state_consecutive_passes', 'int (const stpete_state *)'],
  stateRow: ['stpete_state_row', 'int (const stpete_state *, int, int *, size_t, size_t *)'],
  stateStackSize: ['stpete_state_stack_size', 'int (const stpete_state *, int)'],
  stateDisplay: ['stpete_state_display', 'int (const stpete_state *, int, int *, size_t, size_t *)'],
  stateHand: ['stpete_state_hand', 'int (const stpete_state *, int, int *, size_t, size_t *)'],
  stateHandLimit: ['stpete_state_hand_limit', 'int (const stpete_state *, int)'],
  stateRubles: ['stpete_state_rubles', 'int (const stpete_state *, int)'],
  stateVp: ['stpete_state_vp', 'int (const stpete_state *, int, int *)'],
  stateObservatoriesUsed: ['stpete_state_observatories_used', 'int (const stpete_state *, int)'],
  stateObservatoryCard: ['stpete_state_observatory_card', 'int (const stpete_state *)'],
  stateMarkerHolder: ['stpete_state_marker_holder', 'int (const stpete_state *, int)'],
  stateIsPrisonUsed: ['stpete_state_is_prison_used', 'int (const stpete_state *, int, int *)'],
  statePrisonCard: ['stpete_state_prison_card', 'int (const stpete_state *)'],
  stateGoldDiscHolder: ['stpete_state_gold_disc_holder', 'int (const stpete_state *)'],
  statePrice: ['stpete_state_price', 'int (const stpete_state *, int, int, int, int, int *)'],
  stateGetScore: ['stpete_state_get_score', 'int (const stpete_state *, int, stpete_score *)'],
  stateWinners: ['stpete_state_winners', 'int (const stpete_state *, unsigned *)'],
  stateReturns: ['stpete_state_returns', 'int (const stpete_state *, double *, size_t)'],
  stateSetEventQueue: ['stpete_state_set_event_queue', 'int (stpete_state *, int)'],
  stateNextEvent: ['stpete_state_next_event', 'int (stpete_state *, stpete_event *)'],
  statePendingEvents: ['stpete_state_pending_events', 'int (const stpete_state *)'],
  eventToString: ['stpete_event_to_string', 'int (const stpete_event *, const stpete_state *, char *, size_t)'],
  eventKindName: ['stpete_event_kind_name', 'const char *(int)'],
  stateToJson: ['stpete_state_to_json', 'int (const stpete_state *, char *, size_t, size_t *)'],
  stateViewToJson: ['stpete_state_view_to_json', 'int (const stpete_state *, int, char *, size_t, size_t *)'],
  gameFromJson: ['stpete_game_from_json',
    'int (const char *, size_t, const stpete_allocator *, stpete_game **, stpete_error *)'],
  stateFromJson: ['stpete_state_from_json',
    'int (const stpete_game *, const char *, size_t, stpete_state **, stpete_error *)'],
  replayToJson: ['stpete_replay_to_json',
    'int (const stpete_game *, uint64_t, const int *, size_t, char *, size_t, size_t *)'],
  replayFromJson: ['stpete_replay_from_json',
    'int (const char *, size_t, const stpete_allocator *, stpete_game **, int *, size_t, size_t *, stpete_error *)'],
  resultsHash: ['stpete_results_hash', 'int (const char *, char *, size_t, size_t *)'],
  resultsHeaderToJson: ['stpete_results_header_to_json', 'int (const char *, const char *, char *, size_t, size_t *)'],
  resultsGameToJson: ['stpete_results_game_to_json', 'int (const stpete_game *, const char *, long long, uint64_t, ' +
    'const int *, size_t, const char *, char *, size_t, size_t *)'],
  resultsReadLine: ['stpete_results_read_line', 'int (const stpete_game *, const char *, const char *, const char *, ' +
    'size_t, stpete_state *, long long *, uint64_t *, char *, size_t, size_t *, stpete_error *)'],
  stateDeterminize: ['stpete_state_determinize', 'int (stpete_state *, int, uint64_t, unsigned)'],
  stateObservationTensor: ['stpete_state_observation_tensor', 'int (const stpete_state *, int, float *, size_t)'],
  stateObservationString: ['stpete_state_observation_string',
    'int (const stpete_state *, int, char *, size_t, size_t *)'],
  stateInformationStateString: ['stpete_state_information_state_string',
    'int (const stpete_state *, int, char *, size_t, size_t *)'],
  stateInformationStateKey: ['stpete_state_information_state_key', 'int (const stpete_state *, int, uint64_t *)'],
  botNew: ['stpete_bot_new', 'int (const stpete_game *, const char *, stpete_bot **, stpete_error *)'],
  botFree: ['stpete_bot_free', 'void (stpete_bot *)'],
  botSetSeed: ['stpete_bot_set_seed', 'int (stpete_bot *, uint64_t)'],
  botChoose: ['stpete_bot_choose', 'int (stpete_bot *, const stpete_state *, int *)'],
  botSpec: ['stpete_bot_spec', 'int (const stpete_bot *, char *, size_t, size_t *)'],
  botLastError: ['stpete_bot_last_error', 'const char *(const stpete_bot *)'],
  botEvaluate: ['stpete_bot_evaluate', 'int (stpete_bot *, const stpete_state *, double *, size_t)'],
  stateChanceOutcomes: ['stpete_state_chance_outcomes',
    'int (const stpete_state *, int *, double *, size_t, size_t *)'],
  actionEncode: ['stpete_action_encode', 'int (const stpete_action *, int *)'],
  colourName: ['stpete_colour_name', 'const char *(int)'],
  versionNumber: ['stpete_version_number', 'int (void)'],
  optionsPubCapName: ['stpete_options_pub_cap_name', 'const char *(int)'],
  optionsPubCapFromName: ['stpete_options_pub_cap_from_name', 'int (const char *, int *)'],
  optionsTieBreakName: ['stpete_options_tie_break_name', 'const char *(int)'],
  optionsTieBreakFromName: ['stpete_options_tie_break_from_name', 'int (const char *, int *)'],
  optionsChanceModeName: ['stpete_options_chance_mode_name', 'const char *(int)'],
  optionsChanceModeFromName: ['stpete_options_chance_mode_from_name', 'int (const char *, int *)'],
  gameCheckCompatible: ['stpete_game_check_compatible', 'int (const stpete_game *, const stpete_game *)'],
  stateCopy: ['stpete_state_copy', 'int (stpete_state *, const stpete_state *)'],
  stateLegalActionMask: ['stpete_state_legal_action_mask', 'int (const stpete_state *, uint8_t *, size_t)'],
  stateRandomAction: ['stpete_state_random_action', 'int (const stpete_state *, uint64_t, int *)'],
  stateApplyRandom: ['stpete_state_apply_random', 'int (stpete_state *, uint64_t, int, int *)'],
  stateApplyString: ['stpete_state_apply_string', 'int (stpete_state *, const char *)'],
  stateDisplayCount: ['stpete_state_display_count', 'int (const stpete_state *, int, int)'],
  stateDiscardCount: ['stpete_state_discard_count', 'int (const stpete_state *, int)'],
  stateVisibleRubles: ['stpete_state_visible_rubles', 'int (const stpete_state *, int, int, int *)'],
  stateDisplacements: ['stpete_state_displacements',
    'int (const stpete_state *, int, int, int, stpete_displacement *, size_t, size_t *)'],
  botPlay: ['stpete_bot_play', 'int (stpete_bot *const *, size_t, stpete_state *, size_t, size_t *)'],
  botGetStats: ['stpete_bot_get_stats', 'int (const stpete_bot *, stpete_bot_stats *)'],
  // 1.2: what a front end asks (issue 41)
  actionKindName: ['stpete_action_kind_name', 'const char *(int)'],
  gameCardText: ['stpete_game_card_text', 'int (const stpete_game *, int, char *, size_t, size_t *)'],
  stateOffers: ['stpete_state_offers', 'int (const stpete_state *, int, stpete_offer *, size_t, size_t *)'],
  stateIncome: ['stpete_state_income', 'int (const stpete_state *, int, int, int *, int *)'],
  stateNextScoring: ['stpete_state_next_scoring', 'int (const stpete_state *)'],
  stateLastDiscards: ['stpete_state_last_discards', 'int (const stpete_state *, int *, size_t, size_t *)'],
  stateTableToJson: ['stpete_state_table_to_json',
    'int (const stpete_state *, int, int, unsigned int, char *, size_t, size_t *)'],
  malloc: ['malloc', 'void *(size_t)'],
  free: ['free', 'void (void *)'],
});

/** The public C functions the package does not call, each with the reason (doc/javascript.md, "The C API in
 * JavaScript"): every STPETE_API function of the headers is in SIGNATURES or here (test js-parity checks it). */
export const NOT_BOUND = Object.freeze({
  stpete_options_init: 'a struct of the caller\'s layout: the package makes its options with '
    + 'stpete_options_new(), a struct of the library\'s own size, and sets each by name (stpete_options_set())',
  stpete_options_init_size: 'as stpete_options_init: the package never lays out stpete_options itself',
  stpete_option_from_name: 'options() holds the whole table, read once: an option by its name is '
    + 'options().find((o) => o.name === name), and new Game and checkOptions take names (stpete_options_set())',
  stpete_state_set_event_callback: 'a C function pointer called during apply: the package reads the same events, '
    + 'in the same order, from the event queue (State.enableEventQueue, nextEvent, events)',
  stpete_state_new_with_callback: 'as stpete_state_set_event_callback: the setup\'s events come into the queue with '
    + 'game.newState() then state.enableEventQueue().reset(seed)',
  stpete_state_apply_tracked: 'it tells a caller whether the state\'s own event callback freed the state; a '
    + 'State of the package has no callback, so apply() cannot free it',
  stpete_state_rubles_visible: 'deprecated in C (1.0) for stpete_state_visible_rubles(), which State.visibleRubles '
    + 'calls (null when hidden)',
  stpete_state_game: 'State.game is the Game object the state was made from (the C game is private to the module)',
});

/** Package name -> C symbol (from SIGNATURES). */
export const FUNCTIONS = Object.freeze(Object.fromEntries(
  Object.entries(SIGNATURES).map(([name, [symbol]]) => [name, symbol])));

/** Every numeric constant of the headers (include/stpete/stpete.h, bots.h), by the package's name: [C macro or enum
 * constant, value]. The build checks each value against the header with a static assertion, like the layouts
 * below; test js-parity checks that every #define of a number in the headers is here (the status codes are in
 * ENUMS.Status). index.js exports each under its name. */
export const CONSTANTS = Object.freeze({
  NUM_CARD_TYPES: ['STPETE_NUM_CARD_TYPES', 49],
  NUM_CARD_TYPES_NEW_SOCIETY: ['STPETE_NUM_CARD_TYPES_NEW_SOCIETY', 62],
  NUM_CARDS_NEW_SOCIETY: ['STPETE_NUM_CARDS_NEW_SOCIETY', 144],
  NUM_CARDS: ['STPETE_NUM_CARDS', 116],
  CARD_NONE: ['STPETE_CARD_NONE', -1],
  NONE: ['STPETE_NONE', -1],
  NUM_PHASES: ['STPETE_NUM_PHASES', 4],
  NUM_STACKS: ['STPETE_NUM_STACKS', 4],
  PLAYER_CHANCE: ['STPETE_PLAYER_CHANCE', -1],
  PLAYER_TERMINAL: ['STPETE_PLAYER_TERMINAL', -4],
  MAX_PLAYERS: ['STPETE_MAX_PLAYERS', 5],
  MIN_PLAYERS: ['STPETE_MIN_PLAYERS', 2],
  BOARD_SIZE: ['STPETE_BOARD_SIZE', 8],
  MAX_HAND: ['STPETE_MAX_HAND', 4],
  RUBLES_MAX: ['STPETE_RUBLES_MAX', 100000],
  VP_MAX: ['STPETE_VP_MAX', 100000],
  NUM_DISTINCT_ACTIONS: ['STPETE_NUM_DISTINCT_ACTIONS', 972],
  NUM_CARD_VARIANTS: ['STPETE_NUM_CARD_VARIANTS', 214],
  MAX_LEGAL_ACTIONS: ['STPETE_MAX_LEGAL_ACTIONS', 160],
  ACTION_ENCODING_VERSION: ['STPETE_ACTION_ENCODING_VERSION', 1],
  NS_ACTION_FIRST: ['STPETE_NS_ACTION_FIRST', 1277],
  NUM_DISTINCT_ACTIONS_NEW_SOCIETY: ['STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY', 2188],
  NUM_CARD_VARIANTS_NEW_SOCIETY: ['STPETE_NUM_CARD_VARIANTS_NEW_SOCIETY', 334],
  MAX_LEGAL_ACTIONS_NEW_SOCIETY: ['STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY', 400],
  ACTION_STRING_MAX: ['STPETE_ACTION_STRING_MAX', 96],
  EVENT_STRING_MAX: ['STPETE_EVENT_STRING_MAX', 192],
  FORMAT_VERSION: ['STPETE_FORMAT_VERSION', 3],
  FORMAT_VERSION_NEW_SOCIETY: ['STPETE_FORMAT_VERSION_NEW_SOCIETY', 4],
  JSON_STATE_MAX: ['STPETE_JSON_STATE_MAX', 1048576],
  JSON_REPLAY_MAX: ['STPETE_JSON_REPLAY_MAX', 4194304],
  RESULTS_HASH_SIZE: ['STPETE_RESULTS_HASH_SIZE', 17],
  RESULTS_GAME_MAX: ['STPETE_RESULTS_GAME_MAX', 9007199254740991],
  VIEW_PUBLIC: ['STPETE_VIEW_PUBLIC', -1],
  DETERMINIZE_RUBLES: ['STPETE_DETERMINIZE_RUBLES', 1],
  CHANCE_CARD_FIRST: ['STPETE_CHANCE_CARD_FIRST', 972],
  CHANCE_MARKERS_FIRST: ['STPETE_CHANCE_MARKERS_FIRST', 1021],
  NUM_CHANCE_OUTCOMES: ['STPETE_NUM_CHANCE_OUTCOMES', 305],
  NS_CHANCE_CARD_FIRST: ['STPETE_NS_CHANCE_CARD_FIRST', 2188],
  NS_CHANCE_MARKERS_FIRST: ['STPETE_NS_CHANCE_MARKERS_FIRST', 2201],
  NS_ID_END: ['STPETE_NS_ID_END', 2826],
  E_FIRST: ['STPETE_E_FIRST', -101],
  E_LAST: ['STPETE_E_LAST', -114],
  BOT_SPEC_MAX: ['STPETE_BOT_SPEC_MAX', 256],
  CARD_TEXT_MAX: ['STPETE_CARD_TEXT_MAX', 384],
  MAX_OFFERS: ['STPETE_MAX_OFFERS', 256],
  TABLE_VERSION: ['STPETE_TABLE_VERSION', 1],
  TABLE_CARDS: ['STPETE_TABLE_CARDS', 1],
  TABLE_PERSON: ['STPETE_TABLE_PERSON', 2],
  BOT_SEED_SALT: ['STPETE_BOT_SEED_SALT', 185029093],
  OPTION_VALUE_MAX: ['STPETE_OPTION_VALUE_MAX', 32],
});

/** Every enum of the headers, by the package's name: [prefix of the C names, {member: value}] (the C name of a
 * member is the prefix and the member, STPETE_OK for Status.OK). Checked like CONSTANTS: a static assertion per
 * member at build time, and test js-parity finds every enum constant of the headers here. */
export const ENUMS = Object.freeze({
  Status: ['STPETE_E_', {
    OK: 0, INVALID_ARGUMENT: -101, ILLEGAL_ACTION: -102, BUFFER_TOO_SMALL: -103, OUT_OF_MEMORY: -104,
    GAME_OVER: -105, NOT_TERMINAL: -106, PARSE: -107, UNSUPPORTED_VERSION: -108, MISMATCH: -109, REENTRANT: -110,
    REDACTED: -111, INCONSISTENT: -112, TOO_LARGE: -113, NO_PRICE: -114
  }],
  Edition: ['STPETE_EDITION_', { FIRST: 1, SECOND: 2 }],
  Colour: ['STPETE_COLOUR_', { GREEN: 0, BLUE: 1, ORANGE: 2 }],
  Card: ['STPETE_CARD_', {
    LUMBERJACK: 0, GOLD_MINER: 1, SHEPHERD: 2, FUR_TRAPPER: 3, SHIP_BUILDER: 4, CZAR_AND_CARPENTER: 5, MARKET: 6,
    CUSTOMS_HOUSE: 7, FIREHOUSE: 8, HOSPITAL: 9, LIBRARY: 10, THEATER: 11, ACADEMY: 12, POTJOMKINS_VILLAGE: 13,
    PUB: 14, WAREHOUSE: 15, OBSERVATORY: 16, AUTHOR: 17, ADMINISTRATOR: 18, WAREHOUSE_MANAGER: 19, SECRETARY: 20,
    CONTROLLER: 21, JUDGE: 22, MISTRESS_OF_CEREMONIES: 23, CARPENTER_WORKSHOP: 24, GOLD_SMELTER: 25,
    WEAVING_MILL: 26, FUR_SHOP: 27, WHARF: 28, MARIINSKIJ_THEATER: 29, BANK: 30, PETERHOF: 31,
    ST_ISAACS_CATHEDRAL: 32, CHURCH_OF_THE_RESURRECTION: 33, HARBOR: 34, CATHERINE_THE_GREAT_PALACE: 35,
    SMOLNY_CATHEDRAL: 36, HERMITAGE: 37, WINTER_PALACE: 38, POPE: 39, WEAPON_MASTER: 40, CHAMBER_MAID: 41,
    BUILDER: 42, SENATOR: 43, PATRIARCH: 44, TAX_MAN: 45, ADMIRAL: 46, MINISTER_OF_FOREIGN_AFFAIRS: 47, CZAR: 48
  }],
  NewSocietyCard: ['STPETE_CARD_', {
    NEW_FARMER: 49, COFFEE_HOUSE: 50, DEBTORS_PRISON: 51, TRADING_HOUSE: 52, SYCOPHANT: 53, OBSHCHINA_COMMUNE: 54,
    NEW_SOCIETY: 55, ST_PETERSBURG_UNIVERSITY: 56, GUILD_HALL: 57, TEXTILE_FACTORY: 58, MERCHANT: 59, LT_KIJE: 60,
    MAYOR: 61
  }],
  Special: ['STPETE_SPECIAL_', {
    NONE: 0, OBSERVATORY: 1, PUB: 2, WAREHOUSE: 3, POTJOMKINS_VILLAGE: 4, MARIINSKIJ_THEATER: 5, TAX_MAN: 6,
    CARPENTER_WORKSHOP: 7, GOLD_SMELTER: 8, CZAR_AND_CARPENTER: 9, MARIINSKY_THEATER_VP: 10, COFFEE_HOUSE: 11,
    DEBTORS_PRISON: 12, TRADING_HOUSE: 13, SYCOPHANT: 14, OBSHCHINA_COMMUNE: 15, NEW_SOCIETY: 16, GUILD_HALL: 17,
    TEXTILE_FACTORY: 18, MAYOR: 19
  }],
  Source: ['STPETE_SOURCE_', { UPPER: 0, LOWER: 1, HAND: 2, OBSERVATORY: 3, DISCARD: 4 }],
  Stack: ['STPETE_STACK_', { WORKER: 0, BUILDING: 1, ARISTOCRAT: 2, TRADING: 3 }],
  Phase: ['STPETE_PHASE_', { WORKER: 0, BUILDING: 1, ARISTOCRAT: 2, TRADING: 3 }],
  Decision: ['STPETE_DECISION_', {
    TURN: 0, OBSERVATORY: 1, PUB: 2, GAME_OVER: 3, CHANCE: 4, PRISON: 5, GUILD_HALL: 6, TRADING_HOUSE: 7
  }],
  ActionKind: ['STPETE_ACTION_', {
    PASS: 0, BUY: 1, PLAY: 2, TAKE: 3, OBSERVATORY: 4, OBSERVATORY_BUY: 5, OBSERVATORY_TAKE: 6,
    OBSERVATORY_DISCARD: 7, PUB: 8, PRISON: 9, PRISON_BUY: 10, PRISON_TAKE: 11, PRISON_PUT_BACK: 12, GUILD_HALL: 13,
    TRADING_HOUSE: 14
  }],
  EventKind: ['STPETE_EVENT_', {
    PHASE_START: 0, DEAL: 1, BUY: 2, PLAY: 3, TAKE: 4, DISPLACE: 5, PASS: 6, OBSERVATORY_DRAW: 7,
    OBSERVATORY_DISCARD: 8, SCORING: 9, PUB: 10, ROUND_END: 11, MARKERS_MOVED: 12, LAST_ROUND: 13, FINAL_SCORING: 14,
    GAME_OVER: 15, UNDO: 16, PRISON: 17, PRISON_PUT_BACK: 18, GUILD_HALL: 19, TRADING_HOUSE: 20,
    SYCOPHANT_DISCARD: 21, GOLD_DISC: 22
  }],
  PubCap: ['STPETE_PUB_CAP_', { PER_PUB: 0, PER_PLAYER: 1 }],
  TieBreak: ['STPETE_TIE_BREAK_', { RUBLES_MOD_10: 0, RUBLES_TOTAL: 1 }],
  ChanceMode: ['STPETE_CHANCE_', { SAMPLED: 0, EXPLICIT: 1 }],
  Pick: ['STPETE_PICK_', { MODULO: 0, SCALED: 1 }],
  OptionType: ['STPETE_OPTION_', { BOOL: 0, INT: 1, ENUM: 2, SEED: 3, SEATS: 4 }],
  OptionCategory: ['STPETE_OPTION_', { RULES: 0, INFORMATION: 1, PLAY: 2 }],
  Games: ['STPETE_GAMES_', { FIRST_EDITION: 1, SECOND_EDITION: 2, NEW_SOCIETY: 4, ALL: 7 }],
});

/** The C name of an enum member (ENUMS). */
export function enumConstant(prefix, member) {
  return prefix === 'STPETE_E_' && member === 'OK' ? 'STPETE_OK' : prefix + member;
}

/** wasm32 struct layouts: byte offsets of the fields the package uses, and each struct's size. The structs that
 * may grow (1.0) begin with `size_t struct_size`, which the package sets to `size` before every call. */
export const LAYOUT = Object.freeze({
  // the options are reached through the table (optionsNew, optionsSet, optionsValue), never by a member: a new
  // option of the library needs no change here
  option_info: { size: 72, struct_size: 0, name: 4, title: 8, description: 12, rule: 16, type: 20, category: 24,
    games: 28, min: 32, max: 40, default_value: 48, default_text: 56, num_words: 60, words: 64, labels: 68 },
  card_info: { size: 44, struct_size: 0, name: 4, colour: 8, trading: 12, cost: 16, rubles: 20, vp: 24, copies: 28,
    ware: 32, special: 36, stack: 40 },
  action: { size: 24, kind: 0, source: 4, card: 8, displaced: 12, stack: 16, amount: 20 },
  score: { size: 40, struct_size: 0, vp_before: 4, aristocrat_kinds: 8, aristocrat_bonus: 12, rubles: 16,
    rubles_bonus: 20, hand_cards: 24, hand_penalty: 28, total: 32, tie_break: 36 },
  event: { size: 56, struct_size: 0, kind: 4, seat: 8, card: 12, displaced: 16, source: 20, stack: 24, price: 28,
    rubles: 32, vp: 36, amount: 40, phase: 44, round: 48, edition: 52 },
  error: { size: 276, struct_size: 0, status: 4, line: 8, column: 12, position: 16, message: 20 },
  displacement: { size: 8, displaced: 0, price: 4 },
  offer: { size: 20, action: 0, source: 4, card: 8, displaced: 12, price: 16 },
  bot_stats: { size: 64, struct_size: 0, iterations: 8, elapsed_ns: 16, nodes: 24, playout_actions: 32, value: 40,
    action: 48, seat: 52, legal_actions: 56 },
});
