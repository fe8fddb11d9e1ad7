/* Public-API tests, events: re-entrancy, positions the callbacks see, the setup's events, event strings and members,
 * freeing a state from its own callback. Part of the program 'api' (main.c); links the shared library and uses only the
 * public headers. */
#include "api_tests.h"

/* ---- events: re-entrancy ----------------------------------------------------------------------- */

typedef struct reentry {
    stpete_state *self;  /* the state whose callback this is (non-const handle kept by the test) */
    stpete_state *other; /* another state of the same game */
    int calls;
    int checked;
    int failures;
} reentry;

static void reentrant_cb(const stpete_state *state, const stpete_event *ev, void *user)
{
    reentry *r = user;
    r->calls++;
    if (state != r->self)
        r->failures++;
    if (ev->kind < STPETE_EVENT_PHASE_START || ev->kind > STPETE_EVENT_GAME_OVER)
        r->failures++;
    /* queries are allowed: clone the position, then try every mutating entry point */
    stpete_state *snap = NULL;
    if (stpete_state_clone(state, &snap, NULL) != STPETE_OK) {
        r->failures++;
        return;
    }
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    if (stpete_state_legal_actions(state, ids, STPETE_MAX_LEGAL_ACTIONS, &n) != STPETE_OK)
        r->failures++;
    /* the position seen by a callback is consistent: a drawn card exactly when an Observatory decision is open */
    if ((stpete_state_decision(state) == STPETE_DECISION_OBSERVATORY) != (stpete_state_observatory_card(state) >= 0))
        r->failures++;
    int try_ids[3] = { 0, n ? ids[0] : 0, n ? ids[n - 1] : 0 };
    for (int i = 0; i < 3; i++) {
        if (stpete_state_apply(r->self, try_ids[i]) != STPETE_E_REENTRANT)
            r->failures++;
        if (stpete_state_last_error(r->self)[0] == '\0')
            r->failures++;
        if (tg_equal(r->self, snap) != 1)
            r->failures++;
    }
    if (stpete_state_apply_string(r->self, "pass") != STPETE_E_REENTRANT)
        r->failures++;
    int picked = -7;
    if (stpete_state_apply_random(r->self, 3, STPETE_PICK_MODULO, &picked) != STPETE_E_REENTRANT || picked != -7)
        r->failures++;
    if (stpete_state_reset(r->self, 12345) != STPETE_E_REENTRANT)
        r->failures++;
    if (stpete_state_last_error(r->self)[0] == '\0')
        r->failures++;
    if (stpete_state_copy(r->self, r->other) != STPETE_E_REENTRANT)
        r->failures++;
    if (stpete_state_set_event_callback(r->self, NULL, NULL) != STPETE_E_REENTRANT)
        r->failures++;
    if (stpete_state_copy(r->self, state) != STPETE_E_REENTRANT) /* even a copy onto itself */
        r->failures++;
    if (tg_equal(r->self, snap) != 1)
        r->failures++;
    /* copying out of the state into another one is a query of this state: allowed */
    if (stpete_state_copy(r->other, state) != STPETE_OK)
        r->failures++;
    stpete_state_free(snap);
    r->checked++;
}

