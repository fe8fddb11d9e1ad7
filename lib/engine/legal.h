/* The legality core (§4.2, §5, §6, §7.1, §7.2), private to the legal*.c files of lib/engine/ (as SQLite's
 * whereInt.h to its where*.c). Legality is a handful of inline functions over bit masks: the card types present in
 * each row and in the hand (legal_source_types), the types a trading card may displace (legal_displaceable_mask),
 * whether a card is affordable (legal_plain_legal, legal_plain_affordable) and whether a trading card may displace a
 * target at its price (legal_target_legal), the hand's room (legal_hand_room), the Observatory draws
 * (legal_observatory_legal, legal_observatory_stacks), the Debtor's Prison's picks (legal_prison_picks), the Pub
 * choices (stpete_engine_pub_cap, engine.h). Everything is derived from them, each in its own file:
 *   - legal_list.c, the listing (stpete_legal_list): ids ascending, in the order and with the ids of stpete.h's
 *     encoding; the mask (stpete_state_legal_action_mask) comes from it;
 *   - legal_check.c, the check of one id with its reason (stpete_legal_check: the check inside every apply,
 *     stpete_state_is_legal, stpete_state_action_price): the same functions for the one card the id names, or the
 *     listing where a rule reads the whole of it (pass in the buy-only phase, §11); its reasons only explain a
 *     refusal;
 *   - legal_pick.c, the playout step's pick (stpete_legal_pick: the listed id at the drawn index), and through it
 *     the uniform random pick (stpete_legal_random: the listed id at random % count): at a turn (the New Society's
 *     included, not the buy-only phase of §11) the listing's ids as runs of bits from the same functions, counted
 *     and walked to the drawn index without being written; elsewhere the listing;
 *   - legal.c, the core's out-of-line part: the chance outcomes (listed and checked) and the start-player marker
 *     deals.
 * The core is inline here, not in a .c file, so that the listing, the check and the pick each keep it inlined
 * into their loops as when they were one file (doc/performance.md measures them). Prices:
 * stpete_price_before_displacement() and stpete_price_with() (engine.h), for the listing, the check, the apply and
 * stpete_state_price(). */
#ifndef STPETE_ENGINE_LEGAL_H
#define STPETE_ENGINE_LEGAL_H

#include <string.h>
/* legal_plain_affordable's vectors: SSE2 (every x86-64) or WebAssembly SIMD; -DSTPETE_NO_SIMD builds the portable
 * loop */
#if defined(__SSE2__) && !defined(STPETE_NO_SIMD)
#define STPETE_SIMD_SSE2 1
#include <emmintrin.h>
#elif defined(__wasm_simd128__) && !defined(STPETE_NO_SIMD)
#define STPETE_SIMD_WASM 1
#include <wasm_simd128.h>
#endif

#include "engine/engine.h"

/* The core's helpers are inlined (called from one place each, or in a loop). */
#if defined(__GNUC__) || defined(__clang__)
#define CORE_INLINE static inline __attribute__((always_inline))
#else
#define CORE_INLINE static inline
#endif

/* ---- the legality core: what a seat may buy, play, take, draw, pay ------------------------------------ */

/* What the core reads about the seat to act. */
typedef struct seat_ctx {
    const card_def *cards; /* the edition's table (§2, §11) */
    const player_state *p;
    int rubles;
    int discount[3];    /* by colour: stpete_price_colour_discount() (§5.1.3, §5.1.4) */
    int targets_known;  /* targets computed (only when a trading card is met) */
    uint64_t targets;   /* card types the seat's trading cards may displace now (§6.1) */
    uint64_t affordable[2]; /* the listing's: legal_plain_affordable() from the upper row (or hand) [0], the lower
                               [1] */
    int ns;             /* the New Society (§12): its plain types 49..53 and its rules of targets */
} seat_ctx;

CORE_INLINE seat_ctx legal_seat_of(const stpete_core *c)
{
    const player_state *p = &c->p[c->current];
    seat_ctx x = { stpete_engine_cards(&c->rules), p, p->rubles,
                   { stpete_price_colour_discount(p, STPETE_COLOUR_GREEN),
                     stpete_price_colour_discount(p, STPETE_COLOUR_BLUE),
                     stpete_price_colour_discount(p, STPETE_COLOUR_ORANGE) },
                   0, 0, { 0, 0 }, c->rules.new_society };
    return x;
}

/* Card types of the display that a trading card may displace (§6.1): present, and for the Observatory not face
 * down (§7.1); stpete_engine_displaceable() > 0 as a mask. Only workers, buildings and aristocrats (types 0..23) are
 * ever targets (§6.2). */
