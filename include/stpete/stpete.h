/**
 * @file stpete.h
 * @brief libstpete: the complete rules of Saint Petersburg (Hans im Glück 2004, first edition, base game,
 *        2–4 players, and the second-edition preset of §11) behind a stable C API (ABI 1: libstpete.so.1).
 *
 * Rule references (§n, Rn) point to the rules specification shipped with the project as `doc/rules.md` (installed
 * in share/doc/libstpete/), whose section numbers and ruling ids are stable.
 *
 * Conventions (1.0; tests/checks/check-conventions.py checks every public declaration against them):
 * - **Names.** Every function is `stpete_<object>_<what>`: the object is the handle it works on (`game`, `state`,
 *   `bot`), the struct or value it describes (`options`, `card`, `action`, `event`), or the document it reads or
 *   writes (`replay`, `results`); enum names come from `stpete_<enum>_name()` (phase, stack, decision, source,
 *   colour, event kind). Library-wide functions have no object: stpete_version(), stpete_version_number(), stpete_strerror(),
 *   stpete_num_distinct_actions(). The object a function is named after is its first parameter. `get_` names exactly the functions that copy a
 *   struct into the caller's storage (stpete_card_get_info(), stpete_game_get_options(), stpete_state_get_score(),
 *   stpete_bot_get_stats()); other queries are nouns. `_new` / `_clone` / `_from_json` create a handle, `_free`
 *   frees one (`_free(NULL)` is a no-op).
 * - **Statuses.** Every function that can fail returns an `int`: ::STPETE_OK (0) or a `STPETE_E_*` code, all in
 *   [::STPETE_E_LAST, ::STPETE_E_FIRST] = [−114, −101] (STPETE_FAILED() tests for one). A query that returns a
 *   value returns a count, seat or card (≥ 0), a named sentinel in [−99, −1] (::STPETE_PLAYER_CHANCE,
 *   ::STPETE_PLAYER_TERMINAL, ::STPETE_CARD_NONE, ::STPETE_VIEW_PUBLIC; "unused" struct fields are ::STPETE_NONE),
 *   or a status: the three ranges never meet, so a value can never be read as a status or the other way round.
 *   A truth value is never returned (a status would read as true): predicates (`is_*`, `equal`, `*_visible`)
 *   return a status and write 1 or 0 to an `int *` out-parameter. Functions that cannot fail return what they
 *   name (a static string, NULL for an out-of-range value; a version) or nothing (`_free`, stpete_options_init()).
 * - **Parameters.** The object first, then the inputs, then the outputs (out-parameters "receive ..."); a
 *   caller's array or character buffer is followed by its `capacity` (elements; bytes for text) and then by the
 *   `size_t *count` (elements) or `size_t *len` (bytes, without the NUL) it receives, also when the capacity is too
 *   small (::STPETE_E_BUFFER_TOO_SMALL); an input array is followed by its `count` and input text by its `len`.
 *   Calls without a handle to hold an error message (constructors, parsers, stpete_options_check()) take a last
 *   `stpete_error *err` (may be NULL), the one detail channel for them;
 *   calls that change a state or bot leave their detail in stpete_state_last_error() / stpete_bot_last_error().
 *   Queries on a `const` handle write nothing, so that many threads may read one state: their statuses each have
 *   the one meaning their documentation gives.
 * - **Structs that may grow** (::stpete_options, ::stpete_card_info, ::stpete_score, ::stpete_event,
 *   ::stpete_error, ::stpete_bot_stats) begin with `size_t struct_size`: the caller sets it (the `STPETE_*_INIT`
 *   macros and stpete_options_init() do) and the library reads or writes only the members that fit, so a program
 *   built against an older header keeps working with a newer library. Only the sizes of released layouts are
 *   accepted (soname 1 has one layout of each struct, the 1.0 one; a later library accepts the 1.0 size and those of
 *   its own later layouts): any other size (below the 1.0 layout, between two layouts, inside a member, above the
 *   library's) is ::STPETE_E_UNSUPPORTED_VERSION, and nothing is read or written. An event handed to a callback
 *   has the library's struct_size. ::stpete_action, ::stpete_displacement and ::stpete_allocator are frozen (a new
 *   member would be a new struct).
 * - **Ownership.** Handles are opaque. Pointer parameters are borrowed for the duration of the call only (the
 *   library keeps none, except a state keeps its game and its callback's user_data, and a bot its game, as
 *   documented); out-parameters and buffers are caller-owned storage the function writes. Returned strings are
 *   static or owned by the handle, never to be freed.
 * - **Failure.** A failing call never modifies the state it was given (except the per-state error message) and
 *   leaks nothing; bad input gives a status, never a crash.
 * - **Units.** Money is in rubles (R), scores in victory points (VP), durations in nanoseconds; players are seats
 *   0..players-1 in clockwise order.
 * - **Threads.** No global mutable state: distinct handles may be used from distinct threads; a ::stpete_game may
 *   be shared read-only by many threads, states and bots.
 * - **Rules.** Every function's comment cites the rule it implements (§n or Rn); a function that implements none
 *   (freeing, versions, names of codes) carries the marker `@norule` instead, which renders as nothing
 *   (tests/checks/check-doc.py checks both).
 */
#ifndef STPETE_STPETE_H
#define STPETE_STPETE_H

#include <stddef.h>
#include <stdint.h>

#include "stpete/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @cond INTERNAL */
#if defined(STPETE_BUILDING_LIBRARY) && defined(__GNUC__)
#define STPETE_API __attribute__((visibility("default")))
#elif defined(STPETE_BUILDING_LIBRARY) && defined(_WIN32)
#define STPETE_API __declspec(dllexport)
#else
#define STPETE_API
#endif
/** @endcond */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup status Status codes
 * Returned by every fallible function. 0 is success; errors are in [−114, −101], below every value and sentinel
 * (so that no status equals a sentinel such as ::STPETE_PLAYER_CHANCE). */
/** @{ */
#define STPETE_OK 0                     /**< Success. */
#define STPETE_E_INVALID_ARGUMENT (-101) /**< A NULL pointer, an out-of-range seat, card, row, stack or option. */
#define STPETE_E_ILLEGAL_ACTION (-102)   /**< The action id is not legal in this state (the state is unchanged). */
#define STPETE_E_BUFFER_TOO_SMALL (-103) /**< The caller's buffer is too small; the needed size is reported. */
#define STPETE_E_OUT_OF_MEMORY (-104)    /**< An allocation failed; nothing was changed or leaked. */
#define STPETE_E_GAME_OVER (-105)        /**< The game has ended: no action can be applied. */
#define STPETE_E_NOT_TERMINAL (-106)     /**< The query needs a finished game (winners). */
#define STPETE_E_PARSE (-107)            /**< A string could not be parsed (action string, card name). */
#define STPETE_E_UNSUPPORTED_VERSION (-108) /**< An options struct or serialized format newer than this library. */
#define STPETE_E_MISMATCH (-109)         /**< Two states of different games (stpete_game_check_compatible()), or
                                             JSON of a game with other options (stpete_state_from_json()). */
#define STPETE_E_REENTRANT (-110)       /**< An event callback tried to modify the state that called it. */
#define STPETE_E_REDACTED (-111)        /**< A per-seat or public view (§9) was given where a full state is needed. */
#define STPETE_E_INCONSISTENT (-112)    /**< Serialized data breaks the rules: card counts (§2), ranges, a replay
                                             action that is not legal, a recorded result that does not match. */
#define STPETE_E_TOO_LARGE (-113)       /**< An input over its documented size bound (::STPETE_JSON_STATE_MAX,
                                             ::STPETE_JSON_REPLAY_MAX, stpete_game_max_length()), refused before
                                             it is parsed. */
#define STPETE_E_NO_PRICE (-114)        /**< A legal action that costs nothing has no price (pass, take, an
                                             Observatory draw, take or discard): stpete_state_action_price(). */
#define STPETE_E_FIRST (-101)          /**< The first (largest) status code: every code is in
                                            [::STPETE_E_LAST, ::STPETE_E_FIRST]. */
#define STPETE_E_LAST (-114)           /**< The last (smallest) status code of this version; later versions may add
                                            codes below it, never above −100. */
/** Whether an `int` returned by a libstpete function is a status code (an error), not a value or ::STPETE_OK. */
#define STPETE_FAILED(r) ((r) <= -100)
/** @} */

/**
 * Why a call without a handle failed: the one detail channel of constructors, parsers and stpete_options_check()
 * (calls on a handle leave theirs in stpete_state_last_error() or stpete_bot_last_error()). May grow: initialise
 * with ::STPETE_ERROR_INIT.
 */
typedef struct stpete_error {
    size_t struct_size; /**< sizeof(stpete_error) of the caller's header (set by ::STPETE_ERROR_INIT) */
    int status;         /**< the status the call returned (::STPETE_OK after success) */
    int line;           /**< JSON input: 1-based line of a syntax error; -1 when not a syntax error */
    int column;         /**< JSON input: 1-based column (in characters) of a syntax error; -1 otherwise */
    int position;       /**< JSON input: byte offset of a syntax error; -1 otherwise */
    char message[256];  /**< what was wrong, NUL-terminated, "" after success; e.g. "players must be 2, 3 or 4,
                             not 9 (§3)", "players[1].rubles: must be an integer in [0, 100000], not 100001" */
} stpete_error;

/** Static initialiser of ::stpete_error. */
#define STPETE_ERROR_INIT { sizeof(stpete_error), 0, -1, -1, -1, { 0 } }

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup cards Cards (§2)
 * The 49 card types, in the order of the tables of §2. A card type is an `int` in [0, ::STPETE_NUM_CARD_TYPES).
 * The 116 physical cards are the copies of these types (§2: 31 + 28 + 27 + 30). */
/** @{ */

/** Card types (§2.1–§2.4). */
enum stpete_card {
    /* §2.1 workers (green) */
    STPETE_CARD_LUMBERJACK = 0,
    STPETE_CARD_GOLD_MINER,
    STPETE_CARD_SHEPHERD,
    STPETE_CARD_FUR_TRAPPER,
    STPETE_CARD_SHIP_BUILDER,
    STPETE_CARD_CZAR_AND_CARPENTER,
    /* §2.2 buildings (blue) */
    STPETE_CARD_MARKET,
    STPETE_CARD_CUSTOMS_HOUSE,
    STPETE_CARD_FIREHOUSE,
    STPETE_CARD_HOSPITAL,
    STPETE_CARD_LIBRARY,
    STPETE_CARD_THEATER,
    STPETE_CARD_ACADEMY,
    STPETE_CARD_POTJOMKINS_VILLAGE,
    STPETE_CARD_PUB,
    STPETE_CARD_WAREHOUSE,
    STPETE_CARD_OBSERVATORY,
    /* §2.3 aristocrats (orange) */
    STPETE_CARD_AUTHOR,
    STPETE_CARD_ADMINISTRATOR,
    STPETE_CARD_WAREHOUSE_MANAGER,
    STPETE_CARD_SECRETARY,
    STPETE_CARD_CONTROLLER,
    STPETE_CARD_JUDGE,
    STPETE_CARD_MISTRESS_OF_CEREMONIES,
    /* §2.4 trading cards, green */
    STPETE_CARD_CARPENTER_WORKSHOP,
    STPETE_CARD_GOLD_SMELTER,
    STPETE_CARD_WEAVING_MILL,
    STPETE_CARD_FUR_SHOP,
    STPETE_CARD_WHARF,
    /* §2.4 trading cards, blue */
    STPETE_CARD_MARIINSKIJ_THEATER,
    STPETE_CARD_BANK,
    STPETE_CARD_PETERHOF,
    STPETE_CARD_ST_ISAACS_CATHEDRAL,
    STPETE_CARD_CHURCH_OF_THE_RESURRECTION,
    STPETE_CARD_HARBOR,
    STPETE_CARD_CATHERINE_THE_GREAT_PALACE,
    STPETE_CARD_SMOLNY_CATHEDRAL,
    STPETE_CARD_HERMITAGE,
    STPETE_CARD_WINTER_PALACE,
    /* §2.4 trading cards, orange */
    STPETE_CARD_POPE,
    STPETE_CARD_WEAPON_MASTER,
    STPETE_CARD_CHAMBER_MAID,
    STPETE_CARD_BUILDER,
    STPETE_CARD_SENATOR,
    STPETE_CARD_PATRIARCH,
    STPETE_CARD_TAX_MAN,
    STPETE_CARD_ADMIRAL,
    STPETE_CARD_MINISTER_OF_FOREIGN_AFFAIRS,
    STPETE_CARD_CZAR,
    STPETE_NUM_CARD_TYPES /**< 49 */
};

/**
 * The 13 card types of the New Society expansion (§12.2.3), numbered after the 49 of the base game so that every
 * base card type keeps its number (the base game's ::STPETE_NUM_CARD_TYPES and the chance outcome ids built on it
 * are frozen). A game with stpete_options::new_society deals these too: its card types are
 * [0, ::STPETE_NUM_CARD_TYPES_NEW_SOCIETY) (stpete_game_num_card_types()).
 */
enum stpete_card_new_society {
    /* worker (green) */
    STPETE_CARD_NEW_FARMER = 49,    /**< §12.2.3, 6 copies, ware wheat */
    /* buildings (blue) */
    STPETE_CARD_COFFEE_HOUSE,       /**< §12.7.4: +1 R per orange card at building scoring */
    STPETE_CARD_DEBTORS_PRISON,     /**< §12.7.5: the discard-pile action of the building phase */
    STPETE_CARD_TRADING_HOUSE,      /**< §12.7.6: 3 R for 2 VP once per building scoring */
    /* aristocrat (orange) */
    STPETE_CARD_SYCOPHANT,          /**< §12.7.9: −1 R at aristocrat scoring, discarded when unpaid */
    /* trading cards, green */
    STPETE_CARD_OBSHCHINA_COMMUNE,  /**< §12.5, §12.6: −1 R on green cards; displaces a New Farmer or the Czar and
                                         Carpenter */
    STPETE_CARD_NEW_SOCIETY,        /**< §12.6: displaces any worker */
    /* trading cards, blue */
    STPETE_CARD_ST_PETERSBURG_UNIVERSITY, /**< §12.2.3 */
    STPETE_CARD_GUILD_HALL,         /**< §12.7.7: 4 split into R and VP at each building scoring */
    STPETE_CARD_TEXTILE_FACTORY,    /**< §12.7.8: +2 VP per green card with the weaving symbol */
    /* trading cards, orange */
    STPETE_CARD_MERCHANT,           /**< §12.2.3 */
    STPETE_CARD_LT_KIJE,            /**< §12.2.3 */
    STPETE_CARD_MAYOR,              /**< §12.7.4: +1 R per blue card at aristocrat scoring */
    STPETE_NUM_CARD_TYPES_NEW_SOCIETY /**< 62: the card types of a game with the New Society */
};

/** Total number of game cards with the New Society (§12.2.4): 144. */
#define STPETE_NUM_CARDS_NEW_SOCIETY 144

/** Total number of game cards (§2): 116. */
#define STPETE_NUM_CARDS 116

/** Colours (§1). Also the index of the phase that scores the colour. */
enum stpete_colour {
    STPETE_COLOUR_GREEN = 0,  /**< workers and green trading cards */
    STPETE_COLOUR_BLUE = 1,   /**< buildings and blue trading cards */
    STPETE_COLOUR_ORANGE = 2  /**< aristocrats and orange trading cards */
};

/** Special abilities of a card type (§7), as found in stpete_card_info::special. */
enum stpete_special {
    STPETE_SPECIAL_NONE = 0,
    STPETE_SPECIAL_OBSERVATORY,        /**< §7.1 draw action in the building phase */
    STPETE_SPECIAL_PUB,                /**< §7.2 buy VP after building scoring */
    STPETE_SPECIAL_WAREHOUSE,          /**< §7.3 hand limit 4 */
    STPETE_SPECIAL_POTJOMKINS_VILLAGE, /**< §7.4 worth 6 R when displaced */
    STPETE_SPECIAL_MARIINSKIJ_THEATER, /**< §7.5 +1 R per orange card at building scoring */
    STPETE_SPECIAL_TAX_MAN,            /**< §7.5 +1 R per green card at aristocrat scoring */
    STPETE_SPECIAL_CARPENTER_WORKSHOP, /**< §5.1 −1 R on blue cards */
    STPETE_SPECIAL_GOLD_SMELTER,       /**< §5.1 −1 R on orange cards */
    STPETE_SPECIAL_CZAR_AND_CARPENTER, /**< §6.2 any green trading card may displace it */
    STPETE_SPECIAL_MARIINSKY_THEATER_VP, /**< §11 (second edition) and §12.7.3 (New Society): +1 VP per orange card
                                              at building scoring */
    STPETE_SPECIAL_COFFEE_HOUSE,       /**< §12.7.4 +1 R per orange card at building scoring */
    STPETE_SPECIAL_DEBTORS_PRISON,     /**< §12.7.5 discard-pile action in the building phase */
    STPETE_SPECIAL_TRADING_HOUSE,      /**< §12.7.6 3 R for 2 VP once per building scoring */
    STPETE_SPECIAL_SYCOPHANT,          /**< §12.7.9 −1 R at aristocrat scoring, forced discard */
    STPETE_SPECIAL_OBSHCHINA_COMMUNE,  /**< §12.5 −1 R on green cards */
    STPETE_SPECIAL_NEW_SOCIETY,        /**< §12.6 displaces any worker */
    STPETE_SPECIAL_GUILD_HALL,         /**< §12.7.7 4 split into R and VP at building scoring */
    STPETE_SPECIAL_TEXTILE_FACTORY,    /**< §12.7.8 +2 VP per weaving card at building scoring */
    STPETE_SPECIAL_MAYOR               /**< §12.7.4 +1 R per blue card at aristocrat scoring */
};

/** The two editions (stpete_options::edition; §11). */
enum stpete_edition {
    STPETE_EDITION_FIRST = 1, /**< the first edition (2004), the default */
    STPETE_EDITION_SECOND = 2 /**< the second-edition preset (2014, §11: four card changes, four names, a buy-only
                                   first worker phase) */
};

