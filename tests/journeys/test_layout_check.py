"""The table layout check (``screenkit.table_faults``) passes a whole table and names each fault."""

from __future__ import annotations

from pathlib import Path

import pytest
from screenkit import assert_table_whole, snapshot_lines, table_faults

# `mantis play --seats human,greedy,greedy,greedy --seed 7` at 80x24 with the odds shown,
# read off the journeys' terminal.
WHOLE = """\
 MANTIS · seed 7 · move 0 · target 10 · speed normal
                                  ▶ YOUR TURN
┏━ 1 You · human ━━┓╭─ 2 Ann · greedy ─╮╭─ 3 Bea · greedy ─╮╭─ 4 Cal · greedy ─╮
┃ R ·              ┃│ R ● 1            ││ R ·              ││ R ·              │
┃ G ▲ 1            ┃│ G ▲ 1            ││ G ▲ 1            ││ G ▲ 1            │
┃ B ■ 1            ┃│ B ·              ││ B ■ 1            ││ B ■ 1            │
┃ P ◆◆ 2           ┃│ P ·              ││ P ◆ 1            ││ P ·              │
┃ K ·              ┃│ K ·              ││ K ♥ 1            ││ K ·              │
┃ Y ·              ┃│ Y ★★ 2           ││ Y ·              ││ Y ★ 1            │
┃ O ·              ┃│ O ·              ││ O ·              ││ O ♣ 1            │
┃ 0/10  tank 4     ┃│ 0/10  tank 4     ││ 0/10  tank 4     ││ 0/10  tank 4     │
┗━━━━━━ ▶ to move ━┛╰──────────────────╯╰──────────────────╯╰──────────────────╯
╭─ Draw pile · odds for You ───╮╭─ Game log ───────────────────────────────────╮
│ 89 cards left                ││     New game (seed 7): 4 players, first to   │
│ Top  B  1/3  Y  1/3  O  1/3  ││     10 scored cards wins. You start.         │
│ Score             33%  ~0.7  ││                                              │
│ Steal Ann         33%  ~1.0  ││                                              │
│ Steal Bea         33%  ~0.7  ││                                              │
│ Steal Cal        100%   2.0  ││                                              │
│                              ││                                              │
│                              ││                                              │
╰──────────────────────────────╯╰──────────────────────────────────────────────╯
    Score (s)       Steal (⏎)     Steal: pick 2,3,4 or click a seat, then ⏎
 s Score  1-6 Pick  ⏎ Steal  p Pause  f Speed  f1 Help  f2 Settings ▏^p palette
""".splitlines()


def edited(changes: dict[int, str]) -> list[str]:
    """The whole table with some rows replaced."""
    return [changes.get(y, row) for y, row in enumerate(WHOLE)]


def test_a_whole_table_has_no_fault() -> None:
    assert table_faults(WHOLE) == []
    assert_table_whole(WHOLE)


def test_a_table_of_one_line_tanks_from_a_snapshot_has_no_fault() -> None:
    # Six seats at 80x24: each tank on one line, as the snapshot test stored it.
    lines = snapshot_lines(
        Path(__file__).parent.parent / "tui" / "test_tui_snapshots.py",
        "test_table_small_terminal[6]",
    )
    assert len(lines) == 24 and all(len(line) == 80 for line in lines)
    assert "R1 G2 B· P1 K1 Y· O·" in lines[3]
    assert table_faults(lines) == []


def test_a_missing_score_row_is_named() -> None:
    # Bea's panel one row short: the Score row gone, the border closed above it.
    lines = edited(
        {
            10: "┃ 0/10  tank 4     ┃│ 0/10  tank 4     │╰──────────────────╯│ 0/10  tank 4     │",
            11: "┗━━━━━━ ▶ to move ━┛╰──────────────────╯                    ╰──────────────────╯",
        }
    )
    assert table_faults(lines) == ["seat '3 Bea · greedy': no Score row"]


def test_seats_cut_after_yellow_are_named() -> None:
    # As a seat panel looks when given fewer rows than its tank needs: R to Y, no Score row.
    lines = edited(
        {
            9: "┗━━━━━━ ▶ to move ━┛│ O ·              ││ O ·              ││ O ♣ 1            │",
            10: "                    │ 0/10  tank 4     ││ 0/10  tank 4     ││ 0/10  tank 4     │",
            11: "                    ╰──────────────────╯╰──────────────────╯╰──────────────────╯",
        }
    )
    assert table_faults(lines) == [
        "seat '1 You · human': no Score row",
        "seat '1 You · human': its tank shows the rows R G B P K Y, not R G B P K Y O one per row",
    ]


def test_an_open_border_is_named() -> None:
    lines = edited(
        {21: "╰──────────────────────────────╯╰─────────────────────────────────────────────  "}
    )
    faults = table_faults(lines)
    assert len(faults) == 1, faults
    assert faults[0].startswith("'Game log' (row 12, column 32): its sides stop at row 21")


def test_an_empty_box_is_named() -> None:
    # The chances of a reviewed decision as they once showed: a border, nothing inside.
    lines = edited(
        {
            12: "╭─ Draw pile ──────────────────╮╭─ Game log ───────────────────────────────────╮",
            13: "│ 89 cards left                ││     New game (seed 7): 4 players, first to   │",
            14: "│ Top back  B   Y   O          ││     10 scored cards wins. You start.         │",
            15: "╰──────────────────────────────╯│                                              │",
            16: "╭──────────────────────────────╮│                                              │",
            17: "│                              ││                                              │",
            18: "│                              ││                                              │",
            19: "│                              ││                                              │",
            20: "╰──────────────────────────────╯│                                              │",
            21: "                                ╰──────────────────────────────────────────────╯",
        }
    )
    assert table_faults(lines) == [
        "'an untitled box' (row 16, column 0): nothing inside its border"
    ]


def test_a_blank_band_above_the_footer_is_named() -> None:
    lines = edited({22: " " * 80})
    assert table_faults(lines) == ["row(s) 22 blank between the board and the footer"]


def test_odds_without_their_steal_rows_are_named() -> None:
    lines = edited(
        {17: "│                              ││                                              │"}
    )
    assert table_faults(lines) == [
        "'Draw pile · odds for You' (row 12, column 0): the odds show 2 Steal row(s)"
        " for 3 other seat(s)"
    ]


def test_a_text_cut_at_the_edge_of_its_box_is_named() -> None:
    # Ann's connection and rating, too long for the bottom of her panel.
    bottom = "╰─ ● online · 1,… ─╯"
    lines = edited({11: WHOLE[11][:20] + bottom + WHOLE[11][20 + len(bottom) :]})
    assert table_faults(lines) == ["row 11: '● online · 1,…' is cut off"]


def test_an_ellipsis_that_ends_a_sentence_is_no_cut() -> None:
    lines = edited({22: "    Score (s)       Steal (⏎)     Ann is thinking…"})
    assert table_faults(lines) == []


def test_the_assertion_lists_the_faults_and_shows_the_screen() -> None:
    with pytest.raises(AssertionError) as failure:
        assert_table_whole(edited({22: ""}))
    message = str(failure.value)
    assert "  - row(s) 22 blank between the board and the footer" in message
    assert "12│╭─ Draw pile · odds for You" in message
