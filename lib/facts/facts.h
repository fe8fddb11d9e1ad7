/* Internal declarations of libstpete, lowest layer (lib/facts/): the facts that need no position. Not installed.
 *
 * lib/ has one folder per layer; each calls only the layers below it, and each file includes the header of its own
 * layer, which includes the one below (doc/development.md draws the tree):
 *   json/    json.h: the JSON documents (jansson): write.c (states, views), read.c (parsing only), replay.c (replay
 *            records)
 *   api/     api.h: the handles and their entry points: state.c (states, checked entry points, queries), game.c
 *            (options, games), openspiel.c (chance outcomes, returns, observations, information states, history,
 *            undo, determinize), listeners.c (a state's callback and event queue), history.c (a state's history
 *            and checkpoints), event_text.c (the log line of an event)
 *   engine/  engine.h: the game on a plain position (stpete_core, no pointers, no handle): rules.c (setup, apply,
 *            phase flow), legal.c (listing, check), validate.c (a position's invariants), knowledge.c (what a seat
 *            knows, §9, and determinization), observation.c (the observation tensor and text), price.c, scoring.c,
 *            the inline rule facts and the event sink
 *   facts/   facts.h: cards.c (the §2 and §11 tables), actions.c (the action encoding and strings), names.c (the
 *            words of the formats), rng.c (PCG32), conventions.c (caller-sized structs, stpete_error details);
 *            allocation
 *   bots/    above the public API: stpete/stpete.h and stpete/bots.h only, never an internal header
 * tests/check-layers.py reads the layers from the folders and checks that no file calls a higher layer or includes
 * another layer's header, and that no two files call each other in a circle. The engine never sees a handle: it
 * works on a stpete_core and reports events to a stpete_sink it is given. */
#ifndef STPETE_FACTS_H
#define STPETE_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stpete/stpete.h"

/* ---- allocation through a game's allocator (stpete_options.allocator; all NULL = the C library's) ------ */

static inline void *stpete_malloc(const stpete_allocator *al, size_t size)
{
    return al->malloc_fn ? al->malloc_fn(al->user, size) : malloc(size);
}

static inline void *stpete_realloc(const stpete_allocator *al, void *ptr, size_t size)
{
    return al->realloc_fn ? al->realloc_fn(al->user, ptr, size) : realloc(ptr, size);
}

static inline void stpete_free(const stpete_allocator *al, void *ptr)
{
    if (!ptr)
        return;
    if (al->free_fn)
        al->free_fn(al->user, ptr);
    else
        free(ptr);
}

/* ---- cards.c: the §2 card table (data, not code) ---------------------------------------------- */

/* Per card type: everything the rules read. */
typedef struct card_def {
    const char *name;
    uint8_t name_len; /* strlen(name) */
    uint8_t colour;   /* enum stpete_colour */
    uint8_t stack;    /* enum stpete_stack: the stack it is dealt from and the back it shows (§1, §2) */
    uint8_t trading;  /* 1 for §2.4 */
    uint8_t cost;     /* printed cost, R */
    int8_t rubles;    /* income R (the Sycophant's is -1, §12.7.9) */
    uint8_t vp;       /* income VP */
    uint8_t copies;
    int8_t ware;      /* worker type of the ware, or -1 */
    uint8_t special;  /* enum stpete_special */
    uint8_t value;    /* what it is worth when a trading card displaces it (§5.2): its cost, 6 for Potjomkin's
                         Village (§7.4, R7) */
    uint8_t weaving;  /* the weaving symbol (§12.7.8, R29): WEAVING_ALWAYS, WEAVING_BY_DEFAULT or 0 */
    uint64_t targets; /* trading cards: bit t set for each card type t it may displace (§6.2, R8, §12.6, R28);
                         else 0 */
} card_def;

/* card_def.weaving: counted by the Textile Factory always (Shepherd, Weaving Mill, Czar and Carpenter), or unless
 * the option textile_without_new_society says otherwise (the New Society, R29). */
enum { WEAVING_ALWAYS = 1, WEAVING_BY_DEFAULT = 2 };

/* Card types of any game: the 49 of the base game, then the 13 of the New Society (§12.2.3); displays and discard
 * piles are arrays of DISPLAY_CAP bytes (whole words for the masks, the last two always 0). */
enum { CARD_TYPES_ALL = STPETE_NUM_CARD_TYPES_NEW_SOCIETY, DISPLAY_CAP = 64, NUM_NEW_CARDS = 13 };

/* The card table of each edition: [0] the first (2004, §2), [1] the second-edition preset (2014, §11), which
 * changes four costs, the Mariinsky Theater's income and four names. Colours, copies, incomes of the other cards,
 * wares and targets are the same in both. */
