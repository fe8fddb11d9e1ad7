/* Writes the seed corpus of the fuzz harnesses (tests/fuzz/corpus/). Not a test; rerun by hand:
 *   build/tests/fuzz/make-corpus tests/fuzz/corpus
 * json/: full states at varied positions (every player count; an ordinary turn, an Observatory draw, a Pub
 * decision, the end), a seat and a public view, short replay records, a few malformed documents.
 * v2-*: format version 2 documents of explicit-chance games of both editions (chance nodes of every kind,
 * hand_known false, public_hash); the others were written by format version 1 and are kept for its reader (to add
 * only the v2 seeds, write into a scratch directory and copy those).
 * v3-*: format version 3, which 1.0 writes (issue 31): for both editions, both chance modes and 2-4 players, a
 * played state (at the start, early, mid-game, late, at the end, in an Observatory or a Pub decision, at a chance
 * node), a seat view and a replay record; public views; the §9 options public_rubles and public_hands on in some.
 * v4-*: format version 4, the New Society's (§12): 2-5 players, both chance modes, the rulings, a played state at
 * a point and at a Debtor's Prison, Guild Hall or Trading House decision, views, replay records.
 * actions/: input bytes for fuzz_actions (options byte, 8 seed bytes, then 2 bytes per step); actions-ns-*: New
 * Society games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "../include/test_values.h"

static char buf[1 << 16];

static void save(const char *dir, const char *name, const void *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len) {
        fprintf(stderr, "make-corpus: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

static void corpus_save_state(const char *dir, const char *name, const stpete_state *st)
{
    size_t len;
    if (stpete_state_to_json(st, buf, sizeof buf, &len) == STPETE_OK)
        save(dir, name, buf, len);
}

/* Play never hides a hand card from the other seats (every card is taken in view of all, §7.1, §9), so a document
 * with "hand_known" false is made by editing one: the first hand card known to all becomes unknown. Saved only if
 * the library loads the result. 1 if saved. */
static int save_hand_unknown(const char *dir, const char *name, const stpete_game *g, const char *text, size_t len)
{
    static char edited[sizeof buf + 8];
    const char *k = strstr(text, "\"hand_known\":[true");
    if (!k)
        return 0;
    size_t at = (size_t)(k - text) + strlen("\"hand_known\":[");
    memcpy(edited, text, at);
    memcpy(edited + at, "false", 5);
    memcpy(edited + at + 5, text + at + 4, len - at - 4);
    stpete_state *st = NULL;
    if (stpete_state_from_json(g, edited, len + 1, &st, NULL) != STPETE_OK)
        return 0;
    stpete_state_free(st);
    save(dir, name, edited, len + 1);
    return 1;
}

static uint64_t mix(uint64_t *x)
{
    return stpete_splitmix64(x);
}

/* A new game of these options (explicit chance if asked; public rubles and hands as the bits of `public`) and a
 * state of it; exits on failure. */
static void new_game_public(int players, int edition, int explicit_chance, int public, uint64_t seed, stpete_game **g,
                            stpete_state **st)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    o.edition = edition;
    o.seed = seed;
    o.public_rubles = public & 1;
    o.public_hands = public >> 1 & 1;
    if (explicit_chance)
        o.chance_mode = STPETE_CHANCE_EXPLICIT;
    if (stpete_game_new(&o, g, NULL) != STPETE_OK || stpete_state_new(*g, st, NULL) != STPETE_OK) {
        fprintf(stderr, "make-corpus: cannot create a game\n");
        exit(1);
    }
}

static void new_game(int players, int edition, int explicit_chance, uint64_t seed, stpete_game **g, stpete_state **st)
{
    new_game_public(players, edition, explicit_chance, 0, seed, g, st);
}

/* Apply one random legal action (or chance outcome); its id is appended to played while *n < cap. */
static void corpus_random_step(stpete_state *st, uint64_t *rng, int *played, size_t *n, size_t cap)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t count = 0;
    stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &count);
    int id = ids[mix(rng) % count];
    if (*n < cap)
        played[(*n)++] = id;
    stpete_state_apply(st, id);
}

/* Format version 1: one sampled first-edition game per player count, saved at its start, its first Observatory
 * and Pub decisions and its end, with a replay record of its first 64 actions and two views. */
