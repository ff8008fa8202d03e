"""A screen read as text rows, and the check that a table screen is whole.

The rows come from a terminal (the journeys' pyte screen) or from an app
running in the tests (``app_lines``, from Textual's own screenshot, the one
snapshot tests store): ``table_faults`` reads either the same way.

A table is whole when every seat panel, the draw pile (with the odds when
they are shown) and the game log are closed boxes showing all their rows,
no box is empty (a border with nothing inside), no blank row splits the
board from the footer, and no text is cut short with "…" at the edge of its
box.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.cells import cell_len

LETTERS = "RGBPKYO"
"""The seven colours' letters, in the order every tank lists them."""

# Each border style Textual draws boxes with: corners, then the horizontal and vertical sides.
_STYLES = {
    "╭": ("╮", "╰", "╯", "─", "│"),  # round
    "┏": ("┓", "┗", "┛", "━", "┃"),  # heavy
    "╔": ("╗", "╚", "╝", "═", "║"),  # double
}
_TOP_RIGHT = {style[0] for style in _STYLES.values()}
_BORDER = set("".join(_STYLES) + "".join("".join(style) for style in _STYLES.values()))

_SEAT_TITLE = re.compile(r"^(\d) (.*?)(?: · .*)?$")
_SCORE_ROW = re.compile(r"^(Score\s+)?\d+/\d+\b")
_TANK_LINE = re.compile(r"^[RGBPKYO](·|\d+)( [RGBPKYO](·|\d+))*$")
_ONE_LINE_TANK_WIDTH = 3 * len(LETTERS) - 1
"""The width from which a one-line tank lists all seven colours (else only those held)."""


@dataclass(frozen=True)
class Box:
    """A box drawn on the screen: its title, its corners' rows and columns, its inside."""

    title: str
    top: int
    left: int
    right: int
    bottom: int | None
    """The row of its bottom border; None when a side stops before reaching one."""
    inside: tuple[str, ...]
    """The rows between its borders, stripped."""

    def __str__(self) -> str:
        return f"{self.title or 'an untitled box'!r} (row {self.top}, column {self.left})"


def dump(lines: Sequence[str]) -> str:
    """Screen rows as text for a message: numbered, trailing blanks dropped."""
    return "\n".join(f"{y:2}│{line.rstrip()}" for y, line in enumerate(lines))


def boxes(lines: Sequence[str]) -> tuple[list[Box], list[str]]:
    """Every box on the screen, from its top left corner, and what is wrong with their borders."""
    width = max((len(line) for line in lines), default=0)
    grid = [line.ljust(width) for line in lines]
    found: list[Box] = []
    faults: list[str] = []
    for top, row in enumerate(grid):
        for left, corner in enumerate(row):
            if corner not in _STYLES:
                continue
            box, fault = _box_at(grid, top, left)
            found.append(box)
            if fault:
                faults.append(f"{box}: {fault}")
    return found, faults


def _box_at(grid: Sequence[str], top: int, left: int) -> tuple[Box, str | None]:
    top_right, bottom_left, bottom_right, _, side = _STYLES[grid[top][left]]
    row = grid[top]
    right = next((x for x in range(left + 1, len(row)) if row[x] in _TOP_RIGHT), None)
    title = _title(row[left + 1 : right])
    if right is None:
        return Box(title, top, left, len(row) - 1, None, ()), "its top border has no right corner"
    if row[right] != top_right:
        return Box(title, top, left, right, None, ()), "its top corners do not match"
    bottom = None
    fault = None
    for y in range(top + 1, len(grid)):
        at_left, at_right = grid[y][left], grid[y][right]
        if at_left == bottom_left and at_right == bottom_right:
            bottom = y
            break
        if at_left != side or at_right != side:
            fault = f"its sides stop at row {y} ({at_left!r} and {at_right!r}): no bottom border"
            break
    else:
        fault = "its sides run off the screen: no bottom border"
    end = bottom if bottom is not None else top + 1
    inside = tuple(grid[y][left + 1 : right].strip() for y in range(top + 1, end))
    return Box(title, top, left, right, bottom, inside), fault


