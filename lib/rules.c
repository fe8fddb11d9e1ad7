/* The rules engine: setup (§3), legal actions (§4.2, §6, §7), apply and every automatic step that follows it
 * (§4.3–§4.6, §7.2, §8). Operates on the plain-data position stpete_core; events go to the state's callback. */
#include <stdio.h>
#include <string.h>

#include "stpete_internal.h"

/* ---- events ------------------------------------------------------------------------------------ */

static stpete_event event_of(const stpete_core *c, int kind)
{
    stpete_event ev = { kind, -1, -1, -1, -1, -1, -1, -1, -1, -1, c->phase, c->round };
    return ev;
}

static void emit(stpete_state *st, const stpete_event *ev)
{
    if (st->queue.on)
        stpete_queue_push(st, ev);
    if (st->event_fn) {
        st->in_callback = 1;
        st->event_fn(st, ev, st->event_user);
        st->in_callback = 0;
    }
}

/* Emit an event built by the statements in the variadic part, only when someone listens. */
#define EMIT(st, kind, ...)                                  \
    do {                                                     \
        if ((st)->event_fn || (st)->queue.on) {              \
            stpete_event ev = event_of(&(st)->core, (kind)); \
            __VA_ARGS__;                                     \
            emit((st), &ev);                                 \
        }                                                    \
    } while (0)

/* ---- small helpers ----------------------------------------------------------------------------- */

static int board_total(const stpete_core *c)
{
    return c->row_n[0] + c->row_n[1];
}

/* Remove list[i]. The vacated slot is zeroed: bytes past a count are always 0, so equal positions are equal
 * byte for byte (stpete_state_equal). */
static void remove_at(uint8_t *list, uint8_t *n, int i)
{
    for (int k = i + 1; k < *n; k++) /* at most 7 bytes: a loop, not a library call */
        list[k - 1] = list[k];
    list[--(*n)] = 0;
}

/* Pop the top card of a stack, zeroing its slot. */
static int pop_stack(stpete_core *c, int s)
{
    int card = c->stack[s][--c->stack_n[s]];
    c->stack[s][c->stack_n[s]] = 0;
    return card;
}

/* Index of the first copy of card in a list, or -1. */
static int find(const uint8_t *list, int n, int card)
{
    for (int i = 0; i < n; i++)
        if (list[i] == card)
            return i;
    return -1;
}

static int lowest_bit(uint64_t m)
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

/* Hand limit (§7.3), as stpete_hand_limit(), inline for the listing and the check. */
static inline int hand_limit_of(const player_state *p)
{
    return p->display[STPETE_CARD_WAREHOUSE] ? STPETE_MAX_HAND : STPETE_MAX_HAND - 1;
}

/* VP a Pub owner may buy now (§7.2, R10): 0 means no choice. */
static int pub_choice_cap(const stpete_core *c, int seat)
{
    const player_state *p = &c->p[seat];
    int pubs = p->display[STPETE_CARD_PUB];
    if (!pubs)
        return 0;
    int cap = c->rules.pub_cap == STPETE_PUB_CAP_PER_PLAYER ? 5 : 5 * pubs;
    int affordable = p->rubles / 2;
    return affordable < cap ? affordable : cap;
}

/* ---- setup (§3) -------------------------------------------------------------------------------- */

/* Deal from a stack into the upper row until the board holds `board` cards: 8 after a phase (§4.5, R2), 2 per
 * player at setup (§3.4). The last card of a stack makes the round in progress the final one (§4.6, R4). */
static void deal_until(stpete_state *st, int s, int board)
{
    stpete_core *c = &st->core;
    while (board_total(c) < board && c->stack_n[s] > 0) {
        int card = pop_stack(c, s);
        c->row[0][c->row_n[0]++] = (uint8_t)card;
        EMIT(st, STPETE_EVENT_DEAL, ev.card = card; ev.stack = s);
        if (c->stack_n[s] == 0 && !c->final_round) {
            c->final_round = 1;
            EMIT(st, STPETE_EVENT_LAST_ROUND, ev.stack = s);
        }
    }
}

