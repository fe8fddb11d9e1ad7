/* stpete-arena: tournaments among the library's bots and external programs (issue 13).
 *
 *   stpete-arena --players 3 --games 600 --bots greedy,ismcts:iterations=2000,'cmd:python3 mybot.py' --jobs 2
 *
 * Participants are the library's bots by their specs (stpete/bots.h) and external programs ("cmd:PROGRAM ARGS"),
 * which speak the line-based JSON protocol of doc/protocol.md on their stdin and stdout. Game g of a tournament
 * plays deal d = g / S under seating g mod S, where S is the number of seatings: every ordered choice of P of the
 * N participants (N >= P), or every distinct arrangement of the list repeated to P seats (N < P). So every
 * participant holds every seat equally often, and every deal is played under every seating. Everything about
 * game g (its deal, its seating, the bots' seeds) follows from the tournament seed and g alone, whatever --jobs.
 *
 * A game ends normally, or by a forfeit: an external bot that crashes, hangs past its time limit, prints a line
 * that is not a protocol message, or answers an action that is not legal forfeits the game at once. The forfeiting
 * seat gets return 0 and loses to every other seat; the other seats share the win (return 1/(P-1) each) and tie
 * among themselves. The result line says why, with the tail of the bot's stderr; the process is killed and a new
 * one is started for its next game.
 *
 * Each finished game is one JSON line appended to the results file (--out; the library's results format,
 * stpete_results_*), written with one write() and flushed, so a tournament that is killed loses no finished game; a
 * run holds an exclusive lock on the file, so a second run on it is refused. --resume reads the file through the
 * library, which checks that it is this tournament's and replays each game's record (its actions): every field of
 * a line is checked against the game it proves, and only the missing games are played.
 *
 * A tool, not part of the library: POSIX (pthreads, posix_spawn, poll). Its modules, one role each:
 *   schedule.c  participants, seatings, the tournament's definition, the worker threads that play games;
 *   protocol.c  an external bot's process: spawn, lines and deadlines, forfeits, kill; --trivial-bot;
 *   results.c   the table of results, the results file (--out) and its reading back (--resume), records;
 *   ratings.c   the summary: crosstable, ratings, mean VP, --json;
 *   main.c      options, --help, --bench, main.
 * The state of a run is one struct, arena, which main() owns and passes to the modules; the only variable outside it
 * is main.c's signal flag, an atomic, which the arena points to. This header is internal to the program (not
 * installed). */
#ifndef STPETE_TOOLS_ARENA_H
#define STPETE_TOOLS_ARENA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>
#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "cli.h"

#define PROTOCOL_VERSION 2 /* doc/protocol.md: 2 sends the seed as a string; a bot that answers 1 gets version 1 */
#define PROTOCOL_OLDEST 1
#define MAX_PARTICIPANTS 8
#define MAX_SEATINGS 5040 /* 8 * 7 * 6 * 5 (8 participants, 4 seats) */
#define MAX_LINE (1 << 20)
#define STDERR_TAIL 1024

/* One entry of --bots / --bot: a library bot or an external program (schedule.c). */
typedef struct participant {
    char spec[290];                 /* the spec as given */
    char label[300];                /* the spec, with #k for its k-th entry in the list */
    int external;                   /* a cmd: program */
    char canon[STPETE_BOT_SPEC_MAX]; /* a library bot's canonical spec */
    char *cmd;                      /* the command line of a cmd: spec */
    char **argv;                    /* its words */
    char name[128];                 /* the name it gave in its first handshake, or "" */
} participant;

/* The tournament: options, participants, seatings and the definition that decides every game (schedule.c). */
typedef struct config {
    cli_options options; /* the game's options (players, edition, the New Society, ...: the library's table) */
    int players;         /* options.opts.players */
    int jobs, resume, bench, quiet, games_given;
    long games;
    uint64_t seed;
    long time_ms, start_ms;
    const char *json_path, *record_dir, *out_path;
    participant parts[MAX_PARTICIPANTS];
    int nparts;
    stpete_game *game;
    /* seatings: seat -> participant */
    int (*seatings)[STPETE_MAX_PLAYERS];
    int nseatings;
    char hash[17];
    char *definition; /* the canonical definition, as a JSON text */
} config;

/* An external bot's process and our ends of its pipes (protocol.c). */
typedef struct proc {
    const config *cfg;        /* the tournament: time limits, the game (set by worker_init(), kept by proc_start()) */
    const atomic_int *stop;   /* the arena's stop flag: a read gives up when it is set */
    pid_t pid;          /* 0 when not running */
    int in, out, err;   /* our ends: its stdin, stdout, stderr */
    char *buf;          /* stdout bytes not yet consumed */
    size_t len, cap;
    char tail[STDERR_TAIL]; /* the last bytes of its stderr, a ring */
    size_t tail_pos, tail_len;
    int eof;
    size_t line_len;    /* bytes of the last line proc_read_line() returned (it may hold NUL bytes) */
    char name[128];
    int protocol;       /* the version its hello asked for (PROTOCOL_OLDEST..PROTOCOL_VERSION) */
    double rt_sum;      /* protocol round trips (request written to reply read), seconds */
    long rt_n;
} proc;

