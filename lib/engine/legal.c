/* The legal actions of a position (§4.2, §5, §6, §7.1, §7.2), in one place. Legality is a handful of inline
 * functions over bit masks: the card types present in each row and in the hand (source_types), the types a trading
 * card may displace (displaceable_mask), whether a card is affordable (plain_legal) and whether a trading card may
 * displace a target at its price (target_legal), the hand's room (hand_room), the Observatory draws
 * (observatory_legal), the Pub choices (stpete_pub_choice_cap). Everything is derived from them:
 *   - the listing (stpete_core_legal): ids ascending, in the order and with the ids of stpete.h's encoding;
 *   - the mask (stpete_state_legal_action_mask) from the listing;
 *   - the playout step's pick (stpete_core_pick_move: the listed id at the drawn index), and through it the uniform
 *     random pick (stpete_core_random_action: the listed id at random % count): at a turn (the New Society's
 *     included, not the buy-only phase of §11) the listing's ids as runs of bits from the same functions, counted
 *     and walked to the drawn index without being written (pick_turn_of); elsewhere the listing;
 *   - the check of one id (stpete_core_check_move: the check inside every apply, stpete_state_is_legal,
 *     stpete_state_action_price) evaluates the same functions for the one card the id names, or the listing where
 *     a rule reads the whole of it (pass in the buy-only phase, §11); its reasons only explain a refusal.
 * Prices: stpete_price_before_displacement() and stpete_price_with() (engine.h), for the listing, the
 * check, the apply and stpete_state_price(). */
#include <stdio.h>
#include <string.h>
/* plain_affordable's vectors: SSE2 (every x86-64) or WebAssembly SIMD; -DSTPETE_NO_SIMD builds the portable loop */
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
    int discount[3];    /* by colour: stpete_colour_discount() (§5.1.3, §5.1.4) */
    int targets_known;  /* targets computed (only when a trading card is met) */
    uint64_t targets;   /* card types the seat's trading cards may displace now (§6.1) */
    uint64_t affordable[2]; /* the listing's: plain_affordable() from the upper row (or hand) [0], the lower [1] */
    int ns;             /* the New Society (§12): its plain types 49..53 and its rules of targets */
} seat_ctx;

CORE_INLINE seat_ctx seat_of(const stpete_core *c)
{
    const player_state *p = &c->p[c->current];
    seat_ctx x = { stpete_cards_of(&c->rules), p, p->rubles,
                   { stpete_colour_discount(p, STPETE_COLOUR_GREEN), stpete_colour_discount(p, STPETE_COLOUR_BLUE),
                     stpete_colour_discount(p, STPETE_COLOUR_ORANGE) },
                   0, 0, { 0, 0 }, c->rules.new_society };
    return x;
}

/* Card types of the display that a trading card may displace (§6.1): present, and for the Observatory not face
 * down (§7.1); stpete_displaceable() > 0 as a mask. Only workers, buildings and aristocrats (types 0..23) are ever
 * targets (§6.2). */
CORE_INLINE void set_targets(seat_ctx *x, uint64_t present) /* present: the display's types among 0..23 */
{
    if (x->ns) { /* §12.6: the new workers, buildings and Sycophant too; a used Debtor's Prison is no target (R22) */
        present |= stpete_display_types(x->p, DISPLAY_CAP) & PLAIN_TYPES;
        if (x->p->prison_used)
            present &= ~(UINT64_C(1) << STPETE_CARD_DEBTORS_PRISON);
    }
    if (stpete_face_up_observatories(x->p) <= 0)
        present &= ~(UINT64_C(1) << STPETE_CARD_OBSERVATORY);
    x->targets = present;
    x->targets_known = 1;
}

CORE_INLINE uint64_t displaceable_mask(seat_ctx *x)
{
    if (!x->targets_known) /* plain_affordable() sets them from its vectors */
        set_targets(x, stpete_display_types(x->p, FIRST_TRADING));
    return x->targets;
}

/* A card's price from a source (lower = 1 for the lower row) before a displaced card's value (§5.1). */
CORE_INLINE int price_before(const seat_ctx *x, int card, int lower)
{
    const card_def *d = &x->cards[card];
    return stpete_price_before_displacement(d, x->p->display[card], lower, x->discount[d->colour]);
}

/* Whether a seat with at least 1 R (the callers check it: R5, every price is at least 1 R) can afford a
 * non-trading card from a source: its price within its rubles. With rubles >= 1 the 1 R floor of stpete_price_with()
 * never decides (max(1, p) <= rubles iff p <= rubles), so the price before it is compared. */
CORE_INLINE int plain_legal(const seat_ctx *x, int card, int lower)
{
    return price_before(x, card, lower) <= x->rubles;
}

/* plain_legal() for every non-trading card type at once, the listing's inner loop (a seat with at least 1 R):
 * x->affordable[0] gets bit t set for each type t < FIRST_TRADING the seat can afford from the upper row or its hand,
 * x->affordable[1] from the lower row (1 R less, §5.1.2, R6). The price before displacement of every type in one
 * vector of bytes: the edition's costs (stpete_card_lanes, the table's copy) - the display's copies (§5.1.1) - the
 * colour discount (§5.1.3, §5.1.4, and the Obshchina Commune's on green cards, §12.5, R27, 0 in a base game),
 * compared with the rubles (at most 127 in a byte: no plain card costs more). Every value fits a signed byte (a cost
 * <= 25, the New Society's Academy; at most 6 copies of a type and 1 R of discount). SSE2 (every x86-64) and
 * WebAssembly SIMD; elsewhere plain_legal() type by type. The vectors also give the display's types, from which the
 * targets of displaceable_mask() are set. In the New Society (x->ns) the types 0..23 are priced the same way (from
 * its own table's lanes) and its plain types 49..53 one by one. */
CORE_INLINE void plain_affordable(seat_ctx *x, const stpete_rules *rules)
{
    int r = x->rubles < 126 ? x->rubles : 126;
#if defined(STPETE_SIMD_SSE2) || defined(STPETE_SIMD_WASM)
    const card_lanes *l = stpete_lanes_of(rules);
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
    set_targets(x, ~(absent[0] | absent[1] << 16) & plain); /* stpete_display_types(x->p, FIRST_TRADING) */
    x->affordable[0] = ~(un[0][0] | un[1][0] << 16) & plain;
    x->affordable[1] = ~(un[0][1] | un[1][1] << 16) & plain;
#else
    (void)rules;
    (void)r;
    x->affordable[0] = x->affordable[1] = 0;
    for (int t = 0; t < FIRST_TRADING; t++) {
        x->affordable[0] |= (uint64_t)plain_legal(x, t, 0) << t;
        x->affordable[1] |= (uint64_t)plain_legal(x, t, 1) << t;
    }
    set_targets(x, stpete_display_types(x->p, FIRST_TRADING));
#endif
    if (x->ns) /* the New Society's plain types 49..53 (§12.2.3), type by type */
        for (uint64_t m = PLAIN_TYPES & ~TYPE_RANGE(0, FIRST_TRADING); m; m &= m - 1) {
            int t = stpete_lowest_bit(m);
            x->affordable[0] |= (uint64_t)plain_legal(x, t, 0) << t;
            x->affordable[1] |= (uint64_t)plain_legal(x, t, 1) << t;
        }
}

