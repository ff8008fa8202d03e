"""How close ``expert`` plays to the best play found: a depth-2 expectimax against it.

    nice -n 10 .venv/bin/python -m training.expectimax_vs_expert --deals 2000 --seed 1 --jobs 2

The search looks two moves ahead, on the engine, with every chance event
exact:

1. each of its legal moves, for each face the top card can have (card
   counting: the faces still unseen under its back, equally likely), is
   played on a copy of the game (``Game.put_on_top`` makes that card the top
   one; a win or a deck-out there is valued exactly);
2. then, for each back the next card can have (each unseen card equally
   likely to be next), that back is put on top and the next mover moves:
   an opponent as ``expert`` would (``ExpertBot``'s choice, the same
   tie-break), the searcher itself (a successful steal's extra turn at two
   seats) by its best move;
3. that second move is valued as ``expert`` values its moves (the exact
   average over the top card's faces of the expert's network, or the exact
   result where the game ends: ``option_leaves``), but for the searcher's
   seat.

It plays the move whose expected value is highest.  It sees nothing
``expert`` does not: every card it branches on is put on top by the search
itself, never read from the pile.

Every deal (``game_seed(seed, i)``) is played twice, the search in each seat
against ``expert`` (paired games).  Reported: the search's share of the wins
(a shared win split) with its 95% Wilson interval, how often its move differs
from the one ``expert`` would have played in the same position, and its
time per decision (median, mean, p95; CPU seconds of the process).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from typing import Any

from mantis.engine import Action, Game, View, game_seed
from mantis.engine.cards import ALL_CARDS_MASK, NUM_CARDS
from mantis.players.bots.expert import ExpertBot, Network, networks_by_players, option_leaves
from mantis.sim.stats import percentile, wilson_interval


def mover_values(view: View, net: Any, seat: int) -> tuple[list[float], list[float]]:
    """Each legal move's expected value, as ``expert`` values it: for the mover, and for
    ``seat``."""
    n_options = len(view.legal_actions())
    mover = view.to_move
    for_mover = [0.0] * n_options
    for_seat = [0.0] * n_options
    exp = math.exp
    for i, _colour, p, us, winners in option_leaves(view, net):
        if us is None:
            # as ExpertBot.action_values counts it (a shared win in full); the seat's own
            # value splits it, as the games are scored
            for_mover[i] += p * (mover in winners)
            if seat in winners:
                for_seat[i] += p / len(winners)
            continue
        um = us[mover]
        for_mover[i] += p / sum(exp(u - um) for u in us)
        us_ = us[seat]
        for_seat[i] += p / sum(exp(u - us_) for u in us)
    return for_mover, for_seat


def expert_pick(values: Sequence[float]) -> int:
    """``ExpertBot.choose``'s pick among values: the first best, ties within 1e-12."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best] + 1e-12:
            best = i
    return best


def _unseen_of_back(seen: int, back: int) -> list[int]:
    return [back * 3 + k for k in range(3) if not seen >> (back * 3 + k) & 1]


