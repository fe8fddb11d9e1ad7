/* stpete-selfplay: built-in bots play complete games of Saint Petersburg.
 *
 *   stpete-selfplay [--players N] [--seed S] [--games G] [--bots LIST] [--quiet]
 *
 * One game: a readable log, phase by phase (deals, every action with its price, each scoring, Pub and Observatory
 * choices, final scoring breakdown, winner). Several games: a summary (games, mean moves per game, mean winning
 * score, wins per seat). Bots: "random" (uniform among the legal actions) and "greedy" (one-step lookahead with a
 * projected-score heuristic). LIST is comma separated and repeats over the seats, e.g. "greedy,random".
 * Game g of a run uses seed S + g; the bots' own randomness is seeded from it too, so a run is reproducible. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stpete/stpete.h>

enum bot_kind { BOT_RANDOM, BOT_GREEDY };

typedef struct run_config {
    int players;
    uint64_t seed;
    long games;
    int bots[STPETE_MAX_PLAYERS];
    int quiet;
} run_config;

static const char *const phase_names[4] = { "worker", "building", "aristocrat", "trading" };
static const char *const stack_names[4] = { "worker", "building", "aristocrat", "trading" };
static const char *const source_names[4] = { "upper row", "lower row", "hand", "Observatory draw" };

/* ---- bots --------------------------------------------------------------------------------------- */

/* splitmix64: the bots' own PRNG (the game's PRNG lives inside the state). */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Projected final score of a seat: final scoring as if the game ended now, plus the display's income for the
 * rounds that probably remain (estimated from the smallest stack), with rubles valued at a quarter VP. */
static double evaluate(const stpete_state *st, int seat)
{
    stpete_score score;
    stpete_state_score(st, seat, &score);
    if (stpete_state_is_terminal(st))
        return score.total;
    int smallest = 99;
    for (int s = 0; s < 4; s++) {
        int n = stpete_state_stack_size(st, s);
        if (n < smallest)
            smallest = n;
    }
    double rounds_left = 1.0 + smallest / 6.0;
    double income_vp = 0, income_r = 0;
    for (int card = 0; card < STPETE_NUM_CARD_TYPES; card++) {
        int copies = stpete_state_display_count(st, seat, card);
        if (copies > 0) {
            stpete_card_info info;
            stpete_card_get_info(card, &info);
            income_vp += copies * info.vp;
            income_r += copies * info.rubles;
        }
    }
    return score.total + rounds_left * (income_vp + income_r / 4.0) + score.rubles / 4.0;
}

static int greedy_choice(const stpete_state *st, stpete_state *scratch, const int *ids, size_t n)
{
    int seat = stpete_state_current_player(st);
    int best = ids[0];
    double best_value = -1e300;
    for (size_t i = 0; i < n; i++) {
        stpete_state_copy(scratch, st);
        stpete_state_apply(scratch, ids[i]);
        double v = evaluate(scratch, seat);
        if (v > best_value + 1e-9) {
            best_value = v;
            best = ids[i];
        }
    }
    return best;
}

static int choose(const run_config *cfg, const stpete_state *st, stpete_state *scratch, uint64_t *rng)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
    if (cfg->bots[stpete_state_current_player(st)] == BOT_GREEDY)
        return greedy_choice(st, scratch, ids, n);
    return ids[next_random(rng) % n];
}

/* ---- the readable log, driven by events --------------------------------------------------------- */

typedef struct logger {
    FILE *out;
    int dealing;   /* a "dealt:" line is open */
} logger;

static void end_deal_line(logger *lg)
{
    if (lg->dealing) {
        fputc('\n', lg->out);
        lg->dealing = 0;
    }
}

static void print_row(FILE *out, const stpete_state *st, int row)
{
    int cards[STPETE_BOARD_SIZE];
    size_t n = 0;
    stpete_state_row(st, row, cards, STPETE_BOARD_SIZE, &n);
    fprintf(out, "  %s:", source_names[row]);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s %s", i ? "," : "", stpete_card_name(cards[i]));
    fprintf(out, n ? "\n" : " (empty)\n");
}

