/* What one seat sees now (§9), from its point of view: the observation tensor (layout in doc/observation.md,
 * element by element) and the same as readable text, both written from the seat's knowledge (knowledge.c, the one
 * definition) and nothing else. Seats are relative to the observer: relative seat k is (observer + k) mod N, so
 * seat 0 of the tensor is always the observer. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

/* Offsets of the global block and of a seat's block (doc/observation.md). A base game has T = 49 card
 * types, S = 4 seat places, D = 5 decisions, 232 + 4 x 109 = 668 floats. With the New Society (§12) T = 62, S = 5,
 * D = 8, and a seat's block ends with its Debtor's Prison used (§12.7.5): 292 + 5 x 136 = 972 floats. */
enum {
    O_ROUND = 0,
    O_PHASE = 1,          /* 4, one-hot */
    O_DECISION = 5,       /* D, one-hot: turn, observatory, pub, game over, chance (, prison, guild hall, trading
                             house) */
    /* then: final round, passes, to act (S, relative seat one-hot), stack sizes (4), upper row (T copies per card
     * type), lower row (T), drawn or picked card (T, one-hot), discard pile (T), markers (4 phases x S relative
     * seats, one-hot) */
    /* per relative seat */
    S_PRESENT = 0,
    S_VP = 1,
    S_RUBLES = 2,
    S_RUBLES_KNOWN = 3,
    S_HAND_SIZE = 4,
    S_HAND_LIMIT = 5,
    S_OBS_USED = 6,
    S_BACKS = 7,          /* 4 */
    S_HAND = 11           /* T copies of the hand cards known to the observer, then the display (T), then the
                             New Society's Prison used (1) */
};

typedef struct obs_layout {
    int types, seats, ns;
    int final_round, passes, to_act, stack_sizes, upper, lower, drawn, discard, markers, global;
    int display, prison, block, size;
} obs_layout;

static obs_layout layout_of(const stpete_rules *rules)
{
    obs_layout l;
    l.ns = rules->new_society;
    l.types = l.ns ? CARD_TYPES_ALL : STPETE_NUM_CARD_TYPES;
    l.seats = l.ns ? 5 : 4;
    l.final_round = O_DECISION + (l.ns ? 8 : 5);
    l.passes = l.final_round + 1;
    l.to_act = l.passes + 1;
    l.stack_sizes = l.to_act + l.seats;
    l.upper = l.stack_sizes + STPETE_NUM_STACKS;
    l.lower = l.upper + l.types;
    l.drawn = l.lower + l.types;
    l.discard = l.drawn + l.types;
    l.markers = l.discard + l.types;
    l.global = l.markers + STPETE_NUM_PHASES * l.seats;
    l.display = S_HAND + l.types;
    l.prison = l.display + l.types;
    l.block = l.prison + l.ns;
    l.size = l.global + l.seats * l.block;
    return l;
}

int stpete_observation_size(const stpete_rules *rules)
{
    return layout_of(rules).size;
}

/* The card type of a hand card in a knowledge, or -1 when the seat has not seen it; *back receives its back. */
static int hand_card(const player_state *p, int h, int *back)
{
    int t = p->hand[h];
    if (t >= HIDDEN_CARD) {
        *back = t - HIDDEN_CARD;
        return -1;
    }
    *back = stpete_cards_stack(t);
    return t;
}

void stpete_observation_tensor(const stpete_knowledge *kn, float *out)
{
    const stpete_core *c = &kn->k;
    int seat = kn->seat, n = c->rules.players;
    obs_layout l = layout_of(&c->rules);
    memset(out, 0, (size_t)l.size * sizeof *out);
    out[O_ROUND] = c->round;
    out[O_PHASE + c->phase] = 1;
    out[O_DECISION + c->decision] = 1;
    out[l.final_round] = c->final_round;
    out[l.passes] = c->passes;
    if (c->decision != STPETE_DECISION_GAME_OVER && c->decision != STPETE_DECISION_CHANCE)
        out[l.to_act + (c->current - seat + n) % n] = 1;
    for (int s = 0; s < STPETE_NUM_STACKS; s++)
        out[l.stack_sizes + s] = c->stack_n[s];
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < c->row_n[r]; i++)
            out[(r ? l.lower : l.upper) + c->row[r][i]] += 1;
    if (c->obs_card >= 0)
        out[l.drawn + c->obs_card] = 1;
    for (int t = 0; t < l.types; t++)
        out[l.discard + t] = c->discard[t];
    if (c->chance != CHANCE_MARKERS) /* before the marker deal (explicit mode) nobody holds one */
        for (int k = 0; k < STPETE_NUM_PHASES; k++)
            out[l.markers + l.seats * k + (c->markers[k] - seat + n) % n] = 1;
    for (int k = 0; k < n; k++) {
        int player = (seat + k) % n;
        const player_state *p = &c->p[player];
        float *b = out + l.global + k * l.block;
        b[S_PRESENT] = 1;
        b[S_VP] = (float)p->vp;
        if (kn->rubles_shown >> player & 1u) {
            b[S_RUBLES] = (float)p->rubles;
            b[S_RUBLES_KNOWN] = 1;
        }
        b[S_HAND_SIZE] = p->hand_n;
        b[S_HAND_LIMIT] = stpete_engine_hand_limit(p);
        b[S_OBS_USED] = p->obs_used;
        for (int h = 0; h < p->hand_n; h++) {
            int back, t = hand_card(p, h, &back);
            b[S_BACKS + back] += 1;
            if (t >= 0)
                b[S_HAND + t] += 1;
        }
        for (int t = 0; t < l.types; t++)
            b[l.display + t] = p->display[t];
        if (l.ns)
            b[l.prison] = p->prison_used;
    }
}

