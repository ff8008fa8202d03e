"""Your games in progress, said in lines: the tables on a server where your key holds a seat.

Said when an online session starts (``mantis host``/``join``/``quick``/``watch``
with ``--lines``), for the tables besides the one just reached, each a line
with the command that takes its seat back; ``mantis join URL --lines`` with
no code takes back the newest (``net.launch_options``).  The server tells
the key's owner alone (``net.games_in_progress``).
"""

from __future__ import annotations

from ..net.client import OnlineError
from ..net.client.games_in_progress import GameInProgress, games_in_progress
from ..table.narration import join_names
from .console import Console


async def say_games_in_progress(console: Console, url: str, *, but: str | None = None) -> None:
    """Say this person's games in progress on the server at ``url`` (not table ``but``);
    nothing if there are none, or the server cannot say."""
    try:
        found = await games_in_progress(url)
    except OnlineError:
        return  # (the table itself says what is wrong with the server, if anything)
    others = [game for game in found if game.table.code != but]
    if not others:
        return
    many = len(others) > 1
    console.say(
        f"You have {len(others)} {'other ' if but else ''}game{'s' if many else ''} in "
        "progress on this server."
    )
    for game in others:
        console.say(game_line(game, url))


def game_line(game: GameInProgress, url: str) -> str:
    """One game in progress, and how to take its seat back, in words."""
    held = game.table
    spelt = " ".join(c for c in game.code if c.isalnum())
    where = "waiting to start" if held.state == "waiting" else f"move {held.moves + 1}"
    others = [name for name in game.others(you="") if name]
    line = f"Table {spelt}, {where}, with {join_names(others)}"
    if game.token is None:
        return f"{line}: your seat there was taken on another computer, which takes it back."
    return f"{line}: mantis join --lines {url} {held.code} takes your seat back."
