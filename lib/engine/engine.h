/* Internal declarations of libstpete, the engine layer (lib/engine/): the game on a plain position. Not installed.
 * The position (stpete_core: plain data, fixed size, no pointers), the rule facts on a position, and the engine's
 * files: price.c, scoring.c, legal*.c (around legal.h), rules.c, validate.c, knowledge.c, observation.c. Nothing here
 * looks inside a handle (stpete_game, stpete_state) or knows a JSON document: the engine reports events to a sink it is
 * given (lib/facts/facts.h describes the layers). */
#ifndef STPETE_ENGINE_H
#define STPETE_ENGINE_H

#include "facts/facts.h"

/* SSE2 (every x86-64) or WebAssembly SIMD for the display's type masks and the listing's affordability (legal.h);
 * -DSTPETE_NO_SIMD builds the portable code. */
#if defined(__SSE2__) && !defined(STPETE_NO_SIMD)
#include <emmintrin.h>
#elif defined(__wasm_simd128__) && !defined(STPETE_NO_SIMD)
#include <wasm_simd128.h>
#endif

/* ---- the position: plain data, fixed size, no pointers ----------------------------------------- */

/* Stacks hold up to 39 cards (the New Society's trading stack, §12.2.4); a row up to 10 (the 5-player opening,
 * §12.4.1, R20), stored in 16 bytes: the word functions of facts/bytes.h read its first 8 (ROW_WORD), and a row of more
 * than 8 cards takes the slow path of row_find() and friends. */
enum { STACK_CAP = 39, ROW_CAP = 16, ROW_WORD = 8, BOARD_MAX = 10 };

typedef struct stpete_rules {
    uint8_t players;
    uint8_t pub_cap;     /* enum stpete_pub_cap */
    uint8_t tie_break;   /* enum stpete_tie_break */
    uint8_t public_rubles;
    uint8_t public_hands;
    int8_t start_markers[STPETE_NUM_PHASES]; /* all -1 = random */
    uint8_t chance_mode; /* enum stpete_chance_mode */
    uint8_t edition_index; /* 0 = the first edition (2004), 1 = the second (2014, §11): stpete_options.edition - 1 */
    uint8_t new_society;   /* §12; the three options below are its. All four 0 in a base game, so a base
                              game's rules hash and compare as without them */
    uint8_t markers_one_seat;            /* R19 [option] */
    uint8_t used_prison_scores;          /* R22 [option] */
    uint8_t textile_without_new_society; /* R29 [option] */
    uint8_t reserved[1]; /* explicit padding: states compare with memcmp */
} stpete_rules;

typedef struct player_state {
    int32_t rubles;
    int32_t vp;
    uint8_t display[DISPLAY_CAP]; /* copies of each card type in the display (types >= 62 always 0) */
    uint8_t hand[STPETE_MAX_HAND];          /* card types, in the order taken */
    uint8_t hand_n;
    uint8_t obs_used;                       /* Observatories face down this round (§7.1) */
    uint8_t hand_known;                     /* bit h: everyone saw hand[h] taken (§9), so its identity is known */
    uint8_t prison_used;                    /* the Debtor's Prison is used this round (§12.7.5, R21, R22) */
} player_state;

/* A random event the engine waits for (explicit-chance mode, stpete_state_chance_outcomes()): none, the card a deal
 * places (§4.5), the random start-player markers (§3.3, §12.3), the card an Observatory draws (§7.1). */
enum { CHANCE_NONE = 0, CHANCE_DEAL, CHANCE_MARKERS, CHANCE_DRAW };

/* What follows a deal once the board is full (or the stack empty): §3.5 the first worker phase, §4.5 the next
 * phase, §4.5 steps 4-5 of the end of a round. */
enum { THEN_SETUP = 0, THEN_NEXT_PHASE, THEN_ROUND };