void stpete_core_setup(stpete_state *st, uint64_t seed)
{
    stpete_core *c = &st->core;
    stpete_rules rules = st->game->rules;
    memset(c, 0, sizeof *c);
    c->rules = rules;
    /* stream constant: "StPete" in ASCII, so seeds do not collide with other PCG users' default stream */
    stpete_rng_seed(&c->rng, seed, UINT64_C(0x537450657465));
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        int s = stpete_stack_of(t);
        for (int k = 0; k < stpete_cards[t].copies; k++)
            c->stack[s][c->stack_n[s]++] = (uint8_t)t;
    }
    for (int s = 0; s < 4; s++) /* §3.1 */
        stpete_rng_shuffle(&c->rng, c->stack[s], c->stack_n[s]);
    int n = rules.players;
    for (int i = 0; i < n; i++) /* §3.2 */
        c->p[i].rubles = 25;
    if (rules.start_markers[0] >= 0) { /* §3.3 [option] explicit assignment */
        for (int k = 0; k < 4; k++)
            c->markers[k] = (uint8_t)rules.start_markers[k];
    } else { /* §3.3: 4 players 1/1/1/1; 3 players a random player gets two; 2 players 2/2 */
        uint8_t seats[4] = { 0, 1, 2, 3 };
        if (n == 2) {
            seats[2] = 0;
            seats[3] = 1;
        } else if (n == 3) {
            seats[3] = (uint8_t)stpete_rng_below(&c->rng, 3);
        }
        stpete_rng_shuffle(&c->rng, seats, 4);
        memcpy(c->markers, seats, 4);
    }
    c->round = 1;
    c->phase = STPETE_PHASE_WORKER;
    c->obs_card = -1;
    c->decision = STPETE_DECISION_TURN;
    deal_until(st, STPETE_STACK_WORKER, 2 * n); /* §3.4: 2 workers per player into the upper row */
    c->current = c->markers[STPETE_PHASE_WORKER];
    EMIT(st, STPETE_EVENT_PHASE_START, ev.seat = c->current);
}

/* ---- legal actions ----------------------------------------------------------------------------- */

/* The listing below is the hot path of every playout. It computes the same prices as stpete_price() (§5) and the
 * same targets as stpete_displaceable() (§6.1), but once per listing instead of once per (card, target) pair:
 * the part of a price that does not depend on the displaced card is computed once per card and source, and the
 * displacement targets present in the display are one bit mask. The order of the ids is unchanged: ascending. */

/* The listing's helpers are inlined into it (they are called from one place each, in a loop). */
#if defined(__GNUC__) || defined(__clang__)
#define LISTING_INLINE static inline __attribute__((always_inline))
#else
#define LISTING_INLINE static inline
#endif

/* What a listing reads about the seat to act. A price is max(1, printed cost - same-name copies - lower row
 * - colour discount - displaced cost) (§5, R5): it is affordable iff the seat has at least 1 R and
 * printed cost - same-name copies - displaced cost <= rubles + colour discount + lower-row discount. */
typedef struct lister {
    const player_state *p;
    int budget[3];     /* by colour: rubles + 1 for blue with a Carpenter Workshop (§5.1.3), orange with a Gold
                        * Smelter (§5.1.4) */
    int targets_known; /* targets computed (only when a trading card is listed) */
    uint64_t targets;  /* card types the seat's trading cards may displace now (§6.1) */
} lister;

