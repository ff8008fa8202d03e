"""Deep Monte-Carlo against ``greedy``: a small Q-network in numpy, trained through ``Mantis-v0``.

    nice -n 19 .venv/bin/python -m training.dmc --players 2 --seed 7

In the spirit of DouZero's Deep Monte-Carlo: a network gives the value
``Q(s, a)`` of each legal action ``a`` in the position ``s``, the action being
part of the network's input, and is fitted by regression on the return of the
whole episode (the learner's share of the win: 1, 0, or a shared win's part)
for the action taken.  No discount: Mantis pays only at the end.

* Input: the observation scaled by the space's bounds; for every seat what
  a card drawn blind from the unseen ones would promise it (the chance it
  matches the seat's tank, the cards that brings, the chance that scoring it
  reaches the target: the next turns' prospects, as the ``expert``'s features
  have them); and for the action its number (one-hot) and what the top card
  promises the tank it targets (the mover's own for a score, the victim's for
  a steal): the chance of a match, the cards that brings on average, the
  chance that scoring reaches the target, that seat's tank size and score
  pile, and whether the action is legal at this table.  The chances and
  expected cards are the ones ``mantis.players.odds`` computes exactly for
  each option (a test checks they agree).
* Network: one hidden ReLU layer (``--hidden`` units), whose state part is
  computed once per position and whose action part once per action; a
  logistic output, fitted by cross-entropy (the value is a chance to win).
* Play: ``--envs`` episodes of ``Mantis-v0`` (one seat against
  ``players - 1`` ``greedy`` bots) run side by side, so that their
  positions are valued in one batch; the learner is epsilon-greedy among
  the legal actions (``action_masks()``), ``--epsilon`` at first, falling
  linearly to a tenth of it by the end.  Each environment is reset with a
  seed drawn from ``--seed`` once, then deals from its own generator.
* Targets: the return, or with ``--lam`` below 1 the λ-return (each
  decision's target mixes the return with the value the network gave the
  next decision of the same episode, ``(1 - λ)`` of it; less variance, some
  bias).  ``--lam 1`` is plain Monte-Carlo.
* Fit: after every ``--batch`` episodes, one pass of Adam over the
  decisions of the last ``--window`` batches in minibatches, the learning
  rate falling linearly from ``--lr`` to a tenth of it by the end.  The
  learner plays by the fitted weights; the network measured (and kept) is
  their moving average (``--average``, Polyak averaging), which swings less
  from fit to fit.
* Keeping the best: every ``--check-every`` training games the network is
  measured against ``greedy`` on ``--check-games`` held-out games (dealt
  from ``--check-seed``, seats rotated, no exploration), and the best one
  measured is kept.  The policy moves with every fit; this keeps the best
  point it passed through rather than wherever it stopped.

Then the evaluation: ``--eval-games`` games of the kept network against
``greedy``, dealt by the engine from ``game_seed(--eval-seed, i)`` with the
learner at seat ``i % players`` (seats rotated), through the simulator's own
game loop; the win rate with Wilson's 95% interval (a shared win counts, as
``mantis tournament`` counts it).  The held-out games and the evaluation's
are different deals (their seeds must differ), so the kept network's
evaluation is not flattered by its selection.  Every random number comes
from ``--seed``, ``--check-seed`` and ``--eval-seed``: a run is reproducible.
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
from mantis.envs.observation import (
    HIGH,
    PLAYERS,
    SCORES,
    TANKS,
    TARGET,
    TOP_FACES,
    UNSEEN_FACES,
    encode,
)
from training.common import fmt, match

GREEDY_BOT = "mantis.players.bots.greedy:GreedyBot"

SCALE = (1.0 / HIGH).astype(np.float32)
#: Where each seat slot's tank counts are in the observation, a row per slot.
TANK_COLUMNS = np.array([np.arange(tank.start, tank.stop) for tank in TANKS])
SLOTS = len(TANK_COLUMNS)
#: The state part of the input: the scaled observation, three numbers per seat slot.
STATE = len(HIGH) + 3 * SLOTS
#: Per action: its number (one-hot), then the six numbers of ``option_features``.
OPTION = NUM_ACTIONS + 6
ONE_HOT = np.eye(NUM_ACTIONS, dtype=np.float32)
#: A colour's cards, the largest tank stack (bounds for scaling).
STACK = float(HIGH[TANKS[0]][0])
BANK = float(HIGH[SCORES][0])


def promises(obs: np.ndarray, chance: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a card whose face is colour ``c`` with probability ``chance[:, c]``
    promises each seat slot (per position, rows of ``obs``): the chance that it
    matches the slot's tank, the cards a match brings on average (the stack and
    the card; none on a miss), and the chance that scoring it reaches the target.
    """
    tanks = obs[:, TANK_COLUMNS].astype(np.float32)  # (rows, slots, colours)
    meets = chance[:, None, :] * (tanks > 0)
    scores = obs[:, SCORES].astype(np.float32)
    reaches = scores[:, :, None] + tanks + 1.0 >= obs[:, TARGET, None, None]
    return meets.sum(2), (meets * (tanks + 1.0)).sum(2), (meets * reaches).sum(2)


