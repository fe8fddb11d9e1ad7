/* Phase scoring (§4.4, §7.5, §11's Mariinsky Theater), final scoring and winners (§8, R13, R14). */
#include "engine/engine.h"

/* The card types of each colour (§2): its workers/buildings/aristocrats, then its trading cards. */
static const uint8_t colour_types[3][2][2] = {
    { { 0, FIRST_BUILDING }, { FIRST_TRADING, FIRST_BLUE_TRADING } },
    { { FIRST_BUILDING, FIRST_ARISTOCRAT }, { FIRST_BLUE_TRADING, FIRST_ORANGE_TRADING } },
    { { FIRST_ARISTOCRAT, FIRST_TRADING }, { FIRST_ORANGE_TRADING, STPETE_NUM_CARD_TYPES } },
};

/* Cards of a colour in a display (trading cards of that colour and duplicates included). */
static int colour_count(const player_state *p, int colour)
{
    int count = 0;
    for (int r = 0; r < 2; r++)
        for (int t = colour_types[colour][r][0]; t < colour_types[colour][r][1]; t++)
            count += p->display[t];
    return count;
}

/* Bit t set for each card type t of the colour (its range in colour_types). */
static uint64_t colour_mask(int colour)
{
    uint64_t m = 0;
    for (int r = 0; r < 2; r++)
        m |= (UINT64_C(1) << colour_types[colour][r][1]) - (UINT64_C(1) << colour_types[colour][r][0]);
    return m;
}

void stpete_phase_income(const stpete_core *c, int seat, int colour, int *rubles_out, int *vp_out)
{
    const player_state *p = &c->p[seat];
    const card_def *cards = stpete_cards_of(&c->rules);
    int rubles = 0, vp = 0;
    /* One loop over the colour's card types present in the display (a display is sparse), found as one bit mask:
     * loops over fixed ranges of each colour ran a different number of times at each phase and mispredicted. */
    for (uint64_t m = stpete_display_types(p, STPETE_NUM_CARD_TYPES) & colour_mask(colour); m; m &= m - 1) {
        int u = stpete_lowest_bit(m);
        rubles += p->display[u] * cards[u].rubles;
        vp += p->display[u] * cards[u].vp;
    }
    if (colour == STPETE_COLOUR_BLUE) {
        vp -= p->obs_used * cards[STPETE_CARD_OBSERVATORY].vp; /* face down: no VP (§7.1, R9) */
        int theaters = p->display[STPETE_CARD_MARIINSKIJ_THEATER];
        if (theaters) { /* +1 per orange card, trading cards and duplicates included: R (§7.5, R12) or VP (§11) */
            int bonus = theaters * colour_count(p, STPETE_COLOUR_ORANGE);
            if (cards[STPETE_CARD_MARIINSKIJ_THEATER].special == STPETE_SPECIAL_MARIINSKY_THEATER_VP)
                vp += bonus;
            else
                rubles += bonus;
        }
    } else if (colour == STPETE_COLOUR_ORANGE) {
        if (p->display[STPETE_CARD_TAX_MAN])                        /* §7.5, R12 */
            rubles += p->display[STPETE_CARD_TAX_MAN] * colour_count(p, STPETE_COLOUR_GREEN);
    }
    *rubles_out = rubles;
    *vp_out = vp;
}

void stpete_score_of(const stpete_core *c, int seat, stpete_score *out)
{
    const player_state *p = &c->p[seat];
    out->struct_size = sizeof *out;
    int kinds = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        if (stpete_cards_of(&c->rules)[t].colour == STPETE_COLOUR_ORANGE && p->display[t])
            kinds++;
    out->aristocrat_kinds = kinds;
    out->aristocrat_bonus = kinds >= 10 ? 55 : kinds * (kinds + 1) / 2; /* 0,1,3,6,…,45; 10 or more: 55 */
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
        out->total = stpete_add_vp(p->vp, bonus);
    }
    out->tie_break = c->rules.tie_break == STPETE_TIE_BREAK_RUBLES_TOTAL ? p->rubles : p->rubles % 10;
}

unsigned stpete_winners_of(const stpete_core *c)
{
    stpete_score s[STPETE_MAX_PLAYERS];
    int best = 0;
    for (int i = 0; i < c->rules.players; i++) {
        stpete_score_of(c, i, &s[i]);
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