/* Why a game was forfeited (protocol.c; written to the results file by results.c). */
typedef struct failure {
    char reason[32];  /* crash, timeout, garbage, illegal, handshake */
    char detail[300];
    char stderr_tail[STDERR_TAIL + 1];
} failure;

/* One game's row in the table of results (results.c; read by ratings.c). */
typedef struct result {
    int done;
    int seating;
    int vp[STPETE_MAX_PLAYERS];
    double ret[STPETE_MAX_PLAYERS];
    int forfeit_seat; /* -1: none */
    int actions;
    int decisions[STPETE_MAX_PLAYERS]; /* each seat's actions */
    double time_ms[STPETE_MAX_PLAYERS]; /* each seat's thinking time */
    char reason[32];
} result;

/* One run of the tournament: its definition and everything that changes while it runs. main() owns it and passes it
 * to every module; once the workers run, the members from mtx on (and cfg.parts[].name) are read and written under
 * mtx only, cfg otherwise read only. */
typedef struct arena {
    config cfg;
    atomic_int *stop;   /* set by SIGINT/SIGTERM (main.c's signal flag), read by the workers */
    pthread_mutex_t mtx;
    result *results;    /* the table of results, one row per game (results.c) */
    long results_cap;
    int out_fd;         /* the results file (--out), or -1 */
    long next_game, games_done, games_todo; /* the next game to look at, games played, games to play */
    double t_start;     /* when the games started (now_s()) */
    int tty;            /* standard error is a terminal: progress as a bar */
} arena;

/* A thread that plays games: its own state, library bots and external bots' processes (schedule.c). */
typedef struct worker {
    arena *a;
    stpete_state *st;
    stpete_bot *bots[MAX_PARTICIPANTS];
    proc procs[MAX_PARTICIPANTS][STPETE_MAX_PLAYERS]; /* per participant, per occurrence in a game */
    int *ids;
    size_t nids, capids;
    pthread_t thread;
} worker;

#define PROGRAM "stpete-arena" /* the program's name in messages */

/* ---- functions ----------------------------------------------------------------------------------- */

/* util.c */
/* splitmix64's output function: the seeds of deals and bots are mixed with it. */
uint64_t splitmix(uint64_t x);
/* Three words mixed into one seed (e.g. tournament seed, purpose, game). */
uint64_t mix3(uint64_t a, uint64_t b, uint64_t c);
/* The monotonic clock, in seconds. */
double now_s(void);
/* Print "stpete-arena: MESSAGE" on stderr and exit with code (1 system error, 2 bad options). */
void die(int code, const char *fmt, ...);
/* calloc that dies on out of memory; xstrdup likewise. */
void *xmalloc(size_t n);
char *xstrdup(const char *s);
/* open() of a file the arena writes or reads (results, records, --json): close-on-exec, so that no bot inherits it,
 * and never through a symbolic link in its last component (a link planted at the name fails with ELOOP); mode
 * 0666 for O_CREAT. open_why(errno) says why it failed, a planted link by name. */
int open_file(const char *path, int flags);
const char *open_why(int err);
/* schedule.c */
/* Add one bot spec (a library bot's spec or cmd:PROGRAM ARGS) to c; dies (exit 2) on a bad one. */
void add_participant(config *c, const char *spec);
/* Add every spec of a comma-separated --bots list. */
void add_list(config *c, const char *list);
/* Check the library bots' specs against the game, and label repeated entries. */
void check_participants(config *c);
/* The seatings: every ordered choice of P distinct participants when N >= P; otherwise every distinct
 * arrangement of the list repeated to P entries (A,B over 3 seats: A B A, so A A B, A B A, B A A). */
void make_seatings(config *c);
/* The definition of the tournament (what decides each game's play), as canonical JSON, and its hash. The number
 * of games is not part of it: a tournament can be resumed with more games. */
void make_definition(config *c);
/* Play game g (its deal, seating and seeds follow from the tournament and g alone) with w's state and bots, and
 * record its result (table, results file, record). */
void play_game(worker *w, long g);
/* A worker thread (arg: its worker): plays the next game not done until none is left or a stop is requested. */
void *worker_main(void *arg);
/* A worker of arena a: its state and library bots (dies on failure); worker_free() quits its external bots and
 * frees it. */
void worker_init(worker *w, arena *a);
void worker_free(worker *w);
/* protocol.c */
/* The stderr tail as printable ASCII (other bytes become '?'), so that it is valid JSON text. */
void tail_get(const proc *p, char *out);
/* Whether the bot's main process has ended, without reaping it: while it is a zombie its pid, which is also its
 * process group's id, cannot be reused, so the group can still be killed safely. */