class Remembered:
    """A network that remembers what it gave each input: within one decision the
    positions two moves on repeat across the next card's backs (a back changes only
    which faces can come, and so the faces' odds)."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.known: dict[tuple[float, ...], float] = {}

    def __call__(self, x: list[float]) -> float:
        key = tuple(x)
        value = self.known.get(key)
        if value is None:
            value = self.known[key] = self.net(x)
        return value


class Expectimax:
    """The depth-2 search: ``choose(game)`` from the engine's game (see the module)."""

    def __init__(self, players: int) -> None:
        self.trained = networks_by_players()[players]
        self.net: Any = self.trained

    def action_values(self, game: Game) -> list[float]:
        """Each legal move's expected value (the searcher's chance to win)."""
        self.net = Remembered(self.trained)  # afresh for each decision: memory stays small
        view = game.view()
        me = view.to_move
        assert view.top_back is not None
        values = []
        for action in view.legal_actions():
            total = 0.0
            top = _unseen_of_back(view.seen, view.top_back)
            for card in top:
                total += self._after(game, card, action, me) / len(top)
            values.append(total)
        return values

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        return actions[expert_pick(self.action_values(game))]

    def _after(self, game: Game, card: int, action: Action, me: int) -> float:
        """My value once ``action`` is played with ``card`` on top."""
        after = game.copy()
        after.put_on_top(card)
        after.play(action)
        if after.over:
            winners = after.winners or ()
            return 1 / len(winners) if me in winners else 0.0
        seen = after.view().seen
        left = (ALL_CARDS_MASK ^ seen).bit_count()
        value = 0.0
        for back in range(NUM_CARDS // 3):
            cards = _unseen_of_back(seen, back)
            if not cards:
                continue
            after.put_on_top(cards[0])  # only its back shows
            view = after.view()
            for_mover, for_me = mover_values(view, self.net, me)
            pick = (
                max(range(len(for_me)), key=for_me.__getitem__)
                if view.to_move == me
                else expert_pick(for_mover)
            )
            value += len(cards) / left * for_me[pick]
        return value


def play_deal(index: int, seed: int, players: int) -> list[dict[str, Any]]:
    """Deal ``index`` played ``players`` times, the search in each seat against ``expert``."""
    deal = game_seed(seed, index)
    out = []
    for hero in range(players):
        game = Game.new(players, deal)
        search = Expectimax(players)
        expert = ExpertBot()
        times: list[float] = []
        changed = 0
        while not game.over:
            view = game.view()
            if game.to_move == hero:
                start = time.process_time()
                action = search.choose(game)
                times.append(time.process_time() - start)
                changed += action != expert.choose(view)
            else:
                action = expert.choose(view)
            game.play(action)
        winners = game.winners or ()
        out.append(
            {
                "share": 1 / len(winners) if hero in winners else 0.0,
                "decisions": len(times),
                "changed": changed,
                "times": times,
            }
        )
    return out


def _deal_worker(args: tuple[int, int, int]) -> list[dict[str, Any]]:
    return play_deal(*args)


def run(deals: int, seed: int, players: int, jobs: int) -> dict[str, Any]:
    work = [(i, seed, players) for i in range(deals)]
    start = time.perf_counter()
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            games = [g for deal in pool.imap(_deal_worker, work, chunksize=4) for g in deal]
    else:
        games = [g for w in work for g in _deal_worker(w)]
    share = sum(g["share"] for g in games)
    decisions = sum(g["decisions"] for g in games)
    changed = sum(g["changed"] for g in games)
    times = sorted(t for g in games for t in g["times"])
    lo, hi = wilson_interval(share, len(games))
    return {
        "players": players,
        "deals": deals,
        "games": len(games),
        "seed": seed,
        "share": share / len(games),
        "ci95": [lo, hi],
        "decisions": decisions,
        "changed": changed / decisions,
        "decision_ms": {
            "median": percentile(times, 0.5) * 1000,
            "mean": sum(times) / len(times) * 1000,
            "p95": percentile(times, 0.95) * 1000,
        },
        "seconds": time.perf_counter() - start,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="each played once per seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=argparse.FileType("w"), help="also write the result here")
    args = parser.parse_args(argv)
    result = run(args.deals, args.seed, args.players, args.jobs)
    lo, hi = result["ci95"]
    ms = result["decision_ms"]
    print(
        f"depth-2 expectimax against expert, {args.players} seats, {result['games']:,} paired "
        f"games: {result['share']:.2%} [{lo:.2%}, {hi:.2%}]; expert's move changed in "
        f"{result['changed']:.1%} of {result['decisions']:,} decisions; "
        f"{ms['median']:.1f} ms a decision (median; mean {ms['mean']:.1f}, p95 {ms['p95']:.1f})"
    )
    if args.json:
        json.dump(result, args.json, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