CORE_INLINE void legal_set_targets(seat_ctx *x, uint64_t present) /* present: the display's types among 0..23 */
{
    if (x->ns) { /* §12.6: the new workers, buildings and Sycophant too; a used Debtor's Prison is no target (R22) */
        present |= stpete_engine_display_types(x->p, DISPLAY_CAP) & PLAIN_TYPES;
        if (x->p->prison_used)
            present &= ~(UINT64_C(1) << STPETE_CARD_DEBTORS_PRISON);
    }
    if (stpete_engine_face_up_observatories(x->p) <= 0)
        present &= ~(UINT64_C(1) << STPETE_CARD_OBSERVATORY);
    x->targets = present;
    x->targets_known = 1;
}

CORE_INLINE uint64_t legal_displaceable_mask(seat_ctx *x)
{
    if (!x->targets_known) /* legal_plain_affordable() sets them from its vectors */
        legal_set_targets(x, stpete_engine_display_types(x->p, FIRST_TRADING));
    return x->targets;
}

/* A card's price from a source (lower = 1 for the lower row) before a displaced card's value (§5.1). */
CORE_INLINE int legal_price_before(const seat_ctx *x, int card, int lower)
{
    const card_def *d = &x->cards[card];
    return stpete_price_before_displacement(d, x->p->display[card], lower, x->discount[d->colour]);
}

/* Whether a seat with at least 1 R (the callers check it: R5, every price is at least 1 R) can afford a
 * non-trading card from a source: its price within its rubles. With rubles >= 1 the 1 R floor of stpete_price_with()
 * never decides (max(1, p) <= rubles iff p <= rubles), so the price before it is compared. */
CORE_INLINE int legal_plain(const seat_ctx *x, int card, int lower)
{
    return legal_price_before(x, card, lower) <= x->rubles;
}

/* legal_plain() for every non-trading card type at once, the listing's inner loop (a seat with at least 1 R):
 * x->affordable[0] gets bit t set for each type t < FIRST_TRADING the seat can afford from the upper row or its hand,
 * x->affordable[1] from the lower row (1 R less, §5.1.2, R6). The price before displacement of every type in one
 * vector of bytes: the edition's costs (stpete_card_lanes, the table's copy) - the display's copies (§5.1.1) - the
 * colour discount (§5.1.3, §5.1.4, and the Obshchina Commune's on green cards, §12.5, R27, 0 in a base game),
 * compared with the rubles (at most 127 in a byte: no plain card costs more). Every value fits a signed byte (a cost
 * <= 25, the New Society's Academy; at most 6 copies of a type and 1 R of discount). SSE2 (every x86-64) and
 * WebAssembly SIMD; elsewhere legal_plain() type by type. The vectors also give the display's types, from which the
 * targets of legal_displaceable_mask() are set. In the New Society (x->ns) the types 0..23 are priced the same way
 * (from its own table's lanes) and its plain types 49..53 one by one. */
CORE_INLINE void legal_plain_affordable(seat_ctx *x, const stpete_rules *rules)
{
    int r = x->rubles < 126 ? x->rubles : 126;
#if defined(STPETE_SIMD_SSE2) || defined(STPETE_SIMD_WASM)
    const card_lanes *l = stpete_engine_lanes(rules);
    uint32_t un[2][2]; /* [half][lower]: the types the seat cannot afford */
    uint32_t absent[2]; /* [half]: the types of which the display holds no copy */
    for (int h = 0; h < 2; h++) {
#if defined(STPETE_SIMD_SSE2)
        __m128i cost = _mm_load_si128((const __m128i *)(const void *)(l->cost + 16 * h));
        __m128i disc = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(_mm_load_si128((const __m128i *)(const void *)(l->blue + 16 * h)),
                                       _mm_set1_epi8((char)x->discount[STPETE_COLOUR_BLUE])),
                         _mm_and_si128(_mm_load_si128((const __m128i *)(const void *)(l->orange + 16 * h)),
                                       _mm_set1_epi8((char)x->discount[STPETE_COLOUR_ORANGE]))),
            _mm_and_si128(_mm_load_si128((const __m128i *)(const void *)(l->green + 16 * h)),
                          _mm_set1_epi8((char)x->discount[STPETE_COLOUR_GREEN])));
        __m128i price = _mm_sub_epi8(
            _mm_sub_epi8(cost, _mm_loadu_si128((const __m128i *)(const void *)(x->p->display + 16 * h))), disc);
        un[h][0] = (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(price, _mm_set1_epi8((char)r)));
        un[h][1] = (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(price, _mm_set1_epi8((char)(r + 1))));
        absent[h] = (uint32_t)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(x->p->display + 16 * h)),
                           _mm_setzero_si128()));