static void test_reentrant(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 2024);
    stpete_state *st = make_state(g);
    stpete_state *other = make_state(g);
    reentry r = { st, other, 0, 0, 0 };
    assert_int_equal(stpete_state_set_event_callback(st, reentrant_cb, &r), STPETE_OK);
    uint64_t rng = 5;
    int moves = 0, seen[3] = { 0, 0, 0 }; /* Observatory draws resolved by buy, take, discard */
    /* whole games, until an Observatory draw has been resolved in each of the three ways */
    for (uint64_t seed = 2024; seed < 2024 + 40 && !(seen[0] && seen[1] && seen[2]); seed++) {
        assert_int_equal(stpete_state_reset(st, seed), STPETE_OK);
        while (!tg_is_terminal(st)) {
            int id = step_random(st, &rng);
            moves++;
            if (id >= 745 && id <= 960)
                seen[id < 959 ? 0 : id - 958] = 1;
            /* the failed calls inside the callback did not leak out: the outer apply succeeded and cleared them */
            assert_string_equal(stpete_state_last_error(st), "");
        }
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    assert_true(r.calls > moves);
    assert_int_equal(r.checked, r.calls);
    assert_int_equal(r.failures, 0);
    /* reset fires events too (deals, phase start), with the same protection */
    int calls = r.calls;
    assert_int_equal(stpete_state_reset(st, 9), STPETE_OK);
    assert_true(r.calls > calls);
    assert_int_equal(r.failures, 0);
    /* after the callback the state is freely mutable again */
    assert_int_equal(stpete_state_set_event_callback(st, NULL, NULL), STPETE_OK);
    calls = r.calls;
    assert_int_equal(stpete_state_apply(st, 0), STPETE_OK);
    assert_int_equal(r.calls, calls);
    stpete_state_free(other);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- no document of a position between two steps ----------------------------------------------- */

typedef struct midstep {
    char buf[1 << 16];
    long calls;
    long refused;   /* STPETE_E_REENTRANT, len untouched */
    long other;     /* anything else: a document written mid-step */
} midstep;

static void write_in_callback(const stpete_state *state, const stpete_event *ev, void *user)
{
    midstep *m = user;
    (void)ev;
    size_t len = 12345;
    int rc = stpete_state_to_json(state, m->buf, sizeof m->buf, &len);
    m->calls++;
    if (rc == STPETE_E_REENTRANT && len == 12345)
        m->refused++;
    else
        m->other++;
}

/* stpete_state_to_json() from a state's own event callback (issue 46 item 11): the state is between two steps of a
 * move, and 1.1.2 wrote documents stpete_state_from_json() refused (the last pass of a phase, a stack emptied before
 * the final round is set, a Trading House decision before its scoring) or that would continue another game. It is
 * refused, every time, in base and New Society games; after the call returns the state is written and read back. */
static void test_no_document_between_steps(void **unused)
{
    (void)unused;
    static midstep m;
    for (int k = 0; k < 8; k++) {
        stpete_options o;
        stpete_options_init(&o);
        o.new_society = k % 2;
        o.players = 2 + k % (o.new_society ? 4 : 3);
        o.seed = 77 + (uint64_t)k;
        stpete_game *g = NULL;
        assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new_with_callback(g, write_in_callback, &m, &st, NULL), STPETE_OK);
        uint64_t rng = 1000 + (uint64_t)k;
        int over = 0;
        for (int move = 0; stpete_state_is_terminal(st, &over) == STPETE_OK && !over; move++) {
            step_random(st, &rng);
            if (move % 25 == 0) { /* between moves: written, and read back as the same position */
                size_t len = 0;
                assert_int_equal(stpete_state_to_json(st, m.buf, sizeof m.buf, &len), STPETE_OK);
                stpete_state *back = NULL;
                assert_int_equal(stpete_state_from_json(g, m.buf, len, &back, NULL), STPETE_OK);
                assert_true(stpete_state_equal_or(st, back, 0));
                stpete_state_free(back);
            }
        }
        stpete_state_free(st);
        stpete_game_free(g);
    }
    assert_true(m.calls > 1000);
    assert_int_equal(m.other, 0);
    assert_int_equal(m.refused, m.calls);
}

/* ---- events see consistent positions ------------------------------------------------------------ */

typedef struct final_seen {
    int players;
    int events;
    int vp_at_event[STPETE_MAX_PLAYERS][STPETE_MAX_PLAYERS]; /* [event][seat] */
} final_seen;

static void final_cb(const stpete_state *state, const stpete_event *ev, void *user)
{
    final_seen *f = user;
    if (ev->kind != STPETE_EVENT_FINAL_SCORING)
        return;
    for (int s = 0; s < f->players; s++)
        stpete_state_vp(state, s, &f->vp_at_event[f->events][s]);
    f->events++;
}

/* Every FINAL_SCORING event (§8) sees every player's final VP, not a half-scored table. */
static void test_final_scoring_events_see_final_scores(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 31);
    stpete_state *st = make_state(g);
    final_seen f;
    memset(&f, 0, sizeof f);
    f.players = 4;
    assert_int_equal(stpete_state_set_event_callback(st, final_cb, &f), STPETE_OK);
    play_to_end(st, 99);
    assert_int_equal(f.events, 4);
    for (int e = 0; e < 4; e++)
        for (int s = 0; s < 4; s++) {
            int vp = 0;
            assert_int_equal(stpete_state_vp(st, s, &vp), STPETE_OK);
            assert_int_equal(f.vp_at_event[e][s], vp);
        }
    stpete_state_free(st);
    stpete_game_free(g);
}

