/* The playout step's pick (stpete_legal_pick, stpete_legal_random): a move the library picked from its own listing
 * (legal_list.c), and at a turn the listed id picked without writing the listing, from the legality core's functions
 * (legal.h). */
#include "engine/legal.h"

/* ---- the playout step: a move the library picked from its own listing ------------------------------- */

/* The move of an id the listing holds now: what stpete_legal_check() fills for it (the decoding, the card's
 * index in its row or hand, the price of §5 through the same price functions), without asking again whether it is
 * legal: the listing just said so. Only for ids the library picked itself (stpete_legal_pick); an id from a
 * caller always goes through stpete_legal_check(). */
static void listed_move(const stpete_core *c, int id, stpete_move *mv)
{
    mv->id = id;
    mv->index = -1;
    mv->price = 0;
    if (stpete_actions_is_chance(id)) /* a chance outcome: stpete_rules_apply_move reads the id only */
        return;
    stpete_actions_decode(id, &mv->a);
    const stpete_action *a = &mv->a;
    const player_state *p = &c->p[c->current];
    switch (a->kind) {
    case STPETE_ACTION_TAKE:
        mv->index = stpete_engine_row_find(c->row[a->source], c->row_n[a->source], a->card);
        return;
    case STPETE_ACTION_BUY:
        mv->index = stpete_engine_row_find(c->row[a->source], c->row_n[a->source], a->card);
        break;
    case STPETE_ACTION_PLAY:
        mv->index = stpete_bytes_find4(p->hand, p->hand_n, a->card);
        break;
    case STPETE_ACTION_OBSERVATORY_BUY:
    case STPETE_ACTION_PRISON_BUY: /* no row discount (§12.5) */
        break;
    default:
        return;
    }
    const card_def *cards = stpete_engine_cards(&c->rules);
    const card_def *d = &cards[a->card];
    int before = stpete_price_before_displacement(d, p->display[a->card], a->source == STPETE_SOURCE_LOWER,
                                                  stpete_price_colour_discount(p, d->colour));
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
 * within the seat's rubles (legal_target() for all of them at once: value >= before - rubles), from the edition's
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
        int card = stpete_bytes_lowest_bit(t);
        add_run(rs,
                x->cards[card].targets & legal_displaceable_mask(x) &
                    targets_within(x, l, legal_price_before(x, card, lower)),
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
        int card = stpete_bytes_lowest_bit(t);
        int before = legal_price_before(x, card, lower);
        uint64_t kept = card < STPETE_NUM_CARD_TYPES ? ns_types : ~UINT64_C(0); /* a base card's: the ext ones */
        uint64_t d = x->cards[card].targets & legal_displaceable_mask(x) & kept;
        uint64_t within = d & targets_within(x, l, before); /* targets 0..23 */
        for (uint64_t u = d & ns_types; u; u &= u - 1) /* the New Society's targets (49..53), one by one */
            within |= (uint64_t)legal_target(x, before, stpete_bytes_lowest_bit(u)) << stpete_bytes_lowest_bit(u);
        add_run(rs, within, card);
    }
}

/* The move of bit `bit` of run i of group g of the base game's ids (listed_move()'s filling for it: the id, the
 * action as stpete_actions_decode() gives it, the index in its row or hand, the price). */
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
    mv->id = first[g] + (trading ? stpete_actions_base_variant(card, displaced) : none ? bit : card);
    mv->index = -1;
    mv->price = 0;
    if (none)
        return;
    mv->index = g == RUN_PLAY ? stpete_bytes_find4(x->p->hand, x->p->hand_n, card)
                              : stpete_engine_row_find(c->row[source[g]], c->row_n[source[g]], card);
    if (g >= RUN_TAKE_UPPER)
        return;
    int before = legal_price_before(x, card, g == RUN_BUY_LOWER);
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
    return base + stpete_actions_ext_variant(trading ? rs->card[i] : bit, trading ? bit : -1);
}

/* The runs of a turn (outside the buy-only phase of §11) in the listing's order; ns is the game's new_society as a
 * constant. The runs are written without a branch on the seat's rubles or hand room (masks instead): a random
 * playout cannot predict them. */