typedef struct stpete_core {
    stpete_rules rules;
    stpete_rng rng;
    /* stacks: card types, top of the stack = stack[s][stack_n[s] - 1]; in explicit-chance mode a multiset kept in
     * card-type order (its order does not exist yet) */
    uint8_t stack[STPETE_NUM_STACKS][STACK_CAP];
    uint8_t stack_n[STPETE_NUM_STACKS];
    /* board rows, in deal order: row[0] upper, row[1] lower. In rows and hands the bytes past the count are 0
     * (the listing's type masks rely on it, and states compare with memcmp) */
    uint8_t row[2][ROW_CAP];
    uint8_t row_n[2];
    uint8_t discard[DISPLAY_CAP];
    uint8_t markers[STPETE_NUM_PHASES]; /* markers[phase] = seat; with 5 players the seat holding none has the gold
                                           disc (§12.3) */
    uint8_t phase;        /* enum stpete_phase */
    uint8_t round;        /* from 1 */
    uint8_t current;      /* seat to act (at a chance node: the seat that acted last, or the Observatory's owner) */
    uint8_t passes;       /* consecutive passes (§4.3) */
    uint8_t decision;     /* enum stpete_decision */
    int8_t obs_card;      /* card drawn by an Observatory (decision OBSERVATORY) or picked from the discard pile by
                             the Debtor's Prison (decision PRISON, §12.7.5), -1 = none */
    uint8_t final_round;  /* §4.6 */
    uint8_t pub_next;     /* Pub step: offset from the building start player of the next owner to ask */
    uint8_t chance;       /* CHANCE_*: the random event pending at a chance node */
    uint8_t deal_stack;   /* the deal in progress: from this stack ... */
    uint8_t deal_to;      /* ... until the board holds this many cards ... */
    uint8_t deal_then;    /* ... then THEN_* */
    uint8_t rubles_recalled; /* 1: every seat knows every seat's rubles by perfect recall (reached by play from §3's
                                setup: every income and price is public); 0 in a position loaded from a document
                                that does not say so (stpete_knowledge_rubles_known, doc/format.md "rubles_recalled") */
    uint8_t reserved_mid[1];  /* explicit padding */
    player_state p[STPETE_MAX_PLAYERS];
    uint8_t reserved_tail[4]; /* explicit padding */
    /* Not part of the position (stpete_state_equal ignores it): a hash of everything public that happened since the
     * game's start (actions, dealt and drawn cards, the marker deal), the perfect-recall part of the information
     * state key (stpete_state_information_state_key). */
    uint64_t public_hash;
} stpete_core;

_Static_assert(sizeof(stpete_rules) == 16, "stpete_rules: 16 bytes, hashed byte by byte");
_Static_assert(sizeof(player_state) == 80, "player_state must have no implicit padding");
_Static_assert(sizeof(stpete_core) == 720, "stpete_core must have no implicit padding");
_Static_assert(offsetof(stpete_core, public_hash) == 712, "public_hash comes last: equality compares what is before");
_Static_assert(sizeof(stpete_core) % 16 == 0, "stpete_engine_copy moves 16 bytes at a time");

/* Copy a whole position (what stpete_state_copy does in every playout). memcpy of the 512 bytes compiles, with
 * GCC on x86-64, to `rep movsq`, whose start-up costs more than the copy itself: explicit 16-byte moves take
 * about half the time (stpete-bench "copy into"). */
static inline void stpete_engine_copy(stpete_core *dst, const stpete_core *src)
{
#if defined(__GNUC__) || defined(__clang__)
    typedef unsigned char chunk __attribute__((vector_size(16), aligned(1), may_alias));
    const chunk *from = (const chunk *)(const void *)src;
    chunk *to = (chunk *)(void *)dst;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 32
#endif
    for (size_t i = 0; i < sizeof *src / sizeof(chunk); i++)
        to[i] = from[i];
#else
    memcpy(dst, src, sizeof *src);
#endif
}

/* Bytes of a core that make the position (stpete_state_equal). */
#define STPETE_POSITION_BYTES offsetof(stpete_core, public_hash)

/* Mix a public event into the public history hash (splitmix64's finalizer over hash ^ token: stable on every
 * platform, documented in doc/observation.md). */
