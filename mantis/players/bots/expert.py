"""``expert``: exact one-step expectation scored by a small learned value function.

How it decides
--------------
For every legal action and every possible face of the top card (at most three,
with exact card-counting probabilities from ``View.seen``) the bot builds the
resulting position — scores, tanks, who moves next (with two players a
successful steal gives the mover another turn), the cards still unseen — and
values it.  It plays the action with the best expected value:

* a score that reaches the target is a win (value 1);
* if the pile runs out, the game's deck-out result is exact (1 for a winner,
  shared or not, else 0);
* otherwise the position is scored by the value function below.

Where each action and face lead is ``option_leaves``; the game review
(``mantis.review``) values the same leaves for every seat, so its numbers for
the mover are the expert's own.

The value function
------------------
Every seat ``i`` gets a strength ``u_i = f(x_i)``, where ``x_i`` are the
``FEATURES`` of that seat in the position (its score, its tank, how likely the
next card — whose back is not known yet — matches its tank given the unseen
cards, whether it can win with that card, how many seats until it moves, the
game phase...) and ``f`` is a small multi-layer perceptron (one hidden ReLU
layer, weights shared by all seats).  The probability that seat ``m`` wins is
the softmax ``exp(u_m) / Σ_j exp(u_j)``; the bot maximises that for itself.
There is one network per player count (2 to 6).

The weights live in ``expert_weights.json`` next to this module (15 kB).
They were trained by ``training/train_expert.py --seed 2026`` (reproducible
from the seed, whatever ``--jobs``): 120,000 two-player games and 60,000 games
at each other table size, played by the fitted ``greedy`` bot with 3% uniformly
random moves, record every position's seat features and the winners (1.5–3.2
million positions per table size); the network — 32 hidden units at two
players, 16 otherwise (speed) — is fitted by maximum likelihood of the actual
winner (softmax cross-entropy, a shared win split evenly), Adam in numpy, 6
epochs.  Numpy is used only for training.  Inference is pure Python: each
network is turned at load time into a generated function with its weights as
constants (about 3x faster than looping over lists), and seats a move does not
touch are valued once per face.

What was tried and not kept: a second generation trained on the expert's own
self-play games (2p: 52.7% vs 52.6% against greedy on the same 10,000 deals:
no gain); 32 instead of 16 hidden units helps a little at two players (52.9%
vs 52.6%, same deals) and is kept there only; at two players, giving each
seat's network the other seat's features too (a pairwise evaluation, same
data) lowered the validation loss a little (0.5806 vs 0.5809) but won 51.9%
against 52.35% for the kept network on the same 20,000 deals: not kept.

Why no search: the game's randomness (the next card's face and the backs still
to come) makes deeper search expensive for little gain; measured experience
says Monte-Carlo rollouts and two-step lookahead do not beat a good one-step
expectation with a good evaluation.

Measured (``mantis tournament``, seats rotated)
-----------------------------------------------
* two players, ``--bots expert,greedy --games 10000 --seed 1``: 52.5%
  [51.8%, 53.2%] of 20,000 games against ``greedy``;
* four players, ``--players 4 --bots expert,greedy --games 10000 --seed 2``:
  one expert against three greedy wins 27.2% [26.7%, 27.6%] of 40,000 games
  (fair share 25%); one greedy against three experts 23.8% [23.3%, 24.2%];
* 3, 5, 6 players (``--games 1000 --seed 4``, alone against copies of greedy):
  34.4% [32.7%, 36.1%] of 3,000, 21.6% [20.5%, 22.7%] of 5,000 and 20.1%
  [19.1%, 21.1%] of 6,000 games (fair shares 33.3%, 20%, 16.7%);
* decision time (``benchmarks/bots.py``, 2-core machine): median 0.22–0.36 ms,
  p95 0.37–0.70 ms at 2 to 6 players.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from importlib import resources
from operator import mul
from typing import Any

from ...engine import Action, Score, View, deck_out_winners
from ...engine.seat_count import SEAT_COUNTS
from ..counting import top_face_odds, unseen_face_counts

FEATURES: tuple[str, ...] = (
    "score",  # score / target
    "need_inv",  # 1 / cards still needed
    "tank",  # tank cards / 10
    "distinct",  # distinct tank colours / 7
    "top",  # largest stack / 5
    "p_match",  # P(next card's face is held in the tank)
    "e_gain",  # E[cards banked by scoring the next card] / 5
    "p_win",  # P(scoring the next card wins)
    "next",  # 1 if this seat moves next
    "dist",  # seats until this seat moves / players
    "next_p_win",  # next * p_win
    "next_e_gain",  # next * e_gain
    "phase",  # cards left in the pile / pile at the deal
    "lead",  # (score - best other score) / target
)
NUM_FEATURES = len(FEATURES)


def seat_features(
    counts: tuple[int, ...] | list[int],
    score: int,
    dist: int,
    q: tuple[float, ...] | list[float],
    target: int,
    players: int,
    phase: float,
    best_other: int,
) -> list[float]:
    """The features of one seat (see ``FEATURES``).

    ``counts``: its tank per colour; ``dist``: seats until it moves (0 = next);
    ``q``: per colour, the probability that the next card has that face.
    """
    size = distinct = top = 0
    p_match = e_gain = p_win = 0.0
    need = target - score
    for colour in range(7):
        k = counts[colour]
        if k:
            size += k
            distinct += 1
            if k > top:
                top = k
            qc = q[colour]
            p_match += qc
            e_gain += qc * (k + 1)
            if k + 1 >= need:
                p_win += qc
    e_gain *= 0.2
    nxt = 1.0 if dist == 0 else 0.0
    return [
        score / target,
        1.0 / need if need > 0 else 1.0,
        size * 0.1,
        distinct / 7,
        top * 0.2,
        p_match,
        e_gain,
        p_win,
        nxt,
        dist / players,
        nxt * p_win,
        nxt * e_gain,
        phase,
        (score - best_other) / target,
    ]


def next_card_odds(unseen: tuple[int, ...] | list[int], left: int) -> list[float]:
    """Per colour, P(next card has that face) from unseen face counts."""
    if left <= 0:
        return [0.0] * 7
    inv = 1.0 / left
    return [u * inv for u in unseen]


class Network:
    """One hidden ReLU layer: ``u = w2 · relu(W1 x + b1)``.

    Calling it runs a function generated at load time with the weights written
    in as constants (about three times faster than looping over lists in pure
    Python); ``reference`` is the plain loop, kept for tests.
    """

    __slots__ = ("w1", "b1", "w2", "_call")

    def __init__(self, w1: list[list[float]], b1: list[float], w2: list[float]) -> None:
        self.w1 = [tuple(float(v) for v in row) for row in w1]
        self.b1 = tuple(float(v) for v in b1)
        self.w2 = tuple(float(v) for v in w2)
        if len(self.b1) != len(self.w1) or len(self.w2) != len(self.w1):
            raise ValueError("inconsistent network shapes")
        if any(len(row) != NUM_FEATURES for row in self.w1):
            raise ValueError(f"every hidden unit needs {NUM_FEATURES} weights")
        names = [f"x{j}" for j in range(NUM_FEATURES)]
        lines = ["def forward(x):", f"    {', '.join(names)} = x", "    t = 0.0"]
        for row, b, out in zip(self.w1, self.b1, self.w2, strict=True):
            terms = " + ".join(f"{w!r} * {name}" for w, name in zip(row, names, strict=True))
            lines += [f"    h = {b!r} + {terms}", "    if h > 0.0:", f"        t += {out!r} * h"]
        lines.append("    return t")
        namespace: dict[str, Any] = {}
        exec("\n".join(lines), namespace)  # only float reprs are written in: safe
        self._call: Callable[[list[float]], float] = namespace["forward"]

    def __call__(self, x: list[float]) -> float:
        return self._call(x)

    def __reduce__(self) -> tuple[type[Network], tuple[Any, ...]]:
        # The generated function cannot be pickled: a copy is rebuilt from the weights
        # (an environment or a table holding an expert pickles, mid-game included).
        return (Network, (self.w1, self.b1, self.w2))

    def reference(self, x: list[float]) -> float:
        total = 0.0
        for row, b, out in zip(self.w1, self.b1, self.w2, strict=True):
            h = b + sum(map(mul, row, x))
            if h > 0.0:
                total += out * h
        return total


_NETWORKS: dict[int, Network] | None = None


def load_networks(data: dict[str, Any] | None = None) -> dict[int, Network]:
    """The networks per player count, from ``data`` or the packaged weights."""
    if data is None:
        text = resources.files(__package__).joinpath("expert_weights.json").read_text("utf-8")
        data = json.loads(text)
    if list(data["features"]) != list(FEATURES):
        raise ValueError("expert weights were trained on other features")
    return {
        int(n): Network(model["w1"], model["b1"], model["w2"])
        for n, model in data["models"].items()
    }


def _networks() -> dict[int, Network]:
    global _NETWORKS
    if _NETWORKS is None:
        _NETWORKS = load_networks()
    return _NETWORKS


def networks_by_players(trained: dict[int, Network] | None = None) -> dict[int, Network]:
    """A network for every table size, 2 to 6: ``trained`` (default: the packaged
    ones) where there is one, else the nearest trained size's."""
    nets = trained if trained is not None else _networks()
    return {
        n: nets[n] if n in nets else nets[min(nets, key=lambda m: (abs(m - n), m))]
        for n in SEAT_COUNTS
    }