void stpete_observation_printf(text_buf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->len < t->size ? t->size - t->len : 0;
    int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n;
}

/* A list of card types with counts, "2x Market, Pub", or "-" when empty. */
static void cards_text(text_buf *t, const card_def *names, const uint8_t *counts)
{
    int any = 0;
    for (int c = 0; c < CARD_TYPES_ALL; c++) {
        if (!counts[c])
            continue;
        stpete_observation_printf(t, "%s", any ? ", " : "");
        if (counts[c] > 1)
            stpete_observation_printf(t, "%dx ", counts[c]);
        stpete_observation_printf(t, "%s", names[c].name);
        any = 1;
    }
    if (!any)
        stpete_observation_printf(t, "-");
}

void stpete_observation_text(const stpete_knowledge *kn, text_buf *t)
{
    const stpete_core *c = &kn->k;
    int seat = kn->seat, n = c->rules.players;
    const card_def *names = stpete_engine_cards(&c->rules); /* the edition's (§11) */
    stpete_observation_printf(t, "observer: seat %d\nround %d, %s phase%s, decision: %s", seat, c->round,
                       stpete_phase_words[c->phase], c->final_round ? " (final round)" : "",
                       stpete_decision_words[c->decision]);
    if (c->decision != STPETE_DECISION_GAME_OVER && c->decision != STPETE_DECISION_CHANCE)
        stpete_observation_printf(t, ", seat %d to act", c->current);
    stpete_observation_printf(t, ", %d consecutive passes\n", c->passes);
    uint8_t counts[DISPLAY_CAP];
    for (int r = 0; r < 2; r++) {
        stpete_observation_printf(t, "%s row: ", stpete_source_words[r]);
        for (int i = 0; i < c->row_n[r]; i++)
            stpete_observation_printf(t, "%s%s", i ? ", " : "", names[c->row[r][i]].name);
        stpete_observation_printf(t, "%s\n", c->row_n[r] ? "" : "-");
    }
    stpete_observation_printf(t, "stacks: %d workers, %d buildings, %d aristocrats, %d trading cards\n", c->stack_n[0],
                       c->stack_n[1], c->stack_n[2], c->stack_n[3]);
    stpete_observation_printf(t, "%s card: %s\ndiscard pile: ",
                       c->decision == STPETE_DECISION_PRISON ? "prison" : "observatory",
                       c->obs_card >= 0 ? names[c->obs_card].name : "-");
    cards_text(t, names, c->discard);
    stpete_observation_printf(t, "\nstart-player markers:");
    for (int k = 0; k < STPETE_NUM_PHASES; k++)
        if (c->chance == CHANCE_MARKERS)
            stpete_observation_printf(t, " %s ?", stpete_phase_words[k]);
        else
            stpete_observation_printf(t, " %s seat %d", stpete_phase_words[k], c->markers[k]);
    stpete_observation_printf(t, "\n");
    for (int k = 0; k < n; k++) {
        int player = (seat + k) % n;
        const player_state *p = &c->p[player];
        stpete_observation_printf(t, "seat %d: %d VP, ", player, p->vp);
        if (kn->rubles_shown >> player & 1u)
            stpete_observation_printf(t, "%d R", p->rubles);
        else
            stpete_observation_printf(t, "? R");
        stpete_observation_printf(t, ", hand %d/%d [", p->hand_n, stpete_engine_hand_limit(p));
        for (int h = 0; h < p->hand_n; h++) {
            int back, card = hand_card(p, h, &back);
            stpete_observation_printf(t, "%s%s", h ? ", " : "",
                                      card >= 0 ? names[card].name : stpete_stack_words[back]);
        }
        stpete_observation_printf(t, "], observatories used %d, ", p->obs_used);
        if (c->rules.new_society)
            stpete_observation_printf(t, "prison used %d, ", p->prison_used);
        stpete_observation_printf(t, "display: ");
        memcpy(counts, p->display, sizeof counts);
        cards_text(t, names, counts);
        stpete_observation_printf(t, "\n");
    }
}