#else
        v128_t disc = wasm_v128_or(
            wasm_v128_or(wasm_v128_and(wasm_v128_load(l->blue + 16 * h),
                                       wasm_i8x16_splat((int8_t)x->discount[STPETE_COLOUR_BLUE])),
                         wasm_v128_and(wasm_v128_load(l->orange + 16 * h),
                                       wasm_i8x16_splat((int8_t)x->discount[STPETE_COLOUR_ORANGE]))),
            wasm_v128_and(wasm_v128_load(l->green + 16 * h),
                          wasm_i8x16_splat((int8_t)x->discount[STPETE_COLOUR_GREEN])));
        v128_t price =
            wasm_i8x16_sub(wasm_i8x16_sub(wasm_v128_load(l->cost + 16 * h), wasm_v128_load(x->p->display + 16 * h)),
                           disc);
        un[h][0] = (uint32_t)wasm_i8x16_bitmask(wasm_i8x16_gt(price, wasm_i8x16_splat((int8_t)r)));
        un[h][1] = (uint32_t)wasm_i8x16_bitmask(wasm_i8x16_gt(price, wasm_i8x16_splat((int8_t)(r + 1))));
        absent[h] = (uint32_t)wasm_i8x16_bitmask(
            wasm_i8x16_eq(wasm_v128_load(x->p->display + 16 * h), wasm_i8x16_splat(0)));
#endif
    }
    const uint32_t plain = (UINT32_C(1) << FIRST_TRADING) - 1;
    legal_set_targets(x, ~(absent[0] | absent[1] << 16) & plain); /* stpete_engine_display_types(x->p, FIRST_TRADING) */
    x->affordable[0] = ~(un[0][0] | un[1][0] << 16) & plain;
    x->affordable[1] = ~(un[0][1] | un[1][1] << 16) & plain;
#else
    (void)rules;
    (void)r;
    x->affordable[0] = x->affordable[1] = 0;
    for (int t = 0; t < FIRST_TRADING; t++) {
        x->affordable[0] |= (uint64_t)legal_plain(x, t, 0) << t;
        x->affordable[1] |= (uint64_t)legal_plain(x, t, 1) << t;
    }
    legal_set_targets(x, stpete_engine_display_types(x->p, FIRST_TRADING));
#endif
    if (x->ns) /* the New Society's plain types 49..53 (§12.2.3), type by type */
        for (uint64_t m = PLAIN_TYPES & ~TYPE_RANGE(0, FIRST_TRADING); m; m &= m - 1) {
            int t = stpete_bytes_lowest_bit(m);
            x->affordable[0] |= (uint64_t)legal_plain(x, t, 0) << t;
            x->affordable[1] |= (uint64_t)legal_plain(x, t, 1) << t;
        }
}

/* Whether a trading card whose price before displacement is `before` may displace target now, for a seat with at
 * least 1 R: the target is displaceable (the caller reads legal_displaceable_mask(), §6.1) and the price with its value
 * deducted (§5.2, §7.4) is within the seat's rubles (as legal_plain). */
CORE_INLINE int legal_target(const seat_ctx *x, int before, int target)
{
    return before - x->cards[target].value <= x->rubles;
}
/* Bit mask of the card types in a row (cap 8) or a hand (cap 4) of n cards: one bit set per byte, with no
 * comparison with n. The bytes past the count are 0 (stpete_bytes_remove8/4, the deal and the loader keep them so;
 * states compare with memcmp), so they can only add bit 0, the Lumberjack: that bit is then taken from a search for a 0
 * among the first n bytes (stpete_bytes_holds8/4, one machine word). */
CORE_INLINE uint64_t legal_types_in(const uint8_t *list, int n, int cap, int ns)
{
    uint64_t m = 0;
    for (int i = 0; i < cap; i++)
        m |= UINT64_C(1) << list[i];
    int zero = cap == ROW_WORD ? stpete_bytes_holds8(list, n, 0) : stpete_bytes_holds4(list, n, 0);
    m = (m & ~UINT64_C(1)) | (uint64_t)zero;
    if (ns && n > cap) /* a row of more than 8 (the 5-player opening, §12.4.1) */
        for (int i = cap; i < n; i++)
            m |= UINT64_C(1) << list[i];
    return m;
}

/* The card types a seat may buy from a row or play from its hand: those present (§4.2). The check finds the one
 * card with stpete_bytes_find8/4, which read the same match mask as the zero search here (stpete_bytes_match8/4). */