def position_strengths(
    net: Network,
    counts: list[tuple[int, ...]],
    scores: Sequence[int],
    next_seat: int,
    q: list[float],
    target: int,
    phase: float,
) -> list[float]:
    """``u_i`` for every seat of a position (used by training and tests)."""
    n = len(counts)
    out = []
    for s in range(n):
        best_other = max(scores[j] for j in range(n) if j != s)
        x = seat_features(
            counts[s], scores[s], (s - next_seat) % n, q, target, n, phase, best_other
        )
        out.append(net(x))
    return out


class ExpertBot:
    """Maximises the expected learned win probability one step ahead."""

    def __init__(self, weights: dict[str, Any] | None = None) -> None:
        # Weights given are checked at once; the packaged ones are read at the first
        # decision, so seating an expert (say, at a table about to open) costs nothing.
        self._given = load_networks(weights) if weights is not None else None
        self._by_players: dict[int, Network] | None = None

    @property
    def _nets(self) -> dict[int, Network]:
        """A network for every player count: the nearest trained one if it has none."""
        if self._by_players is None:
            self._by_players = networks_by_players(self._given)
        return self._by_players

    def choose(self, view: View) -> Action:
        actions = view.legal_actions()
        values = self.action_values(view)
        best = 0
        for i in range(1, len(actions)):
            if values[i] > values[best] + 1e-12:
                best = i
        return actions[best]

    def action_values(self, view: View) -> list[float]:
        """Expected win probability of each legal action (in ``legal_actions`` order)."""
        me = view.to_move
        values = [0.0] * len(view.legal_actions())
        exp = math.exp
        for i, _colour, p, us, winners in option_leaves(view, self._nets[view.players]):
            if us is None:
                values[i] += p * (me in winners)
            else:
                um = us[me]
                values[i] += p / sum(exp(u - um) for u in us)
        return values