/* Bit i set for each nonzero byte i of 8 bytes (first byte = bit 0). */
LISTING_INLINE unsigned nonzero_bytes(const uint8_t *b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t x;
    memcpy(&x, b, 8);
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

/* Card types of the display that a trading card may displace (§6.1): present, and for the Observatory not face
 * down (§7.1). Only workers, buildings and aristocrats (types 0..23) are ever targets (§6.2). */
static uint64_t displaceable_mask(const player_state *p)
{
    uint64_t m = nonzero_bytes(p->display) | (uint64_t)nonzero_bytes(p->display + 8) << 8 |
                 (uint64_t)nonzero_bytes(p->display + 16) << 16;
    if (p->display[STPETE_CARD_OBSERVATORY] <= p->obs_used)
        m &= ~(UINT64_C(1) << STPETE_CARD_OBSERVATORY);
    return m;
}

/* Append the non-trading cards of the type mask m, bought or played from source, that the seat can afford (§5).
 * Each candidate is written and then kept or not (n += legal), without a branch on its legality: which cards a
 * random playout meets is unpredictable. */
LISTING_INLINE size_t add_plain(const lister *ls, uint64_t m, int lower, int base, int *out, size_t n)
{
    for (; m; m &= m - 1) {
        int card = lowest_bit(m);
        const card_def *d = &stpete_cards[card];
        out[n] = base + card;
        n += (size_t)(d->cost - ls->p->display[card] <= ls->budget[d->colour] + lower);
    }
    return n;
}

/* Append the variants (card, displaced) of the trading cards of the type mask m, bought or played from source,
 * that are legal for the seat: a target in the display (§6.1, §6.2) and an affordable price (§5.2). */
LISTING_INLINE size_t add_trading(lister *ls, uint64_t m, int lower, int base, int *out, size_t n)
{
    if (!m)
        return n;
    if (!ls->targets_known) {
        ls->targets = displaceable_mask(ls->p);
        ls->targets_known = 1;
    }
    for (; m; m &= m - 1) {
        int card = lowest_bit(m);
        const card_def *c = &stpete_cards[card];
        /* Target types ascending (§6.2), so the variant ids come out ascending. */
        uint64_t t;
        int first; /* variant of the lowest target type */
        if (card < FIRST_BLUE_TRADING) {
            t = (UINT64_C(1) << c->ware) | (UINT64_C(1) << STPETE_CARD_CZAR_AND_CARPENTER);
            first = VARIANT_GREEN_TRADING + (card - FIRST_TRADING) * 2;
        } else if (card < FIRST_ORANGE_TRADING) {
            t = ((UINT64_C(1) << NUM_BUILDINGS) - 1) << FIRST_BUILDING;
            first = VARIANT_BLUE_TRADING + (card - FIRST_BLUE_TRADING) * NUM_BUILDINGS;
        } else {
            t = ((UINT64_C(1) << NUM_ARISTOCRATS) - 1) << FIRST_ARISTOCRAT;
            first = VARIANT_ORANGE_TRADING + (card - FIRST_ORANGE_TRADING) * NUM_ARISTOCRATS;
        }
        int lowest = lowest_bit(t);
        int green = card < FIRST_BLUE_TRADING;
        /* the displaced card's cost must cover the rest; Potjomkin's Village counts 6 (§7.4, R7) */
        int need = c->cost - ls->p->display[card] - ls->budget[c->colour] - lower;
        for (t &= ls->targets; t; t &= t - 1) {
            int d = lowest_bit(t);
            int reduction = d == STPETE_CARD_POTJOMKINS_VILLAGE ? 6 : stpete_cards[d].cost;
            out[n] = base + first + (green ? d == STPETE_CARD_CZAR_AND_CARPENTER : d - lowest);
            n += (size_t)(reduction >= need);
        }
    }
    return n;
}

/* Buying or playing card types m from a source: non-trading cards first, their variant ids are the lower ones. */
LISTING_INLINE size_t add_acquisitions(lister *ls, uint64_t m, int source, int base, int *out, size_t n)
{
    const uint64_t plain = (UINT64_C(1) << FIRST_TRADING) - 1;
    int lower = source == STPETE_SOURCE_LOWER; /* §5.1.2, R6 */
    n = add_plain(ls, m & plain, lower, base, out, n);
    return add_trading(ls, m & ~plain, lower, base, out, n);
}

/* Bit mask of the card types in a list of at most cap cards (rows, hands): a fixed number of steps, no branch. */
LISTING_INLINE uint64_t types_in_fixed(const uint8_t *list, int n, int cap)
{
    uint64_t m = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int i = 0; i < cap; i++)
        m |= (uint64_t)(i < n) << list[i];
    return m;
}