def top_card(obs: np.ndarray) -> np.ndarray:
    """The top card's faces: every possible one equally likely (zeros once over)."""
    faces = obs[:, TOP_FACES].astype(np.float32)
    return faces / np.maximum(faces.sum(1, keepdims=True), 1.0)  # type: ignore[no-any-return]


def blind_card(obs: np.ndarray) -> np.ndarray:
    """A card drawn blind from the unseen ones (its back unknown): faces by their counts."""
    unseen = obs[:, UNSEEN_FACES].astype(np.float32)
    return unseen / np.maximum(unseen.sum(1, keepdims=True), 1.0)  # type: ignore[no-any-return]


def option_features(obs: np.ndarray) -> np.ndarray:
    """The action part of the input: ``(rows, actions, OPTION)``.

    Action ``k`` targets seat slot ``k`` (slot 0, the mover, for a score): what
    the top card promises it (a steal never wins at once, so only a score has a
    chance to win), that seat's tank size and score, and whether it is legal.
    """
    rows = len(obs)
    p_match, cards, p_win = promises(obs, top_card(obs))
    wins = np.zeros((rows, NUM_ACTIONS), np.float32)
    wins[:, 0] = p_win[:, 0]
    tank_sizes = obs[:, TANK_COLUMNS].sum(2, dtype=np.float32) / (STACK * 2)
    scores = obs[:, SCORES].astype(np.float32) / BANK
    legal = np.arange(NUM_ACTIONS) < obs[:, PLAYERS, None]
    numbers = (p_match, cards / STACK, wins, tank_sizes, scores, legal.astype(np.float32))
    per_action = np.stack(numbers, axis=2)
    return np.concatenate([np.broadcast_to(ONE_HOT, (rows, *ONE_HOT.shape)), per_action], axis=2)


def state_features(obs: np.ndarray) -> np.ndarray:
    """The state part of the input: the observation scaled to [0, 1], and what a
    card drawn blind promises each seat slot (the next turns' prospects)."""
    p_match, cards, p_win = promises(obs, blind_card(obs))
    parts = (obs * SCALE, p_match, cards / STACK, p_win)
    return np.concatenate(parts, axis=1, dtype=np.float32)


