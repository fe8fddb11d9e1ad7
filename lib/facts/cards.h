/* The card table of §2, §11 and §12.2 (lib/facts/, code and data in cards.c): what the rules read about each card
 * type, its edition's table, the packed incomes and the lanes of the listing, the card types by kind and colour as
 * bit masks, a card's public description and its lookup by name. Part of the facts layer: included through
 * facts/facts.h. */
#ifndef STPETE_FACTS_CARDS_H
#define STPETE_FACTS_CARDS_H

#include <stddef.h>
#include <stdint.h>

#include "stpete/stpete.h"

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
 * (stpete_engine_cards() in engine.h). */
/* A card's facts that no edition changes (colour, stack, trading, ware, special, targets: §11 changes none), where
 * no game is at hand (the action encoding, a card's stack): the New Society's row, whose targets are the union of
 * every game's (§6.2, §12.6) and which describes the 13 new types too. Never its name, cost, incomes, value or
 * copies: those are the game's, through its own table (stpete_engine_cards() in engine.h); tests/checks/check-layers.py
 * refuses them here. */
static inline const card_def *stpete_cards_shared(int card)
{
    return &stpete_card_tables[2][card];
}
/* Each card type's income at its colour's scoring (§2, §4.4) packed in one int32: rubles + 65536 * VP, for the phase
 * income's loop (one load and one multiply per type; lib/engine/scoring.c). stpete_card_income[e] is
 * stpete_card_tables[e]'s rubles and vp, built from the same rows (cards.c); 0 past the types. A sum of packed
 * incomes unpacks with stpete_cards_income_rubles/vp while its rubles are in (-32768, 32768) and its VP in [0, 32768):
 * a display's 144 cards at most earn 6 R or 9 VP each. */
#define STPETE_INCOME(rubles, vp) ((int32_t)(rubles) + (int32_t)(vp) * 65536)
extern const int32_t stpete_card_income[3][DISPLAY_CAP];

/* The rubles of a sum of packed incomes (STPETE_INCOME): its low 16 bits, signed. */
static inline int stpete_cards_income_rubles(int32_t packed)
{
    return (int)(((uint32_t)packed + 0x8000u) & 0xFFFFu) - 0x8000;
}

/* The VP of a sum of packed incomes (STPETE_INCOME): what is left above the rubles. */
static inline int stpete_cards_income_vp(int32_t packed)
{
    return (int)(((uint32_t)packed - (uint32_t)stpete_cards_income_rubles(packed)) >> 16);
}

/* The costs, colours and values of the non-trading card types (0 .. FIRST_TRADING - 1) of each edition's table, one
 * byte per type in lanes of 32 (the lanes past them 0), for the listing's affordability of all of them at once and
 * the targets a trading card may displace at its price (lib/engine/legal.h's legal_plain_affordable, legal_pick.c's
 * targets_within). A copy laid out for those loops: tests/lib/rules/card_tables.c checks it against stpete_card_tables,
 * the facts' home. */
typedef struct card_lanes {
    uint8_t cost[32];   /* printed cost, R (§2, §11) */
    uint8_t blue[32];   /* 0xFF for a blue card (§5.1.3: the Carpenter Workshop's discount), else 0 */
    uint8_t orange[32]; /* 0xFF for an orange card (§5.1.4: the Gold Smelter's discount), else 0 */
    uint8_t green[32];  /* 0xFF for a green card (§12.5, R27: the Obshchina Commune's discount), else 0 */
    uint8_t value[32];  /* what it is worth when a trading card displaces it (§5.2, §7.4, R7): card_def.value */
} card_lanes;
extern const card_lanes stpete_card_lanes[3]; /* by table, as stpete_card_tables */

/* Card types by kind and colour (§2, §12.2.3): the first of each group, and the sizes the variants count. */
enum {
    FIRST_TRADING = STPETE_CARD_CARPENTER_WORKSHOP,
    FIRST_BLUE_TRADING = STPETE_CARD_MARIINSKIJ_THEATER,
    FIRST_ORANGE_TRADING = STPETE_CARD_POPE,
    FIRST_BUILDING = STPETE_CARD_MARKET,
    NUM_BUILDINGS = 11,
    FIRST_ARISTOCRAT = STPETE_CARD_AUTHOR,
    NUM_ARISTOCRATS = 7,
    /* the New Society's (§12.2.3): the new non-trading types, then its trading cards by colour */
    FIRST_NEW_PLAIN = STPETE_CARD_NEW_FARMER,
    FIRST_NEW_TRADING = STPETE_CARD_OBSHCHINA_COMMUNE,
    FIRST_NEW_BLUE_TRADING = STPETE_CARD_ST_PETERSBURG_UNIVERSITY,
    FIRST_NEW_ORANGE_TRADING = STPETE_CARD_MERCHANT
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
static inline uint64_t stpete_cards_colour_types(int colour)
{
    return colour == STPETE_COLOUR_GREEN ? GREEN_TYPES : colour == STPETE_COLOUR_BLUE ? BLUE_TYPES : ORANGE_TYPES;
}

/* The public description of a card table row (stpete_card_info). */
void stpete_cards_describe(const card_def *d, int card, stpete_card_info *out);

/* Card type with this name in either edition (n bytes, case-insensitive), or -1. */
int stpete_cards_lookup(const char *text, size_t n);

/* The stack a card type is dealt from (§1, §2), from the card table (the same in both editions). Also the back it
 * shows. */
static inline int stpete_cards_stack(int card)
{
    return stpete_cards_shared(card)->stack;
}

#endif /* STPETE_FACTS_CARDS_H */