static inline uint64_t stpete_engine_hash_mix(uint64_t h, uint64_t token)
{
    uint64_t z = h ^ (token + UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The start of the public history: the rules, but for the chance mode (a sampled game and the explicit game given
 * the same outcomes are the same game for the players, with the same information state keys). */
static inline uint64_t stpete_engine_rules_hash(const stpete_rules *rules)
{
    stpete_rules r = *rules;
    r.chance_mode = 0;
    uint64_t h = 0;
    for (size_t i = 0; i < sizeof r; i++)
        h = stpete_engine_hash_mix(h, ((const uint8_t *)&r)[i]);
    return h;
}

/* ---- facts both the listing and the check read: one inline function each ------------------------ */

/* The start-player marker rule (§3.3, R15): each phase's marker is held by a seat in [0, players), and every seat
 * holds one or two; with 5 players (§12.3, R18) every seat holds at most one, and the seat holding none has the
 * gold disc. The one home of the rule, for the options (stpete_validate_markers, game.c), the marker deals a chance
 * outcome may name (legal.c) and the random deal (rules.c). 0 if markers[] is such an assignment; else 1 + k for
 * the first marker k held by no seat in range, or -(1 + s) for the first seat s holding too few or too many. */
static inline int stpete_engine_markers_fault(const int markers[STPETE_NUM_PHASES], int players)
{
    int held[STPETE_MAX_PLAYERS] = { 0 };
    for (int k = 0; k < STPETE_NUM_PHASES; k++) {
        if (markers[k] < 0 || markers[k] >= players)
            return 1 + k;
        held[markers[k]]++;
    }
    int least = players == 5 ? 0 : 1, most = players == 5 ? 1 : 2;
    for (int s = 0; s < players; s++)
        if (held[s] < least || held[s] > most)
            return -(1 + s);
    return 0;
}

/* The gold disc's holder (§12.3, R18): with 5 players the seat holding no marker; -1 otherwise. */
static inline int stpete_engine_gold_disc(const uint8_t markers[STPETE_NUM_PHASES], int players)
{
    if (players != 5)
        return -1;
    unsigned held = 0;
    for (int k = 0; k < STPETE_NUM_PHASES; k++)
        held |= 1u << markers[k];
    for (int s = 0; s < players; s++)
        if (!(held >> s & 1u))
            return s;
    return -1;
}

/* The setup deal (§3.4): 2 cards per player from the worker stack into the upper row. The one home of the number
 * (the setup in rules.c, the longest game in game.c). */
static inline int stpete_engine_setup_deal(int players)
{
    return 2 * players;
}

/* The start-player markers as a chance outcome code (stpete.h, STPETE_CHANCE_MARKERS_FIRST): markers[0]
 * + 4 markers[1] + 16 markers[2] + 64 markers[3], in [0, 256). */
static inline int stpete_engine_markers_encode(const uint8_t markers[STPETE_NUM_PHASES])
{
    return markers[0] + 4 * markers[1] + 16 * markers[2] + 64 * markers[3];
}

/* The markers of a code in [0, 256) (stpete_engine_markers_encode's inverse). */
static inline void stpete_engine_markers_decode(int code, int markers[STPETE_NUM_PHASES])
{
    for (int k = 0; k < STPETE_NUM_PHASES; k++, code /= 4)
        markers[k] = code % 4;
}

/* The card table of a game: its edition's (§2, §11), or the New Society's (§12.2, first edition only). */
static inline const card_def *stpete_engine_cards(const stpete_rules *rules)
{
    return stpete_card_tables[rules->edition_index + 2 * rules->new_society];
}

/* The lanes of costs, colours and values (stpete_card_lanes) of the game's card table. */
static inline const card_lanes *stpete_engine_lanes(const stpete_rules *rules)
{
    return &stpete_card_lanes[rules->edition_index + 2 * rules->new_society];
}

/* The packed incomes (stpete_card_income) of the game's card table. */
static inline const int32_t *stpete_engine_incomes(const stpete_rules *rules)
{
    return stpete_card_income[rules->edition_index + 2 * rules->new_society];
}

/* The card types of a game: 49, or 62 with the New Society (§12.2). */
static inline int stpete_engine_card_types(const stpete_rules *rules)
{
    return rules->new_society ? CARD_TYPES_ALL : STPETE_NUM_CARD_TYPES;
}

/* Whether id (>= 0) is an action or chance outcome id of a game: [0, 1277) in every game (the 1.0 ids), and with
 * the New Society also [STPETE_NS_ACTION_FIRST, STPETE_NS_ID_END) (stpete.h). */
static inline int stpete_engine_id_in_game(const stpete_rules *rules, int id)
{
    return id < CHANCE_END || (rules->new_society && id >= STPETE_NS_ACTION_FIRST && id < STPETE_NS_ID_END);
}

/* The start-player marker deal as a chance outcome id (§3.3; §12.3 with 5 players, base 5). */
static inline int stpete_engine_markers_outcome(const uint8_t markers[STPETE_NUM_PHASES], int players)
{
    if (players == 5)
        return STPETE_NS_CHANCE_MARKERS_FIRST + markers[0] + 5 * markers[1] + 25 * markers[2] + 125 * markers[3];
    return STPETE_CHANCE_MARKERS_FIRST + stpete_engine_markers_encode(markers);
}

/* ---- rows of up to 10 cards (§12.4.1): the word functions for 8, a loop beyond ---------------------- */

static inline int stpete_engine_row_find(const uint8_t *row, int n, int card)
{
    int i = stpete_bytes_find8(row, n < ROW_WORD ? n : ROW_WORD, card);
    if (i >= 0 || n <= ROW_WORD)
        return i;
    for (i = ROW_WORD; i < n; i++)
        if (row[i] == card)
            return i;
    return -1;
}

static inline void stpete_engine_row_remove(uint8_t *row, uint8_t *n, int i)
{
    if (*n <= ROW_WORD) {
        stpete_bytes_remove8(row, n, i);
        return;
    }
    for (int k = i + 1; k < *n; k++)
        row[k - 1] = row[k];
    row[--(*n)] = 0;
}

/* Whether it is the buy-only first worker phase of the second edition (§11): no take, no Observatory, no pass while
 * a board card is affordable. */
static inline int stpete_engine_buy_only(const stpete_core *c)
{
    return c->rules.edition_index == 1 && c->round == 1 && c->phase == STPETE_PHASE_WORKER;
}

/* Hand limit (§7.3, R11): 4 with a Warehouse in the display, else 3. */
static inline int stpete_engine_hand_limit(const player_state *p)
{
    return p->display[STPETE_CARD_WAREHOUSE] ? STPETE_MAX_HAND : STPETE_MAX_HAND - 1;
}

/* Bit t set for each card type t < types of which the display holds at least one copy (16 types at a time with SIMD,
 * then 8 at a time with stpete_bytes_nonzero, the rest one by one). */
static inline uint64_t stpete_engine_display_types(const player_state *p, int types)
{
    uint64_t m = 0;
    int t = 0;
#if defined(__SSE2__) && !defined(STPETE_NO_SIMD) /* 16 types at a time: one compare with zero */
    for (; t + 16 <= types; t += 16)
        m |= (uint64_t)(uint16_t)~_mm_movemask_epi8(
                 _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p->display + t)), _mm_setzero_si128()))
             << t;