CORE_INLINE void turn_runs(const stpete_core *c, seat_ctx *x, runs *rs, int ns)
{
    const card_lanes *l = stpete_engine_lanes(&c->rules);
    const uint64_t base_types = TYPE_RANGE(0, STPETE_NUM_CARD_TYPES);
    uint64_t upper, lower;
    legal_board_types(c, &upper, &lower, ns);
    uint64_t hand = legal_source_types(c, STPETE_SOURCE_HAND, ns);
    rs->r = rs->n = 0;
    start_group(rs, RUN_PASS);
    add_run(rs, 1, -1); /* §4.3 */
    uint64_t solvent = UINT64_C(0) - (uint64_t)(x->rubles >= 1); /* R5: every price is at least 1 R */
    legal_plain_affordable(x, &c->rules);
    start_group(rs, RUN_BUY_UPPER);
    add_runs(x, l, upper & solvent, 0, rs);
    start_group(rs, RUN_BUY_LOWER);
    add_runs(x, l, lower & solvent, 1, rs); /* §5.1.2, R6 */
    start_group(rs, RUN_PLAY);
    add_runs(x, l, hand & solvent, 0, rs);
    uint64_t room = UINT64_C(0) - (uint64_t)legal_hand_room(x->p); /* §4.2, §7.3 */
    start_group(rs, RUN_TAKE_UPPER);
    add_run(rs, upper & room & base_types, -1);
    start_group(rs, RUN_TAKE_LOWER);
    add_run(rs, lower & room & base_types, -1);
    start_group(rs, RUN_DRAW);
    add_run(rs, legal_observatory_stacks(c, x->p), -1); /* §7.1, R9 */
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
    add_run(rs, legal_prison_picks(c, x->p), -1); /* R21 */
}

/* stpete_legal_pick() at a turn outside the buy-only phase (§4.2, §5, §6, §7.1, and §12's in the New Society;
 * the common playout step): the legal ids as runs (turn_runs()), their count, and the id at the drawn index found
 * by walking the runs; the listing itself is never written. Same id, same move as the listing's pick; STPETE_OK. */
CORE_INLINE int pick_turn_of(const stpete_core *c, uint64_t random, int pick, stpete_move *mv, int ns)
{
    seat_ctx x = legal_seat_of(c);
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
        listed_move(c, run_ns_id(&rs, (int)g, i, stpete_bytes_lowest_bit(b)), mv);
    else
        run_move(c, &x, &rs, (int)g, i, stpete_bytes_lowest_bit(b), mv);
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

/* stpete_legal_pick() off a turn (a decision, the buy-only phase of §11): the listed id at the drawn index. Out
 * of line, so that the common path keeps no frame for the listing's buffer. */
STPETE_NOINLINE static int pick_listed(const stpete_core *c, uint64_t random, int pick, stpete_move *mv)
{
    int ids[LEGAL_CAP];
    size_t n = stpete_legal_list(c, ids);
    size_t i = pick == STPETE_PICK_SCALED ? (size_t)(((random >> 32) * (uint64_t)n) >> 32) : (size_t)(random % n);
    listed_move(c, ids[i], mv);
    return STPETE_OK;
}

int stpete_legal_pick(const stpete_core *c, uint64_t random, int pick, stpete_move *mv)
{
    if (c->decision == STPETE_DECISION_GAME_OVER)
        return STPETE_E_GAME_OVER;
    if ((c->decision == STPETE_DECISION_TURN) & !stpete_engine_buy_only(c))
        return c->rules.new_society ? pick_turn_ns(c, random, pick, mv) : pick_turn(c, random, pick, mv);
    return pick_listed(c, random, pick, mv);
}

/* The playout step's pick, whose id it returns (the listed id at random % count, as the random bot draws it). */
int stpete_legal_random(const stpete_core *c, uint64_t random, int *id)
{
    stpete_move mv;
    int rc = stpete_legal_pick(c, random, STPETE_PICK_MODULO, &mv);
    if (rc == STPETE_OK)
        *id = mv.id;
    return rc;
}