/** No card (stpete_state_observatory_card() when no draw is pending), and every unused `int` member of
 * ::stpete_action and ::stpete_event. Not a status: statuses are ≤ −101. */
#define STPETE_CARD_NONE (-1)
/** An unused `int` member of ::stpete_action or ::stpete_event (equal to ::STPETE_CARD_NONE). */
#define STPETE_NONE (-1)

/** Static description of a card type (one row of the §2 tables, or of §11's changes in the second edition).
 * May grow: initialise with ::STPETE_CARD_INFO_INIT. */
typedef struct stpete_card_info {
    size_t struct_size; /**< sizeof(stpete_card_info) of the caller's header (set by ::STPETE_CARD_INFO_INIT) */
    const char *name;  /**< printed English name in the edition asked for, static storage */
    int colour;        /**< ::stpete_colour */
    int trading;       /**< 1 for the 30 trading cards of §2.4, else 0 */
    int cost;          /**< printed cost in rubles */
    int rubles;        /**< income in rubles at its colour's scoring */
    int vp;            /**< income in VP at its colour's scoring */
    int copies;        /**< number of copies in the game */
    int ware;          /**< workers and green trading cards: the worker type of their ware (§6.2); -1 for Czar and
                            Carpenter (any ware: every green trading card may displace it) and all other cards */
    int special;       /**< ::stpete_special */
    int stack;         /**< ::stpete_stack the card is dealt from (§3.2) */
} stpete_card_info;

/** Static initialiser of ::stpete_card_info: struct_size set, nothing described yet. */
#define STPETE_CARD_INFO_INIT { sizeof(stpete_card_info), NULL, 0, 0, 0, 0, 0, 0, -1, 0, 0 }

/**
 * Describe a card type as an edition prints it: name, colour, cost, income, copies, ware, special ability and stack
 * (§2; §11 for the second edition: Observatory 7, Judge 17, Mistress of Ceremonies 20, Mariinsky Theater 15 with
 * ::STPETE_SPECIAL_MARIINSKY_THEATER_VP, and the names Abbot, Czarina, Potemkin Village, Mariinsky Theater). The
 * library's one card-description function. A game's edition: stpete_game_edition().
 * @param edition a ::stpete_edition (1 or 2)
 * @param card    card type in [0, ::STPETE_NUM_CARD_TYPES)
 * @param out     receives the description (caller-owned, struct_size set first, e.g. by ::STPETE_CARD_INFO_INIT;
 *                the name is static)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT if @p out is NULL, or @p edition or @p card is out of range;
 *         ::STPETE_E_UNSUPPORTED_VERSION if out->struct_size is 0 or larger than this library's struct.
 */
STPETE_API int stpete_card_get_info(int edition, int card, stpete_card_info *out);

/**
 * Find a card type by its printed name (§2; case-insensitive, exact otherwise), in either edition (§11: e.g.
 * "Potemkin Village" is Potjomkin's Village).
 * @param name NUL-terminated name, e.g. "Potjomkin's Village"
 * @param card receives the card type
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if no card has that name.
 */
STPETE_API int stpete_card_from_name(const char *name, int *card);

/**
 * Name of a colour (§1), for front ends and logs: "green" (workers and green trading cards), "blue" (buildings and
 * blue trading cards), "orange" (aristocrats and orange trading cards).
 * @param colour a ::stpete_colour, e.g. stpete_card_info::colour
 * @return a static string (not to be freed), or NULL if @p colour is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_colour_name(int colour);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup board Board, stacks, phases and their names
 * The rows, stacks, phases and decisions of the game (§1, §4), and their names: the same words as the JSON format
 * (doc/format.md), for front ends and logs. */
/** @{ */

/** Rows of the board and where a card comes from when bought (§4.2, §5.1). */
enum stpete_source {
    STPETE_SOURCE_UPPER = 0,      /**< the upper row of the board */
    STPETE_SOURCE_LOWER = 1,      /**< the lower row (−1 R when bought from here, §5.1 rule 2) */
    STPETE_SOURCE_HAND = 2,       /**< the player's hand (played) */
    STPETE_SOURCE_OBSERVATORY = 3, /**< the card just drawn with an Observatory (§7.1) */
    STPETE_SOURCE_DISCARD = 4      /**< the card just picked from the discard pile with the Debtor's Prison
                                        (§12.7.5; no lower-row discount). */
};

/** The four stacks (§1). Index = the phase whose cards they hold. */
enum stpete_stack {
    STPETE_STACK_WORKER = 0,
    STPETE_STACK_BUILDING = 1,
    STPETE_STACK_ARISTOCRAT = 2,
    STPETE_STACK_TRADING = 3
};

/** The four phases of a round (§4), also the index of each start-player marker. */
enum stpete_phase {
    STPETE_PHASE_WORKER = 0,
    STPETE_PHASE_BUILDING = 1,
    STPETE_PHASE_ARISTOCRAT = 2,
    STPETE_PHASE_TRADING = 3
};

/** What kind of decision the current player faces. */
enum stpete_decision {
    STPETE_DECISION_TURN = 0,        /**< an ordinary turn (§4.2) */
    STPETE_DECISION_OBSERVATORY = 1, /**< resolve an Observatory draw: buy, take or discard (§7.1) */
    STPETE_DECISION_PUB = 2,         /**< how many VP to buy with Pubs (§7.2) */
    STPETE_DECISION_GAME_OVER = 3,   /**< the game is over (JSON: "game-over") */
    STPETE_DECISION_CHANCE = 4,      /**< a chance node (explicit-chance mode only): a random event's outcome is
                                          applied next (stpete_state_chance_outcomes()) */
    STPETE_DECISION_PRISON = 5,      /**< resolve the Debtor's Prison's card: buy, take or put back (§12.7.5, R21;
                                          JSON "prison"). */
    STPETE_DECISION_GUILD_HALL = 6,  /**< split the Guild Hall's 4 into R and VP (§12.7.7, R24; "guild-hall") */
    STPETE_DECISION_TRADING_HOUSE = 7 /**< pay 3 R for 2 VP or not (§12.7.6, R25; "trading-house") */
};

/** Number of phases in a round, and of start-player markers (§4). */
#define STPETE_NUM_PHASES 4
/** Number of stacks (§1). */
#define STPETE_NUM_STACKS 4
/** Current-player sentinel: a chance node (OpenSpiel's `kChancePlayerId`), produced in the explicit-chance mode
 * (::STPETE_CHANCE_EXPLICIT) only. */
#define STPETE_PLAYER_CHANCE (-1)
/** Current-player sentinel: the game is over. */
#define STPETE_PLAYER_TERMINAL (-4)
/** Most players: 5, with the New Society only (§12.0, R17; 2–4 without it). No public struct holds an array of this size, and every call that writes one entry per seat takes a capacity, so a program built
 * against 1.0 gets ::STPETE_E_BUFFER_TOO_SMALL, never an overflow, from a 5-player game. */
#define STPETE_MAX_PLAYERS 5
/** Fewest players. */
#define STPETE_MIN_PLAYERS 2
/** The board holds at most this many cards across both rows (§1), except after the opening of a 5-player New
 * Society game, whose rows hold up to 10 (§12.4.1, R20): a buffer for stpete_state_row() of 10 suffices in every
 * game. */
#define STPETE_BOARD_SIZE 8
/** Largest hand: 3, or 4 with a Warehouse (§7.3). */
#define STPETE_MAX_HAND 4
/** Most rubles a player can hold. Every gain saturates here, so that anything the JSON reader accepts stays
 * loadable after any play (doc/format.md); a real game stays far below (§3.2: 25 R at the start). */
#define STPETE_RUBLES_MAX 100000
/** Most VP, and the fewest (−::STPETE_VP_MAX), a player can have; gains and losses saturate (doc/format.md). */
#define STPETE_VP_MAX 100000

/**
 * Name of a phase (§4), the word of the JSON format: "worker", "building", "aristocrat", "trading".
 * @param phase a ::stpete_phase
 * @return a static string (not to be freed), or NULL if @p phase is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_phase_name(int phase);

/**
 * Name of a stack (§1), the word of the JSON format: "worker", "building", "aristocrat", "trading".
 * @param stack a ::stpete_stack
 * @return a static string (not to be freed), or NULL if @p stack is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_stack_name(int stack);

/**
 * Name of a decision (§4.2, §7.1, §7.2, §12.7.5-§12.7.7), the word of the JSON format: "turn", "observatory", "pub",
 * "game-over", "chance", "prison", "guild-hall", "trading-house".
 * @param decision a ::stpete_decision
 * @return a static string (not to be freed), or NULL if @p decision is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_decision_name(int decision);

/**
 * Name of a source (§4.2, §5.1, §12.7.5): "upper", "lower", "hand", "observatory", "discard" (the first two are
 * the row words of the action strings, e.g. "take Market from lower").
 * @param source a ::stpete_source
 * @return a static string (not to be freed), or NULL if @p source is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_source_name(int source);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup actions Actions
 *
 * An action is a dense integer id in [0, ::STPETE_NUM_DISTINCT_ACTIONS), stable within an ABI major version
 * (::STPETE_ACTION_ENCODING_VERSION), and has a structured form ::stpete_action. A board card is identified by its
 * row and card type, not its slot: two Markets in the lower row are the same action.
 *
 * Encoding. A *variant* v in [0, ::STPETE_NUM_CARD_VARIANTS) is a card type plus, for a trading card, the card type
 * it displaces (§6.2); variants are numbered by card type, then displaced type, ascending.
 * Variants 0..23 are the 24 non-trading card types (v = card); 24..33 the green trading cards (2 each: the
 * worker of the same ware, then Czar and Carpenter); 34..143 the blue trading cards (11 each: the 11 buildings);
 * 144..213 the orange trading cards (7 each: the 7 aristocrats).
 * | ids                | action                                                |
 * | ------------------ | ----------------------------------------------------- |
 * | 0                  | pass (§4.2)                                           |
 * | 1 + v              | buy variant v from the upper row                      |
 * | 215 + v            | buy variant v from the lower row                      |
 * | 429 + v            | play variant v from hand                              |
 * | 643 + card         | take card from the upper row into hand                |
 * | 692 + card         | take card from the lower row into hand                |
 * | 741 + stack        | use an Observatory on a stack (§7.1)                  |
 * | 745 + v            | buy the card drawn by the Observatory as variant v    |
 * | 959                | take the drawn card into hand                         |
 * | 960                | discard the drawn card                                |
 * | 961 + k            | Pub: buy k VP, k = 0..10 (§7.2)                       |
 * */
/** @{ */

/** Number of distinct action ids of a game without the New Society (the 1.0 encoding above, frozen). A game with
 * it: ::STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY, stpete_game_num_distinct_actions(). */
#define STPETE_NUM_DISTINCT_ACTIONS 972
/** Number of card variants (card type × displaced type for trading cards). */
#define STPETE_NUM_CARD_VARIANTS 214
/** An upper bound on the number of legal actions in any state (size for caller buffers). */
#define STPETE_MAX_LEGAL_ACTIONS 160
/** Version of the action-id encoding above; bumped only with the ABI major. */
#define STPETE_ACTION_ENCODING_VERSION 1
/**
 * The New Society's actions (§12). Its card types and variants extend the encoding above: every id of
 * the base game keeps its meaning (a game with the expansion uses them for the base cards), and the new ids come after the
 * base game's chance outcomes, from ::STPETE_NS_ACTION_FIRST = 1277 to ::STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY
 * (exclusive), followed by the expansion's chance outcomes. *Extension variants* e = v − 214 in [0, 120) number
 * the (card, displaced) pairs the expansion adds, by card type then displaced type: e 0..4 the new workers,
 * buildings and aristocrat (New Farmer .. Sycophant, e = card − 49); 5..34 the ten base blue trading cards × the
 * three new buildings; 35..44 the ten base orange trading cards × the Sycophant; 45..46 the Obshchina Commune
 * (Czar and Carpenter, New Farmer); 47..53 the New Society (the five base workers, Czar and Carpenter, New Farmer);
 * 54..95 the three new blue trading cards × the 14 buildings (11 base, then Coffee House, Debtor's Prison, Trading
 * House); 96..119 the three new orange trading cards × the 8 aristocrats (7 base, then Sycophant). A variant of
 * the whole game is v in [0, 334): the base variants, then 214 + e.
 * | ids          | action                                                          |
 * | ------------ | --------------------------------------------------------------- |
 * | 1277 + e     | buy extension variant e from the upper row                      |
 * | 1397 + e     | buy extension variant e from the lower row                      |
 * | 1517 + e     | play extension variant e from hand                              |
 * | 1637 + k     | take card 49 + k (k = 0..12) from the upper row into hand       |
 * | 1650 + k     | take card 49 + k from the lower row into hand                   |
 * | 1663 + e     | buy the card the Observatory drew as extension variant e        |
 * | 1783 + card  | Debtor's Prison: pick this card (0..61) from the discard pile   |
 * | 1845 + v     | buy the Prison's card as variant v (0..333, no row discount)    |
 * | 2179         | take the Prison's card into hand                                |
 * | 2180         | put the Prison's card back on the discard pile                  |
 * | 2181 + r     | Guild Hall: r R and 4 − r VP, r = 0..4 (§12.7.7)                |
 * | 2186 + k     | Trading House: k = 0 decline, 1 pay 3 R for 2 VP (§12.7.6)      |
 */
#define STPETE_NS_ACTION_FIRST 1277
/** Number of distinct action ids of a game with the New Society (ids 972..1276, the base chance outcomes, are
 * never player actions). */
#define STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY 2188
/** Number of card variants with the New Society (§12.6): 214 + 120. */
#define STPETE_NUM_CARD_VARIANTS_NEW_SOCIETY 334
/** An upper bound on the number of legal actions of a game with the New Society (a board of up to 10 cards, up to
 * 14 targets each, §12.4.1; the Prison's 62 picks). */
#define STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY 400

/** Longest string produced by stpete_action_to_string(), including the NUL. */
#define STPETE_ACTION_STRING_MAX 96

/** Kinds of action. */
enum stpete_action_kind {
    STPETE_ACTION_PASS = 0,             /**< pass (§4.2, §4.3) */
    STPETE_ACTION_BUY = 1,              /**< buy a board card (§4.2, §5, §6) */
    STPETE_ACTION_PLAY = 2,             /**< play a hand card (§4.2, §5, §6) */
    STPETE_ACTION_TAKE = 3,             /**< take a board card into hand (§4.2, §7.3) */
    STPETE_ACTION_OBSERVATORY = 4,      /**< use an Observatory on a stack (§7.1) */
    STPETE_ACTION_OBSERVATORY_BUY = 5,  /**< buy the drawn card (§7.1) */
    STPETE_ACTION_OBSERVATORY_TAKE = 6, /**< take the drawn card into hand (§7.1) */
    STPETE_ACTION_OBSERVATORY_DISCARD = 7, /**< discard the drawn card (§7.1) */
    STPETE_ACTION_PUB = 8,              /**< buy VP with Pubs (§7.2) */
    STPETE_ACTION_PRISON = 9,           /**< Debtor's Prison: pick card from the discard pile (§12.7.5, R21) */
    STPETE_ACTION_PRISON_BUY = 10,      /**< buy the picked card (source ::STPETE_SOURCE_DISCARD) */
    STPETE_ACTION_PRISON_TAKE = 11,     /**< take the picked card into hand */
    STPETE_ACTION_PRISON_PUT_BACK = 12, /**< put the picked card back on the discard pile */
    STPETE_ACTION_GUILD_HALL = 13,      /**< Guild Hall: amount = rubles taken, 4 − amount VP (§12.7.7, R24) */
    STPETE_ACTION_TRADING_HOUSE = 14    /**< Trading House: amount 1 = pay 3 R for 2 VP, 0 = decline (§12.7.6, R25) */
};

/** Structured form of an action. Unused fields are ::STPETE_NONE (-1). Frozen: it will not grow. */
typedef struct stpete_action {
    int kind;      /**< ::stpete_action_kind */
    int source;    /**< ::stpete_source for BUY (UPPER/LOWER), PLAY (HAND), TAKE (UPPER/LOWER), OBSERVATORY_*;
                        DISCARD for PRISON and PRISON_* (§12.7.5) */
    int card;      /**< card type bought, played, taken or picked (BUY, PLAY, TAKE, OBSERVATORY_BUY, PRISON,
                        PRISON_BUY) */
    int displaced; /**< card type displaced by a trading card (§6), else -1 */
    int stack;     /**< ::stpete_stack for OBSERVATORY, else -1 */
    int amount;    /**< VP bought for PUB (0..10), rubles taken for GUILD_HALL (0..4, §12.7.7), 1 = buy or
                        0 = decline for TRADING_HOUSE (§12.7.6), else -1 */
} stpete_action;

/**
 * Decode an action id into its structured form (state-independent; the actions of §4.2, §6.2, §7.1 and §7.2 in
 * the encoding above, and the New Society's of §12.7.5–§12.7.7).
 * @param id   action id
 * @param out  receives the action (caller-owned)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or an id that is no action: outside
 *         [0, ::STPETE_NUM_DISTINCT_ACTIONS) and [::STPETE_NS_ACTION_FIRST, ::STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY).
 */
STPETE_API int stpete_action_decode(int id, stpete_action *out);

/**
 * Encode a structured action into its id (inverse of stpete_action_decode()).
 * @param action the action; unused fields are ignored
 * @param id     receives the id
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a combination no id represents (e.g. a trading
 *         card without a valid displacement target type, §6.2).
 */
STPETE_API int stpete_action_encode(const stpete_action *action, int *id);