/* Whether a trading card whose price before displacement is `before` may displace target now, for a seat with at
 * least 1 R: the target is displaceable (the caller reads displaceable_mask(), §6.1) and the price with its value
 * deducted (§5.2, §7.4) is within the seat's rubles (as plain_legal). */
CORE_INLINE int target_legal(const seat_ctx *x, int before, int target)
{
    return before - x->cards[target].value <= x->rubles;
}

/* Append the legal acquisitions of the card types m from a source, whose ids start at base (§5, §6), ascending:
 * the non-trading cards (their variant is the card; the affordable ones, x->affordable from plain_affordable(),
 * which the caller computes once per listing), then each trading card's variants (its targets ascending,
 * §6.2). Each trading variant is written and then kept or not (n += legal), without a branch on its legality: which
 * cards a random playout meets is unpredictable. (Loops of a fixed number of steps, with no exit to mispredict, were
 * tried: twice the instructions, a slower listing; bit sets with a pick of their k-th bit were tried too:
 * doc/performance.md.) */
CORE_INLINE size_t add_acquisitions(seat_ctx *x, uint64_t m, int lower, int base, int ext_base, int *out, size_t n)
{
    const uint64_t plain_types = (UINT64_C(1) << FIRST_TRADING) - 1; /* the base game's: their variant is the card */
    for (uint64_t t = m & plain_types & x->affordable[lower]; t; t &= t - 1) /* plain_affordable(): no price here */
        out[n++] = base + stpete_lowest_bit(t);
    if (x->ns) /* the New Society's plain types 49..53, at ext_base (stpete.h) */
        for (uint64_t t = m & (PLAIN_TYPES & ~plain_types) & x->affordable[lower]; t; t &= t - 1)
            out[n++] = ext_base + stpete_lowest_bit(t) - STPETE_NUM_CARD_TYPES;
    for (uint64_t t = m & ~PLAIN_TYPES; t; t &= t - 1) {
        int card = stpete_lowest_bit(t);
        int before = price_before(x, card, lower);
        for (uint64_t d = x->cards[card].targets & displaceable_mask(x); d; d &= d - 1) {
            int target = stpete_lowest_bit(d);
            out[n] = x->ns ? stpete_variant_id(base, ext_base, stpete_variant_index(card, target))
                           : base + stpete_base_variant_index(card, target);
            n += (size_t)target_legal(x, before, target);
        }
    }
    return n;
}

/* Bit mask of the card types in a row (cap 8) or a hand (cap 4) of n cards: one bit set per byte, with no
 * comparison with n. The bytes past the count are 0 (stpete_remove8/4, the deal and the loader keep them so; states
 * compare with memcmp), so they can only add bit 0, the Lumberjack: that bit is then taken from a search for a 0
 * among the first n bytes (stpete_holds8/4, one machine word). */
CORE_INLINE uint64_t types_in(const uint8_t *list, int n, int cap, int ns)
{
    uint64_t m = 0;
    for (int i = 0; i < cap; i++)
        m |= UINT64_C(1) << list[i];
    int zero = cap == ROW_WORD ? stpete_holds8(list, n, 0) : stpete_holds4(list, n, 0);
    m = (m & ~UINT64_C(1)) | (uint64_t)zero;
    if (ns && n > cap) /* a row of more than 8 (the 5-player opening, §12.4.1) */
        for (int i = cap; i < n; i++)
            m |= UINT64_C(1) << list[i];
    return m;
}

/* The card types a seat may buy from a row or play from its hand: those present (§4.2). The check finds the one
 * card with stpete_find8/4, which read the same match mask as the zero search here (stpete_match8/4). */
CORE_INLINE uint64_t source_types(const stpete_core *c, int source, int ns)
{
    const player_state *p = &c->p[c->current];
    return source == STPETE_SOURCE_HAND ? types_in(p->hand, p->hand_n, STPETE_MAX_HAND, ns)
                                        : types_in(c->row[source], c->row_n[source], ROW_WORD, ns);
}

/* source_types() of both rows at once: with SIMD, the Lumberjack's zero bytes of the two rows' first 8 bytes (each
 * row's ROW_WORD) in one compare, within each row's count. A row of more than 8 cards (the New Society's 5-player
 * opening, §12.4.1; ns is the game's new_society as a constant) goes through source_types(). */
CORE_INLINE void board_types(const stpete_core *c, uint64_t *upper, uint64_t *lower, int ns)
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
    *upper = source_types(c, STPETE_SOURCE_UPPER, ns);
    *lower = source_types(c, STPETE_SOURCE_LOWER, ns);
}

/* Whether the seat to act may draw with an Observatory from stack s now (§7.1, R9): the building phase, a face-up
 * Observatory, a stack of at least 2 cards. */
CORE_INLINE int observatory_legal(const stpete_core *c, int s)
{
    return (c->phase == STPETE_PHASE_BUILDING) & (stpete_face_up_observatories(&c->p[c->current]) > 0) &
           (c->stack_n[s] >= 2);
}

/* Whether the seat to act may take a card into its hand (§4.2, §7.3: below its hand limit). */
CORE_INLINE int hand_room(const player_state *p)
{
    return p->hand_n < stpete_hand_limit_of(p);
}

/* The outcomes of the pending chance event, ascending (explicit-chance mode): the card types the stack being dealt
 * or drawn from holds (§4.5, §7.1), or the start-player marker deals of §3.3. */
static size_t chance_outcomes(const stpete_core *c, int *out)
{
    size_t n = 0;
    if (c->chance == CHANCE_MARKERS && c->rules.players == 5) { /* §12.3, R18: four distinct seats of five */
        for (int code = 0; code < NS_CHANCE_MARKERS_CODES; code++) {
            int markers[STPETE_NUM_PHASES];
            for (int k = 0, x = code; k < STPETE_NUM_PHASES; k++, x /= 5)
                markers[k] = x % 5;
            if (stpete_markers_fault(markers, 5) == 0)
                out[n++] = STPETE_NS_CHANCE_MARKERS_FIRST + code;
        }
        return n;
    }
    if (c->chance == CHANCE_MARKERS) {
        for (int code = 0; code < 256; code++)
            if (stpete_markers_code_valid(code, c->rules.players))
                out[n++] = STPETE_CHANCE_MARKERS_FIRST + code;
        return n;
    }
    const uint8_t *stack = c->stack[c->deal_stack];
    for (int i = 0; i < c->stack_n[c->deal_stack]; i++) /* kept in card-type order: the ids ascend */
        if (i == 0 || stack[i] != stack[i - 1])
            out[n++] = stpete_chance_card_id(stack[i]);
    return n;
}