typedef struct setup_log {
    int deals, phase_starts, other;
    char first_line[STPETE_EVENT_STRING_MAX];
} setup_log;

static void log_setup(const stpete_state *st, const stpete_event *ev, void *user)
{
    setup_log *log = user;
    if (ev->kind == STPETE_EVENT_DEAL) {
        if (log->deals++ == 0)
            assert_int_equal(stpete_event_to_string(ev, st, log->first_line, sizeof log->first_line), STPETE_OK);
    } else if (ev->kind == STPETE_EVENT_PHASE_START) {
        log->phase_starts++;
    } else {
        log->other++;
    }
}

/* stpete_state_new_with_callback(): the callback hears the setup deal (§3.4: 2 workers per player) and the first
 * phase start, and stays set; the position is the one stpete_state_new() makes. */
static void test_new_with_callback_reports_setup(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 31);
        setup_log log = { 0, 0, 0, "" };
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new_with_callback(g, log_setup, &log, &st, NULL), STPETE_OK);
        assert_int_equal(log.deals, 2 * players);
        assert_int_equal(log.phase_starts, 1);
        assert_int_equal(log.other, 0);
        int first = -1;
        size_t n = 0;
        assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, &first, 1, &n), STPETE_E_BUFFER_TOO_SMALL);
        int row[STPETE_BOARD_SIZE];
        assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
        char want[STPETE_EVENT_STRING_MAX];
        snprintf(want, sizeof want, "dealt %s from the worker stack to the upper row", tg_card_name(STPETE_EDITION_FIRST, row[0]));
        assert_string_equal(log.first_line, want);
        stpete_state *plain = make_state(g);
        assert_int_equal(tg_equal(st, plain), 1);
        step_random(st, &(uint64_t){ 1 });
        assert_true(log.other > 0); /* still set */
        stpete_state_free(plain);
        stpete_state_free(st);
        stpete_game_free(g);
    }
    stpete_state *st = (stpete_state *)1;
    assert_int_equal(stpete_state_new_with_callback(NULL, log_setup, NULL, &st, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(st);
    assert_int_equal(stpete_state_new_with_callback(NULL, NULL, NULL, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
}

/* An event callback: the line of the first purchase, formatted with the state that reports it. */
static void line_of_first_buy(const stpete_state *st, const stpete_event *ev, void *user)
{
    char *seen = user;
    if (ev->kind == STPETE_EVENT_BUY && !seen[0])
        assert_int_equal(stpete_event_to_string(ev, st, seen, STPETE_EVENT_STRING_MAX), STPETE_OK);
}

/* stpete_event_to_string(): the lines of the selfplay log, with and without the state's details; bad events and
 * small buffers are refused. */
static void test_event_to_string(void **unused)
{
    (void)unused;
    stpete_event ev = { sizeof ev, STPETE_EVENT_BUY, 1, STPETE_CARD_WHARF, STPETE_CARD_SHIP_BUILDER, STPETE_SOURCE_UPPER, -1, 5,
                        -1, -1, -1, STPETE_PHASE_TRADING, 3, 1 };
    char buf[STPETE_EVENT_STRING_MAX];
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_OK);
    assert_string_equal(buf, "seat 1 buys Wharf from the upper row, displacing Ship Builder, for 5 R");
    stpete_game *g = make_game(2, 3);
    stpete_state *st = make_state(g);
    /* a state outside its callback adds nothing (it has moved on since the event); inside, the rubles left */
    assert_int_equal(stpete_event_to_string(&ev, st, buf, sizeof buf), STPETE_OK);
    assert_string_equal(buf, "seat 1 buys Wharf from the upper row, displacing Ship Builder, for 5 R");
    char seen[STPETE_EVENT_STRING_MAX] = "";
    assert_int_equal(stpete_state_set_event_callback(st, line_of_first_buy, seen), STPETE_OK);
    uint64_t rng = 11;
    for (int i = 0; i < 200 && !seen[0] && !tg_is_terminal(st); i++)
        step_random(st, &rng);
    assert_non_null(strstr(seen, " buys "));
    assert_non_null(strstr(seen, " R left)"));
    assert_int_equal(stpete_state_set_event_callback(st, NULL, NULL), STPETE_OK);
    char small[10];
    assert_int_equal(stpete_event_to_string(&ev, NULL, small, sizeof small), STPETE_E_BUFFER_TOO_SMALL);
    assert_string_equal(small, "seat 1 bu");
    assert_int_equal(stpete_event_to_string(&ev, NULL, small, 0), STPETE_E_BUFFER_TOO_SMALL);
    stpete_event bad = ev;
    bad.card = STPETE_NUM_CARD_TYPES_NEW_SOCIETY; /* 49..61: the New Society's (§12.2.3) */
    assert_int_equal(stpete_event_to_string(&bad, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    bad = ev;
    bad.kind = 16;
    assert_int_equal(stpete_event_to_string(&bad, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    bad = ev;
    bad.source = 9;
    assert_int_equal(stpete_event_to_string(&bad, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_event_to_string(NULL, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_event_to_string(&ev, NULL, NULL, 5), STPETE_E_INVALID_ARGUMENT);
    /* every event of real games has a line that fits */
    stpete_state_free(st);
    stpete_game_free(g);
}

/* stpete_event_to_string() with every kind's members out of range (issue 31 item 2): a member the kind uses out of
 * range is STPETE_E_INVALID_ARGUMENT; a member it does not use is never read, whatever it holds (1.0 read
 * names[card] for every kind first: a PASS with card 1000 read past the card table, with 100000000 it crashed). The
 * members each kind uses are those of stpete_event_kind's comments that index a table or name a seat. */
enum { M_SEAT, M_CARD, M_DISPLACED, M_SOURCE, M_STACK, M_PHASE, M_AMOUNT, M_EDITION, NUM_M };
static int *event_member(stpete_event *ev, int m)
{
    int *members[NUM_M] = { &ev->seat, &ev->card, &ev->displaced, &ev->source, &ev->stack, &ev->phase, &ev->amount,
                            &ev->edition };
    return members[m];
}

/* A valid event of each kind, the members its text checks and the ones it prints as numbers. */
#define U(m) (1u << (m))
static const struct event_case {
    stpete_event ev; /* a valid event of the kind */
    unsigned used;   /* the members it checks (the edition always) */
    unsigned shown;  /* members it prints as numbers, any value (pass count, VP bought, cards discarded) */
} event_cases[] = {
    { { sizeof(stpete_event), STPETE_EVENT_PHASE_START, 1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 1 },
      U(M_SEAT) | U(M_PHASE), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_DEAL, -1, 5, -1, -1, 2, -1, -1, -1, -1, 0, 1, 1 },
      U(M_CARD) | U(M_STACK), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_BUY, 1, 20, 3, 1, -1, 5, -1, -1, -1, 2, 3, 1 },
      U(M_SEAT) | U(M_CARD) | U(M_DISPLACED) | U(M_SOURCE), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_PLAY, 0, 20, -1, 2, -1, 7, -1, -1, -1, 2, 3, 2 },
      U(M_SEAT) | U(M_CARD) | U(M_DISPLACED) | U(M_SOURCE), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_TAKE, 2, 9, -1, 0, -1, -1, -1, -1, -1, 2, 3, 1 },
      U(M_SEAT) | U(M_CARD) | U(M_DISPLACED) | U(M_SOURCE), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_DISPLACE, 1, 3, -1, -1, -1, -1, -1, -1, -1, 2, 3, 1 },
      U(M_SEAT) | U(M_CARD), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_PASS, 3, -1, -1, -1, -1, -1, -1, -1, 2, 2, 3, 1 },
      U(M_SEAT), U(M_AMOUNT) },
    { { sizeof(stpete_event), STPETE_EVENT_OBSERVATORY_DRAW, 0, 11, -1, -1, 3, -1, -1, -1, -1, 2, 3, 1 },
      U(M_SEAT) | U(M_CARD) | U(M_STACK), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_OBSERVATORY_DISCARD, 0, 11, -1, -1, -1, -1, -1, -1, -1, 2, 3, 1 },
      U(M_SEAT) | U(M_CARD), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_SCORING, 2, -1, -1, -1, -1, -1, 4, 1, -1, 1, 3, 1 },
      U(M_SEAT) | U(M_PHASE), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_PUB, 1, -1, -1, -1, -1, -1, 4, 2, 2, 3, 3, 1 },
      U(M_SEAT), U(M_AMOUNT) },
    { { sizeof(stpete_event), STPETE_EVENT_ROUND_END, -1, -1, -1, -1, -1, -1, -1, -1, 3, 3, 3, 1 },
      0, U(M_AMOUNT) },
    { { sizeof(stpete_event), STPETE_EVENT_MARKERS_MOVED, -1, -1, -1, -1, -1, -1, -1, -1, -1, 3, 3, 1 },
      0, 0 },
    { { sizeof(stpete_event), STPETE_EVENT_LAST_ROUND, -1, -1, -1, -1, 1, -1, -1, -1, -1, 0, 5, 1 },
      U(M_STACK), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_FINAL_SCORING, 0, -1, -1, -1, -1, -1, -1, 61, 9, 3, 6, 1 },
      U(M_SEAT), U(M_AMOUNT) },
    { { sizeof(stpete_event), STPETE_EVENT_GAME_OVER, -1, -1, -1, -1, -1, -1, -1, -1, 5, 3, 6, 1 },
      U(M_AMOUNT), 0 },
    { { sizeof(stpete_event), STPETE_EVENT_UNDO, 1, -1, -1, -1, -1, -1, -1, -1, 3, 0, 2, 1 },
      U(M_SEAT) | U(M_AMOUNT), 0 },
};
#undef U

