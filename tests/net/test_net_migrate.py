"""A server that outgrew SQLite moves to PostgreSQL with ``mantis migrate`` and loses nothing.

Its data folder holds a finished game and a game in play; after the copy,
a server on PostgreSQL brings the game back, its people take their seats
again with their tokens, and it is played to the end.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from netkit import WAIT, create, join, play_my_turns, running_server, turn_to_answer, welcome

from mantis.engine import SCORE
from mantis.engine.record import parse_record
from mantis.net import protocol


def migrate(data: Path, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mantis", "migrate", "--data", str(data), "--database", url],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )


async def play_until(client, seat: int, turns: int) -> None:
    """Answer ``seat``'s turns (score) until ``turns`` moves have been played."""
    while client.public.turn < turns:
        await client.until(
            lambda: (
                client.public.turn >= turns
                or ((t := turn_to_answer(client.stream)) is not None and t.seat == seat)
            ),
            "my turn",
        )
        turn = turn_to_answer(client.stream)
        if client.public.turn < turns and turn is not None and turn.seat == seat:
            mark = client.public.turn
            await client.send(protocol.Act(turn.turn, SCORE))
            await client.until(lambda mark=mark: client.public.turn > mark, "my move played")


async def test_a_data_folder_with_a_game_in_play_moves_to_postgresql_and_the_game_finishes(
    tmp_path: Path, pg_url: str
) -> None:
    data = tmp_path / "server"
    async with running_server(data, away_after=WAIT) as (_, url):
        cal = await create(url, ("human", "greedy"), "Cal")  # a game finished before the move
        await cal.send(protocol.Start())
        await play_my_turns(cal, 0)
        finished = cal.stream[-1].record
        ann = await create(url, ("human", "open"), "Ann")
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        await ann.send(protocol.Start())
        await asyncio.gather(play_until(ann, 0, 6), play_until(bea, 1, 6))
        before = [m for m in ann.stream if type(m).__name__ == "CardRevealed"]
        tokens = welcome(ann).token, welcome(bea).token
        await ann.close()
        await bea.close()
    copied = migrate(data, pg_url)
    assert copied.returncode == 0, copied.stderr
    assert "copied 2 tables (1 in play, 2 games" in copied.stdout

    async with running_server(tmp_path / "elsewhere", pg_url, away_after=WAIT) as (server, url):
        ann = await join(url, code, token=tokens[0])
        bea = await join(url, code, token=tokens[1])
        assert (welcome(ann).seat, welcome(bea).seat) == (0, 1)
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        after = [m for m in ann.stream if type(m).__name__ == "CardRevealed"]
        assert after[: len(before)] == before  # the moves played on SQLite, then the rest
        record = parse_record(ann.stream[-1].record)
        assert ann.public.view() == record.replay().view()
        assert len(record.actions) == len(after) == record.result.turns
        assert await server.store.records() == [finished, ann.stream[-1].record]
        # New tables get ids after the copied ones: a third table is kept beside them.
        dan = await create(url, ("human", "open"), "Dan")
        assert welcome(dan).code not in (code,)
        await dan.close()

    again = migrate(data, pg_url)  # the database is not empty any more
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.count("\n") == 1 and "holds tables already" in again.stderr


def test_migrating_to_nowhere_or_from_nothing_says_why_in_one_line(tmp_path: Path) -> None:
    nothing = migrate(tmp_path / "empty", "postgresql://nobody@127.0.0.1:1/none")
    assert nothing.returncode == 1 and nothing.stderr.count("\n") == 1
    assert "no server database" in nothing.stderr and "Traceback" not in nothing.stderr
    not_a_url = migrate(tmp_path, "/tmp/some.sqlite3")
    assert not_a_url.returncode == 2 and "postgresql://" in not_a_url.stderr