size_t stpete_core_legal(const stpete_core *c, int *out)
{
    size_t n = 0;
    int seat = c->current;
    const player_state *p = &c->p[seat];
    int rubles = p->rubles;
    lister ls = { p,
                  { rubles, rubles + (p->display[STPETE_CARD_CARPENTER_WORKSHOP] != 0),
                    rubles + (p->display[STPETE_CARD_GOLD_SMELTER] != 0) },
                  0, 0 };
    int solvent = rubles >= 1; /* every price is at least 1 R (R5) */
    int hand_room = p->hand_n < hand_limit_of(p);
    switch (c->decision) {
    case STPETE_DECISION_NONE:
        return 0;
    case STPETE_DECISION_PUB: {
        int cap = pub_choice_cap(c, seat);
        for (int k = 0; k <= cap; k++)
            out[n++] = ID_PUB + k;
        return n;
    }
    case STPETE_DECISION_OBSERVATORY:
        if (solvent)
            n = add_acquisitions(&ls, UINT64_C(1) << c->obs_card, STPETE_SOURCE_OBSERVATORY, ID_OBS_BUY, out, n);
        if (hand_room)
            out[n++] = ID_OBS_TAKE;
        out[n++] = ID_OBS_DISCARD;
        return n;
    default:
        break;
    }
    out[n++] = ID_PASS;
    uint64_t upper = types_in_fixed(c->row[0], c->row_n[0], ROW_CAP);
    uint64_t lower = types_in_fixed(c->row[1], c->row_n[1], ROW_CAP);
    if (solvent) {
        n = add_acquisitions(&ls, upper, STPETE_SOURCE_UPPER, ID_BUY_UPPER, out, n);
        n = add_acquisitions(&ls, lower, STPETE_SOURCE_LOWER, ID_BUY_LOWER, out, n);
        n = add_acquisitions(&ls, types_in_fixed(p->hand, p->hand_n, STPETE_MAX_HAND), STPETE_SOURCE_HAND, ID_PLAY,
                             out, n);
    }
    if (hand_room) {
        for (uint64_t m = upper; m; m &= m - 1)
            out[n++] = ID_TAKE_UPPER + lowest_bit(m);
        for (uint64_t m = lower; m; m &= m - 1)
            out[n++] = ID_TAKE_LOWER + lowest_bit(m);
    }
    if (c->phase == STPETE_PHASE_BUILDING && p->display[STPETE_CARD_OBSERVATORY] > p->obs_used)
        for (int s = 0; s < 4; s++)
            if (c->stack_n[s] >= 2)
                out[n++] = ID_OBSERVATORY + s;
    return n;
}

/* ---- legality check with a reason --------------------------------------------------------------- */

static const char *const source_names[4] = { "upper row", "lower row", "hand", "Observatory draw" };

#define REFUSE(...)                                     \
    do {                                                \
        if (why)                                        \
            snprintf(why, why_size, __VA_ARGS__);       \
        return STPETE_E_ILLEGAL_ACTION;                 \
    } while (0)

/* Check buying or playing (card, displaced) from source by seat: target present (§6), price affordable (§5). The
 * price goes to *price_out. */
static int check_acquire(const stpete_core *c, int seat, int card, int source, int displaced, int *price_out,
                         char *why, size_t why_size)
{
    if (displaced >= 0 && stpete_displaceable(c, seat, displaced) <= 0) {
        if (displaced == STPETE_CARD_OBSERVATORY && c->p[seat].display[displaced])
            REFUSE("the Observatory of seat %d is face down and cannot be displaced (§7.1, R9)", seat);
        REFUSE("%s must displace a %s, and the display of seat %d has none (§6)", stpete_cards[card].name,
               stpete_cards[displaced].name, seat);
    }
    int price = stpete_price(c, seat, card, source, displaced);
    if (price > c->p[seat].rubles)
        REFUSE("%s from the %s costs %d R and seat %d has %d R (§5)", stpete_cards[card].name, source_names[source],
               price, seat, c->p[seat].rubles);
    *price_out = price;
    return STPETE_OK;
}

