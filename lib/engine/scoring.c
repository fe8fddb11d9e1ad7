/* Phase scoring (§4.4, §7.5, §11's Mariinsky Theater), final scoring and winners (§8, R13, R14). */
#include "engine/engine.h"

/* Cards of a colour in a display (trading cards of that colour and duplicates included; §7.5, §12.7.3-4, R30). */
static int colour_count(const player_state *p, int colour)
{
    int count = 0;
    for (uint64_t m = stpete_engine_display_types(p, DISPLAY_CAP) & stpete_cards_colour_types(colour); m; m &= m - 1)
        count += p->display[stpete_bytes_lowest_bit(m)];
    return count;
}

/* The blue phase's terms beyond the printed incomes, for a display holding a Mariinskij-Theater or in a game of the
 * New Society: the theater's +1 per orange card (§7.5, R12; VP in §11), a used Debtor's Prison (R22), the Coffee
 * House (§12.7.4, R30) and the Textile Factory (§12.7.8, R29). Out of line: the common blue phase has none. */
STPETE_NOINLINE static stpete_income blue_terms(const stpete_core *c, const player_state *p, const card_def *cards)
{
    stpete_income in = { 0, 0 };
    int theaters = p->display[STPETE_CARD_MARIINSKIJ_THEATER];
    if (theaters) { /* +1 per orange card, trading cards and duplicates included: R (§7.5, R12) or VP (§11) */
        int bonus = theaters * colour_count(p, STPETE_COLOUR_ORANGE);
        if (cards[STPETE_CARD_MARIINSKIJ_THEATER].special == STPETE_SPECIAL_MARIINSKY_THEATER_VP)
            in.vp += bonus;
        else
            in.rubles += bonus;
    }
    if (c->rules.new_society) {
        /* a used Debtor's Prison scores no VP (R22 [option: it does]) */
        if (p->prison_used && !c->rules.used_prison_scores)
            in.vp -= p->display[STPETE_CARD_DEBTORS_PRISON] * cards[STPETE_CARD_DEBTORS_PRISON].vp;
        if (p->display[STPETE_CARD_COFFEE_HOUSE]) /* +1 R per orange card (§12.7.4, R30) */
            in.rubles += p->display[STPETE_CARD_COFFEE_HOUSE] * colour_count(p, STPETE_COLOUR_ORANGE);
        if (p->display[STPETE_CARD_TEXTILE_FACTORY]) { /* +2 VP per weaving card (§12.7.8, R29) */
            int weaving = 0;
            for (uint64_t m = stpete_engine_display_types(p, DISPLAY_CAP) & GREEN_TYPES; m; m &= m - 1) {
                int u = stpete_bytes_lowest_bit(m);
                int w = cards[u].weaving;
                if (w == WEAVING_ALWAYS || (w == WEAVING_BY_DEFAULT && !c->rules.textile_without_new_society))
                    weaving += p->display[u];
            }
            in.vp += 2 * p->display[STPETE_CARD_TEXTILE_FACTORY] * weaving;
        }
    }
    return in;
}

/* The orange phase's terms beyond the printed incomes, for a display holding a Tax Man or a Mayor: +1 R per green
 * card (§7.5, R12) and +1 R per blue card (§12.7.4, R30). Out of line: the common orange phase has none. */
STPETE_NOINLINE static int orange_terms(const player_state *p)
{
    int rubles = 0;
    if (p->display[STPETE_CARD_TAX_MAN])
        rubles += p->display[STPETE_CARD_TAX_MAN] * colour_count(p, STPETE_COLOUR_GREEN);
    if (p->display[STPETE_CARD_MAYOR])
        rubles += p->display[STPETE_CARD_MAYOR] * colour_count(p, STPETE_COLOUR_BLUE);
    return rubles;
}

