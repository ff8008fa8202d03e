"""Finished games in an SQLite database, and the figures the app shows from it.

``StatsDB`` records every finished game (date, seats, winners, scores, turns
and the full record, so any past game can be replayed) and answers: which
games were played, and how each human player is doing.  Every database
problem becomes a ``StatsError`` with a one-line message; the caller shows
it and the game goes on without statistics.

A damaged database is refused, never deleted or moved: SQLite may still be
able to recover it (and a journal left next to it belongs to it), so the
message names the file and leaves the decision to the user.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

from ..base.paths import data_dir
from ..engine.record import GameRecord, parse_record
from ..engine.seats import RecordError, SeatInfo
from ..rating.scale import Rating
from .local_ratings import RatingChange, RatingPoint, rate_stored_game, rating_change
from .stats_schema import SCHEMA_VERSION, NewerSchemaError, migrate, player_key, seat_rows

STATS_NAME = "stats.sqlite3"
DEFAULT_TIMEOUT = 1.0
"""Seconds to wait for another program's lock before giving up: short, so a
stuck lock costs the player a message, not a frozen screen."""


def default_stats_path() -> Path:
    """The statistics database: ``stats.sqlite3`` in the data directory."""
    return data_dir() / STATS_NAME


class StatsError(Exception):
    """The statistics database cannot be used right now; the message is one line."""


class StatsLockedError(StatsError):
    """Another program held the database locked for longer than the timeout: try again."""


@dataclass(frozen=True, slots=True)
class PastGame:
    """One finished game, as listed for the history screen."""

    id: int
    finished_at: datetime
    """When it ended (UTC)."""
    players: int
    seats: tuple[SeatInfo, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    reason: str
    origin: str | None = None
    """Where an online game was played ("ws://host:port CODE"); None for this app's own."""
    left: tuple[int, ...] = ()
    """The seats whose person left the game before its end (the record's ``left``)."""


@dataclass(frozen=True, slots=True)
class Tally:
    """Games played and won (a shared win counts as a win)."""

    games: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per game, 0.0 to 1.0 (0.0 before any game)."""
        return self.wins / self.games if self.games else 0.0

    def add(self, won: bool) -> Tally:
        return Tally(self.games + 1, self.wins + int(won))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """How one human player (by name) has done over every recorded game."""

    name: str
    overall: Tally
    vs_bots: tuple[tuple[str, Tally], ...]
    """Per bot (by name, sorted): the games that bot sat at, and the player's
    wins in them.  A game with two different bots counts for both."""
    by_players: tuple[tuple[int, Tally], ...]
    """Per table size (ascending)."""
    current_streak: int
    """Wins in a row up to the latest game (0 if the latest was lost)."""
    best_streak: int
    """The longest run of wins in a row."""
    results: tuple[tuple[datetime, bool], ...]
    """Every game's (end time, won), oldest first: for a chart."""
    vs_people: tuple[tuple[str, Tally], ...] = ()
    """Per other person (by name, sorted): the games they sat at, and the player's wins."""
    ratings: tuple[RatingPoint, ...] = ()
    """Their rating after each rated game, oldest first (``local_ratings.py`` says which are)."""

    @property
    def rating(self) -> Rating | None:
        """Their rating now; None before their first rated game."""
        return self.ratings[-1].rating if self.ratings else None