int stpete_core_check(const stpete_core *c, int id, char *why, size_t why_size)
{
    stpete_move mv;
    return stpete_core_check_move(c, id, &mv, why, why_size);
}

int stpete_core_check_move(const stpete_core *c, int id, stpete_move *mv, char *why, size_t why_size)
{
    if (c->decision == STPETE_DECISION_NONE) {
        if (why)
            snprintf(why, why_size, "the game is over (§4.6)");
        return STPETE_E_GAME_OVER;
    }
    stpete_action a;
    stpete_decode(id, &a);
    mv->a = a;
    mv->index = -1;
    mv->price = 0;
    int seat = c->current;
    const player_state *p = &c->p[seat];
    int hand_limit = hand_limit_of(p);
    int hand_full = p->hand_n >= hand_limit;

    if (c->decision == STPETE_DECISION_PUB) {
        if (a.kind != STPETE_ACTION_PUB)
            REFUSE("seat %d must first choose how many VP to buy with the Pub (§7.2)", seat);
        int cap = pub_choice_cap(c, seat);
        if (a.amount > cap)
            REFUSE("seat %d may buy at most %d VP with the Pub now (§7.2, R10)", seat, cap);
        return STPETE_OK;
    }
    if (c->decision == STPETE_DECISION_OBSERVATORY) {
        switch (a.kind) {
        case STPETE_ACTION_OBSERVATORY_DISCARD:
            return STPETE_OK;
        case STPETE_ACTION_OBSERVATORY_TAKE:
            if (hand_full)
                REFUSE("the hand of seat %d is at its limit of %d (§7.3)", seat, hand_limit);
            return STPETE_OK;
        case STPETE_ACTION_OBSERVATORY_BUY:
            if (a.card != c->obs_card)
                REFUSE("the Observatory drew %s, not %s (§7.1)", stpete_cards[c->obs_card].name,
                       stpete_cards[a.card].name);
            return check_acquire(c, seat, a.card, STPETE_SOURCE_OBSERVATORY, a.displaced, &mv->price, why,
                                 why_size);
        default:
            REFUSE("seat %d must first buy, take or discard the card drawn by the Observatory (§7.1)", seat);
        }
    }
    switch (a.kind) {
    case STPETE_ACTION_PASS:
        return STPETE_OK;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_TAKE:
        mv->index = find(c->row[a.source], c->row_n[a.source], a.card);
        if (mv->index < 0)
            REFUSE("there is no %s in the %s (§4.2)", stpete_cards[a.card].name, source_names[a.source]);
        if (a.kind == STPETE_ACTION_TAKE) {
            if (hand_full)
                REFUSE("the hand of seat %d is at its limit of %d (§4.2, §7.3)", seat, hand_limit);
            return STPETE_OK;
        }
        return check_acquire(c, seat, a.card, a.source, a.displaced, &mv->price, why, why_size);
    case STPETE_ACTION_PLAY:
        mv->index = find(p->hand, p->hand_n, a.card);
        if (mv->index < 0)
            REFUSE("seat %d has no %s in hand (§4.2)", seat, stpete_cards[a.card].name);
        return check_acquire(c, seat, a.card, STPETE_SOURCE_HAND, a.displaced, &mv->price, why, why_size);
    case STPETE_ACTION_OBSERVATORY:
        if (c->phase != STPETE_PHASE_BUILDING)
            REFUSE("an Observatory can be used only in the building phase (§7.1, R9)");
        if (p->display[STPETE_CARD_OBSERVATORY] <= p->obs_used)
            REFUSE("seat %d has no face-up Observatory (§7.1, R9)", seat);
        if (c->stack_n[a.stack] < 2)
            REFUSE("an Observatory draws only from a stack of at least 2 cards; this one has %d (§7.1, R9)",
                   c->stack_n[a.stack]);
        return STPETE_OK;
    case STPETE_ACTION_PUB:
        REFUSE("a Pub purchase is possible only right after building scoring (§7.2)");
    default:
        REFUSE("there is no Observatory draw to resolve (§7.1)");
    }
}

