/* Final scoring and winners (§8, R13, R14). */
#include "stpete_internal.h"

void stpete_score_of(const stpete_core *c, int seat, stpete_score *out)
{
    const player_state *p = &c->p[seat];
    int kinds = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        if (stpete_cards[t].colour == STPETE_COLOUR_ORANGE && p->display[t])
            kinds++;
    out->aristocrat_kinds = kinds;
    out->aristocrat_bonus = kinds >= 10 ? 55 : kinds * (kinds + 1) / 2; /* 0,1,3,6,…,45; 10 or more: 55 */
    out->rubles = p->rubles;
    out->rubles_bonus = p->rubles / 10;
    out->hand_cards = p->hand_n;
    out->hand_penalty = -5 * p->hand_n;
    int bonus = out->aristocrat_bonus + out->rubles_bonus + out->hand_penalty;
    if (c->decision == STPETE_DECISION_NONE) { /* already applied */
        out->total = p->vp;
        out->vp_before = p->vp - bonus;
    } else {
        out->vp_before = p->vp;
        out->total = p->vp + bonus;
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
