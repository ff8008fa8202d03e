"""The waiting room of an online table: its code, who has sat down, and (for the host) setup.

Everyone sees the table's code and how others join or watch it, every seat
and whether its person is connected.  The host may add a bot of any level or
an open seat, remove a bot or an open seat, and start with ctrl+s once every
seat is taken.  What the server refuses is said on the screen, in one line.

A quick-play table ("Play now") has no host: it says how many people it
waits for and counts down to the bots that will take the open seats; it
starts by itself.  The seconds it shows are the table's connection's (counted
on the ``Clock`` it was handed); the screen only redraws them each second.

The screen hears the table from the moment it is made (``follow.OnlineTable``'s
changes, each as a ``Heard`` message with its data), and says the host's
choices through it.
"""

from __future__ import annotations

import math
from typing import Protocol

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Select, Static

from ...follow import changes
from ...follow.online_table import Listener
from ...follow.presence import OPEN_SEAT, presence_label
from ...follow.seat_ratings import seat_rating, table_rating
from ...net import protocol
from ...net.protocol.codes import shown_code
from .. import plain
from ..heard import Heard, connection_note, listener
from ..level_ratings import provisional_key, rated_bots, relabel
from ..widgets.key_footer import KeyFooter


class RoomLink(Protocol):
    """What the waiting room needs of ``OnlineTable`` (a test may hand it a stand-in)."""

    @property
    def url(self) -> str: ...
    @property
    def code(self) -> str | None: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def room(self) -> protocol.RoomState | None: ...
    @property
    def presence(self) -> tuple[str, ...]: ...
    @property
    def ratings(self) -> protocol.Ratings | None: ...

    def bots_left(self) -> float | None:
        """Seconds until bots take a quick-play table's open seats (None: no countdown)."""
        ...

    def send(self, intent: protocol.TableRequest) -> None: ...

    def listen(self, listener: Listener) -> None: ...