#elif defined(__wasm_simd128__) && !defined(STPETE_NO_SIMD)
    for (; t + 16 <= types; t += 16)
        m |= (uint64_t)(uint16_t)~wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p->display + t), wasm_i8x16_splat(0)))
             << t;
#endif
    for (; t + 8 <= types; t += 8)
        m |= (uint64_t)stpete_bytes_nonzero(p->display + t) << t;
    for (int u = types / 8 * 8; u < types; u++) /* t is types / 8 * 8 here */
        m |= (uint64_t)(p->display[u] != 0) << u;
    return m;
}

/* Whether the seat to act may use its Debtor's Prison now (§12.7.5, R21): the building phase, the Prison in the
 * display and unused, a card in the discard pile. */
static inline int stpete_engine_prison_usable(const stpete_core *c, const player_state *p)
{
    if (!p->display[STPETE_CARD_DEBTORS_PRISON] || p->prison_used || c->phase != STPETE_PHASE_BUILDING)
        return 0;
    for (int t = 0; t < CARD_TYPES_ALL; t++)
        if (c->discard[t])
            return 1;
    return 0;
}

/* Observatories in the display still face up this round (§7.1, R9): usable, and displaceable. */
static inline int stpete_engine_face_up_observatories(const player_state *p)
{
    return p->display[STPETE_CARD_OBSERVATORY] - p->obs_used;
}

/* Copies of a card type in the display that a trading card may displace now (§6.1: not a face-down Observatory,
 * §7.1). */
static inline int stpete_engine_displaceable(const player_state *p, int card)
{
    if (card == STPETE_CARD_DEBTORS_PRISON && p->prison_used) /* used: not until the next round (§12.6, R22) */
        return 0;
    return card == STPETE_CARD_OBSERVATORY ? stpete_engine_face_up_observatories(p) : p->display[card];
}

/* The colour discount of §5.1.3 and §5.1.4: 1 R off a blue card with the Carpenter Workshop in the display, off an
 * orange card with the Gold Smelter. */
