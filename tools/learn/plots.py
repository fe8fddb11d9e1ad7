"""The learning curves of a training run (learn.py --report): one panel per family, the cross-entropy on the
training and the held-out games per epoch, with the integer network's held-out loss; and choose.py's data curve
(data_curve). matplotlib (Agg). python3 tools/learn/plots.py CHOOSE_JSON PNG [GAMES LOSS] draws the data curve."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend)


def learning_curves(report, path):
    families = list(report["families"].items())
    fig, axes = plt.subplots(1, len(families), figsize=(5.5 * len(families), 4), squeeze=False)
    for ax, (family, r) in zip(axes[0], families):
        curve = r["curve"]
        epochs = [c["epoch"] for c in curve]
        ax.plot(epochs, [c["train_loss"] for c in curve], "o-", label="training games")
        ax.plot(epochs, [c["val_loss"] for c in curve], "s-", label="held-out games")
        ax.axhline(r["int_val_loss"], color="grey", ls=":", label=f"integer network, held out ({r['int_val_loss']:.3f})")
        refs = r["references"]
        ax.axhline(refs["uniform"], color="k", lw=0.5, ls="--", label=f"uniform guess ({refs['uniform']:.3f})")
        ax.axhline(refs["hand_made"], color="tab:red", lw=0.8, ls="-.",
                   label=f"hand-made evaluation ({refs['hand_made']:.3f})")
        ax.set_title(f"{family.replace('_', ' ')}: {r['selfplay']['games']} self-play games")
        ax.set_xlabel("epoch")
        ax.set_ylabel("cross-entropy of the returns (nats)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def data_curve(choice, path, full=None):
    """choose.py's measurements (its --json): the held-out loss of the network against the number of training
    games (log scale), with the candidates' losses at the full data and the references. `full`: (games, loss) of
    the committed run, added to the curve."""
    rows = sorted(choice["data_curve"], key=lambda r: r["training_games"])
    points = [(r["training_games"], r["val_loss"]) for r in rows] + ([full] if full else [])
    points.sort()
    fig, ax = plt.subplots(figsize=(6.5, 4))
    ax.plot([p[0] for p in points], [p[1] for p in points], "o-", label="64 hidden units, held out")
    for c in choice["candidates"]:
        label = "linear" if c["candidate"] == "linear" else f"{c['candidate']} hidden units"
        ax.plot([points[-1][0]], [c["val_loss"]], "x", ms=8, label=f"{label} ({c['val_loss']:.3f})")
    refs = choice["references"]
    ax.axhline(refs["uniform"], color="k", lw=0.5, ls="--", label=f"uniform guess ({refs['uniform']:.3f})")
    ax.axhline(refs["hand_made"], color="tab:red", lw=0.8, ls="-.",
               label=f"hand-made evaluation ({refs['hand_made']:.3f})")
    ax.set_xscale("log", base=2)
    ax.set_xticks([p[0] for p in points])
    ax.set_xticklabels([str(p[0]) for p in points])
    ax.set_xlabel("training games (base game: 2-4 players, both editions)")
    ax.set_ylabel("held-out cross-entropy of the returns (nats)")
    ax.set_title(f"{choice['family'].replace('_', ' ')}: more games, lower loss")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    import json
    import sys

    with open(sys.argv[1]) as fh:
        data_curve(json.load(fh), sys.argv[2], (int(sys.argv[3]), float(sys.argv[4])) if len(sys.argv) > 4 else None)