extern const card_def stpete_card_tables[3][CARD_TYPES_ALL];
/* [2] is the New Society's (§12.2: the first edition with five card types replaced, extra copies and 13 new card
 * types). In tables [0] and [1] the 13 new types have 0 copies. Table index of a game: edition - 1 + 2 new_society
 * (stpete_cards_of() in engine.h). */
/* A card's facts that no edition changes (colour, stack, trading, ware, special, targets: §11 changes none), where
 * no game is at hand (the action encoding, a card's stack): the New Society's row, whose targets are the union of
 * every game's (§6.2, §12.6) and which describes the 13 new types too. Never its name, cost, incomes, value or
 * copies: those are the game's, through its own table (stpete_cards_of() in engine.h); tests/check-layers.py
 * refuses them here. */
static inline const card_def *stpete_shared_card(int card)
{
    return &stpete_card_tables[2][card];
}
/* Each card type's income at its colour's scoring (§2, §4.4) packed in one int32: rubles + 65536 * VP, for the phase
 * income's loop (one load and one multiply per type; lib/engine/scoring.c). stpete_card_income[e] is
 * stpete_card_tables[e]'s rubles and vp, built from the same rows (cards.c); 0 past the types. A sum of packed
 * incomes unpacks with stpete_income_rubles/vp while its rubles are in (-32768, 32768) and its VP in [0, 32768): a
 * display's 144 cards at most earn 6 R or 9 VP each. */
#define STPETE_INCOME(rubles, vp) ((int32_t)(rubles) + (int32_t)(vp) * 65536)
extern const int32_t stpete_card_income[3][DISPLAY_CAP];

/* The rubles of a sum of packed incomes (STPETE_INCOME): its low 16 bits, signed. */
static inline int stpete_income_rubles(int32_t packed)
{
    return (int)(((uint32_t)packed + 0x8000u) & 0xFFFFu) - 0x8000;
}

/* The VP of a sum of packed incomes (STPETE_INCOME): what is left above the rubles. */
static inline int stpete_income_vp(int32_t packed)
{
    return (int)(((uint32_t)packed - (uint32_t)stpete_income_rubles(packed)) >> 16);
}

/* The costs, colours and values of the non-trading card types (0 .. FIRST_TRADING - 1) of each edition's table, one
 * byte per type in lanes of 32 (the lanes past them 0), for the listing's affordability of all of them at once and
 * the targets a trading card may displace at its price (lib/engine/legal.c, plain_affordable, targets_within). A
 * copy laid out for those loops: test_rules checks it against stpete_card_tables, the facts' home. */
typedef struct card_lanes {
    uint8_t cost[32];   /* printed cost, R (§2, §11) */
    uint8_t blue[32];   /* 0xFF for a blue card (§5.1.3: the Carpenter Workshop's discount), else 0 */
    uint8_t orange[32]; /* 0xFF for an orange card (§5.1.4: the Gold Smelter's discount), else 0 */
    uint8_t green[32];  /* 0xFF for a green card (§12.5, R27: the Obshchina Commune's discount), else 0 */
    uint8_t value[32];  /* what it is worth when a trading card displaces it (§5.2, §7.4, R7): card_def.value */
} card_lanes;
extern const card_lanes stpete_card_lanes[3]; /* by table, as stpete_card_tables */

/* Variants (§6.2), see the encoding table in stpete.h. */
enum {
    FIRST_TRADING = STPETE_CARD_CARPENTER_WORKSHOP,
    FIRST_BLUE_TRADING = STPETE_CARD_MARIINSKIJ_THEATER,
    FIRST_ORANGE_TRADING = STPETE_CARD_POPE,
    VARIANT_GREEN_TRADING = 24,
    VARIANT_BLUE_TRADING = 34,
    VARIANT_ORANGE_TRADING = 144,
    FIRST_BUILDING = STPETE_CARD_MARKET,
    NUM_BUILDINGS = 11,
    FIRST_ARISTOCRAT = STPETE_CARD_AUTHOR,
    NUM_ARISTOCRATS = 7,
    /* the New Society's (§12.2.3): the new non-trading types, then its trading cards by colour */
    FIRST_NEW_PLAIN = STPETE_CARD_NEW_FARMER,
    FIRST_NEW_TRADING = STPETE_CARD_OBSHCHINA_COMMUNE,
    FIRST_NEW_BLUE_TRADING = STPETE_CARD_ST_PETERSBURG_UNIVERSITY,
    FIRST_NEW_ORANGE_TRADING = STPETE_CARD_MERCHANT,
    /* extension variants (stpete.h): v = 214 + e */
    EXT_PLAIN = 0,            /* 5: the new workers, buildings and aristocrat */
    EXT_OLD_BLUE = 5,         /* 30: base blue trading x the 3 new buildings */
    EXT_OLD_ORANGE = 35,      /* 10: base orange trading x the Sycophant */
    EXT_OBSHCHINA = 45,       /* 2 */
    EXT_NEW_SOCIETY = 47,     /* 7 */
    EXT_NEW_BLUE = 54,        /* 42: 3 x 14 buildings */
    EXT_NEW_ORANGE = 96,      /* 24: 3 x 8 aristocrats */
    NUM_EXT_VARIANTS = 120,
    NUM_VARIANTS_ALL = STPETE_NUM_CARD_VARIANTS + NUM_EXT_VARIANTS
};

