/* The tutorial of the reference manual (doc/mainpage.md shows it in steps with \snippet): configure a game, create
 * a state, read what a front end draws, list and apply legal actions, handle errors, listen to events, look ahead
 * with an allocation-free copy, and read the final scoring. A test runs it; it exits non-zero if anything the
 * tutorial states does not hold. */
#include <stdio.h>
#include <string.h>

#include <stpete/stpete.h>

/* [events] */
/* Count the events of a game and print the scorings; user_data is ours, the state is read-only here. */
typedef struct tally {
    int events, buys, scorings;
} tally;

static void on_event(const stpete_state *state, const stpete_event *ev, void *user_data)
{
    tally *t = user_data;
    t->events++;
    if (ev->kind == STPETE_EVENT_BUY)
        t->buys++;
    if (ev->kind == STPETE_EVENT_SCORING && ev->round == 1) {
        t->scorings++;
        printf("  round 1, phase %d scoring: seat %d gains %d R and %d VP (now %d R)\n", ev->phase, ev->seat,
               ev->rubles, ev->vp, stpete_state_rubles(state, ev->seat));
    }
}
/* [events] */

/* [lookahead] */
/* A Monte Carlo player: try every legal action on a scratch state (stpete_state_copy() does not allocate), play
 * the game out at random a few times, and keep the action with the best final-score margin for the player. */
static unsigned next_random(unsigned long long *rng) /* the bot's own generator (the state's is for the deals) */
{
    *rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(*rng >> 33);
}

static long playout_margin(stpete_state *scratch, int seat, unsigned long long *rng)
{
    while (!stpete_state_is_terminal(scratch)) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n;
        stpete_state_legal_actions(scratch, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        stpete_state_apply(scratch, ids[next_random(rng) % n]);
    }
    int mine = 0, best_other = -1000;
    for (int s = 0; s < stpete_game_num_players(stpete_state_game(scratch)); s++) {
        int vp;
        stpete_state_vp(scratch, s, &vp);           /* after final scoring (§8) */
        if (s == seat)
            mine = vp;
        else if (vp > best_other)
            best_other = vp;
    }
    return mine - best_other;
}

static int choose(const stpete_state *st, stpete_state *scratch, unsigned long long *rng)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n;
    if (stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n) != STPETE_OK || n == 0)
        return -1;
    int seat = stpete_state_current_player(st);
    int best = ids[0];
    long best_value = 0;
    for (size_t i = 0; i < n; i++) {
        long value = 0;
        for (int k = 0; k < 3; k++) {
            stpete_state_copy(scratch, st);
            stpete_state_apply(scratch, ids[i]);    /* a listed id is always legal */
            value += playout_margin(scratch, seat, rng);
        }
        if (i == 0 || value > best_value) {
            best_value = value;
            best = ids[i];
        }
    }
    return best;
}
/* [lookahead] */

int main(void)
{
    /* [game] */
    stpete_options opts;
    stpete_options_init(&opts);           /* the spec's defaults; always start here */
    opts.players = 2;
    opts.seed = 2026;                     /* same options and seed: same game, on every platform */
    opts.pub_cap = STPETE_PUB_CAP_PER_PLAYER; /* a rule option (§7.2, R10) */
    stpete_game *game = NULL;
    int rc = stpete_game_new(&game, &opts);
    if (rc != STPETE_OK) {
        fprintf(stderr, "game: %s\n", stpete_strerror(rc));
        return 1;
    }
    stpete_state *st = NULL;
    rc = stpete_state_new(&st, game);     /* §3 setup: shuffled stacks, 8 workers dealt, markers */
    if (rc != STPETE_OK) {
        fprintf(stderr, "state: %s\n", stpete_strerror(rc));
        stpete_game_free(game);
        return 1;
    }
    /* [game] */

    /* [draw] */
    int upper[STPETE_BOARD_SIZE];
    size_t n_upper;
    stpete_state_row(st, STPETE_SOURCE_UPPER, upper, STPETE_BOARD_SIZE, &n_upper);
    printf("round %d, phase %d, seat %d to act\n", stpete_state_round(st), stpete_state_phase(st),
           stpete_state_current_player(st));
    for (size_t i = 0; i < n_upper; i++) {
        int price;
        stpete_state_price(st, stpete_state_current_player(st), upper[i], STPETE_SOURCE_UPPER, -1, &price);
        printf("  upper row: %s, %d R for seat %d\n", stpete_card_name(upper[i]), price,
               stpete_state_current_player(st));
    }
    for (int seat = 0; seat < opts.players; seat++)
        printf("  seat %d: %d R\n", seat, stpete_state_rubles(st, seat));
    /* [draw] */

    /* [errors] */
    /* A failing call returns a negative status, explains itself, and leaves the state unchanged. */
    int id;
    if (stpete_action_from_string("buy Market from lower", &id) != STPETE_OK) /* a structured id... */
        return 1;
    rc = stpete_state_apply(st, id);                                       /* ...that is not legal now */
    printf("apply \"buy Market from lower\": %s (%s)\n", stpete_strerror(rc), stpete_state_last_error(st));
    if (rc != STPETE_E_ILLEGAL_ACTION)
        return 1;
    rc = stpete_state_apply_string(st, "buy nonsense");
    printf("apply \"buy nonsense\": %s\n", stpete_strerror(rc));
    if (rc != STPETE_E_PARSE)
        return 1;
    /* [errors] */

    /* [play] */
    tally t = { 0, 0, 0 };
    stpete_state_set_event_callback(st, on_event, &t);
    stpete_state *scratch = NULL;
    if (stpete_state_clone(&scratch, st) != STPETE_OK) /* allocated once, reused by every look-ahead */
        return 1;
    unsigned long long rng = 1;
    int moves = 0;
    while (!stpete_state_is_terminal(st)) {
        int choice = choose(st, scratch, &rng);
        char text[STPETE_ACTION_STRING_MAX];
        stpete_action_to_string(choice, text, sizeof text);
        if (moves < 3)
            printf("seat %d: %s\n", stpete_state_current_player(st), text);
        if (stpete_state_apply(st, choice) != STPETE_OK) {
            fprintf(stderr, "%s\n", stpete_state_last_error(st));
            return 1;
        }
        moves++;
    }
    printf("%d moves, %d events, %d buys\n", moves, t.events, t.buys);
    /* [play] */

    /* [end] */
    unsigned winners = 0;
    stpete_state_winners(st, &winners);
    for (int seat = 0; seat < opts.players; seat++) {
        stpete_score s;
        stpete_state_score(st, seat, &s);
        printf("seat %d: %d VP + %d (aristocrats) + %d (rubles) %+d (hand) = %d VP%s\n", seat, s.vp_before,
               s.aristocrat_bonus, s.rubles_bonus, s.hand_penalty, s.total,
               (winners >> seat) & 1u ? ", wins" : "");
        if (s.total != s.vp_before + s.aristocrat_bonus + s.rubles_bonus + s.hand_penalty)
            return 1;
    }
    stpete_state_free(scratch);
    stpete_state_free(st);
    stpete_game_free(game);                /* after every state of the game */
    /* [end] */
    return winners != 0 && t.buys > 0 && t.scorings > 0 ? 0 : 1;
}