CORE_INLINE uint64_t legal_source_types(const stpete_core *c, int source, int ns)
{
    const player_state *p = &c->p[c->current];
    return source == STPETE_SOURCE_HAND ? legal_types_in(p->hand, p->hand_n, STPETE_MAX_HAND, ns)
                                        : legal_types_in(c->row[source], c->row_n[source], ROW_WORD, ns);
}

/* legal_source_types() of both rows at once: with SIMD, the Lumberjack's zero bytes of the two rows' first 8 bytes
 * (each row's ROW_WORD) in one compare, within each row's count. A row of more than 8 cards (the New Society's 5-player
 * opening, §12.4.1; ns is the game's new_society as a constant) goes through legal_source_types(). */
CORE_INLINE void legal_board_types(const stpete_core *c, uint64_t *upper, uint64_t *lower, int ns)
{
#if defined(STPETE_SIMD_SSE2) || defined(STPETE_SIMD_WASM)
    if (!ns || (c->row_n[0] <= ROW_WORD && c->row_n[1] <= ROW_WORD)) {
        uint64_t m[2] = { 0, 0 };
        for (int r = 0; r < 2; r++)
            for (int i = 0; i < ROW_WORD; i++)
                m[r] |= UINT64_C(1) << c->row[r][i];
#if defined(__GNUC__) || defined(__clang__)
        __attribute__((aligned(16)))
#endif
        uint8_t both[2 * ROW_WORD]; /* the two rows' words side by side */
        memcpy(both, c->row[0], ROW_WORD);
        memcpy(both + ROW_WORD, c->row[1], ROW_WORD);
#if defined(STPETE_SIMD_SSE2)
        unsigned zero = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_load_si128((const __m128i *)(const void *)both), _mm_setzero_si128()));
#else
        unsigned zero = (unsigned)wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(both), wasm_i8x16_splat(0)));
#endif
        zero &= ((1u << c->row_n[0]) - 1) | ((1u << c->row_n[1]) - 1) << ROW_WORD; /* counts <= 8 */
        *upper = (m[0] & ~UINT64_C(1)) | (uint64_t)((zero & 0xFFu) != 0);
        *lower = (m[1] & ~UINT64_C(1)) | (uint64_t)((zero >> ROW_WORD) != 0);
        return;
    }
#endif
    *upper = legal_source_types(c, STPETE_SOURCE_UPPER, ns);
    *lower = legal_source_types(c, STPETE_SOURCE_LOWER, ns);
}

/* Whether the seat to act may draw with an Observatory from stack s now (§7.1, R9): the building phase, a face-up
 * Observatory, a stack of at least 2 cards. */
CORE_INLINE int legal_observatory(const stpete_core *c, int s)
{
    return (c->phase == STPETE_PHASE_BUILDING) & (stpete_engine_face_up_observatories(&c->p[c->current]) > 0) &
           (c->stack_n[s] >= 2);
}

/* Whether the seat to act may take a card into its hand (§4.2, §7.3: below its hand limit). */
CORE_INLINE int legal_hand_room(const player_state *p)
{
    return p->hand_n < stpete_engine_hand_limit(p);
}


/* The discard pile's types the Debtor's Prison may pick now (§12.7.5, R21, R22): bit t set for each type of the
 * pile when the seat to act may use its Prison (stpete_engine_prison_usable); for the listing's picks and the playout
 * step's alike. */
CORE_INLINE uint64_t legal_prison_picks(const stpete_core *c, const player_state *p)
{
    uint64_t picks = 0;
    if (stpete_engine_prison_usable(c, p))
        for (int t = 0; t < CARD_TYPES_ALL; t++)
            picks |= (uint64_t)(c->discard[t] != 0) << t;
    return picks;
}


/* The stacks an Observatory may draw from now (§7.1, R9): bit s set when legal_observatory(c, s); for the listing's
 * draws and the playout step's pick alike. One branch, almost never taken (a face-up Observatory in the building
 * phase), instead of two of which the first (the phase) changes every few actions. */
CORE_INLINE unsigned legal_observatory_stacks(const stpete_core *c, const player_state *p)
{
    unsigned stacks = 0;
    if ((c->phase == STPETE_PHASE_BUILDING) & (stpete_engine_face_up_observatories(p) > 0))
        for (int s = 0; s < STPETE_NUM_STACKS; s++)
            stacks |= (unsigned)legal_observatory(c, s) << s;
    return stacks;
}

/* The outcomes of the pending chance event, ascending (explicit-chance mode): the card types the stack being dealt
 * or drawn from holds (§4.5, §7.1), or the start-player marker deals of §3.3; returns the count (legal.c). */
size_t stpete_legal_chance_outcomes(const stpete_core *c, int *out);

#endif /* STPETE_ENGINE_LEGAL_H */