static void write_v1_corpus(const char *json)
{
    char name[64];
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = NULL;
        stpete_state *st = NULL;
        new_game(players, 1, 0, (uint64_t)players, &g, &st);
        int saved_obs = 0, saved_pub = 0, played[64];
        size_t n_played = 0;
        uint64_t rng = (uint64_t)players;
        snprintf(name, sizeof name, "state-%dp-start.json", players);
        corpus_save_state(json, name, st);
        for (int game = 0; game < 200 && !(saved_obs && saved_pub); game++) {
            stpete_state_reset(st, (uint64_t)game);
            while (!tg_is_terminal(st)) {
                corpus_random_step(st, &rng, played, &n_played, game == 0 ? 64 : 0);
                int d = stpete_state_decision(st);
                if (d == STPETE_DECISION_OBSERVATORY && !saved_obs) {
                    snprintf(name, sizeof name, "state-%dp-observatory.json", players);
                    corpus_save_state(json, name, st);
                    saved_obs = 1;
                } else if (d == STPETE_DECISION_PUB && !saved_pub) {
                    snprintf(name, sizeof name, "state-%dp-pub.json", players);
                    corpus_save_state(json, name, st);
                    saved_pub = 1;
                }
            }
            if (game == 0) {
                snprintf(name, sizeof name, "state-%dp-end.json", players);
                corpus_save_state(json, name, st);
                size_t len;
                if (stpete_replay_to_json(g, 0, played, n_played, buf, sizeof buf, &len) == STPETE_OK) {
                    snprintf(name, sizeof name, "replay-%dp-64.json", players);
                    save(json, name, buf, len);
                }
            }
        }
        stpete_state_reset(st, 5);
        for (int i = 0; i < 30; i++)
            corpus_random_step(st, &rng, played, &n_played, 0);
        size_t len;
        snprintf(name, sizeof name, "view-%dp-seat0.json", players);
        if (stpete_state_view_to_json(st, 0, buf, sizeof buf, &len) == STPETE_OK)
            save(json, name, buf, len);
        snprintf(name, sizeof name, "view-%dp-public.json", players);
        if (stpete_state_view_to_json(st, STPETE_VIEW_PUBLIC, buf, sizeof buf, &len) == STPETE_OK)
            save(json, name, buf, len);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

static int write_v2_corpus(const char *json)
{
    char name[64];
    /* Format version 2 (issue 22): explicit-chance games of both editions, 2-4 players, saved at the first chance
     * node of each kind (the marker deal, a deal at setup, before the next phase and for a new round, an
     * Observatory draw), a position where a hand holds a card the others do not know (hand_known false), the
     * end, a seat view, and a replay record with chance outcomes. Every such document carries public_hash. */
    static const char *const kinds[] = { "\"event\":\"markers\"", "\"then\":\"setup\"",
                                         "\"then\":\"next-phase\"", "\"then\":\"round\"",
                                         "\"event\":\"draw\"" };
    static const char *const kind_names[] = { "markers", "deal-setup", "deal-next-phase", "deal-round", "draw" };
    for (int edition = 1; edition <= 2; edition++)
        for (int players = 2; players <= 4; players++) {
            stpete_game *g = NULL;
            stpete_state *st = NULL;
            new_game(players, edition, 1, 0, &g, &st);
            int saved[5] = { 0 }, saved_unknown = 0, played[96];
            size_t n_played = 0, len;
            uint64_t rng = (uint64_t)(10 * edition + players);
            for (int game = 0; game < 100; game++) {
                stpete_state_reset(st, (uint64_t)game);
                while (!tg_is_terminal(st)) {
                    if (stpete_state_to_json(st, buf, sizeof buf, &len) != STPETE_OK)
                        return 1;
                    buf[len] = '\0';
                    for (int k = 0; k < 5; k++)
                        if (!saved[k] && stpete_state_decision(st) == STPETE_DECISION_CHANCE && strstr(buf, kinds[k])) {
                            snprintf(name, sizeof name, "v2-e%d-%dp-chance-%s.json", edition, players, kind_names[k]);
                            save(json, name, buf, len);
                            saved[k] = 1;
                        }
                    snprintf(name, sizeof name, "v2-e%d-%dp-hand-unknown.json", edition, players);
                    if (!saved_unknown && game == 1 && stpete_state_round(st) >= 2 &&
                        save_hand_unknown(json, name, g, buf, len)) {
                        saved_unknown = 1;
                        if (stpete_state_view_to_json(st, 0, buf, sizeof buf, &len) == STPETE_OK) {
                            snprintf(name, sizeof name, "v2-e%d-%dp-view-seat0.json", edition, players);
                            save(json, name, buf, len);
                        }
                    }
                    corpus_random_step(st, &rng, played, &n_played, game == 0 ? 96 : 0);
                }
                if (game == 0) {
                    snprintf(name, sizeof name, "v2-e%d-%dp-end.json", edition, players);
                    corpus_save_state(json, name, st);
                    if (stpete_replay_to_json(g, 0, played, n_played, buf, sizeof buf, &len) == STPETE_OK) {
                        snprintf(name, sizeof name, "v2-e%d-%dp-replay-chance.json", edition, players);
                        save(json, name, buf, len);
                    }
                }
            }
            for (int k = 0; k < 5; k++)
                if (!saved[k])
                    fprintf(stderr, "make-corpus: no %s chance node in edition %d, %d players\n", kind_names[k],
                            edition, players);
            stpete_state_free(st);
            stpete_game_free(g);
        }
    return 0;
}

/* A seat's view (the seat rotates with k) and, for a third of the games, the public view. Returns 1. */
static int corpus_save_views(const char *json, const char *tag, const stpete_state *st, int k, int players)
{
    char name[80];
    size_t len;
    snprintf(name, sizeof name, "%s-view-seat%d.json", tag, k % players);
    if (stpete_state_view_to_json(st, k % players, buf, sizeof buf, &len) == STPETE_OK)
        save(json, name, buf, len);
    if (k % 3 == 0) {
        snprintf(name, sizeof name, "%s-view-public.json", tag);
        if (stpete_state_view_to_json(st, STPETE_VIEW_PUBLIC, buf, sizeof buf, &len) == STPETE_OK)
            save(json, name, buf, len);
    }
    return 1;
}

/* How one game of the v3 and v4 corpora is saved while it is played at random (corpus_play()). */
typedef struct corpus_plan {
    const char *json, *tag, *point; /* where, the files' prefix, the point of the game to save a state at */
    int k, players;
    int round1_step;                /* the step that is the point "round1" */
    unsigned decisions;             /* the decisions (bits 1 << STPETE_DECISION_...) to save a state at, once */
} corpus_plan;

/* Play st to its end at random (rng), keeping the first `cap` ids in played: a state at the plan's point (and at
 * the end for the point "end"), at its first decision of the plan's kinds, views (corpus_save_views()). Returns
 * a mask: 1 point saved, 2 views saved, 4 decision saved. */
static int corpus_play(const corpus_plan *c, stpete_state *st, uint64_t rng, int *played, size_t cap, size_t *n)
{
    char name[96];
    int saved_point = 0, saved_view = 0, saved_decision = 0;
    for (size_t step = 0; !tg_is_terminal(st); step++) {
        int round = stpete_state_round(st), d = stpete_state_decision(st);
        const char *p = c->point;
        int here = strcmp(p, "start") == 0 ? step == 0
                 : strcmp(p, "round1") == 0 ? step == (size_t)c->round1_step
                 : strcmp(p, "mid") == 0 ? round == 3 && d == STPETE_DECISION_TURN
                 : strcmp(p, "late") == 0 ? tg_is_final_round(st) && d == STPETE_DECISION_TURN
                 : strcmp(p, "chance") == 0 ? round == 2 && d == STPETE_DECISION_CHANCE : 0;
        if (here && !saved_point) {
            snprintf(name, sizeof name, "%s-state-%s.json", c->tag, p);
            corpus_save_state(c->json, name, st);
            saved_point = 1;
        }
        if (!saved_decision && (c->decisions >> d & 1)) {
            snprintf(name, sizeof name, "%s-state-%s.json", c->tag, stpete_decision_name(d));
            corpus_save_state(c->json, name, st);
            saved_decision = 1;
        }
        if (!saved_view && round == 2 + c->k % 3 && d != STPETE_DECISION_CHANCE)
            saved_view = corpus_save_views(c->json, c->tag, st, c->k, c->players);
        corpus_random_step(st, &rng, played, n, cap);
    }
    if (strcmp(c->point, "end") == 0) {
        snprintf(name, sizeof name, "%s-state-end.json", c->tag);
        corpus_save_state(c->json, name, st);
        saved_point = 1;
    }
    return saved_point | saved_view << 1 | saved_decision << 2;
}

/* Save the replay record of a game's played ids as TAG-replay.json. */
static void corpus_save_replay(const char *json, const char *tag, const stpete_game *g, uint64_t seed,
                               const int *played, size_t n)
{
    char name[96];
    size_t len;
    if (stpete_replay_to_json(g, seed, played, n, buf, sizeof buf, &len) == STPETE_OK) {
        snprintf(name, sizeof name, "%s-replay.json", tag);
        save(json, name, buf, len);
    }
}

/* Game k of the format-version-3 corpus (write_v3_corpus()). */
static void write_v3_game(const char *json, int k)
{
    static const char *const points[] = { "start", "round1", "mid", "late", "end", "chance" };
    int edition = 1 + k % 2, explicit_chance = k / 2 % 2, players = 2 + k / 4, public = k % 4;
    char tag[32];
    snprintf(tag, sizeof tag, "v3-e%d-%s-%dp", edition, explicit_chance ? "explicit" : "sampled", players);
    corpus_plan plan = { json, tag, points[explicit_chance ? (k % 3 == 2 ? 5 : k % 5) : k % 5], k, players, 12,
                         k % 3 == 1 ? 0u : 1u << STPETE_DECISION_OBSERVATORY | 1u << STPETE_DECISION_PUB };
    stpete_game *g = NULL;
    stpete_state *st = NULL;
    new_game_public(players, edition, explicit_chance, public, (uint64_t)(300 + k), &g, &st);
    int played[80];
    size_t n_played = 0;
    int saved = corpus_play(&plan, st, (uint64_t)(700 + k), played, 80, &n_played);
    corpus_save_replay(json, tag, g, (uint64_t)(300 + k), played, n_played);
    if ((saved & 3) != 3) /* a game without an Observatory or Pub decision is fine: the others have */
        fprintf(stderr, "make-corpus: %s: no %s%s\n", tag, saved & 1 ? "" : plan.point, saved & 2 ? "" : " view");
    stpete_state_free(st);
    stpete_game_free(g);
}

static void write_v3_corpus(const char *json)
{
    /* Format version 3 (issue 31: 1.0 writes only it, and the corpus had none). Twelve games: both editions, both
     * chance modes, 2-4 players, the §9 options in turn (none, public rubles, public hands, both). Each gives a
     * full state at one of its points (the points rotate over the games, so every one is covered), a seat view
     * (of a seat that rotates too) and a replay record of the game's first 80 actions; four give a public view, and
     * eight a state in their first Observatory or Pub decision. Few seeds: the corpus runs under valgrind in CI. */
    for (int k = 0; k < 12; k++)
        write_v3_game(json, k);
}

/* The options of game k of the format-version-4 corpus: the New Society, 2-5 players, both chance modes, the
 * rulings and the §9 options in turn. */
static void v4_options(int k, stpete_options *o)
{
    stpete_options_init(o);
    o->players = 2 + k % 4;
    o->new_society = 1;
    o->chance_mode = k / 4 % 2 ? STPETE_CHANCE_EXPLICIT : STPETE_CHANCE_SAMPLED;
    o->markers_one_seat = o->players == 5 && k / 8 % 2 == 0;
    o->used_prison_scores = k % 3 == 1;
    o->textile_without_new_society = k % 5 == 2;
    o->public_rubles = k / 2 % 2;
    o->public_hands = k / 3 % 2;
}

/* Sets o->seed to the first of 200 seeds whose random game (the random choices seeded by the returned value)
 * reaches decision `want`: random play seldom buys the Debtor's Prison, the Guild Hall or the Trading House and then
 * uses it. With the explicit-chance mode the outcomes are those choices too, so both seeds change together. */
static uint64_t v4_seed_reaching(stpete_options *o, int want, int k)
{
    static int played[600];
    uint64_t play_seed = 0;
    for (int attempt = 0; attempt < 200; attempt++) {
        stpete_game *g = NULL;
        stpete_state *st = NULL;
        o->seed = (uint64_t)(500 + k + 1000 * attempt);
        play_seed = (uint64_t)(900 + k + 7919 * attempt);
        if (stpete_game_new(o, &g, NULL) != STPETE_OK || stpete_state_new(g, &st, NULL) != STPETE_OK) {
            fprintf(stderr, "make-corpus: cannot create a New Society game\n");
            exit(1);
        }
        size_t n = 0;
        uint64_t rng = play_seed;
        int found = 0;
        while (!tg_is_terminal(st) && !(found = stpete_state_decision(st) == want))
            corpus_random_step(st, &rng, played, &n, 600);
        stpete_state_free(st);
        stpete_game_free(g);
        if (found)
            break;
    }
    return play_seed;
}

/* Game k of the format-version-4 corpus (write_v4_corpus()): a New Society game (§12). */
static void write_v4_game(const char *json, int k)
{
    static const char *const points[] = { "start", "round1", "mid", "late", "end", "chance" };
    static const int decisions[] = { STPETE_DECISION_PRISON, STPETE_DECISION_GUILD_HALL,
                                     STPETE_DECISION_TRADING_HOUSE };
    stpete_options o;
    v4_options(k, &o);
    int explicit_chance = o.chance_mode == STPETE_CHANCE_EXPLICIT, want = decisions[k % 3];
    char tag[48];
    snprintf(tag, sizeof tag, "v4-%s-%dp-%02d", explicit_chance ? "explicit" : "sampled", o.players, k);
    corpus_plan plan = { json, tag, points[explicit_chance && k % 3 == 2 ? 5 : k % 5], k, o.players, 15,
                         1u << want };
    uint64_t play_seed = v4_seed_reaching(&o, want, k);
    stpete_game *g = NULL;
    stpete_state *st = NULL;
    if (stpete_game_new(&o, &g, NULL) != STPETE_OK || stpete_state_new(g, &st, NULL) != STPETE_OK)
        exit(1);
    static int played[600];
    size_t n_played = 0;
    int saved = corpus_play(&plan, st, play_seed, played, 600, &n_played);
    if ((k + k / 4) % 2 == 0)
        corpus_save_replay(json, tag, g, o.seed, played, n_played);
    if (saved != 7)
        fprintf(stderr, "make-corpus: %s: no %s%s%s\n", tag, saved & 1 ? "" : plan.point, saved & 2 ? "" : " view",
                saved & 4 ? "" : " expansion decision");
    stpete_state_free(st);
    stpete_game_free(g);
}

static void write_v4_corpus(const char *json)
{
    /* Format version 4, the New Society's (issue 46 item 15: the corpus had none, and neither harness built such a
     * game). Twelve games of 2-5 players, both chance modes, the three rulings and the §9 options in turn. Each
     * gives a full state at one of its points (rotating), a full state at its first Debtor's Prison, Guild Hall or
     * Trading House decision (rotating, §12.7.5-§12.7.7), a seat view; four a public view, six a whole replay
     * record. Few seeds: the corpus runs under valgrind in CI. */
    for (int k = 0; k < 12; k++)
        write_v4_game(json, k);
}

/* Documents no reader accepts. */
static void write_malformed(const char *json)
{
    char name[64];
    static const char *const malformed[] = { "", "{", "[]", "null", "{\"format\":\"stpete-state\"}",
                                             "{\"format\":\"stpete-state\",\"format_version\":99}",
                                             "{\"format\":\"stpete-replay\",\"format_version\":1,\"actions\":[]}" };
    for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
        snprintf(name, sizeof name, "malformed-%zu.json", i);
        save(json, name, malformed[i], strlen(malformed[i]));
    }
}