class WaitingRoomScreen(Screen[None]):
    """Who sits where before the game starts, and the host's controls."""

    DEFAULT_CSS = """
    WaitingRoomScreen {
        align: center top;
    }
    #room {
        width: 90;
        max-width: 100%;
        height: 1fr;
        padding: 0 1;
    }
    #room-title {
        text-style: bold;
        color: $accent;
        margin: 1 0 0 0;
    }
    #room-share {
        margin: 1 0;
        color: $foreground-muted;
    }
    #room-seats {
        height: auto;
        max-height: 10;
    }
    #host-controls {
        height: auto;
        margin-top: 1;
    }
    #host-controls .controls-row {
        height: 1;
        margin-bottom: 1;
    }
    #host-controls Button {
        margin-right: 1;
        min-width: 0;
        width: auto;
        padding: 0 1;
    }
    #host-controls Select {
        width: 34;
        margin-right: 1;
    }
    #room-note {
        margin-top: 1;
    }
    #room-error {
        color: $error;
        text-style: bold;
    }
    """

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("b", "add_bot", "Add bot"),
        Binding("o", "add_open", "Add open seat"),
        Binding("x,delete", "remove", "Remove seat"),
        Binding("escape", "leave", "Leave"),
    ]

    class Leave(Message):
        """Leave this table (the seat stays this app's: joining again takes it back)."""

    def __init__(self, online: RoomLink, *, still: bool = False) -> None:
        """The waiting room of the table ``online`` is at (``still``: no countdown ticks)."""
        super().__init__()
        self.online = online
        self.seating = changes.SeatsChanged(online.room, online.presence, online.ratings)
        """The seats, their connections and ratings, as the table last told them."""
        online.listen(listener(self))
        self.still = still
        self.connection = ""
        self._rated_for: int | None = None
        """The table size the bot levels offered are rated at."""

    @property
    def room(self) -> protocol.RoomState | None:
        return self.seating.room

    @property
    def is_host(self) -> bool:
        """This app hosts the table (a quick-play table has nobody to set it up)."""
        room = self.room
        return (
            room is not None
            and not room.quick
            and self.online.seat is not None
            and room.host == self.online.seat
        )

    def compose(self) -> ComposeResult:
        with Vertical(id="room"):
            yield Static(id="room-title")
            yield Static(id="room-share")
            yield DataTable(id="room-seats", cursor_type="row", zebra_stripes=True)
            with Vertical(id="host-controls"):
                with Horizontal(classes="controls-row"):
                    self._rated_for = len(self.room.seats) if self.room is not None else None
                    yield Select(
                        rated_bots(self._rated_for),
                        value="greedy",
                        allow_blank=False,
                        id="bot-level",
                        compact=True,
                    )
                    yield Button("Add bot", id="add-bot", compact=True)
                    yield Button("Add open seat", id="add-open", compact=True)
                with Horizontal(classes="controls-row"):
                    yield Button("Remove the selected seat", id="remove", compact=True)
                    yield Button("Start the game", id="start", variant="success", compact=True)
            yield Static(id="room-note")
            yield Static(id="room-error")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Seat", "Name", "Plays as", "Rating", "Connection")
        self.update_room()
        table.focus()
        if not self.still:
            self.set_interval(1.0, self._show_note)  # (a redraw: the seconds are the link's)

    # ------------------------------------------------------------------ what the server says

    @on(Heard)
    def _on_heard(self, message: Heard) -> None:
        match message.change:
            case changes.SeatsChanged() as seats:
                self.seating = seats
                self.update_room()
            case changes.Refused(text=text):
                self.show_error(text)
            case changes.Dropped() | changes.Reconnected() | changes.Stopped():
                self._connection_is(connection_note(message.change) or "")

    def update_room(self) -> None:
        """Show the room as the server last described it."""
        room = self.room
        if room is None:
            return
        code = shown_code(room.code)
        privacy = "private: only those you give the code can find it" if room.private else "public"
        if room.quick:
            privacy = f"quick play · {len(room.seats)} players"
        rules = [
            f"{room.clock} s a move" if room.clock else "",
            "" if room.talk else "no talk",
            table_rating(self.seating.ratings),
        ]
        title = " · ".join([f"MANTIS · online table {code}", privacy, *filter(None, rules)])
        self.query_one("#room-title", Static).update(plain.content(title))
        url = self.online.url
        join = (
            f"mantis quick {url} --players {len(room.seats)}"
            if room.quick
            else (f"mantis join {url} {code}")
        )
        self.query_one("#room-share", Static).update(
            plain.rich(
                f"Others join with   {join}\nand watch with     mantis watch {url} {code}",
                lines=True,
            )
        )
        # The seats' ratings are at the table's size: so are the ones offered to add.
        if self._rated_for != len(room.seats):
            self._rated_for = len(room.seats)
            relabel(self.query_one("#bot-level", Select), rated_bots(self._rated_for))
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        for s, seat in enumerate(room.seats):
            presence = self.seating.presence[s] if s < len(self.seating.presence) else ""
            name = plain.rich(seat.name or "—")
            if s == room.host and not room.quick:
                name.append(" (host)", style="dim")
            if s == self.online.seat:
                name.append(" · you", style="bold")
            plays = f"bot · {seat.bot}" if seat.kind == "bot" else "person"
            if seat.kind == "human" and not seat.taken:
                plays = "open seat"
            connection = OPEN_SEAT if presence == "open" else presence_label(presence)
            rating = plain.rich(seat_rating(self.seating.ratings, room, s))
            table.add_row(str(s + 1), name, plain.rich(plays), rating, connection, key=str(s))
        if room.seats:
            table.move_cursor(row=min(max(cursor, 0), len(room.seats) - 1))
        self.query_one("#host-controls").display = self.is_host
        self._show_note()
        self.refresh_bindings()

    def _show_note(self) -> None:
        if self.room is not None:
            self.query_one("#room-note", Static).update(plain.content(self._note(), lines=True))

    def _note(self) -> str:
        room = self.room
        assert room is not None
        if self.connection:
            return self.connection
        if room.state != "waiting":
            return "The game is starting…"
        ratings = self.seating.ratings
        why = f"{ratings.why}.\n" if ratings is not None and ratings.why else ""
        shown = (seat_rating(ratings, room, s) for s in range(len(room.seats)))
        key = provisional_key(shown, why=True)
        return why + self._waiting_note(room) + (f"\nA {key}." if key else "")

    def _waiting_note(self, room: protocol.RoomState) -> str:
        waiting = sum(1 for seat in room.seats if not seat.taken)
        if room.quick:
            people = "player" if waiting == 1 else "players"
            note = f"Waiting for {waiting} more {people}: the game starts by itself once the "
            note += "table is full."
            bots_left = self.online.bots_left()
            if bots_left is not None:
                left = math.ceil(bots_left)
                note += f"\nIn {left} s, bots ({room.away_bot}) take the open seats."
            return note
        if self.is_host:
            if waiting:
                return (
                    f"Waiting for {waiting} more to join. Add bots, or start once seats are full."
                )
            return "Every seat is taken: press ctrl+s to start."
        return "Waiting for the host to start the game."

    def show_error(self, message: str) -> None:
        self.query_one("#room-error", Static).update(plain.content(message))

    def _connection_is(self, note: str) -> None:
        """Say how this app's own connection is ("" once it is up)."""
        self.connection = note
        self.update_room()

    # ------------------------------------------------------------------ the host's controls

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("start", "add_bot", "add_open", "remove"):
            return self.is_host and self.room is not None and self.room.state == "waiting"
        return True

    def _send(self, intent: protocol.TableRequest) -> None:
        self.show_error("")
        self.online.send(intent)

    def action_start(self) -> None:
        if self.is_host:
            self._send(protocol.Start())

    def action_add_bot(self) -> None:
        level = self.query_one("#bot-level", Select).value
        if self.is_host and isinstance(level, str):
            self._send(protocol.AddBot(level))

    def action_add_open(self) -> None:
        if self.is_host:
            self._send(protocol.AddOpen())

    def action_remove(self) -> None:
        room = self.room
        if not self.is_host or room is None:
            return
        seat = self.query_one(DataTable).cursor_row
        if 0 <= seat < len(room.seats):
            self._send(protocol.RemoveSeat(seat))

    def action_leave(self) -> None:
        self.post_message(self.Leave())

    @on(Button.Pressed, "#start")
    def _on_start(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#add-bot")
    def _on_add_bot(self) -> None:
        self.action_add_bot()

    @on(Button.Pressed, "#add-open")
    def _on_add_open(self) -> None:
        self.action_add_open()

    @on(Button.Pressed, "#remove")
    def _on_remove(self) -> None:
        self.action_remove()
