"""The log's wording, without Textual."""

from __future__ import annotations

from mantis.engine import ExtraTurn, GameOver, Scored, StealMissed, Stolen
from mantis.engine.cards import BLUE, GREEN, RED, card_of
from mantis.table.narration import fault_line, narrate, reason_text

NAMES = ["Ann", "Bea", "Cal"]


def test_steal_score_and_miss_lines() -> None:
    assert narrate(Stolen(1, 2, RED, (0, 3, 6)), NAMES) == "Bea stole 3 red from Cal"
    assert narrate(Scored(0, BLUE, (1, 2, 5, 8), 9), NAMES) == "Ann scored 4 blue (score 9)"
    card = card_of(0, GREEN)
    assert narrate(StealMissed(2, 0, card, GREEN), NAMES) == (
        "Cal tried to steal from Ann and missed: green went to Ann's tank"
    )


def test_second_person_for_you() -> None:
    names = ["You", "Bea"]
    assert narrate(StealMissed(1, 0, card_of(0, GREEN), GREEN), names) == (
        "Bea tried to steal from you and missed: green went to your tank"
    )
    assert narrate(Stolen(1, 0, RED, (0, 3)), names) == "Bea stole 2 red from you"
    assert narrate(ExtraTurn(0), names) == "Extra turn for you"


def test_fault_line() -> None:
    assert fault_line("Cal", "failed (ValueError: x)") == (
        "Cal's bot failed (ValueError: x); Cal scores instead"
    )


def test_shared_win_explains_the_tiebreak() -> None:
    over = GameOver((1, 2), "deck_out", (3, 9, 9), (4, 23, 23), 89)
    assert "share the win" in narrate(over, NAMES)
    text = reason_text(over, NAMES)
    assert "tie between Bea and Cal" in text and "still tied at 23" in text


def test_tank_breaks_a_score_tie() -> None:
    over = GameOver((2,), "deck_out", (3, 9, 9), (4, 20, 23), 89)
    text = reason_text(over, NAMES)
    assert "larger tank" in text and "Cal has 23" in text


def test_target_reached() -> None:
    over = GameOver((0,), "target", (11, 2, 3), (1, 2, 3), 30)
    assert reason_text(over, NAMES) == "Ann reached the target: 11 scored cards."