static void print_player(FILE *out, const stpete_state *st, int seat)
{
    int vp = 0, cards[STPETE_NUM_CARDS];
    size_t n = 0;
    stpete_state_vp(st, seat, &vp);
    stpete_state_hand(st, seat, cards, STPETE_MAX_HAND, &n);
    fprintf(out, "  seat %d: %d R, %d VP, %zu hand card%s |", seat, stpete_state_rubles(st, seat), vp, n,
            n == 1 ? "" : "s");
    stpete_state_display(st, seat, cards, STPETE_NUM_CARDS, &n);
    for (size_t i = 0; i < n;) { /* the display is sorted by card type: group the copies */
        size_t j = i;
        while (j < n && cards[j] == cards[i])
            j++;
        fprintf(out, "%s ", i ? "," : "");
        if (j - i > 1)
            fprintf(out, "%zux ", j - i);
        fputs(stpete_card_name(cards[i]), out);
        i = j;
    }
    fputs(n ? "\n" : " (empty display)\n", out);
}

static void on_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    logger *lg = user;
    FILE *out = lg->out;
    if (ev->kind != STPETE_EVENT_DEAL)
        end_deal_line(lg);
    switch (ev->kind) {
    case STPETE_EVENT_PHASE_START:
        fprintf(out, "\n== Round %d, %s phase: seat %d starts ==\n", ev->round, phase_names[ev->phase], ev->seat);
        print_row(out, st, STPETE_SOURCE_UPPER);
        print_row(out, st, STPETE_SOURCE_LOWER);
        fprintf(out, "  stacks: %d workers, %d buildings, %d aristocrats, %d trading cards\n",
                stpete_state_stack_size(st, 0), stpete_state_stack_size(st, 1), stpete_state_stack_size(st, 2),
                stpete_state_stack_size(st, 3));
        break;
    case STPETE_EVENT_DEAL:
        if (!lg->dealing)
            fprintf(out, "dealt from the %s stack to the upper row:", stack_names[ev->stack]);
        fprintf(out, "%s %s", lg->dealing ? "," : "", stpete_card_name(ev->card));
        lg->dealing = 1;
        break;
    case STPETE_EVENT_BUY:
    case STPETE_EVENT_PLAY:
        fprintf(out, "seat %d %s %s from the %s", ev->seat, ev->kind == STPETE_EVENT_BUY ? "buys" : "plays",
                stpete_card_name(ev->card), source_names[ev->source]);
        if (ev->displaced >= 0)
            fprintf(out, ", displacing %s", stpete_card_name(ev->displaced));
        fprintf(out, ", for %d R (%d R left)\n", ev->price, stpete_state_rubles(st, ev->seat));
        break;
    case STPETE_EVENT_TAKE:
        fprintf(out, "seat %d takes %s from the %s into hand\n", ev->seat, stpete_card_name(ev->card),
                source_names[ev->source]);
        break;
    case STPETE_EVENT_PASS:
        fprintf(out, "seat %d passes (%d in a row)\n", ev->seat, ev->amount);
        break;
    case STPETE_EVENT_OBSERVATORY_DRAW:
        fprintf(out, "seat %d uses an Observatory on the %s stack and draws %s\n", ev->seat, stack_names[ev->stack],
                stpete_card_name(ev->card));
        break;
    case STPETE_EVENT_OBSERVATORY_DISCARD:
        fprintf(out, "seat %d discards the drawn %s\n", ev->seat, stpete_card_name(ev->card));
        break;
    case STPETE_EVENT_SCORING: {
        int vp = 0;
        stpete_state_vp(st, ev->seat, &vp);
        fprintf(out, "%s scoring: seat %d gets %+d R and %+d VP (now %d R, %d VP)\n", phase_names[ev->phase],
                ev->seat, ev->rubles, ev->vp, stpete_state_rubles(st, ev->seat), vp);
        break;
    }
    case STPETE_EVENT_PUB:
        fprintf(out, "Pub: seat %d buys %d VP for %d R\n", ev->seat, ev->amount, ev->rubles);
        break;
    case STPETE_EVENT_ROUND_END:
        fprintf(out, "\n-- End of round %d: %d card(s) of the lower row discarded, the upper row moves down --\n",
                ev->round, ev->amount);
        for (int s = 0; s < stpete_game_num_players(stpete_state_game(st)); s++)
            print_player(out, st, s);
        break;
    case STPETE_EVENT_MARKERS_MOVED:
        fprintf(out, "start-player markers move to the left neighbour\n");
        break;
    case STPETE_EVENT_LAST_ROUND:
        fprintf(out, "the last card of the %s stack is on the board: round %d is the final round\n",
                stack_names[ev->stack], ev->round);
        break;
    case STPETE_EVENT_FINAL_SCORING: {
        stpete_score s;
        stpete_state_score(st, ev->seat, &s);
        fprintf(out,
                "final scoring, seat %d: %d VP + %d (aristocrats: %d different) + %d (%d R) %+d (%d hand card%s)"
                " = %d VP, tie-break %d\n",
                ev->seat, s.vp_before, s.aristocrat_bonus, s.aristocrat_kinds, s.rubles_bonus, s.rubles,
                s.hand_penalty, s.hand_cards, s.hand_cards == 1 ? "" : "s", s.total, s.tie_break);
        break;
    }
    case STPETE_EVENT_GAME_OVER:
        fprintf(out, "\n== Game over after round %d ==\n", ev->round);
        for (int s = 0; s < stpete_game_num_players(stpete_state_game(st)); s++)
            print_player(out, st, s);
        fprintf(out, "winner%s:", __builtin_popcount((unsigned)ev->amount) > 1 ? "s (shared)" : "");
        for (int s = 0; s < STPETE_MAX_PLAYERS; s++)
            if (ev->amount & (1 << s))
                fprintf(out, " seat %d", s);
        fputc('\n', out);
        break;
    default:
        break;
    }
}