/* ---- apply and the automatic steps ------------------------------------------------------------- */

static void next_player(stpete_core *c)
{
    c->current = (uint8_t)((c->current + 1) % c->rules.players);
}

/* The card types of each colour (§2): its workers/buildings/aristocrats, then its trading cards. */
static const uint8_t colour_types[3][2][2] = {
    { { 0, FIRST_BUILDING }, { FIRST_TRADING, FIRST_BLUE_TRADING } },
    { { FIRST_BUILDING, FIRST_ARISTOCRAT }, { FIRST_BLUE_TRADING, FIRST_ORANGE_TRADING } },
    { { FIRST_ARISTOCRAT, FIRST_TRADING }, { FIRST_ORANGE_TRADING, STPETE_NUM_CARD_TYPES } },
};

/* Cards of a colour in a display. */
static int colour_count(const player_state *p, int colour)
{
    int count = 0;
    for (int r = 0; r < 2; r++)
        for (int t = colour_types[colour][r][0]; t < colour_types[colour][r][1]; t++)
            count += p->display[t];
    return count;
}

/* §4.4: income of the phase's colour, Mariinskij-Theater and Tax Man (§7.5, R12), face-down Observatories no VP. */
static void score_phase(stpete_state *st)
{
    stpete_core *c = &st->core;
    int colour = c->phase;
    int n = c->rules.players;
    for (int k = 0; k < n; k++) {
        int seat = (c->markers[c->phase] + k) % n;
        player_state *p = &c->p[seat];
        int rubles = 0, vp = 0;
        for (int r = 0; r < 2; r++) {
            int t = colour_types[colour][r][0], end = colour_types[colour][r][1];
            for (; t + 8 <= end; t += 8) /* 8 types at a time: skip the absent ones (a display is sparse) */
                for (unsigned m = nonzero_bytes(p->display + t); m; m &= m - 1) {
                    int u = t + lowest_bit(m);
                    rubles += p->display[u] * stpete_cards[u].rubles;
                    vp += p->display[u] * stpete_cards[u].vp;
                }
            for (; t < end; t++) {
                rubles += p->display[t] * stpete_cards[t].rubles;
                vp += p->display[t] * stpete_cards[t].vp;
            }
        }
        if (colour == STPETE_COLOUR_BLUE) {
            vp -= p->obs_used * stpete_cards[STPETE_CARD_OBSERVATORY].vp;
            if (p->display[STPETE_CARD_MARIINSKIJ_THEATER])
                rubles += p->display[STPETE_CARD_MARIINSKIJ_THEATER] * colour_count(p, STPETE_COLOUR_ORANGE);
        } else if (colour == STPETE_COLOUR_ORANGE) {
            if (p->display[STPETE_CARD_TAX_MAN])
                rubles += p->display[STPETE_CARD_TAX_MAN] * colour_count(p, STPETE_COLOUR_GREEN);
        }
        p->rubles += rubles;
        p->vp += vp;
        EMIT(st, STPETE_EVENT_SCORING, ev.seat = seat; ev.rubles = rubles; ev.vp = vp);
    }
}

static void final_scoring(stpete_state *st)
{
    stpete_core *c = &st->core;
    stpete_score s[STPETE_MAX_PLAYERS];
    for (int i = 0; i < c->rules.players; i++)
        stpete_score_of(c, i, &s[i]);
    c->decision = STPETE_DECISION_NONE;
    for (int i = 0; i < c->rules.players; i++) /* all scores first: callbacks see the final position */
        c->p[i].vp = s[i].total;
    for (int i = 0; i < c->rules.players; i++) {
        EMIT(st, STPETE_EVENT_FINAL_SCORING, ev.seat = i; ev.vp = s[i].total; ev.rubles = s[i].rubles;
             ev.amount = s[i].aristocrat_bonus + s[i].rubles_bonus + s[i].hand_penalty);
    }
    EMIT(st, STPETE_EVENT_GAME_OVER, ev.amount = (int)stpete_winners_of(c));
}

