"""The engine against jdsigg/mantis: whole games per second on one interpreter.

Run: ``.venv/bin/python benchmarks/engine_vs.py PATH [--games N] [--rounds R]``
where PATH is a checkout of https://github.com/jdsigg/mantis (nothing of it is
part of this repository; without it the script says so in one line and stops).

What is compared, for 2 and 4 players (``--players 2 4 6`` for others) and
two policies (docs/engine-speed.md has the figures and what they say):

* **one game** on each side is a whole game from a fresh start: jdsigg's
  ``Game(players).play()`` with new ``Player`` objects (its deck of 105 cards
  built and shuffled with ``random.shuffle``, four cards dealt to each seat, a
  random first seat), ours ``Game.new(players, seed).play_out(choosers)`` (the
  SHAKE-128 deal, the set-up).  Per turn both draw the top card, score or
  steal it, pass the turn (a successful steal moves again with two players)
  and test for the end; ours also builds the seat's ``View``, checks the
  action is legal and records it, jdsigg's also scans every seat for a winner.
* **the policies** are the same on both sides, so both play the same games in
  law: ``score`` always scores (jdsigg's style ``SCORE``, ours a chooser that
  returns ``SCORE``); ``random`` is jdsigg's style ``RANDOM`` (a coin:
  ``round(random.random())``, then a seat chosen with ``random.choice`` among
  the others) and ours the same calls on its own ``random.Random``.  The mean
  turns per game are printed beside each side's figure: they agree.
* **the same interpreter** runs both (this one, ``sys.executable``), each side
  in a fresh process of its own (both packages are called ``mantis``), all
  pinned to one core (``os.sched_setaffinity``), warmed up with a few hundred
  games, and alternated: round r runs ours then jdsigg's, round r+1 the other
  way round, so slow spells of a shared machine fall on both sides.

jdsigg's ``game.py`` is written for Python 3.12: one f-string in a line only
human players reach has quotes inside quotes.  On an older interpreter this
script compiles that file with those quotes changed (the code is the same),
as the module ``mantis.game.game``; nothing else of it is touched.

Printed per player count and policy: each side's games/s (wall clock, the
best round: load only ever slows a run down) and mean turns a game (over all
rounds), the median over rounds of ours / jdsigg's games/s from the same
round and its range, and the same median by CPU time (``process_time``),
which time spent waiting for the core does not inflate.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from time import perf_counter, process_time
from typing import Any

POLICIES = ("score", "random")
WARM_UP = 300
_GAME_PY = Path("mantis", "game", "game.py")


# ----------------------------------------------------------------- the two sides


def _timed(run: Callable[[], int]) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds of ``run()``, and what it returns."""
    wall, cpu = perf_counter(), process_time()
    result = run()
    return perf_counter() - wall, process_time() - cpu, result


def run_ours(players: int, policy: str, games: int) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds for ``games`` of our engine, and the turns they took."""
    import random

    from mantis.engine import SCORE, Action, Game, View, steal

    rng = random.Random(1)

    def coin(view: View) -> Action:
        # jdsigg's RANDOM style, call for call: a coin, then a seat among the others
        if round(rng.random()) == 1:
            mover = view.to_move
            return steal(rng.choice([i for i in range(players) if i != mover]))
        return SCORE

    def always_score(view: View) -> Action:
        return SCORE

    choose = always_score if policy == "score" else coin
    choosers = [choose] * players
    new = Game.new

    def play(first: int, count: int) -> int:
        turns = 0
        for seed in range(first, first + count):
            game = new(players, seed)
            game.play_out(choosers)
            turns += game.turn
        return turns

    play(10**6, WARM_UP)
    return _timed(lambda: play(0, games))


def _jdsigg_modules(checkout: Path) -> tuple[Any, Any, Any]:
    """jdsigg's ``Game``, ``Player`` and ``Style``, imported from ``checkout``."""
    import importlib
    import importlib.util

    sys.path.insert(0, str(checkout))  # its package is called ``mantis`` too: it goes first
    player = importlib.import_module("mantis.player.player")
    style = importlib.import_module("mantis.player.style")

    path = checkout / _GAME_PY
    source = path.read_text()
    try:
        code = compile(source, str(path), "exec")
    except SyntaxError:
        # 3.12's f-strings only: the win message's join has quotes inside quotes
        code = compile(source.replace('{",".join(', "{','.join("), str(path), "exec")
    spec = importlib.util.spec_from_file_location("mantis.game.game", path)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mantis.game.game"] = module
    exec(code, module.__dict__)
    return module.Game, player.Player, style.Style