int stpete_markers_code_valid(int code, int players)
{
    int markers[STPETE_NUM_PHASES]; /* the marker rule itself (§3.3, R15) is stpete_markers_fault's */
    stpete_markers_decode(code, markers);
    return stpete_markers_fault(markers, players) == 0;
}

/* Insertion sort of a listing (the New Society's ids interleave with the base ones: the listing stays ascending). */
static void sort_ids(int *ids, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int v = ids[i];
        size_t j = i;
        for (; j > 0 && ids[j - 1] > v; j--)
            ids[j] = ids[j - 1];
        ids[j] = v;
    }
}

/* The discard pile's types the Debtor's Prison may pick now (§12.7.5, R21, R22): bit t set for each type of the
 * pile when the seat to act may use its Prison (stpete_prison_usable); for the listing's picks and the playout
 * step's alike. */
CORE_INLINE uint64_t prison_picks(const stpete_core *c, const player_state *p)
{
    uint64_t picks = 0;
    if (stpete_prison_usable(c, p))
        for (int t = 0; t < CARD_TYPES_ALL; t++)
            picks |= (uint64_t)(c->discard[t] != 0) << t;
    return picks;
}

/* The New Society's decisions (§12.7.5-§12.7.7) and the Debtor's Prison picks of a turn (R21). */
static size_t legal_ns(const stpete_core *c, seat_ctx *x, int *out, size_t n)
{
    switch (c->decision) {
    case STPETE_DECISION_PRISON: /* R21: buy (no row discount), take (hand limit) or put back */
        if (x->rubles >= 1) {
            plain_affordable(x, &c->rules);
            n = add_acquisitions(x, UINT64_C(1) << c->obs_card, 0, ID_PRISON_BUY,
                                 ID_PRISON_BUY + STPETE_NUM_CARD_VARIANTS, out, n);
        }
        out[n] = ID_PRISON_TAKE;
        n += (size_t)(x->p->hand_n < stpete_hand_limit_of(x->p));
        out[n++] = ID_PRISON_PUT_BACK;
        return n;
    case STPETE_DECISION_GUILD_HALL: /* R24: r R and 4 - r VP */
        for (int r = 0; r <= GUILD_HALL_UNITS; r++)
            out[n++] = ID_GUILD_HALL + r;
        return n;
    case STPETE_DECISION_TRADING_HOUSE: /* R25: asked only with 3 R or more */
        out[n++] = ID_TRADING_HOUSE;
        out[n++] = ID_TRADING_HOUSE + 1;
        return n;
    default: /* a turn: the Prison's picks, the largest ids */
        for (uint64_t m = prison_picks(c, x->p); m; m &= m - 1)
            out[n++] = ID_PRISON + stpete_lowest_bit(m);
        sort_ids(out, n);
        return n;
    }
}

/* The stacks an Observatory may draw from now (§7.1, R9): bit s set when observatory_legal(c, s); for the listing's
 * draws and the playout step's pick alike. One branch, almost never taken (a face-up Observatory in the building
 * phase), instead of two of which the first (the phase) changes every few actions. */
CORE_INLINE unsigned observatory_stacks(const stpete_core *c, const player_state *p)
{
    unsigned stacks = 0;
    if ((c->phase == STPETE_PHASE_BUILDING) & (stpete_face_up_observatories(p) > 0))
        for (int s = 0; s < STPETE_NUM_STACKS; s++)
            stacks |= (unsigned)observatory_legal(c, s) << s;
    return stacks;
}

/* The Observatory draws of a turn (§7.1, R9), ascending. */
CORE_INLINE size_t add_draws(const stpete_core *c, const seat_ctx *x, int *out, size_t n)
{
    for (unsigned m = observatory_stacks(c, x->p); m; m &= m - 1)
        out[n++] = ID_OBSERVATORY + stpete_lowest_bit(m);
    return n;
}

/* The listing (stpete_core_legal); ns is the game's new_society as a constant (list_legal() instantiates both), so
 * a base game's listing carries none of §12's branches. */
CORE_INLINE size_t list_legal_of(const stpete_core *c, int *out, int ns)
{
    size_t n = 0;
    seat_ctx x = seat_of(c);
    x.ns = ns;
    int solvent = x.rubles >= 1; /* every price is at least 1 R (R5): nothing to buy otherwise (a shortcut) */
    switch (c->decision) {
    case STPETE_DECISION_GAME_OVER:
        return 0;
    case STPETE_DECISION_CHANCE:
        return chance_outcomes(c, out);
    case STPETE_DECISION_PUB: { /* §7.2, R10: 0 .. cap VP */
        int cap = stpete_pub_choice_cap(c, c->current);
        for (int k = 0; k <= cap; k++)
            out[n++] = ID_PUB + k;
        return n;
    }
    case STPETE_DECISION_OBSERVATORY: /* §7.1: buy the drawn card, take it into the hand (§7.3), or discard it */
        if (solvent) {
            plain_affordable(&x, &c->rules);
            n = add_acquisitions(&x, UINT64_C(1) << c->obs_card, 0, ID_OBS_BUY, ID_NS_OBS_BUY, out, n);
        }
        out[n] = ID_OBS_TAKE;
        n += (size_t)hand_room(x.p);
        out[n++] = ID_OBS_DISCARD;
        if (x.ns)
            sort_ids(out, n);
        return n;
    case STPETE_DECISION_TURN:
        break;
    default: /* the New Society's decisions (§12) */
        return legal_ns(c, &x, out, n);
    }
    uint64_t upper, lower;
    board_types(c, &upper, &lower, ns);
    if (solvent)
        plain_affordable(&x, &c->rules);
    if (stpete_buy_only(c)) { /* §11: buy a board card if one is affordable; pass only when none is */
        if (solvent) {
            n = add_acquisitions(&x, upper, 0, ID_BUY_UPPER, ID_NS_BUY_UPPER, out, n);
            n = add_acquisitions(&x, lower, 1, ID_BUY_LOWER, ID_NS_BUY_LOWER, out, n); /* §5.1.2, R6 */
        }
        if (n == 0)
            out[n++] = ID_PASS;
        return n;
    }
    out[n++] = ID_PASS; /* §4.3 */
    if (solvent) {
        n = add_acquisitions(&x, upper, 0, ID_BUY_UPPER, ID_NS_BUY_UPPER, out, n);
        n = add_acquisitions(&x, lower, 1, ID_BUY_LOWER, ID_NS_BUY_LOWER, out, n); /* §5.1.2, R6 */
        n = add_acquisitions(&x, source_types(c, STPETE_SOURCE_HAND, ns), 0, ID_PLAY, ID_NS_PLAY, out, n);
    }
    if (hand_room(x.p)) { /* take a card into the hand: one action per card type of a row */
        for (uint64_t m = upper; m; m &= m - 1)
            out[n++] = stpete_take_id(STPETE_SOURCE_UPPER, stpete_lowest_bit(m));
        for (uint64_t m = lower; m; m &= m - 1)
            out[n++] = stpete_take_id(STPETE_SOURCE_LOWER, stpete_lowest_bit(m));
    }
    n = add_draws(c, &x, out, n);
    if (ns) /* the Debtor's Prison (R21), and the listing sorted */
        n = legal_ns(c, &x, out, n);
    return n;
}

