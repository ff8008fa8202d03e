"""`mantis simulate`: results, records, --jobs independence and errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from mantis.cli import main
from mantis.engine import Game, game_seed, record_of
from mantis.engine.record import parse_record
from mantis.home.record_file import read_records
from mantis.sim.runner import _seat_infos


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_summary_has_every_field_and_consistent_figures(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    code, out, err = run(
        capsys,
        "--players",
        "3",
        "--bots",
        "score,random,score",
        "--games",
        "300",
        "--json",
        "--record",
        str(path),
    )
    assert code == 0, err
    data = json.loads(out)
    for key in (
        "games",
        "players",
        "seed",
        "bots",
        "wins",
        "win_rate",
        "win_rate_ci95",
        "shared",
        "avg_turns",
        "games_per_second",
        "decision_ms",
    ):
        assert key in data
    assert data["games"] == 300 and data["players"] == 3 and data["seed"] == 0
    assert data["bots"] == ["score", "random", "score"]
    records = read_records(path)
    # A shared win counts fully for each sharer.
    assert sum(data["wins"]) == sum(len(r.result.winners) for r in records)
    assert data["shared"] == sum(len(r.result.winners) > 1 for r in records)
    assert data["avg_turns"] == pytest.approx(sum(r.result.turns for r in records) / 300)
    for wins, rate, (lo, hi) in zip(
        data["wins"], data["win_rate"], data["win_rate_ci95"], strict=True
    ):
        assert rate == wins / 300
        assert lo <= rate <= hi
    assert set(data["decision_ms"]) == {"score", "random"}
    assert all(set(v) == {"median", "p95"} for v in data["decision_ms"].values())


def test_table_output_names_every_seat(capsys):
    code, out, _ = run(capsys, "--players", "2", "--bots", "score,random", "--games", "20")
    assert code == 0
    assert "score" in out and "random" in out and "95% CI" in out and "games/s" in out
    # Seats count from 1, as on every screen and in --seat.
    rows = [
        line.split()[:2]
        for line in out.splitlines()
        if line.split()[1:2] in (["score"], ["random"])
    ]
    assert rows == [["1", "score"], ["2", "random"]]


def test_records_replay_to_the_reported_wins(capsys, tmp_path):
    path = tmp_path / "out.jsonl"
    code, out, _ = run(
        capsys,
        "--players",
        "4",
        "--bots",
        "random",
        "--games",
        "40",
        "--seed",
        "7",
        "--record",
        str(path),
        "--json",
    )
    assert code == 0
    summary = json.loads(out)
    records = read_records(path)  # re-plays every game through the rules
    assert [r.seed for r in records] == [game_seed(7, i) for i in range(40)]
    wins = [0] * 4
    for record in records:
        for seat in record.result.winners:
            wins[seat] += 1
    assert wins == summary["wins"]
    # The recorded deal is the deal `mantis play --seed` would give.
    fresh = Game.new(4, records[3].seed)
    assert fresh.initial_tanks == records[3].tanks and fresh.initial_pile == records[3].pile


@pytest.mark.parametrize("bots", ["random", "casual,greedy,random"])
def test_jobs_do_not_change_results_or_records(capsys, tmp_path, bots):
    outputs = []
    for jobs in (["--jobs", "1"], ["--jobs", "2"], ["--jobs", "auto"], []):
        path = tmp_path / f"jobs{'-'.join(jobs)}.jsonl"
        code, out, _ = run(
            capsys,
            "--players",
            "3",
            "--bots",
            bots,
            "--games",
            "90",
            "--seed",
            "3",
            *jobs,
            "--record",
            str(path),
            "--json",
        )
        assert code == 0
        data = json.loads(out)
        outputs.append(
            (data["wins"], data["shared"], data["mean_score"], data["avg_turns"], path.read_bytes())
        )
    assert len(outputs[0][-1].splitlines()) == 90
    assert all(output == outputs[0] for output in outputs[1:])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7", "--bots", "score", "--games", "5"], "--players must be 2 to 6"),
        (["--players", "1", "--bots", "score", "--games", "5"], "--players must be 2 to 6"),
        (["--players", "3", "--bots", "score,score", "--games", "5"], "names 2 bots for 3"),
        (["--players", "2", "--bots", "nobody", "--games", "5"], "unknown bot 'nobody'"),
        (["--players", "2", "--bots", "score", "--games", "0"], "--games must be at least 1"),
        (["--players", "2", "--bots", "score", "--games", "3", "--jobs", "all"], "or auto"),
        (["--players", "2", "--bots", "score", "--games", "x"], "invalid int value"),
        (["--players", "2", "--bots", "score", "--games", "3", "--jobs", "0"], "at least 1"),
        (["--players", "2", "--bots", "score", "--games", "3", "--seed", "-1"], "seeds are 0"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_failing_bot_stops_the_run_naming_bot_game_and_seed(capsys, tmp_path, monkeypatch):
    (tmp_path / "flaky_bot.py").write_text(
        textwrap.dedent("""
        from mantis.engine import SCORE

        class Flaky:
            def new_game(self, seat, rng):
                self.turns = 0

            def choose(self, view):
                self.turns += 1
                if view.turn > 20:
                    raise RuntimeError("lost my marbles")
                return SCORE
    """)
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(
        capsys,
        "--players",
        "4",
        "--bots",
        "flaky_bot:Flaky,score,score,score",
        "--games",
        "50",
        "--seed",
        "2",
    )
    assert code == 1
    line = err.strip()
    assert len(line.splitlines()) == 1
    assert "flaky_bot:Flaky" in line and "lost my marbles" in line
    # The message names a game and its seed, and that seed really breaks the bot.
    index = int(line.split("in game ")[1].split()[0])
    seed = int(line.split("(seed ")[1].split(")")[0])
    assert seed == game_seed(2, index)


def test_a_long_plug_in_name_still_gives_a_readable_record() -> None:
    spec = "a_package_with_a_long_name.and_a_module_named_at_length:AndAClass"
    seats = _seat_infos([spec, "random"])
    record = record_of(Game.new(2, 1), seats)
    assert parse_record(record.to_json()).seats == seats
    assert seats[0].bot == spec and seats[0].name.endswith(" 0")


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    # `mantis simulate ... | head`: the pipe's reader is gone before anything is written.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mantis", "simulate", "--players", "2"]
            + ["--bots", "random", "--games", "20", "--jobs", "1"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={**os.environ, "MANTIS_HOME": str(tmp_path)},
        )
    finally:
        os.close(write_end)
    assert done.returncode == 141
    assert "Traceback" not in done.stderr and "Error" not in done.stderr
