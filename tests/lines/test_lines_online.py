"""Online tables in lines, against a real server, with other people at the table.

The first test is the issue's whole case: a person in lines (``mantis host --lines`` in
a pseudo-terminal) and one in the full-screen app (``mantis join``, its screen read
through the journeys' kit) at a real ``mantis serve``, a game played to its end and
another one agreed.  The others put protocol clients (as the network tests' people
are) beside the line mode, at a server in the test's event loop whose clock the test
may drive.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path

import pytest
from hostilekit import CLEANED, HostileServer, MiddleMan, hostile_game, obeyed
from journeykit import SIZES, Terminal, environment
from linekit import WHAT_NEXT, YOUR_TURN, Lines, controls_in, settle_speed
from netkit import (
    ServerProcess,
    create,
    heard,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    welcome,
)

from mantis.base.clock import ManualClock
from mantis.cli import main
from mantis.engine import SCORE
from mantis.home.past_games import past_records
from mantis.home.player_keys import PlayerKeys
from mantis.net import protocol
from mantis.net.client import verifier_asked
from mantis.net.protocol import key_proof
from mantis.table import TimedOut


@pytest.fixture
def home(_mantis_home: Path) -> Path:
    settle_speed(_mantis_home)
    return _mantis_home


def moves_played(rows: list[str]) -> int:
    """The moves played, as the board's title says them ("online KXQD · move 6 · ...")."""
    found = re.search(r"· move (\d+) ·", rows[0])
    return int(found.group(1)) if found else -1


def app_plays_its_turns(term: Terminal, seen: list[str]) -> None:
    """The person in the app: s on every turn of theirs, until the game's result shows;
    ``seen`` gathers the rows of its game log that said Ann's moves."""
    played = -1

    def over(rows: list[str]) -> bool:
        return any("Game over" in row for row in rows)

    def turn_or_end(rows: list[str]) -> bool:
        """their turn (after the last one answered), or the end of the game"""
        seen.extend(row for row in rows if re.search(r"\d+ Ann (scored|missed a score)", row))
        mine = moves_played(rows) > played and any("▶ YOUR TURN" in row for row in rows)
        return mine or over(rows)

    while True:
        rows = term.wait_for(turn_or_end)
        if over(rows):
            return
        played = moves_played(rows)
        term.press("s")
        # Answered once the move is played: the next turn of theirs may follow at once.
        term.wait_for(lambda rows, before=played: moves_played(rows) > before or over(rows))


def answer_every_question(lines: Lines) -> None:
    """The person in lines: s at every question of theirs, until the game is over."""
    while True:
        found = lines.expect(re.compile(YOUR_TURN.pattern + b"|" + WHAT_NEXT.pattern))
        if found.group(0).startswith(b"What next"):
            return
        lines.type("s")


