/* What a seat knows (§9), one definition (issue 21): for pairs of LOADED positions that differ in one hidden or one
 * known item, every seat gets equal information-state keys exactly when it gets equal views, observation tensors,
 * observation strings and information-state strings, and then equal determinizations (stpete_state_determinize(0) and
 * stpete_state_determinize() with every flag, same seed). Also: the views of random games show every hand card seen
 * taken; an opponent's rubles cannot be found from a view by trying amounts, for documents of every format version
 * the library reads; stpete_state_rubles_visible() / stpete_state_visible_rubles() agree with the views; the
 * determinizations are those of 1.1.0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "stpete/stpete.h"
#include "test_game.h"
#include "test_json.h"

enum { TEXT_CAP = 1 << 16 };

static uint64_t lcg_next(uint64_t *x)
{
    *x = *x * 6364136223846793005u + 1442695040888963407u;
    return *x >> 33;
}

/* One step of a random game (a chance outcome at a chance node), preferring to take cards into hand so that hands
 * hold cards. */
static void knowledge_random_step(stpete_state *st, uint64_t *rng)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    if (stpete_state_decision(st) == STPETE_DECISION_CHANCE) {
        assert_int_equal(stpete_state_chance_outcomes(st, ids, NULL, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    } else {
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        for (size_t i = 0; i < n; i++) {
            stpete_action a;
            stpete_action_decode(ids[i], &a);
            if (a.kind == STPETE_ACTION_TAKE && lcg_next(rng) % 2 == 0) {
                assert_int_equal(stpete_state_apply(st, ids[i]), STPETE_OK);
                return;
            }
        }
    }
    assert_true(n > 0);
    assert_int_equal(stpete_state_apply(st, ids[lcg_next(rng) % n]), STPETE_OK);
}

/* A played position (3 players unless said) where every seat holds at least one hand card. */
static stpete_state *position_with_hands(stpete_game *g, uint64_t seed)
{
    stpete_state *st = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    uint64_t rng = seed;
    int players = stpete_game_num_players(g);
    for (int step = 0; step < 2000 && tg_is_terminal(st) == 0; step++) {
        knowledge_random_step(st, &rng);
        int all = stpete_state_decision(st) != STPETE_DECISION_CHANCE;
        for (int s = 0; s < players; s++) {
            size_t n = 0;
            stpete_state_hand(st, s, NULL, 0, &n);
            all &= n > 0;
        }
        if (all && step > 20)
            return st;
    }
    fail_msg("no position with a hand card for every seat");
    return NULL;
}

/* ---- what a seat gets, and the invariant -------------------------------------------------------------------- */

typedef struct seen {
    uint64_t key;
    char *view;      /* the view without its information_state_key: what the key is computed from must be here */
    char *obs_text, *info_text;
    float obs[1024];
} seen;

static char *text_of(int (*fn)(const stpete_state *, int, char *, size_t, size_t *), const stpete_state *st, int seat)
{
    size_t len = 0;
    fn(st, seat, NULL, 0, &len);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(fn(st, seat, buf, len + 1, &len), STPETE_OK);
    return buf;
}

static void see(const stpete_state *st, int seat, seen *out)
{
    memset(out->obs, 0, sizeof out->obs);
    assert_int_equal(stpete_state_information_state_key(st, seat, &out->key), STPETE_OK);
    char *view = text_of(stpete_state_view_to_json, st, seat);
    json_t *doc = json_loads(view, 0, NULL);
    assert_non_null(doc);
    free(view);
    assert_int_equal(json_object_del(doc, "information_state_key"), 0);
    out->view = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(doc);
    out->obs_text = text_of(stpete_state_observation_string, st, seat);
    out->info_text = text_of(stpete_state_information_state_string, st, seat);
    assert_int_equal(stpete_state_observation_tensor(st, seat, out->obs, 1024), STPETE_OK);
}

static void unsee(seen *s)
{
    free(s->view);
    free(s->obs_text);
    free(s->info_text);
}

/* The full JSON of a determinization of st for seat. */
static char *determinized(const stpete_state *st, int seat, uint64_t seed, int flags)
{
    stpete_state *d = NULL;
    assert_int_equal(stpete_state_clone(st, &d, NULL), STPETE_OK);
    if (flags < 0)
        assert_int_equal(stpete_state_determinize(d, seat, seed, 0), STPETE_OK);
    else
        assert_int_equal(stpete_state_determinize(d, seat, seed, (unsigned)flags), STPETE_OK);
    size_t len = 0;
    stpete_state_to_json(d, NULL, 0, &len);
    char *buf = malloc(len + 1);
    assert_int_equal(stpete_state_to_json(d, buf, len + 1, &len), STPETE_OK);
    stpete_state_free(d);
    return buf;
}

/* The invariant for one seat and two positions: equal keys exactly when equal views, and exactly when equal
 * information-state strings (the view carries everything the key hashes, doc/format.md "Views"; issue 31: 1.0's
 * views left out the recalled rubles the key hashed); equal keys give equal tensors and observation strings (which
 * show only what the seat sees now, not what it recalls); then equal determinizations, both ways. Returns whether
 * the keys are equal. */
static int check_pair(const stpete_state *a, const stpete_state *b, int seat, const char *what)
{
    seen x, y;
    see(a, seat, &x);
    see(b, seat, &y);
    int key_eq = x.key == y.key;
    int view_eq = strcmp(x.view, y.view) == 0, obs_eq = memcmp(x.obs, y.obs, sizeof x.obs) == 0;
    int text_eq = strcmp(x.obs_text, y.obs_text) == 0, info_eq = strcmp(x.info_text, y.info_text) == 0;
    if (key_eq != view_eq || key_eq != info_eq || (key_eq && !(obs_eq && text_eq)))
        fail_msg("%s, seat %d: key %s, view %d, tensor %d, observation string %d, information-state string %d", what,
                 seat, key_eq ? "equal" : "different", view_eq, obs_eq, text_eq, info_eq);
    if (key_eq) {
        for (int flags = -1; flags <= (int)STPETE_DETERMINIZE_RUBLES; flags++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                char *da = determinized(a, seat, seed, flags), *db = determinized(b, seat, seed, flags);
                if (strcmp(da, db) != 0)
                    fail_msg("%s, seat %d: equal keys, but %s (flags %d, seed %llu) differ", what, seat,
                             flags < 0 ? "resample" : "determinize", flags, (unsigned long long)seed);
                free(da);
                free(db);
            }
    }
    unsee(&x);
    unsee(&y);
    return key_eq;
}

/* Check every seat of the pair (a, b) and (b, a) and that the keys are equal exactly for the seats in
 * `same_for` (bit s). */
static void check_item(const stpete_game *g, const json_t *doc_a, const json_t *doc_b, unsigned same_for,
                       const char *what)
{
    stpete_state *a = load_doc(g, doc_a), *b = load_doc(g, doc_b);
    for (int seat = 0; seat < stpete_game_num_players(g); seat++) {
        int eq = check_pair(a, b, seat, what);
        assert_int_equal(check_pair(b, a, seat, what), eq);
        if (eq != (int)(same_for >> seat & 1u))
            fail_msg("%s: seat %d %s tell the positions apart", what, seat, eq ? "cannot" : "can");
    }
    stpete_state_free(a);
    stpete_state_free(b);
}

/* ---- editing documents ---------------------------------------------------------------------------------------- */

static json_t *player(json_t *doc, int seat)
{
    return json_array_get(json_object_get(doc, "players"), (size_t)seat);
}

static void set_hand_known(json_t *doc, int seat, int known)
{
    json_t *k = json_object_get(player(doc, seat), "hand_known");
    for (size_t h = 0; h < json_array_size(k); h++)
        json_array_set_new(k, h, json_boolean(known));
}

/* Exchange seat's hand card h with a card of another type from the stack of its back: a position that differs in
 * the identity of that hand card only (and in the stack, which nobody sees). 0 if no such card. */
static int swap_hand_card(json_t *doc, int seat, size_t h)
{
    json_t *p = player(doc, seat);
    const char *back = json_string_value(json_array_get(json_object_get(p, "hand_backs"), h));
    json_t *hand = json_object_get(p, "hand"), *stack = json_object_get(json_object_get(doc, "stacks"), back);
    const char *card = json_string_value(json_array_get(hand, h));
    for (size_t i = 0; i < json_array_size(stack); i++) {
        const char *other = json_string_value(json_array_get(stack, i));
        if (strcmp(other, card) != 0) {
            json_t *c = json_string(card);
            json_array_set_new(hand, h, json_string(other));
            json_array_set_new(stack, i, c);
            return 1;
        }
    }
    return 0;
}

static int card_type(const json_t *name)
{
    int t = -1;
    assert_int_equal(stpete_card_from_name(json_string_value(name), &t), STPETE_OK);
    return t;
}

static int by_type(const void *a, const void *b)
{
    return card_type(*(json_t *const *)a) - card_type(*(json_t *const *)b);
}

/* Put every stack back in card-type order: in explicit-chance mode a stack is a multiset written so. */
static void sort_stacks(json_t *doc)
{
    static const char *const names[4] = { "worker", "building", "aristocrat", "trading" };
    for (int s = 0; s < 4; s++) {
        json_t *stack = json_object_get(json_object_get(doc, "stacks"), names[s]);
        size_t n = json_array_size(stack);
        json_t **items = malloc(n * sizeof *items + 1);
        for (size_t i = 0; i < n; i++)
            items[i] = json_incref(json_array_get(stack, i));
        qsort(items, n, sizeof *items, by_type);
        json_array_clear(stack);
        for (size_t i = 0; i < n; i++)
            json_array_append_new(stack, items[i]);
        free(items);
    }
}

/* Exchange two cards of different types in a stack: the order changes, nothing else. 0 if all alike. */
static int swap_in_stack(json_t *doc, const char *stack_name)
{
    json_t *stack = json_object_get(json_object_get(doc, "stacks"), stack_name);
    size_t n = json_array_size(stack);
    for (size_t i = 1; i < n; i++)
        if (!json_equal(json_array_get(stack, 0), json_array_get(stack, i))) {
            json_t *first = json_incref(json_array_get(stack, 0));
            json_array_set(stack, 0, json_array_get(stack, i));
            json_array_set_new(stack, i, first);
            return 1;
        }
    return 0;
}

static void set_int(json_t *obj, const char *key, json_int_t v)
{
    json_object_set_new(obj, key, json_integer(v));
}

/* ---- tests ---------------------------------------------------------------------------------------------------- */

/* Each hidden and each known item of the issue, on loaded positions (3 players: seat 0 looks at seat 1, seat 2
 * stands by), with and without rubles_recalled and public_rubles, and in an explicit-chance game of the second
 * edition (stacks are multisets there: no order to change). */
static void test_invariant_on_loaded_pairs(void **unused)
{
    (void)unused;
    for (int variant = 0; variant < 4; variant++) {
        int public_rubles = variant == 2, recalled = variant == 1, explicit = variant == 3;
        stpete_game *g = make_game_with(.players = 3, .seed = 40 + (uint64_t)variant, .public_rubles = public_rubles,
                                        .chance_mode = explicit ? STPETE_CHANCE_EXPLICIT : STPETE_CHANCE_SAMPLED,
                                        .edition = explicit ? 2 : 1);
        stpete_state *st = position_with_hands(g, 7 + (uint64_t)variant);
        json_t *base = state_doc(st);
        stpete_state_free(st);
        json_object_set_new(base, "rubles_recalled", json_boolean(recalled));
        set_hand_known(base, 1, 0); /* seat 1's hand unseen by the others */
        set_int(player(base, 1), "rubles", 1);
        unsigned all = 7u, none = 0u;
        char what[96];

        json_t *d = json_deep_copy(base);
        assert_true(swap_hand_card(d, 1, 0));
        if (explicit)
            sort_stacks(d);
        snprintf(what, sizeof what, "variant %d: seat 1's unseen hand card", variant);
        check_item(g, base, d, all & ~2u, what); /* another seat's unseen card: equal; one's own: different */
        json_decref(d);

        static const char *const stacks[4] = { "worker", "building", "aristocrat", "trading" };
        for (int s = 0; s < 4; s++) {
            d = json_deep_copy(base);
            if (!explicit && swap_in_stack(d, stacks[s])) {
                snprintf(what, sizeof what, "variant %d: the order of the %s stack", variant, stacks[s]);
                check_item(g, base, d, all, what);
            }
            json_decref(d);
        }

        d = json_deep_copy(base);
        set_int(player(d, 1), "rubles", 60);
        snprintf(what, sizeof what, "variant %d: seat 1's rubles 1 vs 60", variant);
        check_item(g, base, d, public_rubles || recalled ? none : all & ~2u, what);
        json_decref(d);

        json_t *seen_base = json_deep_copy(base); /* seat 1's hand card seen taken by all */
        set_hand_known(seen_base, 1, 1);
        d = json_deep_copy(seen_base);
        assert_true(swap_hand_card(d, 1, 0));
        if (explicit)
            sort_stacks(d);
        snprintf(what, sizeof what, "variant %d: seat 1's hand card seen taken", variant);
        check_item(g, seen_base, d, none, what);
        json_decref(d);
        json_decref(seen_base);

        d = json_deep_copy(base);
        set_int(player(d, 2), "vp", json_integer_value(json_object_get(player(d, 2), "vp")) + 1);
        snprintf(what, sizeof what, "variant %d: seat 2's VP (same public_hash in both documents)", variant);
        check_item(g, base, d, none, what);
        json_decref(d);

        json_decref(base);
        stpete_game_free(g);
    }
}

/* Random games, both chance modes and both editions, 2-4 players: every view of every seat (and the public view)
 * shows every hand card, since each was seen taken (§7.1, §9); the seats' own rubles only, unless public. */
static void test_views_show_every_card_seen_taken(void **unused)
{
    (void)unused;
    static char full[TEXT_CAP], view[TEXT_CAP];
    for (int k = 0; k < 12; k++) {
        int players = 2 + k % 3, mode = k / 3 % 2 ? STPETE_CHANCE_EXPLICIT : STPETE_CHANCE_SAMPLED, ed = 1 + k / 6;
        stpete_game *g = make_game_with(.players = players, .seed = 100 + (uint64_t)k, .chance_mode = mode,
                                        .edition = ed);
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        uint64_t rng = (uint64_t)k + 1;
        int hands_seen = 0;
        for (int step = 0; tg_is_terminal(st) == 0; step++) {
            knowledge_random_step(st, &rng);
            if (step % 7)
                continue;
            size_t len;
            assert_int_equal(stpete_state_to_json(st, full, sizeof full, &len), STPETE_OK);
            json_t *f = json_loads(full, 0, NULL);
            for (int viewer = STPETE_VIEW_PUBLIC; viewer < players; viewer++) {
                assert_int_equal(stpete_state_view_to_json(st, viewer, view, sizeof view, &len), STPETE_OK);
                json_t *v = json_loads(view, 0, NULL);
                for (int s = 0; s < players; s++) {
                    json_t *hv = json_object_get(player(v, s), "hand"), *hf = json_object_get(player(f, s), "hand");
                    if (!json_equal(hv, hf))
                        fail_msg("game %d step %d: seat %d's hand %s in the view of %d, %s in the state", k, step, s,
                                 json_dumps(hv, 0), viewer, json_dumps(hf, 0));
                    hands_seen += (int)json_array_size(hf);
                    int rubles = 0, shown = stpete_state_visible_rubles(st, viewer, s, &rubles) == STPETE_OK;
                    assert_int_equal(shown, !json_is_null(json_object_get(player(v, s), "rubles")));
                    assert_int_equal(shown, viewer == s);
                }
                json_decref(v);
            }
            json_decref(f);
        }
        assert_true(hands_seen > 0);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* The document of format_version `version` for st's position: version 1 and 2 lack what they did not have. */
static json_t *as_version(const json_t *doc, int version)
{
    json_t *d = json_deep_copy(doc);
    json_object_set_new(d, "format_version", json_integer(version));
    if (version < 3) {
        json_object_del(d, "rubles_recalled");
        json_object_del(d, "information_state_key");
    }
    if (version < 2) {
        json_object_del(d, "chance");
        json_object_del(d, "public_hash");
        json_object_del(json_object_get(d, "options"), "chance_mode");
        json_object_del(json_object_get(d, "options"), "edition");
        json_t *players = json_object_get(d, "players");
        for (size_t p = 0; p < json_array_size(players); p++)
            json_object_del(json_array_get(players, p), "hand_known");
    }
    return d;
}

/* Issue 21 item 4: seat 0 tries every amount of seat 1's rubles until the document it builds gives the view it was
 * shown (or the key, or the public history hash in it). With nothing secret in what it sees, every amount fits,
 * so the brute force learns nothing; for documents of every format version the library reads. */
static void test_rubles_cannot_be_found_by_trying(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 5);
    stpete_state *st = position_with_hands(g, 3);
    json_t *base = state_doc(st);
    stpete_state_free(st);
    json_object_set_new(base, "rubles_recalled", json_false());
    for (int version = 1; version <= STPETE_FORMAT_VERSION; version++) {
        json_t *secret = as_version(base, version);
        set_int(player(secret, 1), "rubles", 37);
        stpete_state *target = load_doc(g, secret);
        seen shown;
        see(target, 0, &shown);
        int fits = 0, tried = 0;
        for (int guess = 0; guess <= 100; guess++, tried++) {
            json_t *d = json_deep_copy(secret);
            set_int(player(d, 1), "rubles", guess);
            stpete_state *s = load_doc(g, d);
            seen x;
            see(s, 0, &x);
            fits += x.key == shown.key && strcmp(x.view, shown.view) == 0 && strcmp(x.info_text, shown.info_text) == 0;
            unsee(&x);
            stpete_state_free(s);
            json_decref(d);
        }
        if (fits != tried)
            fail_msg("format_version %d: only %d of %d amounts fit seat 0's view: its view depends on seat 1's rubles",
                     version, fits, tried);
        unsee(&shown);
        stpete_state_free(target);
        json_decref(secret);
    }
    json_decref(base);
    stpete_game_free(g);
}

/* Issue 31 item 6: what guessing against a view's key finds is only what the view shows. In a played position
 * (rubles_recalled true) seat 0 knows seat 1's rubles by perfect recall (§9) and its key hashes them: trying every
 * amount against the key singles out the true one, and the view must show it (known_rubles), while `rubles` keeps
 * it hidden; a guess fits the key exactly when it fits the view (without its key). Guessing seat 1's unseen hand card, or the order of a
 * stack, against the key finds nothing (every guess fits). 1.0 showed null and hashed the amount: the key gave
 * away a purse its view hid. */
static int fits(const stpete_game *g, const json_t *doc, const seen *shown, int *view_fits)
{
    stpete_state *s = load_doc(g, doc);
    seen x;
    see(s, 0, &x);
    int key_fits = x.key == shown->key;
    *view_fits = strcmp(x.view, shown->view) == 0;
    unsee(&x);
    stpete_state_free(s);
    return key_fits;
}

static void test_key_reveals_only_what_the_view_shows(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 60 + (uint64_t)players);
        stpete_state *st = position_with_hands(g, 5 + (uint64_t)players);
        json_t *secret = state_doc(st);
        stpete_state_free(st);
        assert_true(json_is_true(json_object_get(secret, "rubles_recalled"))); /* played from the setup */
        set_hand_known(secret, 1, 0); /* seat 1's hand card unseen by seat 0 */
        set_int(player(secret, 1), "rubles", 37);
        stpete_state *target = load_doc(g, secret);
        seen shown;
        see(target, 0, &shown);
        json_t *view = json_loads(shown.view, 0, NULL); /* without its key */
        assert_true(json_is_null(json_object_get(player(view, 1), "rubles"))); /* the table hides the purse */
        int found = -1, key_fits = 0;
        for (int guess = 0; guess <= 100; guess++) {
            json_t *d = json_deep_copy(secret);
            set_int(player(d, 1), "rubles", guess);
            int view_fits, key_fit = fits(g, d, &shown, &view_fits);
            if (key_fit != view_fits) /* the key tells apart what the view does not show, or the reverse */
                fail_msg("%d players: %d R for seat 1 fits seat 0's %s, not its %s", players, guess,
                         key_fit ? "key" : "view (without its key)", key_fit ? "view (without its key)" : "key");
            if (key_fit) {
                key_fits++;
                found = guess;
            }
            json_decref(d);
        }
        assert_int_equal(key_fits, 1);
        assert_int_equal(found, 37);
        /* what the key singles out, the view shows */
        assert_int_equal(json_integer_value(json_object_get(player(view, 1), "known_rubles")), 37);
        /* seat 1's unseen hand card: any card of its back fits the key */
        for (size_t tries = 0; tries < 8; tries++) {
            json_t *d = json_deep_copy(secret);
            for (size_t k = 0; k <= tries; k++)
                if (!swap_hand_card(d, 1, 0))
                    break;
            int view_fits;
            if (!fits(g, d, &shown, &view_fits) || !view_fits)
                fail_msg("%d players: another hand card of seat 1 changes seat 0's key or view", players);
            json_decref(d);
        }
        /* the order of a stack: nobody sees it */
        json_t *d = json_deep_copy(secret);
        if (swap_in_stack(d, "building")) {
            int view_fits;
            assert_true(fits(g, d, &shown, &view_fits) && view_fits);
        }
        json_decref(d);
        json_decref(view);
        unsee(&shown);
        stpete_state_free(target);
        json_decref(secret);
        stpete_game_free(g);
    }
}