/**
 * Write the canonical readable form of an action (§4.2, §7.1, §7.2) with the card names of an edition (§2, §11),
 * e.g. "buy Wharf from upper displacing Ship Builder", "take Market from lower", "play Pub",
 * "observatory building", "observatory discard", "pub 3", "pass", "buy Abbot from upper displacing Author" (second
 * edition), and the New Society's Debtor's Prison, Guild Hall and Trading House actions (§12.7.5–§12.7.7); and of a
 * chance outcome (@ref search), e.g. "chance Market" (a Market is dealt or drawn), "chance markers 0 1 0 1" (§3.3),
 * "chance markers5 0 1 2 3" (§12.3). The grammar of every form is in the section Action strings of doc/api.md (the
 * base game) and of doc/expansion.md (the New Society). The library's one action-text function (a game's edition:
 * stpete_game_edition()).
 * @param edition  a ::stpete_edition (1 or 2)
 * @param id       action id, or chance outcome id
 * @param buf      caller buffer; receives a NUL-terminated string
 * @param capacity size of @p buf in bytes (::STPETE_ACTION_STRING_MAX always suffices)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL buffer, an edition out of range or an id that is
 *         neither an action nor a chance outcome; ::STPETE_E_BUFFER_TOO_SMALL if the string does not fit (@p buf
 *         then holds a truncated, NUL-terminated prefix if @p capacity > 0).
 */
STPETE_API int stpete_action_to_string(int edition, int id, char *buf, size_t capacity);

/**
 * Parse the canonical form written by stpete_action_to_string() (§4.2, §7.1, §7.2; case-insensitive, surrounding
 * blanks ignored, card names of either edition, §11), for actions and chance outcomes.
 * @param str NUL-terminated string
 * @param id  receives the action id (or chance outcome id)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if no action has that form.
 */
STPETE_API int stpete_action_from_string(const char *str, int *id);

/**
 * Name of an action kind (stpete_action::kind), the word of the table document (doc/format.md): "pass", "buy",
 * "play", "take", "observatory", "observatory-buy", "observatory-take", "observatory-discard", "pub", "prison",
 * "prison-buy", "prison-take", "prison-put-back", "guild-hall", "trading-house" (§4.2, §7.1, §7.2, §12.7.5-§12.7.7).
 * Since 1.2.
 * @param kind a ::stpete_action_kind
 * @return a static string (not to be freed), or NULL if @p kind is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_action_kind_name(int kind);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup games Options and games
 * Rule options (§3, §7.2, §8, §9) and the immutable game configuration. */
/** @{ */

/** Pub cap (§7.2, R10). */
enum stpete_pub_cap {
    STPETE_PUB_CAP_PER_PUB = 0,   /**< up to 5 VP per Pub owned (default) */
    STPETE_PUB_CAP_PER_PLAYER = 1 /**< up to 5 VP per player, however many Pubs [option] */
};

/** Tie-break (§8, R14). */
enum stpete_tie_break {
    STPETE_TIE_BREAK_RUBLES_MOD_10 = 0, /**< rubles left after converting full tens (default, designer's ruling) */
    STPETE_TIE_BREAK_RUBLES_TOTAL = 1   /**< total rubles held (literal rulebook wording) [option] */
};

/** How random events happen (§3.1, §3.3, §4.5, §7.1; OpenSpiel's `ChanceMode`). */
enum stpete_chance_mode {
    STPETE_CHANCE_SAMPLED = 0, /**< the library draws every random event from the state's PRNG (default): the
                                    stacks are shuffled at setup, and no chance node is ever seen */
    STPETE_CHANCE_EXPLICIT = 1 /**< every random event is a chance node (::STPETE_PLAYER_CHANCE): the caller applies
                                    its outcome (stpete_state_chance_outcomes()); the stacks are multisets whose
                                    order does not exist yet. For tree search, and companion apps for a physical
                                    table. */
};

/**
 * Optional allocator (zstd `ZSTD_customMem` style). All three functions NULL = the C library's.
 * Either all three are set or none. Frozen: it will not grow (it lives inside ::stpete_options, which may).
 */
typedef struct stpete_allocator {
    void *(*malloc_fn)(void *user, size_t size);             /**< like malloc */
    void *(*realloc_fn)(void *user, void *ptr, size_t size); /**< like realloc */
    void (*free_fn)(void *user, void *ptr);                  /**< like free; never called with NULL */
    void *user;                                              /**< passed to the three functions */
} stpete_allocator;

/**
 * Options of a game. Always initialise with stpete_options_init() (or ::STPETE_OPTIONS_INIT), then set fields:
 * a later library version may append fields, and stpete_options::struct_size tells it which ones the caller knows.
 */
typedef struct stpete_options {
    size_t struct_size;   /**< sizeof(stpete_options) of the caller's header; set by the init */
    int players;          /**< 2..4 (default 4); 5 with stpete_options::new_society (§12.0, R17) */
    uint64_t seed;        /**< seed of the in-state PRNG (default 0): same options and seed, same game */
    int pub_cap;          /**< ::stpete_pub_cap (default ::STPETE_PUB_CAP_PER_PUB), §7.2 [option] */
    int tie_break;        /**< ::stpete_tie_break (default ::STPETE_TIE_BREAK_RUBLES_MOD_10), §8 [option] */
    /**
     * Explicit start-player markers (§3.3 [option]): start_markers[phase] = seat holding that phase's marker.
     * All -1 (default) = dealt at random. Otherwise every entry is a seat, every seat holds 1 or 2 markers; with 5
     * players (§12.3, R18) each of four seats holds one and the fifth seat, which holds none, has the gold disc.
     */
    int start_markers[STPETE_NUM_PHASES];
    int public_rubles;    /**< 1 = rubles are public information (§9 [option]); default 0. Information only: it
                               does not change the rules; read by the per-seat views, stpete_state_view_to_json() */
    int public_hands;     /**< 1 = hand card identities are public (§9 [option]); default 0. Information only */
    stpete_allocator allocator; /**< optional allocator; zero = stdlib */
    int chance_mode;      /**< ::stpete_chance_mode (default ::STPETE_CHANCE_SAMPLED) */
    int edition;          /**< 1 = the first edition (2004, default), 2 = the second-edition preset (2014, §11: four
                               card changes, four names, a buy-only first worker phase) */
    int new_society;      /**< 1 = the New Society expansion (§12: 144 cards, the Debtor's Prison, Guild Hall,
                               Trading House, Sycophant, ..., and 2–5 players); default 0. The first edition only
                               (R17: refused with edition 2). */
    int markers_one_seat; /**< 5 players only (§12.4.1, R19): 0 = at the end of a round the five markers (the gold
                               disc included) move two seats clockwise (default, Board Game Arena); 1 = one seat, as
                               §4.5 [option]. */
    int used_prison_scores; /**< §12.7.5, R22: 0 = a used Debtor's Prison scores no VP that round (default, the
                                 card text); 1 = it still scores its 1 VP (Board Game Arena) [option]. */
    int textile_without_new_society; /**< §12.7.8, R29: 0 = the Textile Factory counts the New Society (default,
                                          Board Game Arena); 1 = it does not (the 2014 print) [option] */
} stpete_options;

/** Static initialiser with the spec's defaults (§3, §7.2, §8, §9): 4 players, seed 0. */
#define STPETE_OPTIONS_INIT \
    { sizeof(stpete_options), 4, 0, STPETE_PUB_CAP_PER_PUB, STPETE_TIE_BREAK_RUBLES_MOD_10, \
      { -1, -1, -1, -1 }, 0, 0, { NULL, NULL, NULL, NULL }, STPETE_CHANCE_SAMPLED, 1, 0, 0, 0, 0 }

/**
 * Name of a Pub cap (§7.2, R10), the word of the JSON format and the programs' options: "per-pub", "per-player".
 * @param pub_cap a ::stpete_pub_cap
 * @return a static string (not to be freed), or NULL if @p pub_cap is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_options_pub_cap_name(int pub_cap);

/**
 * Find a Pub cap (§7.2, R10) by its word (stpete_options_pub_cap_name(); exact, case-sensitive).
 * @param name NUL-terminated word, e.g. "per-player"
 * @param pub_cap receives the ::stpete_pub_cap
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if no Pub cap has that word
 *         (@p pub_cap unchanged).
 */
STPETE_API int stpete_options_pub_cap_from_name(const char *name, int *pub_cap);

/**
 * Name of a tie-break (§8, R14), the word of the JSON format and the programs' options: "rubles-mod-10",
 * "rubles-total".
 * @param tie_break a ::stpete_tie_break
 * @return a static string (not to be freed), or NULL if @p tie_break is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_options_tie_break_name(int tie_break);

/**
 * Find a tie-break (§8, R14) by its word (stpete_options_tie_break_name(); exact, case-sensitive).
 * @param name NUL-terminated word, e.g. "rubles-total"
 * @param tie_break receives the ::stpete_tie_break
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if no tie-break has that word
 *         (@p tie_break unchanged).
 */
STPETE_API int stpete_options_tie_break_from_name(const char *name, int *tie_break);

/**
 * Name of a chance mode (§3.1; OpenSpiel's `ChanceMode`), the word of the JSON format and the programs' options:
 * "sampled", "explicit".
 * @param chance_mode a ::stpete_chance_mode
 * @return a static string (not to be freed), or NULL if @p chance_mode is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_options_chance_mode_name(int chance_mode);

/**
 * Find a chance mode (§3.1) by its word (stpete_options_chance_mode_name(); exact, case-sensitive).
 * @param name NUL-terminated word, e.g. "explicit"
 * @param chance_mode receives the ::stpete_chance_mode
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if no chance mode has that word
 *         (@p chance_mode unchanged).
 */
STPETE_API int stpete_options_chance_mode_from_name(const char *name, int *chance_mode);

/**
 * Fill @p opts with the defaults of the spec (same as ::STPETE_OPTIONS_INIT): 4 players (§3), seed 0, Pub cap per
 * Pub (§7.2, R10), tie-break rubles mod 10 (§8, R14), random start-player markers (§3.3, R15), secret rubles and
 * hands (§9), the C library's allocator, sampled chance (§3.1), the first edition (§11 is the other), no New Society
 * (§12). This header makes every call stpete_options_init(opts) a call of stpete_options_init_size(opts,
 * sizeof *opts) (a macro), so that the struct the caller has is what is written; the function itself, which
 * programs built against the first ABI call, writes the first ABI's layout only (struct_size = that size: its members after
 * `edition` keep their defaults whatever the caller writes there).
 * @param opts caller-owned struct; NULL is ignored
 */
STPETE_API void stpete_options_init(stpete_options *opts);

/**
 * Fill the first @p capacity bytes of @p opts with the defaults of the spec (as stpete_options_init(): §3, §3.3,
 * §7.2, §8, §9, §11, §12) and set opts->struct_size to @p capacity: a caller built against an older header
 * passes its smaller sizeof and is never overrun. (stpete_options_init() is this with the sizeof(stpete_options)
 * of the caller's header.)
 * @param opts        caller-owned struct; NULL is ignored
 * @param capacity    sizeof(stpete_options) of the caller's header; a size below the first layout (the members up
 *                    to start_markers) or above this library's is ignored (nothing written)
 */
STPETE_API void stpete_options_init_size(stpete_options *opts, size_t capacity);

/** @cond INTERNAL */
#define stpete_options_init(opts) stpete_options_init_size((opts), sizeof(stpete_options))
/** @endcond */

/** Immutable game configuration (players, seed, rule options, allocator). Shareable read-only. */
typedef struct stpete_game stpete_game;

/** A position of a game: everything needed to continue it, including its PRNG. */
typedef struct stpete_state stpete_state;

/**
 * Check a whole combination of options without creating a game, and say what is wrong: one answer, one reason. The
 * validation stpete_game_new() does, driven by the table of options (stpete_option_get_info()), in the table's
 * order: every option's value in its range (players 2–4, or 5 with the New Society, §3, §12.0, R17; a known Pub
 * cap, §7.2; tie-break, §8; chance mode, §3.1; edition 1 or 2, §11; 0 or 1 for the others), every option set only
 * in the games it applies to (stpete_option_info::games: the New Society only with the first edition, R16, R17; its
 * rulings R19, R22 and R29 only with it), start-player markers all random or every seat holding 1 or 2 (§3.3, R15;
 * with 5 players one each and the gold disc, §12.3, R18); then an allocator with all three functions or none. This
 * is the one home of the setup rule: which players, edition and expansion combinations exist, and why not.
 * @param opts the options (borrowed)
 * @param err  receives the status and the reason of a failure, which names options by their names
 *             (stpete_option_info::name), e.g. "players must be 2, 3 or 4, not 5: 5 players need the New Society
 *             (new_society, §12.0, R17)"; "" on success; may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p opts or a bad option (the status stpete_game_new()
 *         would return); ::STPETE_E_UNSUPPORTED_VERSION if opts->struct_size or err->struct_size is not the size
 *         of a released layout (see the structs that may grow, above).
 */
STPETE_API int stpete_options_check(const stpete_options *opts, stpete_error *err);

/**
 * @name The table of options
 * Every member of ::stpete_options but the allocator is declared once, in one table of the library (OpenSpiel's
 * `parameter_specification`, SQLite's pragma table): its name (the JSON format's key, doc/format.md "options", and
 * the member's name), type, default, range or words, a one-line description, the rule it sets (§ / R-id) and the
 * games it applies to. The JSON format, the programs' command lines (`--option NAME=VALUE`), the Python and
 * JavaScript packages, the experiment runner, the arena and the server enumerate it; none lists an option itself.
 * A program that has no C compiler (ctypes, a wasm module) reaches every option through these calls alone: it
 * allocates a struct of this library's size with stpete_options_new(), sets and reads options by name from text,
 * and never touches a member.
 * @{
 */

/** The type of an option's value (stpete_option_info::type): how stpete_options_set() reads it, how
 * stpete_options_value() writes it and how the JSON format holds it. */
enum stpete_option_type {
    STPETE_OPTION_BOOL = 0,  /**< 0 or 1: the words "false" and "true" (stpete_options_set() also reads the
                                  number); a JSON boolean */
    STPETE_OPTION_INT = 1,   /**< an integer in [stpete_option_info::min, stpete_option_info::max], in decimal; a
                                  JSON integer */
    STPETE_OPTION_ENUM = 2,  /**< the number of one of stpete_option_info::words (stpete_options_set() also reads
                                  the number); a JSON string, the word */
    STPETE_OPTION_SEED = 3,  /**< an unsigned 64-bit number in decimal (stpete_options::seed); a JSON string of
                                  decimal digits (null in a state document) */
    STPETE_OPTION_SEATS = 4  /**< one seat per phase (stpete_options::start_markers): "random" (every entry -1) or
                                  four seats "0,1,2,3"; a JSON null or array */
};

/** What an option changes (stpete_option_info::category). */
enum stpete_option_category {
    STPETE_OPTION_RULES = 0,       /**< the game itself: players, cards, setup and rules (§3, §7.2, §8, §11, §12) */
    STPETE_OPTION_INFORMATION = 1, /**< what each seat sees (§9); the rules of play are unchanged */
    STPETE_OPTION_PLAY = 2         /**< how a program deals and drives the game, not a rule: the seed and the
                                        chance mode (§3.1). A program that plays many games (a tournament, an
                                        experiment) or only sampled chance keeps these its own. */
};

/** The kinds of game an option applies to (stpete_option_info::games, a mask): an option may differ from its
 * default only in a game of its kinds (stpete_options_check() gives the reason otherwise). The edition and the
 * expansion decide the kind: edition 2 is the second edition; edition 1 with `new_society` the New Society. */
enum stpete_games {
    STPETE_GAMES_FIRST_EDITION = 1,  /**< the first edition's base game (§1-§10) */
    STPETE_GAMES_SECOND_EDITION = 2, /**< the second-edition preset (§11) */
    STPETE_GAMES_NEW_SOCIETY = 4,    /**< the first edition with the New Society expansion (§12) */
    STPETE_GAMES_ALL = 7             /**< every game */
};

/** A buffer of this many bytes holds any option's value as stpete_options_value() writes it, NUL included. */
#define STPETE_OPTION_VALUE_MAX 32

/** One option of the table (stpete_option_get_info()). Every string is static (never to be freed). May grow:
 * initialise with ::STPETE_OPTION_INFO_INIT. */
typedef struct stpete_option_info {
    size_t struct_size;       /**< sizeof(stpete_option_info) of the caller's header (::STPETE_OPTION_INFO_INIT) */
    const char *name;         /**< the option's name: the JSON format's key and the ::stpete_options member, e.g.
                                   "pub_cap". Programs spell it `--pub-cap` (or `--option pub_cap=...`), the
                                   JavaScript package `pubCap`. */
    const char *title;        /**< a short label for a form or a table column, e.g. "Pub cap" */
    const char *description;  /**< one line of English: what it does and its values */
    const char *rule;         /**< the rule it sets, e.g. "§7.2, R10" */
    int type;                 /**< ::stpete_option_type */
    int category;             /**< ::stpete_option_category */
    int games;                /**< the ::stpete_games it applies to (a mask) */
    int64_t min;              /**< the smallest value: BOOL 0, ENUM 0, INT its minimum, SEATS -1 (random), SEED 0 */
    int64_t max;              /**< the largest value: BOOL 1, ENUM num_words - 1, INT its maximum (a value
                                   stpete_options_check() may still refuse in a combination, e.g. 5 players
                                   without the New Society), SEATS the last seat, SEED 0 (every uint64) */
    int64_t default_value;    /**< the default (stpete_options_init()); SEATS -1, SEED 0 */
    const char *default_text; /**< the default as stpete_options_value() writes it, e.g. "4", "per-pub", "false" */
    int num_words;            /**< BOOL 2, ENUM the number of words, else 0 */
    const char *const *words; /**< BOOL "false", "true"; ENUM each value's word (words[value]); else NULL */
    const char *const *labels;/**< INT and ENUM: a short label per value from min to max (labels[value - min]) for
                                   a form, e.g. "5 (the New Society)"; else NULL */
} stpete_option_info;

/** Static initialiser of ::stpete_option_info: struct_size set, nothing described yet. */
#define STPETE_OPTION_INFO_INIT { sizeof(stpete_option_info), NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, NULL, 0, \
                                  NULL, NULL }

/**
 * Number of options in the table: the options are numbered 0 .. count-1, in the order of the JSON format's
 * "options" object (doc/format.md). @norule
 * @return the number of options (13 in this version); never fails.
 */
STPETE_API int stpete_option_count(void);