def box_rows(lines: Sequence[str], title: str) -> tuple[str, ...]:
    """The rows inside the box whose title starts with ``title`` ("Game log"), stripped."""
    found, _ = boxes(lines)
    for box in found:
        if box.title.startswith(title):
            return box.inside
    raise AssertionError(f"no box titled {title!r} on the screen:\n{dump(lines)}")


def _title(edge: str) -> str:
    return edge.strip("".join(_BORDER) + " ").strip()


def table_faults(lines: Sequence[str]) -> list[str]:
    """What is wrong with a table screen's layout, one sentence each; empty when it is whole."""
    width = max((len(line) for line in lines), default=0)
    lines = [line.ljust(width) for line in lines]
    found, faults = boxes(lines)
    seats = [box for box in found if _SEAT_TITLE.match(box.title)]
    piles = [box for box in found if box.title.startswith("Draw pile")]
    logs = [box for box in found if box.title.startswith("Game log")]
    if len(seats) < 2:
        faults.append(f"{len(seats)} seat panel(s) found: a table has 2 to 6")
    numbers = [int(_SEAT_TITLE.match(box.title).group(1)) for box in seats]  # type: ignore[union-attr]
    if sorted(numbers) != list(range(1, len(seats) + 1)):
        faults.append(f"the seat panels are numbered {sorted(numbers)}, not 1 to {len(seats)}")
    for seat in seats:
        faults.extend(f"seat {seat.title!r}: {fault}" for fault in _seat_faults(seat))
    if len(piles) != 1:
        faults.append(f"{len(piles)} draw piles found: a table shows one")
    for pile in piles:
        faults.extend(f"{pile}: {fault}" for fault in _pile_faults(pile, seats))
    if len(logs) != 1:
        faults.append(f"{len(logs)} game logs found: a table shows one")
    faults.extend(f"{box}: nothing inside its border" for box in found if _empty(box))
    faults.extend(_blank_rows(lines, found))
    faults.extend(_cut_texts(lines))
    return faults


def _seat_faults(seat: Box) -> list[str]:
    if seat.bottom is None:
        return []  # its border's fault is told already
    rows = list(seat.inside)
    score = [i for i, row in enumerate(rows) if _SCORE_ROW.match(row)]
    faults = []
    if not score:
        faults.append("no Score row")
    tank = rows[: score[0]] if score else rows
    if len(tank) == 1 and (_TANK_LINE.match(tank[0]) or tank[0] == "empty"):
        width = seat.right - seat.left - 3  # the inside, less its padding
        held = "".join(t[0] for t in tank[0].split() if t[0] in LETTERS)
        if width >= _ONE_LINE_TANK_WIDTH and held != LETTERS:
            faults.append(f"its tank line shows {held or 'no colour'}, not {LETTERS}")
    else:
        shown = "".join(
            letter
            for letter, row in zip(LETTERS, tank, strict=False)
            if row == letter or row.startswith(f"{letter} ")
        )
        if shown != LETTERS or len(tank) != len(LETTERS):
            faults.append(
                f"its tank shows the rows {' '.join(row[:1] or '_' for row in tank) or 'none'},"
                f" not {' '.join(LETTERS)} one per row"
            )
    if score and score[0] != len(rows) - 1:
        faults.append(f"{len(rows) - 1 - score[0]} row(s) below its Score row")
    return faults


def _pile_faults(pile: Box, seats: Sequence[Box]) -> list[str]:
    rows = pile.inside
    faults = []
    # "89 cards left", "1 card left", "No card left to draw".
    if pile.bottom is not None and not any(re.search(r"cards? left", row) for row in rows):
        faults.append("no count of the cards left")
    if "odds" in pile.title and pile.bottom is not None:
        over = any(row in {"The game is over.", "No card left."} for row in rows)
        if not over:
            if not any(re.match(r"Score\s+\d+%", row) for row in rows):
                faults.append("the odds have no Score row")
            steals = [row for row in rows if row.startswith("Steal ")]
            if seats and len(steals) != len(seats) - 1:
                faults.append(
                    f"the odds show {len(steals)} Steal row(s) for {len(seats) - 1} other seat(s)"
                )
    return faults