static inline int stpete_price_colour_discount(const player_state *p, int colour)
{
    /* & and | instead of && and ||: no branch on the colour of the card being priced; the Obshchina Commune's green
     * discount (§12.5, R27) is 0 in a base game, whose displays never hold it */
    return ((colour == STPETE_COLOUR_BLUE) & (p->display[STPETE_CARD_CARPENTER_WORKSHOP] != 0)) |
           ((colour == STPETE_COLOUR_ORANGE) & (p->display[STPETE_CARD_GOLD_SMELTER] != 0)) |
           ((colour == STPETE_COLOUR_GREEN) & (p->display[STPETE_CARD_OBSHCHINA_COMMUNE] != 0));
}

/* The Trading House (§12.7.6, R25): 3 R for 2 VP, once per building scoring. The Guild Hall (§12.7.7, R24): 4 units
 * split into R and VP. */
enum { TRADING_HOUSE_RUBLES = 3, TRADING_HOUSE_VP = 2, GUILD_HALL_UNITS = 4 };

/* What the Pub's VP cost (§7.2, R10): 2 rubles each. The one place that says it. */
enum { PUB_RUBLES_PER_VP = 2 };
static inline int stpete_price_pub(int vp)
{
    return PUB_RUBLES_PER_VP * vp;
}

/* VP a Pub owner may buy now (§7.2, R10): 0 means no choice. */
static inline int stpete_engine_pub_cap(const stpete_core *c, int seat)
{
    const player_state *p = &c->p[seat];
    int pubs = p->display[STPETE_CARD_PUB];
    if (!pubs)
        return 0;
    int cap = c->rules.pub_cap == STPETE_PUB_CAP_PER_PLAYER ? 5 : 5 * pubs;
    int affordable = p->rubles / PUB_RUBLES_PER_VP;
    return affordable < cap ? affordable : cap;
}

/* Rubles and VP never leave [0, STPETE_RUBLES_MAX] and [-STPETE_VP_MAX, STPETE_VP_MAX]: every gain saturates, so
 * any position the JSON reader accepts stays loadable after any play (doc/format.md). A real game stays far below
 * (a few hundred at most), so saturation never changes a reachable game. */
static inline int32_t stpete_engine_add_rubles(int32_t rubles, int gain)
{
    int64_t r = (int64_t)rubles + gain;
    return (int32_t)(r > STPETE_RUBLES_MAX ? STPETE_RUBLES_MAX : r < 0 ? 0 : r);
}

static inline int32_t stpete_engine_add_vp(int32_t vp, int gain)
{
    int64_t v = (int64_t)vp + gain;
    return (int32_t)(v > STPETE_VP_MAX ? STPETE_VP_MAX : v < -STPETE_VP_MAX ? -STPETE_VP_MAX : v);
}

/* ---- price.c: prices (§5), one home for the legality core, the check, the apply and the queries ------- */

/* A card's price before a displaced card's value and the 1 R floor: printed cost d->cost (§2, §11) - its same-name
 * copies in the display (§5.1.1) - 1 from the lower row (lower = 1, §5.1.2, R6) - the colour discount of its colour,
 * stpete_price_colour_discount() (§5.1.3, §5.1.4; a caller pricing many cards computes it once per colour). */
static inline int stpete_price_before_displacement(const card_def *d, int same_name, int lower, int colour_discount)
{
    return d->cost - same_name - lower - colour_discount;
}

/* The price: the above minus the value of the displaced card (0 for a non-trading card; §5.2, §7.4, R7), at least
 * 1 R (R5). A seat can pay it iff price <= its rubles. */
static inline int stpete_price_with(int before_displacement, int displaced_value)
{
    int price = before_displacement - displaced_value;
    return price < 1 ? 1 : price;
}

/* The price seat would pay for card from source, displacing displaced (-1 for non-trading), §5, R5-R7. */
int stpete_price(const stpete_core *c, int seat, int card, int source, int displaced);

/* ---- scoring.c -------------------------------------------------------------------------------- */

/* Rubles and VP of a phase's scoring (§4.4), returned in one register pair. */
typedef struct stpete_income {
    int rubles, vp;
} stpete_income;

/* Income of a seat at its phase's scoring (§4.4, §7.1 face-down Observatories, §7.5 Mariinskij-Theater and Tax
 * Man). */