/**
 * Describe one option of the table: name, title, description, rule, type, category, games, range, default and
 * words (see ::stpete_option_info; §3, §3.1, §3.3, §7.2, §8, §9, §11, §12).
 * @param option the option's number in [0, stpete_option_count())
 * @param out    receives the description (caller-owned; struct_size set first, e.g. by ::STPETE_OPTION_INFO_INIT;
 *               its strings are static)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p out or @p option out of range;
 *         ::STPETE_E_UNSUPPORTED_VERSION if out->struct_size is not the size of a released layout (nothing written).
 */
STPETE_API int stpete_option_get_info(int option, stpete_option_info *out);

/**
 * Find an option by its name (stpete_option_info::name; exact, case-sensitive). @norule
 * @param name NUL-terminated name, e.g. "new_society"
 * @param option receives its number
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if no option has that name
 *         (@p option unchanged).
 */
STPETE_API int stpete_option_from_name(const char *name, int *option);

/**
 * A new options struct of this library's own size, filled with the defaults (stpete_options_init_size() with
 * sizeof(stpete_options) of this library): for a program without this header's sizeof (ctypes, wasm), which
 * then sets every option by name (stpete_options_set()) and never reads a member it does not know. @norule
 * @param out receives the struct, owned by the caller (free with stpete_options_free()); NULL on failure
 * @param err receives the status and the reason of a failure; may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p out; ::STPETE_E_UNSUPPORTED_VERSION for a bad
 *         err->struct_size; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_options_new(stpete_options **out, stpete_error *err);

/**
 * Free a struct from stpete_options_new(). @norule
 * @param opts the struct; NULL is a no-op
 */
STPETE_API void stpete_options_free(stpete_options *opts);

/**
 * Set one option by its name from text, the way a command line or a form gives it: a BOOL "true" or "false" (or a
 * number), an INT in decimal, an ENUM's word (or its number), a SEED in decimal (0 to 2^64 - 1), SEATS "random" or
 * four comma-separated numbers ("0,1,2,3"). The text's type is checked here; its range and the combination (players
 * 2-4, 5 only with the New Society, R17; the New Society only with the first edition; markers that fit the players,
 * §3.3) are stpete_options_check()'s, which gives the one reason of each. The rule set is the option's
 * (stpete_option_info::rule).
 * @param opts  the options to change (struct_size set, e.g. by stpete_options_init() or stpete_options_new())
 * @param name  the option's name (stpete_option_info::name)
 * @param value the value as text, NUL-terminated
 * @param err   receives the status and the reason of a failure, which names the option, its values and its rule
 *              (e.g. for pub_cap: per-pub or per-player, §7.2, R10); "" on success; may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL, an unknown name, or text that is not a value of the
 *         option's type (opts unchanged); ::STPETE_E_UNSUPPORTED_VERSION if opts->struct_size is not a released layout's
 *         size or is too small to hold the option (a struct of an older header: opts unchanged), or for a bad
 *         err->struct_size.
 */
STPETE_API int stpete_options_set(stpete_options *opts, const char *name, const char *value, stpete_error *err);

/**
 * One option's value as text, as stpete_options_set() reads it: "true"/"false", a decimal number, an ENUM's word,
 * "random" or "0,1,2,3" (the default of an option the caller's struct is too old to hold). @norule
 * @param opts     the options
 * @param name     the option's name (stpete_option_info::name)
 * @param buf      caller's buffer of @p capacity bytes (::STPETE_OPTION_VALUE_MAX always suffice), or NULL with
 *                 @p capacity 0
 * @param capacity bytes available in @p buf
 * @param len      receives the text's length in bytes, without the NUL (also when the buffer is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p opts, @p name or @p len, an unknown name, a BOOL or
 *         ENUM member that is none of its values or a SEATS entry outside [-1, ::STPETE_MAX_PLAYERS - 1] (set
 *         directly, or by a number stpete_options_set() read: stpete_options_check() says why), or NULL @p buf with
 *         @p capacity > 0;
 *         ::STPETE_E_UNSUPPORTED_VERSION if opts->struct_size is not a released layout's size;
 *         ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_options_value(const stpete_options *opts, const char *name, char *buf, size_t capacity,
                                    size_t *len);
/** @} */

/**
 * Create a game configuration (the rule options of §3, §3.3, §7.2, §8, §9 and §11).
 * @param opts options (copied; the caller keeps ownership). NULL = defaults.
 * @param out  receives a new game, owned by the caller (free with stpete_game_free()); NULL on failure
 * @param err  receives the status and the reason of a failure (as stpete_options_check()); may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p out or any option stpete_options_check() refuses
 *         (players outside 2..4, an unknown Pub cap, tie-break or chance mode, a bad start-marker assignment,
 *         public rubles or hands not 0 or 1, an edition not 1 or 2, a partial allocator);
 *         ::STPETE_E_UNSUPPORTED_VERSION if opts->struct_size or err->struct_size is not one of this library's
 *         sizes; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_game_new(const stpete_options *opts, stpete_game **out, stpete_error *err);

/**
 * Free a game, through its own allocator. Every state created from it must have been freed first. @norule
 * @param game the game, owned by the caller until this call; NULL is a no-op
 */
STPETE_API void stpete_game_free(stpete_game *game);

/**
 * Copy the options a game was created with (the rule options of §3.3, §7.2, §8 and §9, seed, allocator).
 * @param game the game
 * @param out  receives the options (caller-owned). Its struct_size must be set first (stpete_options_init() does
 *             it): only that many bytes are written, so a caller built against an older header is never overrun.
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_UNSUPPORTED_VERSION if out->struct_size is
 *         not the size of a released layout (see the structs that may grow, above; nothing is written).
 */
STPETE_API int stpete_game_get_options(const stpete_game *game, stpete_options *out);

/**
 * Number of players of a game (2–4: the title and §3; 2–5 with the New Society, §12.0).
 * @param game the game
 * @return 2..5 seats, or ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_num_players(const stpete_game *game);

/**
 * The edition a game plays (§11): what stpete_card_get_info() and stpete_action_to_string() take.
 * @param game the game
 * @return ::STPETE_EDITION_FIRST or ::STPETE_EDITION_SECOND; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_edition(const stpete_game *game);

/**
 * Whether a game plays the New Society expansion (§12, stpete_options::new_society).
 * @param game the game
 * @param new_society receives 1 or 0
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_is_new_society(const stpete_game *game, int *new_society);

/**
 * Number of card types of a game: ::STPETE_NUM_CARD_TYPES (49, §2), or ::STPETE_NUM_CARD_TYPES_NEW_SOCIETY (62,
 * §12.2) with the New Society. Every card argument of a state query is in [0, this).
 * @param game the game
 * @return 49 or 62; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_num_card_types(const stpete_game *game);

/**
 * Number of distinct action ids of a game (OpenSpiel's `NumDistinctActions`): ::STPETE_NUM_DISTINCT_ACTIONS (972)
 * without the New Society, ::STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY (2188) with it (§12; the encoding is in
 * @ref actions).
 * @param game the game
 * @return 972 or 2188; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_num_distinct_actions(const stpete_game *game);

/**
 * Describe a card type as a game plays it: the edition's row (§2, §11), or with the New Society the expansion's
 * (§12.2: Czar and Carpenter 3 R / 2 R, Observatory 8, Academy 25 / 9 VP, Mariinskij-Theater 20 with +1 VP per
 * orange card, Mistress of Ceremonies 3 R 4 VP, the extra copies and the 13 new card types).
 * @param game the game
 * @param card card type in [0, stpete_game_num_card_types())
 * @param out  receives the description (struct_size set first, e.g. by ::STPETE_CARD_INFO_INIT; the name static)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a card out of range;
 *         ::STPETE_E_UNSUPPORTED_VERSION for a bad out->struct_size.
 */
STPETE_API int stpete_game_get_card_info(const stpete_game *game, int card, stpete_card_info *out);

/**
 * What a card type does in a game, in words, with its rule: the cards a trading card may displace (§6.2, R8,
 * §12.6, R28) and its special ability (§7, §11, §12.7), as the game plays them (its edition's names and figures,
 * and its rule options: the Pub cap of §7.2, a used Debtor's Prison's VP of R22, the Textile Factory's count of
 * R29), e.g. "Displaces Fur Trapper or Czar and Carpenter (§6.2)." (the first edition's Fur Shop) or "Your hand
 * limit is 4 instead of 3 (§7.3)." (the Warehouse); empty for a card that scores its income and does nothing else. The one text of the terminal game, the pages and the
 * table document (its card table). English, ASCII but for the section sign (UTF-8). Since 1.2.
 * @param game     the game
 * @param card     card type in [0, stpete_game_num_card_types())
 * @param buf      caller's buffer of @p capacity bytes, or NULL with @p capacity 0; receives a NUL-terminated text
 * @param capacity bytes available in @p buf (::STPETE_CARD_TEXT_MAX always suffices)
 * @param len      receives the text's length in bytes, without the NUL (also when the buffer is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL game or @p len, NULL @p buf with a capacity, or a card
 *         out of range; ::STPETE_E_BUFFER_TOO_SMALL (a truncated, NUL-terminated prefix is written if @p capacity
 *         > 0).
 */
STPETE_API int stpete_game_card_text(const stpete_game *game, int card, char *buf, size_t capacity, size_t *len);

/** Longest text of stpete_game_card_text(), including the NUL. */
#define STPETE_CARD_TEXT_MAX 384

/**
 * Whether states of two games are states of the same game: the library's one answer to that question, used by
 * stpete_state_copy(), stpete_state_from_json() and every bot (bots.h). Two games are the same game when every
 * option that shapes play or information agrees: players (§3), Pub cap (§7.2), tie-break (§8), start-player
 * markers (§3.3), public rubles and hands (§9), chance mode, edition (§11). The seed and the allocator may differ
 * (a state carries its own PRNG). A check: it answers with a status, never a truth value, so that an error cannot
 * read as a yes.
 * @param a a game (borrowed)
 * @param b another game, or the same (borrowed)
 * @return ::STPETE_OK if they are the same game; ::STPETE_E_MISMATCH if an option above differs;
 *         ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_check_compatible(const stpete_game *a, const stpete_game *b);

/**
 * Number of distinct action ids (::STPETE_NUM_DISTINCT_ACTIONS) of the encoding above. @norule
 * @return 972; never fails.
 */
STPETE_API int stpete_num_distinct_actions(void);

/**
 * An upper bound on the number of actions of any game of these options, from its initial position to the end
 * (OpenSpiel `MaxGameLength`). Passing is not final (§4.3), so the bound rests on what does end a game; the
 * derivation is in doc/format.md ("The longest game"): every two consecutive rounds that are not the last deal at
 * least 8 cards (§4.5), so a stack empties (§4.6) within R = 2·⌊(116 − 2N − 4)/8⌋ + 4 rounds; each card enters
 * a hand and a display at most once, the two Observatories draw at most twice a round, a Pub owner decides once
 * a round, and between two other actions at most N − 1 players pass in a row. With N players:
 * N·(232 + 9R) actions (1004, 1506 and 2008 for 2, 3 and 4 players). In explicit-chance mode the chance outcomes
 * count too: at most one per card leaving a stack and one marker deal, 117 more. Replay records with more actions
 * are refused.
 * @param game the game
 * @return the bound in actions; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_max_length(const stpete_game *game);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup states States
 * A position of a game: creation (§3 setup), copies, comparison, the last error. */
/** @{ */

/**
 * Create the initial state of a game (§3 setup) from the game's seed.
 * @param game the game; must outlive the state
 * @param out  receives the new state, owned by the caller (stpete_state_free()); NULL on failure
 * @param err  receives the status and reason of a failure; may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_UNSUPPORTED_VERSION for a bad
 *         err->struct_size; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_state_new(const stpete_game *game, stpete_state **out, stpete_error *err);

/**
 * Restart @p state as a new game with another seed (§3 setup), without allocating (except to grow the event
 * queue when it is on, see stpete_state_set_event_queue()). The event callback and queue are kept; the history
 * begins again (stpete_state_history()).
 * @param state the state
 * @param seed  the new seed
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_REENTRANT from inside an event callback;
 *         ::STPETE_E_OUT_OF_MEMORY if the event queue could not grow (the state is unchanged).
 */
STPETE_API int stpete_state_reset(stpete_state *state, uint64_t seed);

/**
 * Free a state, through its game's allocator. @norule Called from the state's own event callback, the free
 * is deferred: the call that reported the event (apply, reset, undo, ...) completes its step, delivers no further
 * event, frees the state and returns; the caller must then not use the state again. A library call that applies
 * several actions (stpete_bot_play()) stops after the one whose events freed the state and never touches it again;
 * code of one's own that does the same learns of the free from stpete_state_apply_tracked().
 * @param state the state, owned by the caller until this call; NULL is a no-op
 */
STPETE_API void stpete_state_free(stpete_state *state);

/**
 * Allocate an independent copy of a state (same game; the event callback is not copied), through the game's
 * allocator. The whole position (§1 components, §3.1 PRNG) is copied, with its history
 * (stpete_state_history(), so the clone can undo too).
 * @param src the state to copy
 * @param out receives the clone, owned by the caller; NULL on failure
 * @param err receives the status and reason of a failure; may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_UNSUPPORTED_VERSION for a bad
 *         err->struct_size; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_state_clone(const stpete_state *src, stpete_state **out, stpete_error *err);

/**
 * Copy the position of @p src into @p dst without allocating (for playouts). The whole position
 * (§1 components, §3.1 PRNG) is copied, not the history: the history of @p dst begins at the copied position
 * (stpete_state_clone() copies it). The event callback of @p dst is kept. Both states must belong to the same
 * game (stpete_game_check_compatible(): every rule option, chance mode and edition); the seed and the allocator
 * may differ.
 * @param dst destination state
 * @param src source state
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_MISMATCH if the rule options differ;
 *         ::STPETE_E_REENTRANT if @p dst is inside its event callback.
 */
STPETE_API int stpete_state_copy(stpete_state *dst, const stpete_state *src);

/**
 * Compare two positions (everything that determines the game's future, §3.1 PRNG included; not the history, nor
 * the public history behind the information state key).
 * @param a     first state
 * @param b     second state
 * @param equal receives 1 if the positions are equal, 0 if not
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_equal(const stpete_state *a, const stpete_state *b, int *equal);

/**
 * The game a state belongs to. @norule
 * @param state the state
 * @return the game (not owned by the caller: the caller that created it frees it), or NULL for a NULL state.
 */
STPETE_API const stpete_game *stpete_state_game(const stpete_state *state);

/**
 * Detail message of the last failed call that takes this state as non-`const` (apply, reset, copy into it,
 * determinize, undo, the event settings...), citing the rule, e.g. §4.2, when an action is illegal: e.g.
 * "action 7 (buy Market from upper) is not legal: Market from the upper row costs 5 R and seat 0 has 3 R (§5)".
 * Empty after success. Queries on a `const` state do not write it (a state may be read by many threads at once).
 * @param state the state
 * @return a NUL-terminated string owned by the state, valid until the next call on it; "" for NULL.
 */
STPETE_API const char *stpete_state_last_error(const stpete_state *state);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup play Legal actions and apply
 * Whose turn it is, what they may do (§4.2, §5, §6, §7), doing it, and what it costs. */
/** @{ */

/**
 * The seat to act (§4.1 turn order; the Observatory owner during its decision, §7.1; each Pub owner in turn, §7.2).
 * @param state the state
 * @return a seat 0..players-1; ::STPETE_PLAYER_CHANCE at a chance node (explicit-chance mode);
 *         ::STPETE_PLAYER_TERMINAL when the game is over; ::STPETE_E_INVALID_ARGUMENT for NULL (the three never
 *         meet: seats ≥ 0, sentinels −1 and −4, statuses ≤ −101).
 */
STPETE_API int stpete_state_current_player(const stpete_state *state);

/**
 * Whether the game is over (§4.6, §8).
 * @param state    the state
 * @param terminal receives 1 if the game is over, 0 if not
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_is_terminal(const stpete_state *state, int *terminal);

/**
 * The kind of decision the current player faces: an ordinary turn (§4.2), an Observatory draw (§7.1) or a Pub
 * purchase (§7.2).
 * @param state the state
 * @return a ::stpete_decision, or ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_decision(const stpete_state *state);

/**
 * List the legal actions of the current player, sorted ascending (§4.2, §6, §7.1, §7.2). Empty when terminal.
 * Does not allocate.
 * @param state   the state
 * @param ids     caller buffer of @p capacity ints (::STPETE_MAX_LEGAL_ACTIONS always suffices without the New
 *                Society, ::STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY with it, §12); may be NULL if
 *                @p capacity is 0
 * @param capacity capacity of @p ids
 * @param count   receives the number of legal actions (also when the buffer is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL state/count; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_legal_actions(const stpete_state *state, int *ids, size_t capacity, size_t *count);

/**
 * Legal actions as a mask: mask[id] = 1 if legal, else 0 (the same actions as stpete_state_legal_actions(): §4.2,
 * §6, §7.1, §7.2). The mask covers the player actions only: at a chance node of the explicit-chance mode it is all
 * zero (the outcomes, whose ids lie past ::STPETE_NUM_DISTINCT_ACTIONS, come from stpete_state_chance_outcomes()),
 * and at the end of the game too. Does not allocate.
 * @param state the state
 * @param mask  caller buffer of @p capacity bytes
 * @param capacity at least stpete_game_num_distinct_actions(): ::STPETE_NUM_DISTINCT_ACTIONS, or
 *                 ::STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY with the New Society (§12; its mask is 0 at the base
 *                 game's chance outcome ids 972..1276)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_legal_action_mask(const stpete_state *state, uint8_t *mask, size_t capacity);

/**
 * Whether one action id is legal now (§4.2, §5, §6, §7.1, §7.2, as stpete_state_legal_actions()).
 * @param state the state
 * @param id    any int
 * @param legal receives 1 if legal, 0 if not (including ids out of range)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_is_legal(const stpete_state *state, int id, int *legal);

/**
 * A uniform random legal action, without a caller buffer: the action at index `random % n` of the list
 * stpete_state_legal_actions() writes now (ascending ids, n entries; the library lists them internally, so this
 * costs one listing: §4.2, §5, §6, §7.1, §7.2). With `random` uniform over [0, 2^64) each listed action has
 * probability within n / 2^64 of 1/n (exactly 1/n when n is a power of two); the caller supplies the random
 * number, so the pick is deterministic.
 * This is the draw of the library's random bot (`random`, `stpete-selfplay --bots random`, `stpete-bench`): a bot
 * that passes its next 64-bit random number picks the same action as indexing the listing with it. At a chance
 * node (explicit-chance mode) the listed outcomes are equally likely here, whatever their probabilities (draw by
 * probability with stpete_state_chance_outcomes()). Does not allocate.
 * @param state  the state
 * @param random any 64-bit number (e.g. the next output of the caller's PRNG)
 * @param id     receives the action id (or chance outcome id)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_GAME_OVER if the game has ended (nothing
 *         is written then).
 */