CORE_INLINE size_t list_legal(const stpete_core *c, int *out)
{
    return c->rules.new_society ? list_legal_of(c, out, 1) : list_legal_of(c, out, 0);
}

/* Out of line: the playout step's pick calls it only off a turn, and keeps it out of its own body. */
STPETE_NOINLINE size_t stpete_core_legal(const stpete_core *c, int *out)
{
    return list_legal(c, out);
}

/* The playout step's pick, whose id it returns (the listed id at random % count, as the random bot draws it). */
int stpete_core_random_action(const stpete_core *c, uint64_t random, int *id)
{
    stpete_move mv;
    int rc = stpete_core_pick_move(c, random, STPETE_PICK_MODULO, &mv);
    if (rc == STPETE_OK)
        *id = mv.id;
    return rc;
}

/* ---- derived: the check of one action, with a reason ----------------------------------------------- */

/* Shorthand: the action is illegal, with the reason into why (stpete_why_fail()). */
#define REFUSE(...) return stpete_why_fail(why, why_size, STPETE_E_ILLEGAL_ACTION, __VA_ARGS__)

/* Check buying or playing (card, displaced) from source, the card present there: legal by the listing's functions
 * (plain_legal; for a trading card, the target in displaceable_mask() and target_legal(), §5, §6); its price to
 * mv->price. A refusal says which rule: the target (§6.1) or the price (§5). */
static int check_acquire(const stpete_core *c, seat_ctx *x, int card, int source, int displaced, stpete_move *mv,
                         char *why, size_t why_size)
{
    int lower = source == STPETE_SOURCE_LOWER;
    int before = price_before(x, card, lower);
    int targets_ok = displaced < 0 || ((displaceable_mask(x) >> displaced) & 1);
    int legal = x->rubles >= 1 && /* R5 */
                (displaced < 0 ? plain_legal(x, card, lower) : targets_ok && target_legal(x, before, displaced));
    int price = stpete_price_with(before, displaced >= 0 ? x->cards[displaced].value : 0);
    if (legal) {
        mv->price = price;
        return STPETE_OK;
    }
    int seat = c->current;
    if (!targets_ok) {
        if (displaced == STPETE_CARD_OBSERVATORY && x->p->display[displaced])
            REFUSE("the Observatory of seat %d is face down and cannot be displaced (§7.1, R9)", seat);
        if (displaced == STPETE_CARD_DEBTORS_PRISON && x->p->display[displaced])
            REFUSE("the Debtor's Prison of seat %d is used and cannot be displaced until the next round (§12.6, R22)",
                   seat);
        REFUSE("%s must displace a %s, and the display of seat %d has none (§6)", x->cards[card].name,
               x->cards[displaced].name, seat);
    }
    REFUSE("%s from the %s costs %d R and seat %d has %d R (§5)", x->cards[card].name, stpete_source_phrases[source],
           price, seat, x->rubles);
}

/* Check a chance outcome id (>= STPETE_CHANCE_CARD_FIRST): one of the listed outcomes. */
static int check_chance(const stpete_core *c, int id, char *why, size_t why_size)
{
    if (c->decision != STPETE_DECISION_CHANCE)
        REFUSE(c->rules.chance_mode == STPETE_CHANCE_EXPLICIT
                   ? "chance outcome %d at a player's decision: only a chance node takes one"
                   : "chance outcome %d in sampled mode: the library draws every random event itself", id);
    int ids[LEGAL_CAP];
    size_t n = chance_outcomes(c, ids);
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return STPETE_OK;
    if (c->chance == CHANCE_MARKERS)
        REFUSE("chance outcome %d is not a deal of the start-player markers for %d players (§3.3)", id,
               c->rules.players);
    int s = c->deal_stack;
    REFUSE("chance outcome %d: the %s stack holds no %s (§%s)", id, stpete_stack_words[s],
           stpete_chance_id_card(id) < 0 ? "such card" : stpete_cards_of(&c->rules)[stpete_chance_id_card(id)].name,
           c->chance == CHANCE_DRAW ? "7.1" : "4.5");
}

/* A decision on one card held in c->obs_card: buy it, take it into the hand, or put it back / discard it. The
 * Observatory's (§7.1) and the Debtor's Prison's (§12.7.5, R21) differ only in their action kinds, the source of a
 * purchase and the rules a refusal cites. */
typedef struct {
    int back, take, buy;     /* the action kinds: put back or discard, take, buy */
    int source;              /* a purchase's STPETE_SOURCE_* */
    const char *hand_rule;   /* cited when the hand is full */
    const char *held;        /* "<who> <drew or picked>" */
    const char *held_rule;   /* cited when another card is named */
    const char *first;       /* what the seat must first do, with its rule */
} card_decision;

static const card_decision prison_decision = {
    STPETE_ACTION_PRISON_PUT_BACK, STPETE_ACTION_PRISON_TAKE, STPETE_ACTION_PRISON_BUY, STPETE_SOURCE_DISCARD,
    "§12.10, §7.3", "the Debtor's Prison picked", "§12.7.5",
    "buy, take or put back the card picked with the Debtor's Prison (§12.7.5, R21)"};

static const card_decision observatory_decision = {
    STPETE_ACTION_OBSERVATORY_DISCARD, STPETE_ACTION_OBSERVATORY_TAKE, STPETE_ACTION_OBSERVATORY_BUY,
    STPETE_SOURCE_OBSERVATORY, "§7.3", "the Observatory drew", "§7.1",
    "buy, take or discard the card drawn by the Observatory (§7.1)"};

static int check_card_decision(const stpete_core *c, seat_ctx *x, stpete_action a, const card_decision *d,
                               stpete_move *mv, char *why, size_t why_size)
{
    int seat = c->current;
    if (a.kind == d->back)
        return STPETE_OK;
    if (a.kind == d->take) {
        if (!hand_room(x->p))
            REFUSE("the hand of seat %d is at its limit of %d (%s)", seat, stpete_hand_limit_of(x->p), d->hand_rule);
        return STPETE_OK;
    }
    if (a.kind == d->buy) {
        if (a.card != c->obs_card)
            REFUSE("%s %s, not %s (%s)", d->held, x->cards[c->obs_card].name, x->cards[a.card].name, d->held_rule);
        return check_acquire(c, x, a.card, d->source, a.displaced, mv, why, why_size);
    }
    REFUSE("seat %d must first %s", seat, d->first);
}

