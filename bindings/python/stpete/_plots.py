"""Plots of :mod:`stpete.experiment` (``--plot DIR``): matplotlib with the Agg backend, imported only here.

- ``winrate``: win share per arm and seat with 95% intervals (1/N for equal seats);
- ``vp``: final VP per arm: the distribution of every seat's score of every game as a light violin, and over it
  the scores of each bot kind as points with the kind's own marker (at most 400 per arm and kind, evenly spread
  over the games) and its mean as a larger marker; a legend names the markers;
- ``cards``: per arm, the card types of which the winners' final displays hold more copies on average than the
  losers' of the same games (green, up to 8) and those they hold fewer of (red, up to 6).

Each is written as PNG and SVG, each file through a private temporary file renamed over its name (a link planted
at the name is not followed: :func:`stpete._files.write_replacing`).

This module draws what :mod:`stpete.experiment` computed and does not import it (the runner calls
:func:`pyplot` before any game, then :func:`draw`; :func:`stpete.experiment.plot` is the entry point from rows).
"""
import os

from ._files import write_replacing

__all__ = ["pyplot", "draw"]


def pyplot():
    """matplotlib.pyplot with the Agg backend (no display needed). Raises ImportError when matplotlib cannot be
    imported."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(fig, outdir, name, files):
    for ext in ("png", "svg"):
        path = os.path.join(outdir, f"{name}.{ext}")
        # no date in the SVG: the same rows give the same file
        write_replacing(path, lambda f: fig.savefig(f, format=ext, dpi=100,
                                                    metadata={"Date": None} if ext == "svg" else None),
                        binary=True)
        files.append(path)


def draw(arms, tally, summary, outdir):
    """Write the three plots into ``outdir`` (created if missing) and return the paths written. ``arms``: the
    experiment's :class:`~stpete.experiment.Arm` list; ``tally``: its :class:`~stpete.experiment.Tally` (``data``
    and ``games(arm)`` are read); ``summary``: :func:`stpete.experiment.summarize` of them. Raises ImportError
    without matplotlib, OSError when a file cannot be written."""
    plt = pyplot()
    os.makedirs(outdir, exist_ok=True)
    files = []

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

    # VP per arm: a violin of every seat, and each bot kind's points with its own marker
    fig, ax = plt.subplots(figsize=(7, 4))
    data, kinds = [], []
    for arm in arms:
        d, games = tally.data[arm.name], tally.games(arm.name)
        data.append([d["vp"][s][g] for g in games for s in range(arm.players)] or [0])
        for kind in (b.split(":")[0] for b in arm.bots[:arm.players]):
            if kind not in kinds:
                kinds.append(kind)
    parts = ax.violinplot(data, showmedians=False, showextrema=False, widths=0.9)
    for body in parts["bodies"]:
        body.set_facecolor("0.85")
        body.set_edgecolor("0.6")
        body.set_alpha(1)
    markers = dict(zip(kinds, "os^Dvx*P"))
    colours = dict(zip(kinds, ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
                               "tab:pink", "tab:olive")))
    for i, arm in enumerate(arms, 1):
        d, games = tally.data[arm.name], tally.games(arm.name)
        present = [k for k in kinds if any(b.split(":")[0] == k for b in arm.bots[:arm.players])]
        for j, kind in enumerate(present):
            vps = [d["vp"][s][g] for g in games for s in range(arm.players) if arm.bots[s].split(":")[0] == kind]
            if not vps:
                continue
            step = max(1, len(vps) // 400)
            shown = vps[::step]
            x0 = i + (j - (len(present) - 1) / 2) * 0.22
            xs = [x0 + ((k * 0.618034) % 1 - 0.5) * 0.16 for k in range(len(shown))]  # spread, deterministic
            ax.scatter(xs, shown, s=9, marker=markers[kind], color=colours[kind], alpha=0.35, linewidths=0.6)
            ax.scatter([x0], [sum(vps) / len(vps)], s=90, marker=markers[kind], color=colours[kind],
                       edgecolors="black", linewidths=0.8, zorder=3)
    handles = [plt.Line2D([], [], linestyle="", marker=markers[k], color=colours[k], markersize=7, label=k)
               for k in kinds]
    ax.legend(handles=handles, title="bot (large: mean)", fontsize="small", title_fontsize="small")
    ax.set_xticks(range(1, len(arms) + 1))
    ax.set_xticklabels([a.name for a in arms])
    ax.set_ylabel("final VP (every seat)")
    ax.set_title("Final VP per arm and bot")
    fig.tight_layout()
    _save(fig, outdir, "vp", files)
    plt.close(fig)

    # cards: winners minus losers, mean copies in the final display
    fig, axes = plt.subplots(1, len(arms), figsize=(4.5 * len(arms), 5), squeeze=False)
    for ax, arm in zip(axes[0], arms):
        win, lose = tally.data[arm.name]["cards"]
        nwin, nlose = tally.data[arm.name]["seats"]
        diff = {c: win[c] / max(nwin, 1) - lose[c] / max(nlose, 1) for c in set(win) | set(lose)}
        more = sorted((c for c in diff if diff[c] > 0), key=lambda c: (-diff[c], c))[:8]
        fewer = sorted((c for c in diff if diff[c] < 0), key=lambda c: (diff[c], c))[:6]
        top = fewer[::-1] + more[::-1]  # bottom to top: the most "fewer" lowest, the most "more" highest
        ax.barh(top, [diff[c] for c in top], color=["tab:green" if diff[c] > 0 else "tab:red" for c in top])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(arm.name, fontsize="medium")
        ax.set_xlabel("mean copies in display: winners − losers")
        ax.tick_params(axis="y", labelsize="small")
    handles = [plt.Rectangle((0, 0), 1, 1, color="tab:green", label="more"),
               plt.Rectangle((0, 0), 1, 1, color="tab:red", label="fewer")]
    fig.legend(handles=handles, loc="upper right", fontsize="small")
    fig.suptitle("Cards the winners had more of, and fewer of, than the losers")
    fig.tight_layout()
    _save(fig, outdir, "cards", files)
    plt.close(fig)
    return files
