"""What the line mode makes a person hear: words per round, and each question's length.

Run: ``.venv/bin/python benchmarks/lines_words.py [--games 40] [--players 4]``.
Plays ``--games`` games of greedy bots (seeds 1, 2, ...), then says each one
as the line mode says it to the person in seat 1 (``LiveTable``, output to
memory): every other seat's move, then the question of each turn of theirs.
A round is what is said from one of their questions to the next, the
question included (at 4 seats: the three other moves, their own move, the
question).  Words are what a screen reader reads as words (runs between
spaces); a question's length is its characters before the prompt.  Printed
for the default wording and for brief, with the odds and ``more`` off
(``odds on``, ``more on`` lengthen the default question; brief leaves them
to be asked for).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
from dataclasses import dataclass

from mantis.engine import SeatInfo
from mantis.engine.record import record_of
from mantis.follow.moves import NoMoves
from mantis.follow.preferences import Preferences
from mantis.home import Settings
from mantis.lines.console import Console
from mantis.lines.live_table import LiveTable
from mantis.players import bot_factory
from mantis.sim.runner import play_game
from mantis.table import moves_of


@dataclass(frozen=True)
class Heard:
    """What one setting of the line mode said over some games."""

    round_words: tuple[int, ...]
    """Words said per round, question included."""
    questions: tuple[int, ...]
    """Each question's length in characters."""


def said(players: int, seed: int, *, brief: bool) -> str:
    """Everything the line mode says to seat 1 over one game of greedy bots."""
    bots = [bot_factory("greedy")() for _ in range(players)]
    game = play_game(bots, seed)
    names = ["You", "Ann", "Bea", "Cal", "Dee", "Eve"][:players]
    seats = [
        SeatInfo(name, "human" if seat == 0 else "bot", None if seat == 0 else "greedy")
        for seat, name in enumerate(names)
    ]
    record = record_of(game, seats)
    moves = moves_of(record)
    out = io.StringIO()
    live = LiveTable(
        Console(out=out),
        moves[0],
        Preferences(Settings(lines_brief=brief), saving=False),
        NoMoves(),
        controls=(0,),
    )
    live.begin()
    for move in moves[1:]:
        for message in move:
            live.take(message)
    return out.getvalue()


def measure(players: int, games: int, *, brief: bool) -> Heard:
    """Words per round and question lengths over ``games`` games (seeds 1 to ``games``)."""

    async def run() -> Heard:
        rounds: list[int] = []
        questions: list[int] = []
        for seed in range(1, games + 1):
            text = said(players, seed, brief=brief)
            # Each question ends with the prompt: a round runs to it, from the last one.
            parts = text.split(" > ")
            for part in parts[:-1]:
                lines = [line for line in part.splitlines() if line]
                questions.append(len(lines[-1]))
                rounds.append(sum(len(line.split()) for line in lines))
        # The first part holds the deal's lines too: it is no round.
        return Heard(tuple(rounds[1:]), tuple(questions))

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"{args.players} seats, {args.games} games of greedy bots, seat 1 asked")
    for brief in (False, True):
        heard = measure(args.players, args.games, brief=brief)
        words = heard.round_words
        print(
            f"{'brief' if brief else 'default'}: words per round mean "
            f"{statistics.mean(words):.1f}, median {statistics.median(words):.0f}, "
            f"max {max(words)}; question characters mean "
            f"{statistics.mean(heard.questions):.1f}, max {max(heard.questions)}"
        )


if __name__ == "__main__":
    main()