/* The action corpus (fuzz_actions.c's input): 24 byte strings, a third of them mostly legal choices; and 12 New
 * Society ones (byte 0 from 128: 2-5 players, the rulings, both chance modes), half of them legal choices only
 * (whole games: the expansion's decisions come up). */
static void write_action_corpus(const char *actions)
{
    char name[64];
    uint64_t rng = 42;
    for (int k = 0; k < 24; k++) {
        uint8_t bytes[9 + 2 * 400];
        size_t len = 9 + 2 * (size_t)(k < 12 ? (uint64_t)(40 + 30 * k) : mix(&rng) % 400);
        for (size_t i = 0; i < len; i++)
            bytes[i] = (uint8_t)mix(&rng);
        if (k % 3 == 0) /* mostly legal choices: long games */
            for (size_t i = 9; i < len; i += 2)
                bytes[i] &= 0x7F;
        snprintf(name, sizeof name, "actions-%02d.bin", k);
        save(actions, name, bytes, len);
    }
    rng = 4646;
    for (int k = 0; k < 12; k++) {
        uint8_t bytes[9 + 2 * 700];
        size_t len = 9 + 2 * (size_t)(k % 2 == 0 ? 700 : 100 + mix(&rng) % 500);
        for (size_t i = 0; i < len; i++)
            bytes[i] = (uint8_t)mix(&rng);
        bytes[0] = (uint8_t)(128 + k % 4 + 4 * (k / 4 % 2) + 8 * (k % 3 == 1) + 16 * (k % 5 == 2) + 32 * (k / 6));
        if (k % 2 == 0 || k % 3 == 0)
            for (size_t i = 9; i < len; i += 2)
                bytes[i] &= 0x7F;
        snprintf(name, sizeof name, "actions-ns-%02d.bin", k);
        save(actions, name, bytes, len);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make-corpus DIR  (writes DIR/json and DIR/actions, which must exist)\n");
        return 2;
    }
    char json[400], actions[400];
    snprintf(json, sizeof json, "%s/json", argv[1]);
    snprintf(actions, sizeof actions, "%s/actions", argv[1]);
    write_v1_corpus(json);
    if (write_v2_corpus(json))
        return 1;
    write_v3_corpus(json);
    write_v4_corpus(json);
    write_malformed(json);
    write_action_corpus(actions);
    return 0;
}
