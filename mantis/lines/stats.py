"""``mantis stats`` in lines: each person's figures in sentences, to be heard.

The figures are the statistics' own (``follow.stats_report.load_player_stats``),
the same the app's statistics screen and ``mantis stats`` show; only the
wording is this mode's: no table whose columns a screen reader reads as a
run of numbers, no chart drawn in box characters, no ``±`` or ``?`` sign.
Each line is whole on its own and starts with the person's name.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..base.printable import echo
from ..home.stats import PlayerStats, StatsError, Tally
from ..table.names import YOU
from ..table.narration import possessive
from .wording import plural

#: Results said one by one, the latest last.
RECENT = 10


def _tally(label: str, tally: Tally) -> str:
    return f"{label}, won {tally.wins} of {tally.games}"


def _percent(tally: Tally) -> str:
    return f"{round(100 * tally.win_rate)} percent"


def player_lines(stats: PlayerStats) -> list[str]:
    """One person's figures, a sentence a line: results, rating, against whom, table sizes."""
    name, overall = stats.name, stats.overall
    whose = possessive(name, start=True)
    headline = (
        f"{name}: {plural(overall.games, 'game')}, {plural(overall.wins, 'win')}, "
        f"{_percent(overall)}"
    )
    if stats.current_streak > 1:
        headline += f"; the last {stats.current_streak} won in a row"
    if stats.best_streak > 1:
        headline += f"; best run {stats.best_streak} wins"
    lines = [f"{headline}."]
    recent = [won for _, won in stats.results][-RECENT:]
    if recent:
        said = ", ".join("won" if won else "lost" for won in recent)
        last = "last game" if len(recent) == 1 else f"last {len(recent)} games, the latest last"
        lines.append(f"{whose} {last}: {said}.")
    rating = stats.rating
    if rating is None:
        lines.append(f"{name} {'have' if name == YOU else 'has'} no rating yet.")
    else:
        provisional = ", provisional" if rating.provisional else ""
        lines.append(
            f"{whose} rating: {rating.shown:,}, give or take {rating.plus_minus:,}"
            f"{provisional}, after {plural(len(stats.ratings), 'rated game')}."
        )
        if len(stats.ratings) > 1:
            shown = [point.rating.shown for point in stats.ratings]
            lines.append(
                f"{whose} rating went from {shown[0]:,} to {shown[-1]:,}; "
                f"highest {max(shown):,}, lowest {min(shown):,}."
            )
    if stats.vs_bots:
        bots = "; ".join(_tally(bot, tally) for bot, tally in stats.vs_bots)
        lines.append(f"{name} against each bot: {bots}.")
    if stats.vs_people:
        people = "; ".join(_tally(person, tally) for person, tally in stats.vs_people)
        lines.append(f"{name} against each person: {people}.")
    sizes = "; ".join(_tally(f"{n} players", tally) for n, tally in stats.by_players)
    if sizes:
        lines.append(f"{name} by table size: {sizes}.")
    return lines


def stats_lines(stats: Sequence[PlayerStats]) -> list[str]:
    """Every person's figures, one after another."""
    lines: list[str] = []
    for person in stats:
        lines += player_lines(person)
    if any(person.rating is not None for person in stats):
        lines.append(
            "Ratings: 1,500 is a new player and the average bot level; give or take is where "
            "the rating lies with 95 percent belief; a provisional one rests on few games yet."
        )
    return lines


def run_stats(args: argparse.Namespace) -> int:
    """``mantis stats --lines``; the exit status (1 on a database error)."""
    from ..follow.stats_report import load_player_stats

    try:
        stats = load_player_stats(args.player)
    except StatsError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 1
    if not stats:
        who = f" for {args.player}" if args.player is not None else ""
        echo(f"No games recorded yet{who}: a finished game shows here.", lines=False)
        return 0
    for line in stats_lines(stats):
        echo(line, lines=False)
    return 0
