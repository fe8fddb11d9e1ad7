/* Internal declarations of libstpete. Not installed. */
#ifndef STPETE_INTERNAL_H
#define STPETE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stpete/stpete.h"

/* ---- cards.c: the §2 card table (data, not code) ---------------------------------------------- */

/* Per card type: everything the rules read. */
typedef struct card_def {
    const char *name;
    uint8_t colour;   /* enum stpete_colour */
    uint8_t trading;  /* 1 for §2.4 */
    uint8_t cost;     /* printed cost, R */
    uint8_t rubles;   /* income R */
    uint8_t vp;       /* income VP */
    uint8_t copies;
    int8_t ware;      /* worker type of the ware, or -1 */
    uint8_t special;  /* enum stpete_special */
} card_def;

extern const card_def stpete_cards[STPETE_NUM_CARD_TYPES];

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
    NUM_ARISTOCRATS = 7
};

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

/* Card type with this name (n bytes, case-insensitive), or -1. */
int stpete_card_lookup(const char *text, size_t n);

/* Action id layout (stpete.h). */
enum {
    ID_PASS = 0,
    ID_BUY_UPPER = 1,
    ID_BUY_LOWER = ID_BUY_UPPER + STPETE_NUM_CARD_VARIANTS,
    ID_PLAY = ID_BUY_LOWER + STPETE_NUM_CARD_VARIANTS,
    ID_TAKE_UPPER = ID_PLAY + STPETE_NUM_CARD_VARIANTS,
    ID_TAKE_LOWER = ID_TAKE_UPPER + STPETE_NUM_CARD_TYPES,
    ID_OBSERVATORY = ID_TAKE_LOWER + STPETE_NUM_CARD_TYPES,
    ID_OBS_BUY = ID_OBSERVATORY + 4,
    ID_OBS_TAKE = ID_OBS_BUY + STPETE_NUM_CARD_VARIANTS,
    ID_OBS_DISCARD = ID_OBS_TAKE + 1,
    ID_PUB = ID_OBS_DISCARD + 1,
    ID_END = ID_PUB + 11
};

/* Variant index of (card, displaced), or -1 if displaced is not a target type of card (§6.2). */
int stpete_variant_of(int card, int displaced);

/* Card type and displaced type (-1 for non-trading) of a variant in [0, STPETE_NUM_CARD_VARIANTS). Inline: every
 * apply decodes its action. */