stpete_income stpete_scoring_income(const stpete_core *c, int seat, int colour);
/* What the seat is paid at that scoring now: the income above, with the Sycophants netted (§12.7.9, R26: a seat
 * that cannot pay discards them one at a time, each discard raising the income by 1, until the purse stays at 0
 * or more); *unpaid (may be NULL) receives the number discarded. The one home of the netting (rules.c scores with
 * it, stpete_state_income() answers with it). */
stpete_income stpete_scoring_due(const stpete_core *c, int seat, int colour, int *unpaid);
/* What the seat's display now is paid at the next scoring of colour (stpete_state_income(), the table document's
 * incomes): stpete_scoring_due(), but for a building scoring of a later round (this round's has scored, or the
 * end-of-round deal is under way) with its Observatories face up and its Prison unused (§4.5 step 5, §12.4.5). */
stpete_income stpete_scoring_due_next(const stpete_core *c, int seat, int colour);
void stpete_scoring_score(const stpete_core *c, int seat, stpete_score *out);
unsigned stpete_scoring_winners(const stpete_core *c);

/* The phase whose scoring comes next (§4.4): the current phase's until it has scored, then the next phase's (the
 * decisions after the building scoring, §7.2, §12.4.3, and the chance nodes of the deal after a scoring, §4.5,
 * still have the scored phase as c->phase); in the trading phase the next round's worker scoring, none (-1) in the
 * final round's trading phase (§4.6) and after the end. */
static inline int stpete_scoring_next(const stpete_core *c)
{
    if (c->decision == STPETE_DECISION_GAME_OVER)
        return -1;
    int phase = c->phase, final_round = c->final_round;
    if (c->decision == STPETE_DECISION_PUB || c->decision == STPETE_DECISION_GUILD_HALL ||
        c->decision == STPETE_DECISION_TRADING_HOUSE)
        phase++; /* the building phase has scored */
    else if (c->decision == STPETE_DECISION_CHANCE && c->chance == CHANCE_DEAL && c->deal_then == THEN_NEXT_PHASE) {
        phase++; /* this phase has scored; the deal under way empties its stack if it needs as many cards (§4.6) */
        final_round |= c->deal_to - (c->row_n[0] + c->row_n[1]) >= c->stack_n[c->deal_stack];
    }
    if (phase != STPETE_PHASE_TRADING)
        return phase;
    return final_round ? -1 : STPETE_PHASE_WORKER;
}

/* ---- offers.c: what each card a seat could buy or play would cost it ------------------------------- */

/* The offers of seat (stpete_state_offers(): the rows, the drawn or picked card of the seat to act, the seat's
 * hand; every way each is bought or played, with its price) into out (the first cap of them); returns the count. */
size_t stpete_offers_list(const stpete_core *c, int seat, stpete_offer *out, size_t cap);

/* ---- card_text.c: what a card does, in words ---------------------------------------------------- */

/* The text of stpete_game_card_text() into buf (NUL-terminated, truncated to capacity, which may be 0); returns the
 * length it needs, without the NUL. */
size_t stpete_card_text_write(const stpete_rules *rules, int card, char *buf, size_t capacity);

/* ---- the sink the engine reports to (the handle layer's listeners, api/listeners.c, are one) ------- */

/* Where the engine sends its events. NULL = nobody listens (the engine then does not even build them). */
typedef struct stpete_sink {
    void (*fn)(void *ctx, const stpete_event *ev);
    void *ctx;
} stpete_sink;

/* A blank event of a kind at a position: every field -1 but the phase and round. */
static inline stpete_event stpete_engine_event(const stpete_core *c, int kind)
{
    stpete_event ev = { sizeof(stpete_event), kind, -1, -1, -1, -1, -1, -1, -1, -1, -1, c->phase, c->round,
                         c->rules.edition_index + 1 };
    return ev;
}

/* STPETE_NOINLINE: a function kept out of line (a rare path, so that the hot caller needs no frame for it);
 * STPETE_ALWAYS_INLINE: a body built once per caller (e.g. once with a sink and once without, the EMITs of the
 * second vanishing at compile time). Hints only: other compilers build the same behaviour. */
#if defined(__GNUC__) || defined(__clang__)
#define STPETE_NOINLINE __attribute__((noinline))
#define STPETE_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define STPETE_NOINLINE
#define STPETE_ALWAYS_INLINE inline
#endif