class StatsDB:
    """The statistics database, opened (and upgraded) for use as a context manager.

    ``StatsError`` from the constructor or any method if the database is
    locked by another program for longer than ``timeout`` seconds, is
    damaged, is from a newer Mantis, or cannot be opened.
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self.path = Path(path) if path is not None else default_stats_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StatsError(
                f"cannot create {self.path.parent} for statistics: {exc.strerror}"
            ) from None
        with self._errors():
            # Autocommit: transactions are begun explicitly where they matter.
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        try:
            with self._errors():
                self._db.execute("PRAGMA foreign_keys = ON")
                migrate(self._db)
        except BaseException:
            self._db.close()
            raise

    def __enter__(self) -> StatsDB:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the database (closing twice is fine)."""
        self._db.close()

    # ----------------------------------------------------------------- writing

    def record_game(
        self, record: GameRecord, finished_at: datetime | None = None, *, origin: str | None = None
    ) -> int:
        """Store a finished game; returns its id.

        ``finished_at`` (default: now) must be timezone-aware; it is stored
        in UTC.  ``origin`` says where an online game was played: a game
        from an origin already stored is not stored again (its id is
        returned).  ``ValueError`` for an unfinished game or a naive time.
        """
        result = record.result
        if result is None:
            raise ValueError("only finished games go into the statistics")
        when = finished_at if finished_at is not None else datetime.now(UTC)
        if when.tzinfo is None:
            raise ValueError("finished_at needs a timezone (use UTC)")
        # A person who left the game before its end lost it, whoever played their seat on.
        won = [seat for seat in result.winners if not record.lost_by(seat)]
        rows = seat_rows(record.players, record.seats, won, list(result.scores))
        with self._errors(), self._transaction():
            if origin is not None:
                known = self._db.execute(
                    "SELECT id FROM games WHERE origin = ?", (origin,)
                ).fetchone()
                if known is not None:
                    return int(known[0])
            cursor = self._db.execute(
                "INSERT INTO games "
                "(finished_at, players, reason, turns, winners, scores, record, origin) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    _iso(when),
                    record.players,
                    result.reason,
                    result.turns,
                    json.dumps(list(result.winners)),
                    json.dumps(list(result.scores)),
                    record.to_json(),
                    origin,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            self._db.executemany(
                "INSERT INTO seats (game_id, seat, name, kind, bot, score, won, player) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, *row, player_key(row[1])) for row in rows],  # row[1]: the name
            )
            rate_stored_game(self._db, game_id)
        return game_id

    # ----------------------------------------------------------------- reading

    def past_games(self, limit: int | None = None) -> list[PastGame]:
        """Recorded games, newest first (at most ``limit`` of them)."""
        with self._errors():
            games = self._db.execute(
                "SELECT id, finished_at, players, reason, turns, winners, scores, origin, "
                "json_extract(record, '$.left') FROM games "
                "ORDER BY finished_at DESC, id DESC LIMIT ?",
                (-1 if limit is None else limit,),
            ).fetchall()
            seats = self._seats_of([g[0] for g in games])
        return [
            PastGame(
                id=game_id,
                finished_at=_parse_iso(finished_at),
                players=players,
                seats=seats.get(game_id, ()),
                winners=tuple(json.loads(winners)),
                scores=tuple(json.loads(scores)),
                turns=turns,
                reason=reason,
                origin=origin,
                left=tuple(json.loads(left)) if left else (),
            )
            for game_id, finished_at, players, reason, turns, winners, scores, origin, left in games
        ]

    def game_ids(self) -> list[int]:
        """Every recorded game's id, oldest first (the order Past games lists them in, reversed)."""
        with self._errors():
            rows = self._db.execute("SELECT id FROM games ORDER BY finished_at, id").fetchall()
        return [int(game_id) for (game_id,) in rows]

    def game_record(self, game_id: int) -> GameRecord:
        """The full record of game ``game_id``, checked, ready to ``replay()``."""
        with self._errors():
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StatsError(f"there is no game {game_id} in the statistics")
        try:
            return parse_record(row[0])
        except RecordError as exc:
            raise StatsError(f"the record of game {game_id} is damaged: {exc}") from None

    def rating_change(self, game_id: int) -> tuple[RatingChange, ...]:
        """Each person's rating before and after game ``game_id`` (none if it was not rated)."""
        with self._errors():
            return rating_change(self._db, game_id)

    def player_stats(self, name: str | None = None) -> list[PlayerStats]:
        """Figures per human player (sorted by name); only ``name``'s if given.

        A player is a name in any case: "Ann" and "ann" are one person
        (``player_key``), shown as spelt in their latest game, here and in
        everyone's ``vs_people``.  ``name`` matches in any case too.  Only
        seats of kind ``"human"`` count as players; an empty list means no
        games for them yet.
        """
        wanted = player_key(name) if name is not None else None
        only = "" if wanted is None else " AND player = ?"
        with self._errors():
            # Oldest first, so each person's latest spelling is the one kept.
            spelling = dict(
                self._db.execute(
                    "SELECT s.player, s.name FROM seats AS s JOIN games AS g ON g.id = s.game_id "
                    "WHERE s.kind = 'human' ORDER BY g.finished_at, g.id, s.seat"
                ).fetchall()
            )
            rows = self._db.execute(
                "SELECT g.id, g.finished_at, g.players, s.player, s.kind, s.bot, s.won "
                "FROM games AS g JOIN seats AS s ON s.game_id = g.id "
                f"WHERE g.id IN (SELECT game_id FROM seats WHERE kind = 'human'{only}) "
                "ORDER BY g.finished_at, g.id, s.seat",
                () if wanted is None else (wanted,),
            ).fetchall()
            history = self._rating_histories(wanted)
        games: dict[str, list[_Game]] = {}
        for _, seats_iter in itertools.groupby(rows, key=lambda r: r[0]):
            seats = list(seats_iter)
            when, players = _parse_iso(seats[0][1]), seats[0][2]
            bots = frozenset(bot or "bot" for *_, kind, bot, _ in seats if kind == "bot")
            humans: dict[str, bool] = {}
            for *_, player, kind, _, won in seats:
                if kind == "human":  # one person in two seats is one player who won if either did
                    humans[player] = humans.get(player, False) or bool(won)
            for human, won in humans.items():
                if wanted is None or human == wanted:
                    people = frozenset(spelling[other] for other in humans if other != human)
                    games.setdefault(human, []).append(_Game(when, players, bots, people, won))
        return [
            _summarise(spelling[key], games[key], history.get(key, ())) for key in sorted(games)
        ]

    # ----------------------------------------------------------------- helpers

    def _rating_histories(self, player: str | None) -> dict[str, tuple[RatingPoint, ...]]:
        """Per person (by key), their rating after each rated game, oldest first."""
        only = "" if player is None else "WHERE r.player = ? "
        rows = self._db.execute(
            "SELECT r.player, r.game_id, g.finished_at, r.mu, r.sigma "
            "FROM ratings AS r JOIN games AS g ON g.id = r.game_id "
            f"{only}ORDER BY r.player, g.finished_at, g.id",
            () if player is None else (player,),
        ).fetchall()
        return {
            key: tuple(
                RatingPoint(game_id, _parse_iso(when), Rating(mu, sigma))
                for _, game_id, when, mu, sigma in group
            )
            for key, group in itertools.groupby(rows, key=lambda r: r[0])
        }

    def _seats_of(self, game_ids: list[int]) -> dict[int, tuple[SeatInfo, ...]]:
        seats: dict[int, list[SeatInfo]] = {}
        # Chunks stay well under SQLite's limit on bound parameters.
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for game_id, seat_name, kind, bot in self._db.execute(
                f"SELECT game_id, name, kind, bot FROM seats WHERE game_id IN ({marks}) "
                "ORDER BY game_id, seat",
                chunk,
            ):
                seats.setdefault(game_id, []).append(SeatInfo(seat_name, kind, bot))
        return {game_id: tuple(s) for game_id, s in seats.items()}

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn SQLite's exceptions into a ``StatsError`` that a player can read."""
        try:
            yield
        except NewerSchemaError as exc:
            raise StatsError(
                f"stats database {self.path} is from a newer Mantis (schema v{exc.found}, "
                f"this version reads up to v{SCHEMA_VERSION}); it was left untouched"
            ) from None
        except sqlite3.Error as exc:
            if _locked(exc):
                raise StatsLockedError(
                    f"stats database {self.path} is locked by another program; try again later"
                ) from None
            raise StatsError(_describe(self.path, exc)) from None


def _locked(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def _describe(path: Path, exc: sqlite3.Error) -> str:
    code = getattr(exc, "sqlite_errorname", "")
    if code.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return (
            f"stats database {path} is damaged ({exc}); it was left as it is: "
            "move it away to start new statistics"
        )
    return f"stats database {path} cannot be used: {exc}"


class _Game(NamedTuple):
    """One finished game as one player saw it."""

    when: datetime
    players: int
    bots: frozenset[str]
    people: frozenset[str]
    """The other people at the table (online, or sharing the keyboard)."""
    won: bool


def _summarise(name: str, games: list[_Game], ratings: tuple[RatingPoint, ...]) -> PlayerStats:
    overall = Tally()
    vs_bots: dict[str, Tally] = {}
    vs_people: dict[str, Tally] = {}
    by_players: dict[int, Tally] = {}
    streak = best = 0
    for _, players, bots, people, won in games:
        overall = overall.add(won)
        for bot in bots:
            vs_bots[bot] = vs_bots.get(bot, Tally()).add(won)
        for person in people:
            vs_people[person] = vs_people.get(person, Tally()).add(won)
        by_players[players] = by_players.get(players, Tally()).add(won)
        streak = streak + 1 if won else 0
        best = max(best, streak)
    return PlayerStats(
        name=name,
        overall=overall,
        vs_bots=tuple(sorted(vs_bots.items())),
        by_players=tuple(sorted(by_players.items())),
        current_streak=streak,
        best_streak=best,
        results=tuple((game.when, game.won) for game in games),
        vs_people=tuple(sorted(vs_people.items(), key=lambda item: item[0].casefold())),
        ratings=ratings,
    )


def _iso(when: datetime) -> str:
    """UTC, whole seconds, ``Z``: sorts as text in time order."""
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _parse_iso(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when