STPETE_API int stpete_state_random_action(const stpete_state *state, uint64_t random, int *id);

/**
 * What a legal action costs the player to act, in rubles: the price of a card bought, played or bought from an
 * Observatory draw (§5, R5–R7, the displaced card's value for a trading card §5.2), or 2 R per VP for a Pub
 * purchase (§7.2). The recipe a front end needs for each entry of stpete_state_legal_actions().
 * @param state  the state
 * @param id     an action id
 * @param rubles receives the rubles (≥ 0; 0 when the action has no price)
 * @return ::STPETE_OK; ::STPETE_E_NO_PRICE for a legal action that costs nothing (pass, take, an Observatory draw,
 *         take or discard); ::STPETE_E_INVALID_ARGUMENT for NULL or an id outside [0, ::STPETE_NUM_DISTINCT_ACTIONS);
 *         ::STPETE_E_ILLEGAL_ACTION if the action is not legal now; ::STPETE_E_GAME_OVER if the game has ended.
 */
STPETE_API int stpete_state_action_price(const stpete_state *state, int id, int *rubles);

/**
 * Apply an action of the current player, or at a chance node a chance outcome (@ref search), and advance the game
 * through every automatic step that follows (end of the action part after N consecutive passes §4.3, scoring §4.4,
 * Pub step §7.2, deals §4.5, end of round, end of game §4.6 and final scoring §8) up to the next decision. Reports
 * events to the callback and the queue, if any, and records the id in the state's history (stpete_state_history()).
 * Allocates only to grow the history, in the first games of a state (its buffers are kept by every later reset,
 * copy and game), and the event queue when it is on (stpete_state_set_event_queue()).
 * @param state the state
 * @param id    a legal action id (see stpete_state_legal_actions()), or at a chance node a chance outcome id
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or an id that is neither an action nor a chance
 *         outcome; ::STPETE_E_ILLEGAL_ACTION if the action is not legal now (a chance outcome at a player's
 *         decision or in sampled mode, an action at a chance node included); ::STPETE_E_GAME_OVER if the game has
 *         ended; ::STPETE_E_REENTRANT from inside an event callback; ::STPETE_E_OUT_OF_MEMORY if the history or the
 *         event queue could not grow. On failure the state is unchanged and stpete_state_last_error() says why.
 */
STPETE_API int stpete_state_apply(stpete_state *state, int id);

/**
 * How stpete_state_apply_random() turns its random number into an index of the n listed actions (since 1.1).
 */
typedef enum stpete_pick {
    STPETE_PICK_MODULO = 0, /**< index `random % n`: stpete_state_random_action()'s draw (the random bot's) */
    STPETE_PICK_SCALED = 1  /**< index `((random >> 32) * n) >> 32`: the high 32 bits scaled to [0, n) without a
                                 division (the draw of the `mc` and `ismcts` bots' random playouts, bots.h) */
} stpete_pick;

/**
 * A playout step (since 1.1): pick a uniform random legal action and apply it, as stpete_state_random_action()
 * then stpete_state_apply() of the id it gives would (the same action for ::STPETE_PICK_MODULO, the same position,
 * history, events and callback afterwards: §4.2, §5, §6, §7.1, §7.2 for the listing, §4.3–§8 for what follows),
 * but the action is not checked a second time: the library picked it from its own listing of legal actions, which
 * is the check. An id given by a caller is always checked (stpete_state_apply()). At a chance node (explicit-chance
 * mode) the listed outcomes are equally likely here, whatever their probabilities. Allocates only as
 * stpete_state_apply() does.
 * @param state  the state
 * @param random any 64-bit number (e.g. the next output of the caller's PRNG)
 * @param pick   how @p random becomes an index: a ::stpete_pick
 * @param id     receives the id applied (an action id, or at a chance node a chance outcome id); unchanged on
 *               failure
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or an unknown @p pick; ::STPETE_E_GAME_OVER if the
 *         game has ended; ::STPETE_E_REENTRANT from inside an event callback; ::STPETE_E_OUT_OF_MEMORY if the
 *         history or the event queue could not grow. On failure the state is unchanged and
 *         stpete_state_last_error() says why.
 */
STPETE_API int stpete_state_apply_random(stpete_state *state, uint64_t random, int pick, int *id);

/**
 * Parse an action string (stpete_action_from_string()) and apply it (stpete_state_apply(), §4.2). Allocates only
 * as stpete_state_apply() does.
 * @param state the state
 * @param str   NUL-terminated action string (borrowed for the call)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state or string; ::STPETE_E_PARSE for an unknown
 *         string; ::STPETE_E_ILLEGAL_ACTION if the action is not legal now; ::STPETE_E_GAME_OVER if the game has
 *         ended; ::STPETE_E_REENTRANT from inside an event callback; ::STPETE_E_OUT_OF_MEMORY if the history or the
 *         event queue could not grow. On failure the state is unchanged and stpete_state_last_error() says why.
 */
STPETE_API int stpete_state_apply_string(stpete_state *state, const char *str);

/**
 * Apply an action as stpete_state_apply() does (§4–§8, the same checks, steps, events and statuses), and say
 * whether the state's event callback freed the state meanwhile (stpete_state_free() from the callback is deferred
 * to the end of the reporting call, stpete_state_free()). For code that applies more than once on a state whose
 * callback it does not own (a game loop in a library or a binding, stpete_bot_play()): after stpete_state_apply()
 * returns, such code cannot tell a freed state from a live one; after this call, *@p freed tells it..
 * @param state the state
 * @param id    as stpete_state_apply()
 * @param freed receives 1 if the state was freed during the call (it is gone: use it no more; the status is then
 *              ::STPETE_OK), else 0; must not be NULL
 * @return as stpete_state_apply(): ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL @p state or @p freed or
 *         an id that is neither an action nor a chance outcome; ::STPETE_E_ILLEGAL_ACTION if the action is not
 *         legal now; ::STPETE_E_GAME_OVER if the game has ended; ::STPETE_E_REENTRANT from inside an event
 *         callback; ::STPETE_E_OUT_OF_MEMORY if the history or the event queue could not grow. On failure the state
 *         is unchanged (*@p freed is 0) and stpete_state_last_error() says why.
 */
STPETE_API int stpete_state_apply_tracked(stpete_state *state, int id, int *freed);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup queries Queries
 * Everything a front end draws: phase, round, rows, stacks, displays, hands, rubles, VP, markers, prices, scores. */
/** @{ */

/**
 * Current phase (§4).
 * @param state the state
 * @return a ::stpete_phase; after the end, the trading phase; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_phase(const stpete_state *state);

/**
 * Current round, from 1 (a round is the four phases of §4; it ends with §4.5).
 * @param state the state
 * @return the round number; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_round(const stpete_state *state);

/**
 * Whether the round in progress is the final one (§4.6, R4).
 * @param state       the state
 * @param final_round receives 1 if it is, 0 if not
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_is_final_round(const stpete_state *state, int *final_round);

/**
 * Number of consecutive passes so far in this phase's action part (§4.3, R1).
 * @param state the state
 * @return 0..players-1; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_consecutive_passes(const stpete_state *state);

/**
 * The cards of one row of the board, in the order they were dealt (§1, §4.5).
 * @param state the state
 * @param row   ::STPETE_SOURCE_UPPER or ::STPETE_SOURCE_LOWER
 * @param cards caller buffer of @p capacity card types (10 suffices: ::STPETE_BOARD_SIZE, but 10 in a 5-player New
 *              Society game after its opening, §12.4.1, R20); may be NULL if capacity is 0
 * @param capacity capacity of @p cards
 * @param count receives the number of cards in the row
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad row; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_row(const stpete_state *state, int row, int *cards, size_t capacity, size_t *count);

/**
 * Number of cards left in a stack (public, §9).
 * @param state the state
 * @param stack a ::stpete_stack
 * @return the number of cards (0..31); ::STPETE_E_INVALID_ARGUMENT for NULL or a bad stack.
 */
STPETE_API int stpete_state_stack_size(const stpete_state *state, int stack);

/**
 * Number of copies of a card type in a player's display (§1).
 * @param state the state
 * @param seat  0..players-1
 * @param card  card type
 * @return the count; ::STPETE_E_INVALID_ARGUMENT for NULL, a bad seat or card.
 */
STPETE_API int stpete_state_display_count(const stpete_state *state, int seat, int card);

/**
 * A player's display as a list of card types, ascending, one entry per copy (§1).
 * @param state the state
 * @param seat  0..players-1
 * @param cards caller buffer of @p capacity card types (::STPETE_NUM_CARDS suffices); may be NULL if capacity is 0
 * @param capacity capacity of @p cards
 * @param count receives the number of cards in the display
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_display(const stpete_state *state, int seat, int *cards, size_t capacity, size_t *count);

/**
 * A player's hand, in the order taken (§1; secret to others unless public_hands, §9).
 * @param state the state
 * @param seat  0..players-1
 * @param cards caller buffer of @p capacity card types (::STPETE_MAX_HAND suffices); may be NULL if capacity is 0
 * @param capacity capacity of @p cards
 * @param count receives the hand size (public, §9)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_hand(const stpete_state *state, int seat, int *cards, size_t capacity, size_t *count);

/**
 * A player's hand limit now: 3, or 4 with a Warehouse in the display (§7.3, R11).
 * @param state the state
 * @param seat  0..players-1
 * @return 3 or 4; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat.
 */
STPETE_API int stpete_state_hand_limit(const stpete_state *state, int seat);

/**
 * A player's rubles (secret by default, §9; the library itself always knows them). A front end showing one seat's
 * screen asks stpete_state_visible_rubles() instead.
 * @param state the state
 * @param seat  0..players-1
 * @return rubles ≥ 0; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat.
 */
STPETE_API int stpete_state_rubles(const stpete_state *state, int seat);

/**
 * @deprecated Kept for the ABI; use stpete_state_visible_rubles(), which answers the same question
 * (::STPETE_E_REDACTED means hidden) and gives the amount when visible: one function for one question.
 *
 * Whether @p viewer sees @p seat's rubles now (§9): its own always, every seat's with the `public_rubles` option,
 * no other. The same answer as the views, the observation and stpete_state_visible_rubles() (one definition of
 * what a seat knows, doc/observation.md). Perfect recall may let a seat know more (its
 * information-state string lists what it recalls); this is what a screen may show.
 * @param state   the state
 * @param viewer  the seat looking, 0..players-1, or ::STPETE_VIEW_PUBLIC (a spectator: only public rubles)
 * @param seat    whose rubles, 0..players-1
 * @param visible receives 1 (visible) or 0 (hidden)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat or viewer.
 */
STPETE_API int stpete_state_rubles_visible(const stpete_state *state, int viewer, int seat, int *visible);

/**
 * @p seat's rubles (R) as @p viewer may see them now (§9): the amount when stpete_state_rubles_visible() says 1,
 * else ::STPETE_E_REDACTED. A front end that asks only this can never show a secret.
 * @param state  the state
 * @param viewer the seat looking, 0..players-1, or ::STPETE_VIEW_PUBLIC
 * @param seat   whose rubles, 0..players-1
 * @param rubles receives the rubles (R, ≥ 0) when visible; unchanged otherwise
 * @return ::STPETE_OK; ::STPETE_E_REDACTED when hidden from @p viewer; ::STPETE_E_INVALID_ARGUMENT for NULL or a
 *         bad seat or viewer.
 */
STPETE_API int stpete_state_visible_rubles(const stpete_state *state, int viewer, int seat, int *rubles);

/**
 * A player's victory points (public). May be negative after final scoring (§8).
 * @param state the state
 * @param seat  0..players-1
 * @param vp    receives the VP
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat.
 */
STPETE_API int stpete_state_vp(const stpete_state *state, int seat, int *vp);

/**
 * Number of the player's Observatories used (face down) this round (§7.1, R9).
 * @param state the state
 * @param seat  0..players-1
 * @return 0..2; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat.
 */
STPETE_API int stpete_state_observatories_used(const stpete_state *state, int seat);

/**
 * The card drawn by an Observatory and awaiting its owner's decision (§7.1).
 * @param state the state
 * @return a card type; ::STPETE_CARD_NONE (−1) when no draw is pending; ::STPETE_E_INVALID_ARGUMENT (−101) for
 *         NULL.
 */
STPETE_API int stpete_state_observatory_card(const stpete_state *state);

/**
 * Whether the player's Debtor's Prison is used this round (§12.7.5, R21, R22: it cannot be used again or
 * displaced, and by default scores no VP, until the next round).
 * @param state the state
 * @param seat  0..players-1
 * @param used  receives 1 if used, else 0 (always 0 in a game without the New Society)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat.
 */
STPETE_API int stpete_state_is_prison_used(const stpete_state *state, int seat, int *used);

/**
 * The card picked from the discard pile with the Debtor's Prison, awaiting its owner's decision (§12.7.5, R21).
 *
 * @param state the state
 * @return a card type; ::STPETE_CARD_NONE (−1) when no pick is pending; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_prison_card(const stpete_state *state);

/**
 * Who holds the gold disc (§12.3, §12.4.1, R18, R19): with 5 players the seat that holds no phase marker. New in
 * 1.1.
 * @param state the state
 * @return a seat; ::STPETE_NONE (−1) with fewer than 5 players (or before the markers are dealt);
 *         ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_gold_disc_holder(const stpete_state *state);

/**
 * Who holds a phase's start-player marker (§3.3, §4.1, §4.5 step 4).
 * @param state the state
 * @param phase a ::stpete_phase
 * @return the seat; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad phase.
 */
STPETE_API int stpete_state_marker_holder(const stpete_state *state, int phase);

/**
 * Number of copies of a card type in the discard pile (public, §9).
 * @param state the state
 * @param card  card type
 * @return the count; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad card.
 */
STPETE_API int stpete_state_discard_count(const stpete_state *state, int card);

/**
 * The price a player would pay now for a card (§5, R5–R7): printed cost − value of the displaced card (trading
 * cards, §5.2) − same-name copies in the display − 1 from the lower row − Carpenter Workshop (blue) − Gold Smelter
 * (orange), at least 1 R. Does not check that the card is available, affordable, or that the displaced card is in
 * the display; only that @p displaced is a valid target type for @p card (§6.2).
 * @param state     the state
 * @param seat      0..players-1
 * @param card      card type
 * @param source    a ::stpete_source (LOWER gives the lower-row discount; the others do not)
 * @param displaced for a trading card the displaced card type, else ignored (pass -1)
 * @param price     receives the price in rubles (≥ 1)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL, a bad seat, card or source, or a trading card whose
 *         @p displaced is not one of its targets.
 */
STPETE_API int stpete_state_price(const stpete_state *state, int seat, int card, int source, int displaced,
                                  int *price);

/** One card a trading card could displace, with the price (stpete_state_displacements()). Frozen: an array
 * element, it will not grow. */
typedef struct stpete_displacement {
    int displaced; /**< a card type in the seat's display that the trading card may displace (§6.2, R8, R9) */
    int price;     /**< the price in rubles (≥ 1) the seat would pay for the trading card displacing it (§5.2),
                        as stpete_state_price() gives it */
} stpete_displacement;

/**
 * The cards of a seat's display that a trading card could displace (§6.2, R8: its targets the display holds; an
 * Observatory only while one is face up, §7.1, R9), each
 * with the price the seat would pay (stpete_state_price(): §5, §5.2, R5–R7), in ascending card type: what a front end
 * shows next to a trading card on the board or in a hand, without listing every action. Does not check that the
 * card is available or that the seat can afford a price or acts now; an empty list means the seat cannot buy or
 * play the card (§6.1). At most ::STPETE_NUM_CARD_TYPES entries.
 * @param state    the state
 * @param seat     0..players-1 (the display is public, §9)
 * @param card     a trading card type (§2.4)
 * @param source   a ::stpete_source (LOWER gives the lower-row discount, §5.1)
 * @param out      caller's array of @p capacity entries, filled with the first min(count, capacity); may be NULL
 *                 when @p capacity is 0 (to ask for the count)
 * @param capacity entries @p out can hold
 * @param count    receives the number of entries
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state or count, NULL @p out with a capacity, a bad
 *         seat or source, or a card that is not a trading card; ::STPETE_E_BUFFER_TOO_SMALL if @p capacity is less
 *         than the count (written to @p count, and the first @p capacity entries to @p out).
 */
STPETE_API int stpete_state_displacements(const stpete_state *state, int seat, int card, int source,
                                          stpete_displacement *out, size_t capacity, size_t *count);

/** One card a seat could buy or play, in one way, and its price (stpete_state_offers()). Frozen: an array element,
 * it will not grow. */
typedef struct stpete_offer {
    int action;    /**< the action id that buys or plays the card so (legal or not now: stpete_state_is_legal()) */
    int source;    /**< ::stpete_source: where the card is (a row, the hand, the Observatory's or the Prison's card) */
    int card;      /**< the card type */
    int displaced; /**< for a trading card the card type it displaces (§6.2), else ::STPETE_NONE */
    int price;     /**< the price in rubles (≥ 1, stpete_state_price(): §5, §5.2, R5-R7, §12.5) */
} stpete_offer;

/** The most offers of any position: 10 board cards, the Observatory's or the Prison's card and 4 hand cards, each
 * with at most 14 targets (§12.4.1, §12.6). */
#define STPETE_MAX_OFFERS 256