/* ---- running games ------------------------------------------------------------------------------- */

typedef struct totals {
    uint64_t digest; /* FNV-1a style over every applied action id and every final score: equal digests, same games */
    long moves;
    long winning_score_sum;
    long wins[STPETE_MAX_PLAYERS];
    long shared;
} totals;

static uint64_t digest_add(uint64_t h, uint64_t word)
{
    return (h ^ word) * UINT64_C(0x100000001B3); /* the same function as stpete-bench's */
}

static int play_game(const run_config *cfg, stpete_state *st, stpete_state *scratch, uint64_t seed, totals *t)
{
    int rc = stpete_state_reset(st, seed);
    uint64_t rng = seed ^ UINT64_C(0xB0751E5);
    while (rc == STPETE_OK && !stpete_state_is_terminal(st)) {
        int id = choose(cfg, st, scratch, &rng);
        rc = stpete_state_apply(st, id);
        t->digest = digest_add(t->digest, (uint64_t)id);
        t->moves++;
    }
    if (rc != STPETE_OK) {
        fprintf(stderr, "stpete-selfplay: %s: %s\n", stpete_strerror(rc), stpete_state_last_error(st));
        return rc;
    }
    for (int s = 0; s < cfg->players; s++) {
        stpete_score sc;
        stpete_state_score(st, s, &sc);
        t->digest = digest_add(t->digest, (uint64_t)(int64_t)sc.total);
    }
    unsigned winners = 0;
    stpete_state_winners(st, &winners);
    for (int s = 0; s < cfg->players; s++)
        if (winners & (1u << s)) {
            t->wins[s]++;
            stpete_score sc;
            stpete_state_score(st, s, &sc);
            t->winning_score_sum += sc.total;
        }
    if (__builtin_popcount(winners) > 1)
        t->shared++;
    return STPETE_OK;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: stpete-selfplay [--players 2|3|4] [--seed S] [--games G] [--bots random|greedy[,...]] "
                 "[--quiet]\n"
                 "  one game prints a readable log; several games print a summary\n");
}

static int parse_bots(const char *list, int players, int *bots)
{
    int kinds[STPETE_MAX_PLAYERS], n = 0;
    const char *p = list;
    while (*p && n < STPETE_MAX_PLAYERS) {
        size_t len = strcspn(p, ",");
        if (len == 6 && strncmp(p, "random", 6) == 0)
            kinds[n++] = BOT_RANDOM;
        else if (len == 6 && strncmp(p, "greedy", 6) == 0)
            kinds[n++] = BOT_GREEDY;
        else
            return -1;
        p += len;
        if (*p == ',')
            p++;
    }
    if (n == 0 || *p)
        return -1;
    for (int s = 0; s < players; s++)
        bots[s] = kinds[s % n];
    return 0;
}