def _empty(box: Box) -> bool:
    """A closed box with rows inside and not a character on any of them."""
    return box.bottom is not None and bool(box.inside) and not any(box.inside)


def _blank_rows(lines: Sequence[str], found: Sequence[Box]) -> list[str]:
    """Blank rows from the board's first box down to the footer (the last row)."""
    if not found:
        return []
    first = min(box.top for box in found)
    blank = [y for y in range(first, len(lines)) if not lines[y].strip()]
    if not blank:
        return []
    return [f"row(s) {', '.join(map(str, blank))} blank between the board and the footer"]


def _cut_texts(lines: Sequence[str]) -> list[str]:
    """Texts ending in "…" at the edge of their box (or of the screen): cut off."""
    faults = []
    for y, line in enumerate(lines):
        for match in re.finditer("…", line):
            after = line[match.end() :]
            # At the edge: the end of the row, or a border, straight after or after a padding.
            padded = after[1:] if after[:1] == " " else after
            if not padded or padded[0] in _BORDER:
                start = max((line.rfind(c, 0, match.start()) for c in _BORDER | {"  "}), default=-1)
                text = line[start + 1 : match.end()].strip(" ─━═")
                faults.append(f"row {y}: {text!r} is cut off")
    return faults


def assert_table_whole(lines: Sequence[str]) -> None:
    """Fail with every fault of a table screen's layout, and the screen, unless it is whole."""
    faults = table_faults(lines)
    if faults:
        listed = "\n".join(f"  - {fault}" for fault in faults)
        raise AssertionError(f"the table is not whole:\n{listed}\n{dump(lines)}")


# ---------------------------------------------------------------------- screens in the tests

_SVG_TEXT = re.compile(
    r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="([\d.]+)"'
    r' clip-path="url\(#[\w-]*-line-(\d+)\)">([^<]*)</text>'
)
_SVG_LINE = re.compile(r'<clipPath id="[\w-]*-line-(\d+)">\s*<rect [^>]*width="([\d.]+)"')


def svg_lines(svg: str) -> list[str]:
    """The text rows of a Textual screenshot (``App.export_screenshot``, a snapshot's file)."""
    texts = [
        (float(x), float(length), int(y), html.unescape(text).replace("\xa0", " ").rstrip("\n"))
        for x, length, y, text in _SVG_TEXT.findall(svg)
    ]
    clips = [(int(n), float(width)) for n, width in _SVG_LINE.findall(svg)]
    rows = max([0, *(n + 1 for n, _ in clips), *(y + 1 for _, _, y, _ in texts)])
    if not texts:
        return [""] * rows
    cell = next(length / cell_len(text) for _, length, _, text in texts if cell_len(text))
    columns = round(max((width for _, width in clips), default=0) / cell)
    grid: list[dict[int, str]] = [{} for _ in range(rows)]
    for x, _, y, text in texts:
        column = round(x / cell)
        for char in text:
            grid[y][column] = char
            if cell_len(char) == 2:
                grid[y][column + 1] = ""  # as a terminal shows it: the second cell is the char's
            column += cell_len(char) or 1
    width = max([columns, *(max(row, default=-1) + 1 for row in grid)])
    return ["".join(row.get(x, " ") for x in range(width)) for row in grid]


def app_lines(app: object) -> list[str]:
    """The text rows of a running Textual app's screen, as a snapshot test stores them."""
    return svg_lines(app.export_screenshot())  # type: ignore[attr-defined]


def snapshot_lines(test_file: str | Path, name: str) -> list[str]:
    """The rows of the snapshot a ``snap_compare`` test stored (by its file and its node name)."""
    path = Path(test_file).parent / "__snapshots__" / Path(test_file).stem / f"{name}.svg"
    return svg_lines(path.read_text(encoding="utf-8"))


def assert_snapshot_table_whole(request: object) -> None:
    """The table in a ``snap_compare`` test's stored snapshot passes the layout check.

    ``request`` is the test's pytest ``request``.  The stored snapshot is what
    the app drew once ``snap_compare`` has passed (with ``--snapshot-update``,
    the next plain run checks the new one).
    """
    path, name = request.path, request.node.name  # type: ignore[attr-defined]
    assert_table_whole(snapshot_lines(path, name))