/**
 * Every card @p seat could buy or play now, in every way, with its price: what a table UI writes beside each card
 * of the upper and lower rows (§4.2, §5.1: the lower row 1 R cheaper) and the seat's hand cards (§4.2), whether or
 * not the seat is to act or can pay, and the card the seat's Observatory drew (§7.1: no row discount) or its
 * Debtor's Prison picked (§12.7.5: no row discount) while the seat decides it (no other seat may buy it). After the
 * end of the game the rows and the hand are still listed, at their prices, though no action is legal then. A trading card gives one offer per card type of the seat's display it may displace (§6.2, R8,
 * R9: stpete_state_displacements(); none when it has nothing to displace, §6.1), any other card one offer. Each card
 * type once per place, in the order upper row, lower row, drawn card, hand (each in its order, §1), then by the
 * displaced type. Reads the seat's display, its hand and the public board only (§9). Does not allocate. Since 1.2.
 * @param state    the state
 * @param seat     0..players-1
 * @param out      caller's array of @p capacity entries (::STPETE_MAX_OFFERS always suffices), filled with the
 *                 first min(count, capacity); may be NULL when @p capacity is 0
 * @param capacity entries @p out can hold
 * @param count    receives the number of offers (also when @p capacity is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state or @p count, NULL @p out with a capacity, or a
 *         bad seat; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_offers(const stpete_state *state, int seat, stpete_offer *out, size_t capacity,
                                   size_t *count);

/**
 * What @p seat's display, as it is now, earns at the phase's next scoring: the incomes of its cards of the phase's
 * colour (§4.4; the Sycophant's −1 R, §12.7.9, netted with the rest and the purse now: Sycophants the purse cannot
 * pay are discarded instead, R26, so the rubles never take the purse below 0), less the VP of face-down
 * Observatories (§7.1, R9) and of a used Debtor's Prison (R22) while this round's building scoring is still to come
 * (at a later round's they are face up and unused again, §4.5 step 5, §12.4.5), with the
 * Mariinskij-Theater and Tax Man (§7.5; §11's VP), the Coffee House, Mayor and Textile Factory (§12.7.4, §12.7.8,
 * R29). The decisions that follow a scoring (the Pub §7.2, the Guild Hall
 * §12.7.7, the Trading House §12.7.6) are not in it. When no scoring of the phase is left (the final round past it,
 * §4.6, or the game over) it is what the display would earn, still ::STPETE_OK: stpete_state_next_scoring() says which
 * scoring comes. Since 1.2.
 * @param state  the state
 * @param seat   0..players-1
 * @param phase  a ::stpete_phase with a scoring: the worker, building or aristocrat phase (the trading phase scores
 *               nothing, §4.4)
 * @param rubles receives the rubles (R; negative when a Sycophant costs more than the rest earns); may be NULL
 * @param vp     receives the VP; may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state, a bad seat or a phase without a scoring.
 */
STPETE_API int stpete_state_income(const stpete_state *state, int seat, int phase, int *rubles, int *vp);

/**
 * The phase whose scoring comes next (§4.4): the current phase's until it has scored, then the next phase's (at the
 * Guild Hall, Trading House and Pub decisions after the building scoring, §12.4.3, §7.2, the aristocrat scoring;
 * at a chance node of the deal after a scoring, §4.5, the next phase's), in the trading phase the next round's
 * worker scoring, and none in the final round's trading phase (§4.6), once the deal before it has emptied a stack,
 * or after the end. Since 1.2.
 * @param state the state
 * @return a ::stpete_phase; ::STPETE_NONE when no scoring is left; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_next_scoring(const stpete_state *state);

/**
 * The cards the last action that put cards on the discard pile put there (§4.5: the lower row at a round's end;
 * §6: a displaced card; §7.1: an Observatory's discard; §12.7.9: unpaid Sycophants; §12.7.5: a card the Debtor's
 * Prison put back), without those the Prison picked from the pile since: what a table shows as discarded last.
 * Found by replaying the state's history (stpete_state_history()) from its root: none for the actions before a
 * loaded or copied position's root. Ascending card types, one entry per copy. Does not allocate; time linear in
 * the history's length. Since 1.2.
 * @param state    the state
 * @param cards    caller's array of @p capacity card types (::STPETE_BOARD_SIZE + 2 suffices: a lower row of up to
 *                 10 cards, §12.4.1); may be NULL when @p capacity is 0
 * @param capacity entries @p cards can hold
 * @param count    receives the number of cards (also when @p capacity is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state or @p count, or NULL @p cards with a capacity;
 *         ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_last_discards(const stpete_state *state, int *cards, size_t capacity, size_t *count);

/** Final scoring of one player (§8, R13). May grow: initialise with ::STPETE_SCORE_INIT. */
typedef struct stpete_score {
    size_t struct_size;    /**< sizeof(stpete_score) of the caller's header (set by ::STPETE_SCORE_INIT) */
    int vp_before;         /**< VP before final scoring */
    int aristocrat_kinds;  /**< different orange names in the display */
    int aristocrat_bonus;  /**< 0,1,3,6,…,45,55 VP by aristocrat_kinds */
    int rubles;            /**< rubles held */
    int rubles_bonus;      /**< rubles / 10 VP */
    int hand_cards;        /**< cards in hand */
    int hand_penalty;      /**< −5 VP per hand card (≤ 0) */
    int total;             /**< vp_before + aristocrat_bonus + rubles_bonus + hand_penalty */
    int tie_break;         /**< the tie-break value (§8, R14): rubles mod 10, or rubles with the option */
} stpete_score;

/** Static initialiser of ::stpete_score. */
#define STPETE_SCORE_INIT { sizeof(stpete_score), 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Final score breakdown of a player (§8, R13). On a finished game, the scoring that was applied; before the end,
 * the scoring as if the game ended now (a projection for bots and front ends).
 * @param state the state
 * @param seat  0..players-1
 * @param out   receives the breakdown (caller-owned; struct_size set first, e.g. by ::STPETE_SCORE_INIT)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a bad seat; ::STPETE_E_UNSUPPORTED_VERSION if
 *         out->struct_size is 0 or larger than this library's struct.
 */
STPETE_API int stpete_state_get_score(const stpete_state *state, int seat, stpete_score *out);

/**
 * Winners of a finished game (§8, R14): most VP, then the tie-break, still tied = shared win.
 * @param state the state
 * @param mask  receives a bit mask of winning seats (bit s = seat s)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_NOT_TERMINAL before the end.
 */
STPETE_API int stpete_state_winners(const stpete_state *state, unsigned *mask);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup events Events
 * A synchronous callback reports what happens while stpete_state_apply() or stpete_state_reset() runs. The
 * callback must not modify the state that calls it: stpete_state_apply(), stpete_state_apply_string(),
 * stpete_state_reset(), stpete_state_set_event_callback() and stpete_state_copy() into it return
 * ::STPETE_E_REENTRANT from inside the callback, and leave the state unchanged. Queries are allowed: they see the
 * state with the reported change already made, and every card in exactly one place. The state is then between two
 * steps of a move, so stpete_state_to_json() of it is refused too (::STPETE_E_REENTRANT): save it after the call. */
/** @{ */

/** Kinds of event, with the fields of ::stpete_event they fill. */
enum stpete_event_kind {
    STPETE_EVENT_PHASE_START = 0,   /**< phase, round, seat = its start player */
    STPETE_EVENT_DEAL,              /**< card dealt to the upper row from stack (§4.5); round, phase */
    STPETE_EVENT_BUY,               /**< seat, card, source, displaced, price */
    STPETE_EVENT_PLAY,              /**< seat, card, displaced, price */
    STPETE_EVENT_TAKE,              /**< seat, card, source */
    STPETE_EVENT_DISPLACE,          /**< seat, card = the displaced card (to the discard pile, §6) */
    STPETE_EVENT_PASS,              /**< seat, amount = consecutive passes */
    STPETE_EVENT_OBSERVATORY_DRAW,  /**< seat, stack, card drawn (§7.1) */
    STPETE_EVENT_OBSERVATORY_DISCARD, /**< seat, card */
    STPETE_EVENT_SCORING,           /**< seat, phase, rubles and vp gained at this phase's scoring (§4.4) */
    STPETE_EVENT_PUB,               /**< seat, amount = VP bought, rubles = R paid (§7.2) */
    STPETE_EVENT_ROUND_END,         /**< round; cards = lower row discarded (amount) (§4.5) */
    STPETE_EVENT_MARKERS_MOVED,     /**< round (§4.5 step 4) */
    STPETE_EVENT_LAST_ROUND,        /**< round, stack = the stack whose last card was dealt (§4.6) */
    STPETE_EVENT_FINAL_SCORING,     /**< seat, vp = total after final scoring (§8) */
    STPETE_EVENT_GAME_OVER,         /**< amount = winner bit mask (§8, R14); its line names them: "Game over after
                                         round 6: seat 2 wins", "Game over after round 5: seats 0 and 2 share the
                                         win" */
    STPETE_EVENT_UNDO,              /**< the last action was taken back (stpete_state_undo()): amount = its id,
                                         seat = the seat that had taken it (-1 for a chance outcome),
                                         line "undo: seat 2's pass is taken back" */
    STPETE_EVENT_PRISON,            /**< seat picks card from the discard pile with the Debtor's Prison (§12.7.5;
                                         1.1) */
    STPETE_EVENT_PRISON_PUT_BACK,   /**< seat puts card back on the discard pile (§12.7.5) */
    STPETE_EVENT_GUILD_HALL,        /**< seat, rubles and vp taken from the Guild Hall (§12.7.7) */
    STPETE_EVENT_TRADING_HOUSE,     /**< seat, rubles paid, vp gained, amount = 1 bought or 0 declined (§12.7.6;
                                         1.1) */
    STPETE_EVENT_SYCOPHANT_DISCARD, /**< seat could not pay: card (a Sycophant) to the discard pile (§12.7.9;
                                         1.1) */
    STPETE_EVENT_GOLD_DISC          /**< seat receives the gold disc: vp (2) and rubles (2 at setup) (§12.3,
                                         §12.4.1) */
};

/** One event. Unused fields are ::STPETE_NONE (-1). May grow: a callback receives the library's struct_size;
 * stpete_state_next_event() fills the caller's (initialise with ::STPETE_EVENT_INIT). Compare two events member by
 * member, not with memcmp(): the struct may end in padding bytes that no call writes. */
typedef struct stpete_event {
    size_t struct_size; /**< sizeof(stpete_event) of the header the struct was made with */
    int kind;      /**< ::stpete_event_kind */
    int seat;      /**< acting or scoring seat */
    int card;      /**< card type */
    int displaced; /**< displaced card type */
    int source;    /**< ::stpete_source */
    int stack;     /**< ::stpete_stack */
    int price;     /**< rubles paid */
    int rubles;    /**< rubles gained (scoring: negative for Sycophants, §12.7.9, and −1 there is −1 R, not
                        ::STPETE_NONE) or paid (Pub) */
    int vp;        /**< VP gained (scoring, Pub) or total (final scoring) */
    int amount;    /**< see the kind */
    int phase;     /**< ::stpete_phase */
    int round;     /**< round, from 1 */
    int edition;   /**< ::stpete_edition of the game that reported it (§11): the card names of its line */
} stpete_event;

/** Static initialiser of ::stpete_event. */
#define STPETE_EVENT_INIT { sizeof(stpete_event), -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1 }

/**
 * Event callback.
 * @param state     the state being changed (read-only inside the callback)
 * @param event     the event (valid during the call only)
 * @param user_data the pointer given to stpete_state_set_event_callback()
 */
typedef void (*stpete_event_fn)(const stpete_state *state, const stpete_event *event, void *user_data);

/**
 * Set or clear (fn = NULL) the event callback of a state. Not copied by clone or copy. The events report the
 * rules' steps (see ::stpete_event_kind). @norule
 * @param state     the state
 * @param fn        the callback, or NULL
 * @param user_data passed to every call; not owned (the caller keeps it alive while the callback is set)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state; ::STPETE_E_REENTRANT inside the callback.
 */
STPETE_API int stpete_state_set_event_callback(stpete_state *state, stpete_event_fn fn, void *user_data);

/**
 * Create the initial state of a game (§3 setup) with its event callback already set, so that the callback
 * receives the setup's events: the DEAL of each of the 2 workers per player (§3.4) and the first PHASE_START.
 * (stpete_state_new() deals before a callback can be set; stpete_state_reset() after setting one also reports a
 * setup, and is the way to get the setup's events into the queue.) The callback is then set as by
 * stpete_state_set_event_callback(). If the callback frees the state during the setup (stpete_state_free() is then
 * deferred until this call returns), the state is freed, @p out is NULL and ::STPETE_OK is returned.
 * @param game      the game; must outlive the state
 * @param fn        the event callback, or NULL (then this is stpete_state_new())
 * @param user_data passed to every call of @p fn; not owned
 * @param out       receives the new state, owned by the caller (stpete_state_free()); NULL on failure
 * @param err       receives the status and reason of a failure; may be NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p out or @p game; ::STPETE_E_UNSUPPORTED_VERSION
 *         for a bad err->struct_size; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_state_new_with_callback(const stpete_game *game, stpete_event_fn fn, void *user_data,
                                              stpete_state **out, stpete_error *err);

/**
 * Turn on (@p enabled = 1) or off (0) the pull-style event queue of a state (libxkbcommon `xkb_events_next`
 * style, for bindings that cannot take callbacks). While on, every event is also appended to the queue, in order;
 * stpete_state_next_event() takes them out. The queue is independent of the callback: both may be set.
 *
 * The queue grows with the game's allocator before an action is applied, never during it: if growing fails, the
 * apply (or reset) returns ::STPETE_E_OUT_OF_MEMORY and the state is unchanged. Drain it to keep it small.
 * Turning it off frees it and drops the pending events. Not copied by clone or copy; freed with the state.
 * The events report the rules' steps (see ::stpete_event_kind). @norule
 * @param state   the state
 * @param enabled 1 = on, 0 = off
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state or @p enabled not 0 or 1;
 *         ::STPETE_E_REENTRANT inside an event callback.
 */
STPETE_API int stpete_state_set_event_queue(stpete_state *state, int enabled);

/**
 * Take the oldest pending event out of the queue (see stpete_state_set_event_queue()). @norule
 * @param state the state
 * @param out   receives the event (caller-owned; struct_size set first, e.g. by ::STPETE_EVENT_INIT)
 * @return the number of events written to @p out: 1, or 0 if the queue is empty or off (a count, never a status);
 *         ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_UNSUPPORTED_VERSION for a bad out->struct_size;
 *         ::STPETE_E_REENTRANT inside an event callback.
 */
STPETE_API int stpete_state_next_event(stpete_state *state, stpete_event *out);

/**
 * Number of events waiting in the queue. @norule
 * @param state the state
 * @return the count (0 when the queue is off); ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_state_pending_events(const stpete_state *state);

/** Longest string written by stpete_event_to_string(), including the NUL. */
#define STPETE_EVENT_STRING_MAX 192

/**
 * Name of an event kind, in the kebab case of the JSON format's words: "phase-start", "deal", "buy", "play",
 * "take", "displace", "pass", "observatory-draw", "observatory-discard", "scoring", "pub", "round-end",
 * "markers-moved", "last-round", "final-scoring", "game-over", "undo", "prison", "prison-put-back", "guild-hall",
 * "trading-house", "sycophant-discard", "gold-disc". @norule
 * @param kind a ::stpete_event_kind
 * @return a static string (not to be freed), or NULL if @p kind is out of range; never fails otherwise.
 */
STPETE_API const char *stpete_event_kind_name(int kind);

/**
 * The readable log line of an event (the words of stpete-selfplay's log, so that every front end shows the same
 * log; English, cards by the names of the event's edition, §2 and §11), e.g. "seat 1 buys Wharf from the upper
 * row, displacing Ship Builder, for 5 R" or "building scoring: seat 0 gets +0 R and +3 VP". Given the state that
 * reported the event, during its callback, the line adds what the state knows then: rubles left after a purchase,
 * the totals after a scoring, the breakdown of a final scoring (§8) — what every player saw at the table, but a
 * screen for one seat that must not show another seat's secret rubles (§9) passes NULL. Given NULL, or a state
 * outside its callback (it has moved on since the event: a queued event), only the event's own members are used.
 * @param event    the event (e.g. from a callback or stpete_state_next_event())
 * @param state    the state that reported the event, read during the callback; or NULL
 * @param buf      caller buffer; receives a NUL-terminated line without a newline (::STPETE_EVENT_STRING_MAX
 *                 suffices)
 * @param capacity bytes available in @p buf
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL event or buffer, or an event whose kind, edition or
 *         members are out of range; ::STPETE_E_UNSUPPORTED_VERSION if event->struct_size is not one of this
 *         library's sizes (the 1.0 layout or larger, up to its own); ::STPETE_E_BUFFER_TOO_SMALL if the line does
 *         not fit (@p buf then holds a truncated prefix if @p capacity > 0).
 */
STPETE_API int stpete_event_to_string(const stpete_event *event, const stpete_state *state, char *buf,
                                      size_t capacity);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup json Serialization (JSON)
 * States, per-seat views (§9), replay records and results files (a batch of games, one line each) as JSON text
 * (parsed and written with jansson). The schema and the compatibility promise are in `doc/format.md`. Output is
 * deterministic: the same position gives the same bytes on every platform, and serialize → parse → serialize gives
 * identical bytes.
 *
 * Output functions write NUL-terminated UTF-8 (in fact ASCII) into the caller's buffer of `capacity` bytes and set
 * `*len` to the text length without the NUL. When the buffer is too small they return
 * ::STPETE_E_BUFFER_TOO_SMALL, set `*len` to the length needed (without the NUL) and write nothing useful;
 * `buf` may be NULL with `capacity` 0 to ask for the length.
 *
 * Input functions take @p len bytes of text (no NUL needed), build nothing on failure, and describe a failure
 * in `*err` (may be NULL): the message, and for syntax errors the 1-based line and column and the byte
 * position. jansson allocates through its own process-wide allocator (`json_set_alloc_funcs`), which belongs
 * to the application; the library never changes it. */
/** @{ */