stpete_income stpete_scoring_income(const stpete_core *c, int seat, int colour)
{
    const player_state *p = &c->p[seat];
    const int32_t *incomes = stpete_engine_incomes(&c->rules);
    /* One loop over the colour's card types present in the display (a display is sparse), found as one bit mask:
     * loops over fixed ranges of each colour ran a different number of times at each phase and mispredicted. All
     * DISPLAY_CAP bytes in whole vectors, in a base game too (its display holds no type of 49.. : none has a copy,
     * §2, and the validator refuses more copies than the table's). Rubles and VP summed packed (STPETE_INCOME). */
    int32_t packed = 0;
    for (uint64_t m = stpete_engine_display_types(p, DISPLAY_CAP) & stpete_cards_colour_types(colour); m; m &= m - 1) {
        int u = stpete_bytes_lowest_bit(m);
        packed += p->display[u] * incomes[u]; /* the Sycophant's -1 R included (§12.7.9, R26) */
    }
    int rubles = stpete_cards_income_rubles(packed), vp = stpete_cards_income_vp(packed);
    if (colour == STPETE_COLOUR_BLUE) {
        const card_def *cards = stpete_engine_cards(&c->rules);
        vp -= p->obs_used * cards[STPETE_CARD_OBSERVATORY].vp; /* face down: no VP (§7.1, R9) */
        if (p->display[STPETE_CARD_MARIINSKIJ_THEATER] || c->rules.new_society) {
            stpete_income in = blue_terms(c, p, cards);
            rubles += in.rubles;
            vp += in.vp;
        }
    } else if (colour == STPETE_COLOUR_ORANGE && (p->display[STPETE_CARD_TAX_MAN] | p->display[STPETE_CARD_MAYOR])) {
        rubles += orange_terms(p);
    }
    stpete_income in = { rubles, vp };
    return in;
}

stpete_income stpete_scoring_due(const stpete_core *c, int seat, int colour, int *unpaid)
{
    stpete_income in = stpete_scoring_income(c, seat, colour);
    int n = 0; /* §12.7.9, R26: a Sycophant the purse cannot pay is discarded, raising the income by 1 */
    while (c->p[seat].rubles + in.rubles < 0 && n < c->p[seat].display[STPETE_CARD_SYCOPHANT]) {
        n++;
        in.rubles++;
    }
    if (unpaid)
        *unpaid = n;
    return in;
}

stpete_income stpete_scoring_due_next(const stpete_core *c, int seat, int colour)
{
    const player_state *p = &c->p[seat];
    /* the face-down Observatories and a used Prison count at this round's building scoring only: once it is past
     * (or, at the end of a round's deal, before the round's turn-up), the next one comes after §4.5 step 5 */
    if (colour != STPETE_COLOUR_BLUE || !(p->obs_used | p->prison_used) ||
        (c->phase == STPETE_PHASE_BUILDING && stpete_scoring_next(c) == STPETE_PHASE_BUILDING))
        return stpete_scoring_due(c, seat, colour, NULL);
    stpete_core turned;
    stpete_engine_copy(&turned, c);
    turned.p[seat].obs_used = 0; /* face up again (§4.5 step 5, §7.1, R9) */
    turned.p[seat].prison_used = 0; /* usable and scoring again (§12.4.5, R22) */
    return stpete_scoring_due(&turned, seat, colour, NULL);
}

void stpete_scoring_score(const stpete_core *c, int seat, stpete_score *out)
{
    const player_state *p = &c->p[seat];
    out->struct_size = sizeof *out;
    int kinds = 0;
    for (uint64_t m = stpete_engine_display_types(p, DISPLAY_CAP) & ORANGE_TYPES; m; m &= m - 1)
        kinds++;
    out->aristocrat_kinds = kinds;
    out->aristocrat_bonus = kinds >= 10 ? 55 : kinds * (kinds + 1) / 2; /* 0,1,3,6,…,45; 10 or more: 55 */
    if (c->rules.new_society && kinds > 10) /* +10 per name beyond 10 (§12.8, R31) */
        out->aristocrat_bonus += 10 * (kinds - 10);
    out->rubles = p->rubles;
    out->rubles_bonus = p->rubles / 10;
    out->hand_cards = p->hand_n;
    out->hand_penalty = -5 * p->hand_n;
    int bonus = out->aristocrat_bonus + out->rubles_bonus + out->hand_penalty;
    if (c->decision == STPETE_DECISION_GAME_OVER) { /* already applied (saturated, §8 and doc/format.md) */
        out->total = p->vp;
        out->vp_before = p->vp - bonus;
    } else {
        out->vp_before = p->vp;
        out->total = stpete_engine_add_vp(p->vp, bonus);
    }
    out->tie_break = c->rules.tie_break == STPETE_TIE_BREAK_RUBLES_TOTAL ? p->rubles : p->rubles % 10;
}

unsigned stpete_scoring_winners(const stpete_core *c)
{
    stpete_score s[STPETE_MAX_PLAYERS];
    int best = 0;
    for (int i = 0; i < c->rules.players; i++) {
        stpete_scoring_score(c, i, &s[i]);
        if (i == 0 || s[i].total > s[best].total ||
            (s[i].total == s[best].total && s[i].tie_break > s[best].tie_break))
            best = i;
    }
    unsigned mask = 0;
    for (int i = 0; i < c->rules.players; i++)
        if (s[i].total == s[best].total && s[i].tie_break == s[best].tie_break)
            mask |= 1u << i;
    return mask;
}
