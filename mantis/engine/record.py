"""Game records: one JSON object per game, one game per line (JSON Lines).

The format is ``docs/game-record.md``: the deal (tanks and pile, top card
first), the first seat, every action, optional seat names and kinds, and the
result.  Reading a record re-plays it through the real rules and rejects it,
with the line number and the problem in one line, unless everything agrees.
A record whose ``result`` is ``null`` is an unfinished game (a save).

Two optional fields say what happened at the table around the moves (the
rules never read them): ``notices``, what the table said after each number
of actions (a seat away, a person's time run out, the players' talk), each
a stream notice's JSON as the table layer writes it; and ``left``, the seats
whose person left the game before its end (their game counts as lost).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from .actions import SCORE, Action, IllegalActionError, Score, steal
from .cards import card_code, parse_card
from .deal import check_deal
from .game import Game, target_for
from .seat_count import SEAT_RANGE, valid_seat_count
from .seats import RecordError, SeatInfo, seats_from_json

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]
    tanks: tuple[int, ...]
    turns: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: the deal, every action and (once finished) the result."""

    seed: int | None
    players: int
    first: int
    tanks: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    actions: tuple[tuple[int, Action], ...]
    seats: tuple[SeatInfo, ...] | None = None
    result: Result | None = None
    notices: tuple[tuple[int, str], ...] = ()
    """What the table said beside the moves: (actions played before it, its JSON object)."""
    left: tuple[int, ...] = ()
    """Seats whose person left the game before its end, ascending."""

    @property
    def target(self) -> int:
        return target_for(self.players)

    def replay(self, upto: int | None = None) -> Game:
        """A game at the start, with the first ``upto`` actions (default: all) played."""
        game = Game(self.tanks, self.pile, self.first, seed=self.seed)
        for seat, action in self.actions[:upto]:
            game.play(action, seat)
        return game

    def from_start(self) -> GameRecord:
        """The same deal and seats with no action played yet (a rematch)."""
        return GameRecord(
            self.seed, self.players, self.first, self.tanks, self.pile, (), self.seats
        )

    def lost_by(self, seat: int) -> bool:
        """Whether ``seat`` did not win: not among the winners, or its person left."""
        return self.result is None or seat not in self.result.winners or seat in self.left

    def to_json(self) -> str:
        """The record as one line of JSON (no newline)."""
        data: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "seed": self.seed,
            "players": self.players,
            "target": self.target,
            "first": self.first,
            "tanks": [[card_code(c) for c in tank] for tank in self.tanks],
            "pile": [card_code(c) for c in self.pile],
            "actions": [_action_json(seat, action) for seat, action in self.actions],
        }
        if self.seats is not None:
            data["seats"] = [seat.to_json() for seat in self.seats]
        if self.result is None:
            data["result"] = None
        else:
            r = self.result
            data["result"] = {
                "winners": list(r.winners),
                "reason": r.reason,
                "scores": list(r.scores),
                "tanks": list(r.tanks),
                "turns": r.turns,
            }
        if self.notices:
            data["notices"] = [[turn, json.loads(body)] for turn, body in self.notices]
        if self.left:
            data["left"] = list(self.left)
        return json.dumps(data, separators=(",", ":"))


def record_of(game: Game, seats: Iterable[SeatInfo] | None = None) -> GameRecord:
    """The record of ``game`` as played so far (``result`` is None until it ends)."""
    seat_infos = tuple(seats) if seats is not None else None
    if seat_infos is not None and len(seat_infos) != game.players:
        raise ValueError(f"{len(seat_infos)} seat descriptions for {game.players} seats")
    result = None
    if game.over:
        assert game.winners is not None and game.reason is not None
        result = Result(game.winners, game.reason, game.scores, game.tank_sizes, game.turn)
    return GameRecord(
        seed=game.seed,
        players=game.players,
        first=game.first,
        tanks=game.initial_tanks,
        pile=game.initial_pile,
        actions=game.history,
        seats=seat_infos,
        result=result,
    )


def _action_json(seat: int, action: Action) -> dict[str, Any]:
    if isinstance(action, Score):
        return {"seat": seat, "action": "score"}
    return {"seat": seat, "action": "steal", "target": action.target}


# ---------------------------------------------------------------------- reading