/** Version of the JSON formats written by this library (`"format_version"`). Older versions are read. */
#define STPETE_FORMAT_VERSION 3
/** Format version of the documents of a game with the New Society (§12: its options, the Prisons used, the
 * decisions "prison", "guild-hall", "trading-house"; doc/format.md); the newest version this library reads. A
 * game without the expansion is written as version ::STPETE_FORMAT_VERSION, as before. */
#define STPETE_FORMAT_VERSION_NEW_SOCIETY 4

/** Largest state document (a full state or a view; a real one is about 2.5 KB) the readers accept, in bytes:
 * 1 MiB. Longer input is refused with ::STPETE_E_TOO_LARGE before it is parsed. */
#define STPETE_JSON_STATE_MAX 1048576
/** Largest replay record the readers accept, in bytes: 4 MiB (a record of the longest possible game,
 * stpete_game_max_length(), written by stpete_replay_to_json() is under 300 KB). Longer input is refused with
 * ::STPETE_E_TOO_LARGE before it is parsed. */
#define STPETE_JSON_REPLAY_MAX 4194304

/** Seat argument of stpete_state_view_to_json() for the spectators' view (public information only, §9). */
#define STPETE_VIEW_PUBLIC (-1)

/**
 * Serialize a full state: format version, the game's rule options (the seed is written as null: the PRNG state
 * continues the game), the PRNG state, stacks (their order), rows,
 * displays, hands, rubles, VP, markers, discard pile, phase, round, decision. Everything needed to continue the
 * game exactly (same legal actions, same future): the components of §1 and the PRNG of §3.1. The event callback
 * and queue are not part of it.
 * @param state the state
 * @param buf   caller's buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity bytes available in @p buf
 * @param len   receives the JSON length in bytes, without the NUL (also when the buffer is too small)
 * A state is written between moves only: from inside its own event callback (stpete_state_apply() or
 * stpete_state_reset() running) the state is between two steps of the move (the last pass of a phase before the phase
 * ends, §4.1; a stack emptied before the final round is set, §4.6, R4; a Trading House decision before its scoring,
 * §12.7.6), not a position the game can continue from, and the call is refused; write it once that call returns.
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state or @p len, or NULL @p buf with @p capacity > 0;
 *         ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_OUT_OF_MEMORY (jansson could not allocate);
 *         ::STPETE_E_REENTRANT from inside the state's own event callback (nothing written, @p len untouched).
 */
STPETE_API int stpete_state_to_json(const stpete_state *state, char *buf, size_t capacity, size_t *len);

/**
 * Serialize what one seat may know (§9), or what a spectator may know (::STPETE_VIEW_PUBLIC), written from the
 * library's one definition of a seat's knowledge. The same schema as stpete_state_to_json() (doc/format.md,
 * doc/stpete.schema.json) with secrets replaced by `null`: the PRNG and the order of every stack (sizes stay);
 * other players' rubles unless the game's `public_rubles` option is set; each hand card the viewer has not seen,
 * unless `public_hands` is set (a card seen taken from the board or after an Observatory draw, §7.1, is shown by
 * name: in a game played from its start, every card; hand sizes and each card's back, i.e. the stack it comes from,
 * stay). Each player's `known_rubles` is that purse as the viewer knows it: shown, or recalled when
 * `rubles_recalled` is true (§9, perfect recall), else `null`; a front end for people shows `rubles` (doc/format.md,
 * section Views). A seat's view also carries its information-state key, computed from exactly what the view
 * carries: two positions give the seat equal views exactly when they give it equal keys, and guessing hidden items
 * against the key finds nothing the view does not show. Such a view cannot be loaded as a playable state
 * (stpete_state_from_json() returns ::STPETE_E_REDACTED).
 * @param state the state
 * @param seat  the viewing seat in [0, players), or ::STPETE_VIEW_PUBLIC
 * @param buf   caller's buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity bytes available in @p buf
 * @param len   receives the JSON length in bytes, without the NUL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a seat out of range;
 *         ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_state_view_to_json(const stpete_state *state, int seat, char *buf, size_t capacity,
                                         size_t *len);

/** Version of the table document (its `table_version`, doc/format.md, section Table document), its own, independent of
 * ::STPETE_FORMAT_VERSION. Since 1.2. */
#define STPETE_TABLE_VERSION 1
/** Flag of stpete_state_table_to_json(): write the game's card table (`cards`, with each card's text,
 * stpete_game_card_text()); without it `cards` is null (a front end keeps the first one). */
#define STPETE_TABLE_CARDS 1u
/** Flag of stpete_state_table_to_json(): a document for a person at a table, whose view leaves out each player's
 * `known_rubles` and the `information_state_key` (doc/format.md, section Views: what a screen for people may drop). */
#define STPETE_TABLE_PERSON 2u

/**
 * The table document of a seat (or of spectators, ::STPETE_VIEW_PUBLIC): everything a table UI draws, so that a
 * front end renders and computes no rule fact (doc/format.md, section Table document, and doc/stpete.schema.json): the
 * seat's view (stpete_state_view_to_json(), §9), its legal actions with their fields, texts and prices
 * (stpete_state_legal_actions(), stpete_action_decode(), stpete_action_to_string(), stpete_state_action_price()),
 * its offers (stpete_state_offers()), every seat's incomes (stpete_state_income(), stpete_state_next_scoring()),
 * hand limits (§7.3), the gold disc (§12.3), the cards discarded last (stpete_state_last_discards()), each seat's
 * last move, the log of the history in words (stpete_event_to_string() without the state: public lines) from entry
 * @p since on, the result once over (§8) and, with ::STPETE_TABLE_CARDS, the card table with each card's text. A
 * spectator's document has no offers. Written, never read (like a view). Time linear in the history's length (it
 * replays the history from its root, as stpete_state_last_discards()). Since 1.2.
 * @param state    the state
 * @param seat     the viewing seat in [0, players), or ::STPETE_VIEW_PUBLIC
 * @param since    the log entries already known to the reader: the document's `log` holds those numbered above it
 *                 (0: the whole log); `log_size` says how many there are
 * @param flags    0, or ::STPETE_TABLE_CARDS and ::STPETE_TABLE_PERSON or'ed
 * @param buf      caller's buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity bytes available in @p buf
 * @param len      receives the JSON length in bytes, without the NUL (also when the buffer is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL, a seat out of range, a negative @p since or an unknown
 *         flag; ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_state_table_to_json(const stpete_state *state, int seat, int since, unsigned flags, char *buf,
                                          size_t capacity, size_t *len);

/**
 * Create the game described by the `"options"` of a serialized state or replay record (step one of loading;
 * step two is stpete_state_from_json()).
 * @param json  the text, @p len bytes
 * @param len   bytes of @p json
 * @param alloc allocator for the game and its states (copied), or NULL for the C library's
 * @param out   receives a new game owned by the caller (free with stpete_game_free()); NULL on failure
 * @param err   receives the status, the reason of a failure and where (line, column, byte), or NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p out or @p json, or a partial allocator;
 *         ::STPETE_E_TOO_LARGE for more than ::STPETE_JSON_REPLAY_MAX bytes; ::STPETE_E_PARSE for invalid JSON or
 *         a missing, mistyped or unknown key; ::STPETE_E_UNSUPPORTED_VERSION for a `format_version` newer than
 *         ::STPETE_FORMAT_VERSION; ::STPETE_E_INCONSISTENT for options out of range (players outside 2..4, bad
 *         markers, §3); ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_game_from_json(const char *json, size_t len, const stpete_allocator *alloc, stpete_game **out,
                                     stpete_error *err);

/**
 * Load a full state written by stpete_state_to_json(). Every field is checked against the rules before anything
 * is built: each of the 116 cards in exactly one place with its type's number of copies (§2), cards in the right
 * stack, at most 8 cards on the board (§4.5), hands of at most 4 cards (§7.3), rubles in [0, ::STPETE_RUBLES_MAX],
 * VP in [−::STPETE_VP_MAX, ::STPETE_VP_MAX], markers held 1 or 2 per seat (§3), Observatories used ≤ owned
 * (§7.1), a decision that matches the phase, the drawn card and the progress of the Pub step (§7.1, §7.2), the
 * final round exactly when a stack is empty (§4.6), and a finished game only after the final round's trading
 * phase (§8). The full list is in doc/format.md. Any state that loads plays on to the end, and every position on
 * the way saves and loads again.
 * @param game the game (from stpete_game_from_json() or with the same options); must outlive the state
 * @param json the text, @p len bytes
 * @param len  bytes of @p json
 * @param out  receives a new state of @p game owned by the caller (free with stpete_state_free()); NULL on failure
 * @param err  receives the status, the reason of a failure and where (line, column, byte), or NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_TOO_LARGE for more than
 *         ::STPETE_JSON_STATE_MAX bytes; ::STPETE_E_PARSE for invalid JSON or a missing, mistyped or unknown key;
 *         ::STPETE_E_UNSUPPORTED_VERSION; ::STPETE_E_REDACTED for a per-seat or public view;
 *         ::STPETE_E_MISMATCH if the options differ from @p game's (the allocator and seed aside);
 *         ::STPETE_E_INCONSISTENT for a position that breaks the rules; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_state_from_json(const stpete_game *game, const char *json, size_t len, stpete_state **out,
                                      stpete_error *err);

/**
 * Write a replay record: the game's options with @p seed, the actions (id and string each) and the result
 * reached (VP per seat, winners if the game is over, §8). Each action is checked by replaying it from the initial
 * position of @p seed, so only legal records are written.
 * @param game      the game (its options; its own seed is replaced by @p seed)
 * @param seed      the seed the game was started with (stpete_state_new() uses the options' seed,
 *                  stpete_state_reset() its argument)
 * @param actions   @p count action ids in the order applied (caller-owned)
 * @param count     number of actions
 * @param buf       caller's buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity  bytes available in @p buf
 * @param len       receives the JSON length in bytes, without the NUL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL (@p actions may be NULL when @p count is 0);
 *         ::STPETE_E_ILLEGAL_ACTION if an action is not legal where it is applied (nothing written);
 *         ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_replay_to_json(const stpete_game *game, uint64_t seed, const int *actions, size_t count,
                                     char *buf, size_t capacity, size_t *len);

/**
 * Read and verify a replay record (§3 setup from its seed, then each action checked against the rules as by
 * stpete_state_apply(), the result against §8): create its game (options and seed: stpete_state_new() on it
 * gives the initial position) and return its actions. Every action is replayed: its id must be legal where it is
 * applied, its string (if present) must name the same action, and the recorded result must be the one reached.
 * To learn the number of actions first, pass @p actions NULL and @p capacity 0: the return is then
 * ::STPETE_E_BUFFER_TOO_SMALL with `*count` set and no game created.
 * @param json     the text, @p len bytes
 * @param len      bytes of @p json
 * @param alloc    allocator for the game (copied), or NULL for the C library's
 * @param game_out receives a new game owned by the caller; NULL on failure
 * @param actions  caller's array of @p capacity ids, or NULL with @p capacity 0
 * @param capacity capacity of @p actions
 * @param count    receives the number of actions in the record: after success, with ::STPETE_E_BUFFER_TOO_SMALL,
 *                 and after any failure that comes once the action list was read (else unchanged)
 * @param err      receives the status and the reason of a failure, or NULL (for an illegal action: its index
 *                 and why)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_TOO_LARGE for more than
 *         ::STPETE_JSON_REPLAY_MAX bytes or more actions than stpete_game_max_length(); ::STPETE_E_PARSE;
 *         ::STPETE_E_UNSUPPORTED_VERSION; ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_INCONSISTENT for options that
 *         break §3, an illegal action, a string naming another action, or a recorded result that differs;
 *         ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_replay_from_json(const char *json, size_t len, const stpete_allocator *alloc,
                                       stpete_game **game_out, int *actions, size_t capacity, size_t *count,
                                       stpete_error *err);

/* ---- results files ------------------------------------------------------------------------------ */

/** Bytes of a results file's definition hash with its NUL: 16 lowercase hex digits (stpete_results_hash()). */
#define STPETE_RESULTS_HASH_SIZE 17
/** Largest game number of a results file (2^53 - 1: exact in every JSON reader, JavaScript's included). */
#define STPETE_RESULTS_GAME_MAX 9007199254740991

/**
 * The hash of a run's definition, which names the run in its results file (doc/format.md, "Results files"): 16
 * lowercase hex digits, FNV-1a (64 bits) of the definition's canonical text (compact JSON, keys sorted), so that
 * the same definition written in another key order or spacing has the same hash. @norule
 * @param definition the run's definition: a JSON object (text, NUL-terminated) of what decides each game's play
 *                   (the program's choice: players, options, seed, bots, ...)
 * @param buf        caller's buffer of @p capacity bytes (::STPETE_RESULTS_HASH_SIZE suffice), or NULL with
 *                   @p capacity 0
 * @param capacity   bytes available in @p buf
 * @param len        receives the hash's length in bytes (16), without the NUL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if @p definition is not a JSON
 *         object; ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_results_hash(const char *definition, char *buf, size_t capacity, size_t *len);

/**
 * Write the header line of a results file (doc/format.md, "Results files"): the resumable record of a batch of
 * games, one JSON object per line, that stpete-arena `--out` and `python3 -m stpete.experiment --out` write. It
 * names the format (`"stpete-results"`, version 1), the program, this library's version, and the run's
 * definition with its hash (stpete_results_hash()). One line: no newline inside, none at the end (the caller
 * appends it). @norule
 * @param program    the program that writes the file, e.g. `"stpete-arena"` (NUL-terminated)
 * @param definition the run's definition, a JSON object (text, NUL-terminated); written in canonical form
 * @param buf        caller's buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity   bytes available in @p buf
 * @param len        receives the line's length in bytes, without the NUL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_PARSE if @p definition is not a JSON
 *         object; ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_results_header_to_json(const char *program, const char *definition, char *buf,
                                             size_t capacity, size_t *len);

/**
 * Write a game line of a results file (doc/format.md, "Results files"): the game's number in the run, the
 * definition's hash, the game's replay record (as stpete_replay_to_json() writes it, without the actions'
 * strings: the options with @p seed, the actions, the result they reach, §8) and the program's own @p fields.
 * Every action is checked by replaying it from the §3 setup of @p seed, so only legal games are written; a game
 * need not be finished (a program may stop one, e.g. on a forfeit). One line, no newline (the caller appends it).
 * stpete_results_read_line() reads it back.
 * @param game       the game (its options; its own seed is replaced by @p seed)
 * @param definition the run's definition, a JSON object (text): the line carries its hash
 * @param number     the game's number in the run, in [0, ::STPETE_RESULTS_GAME_MAX]
 * @param seed       the seed the game was started with (stpete_state_reset()'s argument)
 * @param actions    @p count action ids in the order applied (caller-owned)
 * @param count      number of actions
 * @param fields     the program's data of the game: a JSON object on one line (text), written as given
 * @param buf        caller's buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity   bytes available in @p buf
 * @param len        receives the line's length in bytes, without the NUL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL (@p actions may be NULL when @p count is 0) or a
 *         number out of range; ::STPETE_E_PARSE if @p definition is not a JSON object or @p fields not one on one line;
 *         ::STPETE_E_ILLEGAL_ACTION if an action is not legal where it is applied (nothing written);
 *         ::STPETE_E_BUFFER_TOO_SMALL; ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_results_game_to_json(const stpete_game *game, const char *definition, long long number,
                                           uint64_t seed, const int *actions, size_t count, const char *fields,
                                           char *buf, size_t capacity, size_t *len);

/**
 * Read and check one line of a results file written for @p program and @p definition (doc/format.md, "Results
 * files"). The header must name the format's version 1, @p program and @p definition (its canonical text, and
 * the hash of it); `*number` is then -1. A game line must carry the definition's hash, a number and an object of
 * fields, and a replay record of a game with @p game's rules (the seed aside), which is replayed as
 * stpete_replay_from_json() replays one (§3 setup from its seed, every action legal where it is applied, the
 * recorded result the one reached, §8): the line proves its result, a program takes it from @p state and never
 * from the line. On success @p state holds the game's last position, reached from stpete_state_reset() with the
 * record's seed (its history is the record's actions; no event is reported), and `*number`, `*seed` and the
 * fields are set. On failure nothing is written and @p state is unchanged.
 * @param game       the run's game (its rules)
 * @param program    the program the file must be of, e.g. `"stpete-arena"`
 * @param definition the run's definition, a JSON object (text)
 * @param line       the line, @p len bytes (a newline at its end, if any, is ignored)
 * @param len        bytes of @p line, at most ::STPETE_JSON_REPLAY_MAX
 * @param state      a state of @p game: receives the game's last position (game lines)
 * @param number     receives the game's number, or -1 for the header
 * @param seed       receives the record's seed (0 for the header)
 * @param fields     caller's buffer of @p capacity bytes for the game's fields (compact JSON text, NUL-terminated;
 *                   "" for the header), or NULL with @p capacity 0 for the header
 * @param capacity   bytes available in @p fields
 * @param fields_len receives the fields' length in bytes (0 for the header), also with ::STPETE_E_BUFFER_TOO_SMALL
 * @param err        receives the status and the reason of a failure (for syntax errors the line, column and byte
 *                   position), or NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_TOO_LARGE for a line longer than
 *         ::STPETE_JSON_REPLAY_MAX or a record with more actions than stpete_game_max_length(); ::STPETE_E_PARSE
 *         for invalid JSON, a missing, mistyped or unknown key, or a definition that is not a JSON object;
 *         ::STPETE_E_UNSUPPORTED_VERSION for another version of the format or of the record; ::STPETE_E_MISMATCH
 *         for a header of another program or definition, a line of another definition's hash, or a record of
 *         other rules; ::STPETE_E_INCONSISTENT for a header whose hash is not its definition's, or a record with
 *         an illegal action, a string naming another action or a recorded result that differs;
 *         ::STPETE_E_BUFFER_TOO_SMALL if the fields do not fit (`*fields_len` set); ::STPETE_E_ILLEGAL_ACTION,
 *         ::STPETE_E_REENTRANT or ::STPETE_E_GAME_OVER only for a @p state that cannot take the position (inside
 *         its own callback); ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_results_read_line(const stpete_game *game, const char *program, const char *definition,
                                        const char *line, size_t len, stpete_state *state, long long *number,
                                        uint64_t *seed, char *fields, size_t capacity, size_t *fields_len,
                                        stpete_error *err);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup hidden Hidden information
 * What each seat may know (§9), for search and learning: determinization. Per-seat views as JSON are in
 * @ref json (stpete_state_view_to_json()). */
