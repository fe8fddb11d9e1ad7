#!/usr/bin/env python3
"""Rule experiments from Python: play many games of Saint Petersburg with given bots and rule options in parallel
processes, and print the win rate and mean final score per seat with 95% confidence intervals.

    python3 examples/python/experiment.py --games 10000 --players 4 --bots random
    python3 examples/python/experiment.py --games 2000 --players 3 --bots greedy,random --pub-cap per-player

Game g uses seed S + g for the deal, and its bots draw from a PRNG seeded with S + g too, so a run is reproducible
whatever the number of processes. A shared win (§8, R14) counts 1/k for each of its k winners. Needs only the
standard library and libstpete (found as the binding describes: STPETE_LIBRARY, the package, a build directory,
the system); run from a source tree after `meson compile -C build`, with PYTHONPATH=bindings/python.
"""
import argparse
import math
import multiprocessing
import os
import random
import sys
import time

try:
    import stpete
except ImportError:  # running from a source tree without PYTHONPATH
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python"))
    import stpete


# ---- bots: choose(state, ids, rng) -> one of ids --------------------------------------------------------

class RandomBot:
    """Uniform among the legal actions."""
    name = "random"

    def __init__(self, game):
        pass

    def choose(self, state, ids, rng):
        return ids[int(rng() * len(ids))]


class GreedyBot:
    """One-step lookahead: the action whose resulting position has the best projected final score for the acting
    seat (final scoring as if the game ended now, §8, plus the display's income over the rounds that probably
    remain, rubles at a quarter VP), like stpete-selfplay's greedy bot."""
    name = "greedy"

    def __init__(self, game):
        self.scratch = game.new_state()
        self.income = [(c.info.vp, c.info.rubles) for c in stpete.Card]

    def evaluate(self, st, seat):
        score = st.score(seat)
        if st.is_terminal:
            return score.total
        rounds_left = 1.0 + min(st.stack_sizes) / 6.0
        vp = r = 0
        for card in st.display(seat):
            v, rub = self.income[card]
            vp += v
            r += rub
        return score.total + rounds_left * (vp + r / 4.0) + score.rubles / 4.0

    def choose(self, state, ids, rng):
        if len(ids) == 1:
            return ids[0]
        seat = state.current_player
        scratch = self.scratch
        best, best_value = ids[0], -math.inf
        for a in ids:
            scratch.copy_from(state)
            scratch.apply(a)
            v = self.evaluate(scratch, seat)
            if v > best_value + 1e-9:
                best, best_value = a, v
        return best


BOTS = {bot.name: bot for bot in (RandomBot, GreedyBot)}


# ---- running games ---------------------------------------------------------------------------------------

def play_chunk(job):
    """Play games [first, first + count) and return sums per seat (wins, scores, squared scores, moves)."""
    first, count, seed, players, bot_names, rule_options = job
    game = stpete.Game(players=players, seed=seed, **rule_options)
    state = game.new_state()
    bots = [BOTS[name](game) for name in bot_names]
    wins = [0.0] * players
    win_sq = [0.0] * players
    score_sum = [0.0] * players
    score_sq = [0.0] * players
    moves = shared = 0
    legal = state.legal_action_ids
    apply = state.apply
    for g in range(first, first + count):
        game_seed = seed + g
        state.reset(game_seed)
        rng = random.Random(game_seed).random
        while True:
            ids = legal()
            if not ids:
                break
            apply(bots[state.current_player].choose(state, ids, rng))
            moves += 1
        winners = state.winners
        if len(winners) > 1:
            shared += 1
        for s in winners:
            share = 1.0 / len(winners)
            wins[s] += share
            win_sq[s] += share * share
        for s, total in enumerate(state.final_scores):
            score_sum[s] += total
            score_sq[s] += total * total
    state.close()
    game.close()
    return count, moves, shared, wins, win_sq, score_sum, score_sq


def mean_ci(total, total_sq, n):
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="players per game (default 4)")
    p.add_argument("--bots", default="random",
                   help=f"comma-separated bots repeated over the seats: {', '.join(BOTS)} (default random)")
    p.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                   help="worker processes (default: the number of CPUs)")
    p.add_argument("--seed", type=int, default=1, help="seed of game 0; game g uses seed + g (default 1)")
    p.add_argument("--pub-cap", choices=("per-pub", "per-player"), default="per-pub",
                   help="Pub cap, §7.2 R10 (default per-pub)")
    p.add_argument("--tie-break", choices=("mod10", "total"), default="mod10",
                   help="tie-break, §8 R14: rubles mod 10 or total rubles (default mod10)")
    p.add_argument("--public-rubles", action="store_true", help="rubles are public information (§9)")
    p.add_argument("--public-hands", action="store_true", help="hand cards are public information (§9)")
    args = p.parse_args(argv)
    names = args.bots.split(",")
    unknown = [n for n in names if n not in BOTS]
    if unknown or not args.bots:
        p.error(f"unknown bot(s) {', '.join(unknown)}; choose from {', '.join(BOTS)}")
    if args.games < 1 or args.processes < 1:
        p.error("--games and --processes must be at least 1")
    args.seat_bots = [names[s % len(names)] for s in range(args.players)]
    return args


def main(argv=None):
    args = parse_args(argv)
    rule_options = {"pub_cap": args.pub_cap, "tie_break": args.tie_break, "public_rubles": args.public_rubles,
                    "public_hands": args.public_hands}
    processes = min(args.processes, args.games)
    chunks = min(args.games, processes * 8)
    jobs = []
    first = 0
    for c in range(chunks):
        count = args.games // chunks + (1 if c < args.games % chunks else 0)
        jobs.append((first, count, args.seed, args.players, args.seat_bots, rule_options))
        first += count
    start = time.perf_counter()
    if processes == 1:
        results = list(map(play_chunk, jobs))
    else:
        with multiprocessing.Pool(processes) as pool:
            results = pool.map(play_chunk, jobs)
    elapsed = time.perf_counter() - start

    n = args.players
    games = sum(r[0] for r in results)
    moves = sum(r[1] for r in results)
    shared = sum(r[2] for r in results)
    sums = [[sum(r[k][s] for r in results) for s in range(n)] for k in range(3, 7)]
    wins, win_sq, score_sum, score_sq = sums
    print(f"libstpete {stpete.version()}: {games} games, {n} players, bots {','.join(args.seat_bots)}, "
          f"seeds {args.seed}..{args.seed + games - 1}")
    print(f"rule options: pub cap {args.pub_cap}, tie-break {args.tie_break}, public rubles "
          f"{'yes' if args.public_rubles else 'no'}, public hands {'yes' if args.public_hands else 'no'}")
    print(f"mean moves per game: {moves / games:.1f}; shared wins: {shared} ({100.0 * shared / games:.2f}%)")
    print("seat  bot     win rate (95% CI)     mean score (95% CI)")
    for s in range(n):
        w, w_ci = mean_ci(wins[s], win_sq[s], games)
        m, m_ci = mean_ci(score_sum[s], score_sq[s], games)
        rate = f"{100 * w:5.1f}% ± {100 * w_ci:.1f}%"
        print(f"{s:<5} {args.seat_bots[s]:<7} {rate:<21} {m:6.2f} ± {m_ci:.2f} VP")
    print(f"time: {elapsed:.1f} s with {processes} process{'es' if processes > 1 else ''} "
          f"({games / elapsed:.0f} games/s, {moves / elapsed:.0f} moves/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
