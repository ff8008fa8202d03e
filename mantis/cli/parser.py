"""The ``mantis`` command's options: its argparse parser, one function per command.

Loaded only when there are options to read: plain ``mantis`` opens the setup
screen without it (``mantis.cli``).  A bad value raises ``UsageError``, one line
(what each value may be: ``option_values``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from .. import __version__
from ..engine.seat_count import SEAT_RANGE
from ..home.settings import SPEEDS
from ..players.registry import BUILT_IN
from ..web import MAX_TABS
from . import UsageError
from . import option_values as value

#: Built-in bot levels a server offers (the registry names them without importing the bots).
_BOT_LEVELS = BUILT_IN

#: Where a command's subcommands are added: what ``add_subparsers`` returns (argparse
#: names its type privately).
_Subcommands = Any


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage dump
        raise UsageError(message)


def build_parser(serving: bool = False, *, play_only: bool = False) -> argparse.ArgumentParser:
    """The command line's parser; ``serving=False`` leaves out ``mantis serve``'s limits
    (their defaults live with the server: no other command loads the network code).

    ``play_only`` builds ``mantis play`` alone: a table's launch pays for the parser
    before its first frame.
    """
    parser = _Parser(
        prog="mantis",
        description="Mantis, the card game, in your terminal. Without a command: play.",
    )
    parser.add_argument("--version", action="version", version=f"mantis {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    _add_play(sub)
    if play_only:
        return parser
    _add_replay(sub)
    _add_review(sub)
    _add_simulate(sub)
    _add_tournament(sub)
    _add_serve(sub, limits=serving)
    _add_migrate(sub)
    _add_host(sub)
    _add_quick(sub)
    _add_join(sub)
    _add_watch(sub)
    _add_web(sub)
    _add_key(sub)
    _add_games(sub)
    _add_stats(sub)
    return parser


def _command(
    sub: _Subcommands, name: str, summary: str, more: str = "", **kwargs: Any
) -> argparse.ArgumentParser:
    """A subcommand: ``summary`` in ``mantis --help``'s list and, with ``more`` after it,
    at the top of ``mantis NAME --help``."""
    description = summary[:1].upper() + summary[1:] + "."
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=f"{description} {more}".strip(), **kwargs
    )
    return parser


def _lines(parser: argparse.ArgumentParser, what: str = "play") -> None:
    """``--lines`` (and ``--no-lines``) on a command that has a line mode."""
    parser.add_argument(
        "--lines",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"{what} in lines of text, for screen readers and braille displays "
        "(default: MANTIS_LINES=1, or the setting)",
    )


_JOBS_HELP = "worker processes, or auto for every core (default: whichever is faster for the run)"

_SERVER_URL = "the server, e.g. ws://127.0.0.1:8765"
_YOUR_NAME = "your name at the table (default: your login name)"


# ---------------------------------------------------------------------- playing here


def _add_play(sub: _Subcommands) -> None:
    play = _command(
        sub,
        "play",
        "play at a table (default command)",
        "Without --seats, the setup screen (which offers an unfinished game back); with them, "
        "the table at once.",
    )
    play.add_argument("--seats", help="comma list, one per seat: human or a bot name")
    play.add_argument("--names", help="comma list of seat names")
    play.add_argument(
        "--seed", type=value.seed, help="deal this seed (same as simulate's game seed)"
    )
    play.add_argument("--speed", choices=SPEEDS, help="how fast bots move")
    play.add_argument(
        "--bot-timeout",
        type=value.seconds,
        help="seconds a bot may think (default: as set in the settings, F2)",
    )
    play.add_argument(
        "--resume", action="store_true", help="resume the unfinished game, if there is one"
    )
    _lines(play)


def _add_replay(sub: _Subcommands) -> None:
    replay = _command(
        sub,
        "replay",
        "watch a recorded game, move by move",
        "FILE holds game records (docs/game-record.md), as simulate --record and games "
        "export write them.",
    )
    replay.add_argument("file", metavar="FILE", help="game records (JSON lines), e.g. --record's")
    replay.add_argument(
        "--game",
        type=value.positive_int,
        default=1,
        help="which game in the file, from 1 (default 1)",
    )
    replay.add_argument(
        "--speed",
        choices=SPEEDS,
        help="with --lines: how fast the moves are said (default: the speed setting; all at "
        "once when the output is not a terminal); the setting itself is left as it is",
    )
    _lines(replay, "say every move")


def _add_review(sub: _Subcommands) -> None:
    review = _command(
        sub,
        "review",
        "what each decision of a recorded game was worth, and how much was luck",
        "For every decision, each option's chance of winning as the mover could know it, the "
        "loss against the best option and a label (inaccuracy, mistake, blunder); per seat, "
        "accuracy, luck and a luck-adjusted result. Reviews the games of a FILE, or one of "
        "your past games: --last, or --past N with its number in Past games.",
    )
    review.add_argument(
        "file", metavar="FILE", nargs="?", help="game records (JSON lines), e.g. --record's"
    )
    review.add_argument(
        "--game",
        type=value.positive_int,
        metavar="N",
        help="only this game of the file, from 1 (default: all)",
    )
    review.add_argument(
        "--past",
        type=value.positive_int,
        metavar="N",
        help="your past game number N, as Past games numbers it (instead of a FILE)",
    )
    review.add_argument(
        "--last", action="store_true", help="your latest finished game (instead of a FILE)"
    )
    review.add_argument(
        "--seat", metavar="S", help="only this seat: its number from 1, or its name (default: all)"
    )
    review.add_argument("--json", action="store_true", help="print one JSON object per game")
    _lines(review, "print the summary")


# ---------------------------------------------------------------------- the simulator


def _add_simulate(sub: _Subcommands) -> None:
    sim = _command(
        sub,
        "simulate",
        "play bot-vs-bot games headless and report",
        "Per seat (numbered from 1): wins, win rate with its 95% interval and mean score.",
    )
    sim.add_argument("--players", type=int, required=True, help=f"seats at the table, {SEAT_RANGE}")
    sim.add_argument("--bots", required=True, help="one bot for every seat, or one per seat")
    sim.add_argument("--games", type=int, required=True, help="how many games")
    sim.add_argument("--seed", type=value.seed, default=0, help="base seed (default 0)")
    sim.add_argument("--jobs", type=value.jobs, help=_JOBS_HELP)
    sim.add_argument("--record", metavar="FILE", help="write every game's record (JSON lines)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")


def _add_tournament(sub: _Subcommands) -> None:
    tour = _command(
        sub,
        "tournament",
        "every bot against every other, seats rotated",
        "A ranking, a head-to-head table and decision times; --games counts per lineup.",
    )
    tour.add_argument("--bots", required=True, help="comma list of bots (at least two)")
    tour.add_argument("--players", type=int, default=2, help=f"seats at the table, {SEAT_RANGE}")
    tour.add_argument("--games", type=int, required=True, help="games per lineup")
    tour.add_argument("--seed", type=value.seed, default=0, help="base seed (default 0)")
    tour.add_argument("--jobs", type=value.jobs, help=_JOBS_HELP)
    tour.add_argument(
        "--ratings", action="store_true", help="also print the ratings the results imply"
    )
    tour.add_argument("--json", action="store_true", help="print one JSON object")


# ---------------------------------------------------------------------- running a server


def _add_serve(sub: _Subcommands, *, limits: bool) -> None:
    """``mantis serve``: a table server; ``limits`` adds the options of what one party may
    cost it (only when serving: their defaults live with the server)."""
    serve = _command(
        sub,
        "serve",
        "run a table server for online play",
        "It listens on this machine only unless --host says otherwise, and keeps its tables "
        "on disk: stopped and started again, it resumes every one.",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=value.port, default=8765, help="port (default 8765; 0: any free one)"
    )
    serve.add_argument(
        "--data", metavar="DIR", help="where tables are kept (default: the app's data)"
    )
    serve.add_argument(
        "--database",
        metavar="URL",
        help="keep tables in PostgreSQL (postgresql://user@host/db) or a SQLite file "
        "(default: server.sqlite3 in --data)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="join a cluster of nodes sharing this Redis (redis://host:6379/0) and "
        "--database postgresql://...",
    )
    serve.add_argument(
        "--node", metavar="NAME", help="this node's name in logs and metrics (default host:port)"
    )
    serve.add_argument(
        "--metrics",
        type=value.listen_address,
        metavar="HOST:PORT",
        help="serve GET /metrics (Prometheus) on this address only, e.g. 127.0.0.1:9100 "
        "(default: no metrics)",
    )
    serve.add_argument(
        "--away-after",
        type=value.seconds,
        default=60.0,
        help="seconds a table waits for a disconnected person before their away bot plays",
    )
    serve.add_argument(
        "--bot-pace",
        type=value.pace,
        default=1.0,
        help="least seconds a bot's move takes (default 1)",
    )
    serve.add_argument(
        "--quick-bot",
        choices=_BOT_LEVELS,
        default="greedy",
        help="the bots that fill quick-play tables and play for their people away (default greedy)",
    )
    serve.add_argument(
        "--quick-wait",
        type=value.seconds,
        default=60.0,
        help="seconds a quick-play table waits with someone seated before bots fill it "
        "(default 60)",
    )
    if limits:
        _add_limits(serve)
    serve.add_argument(
        "--seed", type=value.seed, help=argparse.SUPPRESS
    )  # the server's own tests only


def _add_limits(serve: argparse.ArgumentParser) -> None:
    """``mantis serve``'s limits: what one party may cost the server (docs/protocol.md)."""
    from ..net.server.limits.server_limits import ServerLimits

    default = ServerLimits()
    group = serve.add_argument_group("limits (what one party may cost the server)")
    per_second = value.number(float, "a number", lambda v: v > 0, "must be more than 0")
    options: list[tuple[str, Callable[[str], Any], str, str]] = [
        ("max_tables", value.positive_int, "N", "tables waiting or playing on this server"),
        (
            "tables_per_address",
            value.positive_int,
            "N",
            "tables waiting or playing one address may have created",
        ),
        (
            "idle_waiting",
            value.seconds,
            "SECONDS",
            "close a waiting table nobody is connected to after this long",
        ),
        (
            "max_connections",
            value.positive_int,
            "N",
            "connections at once, fewer if the open-file limit allows fewer",
        ),
        ("connections_per_address", value.positive_int, "N", "connections one address may hold"),
        ("spectators_per_table", value.positive_int, "N", "spectators one table takes"),
        (
            "bot_moves",
            per_second,
            "PER_SECOND",
            "bot moves a second before they are shared out by address",
        ),
    ]
    for field, kind, metavar, text in options:
        preset = getattr(default, field)
        group.add_argument(
            "--" + field.replace("_", "-"),
            type=kind,
            default=preset,
            metavar=metavar,
            help=f"{text} (default {preset:,g})",
        )
    group.add_argument(
        "--trusted-proxy",
        type=value.network,
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy whose X-Forwarded-For names the client (an address or a "
        "network; repeat for more)",
    )


def _add_migrate(sub: _Subcommands) -> None:
    migrate = _command(
        sub,
        "migrate",
        "copy a server's tables from its SQLite file into PostgreSQL",
        "Games in play included; the SQLite file is left as it was.",
    )
    migrate.add_argument(
        "--data", metavar="DIR", help="the server's data folder (default: the app's data)"
    )
    migrate.add_argument(
        "--database",
        metavar="URL",
        type=value.postgres_url,
        required=True,
        help="an empty PostgreSQL database: postgresql://user@host/db",
    )


# ---------------------------------------------------------------------- playing online


def _add_host(sub: _Subcommands) -> None:
    bots = ", ".join(_BOT_LEVELS)
    host = _command(
        sub,
        "host",
        "open a table on a server and sit at it",
        "Its waiting room shows the table's code for others to join with.",
    )
    host.add_argument("url", metavar="URL", help=_SERVER_URL)
    host.add_argument(
        "--seats", required=True, help=f"comma list: human (you), open (for a person), or {bots}"
    )
    host.add_argument("--name", help=_YOUR_NAME)
    host.add_argument("--private", action="store_true", help="joinable by code only, not listed")
    host.add_argument(
        "--away-bot",
        choices=_BOT_LEVELS,
        default="greedy",
        help="who plays for a person who is away, or out of time (default greedy)",
    )
    host.add_argument(
        "--clock",
        type=value.turn_clock,
        metavar="SECONDS",
        help="a turn clock: seconds a person has for each move (default: no clock; a rated "
        "table needs one, 5 to 120)",
    )
    host.add_argument(
        "--no-talk", action="store_true", help="nobody talks at this table (talk is on by default)"
    )
    host.add_argument(
        "--rated",
        action="store_true",
        help="its games move the ratings of the people in them on this server (with --clock)",
    )
    _lines(host)


def _add_quick(sub: _Subcommands) -> None:
    quick = _command(
        sub,
        "quick",
        "play now: a seat at any quick-play table on a server (or a new one)",
        "A quick-play table starts once full; after a minute, bots take the open seats.",
    )
    quick.add_argument("url", metavar="URL", help=_SERVER_URL)
    quick.add_argument(
        "--players",
        type=value.seat_count,
        default=3,
        help=f"seats at the table, {SEAT_RANGE} (default 3)",
    )
    quick.add_argument("--name", help=_YOUR_NAME)
    _lines(quick)


def _add_join(sub: _Subcommands) -> None:
    join = _command(
        sub,
        "join",
        "take a seat at a server's table (or your seat back)",
        "Joining a table you sat at before gives you your own seat back; without a code, "
        "your newest game in progress on that server.",
    )
    join.add_argument("url", metavar="URL", help=_SERVER_URL)
    join.add_argument(
        "code",
        metavar="CODE",
        nargs="?",
        help="the table's code, e.g. KXQD (none: take back your newest game in progress there)",
    )
    join.add_argument("--name", help=_YOUR_NAME)
    _lines(join)


def _add_watch(sub: _Subcommands) -> None:
    watch = _command(
        sub, "watch", "watch a server's table", "Spectators see every move, never a card early."
    )
    watch.add_argument("url", metavar="URL", help=_SERVER_URL)
    watch.add_argument("code", metavar="CODE", help="the table's code, e.g. KXQD")
    watch.add_argument(
        "--name",
        help="the name you talk under, to the other spectators (default: your login name)",
    )
    _lines(watch, "watch")


def _add_web(sub: _Subcommands) -> None:
    web = _command(
        sub,
        "web",
        "play in a web browser: one game per tab",
        "Open the address it prints. Each tab is an app of its own, with this computer's "
        "saves and statistics.",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    web.add_argument(
        "--port", type=value.port, default=8000, help="port (default 8000; 0: any free one)"
    )
    web.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        type=value.host_name,
        help="a name of this computer's that browsers may use besides its own (repeatable)",
    )
    web.add_argument(
        "--max-tabs",
        type=value.positive_int,
        default=MAX_TABS,
        help=f"most tabs (one app process each) served at once (default {MAX_TABS})",
    )


# ---------------------------------------------------------------------- player keys


def _add_key(sub: _Subcommands) -> None:
    key = _command(
        sub,
        "key",
        "your player keys: what holds your name on each server",
        "A player key holds your name (and rating) on a server: the app makes one the first "
        "time it plays there. Losing it loses the name. Export your keys to a file to keep "
        "them safe or to play from another computer, and import them there.",
    )
    key_sub = key.add_subparsers(dest="key_command", required=True, parser_class=_Parser)
    _add_key_export(key_sub)
    _add_key_import(key_sub)
    _add_key_list(key_sub)
    _add_key_reintroduce(key_sub)
    _add_key_rotate(key_sub)


def _add_key_export(key_sub: _Subcommands) -> None:
    export = _command(key_sub, "export", "write your keys (or one server's) to a file")
    export.add_argument(
        "server", metavar="SERVER", nargs="?", help="only this server's key (default: all)"
    )
    export.add_argument("file", metavar="FILE", help="the file to write")


def _add_key_import(key_sub: _Subcommands) -> None:
    imported = _command(key_sub, "import", "take the keys in a file in")
    imported.add_argument("file", metavar="FILE")
    imported.add_argument(
        "--replace",
        action="store_true",
        help="a server you hold another key for takes the file's (yours is lost)",
    )


def _add_key_list(key_sub: _Subcommands) -> None:
    _command(key_sub, "list", "the servers you hold a key for")


def _add_key_reintroduce(key_sub: _Subcommands) -> None:
    reintroduce = _command(
        key_sub,
        "reintroduce",
        "let your key introduce itself again to a server that lost its players",
        "Your key proves itself to a server with its verifier, sent once: the first time you "
        "sit down there. The app never sends it to that server again, so when it is asked "
        "for, nothing goes: over ws:// someone between you and the server may be asking, to "
        "play as you. If the server really lost its players (its operator says so), this "
        "lets the verifier go once more, at your next sitting there; over wss:// nobody "
        "between can read it.",
    )
    reintroduce.add_argument("server", metavar="SERVER", help=_SERVER_URL)


def _add_key_rotate(key_sub: _Subcommands) -> None:
    rotate = _command(
        key_sub,
        "rotate",
        "replace your key for a server by a new one, there and here",
        "The server moves every name the old key held to the new one; the old key then "
        "holds nothing there.",
    )
    rotate.add_argument("server", metavar="SERVER", help=_SERVER_URL)


# ---------------------------------------------------------------------- your past games


def _add_games(sub: _Subcommands) -> None:
    games = _command(
        sub,
        "games",
        "your past games: the games finished in this app, online ones included",
        "Each is named by its number in Past games.",
    )
    games_sub = games.add_subparsers(dest="games_command", required=True, parser_class=_Parser)
    _add_games_export(games_sub)


def _add_games_export(games_sub: _Subcommands) -> None:
    export = _command(
        games_sub,
        "export",
        "write past games as game records (JSON lines, docs/game-record.md)",
        "Every past game, oldest first, unless numbers or --last name some.",
    )
    export.add_argument(
        "numbers",
        metavar="N",
        nargs="*",
        type=value.positive_int,
        help="a past game's number, as Past games shows it (default: every game)",
    )
    export.add_argument("--last", type=value.positive_int, metavar="K", help="the latest K games")
    export.add_argument(
        "--output", "-o", metavar="FILE", help="write this file (default: print the records)"
    )


def _add_stats(sub: _Subcommands) -> None:
    stats = _command(sub, "stats", "each human player's results in finished games")
    stats.add_argument("--player", metavar="NAME", help="only this player (any case)")
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    _lines(stats, "say the figures")