/* stpete_state_rubles_visible() / stpete_state_visible_rubles(): own rubles always, others' only with public_rubles,
 * spectators only public ones; on loaded positions too; bad arguments refused. */
static void test_visible_rubles(void **unused)
{
    (void)unused;
    for (int pr = 0; pr <= 1; pr++) {
        stpete_game *g = make_game_with(.players = 3, .seed = 9, .public_rubles = pr);
        stpete_state *played = position_with_hands(g, 4);
        json_t *doc = state_doc(played);
        json_object_set_new(doc, "rubles_recalled", json_false());
        set_int(player(doc, 2), "rubles", 55);
        stpete_state *loaded = load_doc(g, doc);
        json_decref(doc);
        stpete_state *both[2] = { played, loaded };
        for (int i = 0; i < 2; i++)
            for (int viewer = STPETE_VIEW_PUBLIC; viewer < 3; viewer++)
                for (int seat = 0; seat < 3; seat++) {
                    int visible = -1, rubles = -7;
                    assert_int_equal(stpete_state_rubles_visible(both[i], viewer, seat, &visible), STPETE_OK);
                    assert_int_equal(visible, pr || viewer == seat);
                    int rc = stpete_state_visible_rubles(both[i], viewer, seat, &rubles);
                    if (visible) {
                        assert_int_equal(rc, STPETE_OK);
                        assert_int_equal(rubles, stpete_state_rubles(both[i], seat));
                    } else {
                        assert_int_equal(rc, STPETE_E_REDACTED);
                        assert_int_equal(rubles, -7); /* untouched */
                    }
                }
        int v = 0;
        assert_int_equal(stpete_state_rubles_visible(NULL, 0, 0, &v), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_state_rubles_visible(played, 0, 0, NULL), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_state_rubles_visible(played, 3, 0, &v), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_state_rubles_visible(played, -2, 0, &v), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_state_rubles_visible(played, 0, -1, &v), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_state_visible_rubles(played, 0, 3, &v), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_state_visible_rubles(played, 0, 0, NULL), STPETE_E_INVALID_ARGUMENT);
        stpete_state_free(played);
        stpete_state_free(loaded);
        stpete_game_free(g);
    }
}