/* Using an Observatory now (§7.1, R9): the building phase, a face-up Observatory, a stack of at least 2 cards. */
static int check_observatory_use(const stpete_core *c, const seat_ctx *x, stpete_action a, char *why,
                                 size_t why_size)
{
    int seat = c->current;
    if (!observatory_legal(c, a.stack)) {
        if (c->phase != STPETE_PHASE_BUILDING)
            REFUSE("an Observatory can be used only in the building phase (§7.1, R9)");
        if (stpete_face_up_observatories(x->p) <= 0)
            REFUSE("seat %d has no face-up Observatory (§7.1, R9)", seat);
        REFUSE("an Observatory draws only from a stack of at least 2 cards; this one has %d (§7.1, R9)",
               c->stack_n[a.stack]);
    }
    return STPETE_OK;
}

/* Using the Debtor's Prison now (§12.7.5, R21, R22): its unused owner in the building phase, a card of that type
 * in the discard pile. */
static int check_prison_use(const stpete_core *c, const seat_ctx *x, stpete_action a, char *why, size_t why_size)
{
    int seat = c->current;
    if (!stpete_prison_usable(c, x->p)) {
        if (c->phase != STPETE_PHASE_BUILDING)
            REFUSE("the Debtor's Prison can be used only in the building phase (§12.7.5, R21)");
        if (!x->p->display[STPETE_CARD_DEBTORS_PRISON])
            REFUSE("seat %d has no Debtor's Prison in its display (§12.7.5, R21)", seat);
        if (x->p->prison_used)
            REFUSE("the Debtor's Prison of seat %d is used until the next round (§12.7.5, R22)", seat);
    }
    if (!c->discard[a.card])
        REFUSE("the discard pile holds no %s (§12.7.5, R21)", x->cards[a.card].name);
    return STPETE_OK;
}

/* The move of a decision other than a turn (§7.1, §7.2, §12.7.5-§12.7.7): only that decision's actions. */
static int check_decision_move(const stpete_core *c, seat_ctx *x, stpete_action a, stpete_move *mv, char *why,
                               size_t why_size)
{
    int seat = c->current;
    if (c->decision == STPETE_DECISION_PUB) {
        if (a.kind != STPETE_ACTION_PUB)
            REFUSE("seat %d must first choose how many VP to buy with the Pub (§7.2)", seat);
        int cap = stpete_pub_choice_cap(c, seat);
        if (a.amount > cap)
            REFUSE("seat %d may buy at most %d VP with the Pub now (§7.2, R10)", seat, cap);
        return STPETE_OK;
    }
    if (c->decision == STPETE_DECISION_GUILD_HALL) {
        if (a.kind != STPETE_ACTION_GUILD_HALL)
            REFUSE("seat %d must first split the Guild Hall's 4 into rubles and VP (§12.7.7, R24)", seat);
        return STPETE_OK;
    }
    if (c->decision == STPETE_DECISION_TRADING_HOUSE) {
        if (a.kind != STPETE_ACTION_TRADING_HOUSE)
            REFUSE("seat %d must first decide on the Trading House (§12.7.6, R25)", seat);
        return STPETE_OK; /* asked only with 3 R or more */
    }
    if (c->decision == STPETE_DECISION_PRISON)
        return check_card_decision(c, x, a, &prison_decision, mv, why, why_size);
    return check_card_decision(c, x, a, &observatory_decision, mv, why, why_size); /* STPETE_DECISION_OBSERVATORY */
}

/* §11's buy-only first worker phase of the second edition: a pass only when it is alone, a purchase otherwise.
 * *done is set when the check is complete (a pass). */
static int check_buy_only(const stpete_core *c, stpete_action a, int *done, char *why, size_t why_size)
{
    int seat = c->current;
    *done = 0;
    if (a.kind == STPETE_ACTION_PASS) {
        int ids[LEGAL_CAP];
        *done = 1;
        if (stpete_core_legal(c, ids) > 1 || ids[0] != ID_PASS) /* the listing: pass only when it is alone */
            REFUSE("the first worker phase of the second edition is buy-only: seat %d can afford a board card "
                   "and must buy one (§11)", seat);
        return STPETE_OK;
    }
    if (a.kind != STPETE_ACTION_BUY)
        REFUSE("the first worker phase of the second edition is buy-only: no %s (§11)",
               a.kind == STPETE_ACTION_TAKE ? "taking into hand" : a.kind == STPETE_ACTION_PLAY ? "playing from hand"
                                                                                         : "Observatory");
    return STPETE_OK;
}

/* The move of a turn (§4.2): its kind, the card present where it comes from, its price (check_acquire). */
static int check_turn_move(const stpete_core *c, seat_ctx *x, stpete_action a, stpete_move *mv, char *why,
                           size_t why_size)
{
    int seat = c->current;
    int hand_limit = stpete_hand_limit_of(x->p);
    switch (a.kind) {
    case STPETE_ACTION_PASS:
        return STPETE_OK;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_TAKE:
        /* present: stpete_find8 reads the row's match mask, as source_types() does (stpete_match8) */
        mv->index = stpete_row_find(c->row[a.source], c->row_n[a.source], a.card);
        if (mv->index < 0)
            REFUSE("there is no %s in the %s (§4.2)", x->cards[a.card].name, stpete_source_phrases[a.source]);
        if (a.kind == STPETE_ACTION_TAKE) {
            if (!hand_room(x->p))
                REFUSE("the hand of seat %d is at its limit of %d (§4.2, §7.3)", seat, hand_limit);
            return STPETE_OK;
        }
        return check_acquire(c, x, a.card, a.source, a.displaced, mv, why, why_size);
    case STPETE_ACTION_PLAY:
        mv->index = stpete_find4(x->p->hand, x->p->hand_n, a.card);
        if (mv->index < 0)
            REFUSE("seat %d has no %s in hand (§4.2)", seat, x->cards[a.card].name);
        return check_acquire(c, x, a.card, STPETE_SOURCE_HAND, a.displaced, mv, why, why_size);
    case STPETE_ACTION_OBSERVATORY:
        return check_observatory_use(c, x, a, why, why_size);
    case STPETE_ACTION_PUB:
        REFUSE("a Pub purchase is possible only right after building scoring (§7.2)");
    case STPETE_ACTION_PRISON: /* §12.7.5, R21, §12.13 case 2: the owner of an unused Prison, in its display */
        return check_prison_use(c, x, a, why, why_size);
    case STPETE_ACTION_GUILD_HALL:
        REFUSE("the Guild Hall is split only right after building scoring (§12.7.7, R24)");
    case STPETE_ACTION_TRADING_HOUSE:
        REFUSE("the Trading House is used only right after building scoring (§12.7.6, R25)");
    case STPETE_ACTION_PRISON_BUY:
    case STPETE_ACTION_PRISON_TAKE:
    case STPETE_ACTION_PRISON_PUT_BACK:
        REFUSE("there is no card picked with the Debtor's Prison to resolve (§12.7.5)");
    default:
        REFUSE("there is no Observatory draw to resolve (§7.1)");
    }
}