def run_jdsigg(checkout: Path, players: int, policy: str, games: int) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds for ``games`` of jdsigg's engine, and the turns they took."""
    import random

    game_class, player_class, styles = _jdsigg_modules(checkout)
    style = styles.SCORE if policy == "score" else styles.RANDOM
    dealt = 105 - 4 * players
    random.seed(1)

    def play(count: int) -> int:
        turns = 0
        for _ in range(count):
            game = game_class([player_class(id=i, style=style) for i in range(players)])
            game.play()
            turns += dealt - len(game.deck)
        return turns

    play(WARM_UP)
    return _timed(lambda: play(games))


# ----------------------------------------------------------------- the rounds


def _worker(args: argparse.Namespace) -> None:
    if args.worker == "ours":
        wall, cpu, turns = run_ours(args.players[0], args.policy, args.games)
    else:
        wall, cpu, turns = run_jdsigg(args.checkout, args.players[0], args.policy, args.games)
    print(json.dumps({"wall": wall, "cpu": cpu, "turns": turns}))


def _measure(side: str, checkout: Path, players: int, policy: str, games: int) -> dict[str, Any]:
    command = [sys.executable, __file__, str(checkout), "--worker", side]
    command += ["--players", str(players), "--policy", policy, "--games", str(games)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"the {side} side failed ({players} players, {policy}): {last}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a checkout of jdsigg/mantis")
    parser.add_argument("--games", type=int, default=5000, help="games per side and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--policy", choices=POLICIES, nargs="+", default=list(POLICIES))
    parser.add_argument("--cpu", type=int, help="the core to pin to (default: the last one)")
    parser.add_argument("--worker", choices=("ours", "jdsigg"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not (args.checkout / _GAME_PY).is_file():
        print(f"no jdsigg/mantis checkout at {args.checkout}: nothing to compare against")
        return
    if args.worker:
        args.policy = args.policy[0]
        _worker(args)
        return
    cpu = max(os.sched_getaffinity(0)) if args.cpu is None else args.cpu
    os.sched_setaffinity(0, {cpu})  # the workers inherit it
    version = sys.version.split()[0]
    print(f"games/s on Python {version}, pinned to core {cpu}, {args.games} games a side")
    print(f"a round, {args.rounds} rounds alternated; load {os.getloadavg()[0]:.2f} at the start")
    cases = [(n, p) for n in args.players for p in args.policy]
    # per case and side: a (wall, cpu) pair of seconds a round, and the turns played
    times: dict[tuple[int, str, str], list[tuple[float, float]]] = {}
    turns: dict[tuple[int, str, str], int] = {}
    for r in range(args.rounds):
        sides = ("ours", "jdsigg") if r % 2 == 0 else ("jdsigg", "ours")
        for players, policy in cases:
            for side in sides:
                got = _measure(side, args.checkout, players, policy, args.games)
                times.setdefault((players, policy, side), []).append((got["wall"], got["cpu"]))
                turns[players, policy, side] = got["turns"] + turns.get((players, policy, side), 0)
    print(f"load {os.getloadavg()[0]:.2f} at the end")
    played = args.games * args.rounds
    head = f"{'players':>7} {'policy':<7} {'ours':>14} {'turns':>6} {'jdsigg':>14} {'turns':>6}"
    print(f"{head} {'ours/jdsigg':>12} {'range':>11} {'by CPU time':>12}")
    for players, policy in cases:
        ours = times[players, policy, "ours"]
        theirs = times[players, policy, "jdsigg"]
        # the same round's two runs, paired: a slow spell of the machine cancels out
        walls = [b[0] / a[0] for a, b in zip(ours, theirs, strict=True)]
        cpus = [b[1] / a[1] for a, b in zip(ours, theirs, strict=True)]
        print(
            f"{players:>7} {policy:<7} {args.games / min(a[0] for a in ours):>8,.0f} gm/s"
            f" {turns[players, policy, 'ours'] / played:>6.1f}"
            f" {args.games / min(b[0] for b in theirs):>8,.0f} gm/s"
            f" {turns[players, policy, 'jdsigg'] / played:>6.1f}"
            f" {statistics.median(walls):>11.2f}x {min(walls):>5.2f}-{max(walls):.2f}"
            f" {statistics.median(cpus):>11.2f}x"
        )


if __name__ == "__main__":
    main()