static void start_phase(stpete_state *st, int phase)
{
    stpete_core *c = &st->core;
    c->phase = (uint8_t)phase;
    c->passes = 0;
    c->decision = STPETE_DECISION_TURN;
    c->current = c->markers[phase];
    EMIT(st, STPETE_EVENT_PHASE_START, ev.seat = c->current);
}

/* §4.5 after the trading phase, or §4.6 the end of the game. */
static void end_round(stpete_state *st)
{
    stpete_core *c = &st->core;
    if (c->final_round) {
        final_scoring(st);
        return;
    }
    int discarded = c->row_n[1];
    for (int i = 0; i < c->row_n[1]; i++) /* (1) lower row to the discard pile */
        c->discard[c->row[1][i]]++;
    memcpy(c->row[1], c->row[0], sizeof c->row[0]); /* (2) upper row moves down (unused slots are 0) */
    c->row_n[1] = c->row_n[0];
    memset(c->row[0], 0, sizeof c->row[0]);
    c->row_n[0] = 0;
    EMIT(st, STPETE_EVENT_ROUND_END, ev.amount = discarded);
    if (c->round < UINT8_MAX) /* saturates: no real game comes near, and a loaded one must not wrap (§4.6) */
        c->round++;
    c->phase = STPETE_PHASE_WORKER;
    deal_until(st, STPETE_STACK_WORKER, STPETE_BOARD_SIZE); /* (3) */
    for (int k = 0; k < 4; k++)    /* (4) markers to the left neighbour */
        c->markers[k] = (uint8_t)((c->markers[k] + 1) % c->rules.players);
    EMIT(st, STPETE_EVENT_MARKERS_MOVED, (void)0);
    for (int i = 0; i < c->rules.players; i++) /* (5) Observatories face up */
        c->p[i].obs_used = 0;
    start_phase(st, STPETE_PHASE_WORKER);
}

/* Deal the next phase's cards (§4.5) and start it, or end the round. */
static void finish_phase(stpete_state *st)
{
    stpete_core *c = &st->core;
    if (c->phase == STPETE_PHASE_TRADING) {
        end_round(st);
        return;
    }
    deal_until(st, c->phase + 1, STPETE_BOARD_SIZE);
    start_phase(st, c->phase + 1);
}

/* Pub step (§7.2): ask the next Pub owner with a choice, in turn order from the building start player. */
static void next_pub(stpete_state *st)
{
    stpete_core *c = &st->core;
    int n = c->rules.players;
    while (c->pub_next < n) {
        int seat = (c->markers[STPETE_PHASE_BUILDING] + c->pub_next) % n;
        c->pub_next++;
        if (pub_choice_cap(c, seat) > 0) {
            c->decision = STPETE_DECISION_PUB;
            c->current = (uint8_t)seat;
            return;
        }
    }
    c->pub_next = 0;
    c->decision = STPETE_DECISION_TURN;
    finish_phase(st);
}

/* §4.3: N consecutive passes end the action part; then scoring (§4.4), the Pub step, new cards (§4.5). */
static void end_action_part(stpete_state *st)
{
    stpete_core *c = &st->core;
    c->passes = 0;
    if (c->phase == STPETE_PHASE_TRADING) {
        finish_phase(st);
        return;
    }
    score_phase(st);
    if (c->phase == STPETE_PHASE_BUILDING) {
        c->pub_next = 0;
        next_pub(st);
        return;
    }
    finish_phase(st);
}

/* Put (card, displaced) into seat's display for price rubles (§4.2, §6). The card enters the display before the
 * DISPLACE event, so that a callback sees all 116 cards in place (§2). */
