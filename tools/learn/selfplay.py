"""Self-play data for the learned evaluation, on the library's OpenSpiel-shaped interface (stpete.openspiel).

A game is played by one library bot per seat (stpete.Bot, e.g. ``ismcts:iterations=200``) on an OpenSpiel state in
sampled-chance mode; at every `stride`-th decision the observation tensor of every seat is kept
(``state.observation_tensor(seat)``: what §9 lets that seat know), and when the game ends each kept tensor gets the
returns of the relative seats (``state.returns()`` rotated: relative seat k is k places after the observer), the
mask of the seats that exist, and the final VP. For comparison it also keeps the hand-made evaluation of each kept
position (``stpete.Bot("greedy").evaluate``: the softmax of the projected scores that ismcts uses at a playout's
cut-off; it reads every seat's rubles, so it is a baseline only). Standard library, NumPy and the binding only.
"""
import json
import multiprocessing
import os
import time

import numpy as np

import stpete
from stpete import openspiel as pyspiel

#: The families, in the order of bot_value_nets (lib/bots/bot_value.h), and their configurations: (players,
#: edition, new_society).
FAMILIES = ("base", "new_society")
FAMILY_CONFIGS = {
    "base": [(p, e, False) for p in (2, 3, 4) for e in (1, 2)],
    "new_society": [(p, 1, True) for p in (2, 3, 4, 5)],
}
OUTPUTS = {"base": 4, "new_society": 5}
#: STPETE_BOT_SEED_SALT (bots.h): the bots of game `seed` play with seed ^ this, as stpete-selfplay's.
BOT_SEED_SALT = 0xB0751E5


def load(players, edition, new_society, seed):
    """The OpenSpiel game of a configuration, its deal from seed."""
    return pyspiel.load_game("stpete", {"players": players, "edition": edition, "new_society": new_society,
                                        "chance_mode": "sampled", "seed": seed})


def inputs(state, seat, edition):
    """The network's inputs for seat (lib/bots/bot_value.c, bot_value_inputs): the observation tensor, then the
    extra input, 1 for the second edition (§11)."""
    return list(state.observation_tensor(seat)) + [1.0 if edition == 2 else 0.0]