/* FNV-1a over a text: a digest of determinizations. */
static uint64_t digest_text(uint64_t h, const char *text)
{
    for (; *text; text++)
        h = (h ^ (unsigned char)*text) * UINT64_C(1099511628211);
    return h;
}

/* The digest of the determinizations of st for every seat, both flags, seeds 1-2. */
static uint64_t digest_determinizations(uint64_t h, const stpete_state *st)
{
    for (int seat = 0; seat < stpete_game_num_players(stpete_state_game(st)); seat++)
        for (int flags = -1; flags <= (int)STPETE_DETERMINIZE_RUBLES; flags++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                char *d = determinized(st, seat, seed, flags);
                h = digest_text(h, d);
                free(d);
            }
    return h;
}

/* The determinizations themselves (§9) are those of 1.1.0 (a faster resample draws the same ones: the bots' games
 * depend on them): positions of random games in both chance modes every 7 actions, and loaded positions with an
 * unseen hand card and secret rubles (the variants of test_invariant_on_loaded_pairs). */
static void test_determinizations_unchanged(void **unused)
{
    (void)unused;
    uint64_t h = UINT64_C(14695981039346656037);
    for (int variant = 0; variant < 4; variant++) {
        int explicit = variant & 1;
        stpete_game *g = make_game_with(.players = 2 + variant % 3, .seed = 60 + (uint64_t)variant,
                                        .public_rubles = variant == 2,
                                        .chance_mode = explicit ? STPETE_CHANCE_EXPLICIT : STPETE_CHANCE_SAMPLED);
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        uint64_t rng = 5 + (uint64_t)variant;
        for (int step = 0; step < 400 && tg_is_terminal(st) == 0; step++) {
            if (step % 7 == 0 && stpete_state_decision(st) != STPETE_DECISION_CHANCE)
                h = digest_determinizations(h, st);
            knowledge_random_step(st, &rng);
        }
        stpete_state_free(st);
        st = position_with_hands(g, 9 + (uint64_t)variant);
        json_t *doc = state_doc(st);
        stpete_state_free(st);
        json_object_set_new(doc, "rubles_recalled", json_boolean(variant == 1));
        set_hand_known(doc, 1, 0);
        set_int(player(doc, 1), "rubles", 3);
        st = load_doc(g, doc);
        h = digest_determinizations(h, st);
        stpete_state_free(st);
        json_decref(doc);
        stpete_game_free(g);
    }
    if (h != UINT64_C(0xcc37fe41f03da893))
        fail_msg("determinizations digest %016llx, 1.1.0's cc37fe41f03da893", (unsigned long long)h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invariant_on_loaded_pairs),
        cmocka_unit_test(test_views_show_every_card_seen_taken),
        cmocka_unit_test(test_rubles_cannot_be_found_by_trying),
        cmocka_unit_test(test_key_reveals_only_what_the_view_shows),
        cmocka_unit_test(test_visible_rubles),
        cmocka_unit_test(test_determinizations_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
