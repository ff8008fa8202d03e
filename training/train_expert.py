"""Train the ``expert`` bot's value networks by self-play (numpy; training only).

    .venv/bin/python -m training.train_expert --seed 2026 --jobs 2

(defaults: 2-6 players; 120,000 games with a 32-unit network at two players,
60,000 games with 16 units otherwise; one generation; 6 epochs; writes
``mantis/players/bots/expert_weights.json``).

For every player count:

1. *Play.*  Generation 0 is played by ``greedy`` (fitted weights) with a small
   share ``--epsilon`` of uniformly random moves, so that the data also covers
   positions greedy would avoid; later generations are played by the expert
   with the previous generation's networks (same exploration).  Game ``i`` is
   dealt from ``game_seed(seed, i)`` and the exploration RNG is seeded from the
   game seed, so a run is reproducible from ``--seed`` (whatever ``--jobs``).
2. *Record.*  Before every decision, each seat's ``FEATURES`` (exactly the
   function the bot uses) are stored with the game's winners.
3. *Fit.*  ``u_i = w2 · relu(W1 x_i + b1)`` for each seat, ``P(i wins) =
   softmax(u)_i``; minimise the cross-entropy against the winners (a shared win
   split evenly) with Adam, minibatches, a held-out 5% for reporting.  The
   initialisation and minibatch order come from ``numpy.random.default_rng``
   seeded from ``--seed``.

The networks of all player counts are written to ``--out`` as JSON.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from typing import Any

import numpy as np

from mantis.engine import Game, bot_rng, game_seed
from mantis.players.bots import expert as expert_module
from mantis.players.bots.expert import (
    FEATURES,
    NUM_FEATURES,
    ExpertBot,
    next_card_odds,
    seat_features,
)
from mantis.players.bots.greedy import GreedyBot
from mantis.players.counting import unseen_face_counts


def _features_of(view: Any, pile0: int) -> list[list[float]]:
    n = view.players
    counts = [tuple(map(len, tank)) for tank in view.tanks]
    scores = view.scores
    q = next_card_odds(unseen_face_counts(view.seen), view.pile_size)
    phase = view.pile_size / pile0
    rows = []
    for s in range(n):
        best_other = max(scores[j] for j in range(n) if j != s)
        rows.append(
            seat_features(
                counts[s], scores[s], (s - view.to_move) % n, q, view.target, n, phase, best_other
            )
        )
    return rows


def _play_chunk(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    players, seed, start, stop, epsilon, weights, keep = args
    if weights is None:
        bots = [GreedyBot() for _ in range(players)]
    else:
        bots = [ExpertBot(weights) for _ in range(players)]
    pile0 = 105 - 4 * players
    xs: list[list[list[float]]] = []
    ys: list[list[float]] = []
    for i in range(start, stop):
        gs = game_seed(seed, i)
        game = Game.new(players, gs)
        for s, bot in enumerate(bots):
            if hasattr(bot, "new_game"):
                bot.new_game(s, bot_rng(gs, s))
        explore = random.Random(f"explore:{gs}")
        rows = []
        while not game.over:
            view = game.view()
            if explore.random() < keep:
                rows.append(_features_of(view, pile0))
            if explore.random() < epsilon:
                actions = view.legal_actions()
                action = actions[explore.randrange(len(actions))]
            else:
                action = bots[view.to_move].choose(view)
            game.play(action)
        winners = game.winners
        label = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        xs.extend(rows)
        ys.extend([label] * len(rows))
    return (
        np.asarray(xs, dtype=np.float32).reshape(-1, players, NUM_FEATURES),
        np.asarray(ys, dtype=np.float32).reshape(-1, players),
    )


def generate(
    players: int,
    games: int,
    seed: int,
    epsilon: float,
    weights: dict | None,
    jobs: int,
    keep: float,
) -> tuple[np.ndarray, np.ndarray]:
    step = max(1, games // (jobs * 8))
    chunks = [
        (players, seed, s, min(s + step, games), epsilon, weights, keep)
        for s in range(0, games, step)
    ]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_play_chunk, chunks)
    else:
        parts = [_play_chunk(c) for c in chunks]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def fit(
    x: np.ndarray,
    y: np.ndarray,
    hidden: int,
    epochs: int,
    seed: int,
    lr: float = 3e-3,
    batch: int = 2048,
    init: dict | None = None,
) -> dict[str, Any]:
    """Fit the seat network by softmax cross-entropy; returns JSON-ready weights."""
    rng = np.random.default_rng(seed)
    count, n, f = x.shape
    order = rng.permutation(count)
    hold = max(1, count // 20)
    val_idx, train_idx = order[:hold], order[hold:]
    if init is not None:
        w1 = np.asarray(init["w1"], dtype=np.float64)
        b1 = np.asarray(init["b1"], dtype=np.float64)
        w2 = np.asarray(init["w2"], dtype=np.float64)
    else:
        w1 = rng.normal(0, 1 / np.sqrt(f), (hidden, f))
        b1 = np.zeros(hidden)
        w2 = rng.normal(0, 1 / np.sqrt(hidden), hidden)
    params = [w1, b1, w2]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    t = 0

    def forward(xb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        pre = xb @ w1.T + b1  # (B, n, H)
        act = np.maximum(pre, 0)
        u = act @ w2  # (B, n)
        return pre, act, u

    def loss_of(idx: np.ndarray) -> float:
        total = 0.0
        for s in range(0, len(idx), 65536):
            part = idx[s : s + 65536]
            _, _, u = forward(x[part].astype(np.float64))
            u = u - u.max(axis=1, keepdims=True)
            logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
            total += float(-(y[part] * logp).sum())
        return total / len(idx)

    print(f"  {count} positions, start val loss {loss_of(val_idx):.5f}", flush=True)
    for epoch in range(epochs):
        step_lr = lr * (0.5 ** (epoch / max(1, epochs / 3)))
        perm = rng.permutation(train_idx)
        for s in range(0, len(perm), batch):
            part = perm[s : s + batch]
            xb = x[part].astype(np.float64)
            yb = y[part]
            pre, act, u = forward(xb)
            u = u - u.max(axis=1, keepdims=True)
            prob = np.exp(u)
            prob /= prob.sum(axis=1, keepdims=True)
            du = (prob - yb) / len(part)  # (B, n)
            g_w2 = np.einsum("bn,bnh->h", du, act)
            dact = du[:, :, None] * w2[None, None, :]
            dpre = dact * (pre > 0)
            g_w1 = np.einsum("bnh,bnf->hf", dpre, xb)
            g_b1 = dpre.sum(axis=(0, 1))
            t += 1
            for p, g, m, v in zip(params, (g_w1, g_b1, g_w2), moments, squares, strict=True):
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                mhat = m / (1 - beta1**t)
                vhat = v / (1 - beta2**t)
                p -= step_lr * mhat / (np.sqrt(vhat) + eps)
        print(f"  epoch {epoch}: val loss {loss_of(val_idx):.5f}", flush=True)
    return {
        "w1": [[round(float(v), 6) for v in row] for row in w1],
        "b1": [round(float(v), 6) for v in b1],
        "w2": [round(float(v), 6) for v in w2],
    }


def save_networks(path: str, models: dict[str, Any], about: str, args: dict[str, Any]) -> None:
    """Write fitted networks as ``expert_weights.json`` holds them."""
    data = {
        "features": list(FEATURES),
        "about": about,
        "args": {k: v for k, v in args.items() if k != "out"},
        "models": models,
    }
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, separators=(",", ":"))
    print(f"wrote {path}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4,5,6")
    parser.add_argument("--games", type=int, default=60000, help="games per generation")
    parser.add_argument("--generations", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=16, help="hidden units (3+ players)")
    parser.add_argument("--hidden2", type=int, default=32, help="hidden units, two players")
    parser.add_argument("--games2", type=int, default=120000, help="games per generation, 2p")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--epsilon", type=float, default=0.03)
    parser.add_argument("--keep", type=float, default=1.0, help="share of positions kept")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--init", help="start from these weights (JSON) instead of greedy")
    parser.add_argument("--save-generations", action="store_true")
    parser.add_argument("--out", default="mantis/players/bots/expert_weights.json")
    args = parser.parse_args()
    models: dict[str, Any] = {}
    init = None
    if args.init:
        with open(args.init, encoding="utf-8") as fh:
            init = json.load(fh)
    for players in (int(p) for p in args.players.split(",")):
        weights = init
        for gen in range(args.generations):
            start = time.time()
            seed = args.seed * 1000 + players * 10 + gen
            games = args.games2 if players == 2 else args.games
            hidden = args.hidden2 if players == 2 else args.hidden
            x, y = generate(players, games, seed, args.epsilon, weights, args.jobs, args.keep)
            print(f"{players}p generation {gen}: played in {time.time() - start:.0f} s", flush=True)
            prior = weights["models"][str(players)] if weights is not None else None
            model = fit(x, y, hidden, args.epochs, seed, init=prior)
            models[str(players)] = model
            weights = {"features": list(FEATURES), "models": {str(players): model}}
            expert_module._NETWORKS = None
            if args.save_generations:
                with open(f"{args.out}.{players}p.gen{gen}", "w", encoding="utf-8") as fh:
                    json.dump(weights, fh, separators=(",", ":"))
        about = "trained by training/train_expert.py; see the expert module docstring"
        save_networks(args.out, models, about, vars(args))


if __name__ == "__main__":
    main()