/* Bit masks of card types (of every game; in a base game the bits of 49.. are never set in a display). */
#define CARD_BIT(t) (UINT64_C(1) << (t))
#define TYPE_RANGE(lo, hi) ((CARD_BIT(hi) - 1) & ~(CARD_BIT(lo) - 1)) /* types [lo, hi) */
/* Not trading cards: workers, buildings, aristocrats, and the new ones (§12.2.3). */
#define PLAIN_TYPES (TYPE_RANGE(0, FIRST_TRADING) | TYPE_RANGE(FIRST_NEW_PLAIN, FIRST_NEW_TRADING))
#define GREEN_TYPES                                                                                              \
    (TYPE_RANGE(0, FIRST_BUILDING) | TYPE_RANGE(FIRST_TRADING, FIRST_BLUE_TRADING) |                             \
     CARD_BIT(STPETE_CARD_NEW_FARMER) | TYPE_RANGE(FIRST_NEW_TRADING, FIRST_NEW_BLUE_TRADING))
#define BLUE_TYPES                                                                                               \
    (TYPE_RANGE(FIRST_BUILDING, FIRST_ARISTOCRAT) | TYPE_RANGE(FIRST_BLUE_TRADING, FIRST_ORANGE_TRADING) |       \
     TYPE_RANGE(STPETE_CARD_COFFEE_HOUSE, STPETE_CARD_SYCOPHANT) |                                               \
     TYPE_RANGE(FIRST_NEW_BLUE_TRADING, FIRST_NEW_ORANGE_TRADING))
#define ORANGE_TYPES                                                                                             \
    (TYPE_RANGE(FIRST_ARISTOCRAT, FIRST_TRADING) | TYPE_RANGE(FIRST_ORANGE_TRADING, STPETE_NUM_CARD_TYPES) |     \
     CARD_BIT(STPETE_CARD_SYCOPHANT) | TYPE_RANGE(FIRST_NEW_ORANGE_TRADING, CARD_TYPES_ALL))

/* The types of a colour (§1, §12.2). */
static inline uint64_t stpete_colour_types(int colour)
{
    return colour == STPETE_COLOUR_GREEN ? GREEN_TYPES : colour == STPETE_COLOUR_BLUE ? BLUE_TYPES : ORANGE_TYPES;
}

/* Extension variant index e in [0, NUM_EXT_VARIANTS) of (card, displaced) (-1 for a non-trading card): the
 * encoding of stpete.h; -1 if the pair is a base variant or no variant (cards.c). */
int stpete_ext_variant_index(int card, int displaced);
/* Card and displaced type (-1 for non-trading) of an extension variant e in [0, NUM_EXT_VARIANTS). */
void stpete_ext_variant_split(int e, int *card, int *displaced);