/* Emit an event built by the statements in the variadic part, only when a sink listens. */
#define STPETE_EMIT(sink, core, kind, ...)                        \
    do {                                                          \
        if (sink) {                                               \
            stpete_event ev = stpete_engine_event((core), (kind));    \
            __VA_ARGS__;                                          \
            (sink)->fn((sink)->ctx, &ev);                         \
        }                                                         \
    } while (0)

/* ---- legal*.c: legality in one place around legal.h: the listing, the check and the pick derived from it -- */

/* Legal action ids ascending into out (capacity LEGAL_CAP); returns the count. At a chance node the chance outcome
 * ids. */
enum { LEGAL_CAP = STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY };
size_t stpete_legal_list(const stpete_core *c, int *out);

/* The listed id at index random % count into *id (stpete_state_random_action()); STPETE_E_GAME_OVER at the end. */
int stpete_legal_random(const stpete_core *c, uint64_t random, int *id);

/* A checked action, ready to apply: stpete_state_apply checks and applies with one decoding, one search of the row
 * or hand and one price. */
typedef struct stpete_move {
    int id;    /* the action id, or a chance outcome id (>= STPETE_CHANCE_CARD_FIRST) at a chance node */
    stpete_action a;
    int index; /* index of the card in its row (buy, take) or hand (play), else -1 */
    int price; /* rubles to pay (buy, play, Observatory buy), else 0 */
} stpete_move;

/* Whether a start-player marker code (stpete_engine_markers_encode) is a deal §3.3 allows for n players: every seat
 * in range holding 1 or 2 markers. */
int stpete_legal_markers_valid(int code, int players);

/* 0 if id (in [0, CHANCE_END)) is legal, and *mv filled; else a negative status with a reason written to why (may be
 * NULL). At a chance node the legal ids are the chance outcomes. */
int stpete_legal_check(const stpete_core *c, int id, stpete_move *mv, char *why, size_t why_size);

/* The playout step's pick (stpete_state_apply_random): the listed id at index random % count (STPETE_PICK_MODULO,
 * stpete_legal_random's draw) or ((random >> 32) * count) >> 32 (STPETE_PICK_SCALED), into *mv as
 * stpete_legal_check() would fill it, without checking the id again (the listing is the check); 0, or
 * STPETE_E_GAME_OVER at the end. */
int stpete_legal_pick(const stpete_core *c, uint64_t random, int pick, stpete_move *mv);

/* ---- rules.c: setup, apply and every automatic step (§3-§8) ------------------------------------- */

/* §3 setup of a new game of these rules from seed, events to sink (may be NULL). */
void stpete_rules_setup(stpete_core *c, const stpete_rules *rules, uint64_t seed, const stpete_sink *sink);
/* The events of a setup (§3.3-§3.5: the gold disc, the workers dealt, the first phase), from the position the setup
 * made: what stpete_rules_setup reports, and what a replay of a history whose root is a setup reports first. */
void stpete_rules_setup_events(const stpete_core *c, const stpete_sink *sink);
/* Apply a move filled by a successful stpete_legal_check on this very position (an action or, at a chance
 * node, a chance outcome). */
void stpete_rules_apply_move(stpete_core *c, const stpete_move *mv, const stpete_sink *sink);
/* Apply a legal chance outcome at a chance node (explicit-chance mode). */
void stpete_rules_apply_chance(stpete_core *c, int outcome, const stpete_sink *sink);
/* Check and apply an id in [0, CHANCE_END): 0, or the check's status (position unchanged). */
int stpete_rules_apply(stpete_core *c, int id, const stpete_sink *sink, char *why, size_t why_size);

/* ---- validate.c: the invariants of a position, one function ---------------------------------------- */

/* Check a start-player marker assignment (§3.3, R15): every marker held by a seat in [0, players), each seat
 * holding 1 or 2. 0, or STPETE_E_INVALID_ARGUMENT with the reason in why. Used for options and loaded positions. */