int stpete_core_check_move(const stpete_core *c, int id, stpete_move *mv, char *why, size_t why_size)
{
    if (c->decision == STPETE_DECISION_GAME_OVER) {
        if (why)
            snprintf(why, why_size, "the game is over (§4.6)");
        return STPETE_E_GAME_OVER;
    }
    mv->id = id;
    mv->index = -1;
    mv->price = 0;
    if (stpete_is_chance_id(id))
        return check_chance(c, id, why, why_size);
    if (c->decision == STPETE_DECISION_CHANCE)
        REFUSE("a chance node: the next step is a random event; apply one of its outcomes "
               "(stpete_state_chance_outcomes())");
    stpete_action a;
    stpete_decode(id, &a);
    mv->a = a;
    seat_ctx x = seat_of(c);
    if (c->decision != STPETE_DECISION_TURN)
        return check_decision_move(c, &x, a, mv, why, why_size);
    if (stpete_buy_only(c)) { /* §11: the first worker phase of the second edition */
        int done, rc = check_buy_only(c, a, &done, why, why_size);
        if (rc || done)
            return rc;
    }
    return check_turn_move(c, &x, a, mv, why, why_size);
}

/* ---- the playout step: a move the library picked from its own listing ------------------------------- */

/* The move of an id the listing holds now: what stpete_core_check_move() fills for it (the decoding, the card's
 * index in its row or hand, the price of §5 through the same price functions), without asking again whether it is
 * legal: the listing just said so. Only for ids the library picked itself (stpete_core_pick_move); an id from a
 * caller always goes through stpete_core_check_move(). */
static void listed_move(const stpete_core *c, int id, stpete_move *mv)
{
    mv->id = id;
    mv->index = -1;
    mv->price = 0;
    if (stpete_is_chance_id(id)) /* a chance outcome: stpete_core_apply_move reads the id only */
        return;
    stpete_decode(id, &mv->a);
    const stpete_action *a = &mv->a;
    const player_state *p = &c->p[c->current];
    switch (a->kind) {
    case STPETE_ACTION_TAKE:
        mv->index = stpete_row_find(c->row[a->source], c->row_n[a->source], a->card);
        return;
    case STPETE_ACTION_BUY:
        mv->index = stpete_row_find(c->row[a->source], c->row_n[a->source], a->card);
        break;
    case STPETE_ACTION_PLAY:
        mv->index = stpete_find4(p->hand, p->hand_n, a->card);
        break;
    case STPETE_ACTION_OBSERVATORY_BUY:
    case STPETE_ACTION_PRISON_BUY: /* no row discount (§12.5) */
        break;
    default:
        return;
    }
    const card_def *cards = stpete_cards_of(&c->rules);
    const card_def *d = &cards[a->card];
    int before = stpete_price_before_displacement(d, p->display[a->card], a->source == STPETE_SOURCE_LOWER,
                                                  stpete_colour_discount(p, d->colour));
    mv->price = stpete_price_with(before, a->displaced >= 0 ? cards[a->displaced].value : 0);
}

/* ---- the playout step at a turn: the listed id picked without writing the listing ----------------------- */

/* The number of set bits of m: the processor's instruction where the build has it (x86-64 with POPCNT,
 * WebAssembly's i64.popcnt), else the SWAR sum of bit pairs, nibbles and bytes. */
/* x86-64's baseline (what Debian builds for) has no POPCNT, which every x86-64 processor since 2008 has: with GCC or
 * clang 14 and later and glibc (whose dynamic loader resolves ifuncs; not uClibc's or musl's), the function that
 * counts (pick_turn, pick_turn_ns) is compiled twice and the loader picks the POPCNT copy where the processor has it
 * (target_clones). Inside that copy __POPCNT__ is not defined: the SWAR count below is what both compilers turn into
 * the instruction there (from -O1 on). Same results either way. Not under a sanitizer, whose runtime is not ready
 * when the loader runs the ifunc's resolver (ThreadSanitizer crashes at load); -DSTPETE_NO_CLONES builds the one
 * portable copy (CI's clang pass). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define STPETE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STPETE_SANITIZED 1
#endif
#if defined(__x86_64__) && !defined(__POPCNT__) && defined(__GLIBC__) && !defined(__UCLIBC__) &&                 \
    (defined(__GNUC__) && !defined(__clang__) || defined(__clang__) && __clang_major__ >= 14) &&                 \
    !defined(STPETE_SANITIZED) && !defined(STPETE_NO_CLONES)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define POPCNT_CLONES
#endif
static inline int bit_count(uint64_t m)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__wasm__))
    return __builtin_popcountll(m);
#else
    m -= (m >> 1) & UINT64_C(0x5555555555555555);
    m = (m & UINT64_C(0x3333333333333333)) + ((m >> 2) & UINT64_C(0x3333333333333333));
    m = (m + (m >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((m * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* The targets (types 0..23, §6.2) whose value a trading card of price before displacement `before` may deduct
 * within the seat's rubles (target_legal() for all of them at once: value >= before - rubles), from the edition's
 * value lanes (stpete_card_lanes, the table's copy): two byte compares with SIMD, else target by target. */
CORE_INLINE uint64_t targets_within(const seat_ctx *x, const card_lanes *l, int before)
{
    int least = before - x->rubles; /* the least value a legal target has */
    const uint32_t plain = (UINT32_C(1) << FIRST_TRADING) - 1;
#if defined(STPETE_SIMD_SSE2) || defined(STPETE_SIMD_WASM)
    least = least < -1 ? -1 : least > 127 ? 127 : least; /* values are 0..25: kept in a signed byte */
    uint32_t under[2];
    for (int h = 0; h < 2; h++) {
#if defined(STPETE_SIMD_SSE2)
        under[h] = (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(
            _mm_set1_epi8((char)least), _mm_load_si128((const __m128i *)(const void *)(l->value + 16 * h))));
#else
        under[h] = (uint32_t)wasm_i8x16_bitmask(wasm_i8x16_gt(wasm_i8x16_splat((int8_t)least),
                                                              wasm_v128_load(l->value + 16 * h)));
#endif
    }
    return ~(under[0] | under[1] << 16) & plain;
#else
    uint64_t m = 0;
    for (int t = 0; t < FIRST_TRADING; t++)
        m |= (uint64_t)(l->value[t] >= least) << t;
    return m & plain;
#endif
}

/* The groups of a turn's ids, in the listing's order (list_legal_of(): ascending ids): the pass (§4.3), the buys of
 * the base game's variants from the upper row, from the lower (§5.1.2, R6), the plays from the hand, the takes of
 * its types from the upper row and from the lower (§4.2), the Observatory's draws (§7.1; their bits are the stacks);
 * then, in the New Society, the same for its variants and types (stpete.h: all above the base game's ids; the buys'
 * and plays' ext variants, §12.2.3, §12.6) and the Debtor's Prison's picks (R21; their bits are the discard pile's
 * types). */
