"""The expert's value network again, on ten times the positions, played by Mantis batched.

    nice -n 10 .venv/bin/python -m training.train_expert_batched --players 2 --games 1200000 \\
        --out expert_2p_10x.json

``training/train_expert.py`` trained the shipped networks on the games of
``greedy`` with 3% uniformly random moves (120,000 games at two players),
recording every seat's ``FEATURES`` before every decision with the game's
winners, and fitting ``u_i = w2 · relu(W1 x_i + b1)``, ``P(i wins) =
softmax(u)_i`` by cross-entropy.  This script does the same with the games
played by ``mantis.envs.batched`` (``--batch`` games at once): the same
policy (``greedy_actions`` chooses what ``GreedyBot`` chooses, a test says
so), the same exploration share, the same features (``batch_features`` is
``seat_features`` over arrays; a test compares them) and the same fit
(``train_expert.fit``: Adam, 6 epochs, the same network sizes and seeds).

Games are the batch's seed stream (``game_seed(seed, i)``, dealt as the
engine deals them), the exploration from ``numpy.random.default_rng(seed)``:
a run is reproducible from its arguments.  The batch deals a new game as
each ends; play stops once ``--games`` have ended, and the positions of the
games still in play then are dropped.

Writes the networks as ``expert_weights.json`` holds them (``--out``), for
``ExpertBot(weights)`` and ``training/paired_vs_expert.py``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from mantis.envs.batched import MantisBatch
from mantis.envs.batched_bots import greedy_actions
from mantis.players.bots.expert import NUM_FEATURES
from training.train_expert import fit, save_networks

Floats = npt.NDArray[np.float64]


def batch_features(batch: MantisBatch) -> Floats:
    """``(games, players, 14)``: every seat's ``FEATURES`` in every game, before the
    decision of the seat to move (as ``train_expert`` records them)."""
    n = batch.num_players
    target = batch.target
    counts = batch.tanks  # (b, n, 7)
    scores = batch.scores  # (b, n)
    pile = batch.pile_size
    q = batch.unseen_faces / np.maximum(pile, 1)[:, None]  # (b, 7)
    phase = pile / batch.pile_at_deal
    need = target - scores
    held = counts > 0
    qs = np.broadcast_to(q[:, None, :], counts.shape)
    p_match = np.where(held, qs, 0.0).sum(axis=2)
    e_gain = np.where(held, qs * (counts + 1), 0.0).sum(axis=2) * 0.2
    p_win = np.where(held & (counts + 1 >= need[:, :, None]), qs, 0.0).sum(axis=2)
    dist = (np.arange(n)[None, :] - batch.to_move[:, None]) % n
    nxt = (dist == 0).astype(np.float64)
    others = np.where(np.eye(n, dtype=bool)[None], -1, scores[:, None, :])
    best_other = others.max(axis=2)
    return np.stack(
        [
            scores / target,
            np.where(need > 0, 1.0 / np.maximum(need, 1), 1.0),
            counts.sum(axis=2) * 0.1,
            held.sum(axis=2) / 7,
            counts.max(axis=2) * 0.2,
            p_match,
            e_gain,
            p_win,
            nxt,
            dist / n,
            nxt * p_win,
            nxt * e_gain,
            np.broadcast_to(phase[:, None], scores.shape),
            (scores - best_other) / target,
        ],
        axis=2,
    )


def generate(
    players: int, games: int, seed: int, epsilon: float, batch_size: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Every position of ``games`` games of greedy with ``epsilon`` random moves:
    features ``(positions, players, 14)`` and win shares ``(positions, players)``."""
    batch = MantisBatch(batch_size, players, seed)
    rng = np.random.default_rng(seed)
    # the most positions a game can have is its pile; games average far fewer
    capacity = games * 40 + batch_size * batch.pile_at_deal
    xs = np.empty((capacity, players, NUM_FEATURES), dtype=np.float32)
    owner = np.empty(capacity, dtype=np.int64)
    used = 0
    results: dict[int, npt.NDArray[np.float32]] = {}
    while len(results) < games:
        if used + batch_size > capacity:
            grown = capacity * 2
            xs = np.resize(xs, (grown, players, NUM_FEATURES))
            owner = np.resize(owner, grown)
            capacity = grown
        xs[used : used + batch_size] = batch_features(batch)
        owner[used : used + batch_size] = batch.seeds
        used += batch_size
        chosen = greedy_actions(batch)
        explore = rng.random(batch_size) < epsilon
        actions = np.where(explore, rng.integers(0, players, size=batch_size), chosen)
        step = batch.step(actions)
        for g in np.flatnonzero(step.ended):
            results[int(step.seeds[g])] = step.rewards[g]
    # the last step may end a few games more than asked: the first ``games`` are kept
    kept = list(results.items())[:games]
    ended = np.array([seed for seed, _ in kept], dtype=np.int64)
    shares = np.stack([share for _, share in kept])
    order = np.argsort(ended)
    ended, shares = ended[order], shares[order]
    owners = owner[:used]
    where = np.searchsorted(ended, owners).clip(max=len(ended) - 1)
    keep = ended[where] == owners
    return xs[:used][keep], shares[where[keep]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", default="2")
    parser.add_argument("--games", type=int, default=1_200_000, help="games per table size")
    parser.add_argument("--hidden", type=int, default=16, help="hidden units (3+ players)")
    parser.add_argument("--hidden2", type=int, default=32, help="hidden units, two players")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--epsilon", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--batch", type=int, default=1024, help="games played at once")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    models: dict[str, Any] = {}
    for players in (int(p) for p in args.players.split(",")):
        seed = args.seed * 1000 + players * 10
        start = time.process_time()
        x, y = generate(players, args.games, seed, args.epsilon, args.batch)
        played = time.process_time() - start
        print(
            f"{players}p: {args.games} games, {len(x)} positions played in {played:.0f} s CPU",
            flush=True,
        )
        hidden = args.hidden2 if players == 2 else args.hidden
        start = time.process_time()
        models[str(players)] = fit(x, y, hidden, args.epochs, seed)
        print(f"{players}p: fitted in {time.process_time() - start:.0f} s CPU", flush=True)
        del x, y
    save_networks(args.out, models, "trained by training/train_expert_batched.py", vars(args))


if __name__ == "__main__":
    main()