def play_game(config, spec, seed, stride, outputs):
    """One game of config (players, edition, new_society) with the bot spec at every seat, the deal and the bots'
    seeds from seed; returns (X, R, M, V, H, decisions) for the kept positions, in order, every seat's view of each
    (H: the hand-made evaluation, relative seats)."""
    players, edition, new_society = config
    game = load(players, edition, new_society, seed)
    state = game.new_initial_state()
    bot = stpete.Bot(spec, game=game.stpete_game)
    bot.set_seed(seed ^ BOT_SEED_SALT)
    baseline = stpete.Bot("greedy", game=game.stpete_game)
    rows, hand_made, decisions = [], [], 0
    offset = seed % stride
    while not state.is_terminal():
        if decisions % stride == offset:
            rows.extend(inputs(state, s, edition) for s in range(players))
            hand_made.append(baseline.evaluate(state.stpete_state))
        state.apply_action(bot.choose_id(state.stpete_state))
        decisions += 1
    returns = state.returns()
    vp = [state.stpete_state.vp(s) for s in range(players)]
    n = len(rows)
    X = np.asarray(rows, np.int16).reshape(n, -1)
    R = np.zeros((n, outputs), np.float32)
    V = np.zeros((n, outputs), np.float32)
    M = np.zeros((n, outputs), bool)
    H = np.zeros((n, outputs), np.float32)
    for i in range(n):
        s = i % players
        for k in range(players):
            R[i, k] = returns[(s + k) % players]
            V[i, k] = vp[(s + k) % players]
            H[i, k] = hand_made[i // players][(s + k) % players]
            M[i, k] = True
    return X, R, M, V, H, decisions


def _work(job):
    config, spec, seed, stride, outputs = job
    t0 = time.process_time()
    result = play_game(config, spec, seed, stride, outputs)
    return config, time.process_time() - t0, result


def _play_config(work, jobs, log, t0, done, total):
    """The games of work (one configuration's jobs), in order, in `jobs` processes."""
    results = []
    step = max(1, total // 10)
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for r in pool.imap(_work, work, chunksize=1):
                results.append(r)
                if (done + len(results)) % step == 0:
                    log(f"    {done + len(results)}/{total} games, {time.time() - t0:.0f} s")
    else:
        for job in work:
            results.append(_work(job))
            if (done + len(results)) % step == 0:
                log(f"    {done + len(results)}/{total} games, {time.time() - t0:.0f} s")
    return results


_PARTS = ("x", "r", "m", "v", "h")


def _config_results(folder, family, index, work, jobs, log, t0, done, total):
    """One configuration's games: played, or read from folder/FAMILY-INDEX.npz when a run with the same jobs kept
    them there (so that a run stopped midway loses at most one configuration's games)."""
    params = json.dumps([list(job[0]) + list(job[1:]) for job in work])
    path = os.path.join(folder, f"{family}-{index}.npz") if folder else None
    if path and os.path.exists(path):
        with np.load(path, allow_pickle=False) as f:
            if str(f["params"]) == params:
                ends = np.cumsum(f["rows"])[:-1]
                parts = [np.split(f[k], ends) for k in _PARTS]
                log(f"    read {path}")
                return [(job[0], float(sec), tuple(p[g] for p in parts) + (int(dec),))
                        for g, (job, sec, dec) in enumerate(zip(work, f["seconds"], f["decisions"]))]
    results = _play_config(work, jobs, log, t0, done, total)
    if path:
        os.makedirs(folder, exist_ok=True)
        np.savez(path, params=params, rows=np.array([len(r[2][0]) for r in results]),
                 seconds=np.array([r[1] for r in results]), decisions=np.array([r[2][5] for r in results]),
                 **{k: np.concatenate([r[2][i] for r in results]) for i, k in enumerate(_PARTS)})
    return results


def generate(family, games_per_config, spec, seed, stride, jobs, log=print, folder=None):
    """Self-play data of a family: games_per_config games of each of its configurations; a dict of arrays (X, R, M,
    V, H: one row per kept view; G: its game's index; P: its seat of view; chains: for each game and seat of view the
    rows in order) and statistics. Game g of configuration i is dealt from seed * 1000003 + 1000 * i + g. With a
    folder, each configuration's games are kept there as they are finished (see _config_results)."""
    outputs = OUTPUTS[family]
    t0 = time.time()
    results = []
    total = games_per_config * len(FAMILY_CONFIGS[family])
    for i, config in enumerate(FAMILY_CONFIGS[family]):
        work = [(config, spec, seed * 1_000_003 + 1000 * i + g, stride, outputs) for g in range(games_per_config)]
        results += _config_results(folder, family, i, work, jobs, log, t0, len(results), total)
    X, R, M, V, H, G, P, chains, decisions, cpu = [], [], [], [], [], [], [], [], 0, 0.0
    row = 0
    for g, (config, seconds, (x, r, m, v, h, d)) in enumerate(results):
        cpu += seconds
        players = config[0]
        X.append(x), R.append(r), M.append(m), V.append(v), H.append(h)
        G.append(np.full(len(x), g)), P.append(np.arange(len(x)) % players)
        for s in range(players):
            chains.append(row + np.arange(s, len(x), players))
        row += len(x)
        decisions += d
    data = {"X": np.concatenate(X), "R": np.concatenate(R), "M": np.concatenate(M), "V": np.concatenate(V),
            "H": np.concatenate(H), "G": np.concatenate(G), "P": np.concatenate(P), "chains": chains}
    stats = {"games": len(results), "decisions": decisions, "rows": row, "seconds": time.time() - t0,
             "cpu_seconds": cpu}
    return data, stats


def generate_or_load(folder, family, games_per_config, spec, seed, stride, jobs, log=print):
    """generate(), or the data a previous call with the same parameters kept in folder/FAMILY.npz (None: no
    folder, always generate)."""
    params = {"family": family, "games_per_config": games_per_config, "spec": spec, "seed": seed, "stride": stride,
              "configs": FAMILY_CONFIGS[family]}
    path = os.path.join(folder, f"{family}.npz") if folder else None
    if path and os.path.exists(path):
        with np.load(path, allow_pickle=False) as f:
            if json.loads(str(f["params"])) == json.loads(json.dumps(params)):
                data = {k: f[k] for k in ("X", "R", "M", "V", "H", "G", "P")}
                ends = np.cumsum(f["chain_lengths"])
                order = f["chain_rows"]
                data["chains"] = np.split(order, ends[:-1])
                stats = json.loads(str(f["stats"]))
                log(f"    read {path}")
                return data, stats
    data, stats = generate(family, games_per_config, spec, seed, stride, jobs, log, folder)
    if path:
        os.makedirs(folder, exist_ok=True)
        np.savez(path, params=json.dumps(params), stats=json.dumps(stats),
                 chain_lengths=np.array([len(c) for c in data["chains"]]),
                 chain_rows=np.concatenate(data["chains"]),
                 **{k: data[k] for k in ("X", "R", "M", "V", "H", "G", "P")})
    return data, stats