def option_leaves(
    view: View, net: Network
) -> Iterator[tuple[int, int, float, list[float] | None, tuple[int, ...]]]:
    """Where every legal option leads, for every face the top card can have.

    Yields ``(option, colour, p, strengths, winners)`` face by face, and for
    each face option by option (``legal_actions`` order): ``p`` is the face's
    exact probability; ``strengths`` are every seat's ``u`` in the position
    reached, or ``None`` when the game ends there — then ``winners`` are the
    seats that win (the mover reaching the target, or the deck-out's winners,
    shared or not).  Seats an option does not touch are valued once per face.
    """
    n = view.players
    me = view.to_move
    target = view.target
    scores = view.scores
    counts = [tuple(map(len, tank)) for tank in view.tanks]
    actions = view.legal_actions()
    odds = top_face_odds(view)
    unseen = list(unseen_face_counts(view.seen))
    left = view.pile_size - 1
    phase = left / (105 - 4 * n)
    usual_next = (me + 1) % n
    others = [[j for j in range(n) if j != s] for s in range(n)]
    best_others = [max(scores[j] for j in others[s]) for s in range(n)]
    mover_wins = (me,)

    for colour, p in odds:
        unseen[colour] -= 1
        q = next_card_odds(unseen, left)
        unseen[colour] += 1
        # strengths of unchanged seats, per next mover
        base: dict[int, list[float]] = {}

        def base_for(
            nxt: int, q: list[float] = q, base: dict[int, list[float]] = base
        ) -> list[float]:
            us = base.get(nxt)
            if us is None:
                us = base[nxt] = [
                    net(
                        seat_features(
                            counts[s],
                            scores[s],
                            (s - nxt) % n,
                            q,
                            target,
                            n,
                            phase,
                            best_others[s],
                        )
                    )
                    for s in range(n)
                ]
            return us

        for i, action in enumerate(actions):
            nxt = usual_next
            changed: list[tuple[int, tuple[int, ...]]] = []
            new_scores: Sequence[int] = scores
            if isinstance(action, Score):
                mine = counts[me]
                k = mine[colour]
                if k:
                    if scores[me] + k + 1 >= target:
                        yield i, colour, p, None, mover_wins
                        continue
                    raised = list(scores)
                    raised[me] += k + 1
                    new_scores = raised
                    changed.append((me, mine[:colour] + (0,) + mine[colour + 1 :]))
                else:
                    changed.append((me, mine[:colour] + (1,) + mine[colour + 1 :]))
            else:
                victim = action.target
                theirs = counts[victim]
                m = theirs[colour]
                if m:
                    mine = counts[me]
                    grown = mine[colour] + m + 1
                    changed.append((me, mine[:colour] + (grown,) + mine[colour + 1 :]))
                    changed.append((victim, theirs[:colour] + (0,) + theirs[colour + 1 :]))
                    if n == 2:
                        nxt = me
                else:
                    changed.append((victim, theirs[:colour] + (m + 1,) + theirs[colour + 1 :]))
            if left == 0:
                final = list(counts)
                for s, c in changed:
                    final[s] = c
                yield i, colour, p, None, deck_out_winners(new_scores, [sum(c) for c in final])
                continue
            if new_scores is scores:
                us = list(base_for(nxt))
                for s, c in changed:
                    us[s] = net(
                        seat_features(
                            c, scores[s], (s - nxt) % n, q, target, n, phase, best_others[s]
                        )
                    )
            else:  # my score changed: every seat's lead changes
                final = list(counts)
                for s, c in changed:
                    final[s] = c
                us = position_strengths(net, final, new_scores, nxt, q, target, phase)
            yield i, colour, p, us, ()


__all__ = [
    "FEATURES",
    "ExpertBot",
    "Network",
    "networks_by_players",
    "option_leaves",
    "seat_features",
]
