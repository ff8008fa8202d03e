"""What both front ends stand on: the followed game's phases, the moves sent once, the
settings of a run, the followed online table's changes, who is at a table in one line."""

from __future__ import annotations

import json
import typing
from pathlib import Path

from mantis.engine import SCORE, CardRevealed, TurnStarted, steal
from mantis.follow import changes
from mantis.follow.live_game import Ended, LiveGame, Turning, TurnOf
from mantis.follow.people import people_line
from mantis.follow.preferences import Preferences
from mantis.net import protocol
from mantis.players.decision import DEFAULT_BOT_TIMEOUT
from mantis.table import PublicPosition, TimedOut, dealt, moves_of
from mantis.table.pacing import NO_DELAY
from mantis.table.seating import seats_from_text

#: A deal of "human,greedy" where the person (seat 1) moves first.
SEAT_1_STARTS = 0


class Instant:
    """Bots at no pace."""

    pace = NO_DELAY


class Sent:
    can_hold = True

    def __init__(self) -> None:
        self.moves: list[tuple[int, int, object]] = []

    def play(self, seat: int, turn: int, action: object) -> None:
        self.moves.append((seat, turn, action))


def followed(seats: str = "human,greedy", seed: int = 3):
    record = dealt(seats_from_text(seats), seed)
    game = record.replay()
    moves = []
    while not game.over and len(moves) < 12:
        moves.append(game.apply(SCORE, game.to_move))
    stream = moves_of(record)[0]
    position = PublicPosition.of(stream)
    sent = Sent()
    live = LiveGame(position, sent, (0,), Instant(), covered=False)
    return live, position, sent, moves


def test_a_game_followed_says_whose_turn_a_card_turned_and_sends_each_move_once() -> None:
    live, position, sent, moves = followed()
    phase = live.begin()
    assert isinstance(phase, TurnOf)
    for move in moves:
        if live.asking == 0:
            turn = position.turn
            assert not live.play(1, SCORE)  # not a seat played here
            assert not live.play(0, steal(0))  # not a legal move
            assert live.play(0, SCORE)
            assert live.phase == Turning(0, sent=True) and live.asking is None
            assert sent.moves[-1] == (0, turn, SCORE)
        for message in move:
            position.apply(message)
            shown = live.shown(message)
            if isinstance(message, CardRevealed):
                assert shown == Turning(message.seat, sent=False)  # a card is being turned
            elif isinstance(message, TurnStarted):
                assert shown == TurnOf(message.seat, message.extra, message.seat == 0)
            else:
                assert shown is None or isinstance(shown, Ended)
    assert len(sent.moves) == sum(1 for seat, _, _ in sent.moves if seat == 0) > 0


def test_a_bot_answering_for_a_seat_played_here_ends_its_question() -> None:
    live, position, _, _ = followed(seed=SEAT_1_STARTS)
    live.begin()
    assert live.asking == 0
    timed_out = TimedOut(0, "greedy", SCORE)
    position.apply(timed_out)
    assert live.shown(timed_out) == Turning(0, sent=True)
    assert live.asking is None


def test_no_one_is_asked_once_the_seat_is_left() -> None:
    live, _, sent, _ = followed(seed=SEAT_1_STARTS)
    live.begin()
    live.stop_playing()
    assert live.asking is None and not live.play(0, SCORE) and sent.moves == []
    assert isinstance(live.phase, TurnOf) and not live.phase.here


def test_a_change_of_the_bots_time_budget_is_kept_and_a_replays_changes_are_not_saved(
    _mantis_home: Path,
) -> None:
    prefs = Preferences.load(speed="fast")
    prefs.change(bot_timeout=7.5)
    assert prefs.bot_timeout == 7.5
    saved = json.loads((_mantis_home / "config" / "settings.json").read_text("utf-8"))
    assert saved["bot_timeout"] == 7.5 and saved["speed"] == "normal"  # --speed: this run's
    prefs.change(bot_timeout=None)
    assert prefs.bot_timeout == DEFAULT_BOT_TIMEOUT
    replaying = Preferences(prefs.settings, saving=False)
    replaying.change(speed="slow", show_odds=True)
    assert replaying.speed == "slow" and replaying.settings.show_odds
    again = json.loads((_mantis_home / "config" / "settings.json").read_text("utf-8"))
    assert again["speed"] == "normal" and again["show_odds"] is False


def test_every_change_of_the_followed_table_carries_its_data() -> None:
    # (That every kind of event of the connection is told is mypy's to check: the table's
    # dispatch is a match ending in assert_never, tests/net/test_net_checks.py.)
    # None is a bare "read it off the table".
    for kind in typing.get_args(changes.Change):
        fields = getattr(kind, "__dataclass_fields__", {})
        assert fields or kind is changes.Reconnected, kind


def test_people_read_in_one_line() -> None:
    assert people_line(protocol.People(("Ann",), (), 0)) == "At the table: Ann. Nobody is watching."
    assert people_line(protocol.People(("Ann", "Bea"), ("Cy",), 1)) == (
        "At the table: Ann, Bea. Watching: Cy."
    )
    named = tuple(f"W{n:02}" for n in range(protocol.MOST_NAMED))
    line = people_line(protocol.People((), named, protocol.MOST_NAMED + 3))
    assert line.startswith("At the table: nobody. Watching: W00, W01,")
    assert line.endswith("W19 and 3 more.")