/* Index of the lowest set bit of m != 0 (a portable fallback for compilers without the GCC builtin). */
static inline int stpete_lowest_bit(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
#else
    int i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

/* Bit i set for each nonzero byte i of 8 bytes (first byte = bit 0): display scans skip absent card types. */
static inline unsigned stpete_nonzero_bytes(const uint8_t *b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t x;
    __builtin_memcpy(&x, b, 8);
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint64_t high = (x | ((x & low7) + low7)) & ~low7; /* top bit of each byte: byte != 0 */
    return (unsigned)(((high >> 7) * UINT64_C(0x0102040810204080)) >> 56); /* gather the 8 top bits */
#else
    unsigned m = 0;
    for (int i = 0; i < 8; i++)
        m |= (unsigned)(b[i] != 0) << i;
    return m;
#endif
}

/* Rows (8 bytes) and hands (4 bytes): the search for a card and the removal of one are the check's and apply's
 * steps on every buy, take and play. Done on the list as one machine word (no loop, no data-dependent branch: which
 * card a random playout picks is unpredictable). Bytes past a list's count are 0, and stay 0. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define STPETE_WORD_LISTS 1
#endif

/* The copies of card among the first n (<= 8) bytes of list (a row; 8 readable bytes): the top bit of byte i is set
 * for each i < n with list[i] == card. One machine word: no loop, no branch on the data. */
static inline uint64_t stpete_match8(const uint8_t *list, int n, int card)
{
    uint64_t zero = 0;
#ifdef STPETE_WORD_LISTS
    uint64_t x;
    __builtin_memcpy(&x, list, 8);
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint64_t y = x ^ (UINT64_C(0x0101010101010101) * (uint8_t)card); /* 0 where the byte is card */
    zero = ~(((y & low7) + low7) | y | low7);                         /* top bit of each 0 byte */
    zero &= ((uint64_t)(n < 8) << (8 * n & 63)) - 1;                    /* within the list (n = 8: all), no branch */
#else
    for (int i = 0; i < n; i++)
        zero |= (uint64_t)(list[i] == card) << (8 * i + 7);
#endif
    return zero;
}

/* The same for the first n (<= 4) bytes of a 4-byte list (a hand). */
static inline uint32_t stpete_match4(const uint8_t *list, int n, int card)
{
    uint32_t zero = 0;
#ifdef STPETE_WORD_LISTS
    uint32_t x;
    __builtin_memcpy(&x, list, 4);
    const uint32_t low7 = UINT32_C(0x7F7F7F7F);
    uint32_t y = x ^ (UINT32_C(0x01010101) * (uint8_t)card);
    zero = ~(((y & low7) + low7) | y | low7);
    zero &= ((uint32_t)(n < 4) << (8 * n & 31)) - 1;
#else
    for (int i = 0; i < n; i++)
        zero |= (uint32_t)(list[i] == card) << (8 * i + 7);
#endif
    return zero;
}

/* Index of the first copy of card among the first n (<= 8) bytes of list (8 readable bytes), or -1. */
static inline int stpete_find8(const uint8_t *list, int n, int card)
{
    uint64_t m = stpete_match8(list, n, card);
    return m ? stpete_lowest_bit(m) / 8 : -1;
}

/* 1 if card is among the first n (<= 8) bytes of list, else 0: stpete_find8() >= 0 without a branch. */
static inline int stpete_holds8(const uint8_t *list, int n, int card)
{
    return stpete_match8(list, n, card) != 0;
}

/* Index of the first copy of card among the first n (<= 4) bytes of a 4-byte list (a hand), or -1. */
static inline int stpete_find4(const uint8_t *list, int n, int card)
{
    uint32_t m = stpete_match4(list, n, card);
    return m ? stpete_lowest_bit(m) / 8 : -1;
}

/* 1 if card is among the first n (<= 4) bytes of a 4-byte list (a hand), else 0. */
static inline int stpete_holds4(const uint8_t *list, int n, int card)
{
    return stpete_match4(list, n, card) != 0;
}

/* Remove list[i] from a list of 8 bytes (a row), sliding the rest down; the last byte becomes 0. */
static inline void stpete_remove8(uint8_t *list, uint8_t *n, int i)
{
#ifdef STPETE_WORD_LISTS
    uint64_t x;
    __builtin_memcpy(&x, list, 8);
    uint64_t keep = (UINT64_C(1) << (8 * i)) - 1; /* i <= 7 */
    x = (x & keep) | ((x >> 8) & ~keep);
    __builtin_memcpy(list, &x, 8);
#else
    for (int k = i + 1; k < 8; k++)
        list[k - 1] = list[k];
    list[7] = 0;
#endif
    (*n)--;
}

/* Remove list[i] from a list of 4 bytes (a hand), sliding the rest down; the last byte becomes 0. */
static inline void stpete_remove4(uint8_t *list, uint8_t *n, int i)
{
#ifdef STPETE_WORD_LISTS
    uint32_t x;
    __builtin_memcpy(&x, list, 4);
    uint32_t keep = (UINT32_C(1) << (8 * i)) - 1; /* i <= 3 */
    x = (x & keep) | ((x >> 8) & ~keep);
    __builtin_memcpy(list, &x, 4);
#else
    for (int k = i + 1; k < 4; k++)
        list[k - 1] = list[k];
    list[3] = 0;
#endif
    (*n)--;
}

/* Locale-independent ASCII case folding and blanks (tolower/isspace depend on the locale, e.g. Turkish 'I'). */
static inline int stpete_ascii_lower(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch;
}

static inline int stpete_ascii_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* ASCII case-insensitive equality of a NUL-terminated string with n bytes of text (card names, action strings). */
int stpete_text_equals(const char *name, const char *text, size_t n);

/* The public description of a card table row (stpete_card_info). */
void stpete_card_describe(const card_def *d, int card, stpete_card_info *out);

/* The readable form of an action or chance outcome id with the names of a card table (actions.c). */
int stpete_id_to_string(const card_def *cards, int id, char *buf, size_t size);

/* Card type with this name in either edition (n bytes, case-insensitive), or -1. */
int stpete_card_lookup(const char *text, size_t n);

/* The stack a card type is dealt from (§1, §2), from the card table (the same in both editions). Also the back it
 * shows. */
static inline int stpete_stack_of(int card)
{
    return stpete_shared_card(card)->stack;
}

/* Action id layout (stpete.h). */
enum {
    ID_PASS = 0,
    ID_BUY_UPPER = 1,
    ID_BUY_LOWER = ID_BUY_UPPER + STPETE_NUM_CARD_VARIANTS,
    ID_PLAY = ID_BUY_LOWER + STPETE_NUM_CARD_VARIANTS,
    ID_TAKE_UPPER = ID_PLAY + STPETE_NUM_CARD_VARIANTS,
    ID_TAKE_LOWER = ID_TAKE_UPPER + STPETE_NUM_CARD_TYPES,
    ID_OBSERVATORY = ID_TAKE_LOWER + STPETE_NUM_CARD_TYPES,
    ID_OBS_BUY = ID_OBSERVATORY + STPETE_NUM_STACKS,
    ID_OBS_TAKE = ID_OBS_BUY + STPETE_NUM_CARD_VARIANTS,
    ID_OBS_DISCARD = ID_OBS_TAKE + 1,
    ID_PUB = ID_OBS_DISCARD + 1,
    ID_END = ID_PUB + 11,
    /* the New Society's (stpete.h): after the base chance outcomes */
    ID_NS_BUY_UPPER = STPETE_NS_ACTION_FIRST,
    ID_NS_BUY_LOWER = ID_NS_BUY_UPPER + NUM_EXT_VARIANTS,
    ID_NS_PLAY = ID_NS_BUY_LOWER + NUM_EXT_VARIANTS,
    ID_NS_TAKE_UPPER = ID_NS_PLAY + NUM_EXT_VARIANTS,
    ID_NS_TAKE_LOWER = ID_NS_TAKE_UPPER + NUM_NEW_CARDS,
    ID_NS_OBS_BUY = ID_NS_TAKE_LOWER + NUM_NEW_CARDS,
    ID_PRISON = ID_NS_OBS_BUY + NUM_EXT_VARIANTS,
    ID_PRISON_BUY = ID_PRISON + CARD_TYPES_ALL,
    ID_PRISON_TAKE = ID_PRISON_BUY + NUM_VARIANTS_ALL,
    ID_PRISON_PUT_BACK = ID_PRISON_TAKE + 1,
    ID_GUILD_HALL = ID_PRISON_PUT_BACK + 1,
    ID_TRADING_HOUSE = ID_GUILD_HALL + 5,
    ID_NS_END = ID_TRADING_HOUSE + 2
};
_Static_assert(ID_NS_END == STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY, "the New Society's ids of stpete.h");

/* Valid chance outcome ids: [STPETE_CHANCE_CARD_FIRST, CHANCE_END), and with the New Society also
 * [STPETE_NS_CHANCE_CARD_FIRST, STPETE_NS_ID_END). */
enum { CHANCE_END = STPETE_CHANCE_MARKERS_FIRST + 256, NS_CHANCE_MARKERS_CODES = 625 };

/* Whether id (>= 0) is a chance outcome id (of either range) rather than an action id. */
static inline int stpete_is_chance_id(int id)
{
    return (id >= STPETE_CHANCE_CARD_FIRST && id < CHANCE_END) || id >= STPETE_NS_CHANCE_CARD_FIRST;
}

/* Whether id (>= 0) is an action id of a game (ns = the New Society): [0, 972), and with the expansion also
 * [1277, 2188). */
static inline int stpete_is_action_id(int id, int ns)
{
    return id < ID_END || (ns && id >= STPETE_NS_ACTION_FIRST && id < ID_NS_END);
}

/* The id of taking card from a row (source STPETE_SOURCE_UPPER or _LOWER) into the hand (§4.2; stpete.h). */
static inline int stpete_take_id(int source, int card)
{
    if (card < STPETE_NUM_CARD_TYPES)
        return (source == STPETE_SOURCE_UPPER ? ID_TAKE_UPPER : ID_TAKE_LOWER) + card;
    return (source == STPETE_SOURCE_UPPER ? ID_NS_TAKE_UPPER : ID_NS_TAKE_LOWER) + card - STPETE_NUM_CARD_TYPES;
}

/* The chance outcome id of a card type dealt or drawn (§4.5, §7.1): base types keep their 1.0 ids. */
static inline int stpete_chance_card_id(int card)
{
    return card < STPETE_NUM_CARD_TYPES ? STPETE_CHANCE_CARD_FIRST + card
                                        : STPETE_NS_CHANCE_CARD_FIRST + card - STPETE_NUM_CARD_TYPES;
}

/* The card type of a card chance outcome id, or -1 for another id. */
static inline int stpete_chance_id_card(int id)
{
    if (id >= STPETE_CHANCE_CARD_FIRST && id < STPETE_CHANCE_MARKERS_FIRST)
        return id - STPETE_CHANCE_CARD_FIRST;
    if (id >= STPETE_NS_CHANCE_CARD_FIRST && id < STPETE_NS_CHANCE_MARKERS_FIRST)
        return id - STPETE_NS_CHANCE_CARD_FIRST + STPETE_NUM_CARD_TYPES;
    return -1;
}

/* Variant of (card, displaced) when displaced is one of card's targets (§6.2) or -1 for a non-trading card: the
 * encoding of stpete.h (a trading card's variants are its target types ascending: the ware's worker, then Czar and
 * Carpenter; the buildings; the aristocrats). The inverse of stpete_variant_split(). */
static inline int stpete_base_variant_index(int card, int displaced);
static inline int stpete_variant_index(int card, int displaced)
{
    if ((card >= STPETE_NUM_CARD_TYPES) | (displaced >= STPETE_NUM_CARD_TYPES)) /* the New Society's (stpete.h) */
        return STPETE_NUM_CARD_VARIANTS + stpete_ext_variant_index(card, displaced);
    return stpete_base_variant_index(card, displaced);
}

/* The same for a pair of the base game's card types (both below 49): the 1.0 arithmetic. */
static inline int stpete_base_variant_index(int card, int displaced)
{
    if (card < FIRST_TRADING)
        return card;
    if (card < FIRST_BLUE_TRADING)
        return VARIANT_GREEN_TRADING + (card - FIRST_TRADING) * 2 + (displaced == STPETE_CARD_CZAR_AND_CARPENTER);
    if (card < FIRST_ORANGE_TRADING)
        return VARIANT_BLUE_TRADING + (card - FIRST_BLUE_TRADING) * NUM_BUILDINGS + (displaced - FIRST_BUILDING);
    return VARIANT_ORANGE_TRADING + (card - FIRST_ORANGE_TRADING) * NUM_ARISTOCRATS + (displaced - FIRST_ARISTOCRAT);
}

/* Variant index of (card, displaced), or -1 if card is out of range or displaced is not one of its targets (the
 * card table's targets, §6.2). */
int stpete_variant_of(int card, int displaced);

/* Card type and displaced type (-1 for non-trading) of a variant in [0, STPETE_NUM_CARD_VARIANTS). Inline: every
 * apply decodes its action. The arithmetic is the encoding of stpete.h; test_api checks it against the card
 * table's targets (§6.2). */
static inline void stpete_variant_split(int v, int *card, int *displaced)
{
    if (v < VARIANT_GREEN_TRADING) {
        *card = v;
        *displaced = -1;
    } else if (v < VARIANT_BLUE_TRADING) { /* green: the worker of the same ware, then Czar and Carpenter (§6.2) */
        int k = v - VARIANT_GREEN_TRADING;
        *card = FIRST_TRADING + k / 2;
        *displaced = k % 2 ? STPETE_CARD_CZAR_AND_CARPENTER : stpete_shared_card(*card)->ware;
    } else if (v < VARIANT_ORANGE_TRADING) {
        int k = v - VARIANT_BLUE_TRADING;
        *card = FIRST_BLUE_TRADING + k / NUM_BUILDINGS;
        *displaced = FIRST_BUILDING + k % NUM_BUILDINGS;
    } else {
        int k = v - VARIANT_ORANGE_TRADING;
        *card = FIRST_ORANGE_TRADING + k / NUM_ARISTOCRATS;
        *displaced = FIRST_ARISTOCRAT + k % NUM_ARISTOCRATS;
    }
}

/* The same for every variant in [0, NUM_VARIANTS_ALL), the New Society's (214 + e) included. */
static inline void stpete_variant_split_all(int v, int *card, int *displaced)
{
    if (v < STPETE_NUM_CARD_VARIANTS)
        stpete_variant_split(v, card, displaced);
    else
        stpete_ext_variant_split(v - STPETE_NUM_CARD_VARIANTS, card, displaced);
}

/* The id of variant v (in [0, NUM_VARIANTS_ALL)) in an id range: base + v for a base variant, ext_base + e for an
 * extension variant (stpete.h). */
static inline int stpete_variant_id(int base, int ext_base, int v)
{
    return v < STPETE_NUM_CARD_VARIANTS ? base + v : ext_base + (v - STPETE_NUM_CARD_VARIANTS);
}

/* Inlined even where it grew: every apply and playout step decodes its action (stpete-bench measures it). */
#if defined(__GNUC__) || defined(__clang__)
#define STPETE_HOT_INLINE static inline __attribute__((always_inline))
#else
#define STPETE_HOT_INLINE static inline
#endif

/* Structured form of a buy, play or take id (§4.2) of the base cards (ext 0) or of the New Society's (ext 1), whose
 * ids have one layout: buys from the upper row from buy_upper, from the lower row from buy_lower, plays from the hand
 * from play (a variant of the table each: stpete_variant_split, stpete_ext_variant_split), takes from the upper row
 * from take_upper, from the lower row from take_lower (a card type each, the New Society's after the base's
 * STPETE_NUM_CARD_TYPES). id in [buy_upper, take_lower + the table's number of card types). Sets kind, source, card
 * and, for a buy or a play, displaced. */
static inline void stpete_decode_acquire(int id, int buy_upper, int buy_lower, int play, int take_upper,
                                         int take_lower, int ext, stpete_action *a)
{
    if (id < take_upper) {
        int v;
        if (id < play) {
            a->kind = STPETE_ACTION_BUY;
            a->source = id < buy_lower ? STPETE_SOURCE_UPPER : STPETE_SOURCE_LOWER;
            v = id - (id < buy_lower ? buy_upper : buy_lower);
        } else {
            a->kind = STPETE_ACTION_PLAY;
            a->source = STPETE_SOURCE_HAND;
            v = id - play;
        }
        if (ext)
            stpete_ext_variant_split(v, &a->card, &a->displaced);
        else
            stpete_variant_split(v, &a->card, &a->displaced);
    } else {
        a->kind = STPETE_ACTION_TAKE;
        a->source = id < take_lower ? STPETE_SOURCE_UPPER : STPETE_SOURCE_LOWER;
        a->card = (ext ? STPETE_NUM_CARD_TYPES : 0) + id - (id < take_lower ? take_upper : take_lower);
    }
}

/* Structured form of an id of a decision on one held card (the Observatory's draw, §7.1; the Debtor's Prison's pick,
 * §12.7.5, R21), id in [buy, take + 1]: a purchase of variant id - buy (kind_buy), then take (kind_take), then put
 * back or discard (kind_back, at take + 1); every one from source. Sets kind, source, and card and displaced of a
 * purchase. */
static inline void stpete_decode_held(int id, int buy, int take, int kind_buy, int kind_take, int kind_back,
                                      int source, stpete_action *a)
{
    a->source = source;
    if (id < take) {
        a->kind = kind_buy;
        stpete_variant_split_all(id - buy, &a->card, &a->displaced);
    } else {
        a->kind = id == take ? kind_take : kind_back;
    }
}
_Static_assert(ID_OBS_DISCARD == ID_OBS_TAKE + 1 && ID_PRISON_PUT_BACK == ID_PRISON_TAKE + 1,
               "stpete_decode_held: put back or discard follows take");

/* Structured form of a New Society action id in [STPETE_NS_ACTION_FIRST, ID_NS_END) (actions.c). */
void stpete_decode_ns(int id, stpete_action *out);

/* Structured form of a valid action id in [0, ID_END) or [STPETE_NS_ACTION_FIRST, ID_NS_END)
 * (stpete_action_decode without the checks). */
STPETE_HOT_INLINE void stpete_decode(int id, stpete_action *out)
{
    stpete_action a = { STPETE_ACTION_PASS, -1, -1, -1, -1, -1 };
    if (id == ID_PASS) {
        /* pass */
    } else if (id < ID_OBSERVATORY) {
        stpete_decode_acquire(id, ID_BUY_UPPER, ID_BUY_LOWER, ID_PLAY, ID_TAKE_UPPER, ID_TAKE_LOWER, 0, &a);
    } else if (id < ID_OBS_BUY) {
        a.kind = STPETE_ACTION_OBSERVATORY;
        a.stack = id - ID_OBSERVATORY;
    } else if (id <= ID_OBS_DISCARD) {
        stpete_decode_held(id, ID_OBS_BUY, ID_OBS_TAKE, STPETE_ACTION_OBSERVATORY_BUY, STPETE_ACTION_OBSERVATORY_TAKE,
                           STPETE_ACTION_OBSERVATORY_DISCARD, STPETE_SOURCE_OBSERVATORY, &a);
    } else if (id >= STPETE_NS_ACTION_FIRST) {
        stpete_decode_ns(id, out);
        return;
    } else {
        a.kind = STPETE_ACTION_PUB;
        a.amount = id - ID_PUB;
    }
    *out = a;
}

/* ---- names.c: the words of the formats (JSON keys, action strings, logs), one table each ----------- */

extern const char *const stpete_phase_words[STPETE_NUM_PHASES];   /* "worker" ... "trading" */
extern const char *const stpete_stack_words[STPETE_NUM_STACKS];   /* "worker" ... "trading" */
extern const char *const stpete_decision_words[8];   /* "turn" ... "game-over", "chance", "prison" ... */
extern const char *const stpete_source_words[5];     /* "upper" ... "observatory", "discard" */
extern const char *const stpete_source_phrases[5];   /* "upper row" ... "Observatory draw", "discard pile" */
extern const char *const stpete_pub_cap_words[2];                 /* "per-pub", "per-player" */
extern const char *const stpete_tie_break_words[2];               /* "rubles-mod-10", "rubles-total" */
extern const char *const stpete_chance_mode_words[2];             /* "sampled", "explicit" */
extern const char *const stpete_chance_event_words[4];            /* "none", "deal", "markers", "draw" (CHANCE_*) */
extern const char *const stpete_deal_then_words[3];               /* "setup", "next-phase", "round" (THEN_*) */

/* ---- rng.c: PCG32 (O'Neill, pcg-random.org), state lives in the game state -------------------- */

typedef struct stpete_rng {
    uint64_t state;
    uint64_t inc;
} stpete_rng;

/* PCG32 streams: the deal's ("StPete" in ASCII, so seeds do not collide with other PCG users' default stream)
 * and determinization's ("Resamp"). */
#define STPETE_RNG_STREAM_DEAL UINT64_C(0x537450657465)
#define STPETE_RNG_STREAM_RESAMPLE UINT64_C(0x526573616d70)

void stpete_rng_seed(stpete_rng *rng, uint64_t seed, uint64_t stream);
uint32_t stpete_rng_next(stpete_rng *rng);
/* Uniform integer in [0, bound), bound >= 1, unbiased (Lemire's multiply-and-reject). */
uint32_t stpete_rng_below(stpete_rng *rng, uint32_t bound);
/* Uniform random permutation of a[0..n). */
void stpete_rng_shuffle(stpete_rng *rng, uint8_t *a, int n);


/* ---- conventions.c: caller-sized structs and the stpete_error detail (1.0) ---------------------------- */

#include <stdarg.h>
/* The first size of each struct that may grow: the 1.0 layout (1.0 is the baseline of soname 1; a later version
 * keeps these as the minimum). stpete_options too (issue 31): the 0.x layouts were never soname 1, and a size between two layouts ends inside a
 * member (one ending in the allocator's free_fn copied one byte of a pointer, which stpete_game_free() then called). */
#define STPETE_OPTIONS_SIZE_1_0 offsetof(stpete_options, new_society) /* 1.1 appended the New Society's (§12) */
#define STPETE_CARD_INFO_SIZE_1_0 sizeof(stpete_card_info)
#define STPETE_SCORE_SIZE_1_0 sizeof(stpete_score)
#define STPETE_EVENT_SIZE_1_0 sizeof(stpete_event)
#define STPETE_ERROR_SIZE_1_0 sizeof(stpete_error)
/* Whether a caller's struct_size is one this library can serve, i.e. the size of a released layout of the struct
 * (stpete.h, "Structs that may grow"): 1 or 0. Soname 1 has one layout of each struct, so first == library and the
 * range is that one size; a struct that grows must keep accepting exactly its released sizes (a size between two
 * layouts ends inside a member), so its check then becomes the list of those sizes. */
int stpete_struct_size_ok(size_t caller, size_t first, size_t library);
/* Copy src (the library's complete struct of `library` bytes) into dst, both beginning with size_t struct_size:
 * only dst->struct_size bytes; dst->struct_size kept. STPETE_OK, or STPETE_E_UNSUPPORTED_VERSION (nothing
 * written) for a size outside [first, library]. */
int stpete_struct_out(void *dst, const void *src, size_t first, size_t library);
/* STPETE_OK for NULL or a usable err->struct_size, else STPETE_E_UNSUPPORTED_VERSION (check before anything). */
int stpete_error_check(const stpete_error *err);
/* Record a failure (status and printf-style message) into e, a stpete_error being built (may be NULL); returns
 * status. */
int stpete_error_fail(stpete_error *e, int status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int stpete_error_vfail(stpete_error *e, int status, const char *fmt, va_list ap);
/* Copy a complete local detail into the caller's (NULL ignored) with its status ("" and -1s on success); returns
 * status. */
int stpete_error_finish(stpete_error *caller, const stpete_error *local, int status);
/* A call's whole detail in one step, into the caller's stpete_error (NULL ignored; its size checked before):
 * status and message; returns status (also STPETE_OK with "" for a success). */
int stpete_caller_error_fail(stpete_error *caller, int status, const char *what);
/* The start of a constructor (stpete.h, "Parameters"): err is NULL or of a size this library serves
 * (STPETE_E_UNSUPPORTED_VERSION otherwise), and it has an out-parameter (STPETE_E_INVALID_ARGUMENT with
 * "out is NULL" otherwise). The caller has set *out to NULL first. */
int stpete_error_begin(stpete_error *err, int has_out);

#endif /* STPETE_FACTS_H */