enum {
    RUN_PASS,
    RUN_BUY_UPPER,
    RUN_BUY_LOWER,
    RUN_PLAY,
    RUN_TAKE_UPPER,
    RUN_TAKE_LOWER,
    RUN_DRAW,
    RUN_NS_BUY_UPPER,
    RUN_NS_BUY_LOWER,
    RUN_NS_PLAY,
    RUN_NS_TAKE_UPPER,
    RUN_NS_TAKE_LOWER,
    RUN_PRISON,
    RUN_GROUPS
};

/* The ids of a turn as runs: run i holds bit_count(bits[i]) consecutive listed ids of one group (the runs of group g
 * are first[g] up to the next group's first), one per set bit of bits[i], ascending; the bits are card types
 * (card[i] < 0: the non-trading cards bought or played, or the cards taken), the targets card[i] displaces (a trading
 * card), the stacks drawn from, the discard pile's types (the Prison), or bit 0 alone for the pass. n counts the
 * ids. The capacity: the pass, per buying source (two rows, the hand; twice in the New Society) one run of its
 * non-trading cards and one per trading card, the takes, the draws, the Prison, and the one unconditional write past
 * the last run. One capacity for both games: a base game's pick reserves the larger frame and touches only the runs
 * it writes (its time per action measured unchanged). */
enum { RUNS_CAP = 2 * (3 + 2 * ROW_CAP + STPETE_MAX_HAND) + 8 };
typedef struct runs {
    uint64_t bits[RUNS_CAP];
    int8_t card[RUNS_CAP];
    size_t r; /* runs written */
    size_t n; /* ids in them */
    size_t start[RUN_GROUPS]; /* ids before each group's runs */
    uint8_t first[RUN_GROUPS]; /* each group's first run */
} runs;

/* The runs of group g follow. */
CORE_INLINE void start_group(runs *rs, int g)
{
    rs->start[g] = rs->n;
    rs->first[g] = (uint8_t)rs->r;
}

/* Append a run (kept only when it holds an id: the write is unconditional, the count decides). */
CORE_INLINE void add_run(runs *rs, uint64_t bits, int card)
{
    rs->bits[rs->r] = bits;
    rs->card[rs->r] = (int8_t)card;
    rs->r += bits != 0;
    rs->n += (size_t)bit_count(bits);
}

/* The runs of the legal acquisitions of the card types m from a source with the base game's variants (ids below
 * STPETE_NS_ACTION_FIRST): add_acquisitions()'s ids in its order (the non-trading cards, then each trading card's
 * targets), as runs. A base trading card's targets of the New Society (49..) are ext variants: targets_within()
 * leaves them out. */
CORE_INLINE void add_runs(seat_ctx *x, const card_lanes *l, uint64_t m, int lower, runs *rs)
{
    add_run(rs, m & ((UINT64_C(1) << FIRST_TRADING) - 1) & x->affordable[lower], -1);
    for (uint64_t t = m & ~PLAIN_TYPES & TYPE_RANGE(0, STPETE_NUM_CARD_TYPES); t; t &= t - 1) {
        int card = stpete_lowest_bit(t);
        add_run(rs, x->cards[card].targets & displaceable_mask(x) & targets_within(x, l, price_before(x, card, lower)),
                card);
    }
}

/* The same with the New Society's variants (ext variants, stpete.h: ascending by card type, then by target type,
 * so that runs in card order with their targets' bits ascending are in id order): its five non-trading types, the
 * base trading cards' targets among its types (49..), and every variant of its trading cards. */
CORE_INLINE void add_ns_runs(seat_ctx *x, const card_lanes *l, uint64_t m, int lower, runs *rs)
{
    const uint64_t ns_types = TYPE_RANGE(FIRST_NEW_PLAIN, CARD_TYPES_ALL);
    add_run(rs, m & PLAIN_TYPES & ns_types & x->affordable[lower], -1);
    for (uint64_t t = m & ~PLAIN_TYPES; t; t &= t - 1) {
        int card = stpete_lowest_bit(t);
        int before = price_before(x, card, lower);
        uint64_t kept = card < STPETE_NUM_CARD_TYPES ? ns_types : ~UINT64_C(0); /* a base card's: the ext ones */
        uint64_t d = x->cards[card].targets & displaceable_mask(x) & kept;
        uint64_t within = d & targets_within(x, l, before); /* targets 0..23 */
        for (uint64_t u = d & ns_types; u; u &= u - 1) /* the New Society's targets (49..53), one by one */
            within |= (uint64_t)target_legal(x, before, stpete_lowest_bit(u)) << stpete_lowest_bit(u);
        add_run(rs, within, card);
    }
}

/* The move of bit `bit` of run i of group g of the base game's ids (listed_move()'s filling for it: the id, the
 * action as stpete_decode() gives it, the index in its row or hand, the price). */
CORE_INLINE void run_move(const stpete_core *c, const seat_ctx *x, const runs *rs, int g, size_t i, int bit,
                          stpete_move *mv)
{
    static const uint8_t kind[] = { STPETE_ACTION_PASS, STPETE_ACTION_BUY,  STPETE_ACTION_BUY,
                                    STPETE_ACTION_PLAY, STPETE_ACTION_TAKE, STPETE_ACTION_TAKE,
                                    STPETE_ACTION_OBSERVATORY };
    static const int8_t source[] = { -1, STPETE_SOURCE_UPPER, STPETE_SOURCE_LOWER, STPETE_SOURCE_HAND,
                                     STPETE_SOURCE_UPPER, STPETE_SOURCE_LOWER, -1 };
    static const int16_t first[] = { ID_PASS,       ID_BUY_UPPER,  ID_BUY_LOWER,  ID_PLAY,
                                     ID_TAKE_UPPER, ID_TAKE_LOWER, ID_OBSERVATORY };
    int trading = rs->card[i] >= 0, none = (g == RUN_PASS) | (g == RUN_DRAW);
    int card = trading ? rs->card[i] : none ? -1 : bit, displaced = trading ? bit : -1;
    stpete_action a = { kind[g], source[g], card, displaced, g == RUN_DRAW ? bit : -1, -1 };
    mv->a = a;
    mv->id = first[g] + (trading ? stpete_base_variant_index(card, displaced) : none ? bit : card);
    mv->index = -1;
    mv->price = 0;
    if (none)
        return;
    mv->index = g == RUN_PLAY ? stpete_find4(x->p->hand, x->p->hand_n, card)
                              : stpete_row_find(c->row[source[g]], c->row_n[source[g]], card);
    if (g >= RUN_TAKE_UPPER)
        return;
    int before = price_before(x, card, g == RUN_BUY_LOWER);
    mv->price = stpete_price_with(before, trading ? x->cards[displaced].value : 0);
}

