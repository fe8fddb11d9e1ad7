#!/usr/bin/env python3
"""The measurements that chose the network (doc/learning.md): candidate models trained on the same self-play data
(learn.py --data-dir) and compared on the held-out games, and the held-out loss against the number of training games
(a learning curve in the data: would more games help?).

Usage: PYTHONPATH=bindings/python STPETE_LIBRARY=build/libstpete.so.1 /usr/bin/python3 tools/learn/choose.py \\
           --data-dir DIR --family base [--games N] [--candidates linear,16,32,64,64td] [--fractions 0.25,0.5,1]
           [--epochs E] [--json FILE]

A candidate is `linear` (softmax regression on the same inputs), a hidden-layer size (the network of
lib/bots/bot_value.h), optionally with `td` (TD(0.7) targets). Each is trained as learn.py trains (train.train, the
best held-out epoch), and its integer form's held-out loss is measured too. The data folder must hold the family's
self-play data of learn.py with the same --games, --data-bot, --seed and --stride (their defaults are learn.py's).
"""
import argparse
import json
import sys
import time

import numpy as np
import torch

import selfplay
import train


class Linear(torch.nn.Module):
    """Softmax regression on the scaled inputs: the reference without a hidden layer."""

    def __init__(self, scale, outputs):
        super().__init__()
        self.register_buffer("scale", torch.tensor(np.asarray(scale, np.float32)))
        self.l = torch.nn.Linear(len(scale), outputs)

    def forward(self, x):
        return self.l(x / self.scale)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--family", default="base", choices=selfplay.FAMILIES)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--data-bot", default="ismcts:iterations=100")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stride", type=int, default=2)
    ap.add_argument("--candidates", default="linear,32,64,64td")
    ap.add_argument("--fractions", default="", help="training-game fractions for the data curve (of the first "
                                                     "candidate that is not linear)")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    f_index = selfplay.FAMILIES.index(args.family)
    data, stats = selfplay.generate_or_load(args.data_dir, args.family, args.games, args.data_bot,
                                            args.seed + 7919 * f_index, args.stride, 1)
    val = data["G"] % 5 == 0
    refs = train.baselines(data, val)
    print(f"{args.family}: {stats['games']} games, {int((~val).sum())} training views; held out: uniform guess "
          f"{refs['uniform']:.4f}, hand-made evaluation {refs['hand_made']:.4f} nats", flush=True)
    rows = []
    original = train.Model
    for cand in args.candidates.split(","):
        t0 = time.process_time()
        td = 0.7 if cand.endswith("td") else None
        if cand == "linear":
            train.Model = lambda scale, hidden, outputs: Linear(scale, outputs)  # noqa: E731
            hidden = 0
        else:
            train.Model = original
            hidden = int(cand.rstrip("td"))
        model, curve = train.train(data, val, hidden or 16, args.epochs, 2e-3, 1e-4, td, args.seed)
        best = min(curve, key=lambda c: c["val_loss"])
        int_val = None
        if cand != "linear":
            net = train.to_int(model, data["X"].shape[1] - 1, train.limits(data["X"][~val]))
            int_val, _ = train.int_loss(net, data, val)
        rows.append({"candidate": cand, "best_epoch": best["epoch"], "val_loss": best["val_loss"],
                     "val_accuracy": best["val_accuracy"], "train_loss": best["train_loss"], "int_val_loss": int_val,
                     "cpu_seconds": time.process_time() - t0})
        print(f"  {cand}: held out {best['val_loss']:.4f} (epoch {best['epoch']}, accuracy "
              f"{best['val_accuracy']:.3f}), integers {int_val if int_val is None else round(int_val, 4)}, "
              f"{rows[-1]['cpu_seconds']:.0f} s CPU", flush=True)
    train.Model = original
    curve_rows = []
    hidden_cands = [c for c in args.candidates.split(",") if c != "linear"]
    for fraction in [float(f) for f in args.fractions.split(",") if f]:
        games = np.unique(data["G"][~val])
        # a random subset of the training games (every configuration in its proportion), the same for a seed
        order = np.random.default_rng(args.seed).permutation(games)
        keep = set(order[:max(1, int(round(fraction * len(games))))].tolist())
        sub = val | np.isin(data["G"], list(keep))
        part = {k: v[sub] for k, v in data.items() if k != "chains"}
        part["chains"] = []
        cand = hidden_cands[0]
        model, curve = train.train(part, part["G"] % 5 == 0, int(cand.rstrip("td")), args.epochs, 2e-3, 1e-4,
                                   None, args.seed)
        best = min(curve, key=lambda c: c["val_loss"])
        curve_rows.append({"fraction": fraction, "training_games": len(keep), "val_loss": best["val_loss"]})
        print(f"  {len(keep)} training games ({fraction:g}): held out {best['val_loss']:.4f}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"family": args.family, "references": refs, "candidates": rows, "data_curve": curve_rows},
                      fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