@pytest.mark.journey
def test_an_online_game_between_lines_and_the_full_screen_app(home: Path, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server")
    bea_home = tmp_path / "bea"
    settle_speed(bea_home)
    ann = Lines(home, "host", server.url, "--seats", "human,open", "--name", "Ann", "--lines")
    bea: Terminal | None = None
    try:
        ann.expect(f"Connecting to {server.url}.")
        found = ann.expect(re.compile(rb"Table ([A-Z]{4}), spelt ([A-Z ]+), on "))
        code = found.group(1).decode()
        assert found.group(2).decode() == " ".join(code)
        ann.expect("Seats: 1, you, host; 2, open.")
        ann.expect("Waiting for 1 more person to join with the code.")
        size = SIZES[0]  # 80 by 24, without colour
        bea = Terminal(
            ("join", server.url, code, "--name", "Bea"), size, environment(size, str(bea_home))
        )
        bea.wait_for("Waiting for the host to start the game.")
        ann.expect("Bea sat down in seat 2.")
        ann.expect("Every seat is taken: type start.")
        ann.type("start")
        ann.expect(
            re.compile(rb"New game: 2 players, first to 15 scored cards wins\. \w+ starts?\.")
        )
        ann.expect("Seats: 1, you, Ann; 2, Bea.")
        # Talk both ways: the app's log shows Ann's words, the lines Bea's.
        ann.type("talk good luck Bea")
        bea.wait_for("Ann says “good luck Bea”")
        bea.press("t")
        bea.wait_for("a line to the table")
        bea.type("thanks Ann")
        bea.press("enter")
        ann.expect("Bea says: thanks Ann")
        # The game, to its end: each plays their own turns; each sees the other's moves.
        seen: list[str] = []
        app = threading.Thread(target=app_plays_its_turns, args=(bea, seen), daemon=True)
        app.start()
        ann.type("")  # the question again, in case it came while the talk was read
        answer_every_question(ann)
        app.join(60)
        assert not app.is_alive()
        assert re.search(r"\nBea (scored|missed a score)", ann.text)  # Bea's moves, in lines
        assert re.search(r"\nBea's turn, top card \w+, \w+ or \w+\.", ann.text)
        over = re.search(r"Game over: (you win|Bea wins) with (\d+) scored cards\.", ann.text)
        assert over is not None and int(over.group(2)) >= 15
        assert seen  # Ann's moves, in the app's game log
        # Another game: offered in lines, accepted in the app.
        ann.type("a")
        ann.expect("You asked for another game, waiting for Bea; ")
        bea.wait_for("Ann offers another game")
        bea.press("a")
        ann.expect("Another game at this table.")
        ann.expect(re.compile(rb"New game: 2 players, first to 15 scored cards wins\."))
        bea.wait_for(
            lambda rows: (
                any("TURN" in row for row in rows) and not any("Game over" in row for row in rows)
            )
        )
        ann.type("q")
        assert ann.finish() == 0
        assert bea.quit() == 0, bea.printed()
        assert "Traceback" not in bea.printed()
    finally:
        ann.close()
        if bea is not None:
            bea.close()
        server.stop()
    # The lines hold no escape sequence at all: nothing moves the cursor or clears the screen.
    assert b"\x1b" not in ann.seen
    assert controls_in(ann.seen) == []


async def test_the_waiting_room_as_the_host_and_another_game_declined(
    home: Path, tmp_path: Path
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = Lines(home, "host", url, "--seats", "human,open", "--name", "Ann", "--lines")
        bea = None
        try:
            found = await ann.expect_async(re.compile(rb"Table ([A-Z]{4}), spelt"))
            code = found.group(1).decode()
            await ann.expect_async("Waiting for 1 more person to join with the code.")
            ann.type("ping")
            await ann.expect_async(re.compile(rb"Round trip to the server: \d+ ms\."))
            ann.type("who")
            await ann.expect_async("At the table: Ann. Nobody is watching.")
            # The host sets the table up as the app's waiting room lets them.
            ann.type("bot")
            await ann.expect_async("Seat 3 added: greedy bot.")
            ann.type("bot expert")
            await ann.expect_async("Seat 4 added: expert bot.")
            ann.type("bot nobody")
            await ann.expect_async("No bot nobody: random, casual, greedy or expert.")
            ann.type("open")
            await ann.expect_async("Seat 5 added: open.")
            await ann.expect_async("Waiting for 2 more people to join with the code.")
            ann.type("remove 4")
            await ann.expect_async(
                "Seat 4 removed. Seats: 1, you, host; 2, open; 3, greedy bot; 4, open."
            )
            ann.type("remove 4")
            await ann.expect_async("Seat 4 removed. Seats: 1, you, host; 2, open; 3, greedy bot.")
            await ann.expect_async("Waiting for 1 more person to join with the code.")
            ann.type("remove 9")
            await ann.expect_async("Remove which seat? remove, then its number, 1 to 3.")
            bea = await join(url, code, "Bea")
            await ann.expect_async("Bea sat down in seat 2.")
            await ann.expect_async("Every seat is taken: type start.")
            await bea.send(protocol.Say("ready"))
            await ann.expect_async("Bea says: ready")
            ann.type("start")
            await ann.expect_async("New game: 3 players, first to 10 scored cards wins.")
            found = await ann.expect_async(
                re.compile(rb"Seats: 1, you, Ann; 2, Bea; 3, (\w+), greedy bot\.")
            )
            bot = found.group(1).decode()
            playing = asyncio.ensure_future(play_my_turns(bea, 1))
            while True:
                found = await ann.expect_async(
                    re.compile(YOUR_TURN.pattern + b"|" + WHAT_NEXT.pattern)
                )
                if found.group(0).startswith(b"What next"):
                    break
                ann.type("s")
            await asyncio.wait_for(playing, 60)
            # A person's turn is said as it starts; a bot's is not (its move follows at once).
            assert re.search(r"\nBea's turn, top card ", ann.text)
            assert f"{bot}'s turn" not in ann.text and re.search(rf"\n{bot} \w+", ann.text)
            assert ann.text.rstrip().endswith(
                "What next? a another game, v replay, e review, q quit. >"
            )
            # Another game offered by Bea, declined here.
            await bea.send(protocol.Again())
            await ann.expect_async("Bea offers another game: a accepts, d declines; ")
            ann.type("d")
            await bea.until(
                lambda: any(
                    c.reason == "declined" and c.seat == 0 for c in heard(bea, protocol.OfferClosed)
                ),
                "the decline",
            )
            ann.type("q")
            assert await asyncio.to_thread(ann.finish) == 0
        finally:
            ann.close()
            if bea is not None:
                await bea.close()
    assert controls_in(ann.seen) == []


async def test_the_clock_is_in_the_question_and_warned_of_as_it_runs_down(
    home: Path, tmp_path: Path
) -> None:
    # The server's clock stands still (nothing runs out unless the test says so), and a
    # 7-second clock puts its one warning, "5 seconds left", two seconds of this machine's
    # time after the question: waited on, never timed.
    clock = ManualClock(frozen=True)
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", clock=7)
        code = welcome(ann).code
        lines = Lines(home, "join", url, code, "--name", "Bea", "--lines")
        try:
            await lines.expect_async("A turn clock of 7 seconds a move.")
            await lines.expect_async("Waiting for the host to start.")
            await ann.until(
                lambda: any(all(s.taken for s in r.seats) for r in heard(ann, protocol.RoomState)),
                "Bea seated",
            )
            await ann.send(protocol.Start())
            await ann.until(lambda: turn_to_answer(ann.stream), "the first turn")
            if turn_to_answer(ann.stream).seat == 0:
                await ann.send(protocol.Act(0, SCORE))
            # The question waits for the server's word on the clock, so it says the time.
            asked = await lines.expect_async(
                re.compile(rb"Your turn, (\d+) seconds? left, top card ")
            )
            assert 1 <= int(asked.group(1)) <= 7
            # The warning interrupts the question: its keys are asked again after it.
            await lines.expect_async("\r\n5 seconds left.\r\ns or 1 > ")
            lines.type("clock")
            await lines.expect_async(re.compile(rb"\n\d+ seconds? left\.\r\ns or 1 > "))
            lines.type("s")
            await lines.expect_async(re.compile(rb"\nYou (scored|missed a score)"))
            # Ann's move, then Bea's turn again: this time the clock runs out.
            await ann.until(lambda: (t := turn_to_answer(ann.stream)) and t.seat == 0, "Ann's turn")
            await ann.send(protocol.Act(turn_to_answer(ann.stream).turn, SCORE))
            await lines.expect_async(re.compile(rb"Your turn, \d+ seconds? left, "))
            clock.advance(7)
            await lines.expect_async(
                # The question is moot once a bot answers it: no prompt is left standing.
                re.compile(rb"Your time ran out: greedy (scores|steals from Ann) for you\.\r\nYou ")
            )
            await ann.until(lambda: any(isinstance(m, TimedOut) for m in ann.stream), "time out")
            lines.type("q")
            await lines.expect_async("Your seat stays yours: mantis join --lines ")
            assert await asyncio.to_thread(lines.finish) == 0
        finally:
            lines.close()
            await ann.close()
    assert controls_in(lines.seen) == []
    # Said once per turn: the first turn's warning, and the second's (two seconds after it).
    assert lines.text.count("5 seconds left.") <= 2


def test_a_server_restart_is_said_once_and_the_game_goes_on(home: Path, tmp_path: Path) -> None:
    data = tmp_path / "server"
    server = ServerProcess(data)
    lines = Lines(home, "host", server.url, "--seats", "human,greedy", "--name", "Ann", "--lines")
    try:
        lines.expect("Every seat is taken: type start.")
        lines.type("start")
        lines.expect(YOUR_TURN)
        server.kill()
        # Each line interrupts the question: its keys are asked again after it.
        lines.expect("Connection lost: reconnecting.\r\ns or 2 > ")
        server = ServerProcess(data, server.port)
        lines.expect("Back online.\r\ns or 2 > ")
        lines.type("s")
        lines.expect(re.compile(rb"\nYou (scored|missed a score)"))
        lines.expect(YOUR_TURN)
        lines.type("q")
        assert lines.finish() == 0
    finally:
        lines.close()
        server.stop()
    # Said once, however many tries the reconnection took.
    assert lines.text.count("Connection lost") == 1


@pytest.mark.journey
def test_a_man_in_the_middle_asking_for_the_verifier_is_one_line_in_lines_and_in_the_app(
    home: Path, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "server")
    try:
        with MiddleMan(server.url).in_thread() as middle:
            # (A private table: the lobby's list stays empty, the refusal has room below it.)
            host = ("host", middle.url, "--seats", "human,open", "--name", "Ann", "--private")
            host += ("--lines",)
            first = Lines(home, *host)  # passed on as it is: the key introduces itself
            try:
                first.expect("Waiting for 1 more person to join with the code.")
                first.type("q")
                assert first.finish() == 0
            finally:
                first.close()
            key = PlayerKeys().key_for(middle.url)
            middle.rewriting = True
            middle.said.clear()
            again = Lines(home, *host)
            try:
                assert again.finish() == 1
            finally:
                again.close()
            said = [line for line in again.lines() if line]
            assert said == [f"Connecting to {middle.url}.", f"mantis: {verifier_asked(middle.url)}"]
            assert obeyed(again.seen) == []
            # The app, from its lobby: Play now, refused there in one sentence; it goes on.
            settings = {"speed": "instant", "server": middle.url, "online_name": "Ann"}
            (home / "config" / "settings.json").write_text(json.dumps(settings))
            size = SIZES[0]
            app = Terminal((), size, environment(size, str(home)))
            try:
                app.settle("set up a table")
                app.press("o")
                app.settle(lambda rows: any("MANTIS · play online" in row for row in rows))
                app.press("ctrl+g")
                rows = app.settle(lambda rows: "nothing was sent" in " ".join(rows))
                assert verifier_asked(middle.url) in " ".join(" ".join(rows).split())
                assert app.quit() == 0, app.printed()
                assert "Traceback" not in app.printed()
            finally:
                app.close()
            verifier = key_proof.verifier_of(key)
            assert middle.said and not any(verifier in frame for frame in middle.said)
    finally:
        server.stop()


async def test_a_hostile_servers_game_is_kept_cleaned_and_shown_later_with_nothing_obeyed(
    home: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    # A fake server tells a finished game whose names and talk carry escape sequences, C1
    # controls and bidirectional overrides, ``recorded`` included.
    async with HostileServer(hostile_game()).running() as server:
        lines = Lines(home, "watch", server.url, "KXQD", "--lines")
        try:
            await lines.expect_async(WHAT_NEXT)
            lines.type("v")  # its replay, from the server's record: cleaned as it came in
            said = len(lines.seen)
            await lines.expect_async("End of the replay.")
            replayed = lines.seen[said:].decode()
            assert f"{CLEANED[1]}, random 5m bot" in replayed and "␛" not in replayed
            await lines.expect_async("v, e or q > ")  # (the question again, in short)
            lines.type("q")
            assert await asyncio.to_thread(lines.finish) == 0
        finally:
            lines.close()
    assert obeyed(lines.seen) == [] and f"{CLEANED[2]} wins" in lines.text
    # Kept as cleaned: what later reads it (talking to no server) shows only text.
    for command in (
        ["review", "--last"],
        ["stats"],
        ["stats", "--json"],
        ["review", "--last", "--json"],
        ["games", "export", "--last", "1"],
    ):
        assert main(command) == 0
        out, err = capfdbinary.readouterr()
        assert obeyed(out) == [] and obeyed(err) == [] and b"\\u001b" not in out, command
        assert CLEANED[0].encode() in out, command
    [kept] = past_records(last=1)
    assert kept[1].seats is not None
    assert [seat.name for seat in kept[1].seats] == list(CLEANED)
