"""Training of the learned evaluation (doc/learning.md) with PyTorch (Debian's python3-torch, CPU).

The model is lib/bots/bot_value.h's network in floating point: x / scale -> Linear(inputs, hidden) -> clamp(0, 1)
-> Linear(hidden, outputs) -> softmax over the game's seats; trained on the cross-entropy between that softmax and
the returns the seats got at the end (1/k for each of k winners), optionally with TD(lambda) targets. to_int() turns
it into export.IntNet (the layer-1 weights divided by the scales, so that the C code reads raw integers).
"""
import math
import time

import numpy as np
import torch

import export


class Model(torch.nn.Module):
    """x (raw integers) -> logits of the relative seats. `scale`: the inputs' divisors (their largest value)."""

    def __init__(self, scale, hidden, outputs):
        super().__init__()
        self.register_buffer("scale", torch.tensor(np.asarray(scale, np.float32)))
        self.l1 = torch.nn.Linear(len(scale), hidden)
        self.l2 = torch.nn.Linear(hidden, outputs)

    def forward(self, x):
        return self.l2(torch.clamp(self.l1(x / self.scale), 0.0, 1.0))


def masked_log_softmax(logits, mask):
    return torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)


def cross_entropy(logits, mask, target):
    """Mean cross-entropy (nats) between the targets and the softmax over the present seats."""
    return -(target * masked_log_softmax(logits, mask)).sum(1).mean()


def td_targets(p, data, lam):
    """TD(lambda) targets along each game and seat's positions (sampled in order): the return at the last one,
    and lambda * target(next) + (1 - lambda) * prediction(next) before it."""
    target = data["R"].copy()
    for idx in data["chains"]:
        z = target[idx[-1]].copy()
        for j in range(len(idx) - 2, -1, -1):
            z = lam * z + (1 - lam) * p[idx[j + 1]]
            target[idx[j]] = z
    return target


def train(data, val, hidden, epochs, lr, weight_decay, td_lambda, seed, log=print, batch=512):
    """Train a Model on data (selfplay.Dataset arrays) with the boolean mask val held out. Returns (model, curve):
    the epoch with the lowest held-out loss, and one dict per epoch (losses in nats, accuracy, seconds)."""
    torch.manual_seed(seed)
    X = data["X"]
    scale = np.maximum(1, np.abs(X[~val]).max(axis=0)).astype(np.float32)
    model = Model(scale, hidden, data["R"].shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    Xt = torch.tensor(X[~val].astype(np.float32))
    Mt = torch.tensor(data["M"][~val])
    Xv, Mv, Rv = (torch.tensor(a) for a in (X[val].astype(np.float32), data["M"][val], data["R"][val]))
    train_index = np.flatnonzero(~val)
    target = torch.tensor(data["R"][~val])
    curve, best, best_state = [], math.inf, None
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        t0 = time.process_time()
        if td_lambda is not None and epoch > 0:
            with torch.no_grad():
                p = torch.softmax(model(torch.tensor(X.astype(np.float32))).masked_fill(
                    ~torch.tensor(data["M"]), -1e9), 1).numpy()
            target = torch.tensor(td_targets(p, data, td_lambda)[train_index])
        model.train()
        perm = torch.randperm(len(Xt), generator=generator)
        for i in range(0, len(Xt), batch):
            idx = perm[i:i + batch]
            opt.zero_grad()
            loss = cross_entropy(model(Xt[idx]), Mt[idx], target[idx])
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            lt = cross_entropy(model(Xt), Mt, torch.tensor(data["R"][~val])).item()
            zv = model(Xv)
            lv = cross_entropy(zv, Mv, Rv).item()
            acc = (zv.masked_fill(~Mv, -1e9).argmax(1) == Rv.argmax(1)).float().mean().item()
        curve.append({"epoch": epoch + 1, "train_loss": lt, "val_loss": lv, "val_accuracy": acc,
                      "seconds": time.process_time() - t0})
        log(f"    epoch {epoch + 1}: train {lt:.4f}, held out {lv:.4f} nats, accuracy {acc:.3f}")
        if lv < best:
            best, best_state = lv, {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    return model, curve


def limits(X):
    """Each input's limit (export.IntNet): twice its largest absolute value in the data, at most 32767; 0 for an
    input that is always 0."""
    top = np.abs(X).max(axis=0).astype(np.int64)
    return np.where(top > 0, np.minimum(2 * top, 32767), 0)


def to_int(model, tensor, limit):
    """The export.IntNet of a trained Model (layer 1 divided by the input scales)."""
    with torch.no_grad():
        w1 = (model.l1.weight / model.scale).numpy().T.astype(np.float64)
        return export.quantize(tensor, limit, w1, model.l1.bias.numpy(), model.l2.weight.numpy().T,
                               model.l2.bias.numpy())


def baselines(data, rows):
    """The held-out cross-entropy (nats) of two references on the rows of data: the uniform guess (1/N each) and
    the hand-made evaluation H (the projected scores' softmax)."""
    players = data["M"][rows].sum(axis=1)
    uniform = float(np.log(players).mean())
    h = np.maximum(data["H"][rows], 1e-12)
    hand_made = float(-(data["R"][rows] * np.log(h) * data["M"][rows]).sum(axis=1).mean())
    return {"uniform": uniform, "hand_made": hand_made}


def int_loss(net, data, rows):
    """Cross-entropy (nats) and accuracy of the integer network on the rows of data, game by game size."""
    total, n, correct = 0.0, 0, 0
    players = data["M"].sum(axis=1)
    for p in np.unique(players[rows]):
        sel = rows & (players == p)
        r = net.returns(data["X"][sel], int(p))
        t = data["R"][sel][:, :p]
        total += float(-(t * np.log(np.maximum(r, 1e-12))).sum())
        correct += int((r.argmax(1) == t.argmax(1)).sum())
        n += int(sel.sum())
    return total / n, correct / n
