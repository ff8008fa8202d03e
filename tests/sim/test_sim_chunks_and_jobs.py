"""Chunk sizes (progress every fraction of a second), progress reports, and the --jobs rule."""

from __future__ import annotations

import pytest

from mantis.cli import main
from mantis.engine import game_seed
from mantis.sim import jobs as jobs_rule
from mantis.sim.chunking import GROWTH, MAX_CHUNK, TARGET_SECONDS, ChunkSizer
from mantis.sim.runner import GameTask, run_tasks


def sizes_for(per_game: float, chunks: int) -> list[int]:
    """Chunk sizes when every game takes ``per_game`` seconds (a fake clock)."""
    sizer = ChunkSizer()
    out = []
    for _ in range(chunks):
        size = sizer.next_size()
        out.append(size)
        sizer.record(size, size * per_game)
    return out


def test_the_first_chunk_is_one_game_so_the_first_report_comes_at_once():
    assert ChunkSizer().next_size() == 1
    assert sizes_for(10.0, 1) == [1]


@pytest.mark.parametrize("per_game", [2e-5, 1e-4, 1e-3, 1.5e-2, 0.1])
def test_chunks_grow_by_at_most_fourfold_to_about_the_target_time(per_game):
    sizes = sizes_for(per_game, 12)
    assert all(b <= a * GROWTH for a, b in zip(sizes, sizes[1:], strict=False))
    steady = sizes[-1]
    assert steady == min(MAX_CHUNK, max(1, int(TARGET_SECONDS / per_game)))
    # every chunk takes at most the target (or one game, if a game is longer)
    assert all(size * per_game <= max(TARGET_SECONDS, per_game) for size in sizes)


def test_a_game_slower_than_the_target_gets_chunks_of_one():
    assert sizes_for(2.0, 5) == [1, 1, 1, 1, 1]


def test_a_slowdown_shrinks_the_next_chunk():
    sizer = ChunkSizer()
    for _ in range(6):
        size = sizer.next_size()
        sizer.record(size, size * 1e-3)
    before = sizer.next_size()
    sizer.record(before, before * 1e-1)  # 100 times slower all of a sudden
    assert sizer.next_size() < before


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_is_reported_per_chunk_first_after_one_game(jobs):
    reports: list[int] = []
    tasks = [GameTask(i, game_seed(5, i), ("score", "random", "greedy")) for i in range(300)]
    result = run_tasks(tasks, jobs=jobs, progress=reports.append)
    assert sum(reports) == 300 and [g.number for g in result.games] == list(range(300))
    assert 1 in reports[: 2 * jobs]  # the first chunks are single games
    assert len(reports) >= 4 and max(reports) <= MAX_CHUNK


def test_default_jobs_one_process_for_cheap_bots_all_cores_for_long_expert_runs():
    cheap = [("score",) * 4]
    expert = [("expert",) * 4]
    assert jobs_rule.default_jobs(cheap, 1_000_000, 2) == 1
    assert jobs_rule.default_jobs([("greedy", "casual")], 1_000_000, 8) == 1
    assert jobs_rule.default_jobs(expert, 10, 2) == 1  # too short to pay for the workers
    assert jobs_rule.default_jobs(expert, 2000, 2) == 2
    assert jobs_rule.default_jobs(expert, 2000, 1) == 1
    # a tournament: the sum over lineups counts
    mixed = [("expert", "score"), ("score", "expert")]
    assert jobs_rule.default_jobs(mixed, 200, 2) == 2


def test_resolve_jobs():
    assert jobs_rule.resolve_jobs("auto", [("score",)], 1) == jobs_rule.cores()
    assert jobs_rule.resolve_jobs(3, [("score",)], 1) == 3
    assert jobs_rule.resolve_jobs(None, [("score",)], 10) == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_bot_stops_the_run_with_one_line_whatever_jobs(
    jobs, tmp_path, monkeypatch, capsys
):
    (tmp_path / "flaky_bot_for_jobs.py").write_text(
        "from mantis.engine import SCORE\n"
        "class Flaky:\n"
        "    def new_game(self, seat, rng):\n"
        "        self.seed_seen = rng\n"
        "    def choose(self, view):\n"
        "        if view.turn >= 20 and view.pile_size % 7 == 0:\n"
        "            raise RuntimeError('flaky')\n"
        "        return SCORE\n"
    )
    monkeypatch.chdir(tmp_path)
    code = main(
        ["simulate", "--players", "2", "--bots", "flaky_bot_for_jobs:Flaky", "--games", "40"]
        + ["--jobs", jobs]
    )
    _, err = capsys.readouterr()
    assert code == 1
    assert err.count("\n") == 1 and "flaky_bot_for_jobs:Flaky" in err and "flaky" in err
    assert "failed in game" in err and "(seed " in err