def parse_record(text: str) -> GameRecord:
    """Parse and check one record; ``RecordError`` says what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        # Said for a person, not as the parser puts it ("Unterminated string starting at"):
        # a record is one line, so the column says where it goes wrong.
        raise RecordError(
            f"not valid JSON: it breaks off or is garbled at character {exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise RecordError(f"unsupported record version {version!r} (this reads {FORMAT_VERSION})")
    players = _int_field(data, "players")
    if not valid_seat_count(players):
        raise RecordError(f"players must be {SEAT_RANGE}, not {players}")
    target = data.get("target")
    if type(target) is not int or target != target_for(players):
        raise RecordError(
            f"target must be {target_for(players)} with {players} players, not {target!r}"
        )
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"seed must be an integer or null, not {seed!r}")
    first = _int_field(data, "first")
    tanks = data.get("tanks")
    if not isinstance(tanks, list) or len(tanks) != players:
        raise RecordError(f"tanks must list {players} tanks")
    pile = data.get("pile")
    if not isinstance(pile, list) or any(not isinstance(t, list) for t in tanks):
        raise RecordError("tanks and the pile must be lists of cards")
    try:
        tank_cards = tuple(tuple(parse_card(c) for c in t) for t in tanks)
        pile_cards = tuple(parse_card(c) for c in pile)
        check_deal(tank_cards, pile_cards, first)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    actions = tuple(_parse_action(a, i) for i, a in enumerate(_list_field(data, "actions")))
    seats = _parse_seats(data.get("seats"), players)
    notices = _parse_notices(data.get("notices", []), len(actions))
    left = _parse_left(data.get("left", []), players)
    record = GameRecord(
        seed, players, first, tank_cards, pile_cards, actions, seats, None, notices, left
    )
    game = Game(tank_cards, pile_cards, first, seed=seed)
    for i, (seat, action) in enumerate(actions):
        try:
            game.play(action, seat)
        except IllegalActionError as exc:
            raise RecordError(f"action {i + 1} is illegal: {exc}") from None
    result = data.get("result")
    if result is None:
        if "result" not in data:
            raise RecordError("missing field 'result' (null for an unfinished game)")
        if game.over:
            raise RecordError("the game is over but its result is null")
        return record
    played = replace(record_of(game, seats), notices=notices, left=left)
    if not game.over:
        raise RecordError(f"the actions stop before the game ends (after {len(actions)} actions)")
    _check_result(result, played.result)
    return played


def _check_result(result: Any, actual: Result | None) -> None:
    assert actual is not None
    if not isinstance(result, dict):
        raise RecordError("result must be an object or null")
    expected = {
        "winners": list(actual.winners),
        "reason": actual.reason,
        "scores": list(actual.scores),
        "tanks": list(actual.tanks),
        "turns": actual.turns,
    }
    for key, value in expected.items():
        if json.dumps(result.get(key)) != json.dumps(value):
            raise RecordError(f"result.{key} is {result.get(key)!r} but the game gives {value!r}")


def _int_field(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key} must be an integer, not {value!r}")
    return value


def _list_field(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RecordError(f"{key} must be a list")
    return value


def _parse_action(data: Any, index: int) -> tuple[int, Action]:
    where = f"action {index + 1}"
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be an object")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(f"{where} has no integer seat")
    kind = data.get("action")
    if kind == "score":
        return seat, SCORE
    if kind == "steal":
        target = data.get("target")
        if not isinstance(target, int) or isinstance(target, bool):
            raise RecordError(f"{where} is a steal without an integer target")
        return seat, steal(target)
    raise RecordError(f"{where} is {kind!r}, not 'score' or 'steal'")


def _parse_seats(data: Any, players: int) -> tuple[SeatInfo, ...] | None:
    if data is None:
        return None
    seats = seats_from_json(data)
    if len(seats) != players:
        raise RecordError(f"seats must list {players} seats")
    return seats


def _parse_notices(data: Any, actions: int) -> tuple[tuple[int, str], ...]:
    """``notices``: pairs of (actions played before it, 0..actions; a JSON object with a type)."""
    if not isinstance(data, list):
        raise RecordError("notices must be a list")
    notices: list[tuple[int, str]] = []
    for i, entry in enumerate(data):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise RecordError(f"notice {i + 1} must be a pair [turn, notice]")
        turn, body = entry
        if type(turn) is not int or not 0 <= turn <= actions:
            raise RecordError(f"notice {i + 1} names turn {turn!r}, not one of 0..{actions}")
        if not isinstance(body, dict) or not isinstance(body.get("type"), str):
            raise RecordError(f"notice {i + 1} is not an object with a type")
        notices.append((turn, json.dumps(body, separators=(",", ":"))))
    return tuple(notices)


def _parse_left(data: Any, players: int) -> tuple[int, ...]:
    if not isinstance(data, list) or any(
        type(seat) is not int or not 0 <= seat < players for seat in data
    ):
        raise RecordError(f"left must list seats of the table (0..{players - 1})")
    return tuple(sorted(set(data)))


def iter_records(lines: Iterable[str]) -> Iterator[GameRecord]:
    """Records from JSON lines; ``RecordError`` names the (1-based) bad line."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield parse_record(line)
        except RecordError as exc:
            raise RecordError(f"line {number}: {exc}") from None
