"""Deep Monte-Carlo against ``greedy``: a small Q-network in numpy, trained through ``Mantis-v0``.

    nice -n 19 .venv/bin/python -m training.dmc --players 2 --seed 7

In the spirit of DouZero's Deep Monte-Carlo: a network ``Q(observation)``
gives a value per action (the six actions of ``mantis.envs``), trained by
regression on the return of the whole episode, the learner's share of the
win (1, 0, or a shared win's part), for the action it took.  No bootstrapping
and no discount: Mantis pays only at the end.

* Play: episodes of the Gymnasium environment ``Mantis-v0`` (one seat
  against ``players - 1`` ``greedy`` bots), the learner epsilon-greedy on its
  Q-values among the legal actions (``action_masks()``), ``--epsilon`` at
  first, falling linearly to a tenth of it by the end.  The environment is
  reset with ``--seed`` once, then deals from its own generator.
* Fit: after every ``--batch`` episodes, one pass of Adam over the
  decisions of the last ``--window`` batches in minibatches, mean squared
  error.
* Network: the observation scaled by the space's bounds, one hidden ReLU
  layer (``--hidden`` units), six outputs.

Then the evaluation: ``--eval-games`` games of the trained network (greedy
on its Q-values, no exploration) against ``greedy``, dealt by the engine
from ``game_seed(--eval-seed, i)`` with the learner at seat ``i % players``
(seats rotated), through the simulator's own game loop; the win rate with
Wilson's 95% interval (a shared win counts, as ``mantis tournament`` counts
it).  Every random number comes from ``--seed`` and ``--eval-seed``: a run is
reproducible.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import deque
from typing import Any

import gymnasium
import numpy as np

import mantis.envs  # noqa: F401  (registers Mantis-v0)
from mantis.engine import Action, View
from mantis.envs.actions import NUM_ACTIONS, to_engine
from mantis.envs.observation import HIGH, TANKS, TOP_FACES, encode
from training.common import fmt, match

SCALE = (1.0 / HIGH).astype(np.float32)
COLOURS = TOP_FACES.stop - TOP_FACES.start
#: Where each seat slot's tank counts are in the observation, a row per slot.
TANK_COLUMNS = np.array([np.arange(tank.start, tank.stop) for tank in TANKS])
SLOTS = len(TANK_COLUMNS)
FEATURES = len(HIGH) + 2 * SLOTS * COLOURS


def features(obs: np.ndarray) -> np.ndarray:
    """The network's input: the observation scaled to [0, 1], and for every seat and
    colour whether the top card can match that seat's tank and by how many cards.

    The products are the one thing a move turns on (does the face meet a stack,
    and how big is it); given as inputs, a small network need not find them.
    """
    obs = np.atleast_2d(obs)
    faces = obs[:, TOP_FACES][:, None, :]  # (rows, 1, colours)
    tanks = obs[:, TANK_COLUMNS]  # (rows, slots, colours)
    meets = (faces * (tanks > 0)).reshape(len(obs), -1)
    stacks = (faces * tanks / 15.0).reshape(len(obs), -1)
    return np.concatenate([obs * SCALE, meets, stacks], axis=1, dtype=np.float32)


class QNetwork:
    """``Q = W2 · relu(W1 · features(x) + b1) + b2``: one value per action."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        scale = np.sqrt(2.0 / FEATURES)
        self.w1 = (rng.standard_normal((FEATURES, hidden)) * scale).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = (rng.standard_normal((hidden, NUM_ACTIONS)) * np.sqrt(1.0 / hidden)).astype(
            np.float32
        )
        self.b2 = np.full(NUM_ACTIONS, 0.5, np.float32)

    @property
    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def q(self, x: np.ndarray) -> np.ndarray:
        """Q-values of observations ``x`` (one row each)."""
        h = np.maximum(features(x) @ self.w1 + self.b1, 0.0)
        return h @ self.w2 + self.b2  # type: ignore[no-any-return]

    def grads(self, x: np.ndarray, a: np.ndarray, g: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """Mean squared error of ``Q(x)[a]`` against returns ``g``, and its gradients."""
        xs = features(x)
        pre = xs @ self.w1 + self.b1
        h = np.maximum(pre, 0.0)
        q = h @ self.w2 + self.b2
        rows = np.arange(len(a))
        err = q[rows, a] - g
        dq = np.zeros_like(q)
        dq[rows, a] = 2.0 * err / len(a)
        dh = (dq @ self.w2.T) * (pre > 0)
        return float(np.mean(err**2)), [xs.T @ dh, dh.sum(0), h.T @ dq, dq.sum(0)]

    def to_json(self) -> dict[str, Any]:
        names = ("w1", "b1", "w2", "b2")
        return {name: p.tolist() for name, p in zip(names, self.params, strict=True)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QNetwork:
        net = cls.__new__(cls)
        net.w1, net.b1, net.w2, net.b2 = (
            np.asarray(data[k], np.float32) for k in ("w1", "b1", "w2", "b2")
        )
        return net


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mhat = m / (1 - b1**self.t)
            vhat = v / (1 - b2**self.t)
            p -= self.lr * mhat / (np.sqrt(vhat) + 1e-8)


def best_action(net: QNetwork, observation: np.ndarray, legal: int) -> int:
    """The legal action (``0`` to ``legal - 1``) with the highest Q-value."""
    return int(np.argmax(net.q(observation)[0, :legal]))


def train(args: argparse.Namespace) -> tuple[QNetwork, list[str]]:
    rng = np.random.default_rng(args.seed)
    net = QNetwork(args.hidden, rng)
    adam = Adam(net.params, args.lr)
    env = gymnasium.make("Mantis-v0", num_players=args.players, opponents="greedy")
    env.reset(seed=args.seed)
    log: list[str] = []
    # the decisions of the last few batches: each fit sees every decision several
    # times, and a policy that swings in one batch is pulled back by the ones before
    window: deque[tuple[np.ndarray, np.ndarray, np.ndarray]] = deque(maxlen=args.window)
    played = 0
    start = time.perf_counter()
    while played < args.train_games:
        xs: list[np.ndarray] = []
        acts: list[int] = []
        rets: list[float] = []
        won = 0.0
        for _ in range(min(args.batch, args.train_games - played)):
            epsilon = args.epsilon * (1.0 - 0.9 * played / args.train_games)
            obs, info = env.reset()
            episode_x: list[np.ndarray] = []
            episode_a: list[int] = []
            reward = 0.0
            done = not info["action_mask"].any()
            while not done:
                legal = int(info["action_mask"].sum())
                if legal == 0:  # the opponents ended the game before the learner moved
                    action = 0
                elif rng.random() < epsilon:
                    action = int(rng.integers(legal))
                else:
                    action = best_action(net, obs, legal)
                if legal:
                    episode_x.append(obs)
                    episode_a.append(action)
                obs, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            if not episode_x:
                obs, reward, *_ = env.step(0)
            xs.extend(episode_x)
            acts.extend(episode_a)
            rets.extend([float(reward)] * len(episode_x))
            won += float(reward)
            played += 1
        window.append(
            (np.asarray(xs, np.float32), np.asarray(acts, np.int64), np.asarray(rets, np.float32))
        )
        x, a, g = (np.concatenate(part) for part in zip(*window, strict=True))
        order = rng.permutation(len(a))
        losses = []
        for lo in range(0, len(order), args.minibatch):
            idx = order[lo : lo + args.minibatch]
            loss, grads = net.grads(x[idx], a[idx], g[idx])
            adam.step(grads)
            losses.append(loss)
        line = (
            f"{played} games: {won / args.batch:.1%} won in the last batch, "
            f"loss {np.mean(losses):.4f}, {time.perf_counter() - start:.0f} s"
        )
        log.append(line)
        if args.progress:
            print(line, flush=True)
    return net, log


class DMCBot:
    """The trained network as a ``Player``: the best legal action by its Q-values."""

    def __init__(self, weights: dict[str, Any]) -> None:
        self.net = QNetwork.from_json(weights)

    def choose(self, view: View) -> Action:
        seat = view.to_move
        action = best_action(self.net, encode(view, seat), view.players)
        return to_engine(view.players, seat, action)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--train-games", type=int, default=200_000)
    parser.add_argument("--batch", type=int, default=1000, help="episodes between fits")
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--window", type=int, default=4, help="batches each fit learns from")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--eval-games", type=int, default=10_000)
    parser.add_argument("--eval-seed", type=int, default=3)
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--save", help="write the trained weights (JSON) here")
    parser.add_argument("--out", help="write the result (JSON) here")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    net, log = train(args)
    trained = time.perf_counter() - start
    weights = net.to_json()
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(weights, out)
    result = match(
        ("training.dmc:DMCBot", {"weights": weights}),
        ("mantis.players.bots.greedy:GreedyBot", {}),
        args.players,
        args.eval_games,
        seed=args.eval_seed,
        jobs=1,
    )
    print(
        f"DMC ({args.train_games} training games, seed {args.seed}) against "
        f"{args.players - 1} greedy, {args.eval_games} games (seed {args.eval_seed}): "
        f"{fmt(result)}; trained in {trained:.0f} s"
    )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(
                {
                    "players": args.players,
                    "train_games": args.train_games,
                    "seed": args.seed,
                    "eval_games": args.eval_games,
                    "eval_seed": args.eval_seed,
                    "win_rate": result[0],
                    "ci95": [result[1], result[2]],
                    "train_seconds": round(trained, 1),
                    "log": log,
                },
                out,
                indent=2,
            )


if __name__ == "__main__":
    main()