int main(int argc, char **argv)
{
    run_config cfg = { 4, 1, 1, { BOT_GREEDY, BOT_RANDOM, BOT_GREEDY, BOT_RANDOM }, 0 };
    const char *bots = "greedy,random";
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(arg, "--quiet")) {
            cfg.quiet = 1;
            continue;
        } else if (!val) {
            usage(stderr);
            return 2;
        } else if (!strcmp(arg, "--players")) {
            cfg.players = (int)strtol(val, &end, 10);
        } else if (!strcmp(arg, "--seed")) {
            cfg.seed = strtoull(val, &end, 10);
        } else if (!strcmp(arg, "--games")) {
            cfg.games = strtol(val, &end, 10);
        } else if (!strcmp(arg, "--bots")) {
            bots = val;
            end = (char *)val + strlen(val);
        } else {
            usage(stderr);
            return 2;
        }
        if (!end || *end || cfg.games < 1) {
            fprintf(stderr, "stpete-selfplay: bad value for %s: %s\n", arg, val);
            return 2;
        }
        i++;
    }
    if (cfg.players < STPETE_MIN_PLAYERS || cfg.players > STPETE_MAX_PLAYERS) {
        fprintf(stderr, "stpete-selfplay: --players must be 2, 3 or 4\n");
        return 2;
    }
    if (parse_bots(bots, cfg.players, cfg.bots) != 0) {
        fprintf(stderr, "stpete-selfplay: --bots takes a comma-separated list of random and greedy\n");
        return 2;
    }

    stpete_options opts;
    stpete_options_init(&opts);
    opts.players = cfg.players;
    opts.seed = cfg.seed;
    stpete_game *game = NULL;
    stpete_state *st = NULL, *scratch = NULL;
    int rc = stpete_game_new(&game, &opts);
    if (rc == STPETE_OK)
        rc = stpete_state_new(&st, game);
    if (rc == STPETE_OK)
        rc = stpete_state_clone(&scratch, st);
    if (rc != STPETE_OK) {
        fprintf(stderr, "stpete-selfplay: %s\n", stpete_strerror(rc));
        return 1;
    }

    logger lg = { stdout, 0 };
    int single = cfg.games == 1 && !cfg.quiet;
    if (single) {
        printf("libstpete %s: Saint Petersburg (first edition), %d players, seed %" PRIu64 "\n", stpete_version(),
               cfg.players, cfg.seed);
        for (int s = 0; s < cfg.players; s++)
            printf("  seat %d: %s bot\n", s, cfg.bots[s] == BOT_GREEDY ? "greedy" : "random");
        stpete_state_set_event_callback(st, on_event, &lg);
    }
    totals t = { UINT64_C(0xCBF29CE484222325), 0, 0, { 0 }, 0 };
    for (long g = 0; g < cfg.games && rc == STPETE_OK; g++)
        rc = play_game(&cfg, st, scratch, cfg.seed + (uint64_t)g, &t);
    if (rc == STPETE_OK && !single) {
        long wins_total = 0;
        for (int s = 0; s < cfg.players; s++)
            wins_total += t.wins[s];
        printf("games: %ld (%d players, bots %s, seeds %" PRIu64 "..%" PRIu64 ")\n", cfg.games, cfg.players, bots,
               cfg.seed, cfg.seed + (uint64_t)cfg.games - 1);
        printf("mean moves per game: %.1f\n", (double)t.moves / (double)cfg.games);
        printf("mean winning score: %.2f VP\n", (double)t.winning_score_sum / (double)wins_total);
        printf("shared wins: %ld\n", t.shared);
        printf("digest: %016" PRIx64 "\n", t.digest);
        for (int s = 0; s < cfg.players; s++)
            printf("wins seat %d (%s): %ld (%.1f%%)\n", s, cfg.bots[s] == BOT_GREEDY ? "greedy" : "random",
                   t.wins[s], 100.0 * (double)t.wins[s] / (double)cfg.games);
    }
    stpete_state_free(scratch);
    stpete_state_free(st);
    stpete_game_free(game);
    return rc == STPETE_OK ? 0 : 1;
}