static void acquire(stpete_state *st, int seat, int card, int displaced, int price)
{
    player_state *p = &st->core.p[seat];
    p->rubles -= price;
    p->display[card]++;
    if (displaced >= 0) {
        p->display[displaced]--;
        st->core.discard[displaced]++;
        EMIT(st, STPETE_EVENT_DISPLACE, ev.seat = seat; ev.card = displaced);
    }
}

/* The Observatory draw is resolved (§7.1). The decision goes back to an ordinary turn at once, so that an event
 * callback querying the state (e.g. its legal actions) never sees an Observatory decision without a drawn card. */
static void clear_draw(stpete_core *c)
{
    c->obs_card = -1;
    c->decision = STPETE_DECISION_TURN;
}

/* An action other than a pass was taken: reset the pass count and hand the turn on (§4.1, §4.3). */
static void acted(stpete_core *c)
{
    c->passes = 0;
    c->decision = STPETE_DECISION_TURN;
    next_player(c);
}

void stpete_core_apply(stpete_state *st, int id)
{
    stpete_move mv;
    stpete_core_check_move(&st->core, id, &mv, NULL, 0);
    stpete_core_apply_move(st, &mv);
}

void stpete_core_apply_move(stpete_state *st, const stpete_move *mv)
{
    stpete_core *c = &st->core;
    stpete_action a = mv->a;
    int seat = c->current;
    player_state *p = &c->p[seat];
    switch (a.kind) {
    case STPETE_ACTION_PASS:
        c->passes++;
        EMIT(st, STPETE_EVENT_PASS, ev.seat = seat; ev.amount = c->passes);
        if (c->passes >= c->rules.players)
            end_action_part(st);
        else
            next_player(c);
        break;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_PLAY:
    case STPETE_ACTION_OBSERVATORY_BUY: {
        int price = mv->price;
        if (a.kind == STPETE_ACTION_BUY)
            remove_at(c->row[a.source], &c->row_n[a.source], mv->index);
        else if (a.kind == STPETE_ACTION_PLAY)
            remove_at(p->hand, &p->hand_n, mv->index);
        else
            clear_draw(c);
        acquire(st, seat, a.card, a.displaced, price);
        EMIT(st, a.kind == STPETE_ACTION_PLAY ? STPETE_EVENT_PLAY : STPETE_EVENT_BUY, ev.seat = seat;
             ev.card = a.card; ev.source = a.source; ev.displaced = a.displaced; ev.price = price);
        acted(c);
        break;
    }
    case STPETE_ACTION_TAKE:
    case STPETE_ACTION_OBSERVATORY_TAKE: {
        int card = a.card;
        if (a.kind == STPETE_ACTION_TAKE) {
            remove_at(c->row[a.source], &c->row_n[a.source], mv->index);
        } else {
            card = c->obs_card;
            clear_draw(c);
        }
        p->hand[p->hand_n++] = (uint8_t)card;
        EMIT(st, STPETE_EVENT_TAKE, ev.seat = seat; ev.card = card; ev.source = a.source);
        acted(c);
        break;
    }
    case STPETE_ACTION_OBSERVATORY: {
        p->obs_used++;
        int card = pop_stack(c, a.stack);
        c->obs_card = (int8_t)card;
        c->passes = 0;
        c->decision = STPETE_DECISION_OBSERVATORY;
        EMIT(st, STPETE_EVENT_OBSERVATORY_DRAW, ev.seat = seat; ev.card = card; ev.stack = a.stack);
        break;
    }
    case STPETE_ACTION_OBSERVATORY_DISCARD: {
        int card = c->obs_card;
        c->discard[card]++;
        clear_draw(c);
        EMIT(st, STPETE_EVENT_OBSERVATORY_DISCARD, ev.seat = seat; ev.card = card);
        acted(c);
        break;
    }
    case STPETE_ACTION_PUB:
        p->rubles -= 2 * a.amount;
        p->vp += a.amount;
        EMIT(st, STPETE_EVENT_PUB, ev.seat = seat; ev.amount = a.amount; ev.vp = a.amount; ev.rubles = 2 * a.amount);
        next_pub(st);
        break;
    default:
        break;
    }
}