/** @{ */

/** Flag of stpete_state_determinize(): also replace the rubles of every other seat when rubles are secret (the
 * game's public_rubles option off, §9). */
#define STPETE_DETERMINIZE_RUBLES 1u

/**
 * Determinization for search bots (§9; OpenSpiel `ResampleFromInfostate`): replace, in place, everything
 * @p seat cannot know by a uniformly random draw consistent with what it does know, with perfect recall. Redrawn:
 * the order of every stack, and the identity of the other players' hand cards that the seat has not seen (a card
 * taken from the board or from an Observatory draw was seen by all, §7.1 and §9, and stays known; unseen ones come
 * only from positions loaded with `hand_known` false, doc/format.md; none with the `public_hands` option). Kept:
 * everything public (board, displays, VP, stack sizes, discard pile, markers, the Observatory card, hand sizes and
 * the back of each hand card, that is the stack it comes from, §9), every hand card the seat knows, and every amount
 * of rubles it knows (its own; all with `public_rubles`; all in a position reached by play, where a player who
 * remembers the public actions knows them: `rubles_recalled` in doc/format.md). Rubles it does not know (another
 * seat's secret rubles in a position loaded without `rubles_recalled`) are set to its own amount, so nothing secret
 * to the seat decides the result. Each stack still holds only its own kind of card (§2) and the 116 cards stay in
 * place. Afterwards the seat's view (stpete_state_view_to_json()), observation tensor and string and information
 * state key and string are what they were. The state's
 * PRNG is reseeded from @p seed, and its history begins again (stpete_state_history()): the past of a
 * determinization did not happen. In explicit-chance mode the stacks have no order and only unseen hand cards are
 * redrawn.
 *
 * With ::STPETE_DETERMINIZE_RUBLES also the rubles of every other seat when rubles are secret (§9) are redrawn,
 * each set to the rubles of @p seat, the one amount it sees (a simple model: a bot that must not use what its
 * observation hides plays against opponents as rich as itself). With this flag a bot's determinizations depend on
 * nothing its observation hides; without it they keep the rubles the seat knows by perfect recall of the public
 * actions (in a position loaded without `rubles_recalled` both set the unknown ones to the seat's own). With the
 * flag the seat's observation and view rubles stay as they were, but in a position where it recalls the rubles it
 * replaced its information-state key and string change (it could tell the result apart).
 *
 * Typical use (information-set Monte Carlo): clone the real state, determinize the clone for the bot's seat, play
 * out, repeat with other seeds.
 * @param state the state (modified)
 * @param seat  the seat whose knowledge is kept, in [0, players)
 * @param seed  seed of the draw: the same state, seat, seed and flags give the same result on every platform;
 *              so do two states the seat cannot tell apart (equal information-state keys): the draw depends on
 *              what the seat knows, not on the secrets it replaces
 * @param flags 0 or ::STPETE_DETERMINIZE_RUBLES
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for a NULL state, a seat out of range or an unknown flag (state
 *         unchanged); ::STPETE_E_REENTRANT inside an event callback.
 */
STPETE_API int stpete_state_determinize(stpete_state *state, int seat, uint64_t seed, unsigned flags);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup search Search and learning
 * What search and learning frameworks expect of a game, in OpenSpiel's vocabulary (`spiel.h`): chance outcomes
 * (`ChanceOutcomes`), returns (`Returns`), observations (`ObservationTensor`, `ObservationString`), information
 * states (`InformationStateString`), history (`History`) and undo (`UndoAction`).
 *
 * Game type, as OpenSpiel's `GameType` names it: sequential dynamics, imperfect information, stochastic (explicit
 * chance in ::STPETE_CHANCE_EXPLICIT mode, sampled in the default mode), constant-sum utility (the returns add up to
 * 1), terminal rewards only, 2–4 players, perfect recall for the information state.
 *
 * Chance outcome ids live in their own range after the player actions, [::STPETE_CHANCE_CARD_FIRST,
 * ::STPETE_CHANCE_CARD_FIRST + ::STPETE_NUM_CHANCE_OUTCOMES): ::STPETE_CHANCE_CARD_FIRST + card says that the card
 * dealt (or drawn by an Observatory) is of this type; ::STPETE_CHANCE_MARKERS_FIRST + m0 + 4·m1 + 16·m2 + 64·m3 says
 * that the start-player markers of the worker, building, aristocrat and trading phases go to seats m0..m3 (§3.3).
 * OpenSpiel's `MaxChanceOutcomes` is ::STPETE_NUM_CHANCE_OUTCOMES (outcome k = id − ::STPETE_CHANCE_CARD_FIRST).
 * At a chance node stpete_state_legal_actions() lists the outcome ids and stpete_state_apply() applies one. */
/** @{ */

/** First chance outcome id, right after the player actions: ::STPETE_CHANCE_CARD_FIRST + card type. */
#define STPETE_CHANCE_CARD_FIRST STPETE_NUM_DISTINCT_ACTIONS
/** First start-player marker outcome id: ::STPETE_CHANCE_MARKERS_FIRST + m0 + 4·m1 + 16·m2 + 64·m3 (§3.3). */
#define STPETE_CHANCE_MARKERS_FIRST (STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CARD_TYPES)
/** Number of distinct chance outcome ids (OpenSpiel's `MaxChanceOutcomes`): 49 card types + 256 marker codes. */
#define STPETE_NUM_CHANCE_OUTCOMES (STPETE_NUM_CARD_TYPES + 256)
/** The New Society's chance outcomes (§12), after its player actions:
 * ::STPETE_NS_CHANCE_CARD_FIRST + k says that the card dealt or drawn is card type 49 + k (the 13 new types; the
 * base types keep ::STPETE_CHANCE_CARD_FIRST + card). */
#define STPETE_NS_CHANCE_CARD_FIRST STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY
/** With 5 players (§12.3, R18): ::STPETE_NS_CHANCE_MARKERS_FIRST + m0 + 5·m1 + 25·m2 + 125·m3 says that the four
 * phase markers go to seats m0..m3, four distinct seats, and the fifth seat gets the gold disc (120 deals). */
#define STPETE_NS_CHANCE_MARKERS_FIRST (STPETE_NS_CHANCE_CARD_FIRST + 13)
/** One past the last id of a game with the New Society (chance outcomes included): 2826. */
#define STPETE_NS_ID_END (STPETE_NS_CHANCE_MARKERS_FIRST + 625)

/**
 * The outcomes of the random event pending at a chance node, with their exact probabilities (OpenSpiel
 * `ChanceOutcomes`), ids ascending: a card dealt (§4.5) or drawn by an Observatory (§7.1) is each card type the
 * stack holds, with probability copies left / cards left; the random start-player markers (§3.3) are every deal
 * the rule allows, uniformly (24, 36 and 6 of them for 4, 3 and 2 players). Empty (count 0) at a player's decision,
 * at the end, and always in sampled mode. Does not allocate.
 * @param state         the state
 * @param outcomes      caller buffer of @p capacity outcome ids (::STPETE_MAX_LEGAL_ACTIONS always suffices;
 *                      ::STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY with the New Society, §12: its 120 marker deals);
 *                      may be NULL if @p capacity is 0
 * @param probabilities caller buffer of @p capacity probabilities in (0, 1], adding up to 1; may be NULL
 * @param capacity      capacity of the buffers
 * @param count         receives the number of outcomes (also when the buffers are too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p state or @p count, or NULL @p outcomes with
 *         @p capacity > 0; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_chance_outcomes(const stpete_state *state, int *outcomes, double *probabilities,
                                            size_t capacity, size_t *count);

/**
 * Returns of the game (OpenSpiel `Returns`): at the end each of the k winners (§8, R14: a shared win when still
 * tied) gets 1/k and the others 0, so they add up to 1 (constant-sum); before the end all 0 (this game has no
 * intermediate rewards).
 * @param state the state
 * @param out   caller buffer of @p capacity doubles; receives one return per seat
 * @param capacity capacity of @p out: at least the number of players
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_BUFFER_TOO_SMALL if @p capacity is below the
 *         number of players.
 */
STPETE_API int stpete_state_returns(const stpete_state *state, double *out, size_t capacity);

/**
 * Number of elements of an observation tensor of this game (OpenSpiel `ObservationTensorShape`, a flat vector):
 * what §9 lets a seat know, laid out element by element in doc/observation.md, with room for 4 seats whatever the
 * number of players: 668 floats; with the New Society (§12, §12.9) 972, with room for 5 seats, its 62 card types
 * and each seat's Debtor's Prison.
 * @param game the game
 * @return the size in floats (668 or 972); ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_game_observation_tensor_size(const stpete_game *game);

/**
 * What one seat may know now, as a fixed-layout vector of floats from its point of view (OpenSpiel
 * `ObservationTensor`; layout in doc/observation.md): exactly the information §9 gives that seat — the board, every
 * display, VP, stack sizes, the discard pile, markers, phase, round, decision, passes, the Observatory card, hand
 * sizes and backs, its own hand and rubles, other seats' rubles only with the public_rubles option, and the hand
 * cards of others whose identity it knows (taken in view of all, §9, or with public_hands). Neither the order of a
 * stack nor anything else secret to the seat changes it. Does not allocate.
 * @param state the state
 * @param seat  the observing seat in [0, players)
 * @param out   caller buffer of @p capacity floats
 * @param capacity capacity of @p out: at least stpete_game_observation_tensor_size()
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a seat out of range; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_observation_tensor(const stpete_state *state, int seat, float *out, size_t capacity);

/**
 * The same information as stpete_state_observation_tensor(), as readable text (OpenSpiel `ObservationString`): one
 * line per item, each secret of §9 shown as a question mark. The output functions' conventions of @ref json apply
 * (NUL-terminated; ::STPETE_E_BUFFER_TOO_SMALL with the length needed).
 * @param state the state
 * @param seat  the observing seat in [0, players)
 * @param buf   caller buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity bytes available in @p buf
 * @param len   receives the text's length in bytes, without the NUL (also when the buffer is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a seat out of range; ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_observation_string(const stpete_state *state, int seat, char *buf, size_t capacity,
                                               size_t *len);

/**
 * The information state of a seat with perfect recall, as text (OpenSpiel `InformationStateString`): everything the
 * seat has seen — the public history of the game since its start (every action, every card dealt or drawn, the
 * marker deal: all public, §9), summarised by its hash, which the key also shows — followed by the observation
 * string and a line of the rubles the seat knows by perfect recall but does not see (doc/observation.md).
 * Written from the library's one definition of what the seat knows. Two positions give the same text exactly when
 * they give the same key
 * (stpete_state_information_state_key()); the actions themselves are in stpete_state_history(). Conventions of the
 * output functions of @ref json.
 * @param state the state
 * @param seat  the seat in [0, players)
 * @param buf   caller buffer of @p capacity bytes, or NULL with @p capacity 0
 * @param capacity bytes available in @p buf
 * @param len   receives the text's length in bytes, without the NUL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a seat out of range; ::STPETE_E_BUFFER_TOO_SMALL;
 *         ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_state_information_state_string(const stpete_state *state, int seat, char *buf, size_t capacity,
                                                     size_t *len);

/**
 * A 64-bit key of a seat's information state with perfect recall: a hash of everything the seat knows (the library's
 * one definition of it, which the views, the observation and determinization also read: the public history hash
 * — every action, every card dealt or drawn and the marker deal, §9 — and the position as the seat sees and
 * remembers it). Equal for two positions exactly when they give the seat equal views, observations and
 * information-state strings, for loaded positions too, except for hash collisions; in play, exactly when they have
 * the same public history. The hash is documented in doc/observation.md and the same on every platform; it
 * survives save and load (JSON) and copies, and ignores what stpete_state_determinize() redraws. Does not allocate.
 * @param state the state
 * @param seat  the seat in [0, players)
 * @param key   receives the key
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or a seat out of range.
 */
STPETE_API int stpete_state_information_state_key(const stpete_state *state, int seat, uint64_t *key);

/**
 * The actions applied since the state's history began (OpenSpiel `History`), oldest first, chance outcomes included
 * in explicit-chance mode: the actions of §4.2, §7.1 and §7.2 as they were taken. The history begins at the
 * state's creation (stpete_state_new(), stpete_state_reset()),
 * and again where a position was put in without its past: stpete_state_from_json(), stpete_state_copy() into it,
 * stpete_state_determinize() (the past of a determinization did not happen). stpete_state_clone() copies it.
 * @param state the state
 * @param ids   caller buffer of @p capacity ids; may be NULL if capacity is 0
 * @param capacity capacity of @p ids
 * @param count receives the number of actions in the history (also when the buffer is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p state or @p count, or NULL @p ids with @p capacity > 0;
 *         ::STPETE_E_BUFFER_TOO_SMALL.
 */
STPETE_API int stpete_state_history(const stpete_state *state, int *ids, size_t capacity, size_t *count);

/**
 * Take back the last action of the history (OpenSpiel `UndoAction`): afterwards the state equals what it was
 * before that action, by stpete_state_equal() and by stpete_state_to_json() bytes, with its PRNG. Reports
 * ::STPETE_EVENT_UNDO (amount = the id undone). Does not allocate. It restores the nearest checkpoint the history
 * keeps (one every 16 actions) and replays the actions after it, without events: under a microsecond at any depth.
 * It replays the rules (§4-§8) up to the position before the last action.
 * @param state the state
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL or when the history is empty (the state is at the start
 *         of its history: nothing to undo; the state is unchanged); ::STPETE_E_REENTRANT inside an event callback;
 *         ::STPETE_E_OUT_OF_MEMORY if the event queue could not grow (the state is unchanged).
 */
STPETE_API int stpete_state_undo(stpete_state *state);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup library Library
 * Version and status names. */
/** @{ */

/**
 * Name of a status code. @norule
 * @param status a status
 * @return a static string (never NULL, not to be freed), e.g. "illegal action"; "unknown status" for an unknown
 *         code. Never fails.
 */
STPETE_API const char *stpete_strerror(int status);

/**
 * Run-time library version. @norule
 * @return a static string "MAJOR.MINOR.PATCH" (not to be freed); never fails.
 */
STPETE_API const char *stpete_version(void);

/**
 * Run-time library version as a number (MAJOR * 10000 + MINOR * 100 + PATCH), for ::STPETE_VERSION_NUMBER checks.
 * @norule
 * @return the number; never fails.
 */
STPETE_API int stpete_version_number(void);
/** @} */

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup inline Expression helpers (static inline, no ABI)
 * The predicates answer through an `int *` and return a status, so that an error never reads as a yes; a caller who
 * wants the answer inside an expression (a loop condition, an assertion) chooses what an error reads as. These
 * helpers are that one wrapper, compiled into the caller (no exported symbol, no ABI cost), so that no front end,
 * tool or test writes its own. */
/** @{ */

/**
 * stpete_state_is_terminal() inside an expression. @norule
 * @param state the state (may be NULL: an error)
 * @param on_error what a failed call reads as (1 ends a `while (!...)` loop on an error, as the end would)
 * @return 1 if the game is over, 0 if not, @p on_error if stpete_state_is_terminal() failed.
 */
static inline int stpete_state_is_terminal_or(const stpete_state *state, int on_error)
{
    int v = 0;
    return stpete_state_is_terminal(state, &v) == STPETE_OK ? v : on_error;
}

/**
 * stpete_state_is_final_round() inside an expression. @norule
 * @param state the state (may be NULL: an error)
 * @param on_error what a failed call reads as
 * @return 1 if this is the final round (§8), 0 if not, @p on_error if stpete_state_is_final_round() failed.
 */
static inline int stpete_state_is_final_round_or(const stpete_state *state, int on_error)
{
    int v = 0;
    return stpete_state_is_final_round(state, &v) == STPETE_OK ? v : on_error;
}

/**
 * stpete_state_is_legal() inside an expression. @norule
 * @param state the state (may be NULL: an error)
 * @param id an action id or chance outcome id
 * @param on_error what a failed call reads as
 * @return 1 if @p id is legal now, 0 if not, @p on_error if stpete_state_is_legal() failed.
 */
static inline int stpete_state_is_legal_or(const stpete_state *state, int id, int on_error)
{
    int v = 0;
    return stpete_state_is_legal(state, id, &v) == STPETE_OK ? v : on_error;
}

/**
 * stpete_state_equal() inside an expression. @norule
 * @param a a state (may be NULL: an error)
 * @param b a state of the same game (may be NULL: an error)
 * @param on_error what a failed call reads as
 * @return 1 if the positions are equal, 0 if not, @p on_error if stpete_state_equal() failed.
 */
static inline int stpete_state_equal_or(const stpete_state *a, const stpete_state *b, int on_error)
{
    int v = 0;
    return stpete_state_equal(a, b, &v) == STPETE_OK ? v : on_error;
}

/**
 * A card's printed name in an edition, inside an expression (stpete_card_get_info()). @norule
 * @param edition ::STPETE_EDITION_FIRST or ::STPETE_EDITION_SECOND (§11), e.g. stpete_game_edition(game)
 * @param card a card type
 * @param fallback what an out-of-range card or edition reads as (e.g. a question mark, or NULL)
 * @return the static name (not to be freed), or @p fallback.
 */
static inline const char *stpete_card_name_or(int edition, int card, const char *fallback)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    return stpete_card_get_info(edition, card, &info) == STPETE_OK ? info.name : fallback;
}

/**
 * A card's stack (§1; stpete_card_info::stack, the same in both editions) inside an expression. @norule
 * @param card a card type
 * @param on_error what an out-of-range card reads as
 * @return a ::stpete_stack, or @p on_error.
 */
static inline int stpete_card_stack_or(int card, int on_error)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    return stpete_card_get_info(STPETE_EDITION_FIRST, card, &info) == STPETE_OK ? info.stack : on_error;
}
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* STPETE_STPETE_H */
