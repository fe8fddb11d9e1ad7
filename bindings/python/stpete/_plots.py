"""Plots of :mod:`stpete.experiment` (``--plot DIR``): matplotlib with the Agg backend, imported only here.

- ``winrate``: win share per arm and seat with 95% intervals (1/N for equal seats);
- ``vp``: the distribution of final VP per arm (every seat's score of every game), as violins with the median;
- ``cards``: per arm, the card types whose mean copies in the final display differ most between the winners and
  the losers of the same games (winners minus losers).

Each is written as PNG and SVG.
"""
import os

__all__ = ["plot"]


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        from .experiment import ExperimentError
        raise ExperimentError("--plot needs matplotlib (Debian: apt-get install python3-matplotlib)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(fig, outdir, name, files):
    for ext in ("png", "svg"):
        path = os.path.join(outdir, f"{name}.{ext}")
        # no date in the SVG: the same rows give the same file
        fig.savefig(path, dpi=100, metadata={"Date": None} if ext == "svg" else None)
        files.append(path)


def plot(exp, rows, outdir):
    """Write the three plots for the experiment ``exp`` (:class:`~stpete.experiment.Experiment`) from its rows
    (a list, or a :class:`~stpete.experiment.Tally`) into ``outdir`` (created); returns the paths written."""
    from .experiment import _tally_of, summarize
    plt = _pyplot()
    os.makedirs(outdir, exist_ok=True)
    files = []
    arms = exp.arms
    tally = _tally_of(rows, arms)
    summary = summarize(tally, arms)

    # win share per arm and seat
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(arms)
    seats = max(a.players for a in arms)
    for i, arm in enumerate(arms):
        s = summary[arm.name]["seats"]
        xs = [seat + (i - (len(arms) - 1) / 2) * width for seat in range(arm.players)]
        ax.bar(xs, [r["win"][0] for r in s], width, yerr=[r["win"][1] for r in s], capsize=3,
               label=f"{arm.name} ({summary[arm.name]['games']} games)")
    ax.set_xticks(range(seats))
    labels = []
    for seat in range(seats):
        kinds = {a.bots[seat].split(":")[0] for a in arms if seat < a.players}
        labels.append(f"seat {seat}" + (f"\n{kinds.pop()}" if len(kinds) == 1 else ""))
    ax.set_xticklabels(labels)
    ax.set_ylabel("win share (95% interval)")
    ax.set_title("Win share per arm and seat")
    ax.legend(fontsize="small")
    fig.tight_layout()
    _save(fig, outdir, "winrate", files)
    plt.close(fig)

    # VP distribution per arm
    fig, ax = plt.subplots(figsize=(7, 4))
    data = []
    for arm in arms:
        d, games = tally.data[arm.name], tally.games(arm.name)
        data.append([d["vp"][s][g] for g in games for s in range(arm.players)] or [0])
    ax.violinplot(data, showmedians=True)
    ax.set_xticks(range(1, len(arms) + 1))
    ax.set_xticklabels([a.name for a in arms])
    ax.set_ylabel("final VP (every seat)")
    ax.set_title("Final VP per arm")
    fig.tight_layout()
    _save(fig, outdir, "vp", files)
    plt.close(fig)

    # cards: winners minus losers, mean copies in the final display
    fig, axes = plt.subplots(1, len(arms), figsize=(4.5 * len(arms), 5), squeeze=False)
    for ax, arm in zip(axes[0], arms):
        win, lose = tally.data[arm.name]["cards"]
        nwin, nlose = tally.data[arm.name]["seats"]
        diff = {c: win[c] / max(nwin, 1) - lose[c] / max(nlose, 1) for c in set(win) | set(lose)}
        top = sorted(diff, key=lambda c: (-abs(diff[c]), c))[:12][::-1]
        ax.barh(top, [diff[c] for c in top], color=["tab:green" if diff[c] > 0 else "tab:red" for c in top])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(arm.name, fontsize="medium")
        ax.set_xlabel("copies in display: winners − losers")
        ax.tick_params(axis="y", labelsize="small")
    fig.suptitle("Cards the winners had more of than the losers")
    fig.tight_layout()
    _save(fig, outdir, "cards", files)
    plt.close(fig)
    return files
