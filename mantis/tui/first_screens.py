"""What the app opens on: one factory per way in, handed to ``MantisApp`` by its launcher.

``mantis`` opens on the setup screen (offering to resume an unfinished
game), ``mantis play --seats`` on a new table, ``mantis replay`` on a replay
that quits when closed, ``mantis host``/``join``/``watch`` on an online
table's waiting room; tests and screenshots open a table at any position.
Each factory is a small value (so a launcher's choice can be compared) that
the app calls once it is mounted, to show its screen, and names the style
sheets that screen needs (``styles``), which the app reads with its own: a
screen's own ``CSS_PATH``, read when it is first shown, parses every style of
the app again, which a first frame should not wait for.

The factories are frozen ``msgspec`` structs rather than dataclasses: this
module loads before every first frame, and a frozen dataclass costs some
twenty times as much to define (its methods are generated as source and
compiled), about 3.5M instructions each.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, ClassVar

import msgspec

#: A table's style sheets (LocalPlayScreen's), relative to ``mantis/tui``.
TABLE_STYLES = ("screens/board.tcss", "screens/play.tcss")

if TYPE_CHECKING:
    from ..engine import GameRecord, SeatInfo
    from ..net.client import TableConnection
    from .app import MantisApp


class Resume(Enum):
    """What the setup screen does about an unfinished game."""

    OFFER = "offer"
    """Ask whether to resume it."""
    NOW = "now"
    """Resume it straight away (``mantis play --resume``)."""


class Setup(msgspec.Struct, frozen=True):
    """The setup screen (with ``seed`` typed in), then, if asked, what to do about a saved game."""

    seed: int | None = None
    resume: Resume | None = None

    def __call__(self, app: MantisApp) -> None:
        app.show_setup(self.seed)
        if self.resume is not None:
            app.local.offer_resume(self.resume is Resume.NOW)


class NewTable(msgspec.Struct, frozen=True):
    """A new table of ``seats`` dealt from ``seed`` (a fresh one if None); not remembered.

    ``paused`` holds bot play until resumed or stepped.
    """

    seats: Sequence[SeatInfo]
    seed: int | None = None
    paused: bool = False
    styles: ClassVar[tuple[str, ...]] = TABLE_STYLES

    def __call__(self, app: MantisApp) -> None:
        app.local.start(self.seats, self.seed, paused=self.paused, remember=False)


class Position(msgspec.Struct, frozen=True):
    """The table of ``record`` (its seats, its deal) after ``upto`` actions (default: all)."""

    record: GameRecord
    upto: int | None = None
    paused: bool = False
    styles: ClassVar[tuple[str, ...]] = TABLE_STYLES

    def __post_init__(self) -> None:
        if self.record.seats is None:
            raise ValueError("a table needs the record's seats")

    def __call__(self, app: MantisApp) -> None:
        app.local.open(self.record, self.upto, paused=self.paused)


class Replay(msgspec.Struct, frozen=True):
    """The replay of ``record``, called ``title``; closing it quits the app."""

    record: GameRecord
    title: str = ""
    styles: ClassVar[tuple[str, ...]] = ("screens/board.tcss", "screens/replay.tcss")

    def __call__(self, app: MantisApp) -> None:
        app.open_replay(self.record, title=self.title, then=lambda _: app.exit(0))


class Online(msgspec.Struct, frozen=True):
    """The table ``connection`` is at: its waiting room, then its board."""

    connection: TableConnection

    def __call__(self, app: MantisApp) -> None:
        app.online_play.follow(self.connection)
