"""The learning curves of a training run (learn.py --report): one panel per family, the cross-entropy on the
training and the held-out games per epoch, with the integer network's held-out loss. matplotlib (Agg)."""
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
