"""The line mode's ``help``: the commands that work where the person is, a line each.

Where matters: a game under way or over, here or online, seated or
watching, an online waiting room (and whether this person hosts it).  Each
line leads with the command as it is typed, then its one-letter form where
it has one (``commands.ALIASES``; a test holds every letter said here to it).
"""

from __future__ import annotations

from ..home import SPEEDS
from ..players.registry import level_choices
from .wording import join_or

FIRST = "Commands, then Enter; a letter after or is the same command:"


def level_words() -> str:
    """The bot levels as said: "random, casual, greedy or expert" (the registry's levels)."""
    return join_or([bot for _, bot in level_choices()])


def help_lines(
    *,
    playing: bool,
    online: bool = False,
    seated: bool = True,
    waiting: bool = False,
    host: bool = False,
) -> list[str]:
    """The commands, a line each: for a game under way (``playing``) or over, at a table here
    or ``online`` (``seated`` or watching), or in an online ``waiting`` room (``host``)."""
    lines = [FIRST]
    if waiting:
        lines.append("look or l: the seats again, and who the table waits for.")
        if host:
            lines += [
                f"bot, or bot expert: add a seat for a bot of that level, {level_words()}.",
                "open: add a seat for a person who joins with the code.",
                "remove 3: take seat 3 away, a bot, an open seat or someone offline.",
                "start: start the game, once every seat is taken.",
            ]
    else:
        if playing and seated:
            lines += [
                "score or s: turn the top card into your own tank.",
                "A seat's number, such as 2: steal, turn the top card into that seat's tank.",
                "Enter alone: the whole question again.",
            ]
        lines += [
            "look or l: the whole table, each seat's score and tank; look 2: seat 2 alone.",
            "scores: the scores.",
            "log: the last 5 moves again; log 20: the last 20. last: the last move.",
        ]
        if playing:
            lines += [
                "more or m: what each tank holds of the top card's colours; "
                "more on, more off: in every question.",
                "odds or o: each move's chance now; odds on, odds off: in every question.",
                "coach or c: what the strongest bot would do now, and why; "
                "coach on, coach off: before every question.",
            ]
        lines += [
            "brief on, brief off: each move and question in as few words as will do.",
            "bell on, bell off: the bell for your turn, a steal from you, a clock warning, "
            "the end.",
        ]
    if online:
        lines.append("talk TEXT or t TEXT: say something to the table.")
        lines.append("ping: how long the server takes to answer.")
        lines.append("who: who sits at the table and who is watching it.")
        if playing and not waiting:
            lines.append("clock: the time left for the move being played.")
            if seated:
                lines += [
                    "leave: leave the game for good, a bot plays your seat to the end.",
                    "back or b: play your own turns again after being away.",
                ]
    elif playing:
        lines += [
            "pause or p: pause the bots before their next move, or let them play on; "
            "next or n: one move while paused.",
            f"speed: the bots' next speed, {join_or(list(SPEEDS))}; speed fast sets it.",
        ]
    if not playing and not waiting:
        if online and seated:
            lines.append("again or a: offer another game, or accept the one offered; d: decline.")
        elif not online:
            lines += [
                "again or a: a new deal with the same seats; rematch or r: the same deal.",
                "n: a new table, you say its seats.",
            ]
        lines.append("replay or v: the game again, move by move; review or e: its review.")
    if online:
        ending = "quit or q: quit; your seat stays yours, join again to take it back."
        if not seated or not playing:
            ending = "quit or q: quit."
    elif playing:
        ending = "quit or q: quit; a game under way is saved and offered back."
    else:
        ending = "quit or q: quit."
    lines.append(f"help or h: this list. {ending}")
    return lines