class QNetwork:
    """``Q(s, a) = sigmoid(w2 · relu(Ws · state(s) + Wa · option(s, a) + b1) + b2)``."""

    names = ("ws", "wa", "b1", "w2", "b2")

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        inputs = STATE + OPTION
        scale = np.sqrt(2.0 / inputs)
        self.ws = (rng.standard_normal((STATE, hidden)) * scale).astype(np.float32)
        self.wa = (rng.standard_normal((OPTION, hidden)) * scale).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = (rng.standard_normal(hidden) * np.sqrt(1.0 / hidden)).astype(np.float32)
        self.b2 = np.zeros(1, np.float32)

    @property
    def params(self) -> list[np.ndarray]:
        return [getattr(self, name) for name in self.names]

    def q(self, obs: np.ndarray) -> np.ndarray:
        """Every action's value in each position (rows of ``obs``): ``(rows, actions)``."""
        obs = np.atleast_2d(obs)
        state = state_features(obs) @ self.ws + self.b1  # once per position
        pre = state[:, None, :] + option_features(obs) @ self.wa
        z = np.maximum(pre, 0.0) @ self.w2 + self.b2
        return 1.0 / (1.0 + np.exp(-z))  # type: ignore[no-any-return]

    def grads(
        self, states: np.ndarray, options: np.ndarray, targets: np.ndarray
    ) -> tuple[float, list[np.ndarray]]:
        """Cross-entropy of the values of the actions taken (their ``options``
        rows, in the positions ``states``) against ``targets``, and its gradients."""
        pre = states @ self.ws + options @ self.wa + self.b1
        h = np.maximum(pre, 0.0)
        z = h @ self.w2 + self.b2
        q = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-6
        loss = -np.mean(targets * np.log(q + eps) + (1 - targets) * np.log(1 - q + eps))
        dz = (q - targets) / len(targets)
        dh = np.outer(dz, self.w2) * (pre > 0)
        grads = [states.T @ dh, options.T @ dh, dh.sum(0), h.T @ dz, dz.sum(0, keepdims=True)]
        return float(loss), grads

    def to_json(self) -> dict[str, Any]:
        return {name: p.tolist() for name, p in zip(self.names, self.params, strict=True)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QNetwork:
        net = cls.__new__(cls)
        for name in cls.names:
            setattr(net, name, np.asarray(data[name], np.float32))
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


class Average:
    """An exponential moving average of the network's weights (Polyak averaging)."""

    def __init__(self, net: QNetwork, decay: float) -> None:
        self.decay = decay
        self.net = QNetwork.from_json(net.to_json())
        self.source = net

    def update(self) -> None:
        for mean, p in zip(self.net.params, self.source.params, strict=True):
            mean *= self.decay
            mean += (1.0 - self.decay) * p


def best_actions(values: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Per row, the legal action (``0`` to ``legal - 1``) of highest value."""
    masked = np.where(np.arange(NUM_ACTIONS) < legal[:, None], values, -np.inf)
    return np.argmax(masked, axis=1)  # type: ignore[no-any-return]


def targets_of(values: np.ndarray, reward: float, lam: float) -> np.ndarray:
    """Each decision's target: the λ-return, from the values of the next decisions.

    ``values[t]`` is the value the network gave the best action at decision
    ``t``; the last decision's target is the reward itself.
    """
    out = np.empty(len(values), np.float32)
    target = reward
    for t in range(len(values) - 1, -1, -1):
        out[t] = target
        target = lam * target + (1.0 - lam) * values[t]
    return out


class Episodes:
    """``Mantis-v0`` episodes side by side, each waiting for the learner's action."""

    def __init__(self, players: int, count: int, rng: np.random.Generator) -> None:
        self.envs = [
            # the fitted GreedyBot, not the level (which misjudges on purpose): the figures in
            # docs/research.md were measured against it
            gymnasium.make("Mantis-v0", num_players=players, opponents=GREEDY_BOT)
            for _ in range(count)
        ]
        self.observations = np.zeros((count, len(HIGH)), np.uint8)
        self.finished: list[float | None] = [None] * count
        for k in range(count):
            self.begin(k, seed=int(rng.integers(2**31)))

    def begin(self, k: int, seed: int | None = None) -> None:
        obs, info = self.envs[k].reset(seed=seed)
        self.observations[k] = obs
        # the opponents may end the game before the learner's first turn
        self.finished[k] = None if info["action_mask"].any() else self.settle(k)

    def settle(self, k: int) -> float:
        """The reward of a game over before the learner moved (any action ends it)."""
        _obs, reward, *_ = self.envs[k].step(0)
        return float(reward)

    def step(self, k: int, action: int) -> float | None:
        """Play the learner's ``action`` in episode ``k``: its reward if it ended."""
        obs, reward, terminated, truncated, _info = self.envs[k].step(action)
        self.observations[k] = obs
        return float(reward) if terminated or truncated else None


def train(args: argparse.Namespace) -> tuple[QNetwork, list[str], list[dict[str, Any]]]:
    """Train; the network kept (the best measured), the log, and every measurement."""
    rng = np.random.default_rng(args.seed)
    net = QNetwork(args.hidden, rng)
    adam = Adam(net.params, args.lr)
    average = Average(net, args.average)
    episodes = Episodes(args.players, args.envs, rng)
    legal = np.full(args.envs, args.players)
    # the decisions of the last few batches: each fit sees every decision several
    # times, and a policy that swings in one batch is pulled back by the ones before
    window: deque[tuple[np.ndarray, np.ndarray, np.ndarray]] = deque(maxlen=args.window)
    running: list[list[tuple[np.ndarray, int, float]]] = [[] for _ in range(args.envs)]
    done: list[tuple[list[tuple[np.ndarray, int, float]], float]] = []
    log: list[str] = []
    checks: list[dict[str, Any]] = []
    best: tuple[float, dict[str, Any]] | None = None
    played = 0
    since = 0  # games finished since the last fit, and their rewards
    won = 0.0
    start = time.perf_counter()

    def finish(k: int, reward: float) -> None:
        nonlocal played, since, won
        if running[k]:
            done.append((running[k], reward))
            running[k] = []
        played += 1
        since += 1
        won += reward

    while played < args.train_games:
        for k in range(args.envs):
            while (reward := episodes.finished[k]) is not None:  # over before the learner moved
                finish(k, reward)
                episodes.begin(k)
        observations = episodes.observations
        values = net.q(observations)
        greedy = best_actions(values, legal)
        epsilon = args.epsilon * (1.0 - 0.9 * played / args.train_games)
        explore = rng.random(args.envs) < epsilon
        randoms = rng.integers(args.players, size=args.envs)
        actions = np.where(explore, randoms, greedy)
        for k in range(args.envs):
            action = int(actions[k])
            running[k].append((observations[k].copy(), action, float(values[k, greedy[k]])))
            reward = episodes.step(k, action)
            if reward is not None:
                finish(k, reward)
                episodes.begin(k)
        if len(done) >= args.batch or played >= args.train_games:
            batch, done = done, []
            window.append(collate(batch, args.lam))
            adam.lr = args.lr * (1.0 - 0.9 * min(1.0, played / args.train_games))
            loss = fit(net, adam, average, window, args.minibatch, rng)
            line = (
                f"{played} games: {won / since:.1%} won of the last {since}, "
                f"loss {loss:.4f}, {time.perf_counter() - start:.0f} s"
            )
            since, won = 0, 0.0
            log.append(line)
            if args.progress:
                print(line, flush=True)
            if played // args.check_every > len(checks) or played >= args.train_games:
                weights = average.net.to_json()
                rate = match(
                    ("training.dmc:DMCBot", {"weights": weights}),
                    (GREEDY_BOT, {}),
                    args.players,
                    args.check_games,
                    seed=args.check_seed,
                    jobs=1,
                )
                checks.append({"games": played, "win_rate": rate[0], "ci95": [rate[1], rate[2]]})
                if best is None or rate[0] > best[0]:
                    best = (rate[0], weights)
                line = f"  held out: {fmt(rate)} of {args.check_games} games"
                log.append(line)
                if args.progress:
                    print(line, flush=True)
    assert best is not None
    return QNetwork.from_json(best[1]), log, checks


def collate(
    batch: list[tuple[list[tuple[np.ndarray, int, float]], float]], lam: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch of episodes as the fit's inputs: state rows, option rows, targets."""
    observations = np.asarray([obs for decisions, _r in batch for obs, _a, _v in decisions])
    actions = np.asarray([a for decisions, _r in batch for _obs, a, _v in decisions])
    targets = np.concatenate(
        [
            targets_of(np.asarray([v for _o, _a, v in decisions], np.float32), reward, lam)
            for decisions, reward in batch
        ]
    )
    options = option_features(observations)[np.arange(len(actions)), actions]
    return state_features(observations).astype(np.float32), options, targets


def fit(
    net: QNetwork,
    adam: Adam,
    average: Average,
    window: deque[tuple[np.ndarray, np.ndarray, np.ndarray]],
    minibatch: int,
    rng: np.random.Generator,
) -> float:
    """One pass of Adam over the window's decisions; the mean loss."""
    states, options, targets = (np.concatenate(part) for part in zip(*window, strict=True))
    order = rng.permutation(len(targets))
    losses = []
    for lo in range(0, len(order), minibatch):
        idx = order[lo : lo + minibatch]
        loss, grads = net.grads(states[idx], options[idx], targets[idx])
        adam.step(grads)
        average.update()
        losses.append(loss)
    return float(np.mean(losses))


class DMCBot:
    """The trained network as a ``Player``: the best legal action by its Q-values."""

    def __init__(self, weights: dict[str, Any]) -> None:
        self.net = QNetwork.from_json(weights)

    def choose(self, view: View) -> Action:
        seat = view.to_move
        values = self.net.q(encode(view, seat))
        action = int(best_actions(values, np.array([view.players]))[0])
        return to_engine(view.players, seat, action)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--train-games", type=int, default=500_000)
    parser.add_argument("--envs", type=int, default=32, help="episodes played side by side")
    parser.add_argument("--batch", type=int, default=1000, help="episodes between fits")
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--window", type=int, default=4, help="batches each fit learns from")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--lam", type=float, default=0.8, help="λ of the targets (1: Monte-Carlo)")
    parser.add_argument(
        "--average", type=float, default=0.999, help="decay of the weights' moving average"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--check-every", type=int, default=25_000, help="training games")
    parser.add_argument("--check-games", type=int, default=4000)
    parser.add_argument("--check-seed", type=int, default=11)
    parser.add_argument("--eval-games", type=int, default=10_000)
    parser.add_argument("--eval-seed", type=int, default=3)
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--save", help="write the kept weights (JSON) here")
    parser.add_argument("--out", help="write the result (JSON) here")
    args = parser.parse_args(argv)
    if args.check_seed == args.eval_seed:
        parser.error("--check-seed and --eval-seed must differ: the evaluation needs fresh deals")
    start = time.perf_counter()
    net, log, checks = train(args)
    trained = time.perf_counter() - start
    weights = net.to_json()
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(weights, out)
    result = match(
        ("training.dmc:DMCBot", {"weights": weights}),
        (GREEDY_BOT, {}),
        args.players,
        args.eval_games,
        seed=args.eval_seed,
        jobs=1,
    )
    kept = max(checks, key=lambda check: check["win_rate"])
    print(
        f"DMC ({args.train_games} training games, seed {args.seed}; kept the network of "
        f"game {kept['games']}, {kept['win_rate']:.2%} held out) against "
        f"{args.players - 1} greedy, {args.eval_games} games (seed {args.eval_seed}): "
        f"{fmt(result)}; trained in {trained:.0f} s"
    )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(
                {
                    **{k: v for k, v in vars(args).items() if k not in ("out", "save")},
                    "kept": kept,
                    "checks": checks,
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
