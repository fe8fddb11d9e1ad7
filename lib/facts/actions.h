/* The action encoding of stpete.h (lib/facts/, code in actions.c): the id layout, the chance outcome ids, the
 * displacement variants of §6.2 and §12.6 (the base game's arithmetic and the extension variants), the decoding of
 * an id into its structured form, and an id's readable string. Part of the facts layer: included through
 * facts/facts.h. */
#ifndef STPETE_FACTS_ACTIONS_H
#define STPETE_FACTS_ACTIONS_H

#include <stddef.h>

#include "facts/cards.h"

/* Variants (§6.2), see the encoding table in stpete.h. */
enum {
    VARIANT_GREEN_TRADING = 24,
    VARIANT_BLUE_TRADING = 34,
    VARIANT_ORANGE_TRADING = 144,
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

/* Extension variant index e in [0, NUM_EXT_VARIANTS) of (card, displaced) (-1 for a non-trading card): the
 * encoding of stpete.h; -1 if the pair is a base variant or no variant (cards.c). */
int stpete_actions_ext_variant(int card, int displaced);
/* Card and displaced type (-1 for non-trading) of an extension variant e in [0, NUM_EXT_VARIANTS). */
void stpete_actions_ext_split(int e, int *card, int *displaced);

/* The readable form of an action or chance outcome id with the names of a card table (actions.c). */
int stpete_actions_to_string(const card_def *cards, int id, char *buf, size_t size);

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
static inline int stpete_actions_is_chance(int id)
{
    return (id >= STPETE_CHANCE_CARD_FIRST && id < CHANCE_END) || id >= STPETE_NS_CHANCE_CARD_FIRST;
}

/* Whether id (>= 0) is an action id of a game (ns = the New Society): [0, 972), and with the expansion also
 * [1277, 2188). */
static inline int stpete_actions_is_action(int id, int ns)
{
    return id < ID_END || (ns && id >= STPETE_NS_ACTION_FIRST && id < ID_NS_END);
}

/* The id of taking card from a row (source STPETE_SOURCE_UPPER or _LOWER) into the hand (§4.2; stpete.h). */
static inline int stpete_actions_take_id(int source, int card)
{
    if (card < STPETE_NUM_CARD_TYPES)
        return (source == STPETE_SOURCE_UPPER ? ID_TAKE_UPPER : ID_TAKE_LOWER) + card;
    return (source == STPETE_SOURCE_UPPER ? ID_NS_TAKE_UPPER : ID_NS_TAKE_LOWER) + card - STPETE_NUM_CARD_TYPES;
}

/* The chance outcome id of a card type dealt or drawn (§4.5, §7.1): base types keep their 1.0 ids. */
static inline int stpete_actions_chance_id(int card)
{
    return card < STPETE_NUM_CARD_TYPES ? STPETE_CHANCE_CARD_FIRST + card
                                        : STPETE_NS_CHANCE_CARD_FIRST + card - STPETE_NUM_CARD_TYPES;
}

/* The card type of a card chance outcome id, or -1 for another id. */
static inline int stpete_actions_chance_card(int id)
{
    if (id >= STPETE_CHANCE_CARD_FIRST && id < STPETE_CHANCE_MARKERS_FIRST)
        return id - STPETE_CHANCE_CARD_FIRST;
    if (id >= STPETE_NS_CHANCE_CARD_FIRST && id < STPETE_NS_CHANCE_MARKERS_FIRST)
        return id - STPETE_NS_CHANCE_CARD_FIRST + STPETE_NUM_CARD_TYPES;
    return -1;
}

/* Variant of (card, displaced) when displaced is one of card's targets (§6.2) or -1 for a non-trading card: the
 * encoding of stpete.h (a trading card's variants are its target types ascending: the ware's worker, then Czar and
 * Carpenter; the buildings; the aristocrats). The inverse of stpete_actions_split(). */
static inline int stpete_actions_base_variant(int card, int displaced);
static inline int stpete_actions_variant(int card, int displaced)
{
    if ((card >= STPETE_NUM_CARD_TYPES) | (displaced >= STPETE_NUM_CARD_TYPES)) /* the New Society's (stpete.h) */
        return STPETE_NUM_CARD_VARIANTS + stpete_actions_ext_variant(card, displaced);
    return stpete_actions_base_variant(card, displaced);
}

/* The same for a pair of the base game's card types (both below 49): the 1.0 arithmetic. */
static inline int stpete_actions_base_variant(int card, int displaced)
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
int stpete_actions_variant_of(int card, int displaced);

/* Card type and displaced type (-1 for non-trading) of a variant in [0, STPETE_NUM_CARD_VARIANTS). Inline: every
 * apply decodes its action. The arithmetic is the encoding of stpete.h; tests/lib/api/actions.c checks it against the
 * card table's targets (§6.2). */
static inline void stpete_actions_split(int v, int *card, int *displaced)
{
    if (v < VARIANT_GREEN_TRADING) {
        *card = v;
        *displaced = -1;
    } else if (v < VARIANT_BLUE_TRADING) { /* green: the worker of the same ware, then Czar and Carpenter (§6.2) */
        int k = v - VARIANT_GREEN_TRADING;
        *card = FIRST_TRADING + k / 2;
        *displaced = k % 2 ? STPETE_CARD_CZAR_AND_CARPENTER : stpete_cards_shared(*card)->ware;
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
static inline void stpete_actions_split_all(int v, int *card, int *displaced)
{
    if (v < STPETE_NUM_CARD_VARIANTS)
        stpete_actions_split(v, card, displaced);
    else
        stpete_actions_ext_split(v - STPETE_NUM_CARD_VARIANTS, card, displaced);
}

/* The id of variant v (in [0, NUM_VARIANTS_ALL)) in an id range: base + v for a base variant, ext_base + e for an
 * extension variant (stpete.h). */
static inline int stpete_actions_variant_id(int base, int ext_base, int v)
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
 * from play (a variant of the table each: stpete_actions_split, stpete_actions_ext_split), takes from the upper row
 * from take_upper, from the lower row from take_lower (a card type each, the New Society's after the base's
 * STPETE_NUM_CARD_TYPES). id in [buy_upper, take_lower + the table's number of card types). Sets kind, source, card
 * and, for a buy or a play, displaced. */
static inline void stpete_actions_decode_acquire(int id, int buy_upper, int buy_lower, int play, int take_upper,
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
            stpete_actions_ext_split(v, &a->card, &a->displaced);
        else
            stpete_actions_split(v, &a->card, &a->displaced);
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
static inline void stpete_actions_decode_held(int id, int buy, int take, int kind_buy, int kind_take, int kind_back,
                                      int source, stpete_action *a)
{
    a->source = source;
    if (id < take) {
        a->kind = kind_buy;
        stpete_actions_split_all(id - buy, &a->card, &a->displaced);
    } else {
        a->kind = id == take ? kind_take : kind_back;
    }
}
_Static_assert(ID_OBS_DISCARD == ID_OBS_TAKE + 1 && ID_PRISON_PUT_BACK == ID_PRISON_TAKE + 1,
               "stpete_actions_decode_held: put back or discard follows take");

/* Structured form of a New Society action id in [STPETE_NS_ACTION_FIRST, ID_NS_END) (actions.c). */
void stpete_actions_decode_ns(int id, stpete_action *out);

/* Structured form of a valid action id in [0, ID_END) or [STPETE_NS_ACTION_FIRST, ID_NS_END)
 * (stpete_action_decode without the checks). */
STPETE_HOT_INLINE void stpete_actions_decode(int id, stpete_action *out)
{
    stpete_action a = { STPETE_ACTION_PASS, -1, -1, -1, -1, -1 };
    if (id == ID_PASS) {
        /* pass */
    } else if (id < ID_OBSERVATORY) {
        stpete_actions_decode_acquire(id, ID_BUY_UPPER, ID_BUY_LOWER, ID_PLAY, ID_TAKE_UPPER, ID_TAKE_LOWER, 0, &a);
    } else if (id < ID_OBS_BUY) {
        a.kind = STPETE_ACTION_OBSERVATORY;
        a.stack = id - ID_OBSERVATORY;
    } else if (id <= ID_OBS_DISCARD) {
        stpete_actions_decode_held(id, ID_OBS_BUY, ID_OBS_TAKE, STPETE_ACTION_OBSERVATORY_BUY,
                                   STPETE_ACTION_OBSERVATORY_TAKE, STPETE_ACTION_OBSERVATORY_DISCARD,
                                   STPETE_SOURCE_OBSERVATORY, &a);
    } else if (id >= STPETE_NS_ACTION_FIRST) {
        stpete_actions_decode_ns(id, out);
        return;
    } else {
        a.kind = STPETE_ACTION_PUB;
        a.amount = id - ID_PUB;
    }
    *out = a;
}

#endif /* STPETE_FACTS_ACTIONS_H */