int proc_exited(const proc *p);
/* The bot's life ends (it exited, or it is killed): SIGKILL to its whole process group, the group the arena made it
 * the leader of at spawn (so the children it forked die with it, also when it exited by itself), then reap it and
 * close our ends. Returns its wait status. */
int proc_reap(proc *p);
/* Kill the bot (its whole process group) if it runs. */
void proc_kill(proc *p);
/* Ask the bot to quit (doc/protocol.md), then reap it. */
void proc_quit(proc *p);
/* Write a whole line to the bot. 0, or -1 with f set (a "crash"). */
int proc_send(proc *p, const char *line, size_t len, failure *f);
/* Drain whatever stderr the bot wrote, without waiting. */
void proc_drain_err(proc *p);
/* Start a bot and shake hands within --start-ms. 0, or -1 with f set (the process is then gone). */
int proc_start(proc *p, participant *part, failure *f);
/* Each external bot started once before the games: one that exits before its hello stops the arena (status 2). */
void probe_external(config *c, const atomic_int *stop);
/* No descriptor but its three pipes reaches a bot (doc/protocol.md). Called once at the start, before any thread:
 * every descriptor above 2 the arena inherited (a shell's 7</etc/hostname, a CI runner's) becomes close-on-exec
 * (close_range(CLOSE_RANGE_CLOEXEC), else each one up to sysconf(_SC_OPEN_MAX)); the arena opens its own files and
 * pipes close-on-exec; and where the C library has posix_spawn_file_actions_addclosefrom_np() the child also
 * closes every descriptor above 2 before exec. */
void cloexec_inherited(void);
/* Bots' descendants that left their bot's process group (setsid, setpgid) escape the group kill. On Linux the
 * arena is a child subreaper (PR_SET_CHILD_SUBREAPER): when such a process's parent dies it becomes the arena's
 * child instead of init's, and at the end of the tournament, once every bot has been reaped, every process still
 * the arena's child is one of them: killed (SIGKILL) and reaped, with any it adopts meanwhile, for up to 5 s. So no
 * process of a bot outlives the arena; until then they live on. Elsewhere they are not tracked. */
void become_subreaper(void);
/* At the end: kill and reap every process the arena adopted (become_subreaper()), for up to 5 s. */
void kill_adopted(void);
/* Choose with a cmd: bot: send the request, read and check the reply. 0, or -1 with f set. */
int external_choose(proc *p, const stpete_state *st, int seat, long req, int *action, failure *f);
/* --trivial-bot: an external bot that answers the first legal action of each request (doc/protocol.md). */
int trivial_bot(void);
/* results.c */
/* The table of results holds at least n games (new rows zero: not done). */
void grow_results(arena *a, long n);
/* A forfeit on standard error: the game, the seat and bot, the reason and detail, and the last lines of the bot's
 * standard error (at most 5). Called with the mutex held. */
void report_forfeit(const arena *a, long g, int seat, const char *bot, const failure *f);
/* The progress line on stderr (a bar on a terminal, every tenth otherwise). Called with the mutex held. */
void progress(const arena *a);
/* An option's value as JSON, by its type in the library's table (a boolean, an integer, a word, the seats or null
 * for random); NULL for an option the library does not have (util.c). */
json_t *arena_option_json(const stpete_options *o, const stpete_option_info *in);

/* Append a line (newline included) to the results file, if any, with one write(), so that a killed tournament
 * never leaves half a line behind another game's. */
void append_line(const arena *a, const char *line, size_t len);
/* A JSON array of v[0..n) (new reference). */
json_t *int_array(const int *v, int n);
/* A game's "result" object: scores, winners, returns, finished (new reference). */
json_t *result_json(const stpete_state *st, const int *vp, const double *ret, int P);
/* The results file's line of game g (newline included): its deal's seed and actions as the game's replay record,
 * and the arena's fields, through the library (stpete_results_game_to_json()). Returns malloc'd text and its
 * length; dies out of memory. */
char *results_line(const config *c, long g, uint64_t deal, const int *ids, size_t n, json_t *fields, size_t *len);
/* Write game g's replay record (stpete_replay_to_json()) to --record DIR/game-NNNNNN.json; a failure is reported,
 * not fatal. */
void write_record(const config *c, uint64_t deal, const int *ids, size_t n, long g);
/* Read the results file of a tournament to resume: its header must be this tournament's, and every game line must
 * prove its game (the library replays its record) and carry that game's fields. A bad line is refused with its
 * number (exit 2), the file unchanged; blank lines are skipped; a last line cut short by a kill is dropped (and cut
 * from the file). */
long read_results(arena *a, const char *path);
/* ratings.c */
/* Print the crosstable, ratings and mean VP of the games done (stdout), and write --json FILE. */
void summary(const arena *a);
/* How the seats are filled, one sentence ("2 bots for 3 seats, the list repeated to fill them (...): ..."). */
void seating_sentence(const config *c, char *line, size_t cap);

#endif
