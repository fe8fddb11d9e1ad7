#!/usr/bin/env python3
"""Train the learned evaluation of the `learned` bot (doc/learning.md): self-play data, training, export to C.

Usage (from the source tree, with a build of the library; doc/learning.md has the command of the committed weights):

    PYTHONPATH=bindings/python STPETE_LIBRARY=build/libstpete.so.1 /usr/bin/python3 tools/learn/learn.py \\
        [--families base,new_society] [--games N] [--ns-games N] [--data-bot SPEC] [--seed S] [--jobs J] [--out FILE] \\
        [--report DIR] [--smoke]

For each family (the base game in both editions at 2-4 players; the New Society at 2-5), it
  1. plays --games games of each configuration with --data-bot at every seat, through the library's OpenSpiel-shaped
     interface (stpete.openspiel; selfplay.py), keeping every seat's observation tensor at every --stride-th decision
     and the returns at the end;
  2. trains the network of lib/bots/bot_value.h on them with PyTorch (train.py), a fifth of the games held out;
  3. turns it into integers (export.py) and checks the integer network's held-out loss;
then writes both networks with the training record (this command, the seeds, the data sizes, the losses) to --out
(lib/bots/bot_value_data.c: rebuild the library to use it), and with --report DIR the measurements as JSON and the
learning curves as a PNG. A family left out keeps the weights --out already has. --smoke: a run of seconds (a few
games, one epoch), for the test suite. Exit status 0, or 2 for bad arguments.
"""
import argparse
import json
import os
import shlex
import sys
import time

import numpy as np

import export
import selfplay

DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib", "bots",
                           "bot_value_data.c")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--families", default="base,new_society", help="comma-separated: base, new_society")
    ap.add_argument("--games", type=int, default=400, help="self-play games per configuration (default 400)")
    ap.add_argument("--ns-games", type=int, help="the same for the New Society's configurations (default: --games)")
    ap.add_argument("--data-bot", default="ismcts:iterations=100", help="the bot spec of every seat in self-play")
    ap.add_argument("--stride", type=int, default=2, help="keep every STRIDE-th decision's views (default 2)")
    ap.add_argument("--hidden", type=int, default=64, help="hidden units, a multiple of 16 (default 64)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--td", type=float, default=None, help="TD(lambda) targets with this lambda (default: returns)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="self-play processes (default 1)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="the C data file (default lib/bots/bot_value_data.c)")
    ap.add_argument("--data-dir", help="keep the self-play data in this folder (FAMILY.npz) and reuse it when its "
                                       "parameters are the same")
    ap.add_argument("--report", help="a folder for report.json and learning-curves.png")
    ap.add_argument("--smoke", action="store_true", help="a run of seconds: 2 games per configuration, 1 epoch")
    args = ap.parse_args(argv)
    args.families = [f.strip() for f in args.families.split(",") if f.strip()]
    for f in args.families:
        if f not in selfplay.FAMILY_CONFIGS:
            ap.error(f"unknown family {f!r} (base, new_society)")
    if args.hidden <= 0 or args.hidden % 16 or args.hidden > 256:
        ap.error("--hidden must be a multiple of 16 in 16..256")
    if args.smoke:
        args.games, args.ns_games, args.epochs, args.data_bot = min(args.games, 2), None, 1, "ismcts:iterations=10"
    if args.ns_games is None:
        args.ns_games = args.games
    if args.games < 1 or args.ns_games < 1 or args.epochs < 1 or args.stride < 1 or args.jobs < 1:
        ap.error("--games, --epochs, --stride and --jobs must be positive")
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    import torch  # after the arguments: --help works without it
    import train

    torch.set_num_threads(1)
    log = print
    command = "tools/learn/learn.py " + " ".join(shlex.quote(a) for a in argv)
    t_start = time.process_time()
    nets, old_record = export.read_c(args.out) if os.path.exists(args.out) else ([None, None], [])
    report = {"command": command, "seed": args.seed, "families": {}}
    record = [f"command: PYTHONPATH=bindings/python STPETE_LIBRARY=<build>/libstpete.so.1 /usr/bin/python3 {command}",
              f"library {__import__('stpete').__version__}; torch {torch.__version__}; numpy {np.__version__}"]
    for f_index, family in enumerate(selfplay.FAMILIES):
        if family not in args.families:
            if nets[f_index] is None:
                sys.exit(f"learn.py: {args.out} has no {family} network to keep: train it too")
            record += [line for line in old_record if line.startswith(family + ":")]
            continue
        games = args.games if family == "base" else args.ns_games
        log(f"{family}: self-play, {games} games of each of {len(selfplay.FAMILY_CONFIGS[family])} "
            f"configurations, bot {args.data_bot}")
        data, stats = selfplay.generate_or_load(args.data_dir, family, games, args.data_bot,
                                                args.seed + 7919 * f_index, args.stride, args.jobs, log)
        log(f"  {stats['games']} games, {stats['decisions']} decisions, {stats['rows']} views, "
            f"{stats['cpu_seconds']:.0f} s CPU")
        val = data["G"] % 5 == 0
        refs = train.baselines(data, val)
        log(f"{family}: training, {int((~val).sum())} views of {int(len(np.unique(data['G'][~val])))} games "
            f"(held out: {int(val.sum())} of {len(np.unique(data['G'][val]))})")
        t0 = time.process_time()
        model, curve = train.train(data, val, args.hidden, args.epochs, args.lr, args.weight_decay, args.td,
                                   args.seed, log)
        train_seconds = time.process_time() - t0
        tensor = data["X"].shape[1] - 1
        net = train.to_int(model, tensor, train.limits(data["X"][~val]))
        int_val, int_acc = train.int_loss(net, data, val)
        log(f"  integer network: held-out loss {int_val:.4f} nats, accuracy {int_acc:.3f} (uniform guess "
            f"{refs['uniform']:.4f}, hand-made evaluation {refs['hand_made']:.4f})")
        nets[f_index] = net
        best = min(curve, key=lambda c: c["val_loss"])
        report["families"][family] = {"selfplay": stats, "curve": curve, "train_seconds": train_seconds,
                                      "int_val_loss": int_val, "int_val_accuracy": int_acc, "references": refs,
                                      "configs": selfplay.FAMILY_CONFIGS[family]}
        record.append(f"{family}: {stats['games']} games ({games} per configuration) by {args.data_bot}, "
                      f"seed {args.seed + 7919 * f_index}, {stats['decisions']} decisions, {stats['rows']} views "
                      f"(every {args.stride}. decision); {net.inputs}-{net.hidden}-{net.outputs}, "
                      f"{args.epochs} epochs, lr {args.lr}, weight decay {args.weight_decay}, "
                      f"TD {args.td}; best epoch {best['epoch']}: train {best['train_loss']:.4f}, held out "
                      f"{best['val_loss']:.4f} nats (integers {int_val:.4f}, accuracy {int_acc:.3f}; uniform guess "
                      f"{refs['uniform']:.4f}, hand-made evaluation {refs['hand_made']:.4f}); "
                      f"self-play {stats['cpu_seconds']:.0f} s, training {train_seconds:.0f} s CPU")
    report["cpu_seconds_main"] = time.process_time() - t_start
    export.write_c(args.out, nets, record)
    log(f"wrote {args.out}")
    if args.report:
        os.makedirs(args.report, exist_ok=True)
        with open(os.path.join(args.report, "report.json"), "w") as fh:
            json.dump(report, fh, indent=1, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o))
        import plots
        plots.learning_curves(report, os.path.join(args.report, "learning-curves.png"))
        log(f"wrote {args.report}/report.json and learning-curves.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