static void test_event_members_out_of_range(void **unused)
{
    (void)unused;
    assert_int_equal(sizeof event_cases / sizeof event_cases[0], STPETE_EVENT_UNDO + 1);
    static const int far[] = { INT_MIN, -1000, -2, 1000, 100000000, INT_MAX };
    char base[STPETE_EVENT_STRING_MAX], buf[STPETE_EVENT_STRING_MAX];
    for (size_t k = 0; k < sizeof event_cases / sizeof event_cases[0]; k++) {
        stpete_event ev = event_cases[k].ev;
        assert_int_equal(ev.kind, (int)k);
        if (stpete_event_to_string(&ev, NULL, base, sizeof base) != STPETE_OK)
            fail_msg("kind %zu: the valid event is refused", k);
        for (int m = 0; m < NUM_M; m++)
            for (size_t v = 0; v < sizeof far / sizeof far[0]; v++) {
                stpete_event bad = ev;
                *event_member(&bad, m) = far[v];
                int rc = stpete_event_to_string(&bad, NULL, buf, sizeof buf);
                if (k == STPETE_EVENT_UNDO && m == M_AMOUNT && far[v] == 1000)
                    continue; /* 1000 is a chance outcome's id, which an undo may name */
                if (m == M_EDITION || (event_cases[k].used & (1u << m))) {
                    if (rc != STPETE_E_INVALID_ARGUMENT)
                        fail_msg("kind %zu, member %d = %d: %d, want STPETE_E_INVALID_ARGUMENT", k, m, far[v], rc);
                } else if (!(event_cases[k].shown & (1u << m)) && (rc != STPETE_OK || strcmp(buf, base) != 0)) {
                    fail_msg("kind %zu, unused member %d = %d: %d \"%s\", want \"%s\"", k, m, far[v], rc, buf, base);
                }
            }
    }
    /* the kinds' own edge values: displaced -1 (none), seat -1 of an undone chance outcome, every winner mask */
    stpete_event ev = event_cases[STPETE_EVENT_UNDO].ev;
    ev.seat = -1;
    ev.amount = STPETE_CHANCE_CARD_FIRST;
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_OK);
    ev.amount = STPETE_NUM_DISTINCT_ACTIONS + 100000;
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    ev = event_cases[STPETE_EVENT_GAME_OVER].ev;
    for (ev.amount = 0; ev.amount < 1 << STPETE_MAX_PLAYERS; ev.amount++) /* 5 seats with the New Society (§12) */
        assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_OK);
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    for (int kind = -3; kind < 40; kind += kind == -1 ? STPETE_EVENT_GOLD_DISC + 2 : 1) {
        ev.kind = kind;
        assert_int_equal(stpete_event_to_string(&ev, NULL, buf, sizeof buf), STPETE_E_INVALID_ARGUMENT);
    }
}

