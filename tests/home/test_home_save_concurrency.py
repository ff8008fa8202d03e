"""Saves under pressure: concurrent writers and killed writers never leave half a file.

Writers save records of many different lengths (the same game at different
turns, padded by up to 20 kB of app data) so that a torn write could not
go unnoticed: every read in between must load as a valid save.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from homekit import SEATS3

from mantis.engine import Game, GameRecord, record_of
from mantis.home.saves import default_save_path, load_save, save_game

REPO = Path(__file__).resolve().parents[2]

WRITER = """
import random, sys
from mantis.engine import Game, record_of
from mantis.home.saves import save_game

writer, loops = int(sys.argv[1]), int(sys.argv[2])  # loops 0: until killed
game = Game.new(3, writer)
records = []
while not game.over:
    records.append(record_of(game))
    game.play(random.Random(game.turn).choice(game.legal_actions()))
i = 0
while loops == 0 or i < loops:
    pad = "x" * ((i * 977 + writer * 331) % 20000)
    save_game(records[(i * 7 + writer) % len(records)], app={"writer": writer, "pad": pad})
    print(i, flush=True)
    i += 1
"""


def spawn_writer(writer: int, loops: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # MANTIS_HOME comes from the fixture
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(writer), str(loops)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def records_of_every_length(seed: int) -> list[GameRecord]:
    game, records = Game.new(3, seed), []
    while not game.over:
        records.append(record_of(game, SEATS3))
        game.play(game.legal_actions()[game.turn % 2])
    return records


def assert_loads(path: Path) -> None:
    loaded, warning = load_save(path)
    assert warning is None, warning
    assert loaded is not None and loaded.record.result is None


def test_threads_writing_while_another_reads_never_show_half_a_save():
    # An explicit path: a writer thread must never outlive the test's MANTIS_HOME.
    path = default_save_path()
    save_game(records_of_every_length(0)[0], path)
    errors: list[BaseException] = []

    def write(writer: int) -> None:
        try:
            records = records_of_every_length(writer)
            for i in range(25):
                pad = "y" * ((i * 1237 + writer * 101) % 15000)
                save_game(records[(i * 5 + writer) % len(records)], path, app={"pad": pad})
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    writers = [threading.Thread(target=write, args=(w,)) for w in range(1, 5)]
    for thread in writers:
        thread.start()
    try:
        reads = 0
        while any(thread.is_alive() for thread in writers) or reads < 10:
            assert_loads(path)
            reads += 1
    finally:
        for thread in writers:
            thread.join()
    assert not errors
    assert [p.name for p in path.parent.iterdir()] == ["current-game.json"]


def test_processes_writing_while_another_reads_never_show_half_a_save():
    path = default_save_path()
    save_game(records_of_every_length(0)[0], path)
    writers = [spawn_writer(w, 30) for w in range(1, 4)]
    try:
        reads = 0
        while any(p.poll() is None for p in writers) or reads < 10:
            assert_loads(path)
            reads += 1
    finally:
        for p in writers:  # a failed read must not leave writers running
            if p.poll() is None:
                p.kill()
        outputs = [p.communicate()[0] for p in writers]
    assert [p.returncode for p in writers] == [0, 0, 0]
    assert all(out.split()[-1] == "29" for out in outputs)
    assert not list(path.parent.glob("*.corrupt-*"))


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs kill -9 (POSIX)")
@pytest.mark.parametrize("after", [3, 11, 24])
def test_a_writer_killed_mid_loop_leaves_a_readable_save(after):
    writer = spawn_writer(5, 0)
    try:
        assert writer.stdout is not None
        for line in writer.stdout:  # let it get well into its loop of saves
            if int(line) >= after:
                break
        os.kill(writer.pid, signal.SIGKILL)
    finally:
        writer.kill()
        writer.communicate()
    assert writer.returncode == -signal.SIGKILL
    assert_loads(default_save_path())