int stpete_validate_markers(const int markers[STPETE_NUM_PHASES], int players, char *why, size_t why_size);
/* Whether c (its rules set, every field within the range of its type) is a position the engine can play on from:
 * the 116 cards each in one place (§2), every stack card of its stack and a stack of explicit-chance mode in
 * card-type order, at most 10 cards on the board (§4.5), the marker rule (§3.3, R15), face-down Observatories
 * owned (§7.1), the decision matching the phase, the drawn card and the Pub seat order (§7.1, §7.2), the final
 * round exactly when a stack is empty (§4.6, R4), a game over only after the final trading phase (§8), a chance
 * node the engine can reach (§3.3, §4.5, §7.1), an odd PRNG stream. STPETE_OK, or STPETE_E_INCONSISTENT with the
 * reason in why (may be NULL), checks in that order of the document's keys. What the JSON reader calls after
 * parsing (read.c). */
int stpete_validate_position(const stpete_core *c, char *why, size_t why_size);

/* ---- knowledge.c: what a seat knows (§9), the one definition, and determinization ------------------- */

/* Whether seat (or STPETE_VIEW_PUBLIC: a spectator) sees player's rubles now: its own, or all with public_rubles
 * (§9). What the observation, the views and stpete_state_visible_rubles() show. */
int stpete_knowledge_rubles_visible(const stpete_core *c, int seat, int player);
/* Whether seat knows player's rubles with perfect recall: seen now, or recalled (rubles_recalled). What the
 * information state holds and determinization keeps. */
int stpete_knowledge_rubles_known(const stpete_core *c, int seat, int player);
/* Whether seat knows the identity of player's hand card h (§9): its own, public hands, or seen taken. */
int stpete_knowledge_hand_card(const stpete_core *c, int seat, int player, int h);

/* A hand card the seat has not seen, in a knowledge: HIDDEN_CARD + the stack of its back (§1). */
enum { HIDDEN_CARD = 64 };

/* What one seat knows (§9), with perfect recall: THE definition that the observation tensor and string, the
 * information-state string and key, the JSON views and determinization all read. A position with every secret
 * of the seat replaced by a fixed value, so two positions the seat cannot tell apart give byte-equal knowledge:
 * the PRNG and every stack's list are 0 (sizes kept), the chance mode is 0 (it changes nothing anyone sees), an
 * unseen hand card is HIDDEN_CARD + its back, unknown rubles are -1. The public history hash is kept. */
typedef struct stpete_knowledge {
    stpete_core k;
    int seat;               /* the seat, or STPETE_VIEW_PUBLIC (a spectator: only what is public) */
    unsigned rubles_shown;  /* bit p: the seat sees p's rubles now (stpete_knowledge_rubles_visible) */
} stpete_knowledge;

/* The knowledge of seat (a valid seat or STPETE_VIEW_PUBLIC) in c. */
void stpete_knowledge_of(const stpete_core *c, int seat, stpete_knowledge *out);
/* The information-state key of a knowledge: a hash of all its bytes and the seat (equal knowledge, equal key). */
uint64_t stpete_knowledge_key(const stpete_knowledge *kn);
/* Redraw what seat (a valid seat) does not know, from seed; flags: STPETE_DETERMINIZE_*. */
void stpete_knowledge_resample(stpete_core *c, int seat, uint64_t seed, unsigned flags);

/* ---- observation.c: what one seat may know now (§9), as a tensor and as text ---------------------- */

/* Size of the observation tensor of a base game (doc/observation.md): 4 seat blocks. */
enum { OBS_SEAT_BLOCK = 109, OBS_GLOBAL = 232, OBS_SIZE = OBS_GLOBAL + 4 * OBS_SEAT_BLOCK, OBS_SIZE_MAX = 972 };
/* Size of the observation tensor of a game: OBS_SIZE, or 972 with the New Society (observation.c). */
int stpete_observation_size(const stpete_rules *rules);
/* Write the observation of a knowledge (of a valid seat) into out[stpete_observation_size()]. */
void stpete_observation_tensor(const stpete_knowledge *kn, float *out);
/* Append the observation text of a valid seat to a growing buffer; see text_buf. */
typedef struct text_buf {
    char *buf;   /* caller's buffer, may be NULL */
    size_t size; /* its size */
    size_t len;  /* length of the whole text so far (may exceed size: then only a prefix was written) */
} text_buf;
void stpete_observation_printf(text_buf *t, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void stpete_observation_text(const stpete_knowledge *kn, text_buf *t);
/* A digest of what is public in a position (§9: its spectators' knowledge, nothing recalled), the public history
 * hash of a position loaded without its public history. */
uint64_t stpete_knowledge_public_digest(const stpete_core *c);

#endif /* STPETE_ENGINE_H */
