/* The tutorial of the reference manual (doc/mainpage.md shows it in steps with \snippet): configure a game, create
 * a state, read what a front end draws, list and apply legal actions, handle errors, listen to events, read what
 * one seat may know (observation tensor, information-state key), look ahead on determinized allocation-free copies,
 * and read the final scoring. A test runs it; it exits non-zero if anything the tutorial states does not hold. */
#include <stdio.h>
#include <stdlib.h>
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
 * the game out at random a few times, and keep the action with the best final-score margin for the player. It
 * never peeks: before each playout the copy is determinized for the player (§9), so the order of the stacks, the
 * other players' unseen hand cards and their secret rubles it plays with are drawn, not the real ones. */
static unsigned next_random(unsigned long long *rng) /* the bot's own generator (the state's is for the deals) */
{
    *rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(*rng >> 33);
}

/* Predicates answer through a pointer and return a status (a status never reads as "yes"); inside an expression,
 * stpete.h's helpers say what an error reads as: here it ends the loops below as the end of the game would. */
static int game_over(const stpete_state *st)
{
    return stpete_state_is_terminal_or(st, 1);
}

static long playout_margin(stpete_state *scratch, int seat, unsigned long long *rng)
{
    while (!game_over(scratch)) {
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
    uint64_t worlds = next_random(rng);             /* the same 3 determinizations for every action */
    int best = ids[0];
    long best_value = 0;
    for (size_t i = 0; i < n; i++) {
        long value = 0;
        for (int k = 0; k < 3; k++) {
            stpete_state_copy(scratch, st);
            stpete_state_determinize(scratch, seat, worlds + (uint64_t)k, STPETE_DETERMINIZE_RUBLES);
            stpete_state_apply(scratch, ids[i]);    /* a listed id is always legal: the seat's view is unchanged */
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

/* [view] */
/* What one seat may know (§9) is all a bot should use: its observation, stpete_game_observation_tensor_size() floats in
 * the layout of doc/observation.md (from its point of view: relative seat 0 is itself), and the 64-bit key of its
 * information state (everything it has seen since the start). A determinization (stpete_state_determinize(0)) redraws
 * everything else; this checks that it changes neither. @p scratch receives the determinized copy; @p seen and @p seen_after hold
 * @p size floats each. */
static int view_survives_determinization(const stpete_state *st, stpete_state *scratch, int seat, uint64_t seed,
                                         float *seen, float *seen_after, size_t size)
{
    uint64_t key, key_after;
    stpete_state_copy(scratch, st);
    stpete_state_determinize(scratch, seat, seed, 0);
    if (stpete_state_observation_tensor(st, seat, seen, size) != STPETE_OK ||
        stpete_state_observation_tensor(scratch, seat, seen_after, size) != STPETE_OK ||
        stpete_state_information_state_key(st, seat, &key) != STPETE_OK ||
        stpete_state_information_state_key(scratch, seat, &key_after) != STPETE_OK)
        return 0;
    return memcmp(seen, seen_after, size * sizeof *seen) == 0 && key == key_after;
}
/* [view] */

/* [game] */
/* A 2-player game and its first state (§3); 0, or 1 after saying why on stderr. */
static int start(stpete_game **game, stpete_state **st)
{
    stpete_options opts;
    stpete_options_init(&opts);           /* the spec's defaults; always start here */
    opts.players = 2;
    opts.seed = 2026;                     /* same options and seed: same game, on every platform */
    opts.pub_cap = STPETE_PUB_CAP_PER_PLAYER; /* a rule option (§7.2, R10) */
    int rc = stpete_game_new(&opts, game, NULL);
    if (rc != STPETE_OK) {
        fprintf(stderr, "game: %s\n", stpete_strerror(rc));
        return 1;
    }
    rc = stpete_state_new(*game, st, NULL);     /* §3 setup: shuffled stacks, 8 workers dealt, markers */
    if (rc != STPETE_OK) {
        fprintf(stderr, "state: %s\n", stpete_strerror(rc));
        stpete_game_free(*game);
        return 1;
    }
    return 0;
}
/* [game] */

/* [draw] */
/* Print what a front end draws: who is to act, the upper row with its prices for that seat, every seat's rubles. */
static void draw(const stpete_state *st)
{
    const stpete_game *game = stpete_state_game(st);
    int upper[STPETE_BOARD_SIZE];
    size_t n_upper;
    stpete_state_row(st, STPETE_SOURCE_UPPER, upper, STPETE_BOARD_SIZE, &n_upper);
    printf("round %d, phase %d, seat %d to act\n", stpete_state_round(st), stpete_state_phase(st),
           stpete_state_current_player(st));
    for (size_t i = 0; i < n_upper; i++) {
        int price;
        stpete_state_price(st, stpete_state_current_player(st), upper[i], STPETE_SOURCE_UPPER, -1, &price);
        stpete_card_info card = STPETE_CARD_INFO_INIT; /* name, colour, cost, income... of the game's edition */
        stpete_card_get_info(stpete_game_edition(game), upper[i], &card);
        printf("  upper row: %s, %d R for seat %d\n", card.name, price,
               stpete_state_current_player(st));
    }
    for (int seat = 0; seat < stpete_game_num_players(game); seat++)
        printf("  seat %d: %d R\n", seat, stpete_state_rubles(st, seat));
}
/* [draw] */

/* [errors] */
/* A failing call returns a negative status, explains itself, and leaves the state unchanged; 0 if both calls below
 * fail as they should. */
static int show_errors(stpete_state *st)
{
    int id;
    if (stpete_action_from_string("buy Market from lower", &id) != STPETE_OK) /* a structured id... */
        return 1;
    int rc = stpete_state_apply(st, id);                                   /* ...that is not legal now */
    printf("apply \"buy Market from lower\": %s (%s)\n", stpete_strerror(rc), stpete_state_last_error(st));
    if (rc != STPETE_E_ILLEGAL_ACTION)
        return 1;
    rc = stpete_state_apply_string(st, "buy nonsense");
    printf("apply \"buy nonsense\": %s\n", stpete_strerror(rc));
    return rc == STPETE_E_PARSE ? 0 : 1;
}
/* [errors] */

/* [observe] */
/* What the seat to act observes, and that a determinization for it keeps its view but redraws the position; 1 if
 * it does. @p scratch receives the determinized copy; @p seen holds 2 * @p size floats. */
static int observe(const stpete_state *st, stpete_state *scratch, float *seen, size_t size)
{
    int observer = stpete_state_current_player(st);
    uint64_t key;
    if (stpete_state_observation_tensor(st, observer, seen, size) != STPETE_OK ||
        stpete_state_information_state_key(st, observer, &key) != STPETE_OK)
        return 0;
    /* doc/observation.md: element 0 is the round; relative seat k's block starts at 232 + 109k, with its rubles
     * at + 2 and whether the observer knows them at + 3 */
    printf("seat %d observes %zu numbers: round %.0f, own rubles %.0f, seat %d's rubles %s; key %016llx\n",
           observer, size, seen[0], seen[232 + 2], (observer + 1) % stpete_game_num_players(stpete_state_game(st)),
           seen[232 + 109 + 3] ? "known" : "secret", (unsigned long long)key);
    int same_view = view_survives_determinization(st, scratch, observer, 7, seen, seen + size, size);
    int redrawn = !stpete_state_equal_or(scratch, st, 1); /* the order of the stacks */
    printf("determinized for seat %d: its observation and key %s; the position %s\n", observer,
           same_view ? "unchanged" : "CHANGED", redrawn ? "redrawn" : "unchanged");
    return same_view && redrawn;
}
/* [observe] */

/* [play] */
/* Play the game to its end with choose(), checking at every move that the seat's view survives a determinization
 * (@p scratch and @p seen as for observe()); the number of moves, or -1 on a failure. */
static int play(stpete_state *st, stpete_state *scratch, float *seen, size_t size)
{
    unsigned long long rng = 1;
    int moves = 0;
    while (!game_over(st)) {
        if (!view_survives_determinization(st, scratch, stpete_state_current_player(st), (uint64_t)moves, seen,
                                           seen + size, size))
            return -1;                                 /* the tutorial's claim, checked at every move */
        int choice = choose(st, scratch, &rng);
        char text[STPETE_ACTION_STRING_MAX];
        stpete_action_to_string(STPETE_EDITION_FIRST, choice, text, sizeof text);
        if (moves < 3)
            printf("seat %d: %s\n", stpete_state_current_player(st), text);
        if (stpete_state_apply(st, choice) != STPETE_OK) {
            fprintf(stderr, "%s\n", stpete_state_last_error(st));
            return -1;
        }
        moves++;
    }
    return moves;
}
/* [play] */

/* [end] */
/* Print every seat's final scoring (§8, R13) and the winners (§8, R14); the winner mask, 0 if a breakdown does not
 * add up. */
static unsigned final_scoring(const stpete_state *st)
{
    unsigned winners = 0;
    stpete_state_winners(st, &winners);
    for (int seat = 0; seat < stpete_game_num_players(stpete_state_game(st)); seat++) {
        stpete_score s = STPETE_SCORE_INIT;
        stpete_state_get_score(st, seat, &s);
        printf("seat %d: %d VP + %d (aristocrats) + %d (rubles) %+d (hand) = %d VP%s\n", seat, s.vp_before,
               s.aristocrat_bonus, s.rubles_bonus, s.hand_penalty, s.total,
               (winners >> seat) & 1u ? ", wins" : "");
        if (s.total != s.vp_before + s.aristocrat_bonus + s.rubles_bonus + s.hand_penalty)
            return 0;
    }
    return winners;
}
/* [end] */

/* [main] */
int main(void)
{
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    if (start(&game, &st) != 0)
        return 1;
    draw(st);
    if (show_errors(st) != 0)
        return 1;
    stpete_state *scratch = NULL;
    if (stpete_state_clone(st, &scratch, NULL) != STPETE_OK) /* allocated once, reused by every look-ahead */
        return 1;
    size_t size = (size_t)stpete_game_observation_tensor_size(game);       /* 668 */
    float *seen = malloc(2 * size * sizeof *seen);
    if (!seen || !observe(st, scratch, seen, size))
        return 1;
    tally t = { 0, 0, 0 };
    stpete_state_set_event_callback(st, on_event, &t);
    int moves = play(st, scratch, seen, size);
    if (moves < 0)
        return 1;
    printf("%d moves, %d events, %d buys\n", moves, t.events, t.buys);
    unsigned winners = final_scoring(st);
    free(seen);
    stpete_state_free(scratch);
    stpete_state_free(st);
    stpete_game_free(game);                /* after every state of the game */
    return winners != 0 && t.buys > 0 && t.scorings > 0 ? 0 : 1;
}
/* [main] */