typedef struct closer {
    stpete_state *st;
    int events_after_free, freed, kind;
} closer;

/* A callback that frees its own state at the first event of a kind (issue 10: today a use-after-free). */
static void free_in_callback(const stpete_state *st, const stpete_event *ev, void *user)
{
    closer *c = user;
    (void)st;
    if (c->freed) {
        c->events_after_free++;
        return;
    }
    if (ev->kind == c->kind) {
        c->freed = 1;
        stpete_state_free(c->st); /* deferred until the reporting call returns */
    }
}

/* Like free_in_callback, but frees the state it is called for (the state's own pointer, cast from const). */
static void free_in_callback_own(const stpete_state *st, const stpete_event *ev, void *user)
{
    closer *c = user;
    c->st = (stpete_state *)(uintptr_t)st;
    free_in_callback(st, ev, user);
}

/* stpete_state_apply_tracked() says whether the step freed the state (issue 31 item 1): 0 while the state lives,
 * 1 once its callback freed it; refusals before. */
static void check_apply_tracked(stpete_game *g, uint64_t *rng)
{
    /* stpete_state_apply_tracked() says so (issue 31 item 1): 0 while the state lives, 1 once it is gone */
    stpete_state *st = make_state(g);
    closer c = { st, 0, 0, STPETE_EVENT_SCORING };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    int freed = -1, steps = 0;
    assert_int_equal(stpete_state_apply_tracked(st, 0, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_round(st), 1);
    assert_int_equal(stpete_state_apply_tracked(NULL, 0, &freed), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(freed, 0);
    assert_int_equal(stpete_state_apply_tracked(st, -5, &freed), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(freed, 0);
    while (!c.freed) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        freed = -1;
        assert_int_equal(stpete_state_apply_tracked(st, ids[rng_below(rng, (int)n)], &freed), STPETE_OK);
        assert_int_equal(freed, c.freed); /* 1 exactly when this step's callback freed the state */
        steps++;
    }
    assert_true(steps > 1);
    assert_int_equal(c.events_after_free, 0);
}

/* stpete_state_free() from the state's own callback is deferred to the end of the call that reported the event,
 * which then delivers no further event; valgrind and ASan see no use after free. */
static void test_free_inside_own_callback(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 9);
    /* during an apply that passes the phase on: SCORING comes first, DEAL and PHASE_START after it */
    stpete_state *st = make_state(g);
    closer c = { st, 0, 0, STPETE_EVENT_SCORING };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    uint64_t rng = 4;
    int rc = STPETE_OK;
    while (!c.freed) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        rc = stpete_state_apply(st, ids[rng_below(&rng, (int)n)]); /* the last one frees st */
        assert_int_equal(rc, STPETE_OK);
    }
    assert_int_equal(c.events_after_free, 0);
    /* during a reset */
    st = make_state(g);
    c = (closer){ st, 0, 0, STPETE_EVENT_DEAL };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    assert_int_equal(stpete_state_reset(st, 77), STPETE_OK);
    assert_int_equal(c.freed, 1);
    assert_int_equal(c.events_after_free, 0);
    /* during the setup of stpete_state_new_with_callback: the state never reaches the caller */
    c = (closer){ NULL, 0, 0, STPETE_EVENT_PHASE_START };
    stpete_state *out = (stpete_state *)1;
    /* the callback frees the state it is given: stpete_state_new_with_callback's own */
    assert_int_equal(stpete_state_new_with_callback(g, free_in_callback_own, &c, &out, NULL), STPETE_OK);
    assert_null(out);
    assert_int_equal(c.freed, 1);
    /* during an undo (its one event, UNDO) */
    st = make_state(g);
    assert_int_equal(stpete_state_apply_string(st, "pass"), STPETE_OK);
    c = (closer){ st, 0, 0, STPETE_EVENT_UNDO };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    assert_int_equal(stpete_state_undo(st), STPETE_OK);
    assert_int_equal(c.freed, 1);
    assert_int_equal(c.events_after_free, 0);
    /* during an apply_string (PASS, then nothing) */
    st = make_state(g);
    c = (closer){ st, 0, 0, STPETE_EVENT_PASS };
    assert_int_equal(stpete_state_set_event_callback(st, free_in_callback, &c), STPETE_OK);
    assert_int_equal(stpete_state_apply_string(st, "pass"), STPETE_OK);
    assert_int_equal(c.freed, 1);
    check_apply_tracked(g, &rng);
    stpete_game_free(g);
}

TEST_GROUP(api_events,
    cmocka_unit_test(test_reentrant),
    cmocka_unit_test(test_final_scoring_events_see_final_scores),
    cmocka_unit_test(test_new_with_callback_reports_setup),
    cmocka_unit_test(test_event_to_string),
    cmocka_unit_test(test_event_members_out_of_range),
    cmocka_unit_test(test_free_inside_own_callback),
    cmocka_unit_test(test_no_document_between_steps));
