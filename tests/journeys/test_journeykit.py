"""The journeys' harness: keys as a terminal sends them, a screen as a terminal shows it,
and the app's end (its status, what it printed) in the test's hands."""

from __future__ import annotations

import pyte
import pytest
from journeykit import SIZES, Size, TerminalScreen, key_bytes
from screenkit import assert_table_whole


@pytest.mark.parametrize(
    ("key", "sent"),
    [
        ("s", b"s"),
        ("7", b"7"),
        ("?", b"?"),
        ("enter", b"\r"),
        ("tab", b"\t"),
        ("escape", b"\x1b[27u"),
        ("up", b"\x1b[A"),
        ("left", b"\x1b[D"),
        ("ctrl+s", b"\x13"),
        ("ctrl+q", b"\x11"),
        ("ctrl+p", b"\x10"),
        ("ctrl+g", b"\x07"),
        ("ctrl+l", b"\x0c"),
        ("f1", b"\x1bOP"),
        ("f2", b"\x1bOQ"),
    ],
)
def test_keys_are_sent_as_a_terminal_sends_them(key: str, sent: bytes) -> None:
    assert key_bytes(key) == sent


def test_an_unknown_key_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no byte sequence"):
        key_bytes("hyper+x")


def _screen() -> tuple[TerminalScreen, pyte.ByteStream, list[str]]:
    answers: list[str] = []
    screen = TerminalScreen(20, 3, answers.append)
    return screen, pyte.ByteStream(screen), answers


def test_a_frame_shows_only_once_it_is_drawn_whole() -> None:
    screen, stream, _ = _screen()
    stream.feed(b"\x1b[?2026hfirst\x1b[?2026l")
    assert screen.shown_lines()[0].rstrip() == "first"
    stream.feed(b"\x1b[?2026h\x1b[1;1Hsecond")
    assert screen.shown_lines()[0].rstrip() == "first"  # still drawing: the last whole frame
    assert screen.shown_cells()[0][0].data == "f"
    stream.feed(b"\x1b[?2026l")
    assert screen.shown_lines()[0].rstrip() == "second"
    # Each whole frame is kept, in order.
    assert [frame[0].rstrip() for frame in screen.frames] == ["first", "second"]


def test_the_alternate_screen_gives_back_what_was_there() -> None:
    screen, stream, _ = _screen()
    stream.feed(b"before\x1b[?1049h\x1b[1;1Happ")
    assert screen.shown_lines()[0].rstrip() == "app"
    stream.feed(b"\x1b[?1049l\r\nafter")
    assert [line.rstrip() for line in screen.shown_lines()[:2]] == ["before", "after"]


def test_the_terminal_answers_the_app_questions() -> None:
    screen, stream, answers = _screen()
    stream.feed(b"\x1b[6n")  # where is the cursor?
    assert answers == ["\x1b[1;1R"]


# ---------------------------------------------------------------------- with the app

journey = pytest.mark.journey


@journey
def test_a_bad_command_line_ends_with_its_status_and_its_error(terminal) -> None:
    term = terminal("play", "--seats", "human,nobody")
    with pytest.raises(AssertionError, match="mantis ended") as failure:
        term.wait_for("never shown")
    assert "unknown bot 'nobody'" in str(failure.value)  # what it printed, in the failure
    assert term.wait_exit() == 2
    assert "mantis: error: --seats: unknown bot 'nobody'" in term.printed()
    assert "Traceback" not in term.printed()


@journey
def test_a_resized_table_is_drawn_whole_and_a_killed_app_is_gone(terminal) -> None:
    start, larger = SIZES[1], Size(120, 40)
    term = terminal("play", "--seats", "human,greedy,greedy,greedy", "--seed", "7", size=start)
    term.settle("▶ YOUR TURN")
    with pytest.raises(AssertionError, match=r"timed out after 0\.2 s waiting for 'never shown'"):
        term.wait_for("never shown", timeout=0.2)

    term.resize(larger.columns, larger.lines)

    def at_new_size(lines: list[str]) -> bool:
        """the table redrawn 120 wide, 40 high"""
        return len(lines) == 40 and "▏^p palette" in lines[39] and "YOUR TURN" in "".join(lines)

    assert_table_whole(term.settle(at_new_size))
    assert term.kill() == -9
    assert not term.process.isalive()