/* The id of bit `bit` of run i of a New Society group g (> RUN_DRAW): its ext variant, its new card type taken, or
 * the discard pile's type the Prison picks (stpete.h's encoding). */
static int run_ns_id(const runs *rs, int g, size_t i, int bit)
{
    static const int first[] = { ID_NS_BUY_UPPER, ID_NS_BUY_LOWER, ID_NS_PLAY, ID_NS_TAKE_UPPER, ID_NS_TAKE_LOWER,
                                 ID_PRISON };
    int base = first[g - RUN_NS_BUY_UPPER];
    if (g == RUN_PRISON)
        return base + bit;
    if (g >= RUN_NS_TAKE_UPPER)
        return base + bit - FIRST_NEW_PLAIN;
    int trading = rs->card[i] >= 0;
    return base + stpete_ext_variant_index(trading ? rs->card[i] : bit, trading ? bit : -1);
}

/* The runs of a turn (outside the buy-only phase of §11) in the listing's order; ns is the game's new_society as a
 * constant. The runs are written without a branch on the seat's rubles or hand room (masks instead): a random
 * playout cannot predict them. */
CORE_INLINE void turn_runs(const stpete_core *c, seat_ctx *x, runs *rs, int ns)
{
    const card_lanes *l = stpete_lanes_of(&c->rules);
    const uint64_t base_types = TYPE_RANGE(0, STPETE_NUM_CARD_TYPES);
    uint64_t upper, lower;
    board_types(c, &upper, &lower, ns);
    uint64_t hand = source_types(c, STPETE_SOURCE_HAND, ns);
    rs->r = rs->n = 0;
    start_group(rs, RUN_PASS);
    add_run(rs, 1, -1); /* §4.3 */
    uint64_t solvent = UINT64_C(0) - (uint64_t)(x->rubles >= 1); /* R5: every price is at least 1 R */
    plain_affordable(x, &c->rules);
    start_group(rs, RUN_BUY_UPPER);
    add_runs(x, l, upper & solvent, 0, rs);
    start_group(rs, RUN_BUY_LOWER);
    add_runs(x, l, lower & solvent, 1, rs); /* §5.1.2, R6 */
    start_group(rs, RUN_PLAY);
    add_runs(x, l, hand & solvent, 0, rs);
    uint64_t room = UINT64_C(0) - (uint64_t)hand_room(x->p); /* §4.2, §7.3 */
    start_group(rs, RUN_TAKE_UPPER);
    add_run(rs, upper & room & base_types, -1);
    start_group(rs, RUN_TAKE_LOWER);
    add_run(rs, lower & room & base_types, -1);
    start_group(rs, RUN_DRAW);
    add_run(rs, observatory_stacks(c, x->p), -1); /* §7.1, R9 */
    if (!ns)
        return;
    start_group(rs, RUN_NS_BUY_UPPER);
    add_ns_runs(x, l, upper & solvent, 0, rs);
    start_group(rs, RUN_NS_BUY_LOWER);
    add_ns_runs(x, l, lower & solvent, 1, rs);
    start_group(rs, RUN_NS_PLAY);
    add_ns_runs(x, l, hand & solvent, 0, rs);
    start_group(rs, RUN_NS_TAKE_UPPER);
    add_run(rs, upper & room & ~base_types, -1);
    start_group(rs, RUN_NS_TAKE_LOWER);
    add_run(rs, lower & room & ~base_types, -1);
    start_group(rs, RUN_PRISON);
    add_run(rs, prison_picks(c, x->p), -1); /* R21 */
}

/* stpete_core_pick_move() at a turn outside the buy-only phase (§4.2, §5, §6, §7.1, and §12's in the New Society;
 * the common playout step): the legal ids as runs (turn_runs()), their count, and the id at the drawn index found
 * by walking the runs; the listing itself is never written. Same id, same move as the listing's pick; STPETE_OK. */
CORE_INLINE int pick_turn_of(const stpete_core *c, uint64_t random, int pick, stpete_move *mv, int ns)
{
    seat_ctx x = seat_of(c);
    x.ns = ns;
    runs rs;
    turn_runs(c, &x, &rs, ns);
    size_t n = rs.n;
    size_t k = pick == STPETE_PICK_SCALED ? (size_t)(((random >> 32) * (uint64_t)n) >> 32) : (size_t)(random % n);
    size_t g = 0; /* the group holding index k: the groups starting at or before it, counted without a branch */
    for (int h = RUN_BUY_UPPER; h <= (ns ? RUN_PRISON : RUN_DRAW); h++)
        g += rs.start[h] <= k;
    k -= rs.start[g];
    size_t i = rs.first[g]; /* then its run: most groups hold one */
    for (size_t count; k >= (count = (size_t)bit_count(rs.bits[i])); i++)
        k -= count;
    uint64_t b = rs.bits[i];
    for (; k; k--)
        b &= b - 1;
    if (ns && g > RUN_DRAW)
        listed_move(c, run_ns_id(&rs, (int)g, i, stpete_lowest_bit(b)), mv);
    else
        run_move(c, &x, &rs, (int)g, i, stpete_lowest_bit(b), mv);
    return STPETE_OK;
}

/* pick_turn_of() for a base game and for the New Society, each with its own copy of the code (see POPCNT_CLONES). */
POPCNT_CLONES static int pick_turn(const stpete_core *c, uint64_t random, int pick, stpete_move *mv)
{
    return pick_turn_of(c, random, pick, mv, 0);
}

POPCNT_CLONES STPETE_NOINLINE static int pick_turn_ns(const stpete_core *c, uint64_t random, int pick,
                                                      stpete_move *mv)
{
    return pick_turn_of(c, random, pick, mv, 1);
}

/* stpete_core_pick_move() off a turn (a decision, the buy-only phase of §11): the listed id at the drawn index. Out
 * of line, so that the common path keeps no frame for the listing's buffer. */
STPETE_NOINLINE static int pick_listed(const stpete_core *c, uint64_t random, int pick, stpete_move *mv)
{
    int ids[LEGAL_CAP];
    size_t n = stpete_core_legal(c, ids);
    size_t i = pick == STPETE_PICK_SCALED ? (size_t)(((random >> 32) * (uint64_t)n) >> 32) : (size_t)(random % n);
    listed_move(c, ids[i], mv);
    return STPETE_OK;
}

int stpete_core_pick_move(const stpete_core *c, uint64_t random, int pick, stpete_move *mv)
{
    if (c->decision == STPETE_DECISION_GAME_OVER)
        return STPETE_E_GAME_OVER;
    if ((c->decision == STPETE_DECISION_TURN) & !stpete_buy_only(c))
        return c->rules.new_society ? pick_turn_ns(c, random, pick, mv) : pick_turn(c, random, pick, mv);
    return pick_listed(c, random, pick, mv);
}