static inline void stpete_variant_split(int v, int *card, int *displaced)
{
    if (v < VARIANT_GREEN_TRADING) {
        *card = v;
        *displaced = -1;
    } else if (v < VARIANT_BLUE_TRADING) { /* green: the worker of the same ware, then Czar and Carpenter (§6.2) */
        int k = v - VARIANT_GREEN_TRADING;
        *card = FIRST_TRADING + k / 2;
        *displaced = k % 2 ? STPETE_CARD_CZAR_AND_CARPENTER : stpete_cards[*card].ware;
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

/* Structured form of a valid action id in [0, ID_END) (stpete_action_decode without the checks). */
static inline void stpete_decode(int id, stpete_action *out)
{
    stpete_action a = { STPETE_ACTION_PASS, -1, -1, -1, -1, -1 };
    if (id == ID_PASS) {
        /* pass */
    } else if (id < ID_PLAY) {
        a.kind = STPETE_ACTION_BUY;
        a.source = id < ID_BUY_LOWER ? STPETE_SOURCE_UPPER : STPETE_SOURCE_LOWER;
        stpete_variant_split(id - (id < ID_BUY_LOWER ? ID_BUY_UPPER : ID_BUY_LOWER), &a.card, &a.displaced);
    } else if (id < ID_TAKE_UPPER) {
        a.kind = STPETE_ACTION_PLAY;
        a.source = STPETE_SOURCE_HAND;
        stpete_variant_split(id - ID_PLAY, &a.card, &a.displaced);
    } else if (id < ID_OBSERVATORY) {
        a.kind = STPETE_ACTION_TAKE;
        a.source = id < ID_TAKE_LOWER ? STPETE_SOURCE_UPPER : STPETE_SOURCE_LOWER;
        a.card = id - (id < ID_TAKE_LOWER ? ID_TAKE_UPPER : ID_TAKE_LOWER);
    } else if (id < ID_OBS_BUY) {
        a.kind = STPETE_ACTION_OBSERVATORY;
        a.stack = id - ID_OBSERVATORY;
    } else if (id < ID_OBS_TAKE) {
        a.kind = STPETE_ACTION_OBSERVATORY_BUY;
        a.source = STPETE_SOURCE_OBSERVATORY;
        stpete_variant_split(id - ID_OBS_BUY, &a.card, &a.displaced);
    } else if (id == ID_OBS_TAKE) {
        a.kind = STPETE_ACTION_OBSERVATORY_TAKE;
        a.source = STPETE_SOURCE_OBSERVATORY;
    } else if (id == ID_OBS_DISCARD) {
        a.kind = STPETE_ACTION_OBSERVATORY_DISCARD;
        a.source = STPETE_SOURCE_OBSERVATORY;
    } else {
        a.kind = STPETE_ACTION_PUB;
        a.amount = id - ID_PUB;
    }
    *out = a;
}

/* ---- rng.c: PCG32 (O'Neill, pcg-random.org), state lives in the game state -------------------- */

typedef struct stpete_rng {
    uint64_t state;
    uint64_t inc;
} stpete_rng;

void stpete_rng_seed(stpete_rng *rng, uint64_t seed, uint64_t stream);
uint32_t stpete_rng_next(stpete_rng *rng);
/* Uniform integer in [0, bound), bound >= 1, unbiased (Lemire's multiply-and-reject). */
uint32_t stpete_rng_below(stpete_rng *rng, uint32_t bound);
/* Uniform random permutation of a[0..n). */
void stpete_rng_shuffle(stpete_rng *rng, uint8_t *a, int n);

/* ---- the position: plain data, fixed size, no pointers ----------------------------------------- */

enum { STACK_CAP = 31, ROW_CAP = STPETE_BOARD_SIZE };

typedef struct stpete_rules {
    uint8_t players;
    uint8_t pub_cap;     /* enum stpete_pub_cap */
    uint8_t tie_break;   /* enum stpete_tie_break */
    uint8_t public_rubles;
    uint8_t public_hands;
    int8_t start_markers[4]; /* all -1 = random */
    uint8_t reserved[7];     /* explicit padding: states compare with memcmp */
} stpete_rules;

typedef struct player_state {
    int32_t rubles;
    int32_t vp;
    uint8_t display[STPETE_NUM_CARD_TYPES]; /* copies of each card type in the display */
    uint8_t hand[STPETE_MAX_HAND];          /* card types, in the order taken */
    uint8_t hand_n;
    uint8_t obs_used;                       /* Observatories face down this round (§7.1) */
    uint8_t reserved;                       /* explicit padding */
} player_state;

typedef struct stpete_core {
    stpete_rules rules;
    stpete_rng rng;
    /* stacks: card types, top of the stack = stack[s][stack_n[s] - 1] */
    uint8_t stack[4][STACK_CAP];
    uint8_t stack_n[4];
    /* board rows, in deal order: row[0] upper, row[1] lower */
    uint8_t row[2][ROW_CAP];
    uint8_t row_n[2];
    uint8_t discard[STPETE_NUM_CARD_TYPES];
    uint8_t markers[4];   /* markers[phase] = seat */
    uint8_t phase;        /* enum stpete_phase */
    uint8_t round;        /* from 1 */
    uint8_t current;      /* seat to act */
    uint8_t passes;       /* consecutive passes (§4.3) */
    uint8_t decision;     /* enum stpete_decision */
    int8_t obs_card;      /* card drawn by an Observatory, -1 = none */
    uint8_t final_round;  /* §4.6 */
    uint8_t pub_next;     /* Pub step: offset from the building start player of the next owner to ask */
    uint8_t reserved;     /* explicit padding */
    player_state p[STPETE_MAX_PLAYERS];
} stpete_core;

_Static_assert(sizeof(stpete_core) == 496, "stpete_core must have no implicit padding");

/* ---- handles ------------------------------------------------------------------------------------ */

struct stpete_game {
    stpete_options opts;
    stpete_rules rules;
};

/* Longest message: "action %d (%s) is not legal: %s" with a 95-byte action string and a 160-byte reason. */
#define STPETE_ERRMSG_SIZE 320

/* The pull-style event queue: events[head, len) are pending. Grown before an apply, never during one. */
typedef struct event_queue {
    stpete_event *events;
    uint32_t head, len, cap;
    uint8_t on;
} event_queue;

/* Room the queue keeps free before apply or reset: more than the events of any one step (an action, its
 * displacement, 4 scorings, a phase start, 8 deals, the round end, markers, the last-round flag, 4 final
 * scorings and game over add up to under 40). */
enum { EVENTS_PER_STEP_MAX = 64 };

struct stpete_state {
    const stpete_game *game;
    stpete_event_fn event_fn;
    void *event_user;
    int in_callback;
    event_queue queue;
    stpete_core core;
    char errmsg[STPETE_ERRMSG_SIZE];
};

/* state.c: append an event to the queue (room was reserved before the step). */
void stpete_queue_push(stpete_state *st, const stpete_event *ev);

/* ---- rules.c: setup, legal actions, apply, scoring --------------------------------------------- */

/* Emits events through the state's callback; core functions take the whole state for that. */
void stpete_core_setup(stpete_state *st, uint64_t seed);
/* Legal action ids ascending into out (capacity STPETE_MAX_LEGAL_ACTIONS); returns the count. */
size_t stpete_core_legal(const stpete_core *c, int *out);
/* 0 if legal, else a negative status with a reason written to why (may be NULL). */
int stpete_core_check(const stpete_core *c, int id, char *why, size_t why_size);
/* Apply a legal action (checked before). */
void stpete_core_apply(stpete_state *st, int id);

/* A checked action, ready to apply: stpete_state_apply checks and applies with one decoding, one search of the row
 * or hand and one price. */
typedef struct stpete_move {
    stpete_action a;
    int index; /* index of the card in its row (buy, take) or hand (play), else -1 */
    int price; /* rubles to pay (buy, play, Observatory buy), else 0 */
} stpete_move;

/* stpete_core_check that also fills *mv (valid when it returns 0). */
int stpete_core_check_move(const stpete_core *c, int id, stpete_move *mv, char *why, size_t why_size);
/* Apply a move filled by a successful stpete_core_check_move on this very position. */
void stpete_core_apply_move(stpete_state *st, const stpete_move *mv);

/* Card types of each stack (§2). */
int stpete_stack_of(int card);

/* ---- observe.c: determinization (§9) ----------------------------------------------------------- */

int stpete_core_resample(stpete_core *c, int seat, uint64_t seed);

/* ---- price.c ---------------------------------------------------------------------------------- */

int stpete_price(const stpete_core *c, int seat, int card, int source, int displaced);
int stpete_hand_limit(const stpete_core *c, int seat);
/* Copies of a card type in the display that a trading card may displace now (§6.1: not a face-down Observatory). */
int stpete_displaceable(const stpete_core *c, int seat, int card);

/* ---- scoring.c -------------------------------------------------------------------------------- */

void stpete_score_of(const stpete_core *c, int seat, stpete_score *out);
unsigned stpete_winners_of(const stpete_core *c);

#endif /* STPETE_INTERNAL_H */
