"""``mantis tournament``: lineups, counting, JSON, jobs-independence, bad arguments."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from mantis.cli import main
from mantis.sim.runner import GameResult, RunResult
from mantis.sim.tournament import lineups, make_tasks, tally


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["tournament", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_structure(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(
        capsys, "--bots", "random,score,greedy", "--games", "20", "--seed", "3", "--json"
    )
    assert status == 0, err
    data = json.loads(out)
    assert set(data) >= {"ranking", "head_to_head", "decision_ms"}
    assert data["games"] == 6 * 20  # every ordered pair at two players
    ranking = data["ranking"]
    assert sorted(r["bot"] for r in ranking) == ["greedy", "random", "score"]
    rates = [r["win_rate"] for r in ranking]
    assert rates == sorted(rates, reverse=True)
    for row in ranking:
        assert set(row) >= {"bot", "games", "win_rate", "ci95"}
        assert row["games"] == 2 * 2 * 20  # two opponents, both seatings
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1
    h2h = data["head_to_head"]
    assert set(h2h["greedy"]) == {"random", "score"}
    assert h2h["greedy"]["score"]["games"] == 40
    # two players: a game is a win for one bot (or shared by both)
    for a in h2h:
        for b in h2h[a]:
            assert h2h[a][b]["win_rate"] + h2h[b][a]["win_rate"] >= 1 - 1e-9
    for bot in ("random", "score", "greedy"):
        assert set(data["decision_ms"][bot]) == {"median", "p95"}


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "--bots", "score,greedy", "--players", "3", "--games", "4")
    assert status == 0 and err == ""
    assert "Head-to-head" in out and "95% CI" in out and "median" in out


def test_jobs_do_not_change_results(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--bots", "casual,greedy,score", "--players", "4", "--games", "12", "--json")
    outputs = []
    for jobs in (["--jobs", "1"], ["--jobs", "2"], ["--jobs", "auto"], []):
        _, out, _ = _run(capsys, *args, *jobs)
        data = json.loads(out)
        data.pop("decision_ms")
        outputs.append(data)
    first = outputs[0]
    assert all(other == first for other in outputs[1:])
    assert first["games"] == 3 * 2 * 4 * 12  # ordered pairs x seat positions x games


def test_lineups_rotate_every_seat() -> None:
    found = lineups(["a", "b"], 3)
    assert [seats for _, _, seats in found] == [
        ("a", "b", "b"),
        ("b", "a", "b"),
        ("b", "b", "a"),
        ("b", "a", "a"),
        ("a", "b", "a"),
        ("a", "a", "b"),
    ]
    tasks = make_tasks(["a", "b"], 2, 3, 5)
    assert [t.number for t in tasks] == list(range(6))
    assert [t.seed for t in tasks] == [5 * 2**32 + i for i in range(6)]


def test_shared_wins_count_fully_for_each_sharer() -> None:
    result = RunResult(
        games=[
            GameResult(0, 0, ("a", "b"), (0, 1), (5, 5), 30),
            GameResult(1, 1, ("b", "a"), (0,), (15, 3), 30),
        ]
    )
    st = tally(result, ["a", "b"], 2, 1, 0)
    assert (st.totals["a"].wins, st.totals["a"].games) == (1, 2)
    assert (st.totals["b"].wins, st.totals["b"].games) == (2, 2)
    three = RunResult(
        games=[
            GameResult(0, 0, ("a", "b", "b"), (0, 2), (6, 1, 6), 30),
            GameResult(1, 1, ("b", "a", "b"), (0, 2), (6, 1, 6), 30),
        ]
    )
    st3 = tally(three, ["a", "b"], 3, 1, 0)  # only "a" sits alone
    assert (st3.pairs["a", "b"].wins, st3.pairs["a", "b"].games) == (1, 2)
    assert st3.totals["b"].games == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy,nosuchbot", "--games", "5"], "unknown bot 'nosuchbot'"),
        (["--bots", "greedy", "--games", "5"], "at least two bots"),
        (["--bots", "greedy,score", "--players", "7", "--games", "5"], "2 to 6"),
        (["--bots", "greedy,score", "--players", "1", "--games", "5"], "2 to 6"),
        (["--bots", "greedy,score", "--games", "0"], "at least 1"),
        (["--bots", "greedy,score,greedy", "--games", "3"], "twice"),
        (["--bots", "greedy,score", "--games", "x"], "invalid int"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("mantis: error: ") and err.count("\n") == 1
    assert message in err
    assert "Traceback" not in err


def test_a_failing_bot_stops_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "flaky_tournament_bot.py").write_text(
        textwrap.dedent(
            """
            from mantis.engine import SCORE

            class Flaky:
                def choose(self, view):
                    if view.turn >= 6:
                        raise RuntimeError("lost my marbles")
                    return SCORE
            """
        ),
        encoding="utf-8",
    )
    saved = list(sys.path)
    try:
        status, out, err = _run(
            capsys, "--bots", "greedy,flaky_tournament_bot:Flaky", "--games", "3", "--seed", "2"
        )
    finally:
        sys.path[:] = saved
        sys.modules.pop("flaky_tournament_bot", None)
    assert status == 1
    assert err.count("\n") == 1
    assert "flaky_tournament_bot:Flaky" in err and "game 0" in err
    assert f"seed {2 * 2**32}" in err and "lost my marbles" in err
