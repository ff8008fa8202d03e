"""A table played on a server: the same board as a local game, fed from the network.

The server runs the game; this screen shows the public stream it sends (at a
person's pace, like a local table), marks each seat's connection, and sends
this seat's moves as intents naming the turn they answer.  Its own seat
reads as "You" on this screen, whatever the others call it.

Besides the moves: the turn clock counts down on the banner (the server's
time; this screen only shows it); what people say appears in the log, marked
as talk, and ``t`` opens a line at the bottom to say something (in the row
the move buttons use, so nothing else on the board moves), ``h`` hides or
shows talk; ``l`` leaves the game for good (after a yes), ``b`` comes back
when the seat went away because its time ran out too often.  Once the game
is over, another game is offered and answered on the game-over screen.

The board hears the table from the moment it is made (``follow.OnlineTable``'s
changes, each as a ``Heard`` message with its data): what came before, it
reads off the table then (the stream so far and what was said), and
everything after comes as a message, handled once the board is up.
Everything this seat says goes through the table (its moves too:
``follow.moves.SeatOnline``).
"""

from __future__ import annotations

import math
from typing import Protocol

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.message import Message as UIMessage
from textual.widgets import Input, Label

from ...engine import GameOver
from ...follow import changes
from ...follow.moves import SeatOnline
from ...follow.offers import closed_line, offer_line
from ...follow.presence import presence_label
from ...follow.seat_ratings import rating_changes, seat_rating
from ...net import protocol
from ...net.protocol.codes import shown_code
from ...table import Message, Talk
from ...table.messages import MAX_TALK
from ...table.names import YOU
from ...table.narration import talk_line
from .. import plain
from ..heard import Heard, connection_note, listener
from ..level_ratings import provisional_key
from ..preferences import Preferences
from ..widgets.game_log import GameLog
from ..widgets.turn_banner import TurnBanner
from .board import BOARD_CSS
from .game_over import GameOverScreen, ratings_line
from .game_over_choice import ONLINE_ANSWERS, ONLINE_CHOICES
from .play import PlayScreen
from .waiting_room import RoomLink

#: A person's own clock stands out from this many seconds left.
URGENT = 10
#: Seconds between two looks at the clock (and at an offer's countdown).
TICK = 0.5


class PlayLink(RoomLink, Protocol):
    """What the board needs of ``OnlineTable`` (a test may hand it a stand-in)."""

    @property
    def offer(self) -> protocol.Offer | None: ...
    @property
    def stream(self) -> tuple[Message, ...]: ...

    game: int
    talk: list[protocol.Said]

    def clock_left(self) -> tuple[protocol.Clock, float] | None: ...

    def offer_left(self) -> float: ...


class OnlinePlayScreen(PlayScreen):
    """A board for one server table, seen from this app's seat (or as a spectator)."""

    CSS_PATH = [BOARD_CSS, "play.tcss"]
    BINDINGS = [
        Binding("t", "talk", "Talk"),
        Binding("h", "toggle_talk", "Hide talk", show=False),
        Binding("l", "leave", "Leave"),
        # Leaving is in the footer, and the pace of the moves shown gives it the room at 80
        # columns (f still sets it; the help says so).
        Binding("f", "speed", "Speed", show=False),
        Binding("b", "back", "Back", show=False),
    ]
    result_choices = ONLINE_CHOICES

    class Chosen(PlayScreen.Chosen):
        """The online game is over and the person chose what comes next."""

        board: OnlinePlayScreen

    class Leave(UIMessage):
        """The person said yes to leaving this game for good."""

    def __init__(self, online: PlayLink, prefs: Preferences) -> None:
        """The board of the game on show at ``online``'s table, from its stream so far."""
        self.online = online
        self.code = online.code
        """The table's code on its server."""
        self.game = online.game
        """Which of the table's games this board shows (another game has a board of its own)."""
        controls = () if online.seat is None else (online.seat,)
        super().__init__(online.stream, prefs, SeatOnline(online.send), controls=controls)
        self.seating = changes.SeatsChanged(online.room, online.presence, online.ratings)
        """The seats, their connections and ratings, as the table last told them."""
        self.connection = ""
        """Empty while connected; what is happening otherwise ("reconnecting…")."""
        self.offer_news = ""
        """What became of the last offer of another game ("Bea declined."), until the next."""
        self._result_screen: GameOverScreen | None = None
        self._said = tuple(online.talk)
        """What was said at the table before this board, to log once it is up."""
        online.listen(listener(self))  # everything after, as messages

    def seat_names(self) -> list[str]:
        names = super().seat_names()
        if self.online.seat is not None:
            names[self.online.seat] = YOU
        return names

    @property
    def seated(self) -> bool:
        """This app plays a seat here (and has not left it)."""
        seat = self.online.seat
        return seat is not None and self._presence_of(seat) != "left"

    def _presence_of(self, seat: int) -> str:
        presence = self.seating.presence
        return presence[seat] if seat < len(presence) else ""

    # ------------------------------------------------------------------ layout

    def compose_bottom(self) -> ComposeResult:
        yield from super().compose_bottom()
        with Horizontal(id="talk-row") as row:
            # The move buttons' row, in their place while open: nothing else moves.
            row.display = False
            yield Label("Say ›", id="talk-label")
            line = Input(
                placeholder="a line to the table · Enter sends · Esc cancels",
                max_length=MAX_TALK,
                id="talk-line",
                compact=True,
                disabled=True,  # (a hidden line must never take the keys)
            )
            line.cursor_blink = not self.prefs.still
            yield line

    def start(self) -> None:
        self._mark_presence()
        self._show_talk(self.prefs.settings.show_talk)
        self._show_clock()
        for said in self._said:
            self._log_talk(said)
        if self.online.offer is not None:
            self.call_after_refresh(self.show_offer)
        if not self.prefs.still:
            self.set_interval(TICK, self._tick)

    def _tick(self) -> None:
        self._show_clock()
        if self.state.over and self.online.offer is not None:
            self.show_offer()

    def follow_preferences(self, prefs: Preferences) -> None:
        super().follow_preferences(prefs)
        self._show_talk(prefs.settings.show_talk)

    # ------------------------------------------------------------------ the connection

    @on(Heard)
    def _on_heard(self, message: Heard) -> None:
        match message.change:
            case changes.StreamGrew(game=game, messages=messages):
                if game == self.game:  # (a board of an earlier game hears no later one)
                    for item in messages:
                        self.feed(item)
            case changes.SeatsChanged() as seats:
                self.seating = seats
                self.show_presence()
            case changes.ClockRuns():
                self._show_clock()
            case changes.Said(said=said):
                self._log_talk(said)  # into the log, marked as talk
            case changes.OfferChanged(closed=closed):
                self.show_offer(closed)
            case changes.Refused(text=text):
                plain.notify(self, text, severity="warning", timeout=6)
            case changes.Dropped() | changes.Reconnected() | changes.Stopped():
                self._connection_is(connection_note(message.change) or "")

    def show_presence(self) -> None:
        """Mark each seat's connection and rating as the server last said, and, after a
        rated game, its rating changes on the result."""
        self._mark_presence()
        self._update_controls()
        screen = self._result_screen
        if screen is not None and screen.is_attached:
            screen.show_ratings(self._ratings_line())  # (the server says them after the end)

    def _mark_presence(self) -> None:
        room, ratings = self.seating.room, self.seating.ratings
        for seat, (panel, state) in enumerate(
            zip(self.panels, self.seating.presence, strict=False)
        ):
            panel.show_presence(presence_label(state), seat_rating(ratings, room, seat))

    def _connection_is(self, note: str) -> None:
        """Say how this app's own connection is ("" once it is up)."""
        self.connection = note
        self._update_status()

    def status_parts(self) -> list[str]:
        code = shown_code(self.online.code) if self.online.code else "?"
        where = f"online {code}" if self.online.seat is not None else f"watching {code}"
        parts = ["MANTIS", where, self.move_part(), f"target {self.state.target}"]
        if self.connection:
            parts.append(self.connection)
        room, ratings = self.seating.room, self.seating.ratings
        key = provisional_key(seat_rating(ratings, room, s) for s in range(self.state.players))
        return [*parts, key] if key else parts

    def result_note(self) -> str | None:
        moves = f"{self.result.turns} moves" if self.result is not None else ""
        return f"{moves} · table {shown_code(self.online.code or '?')} on {self.online.url}"

    # ------------------------------------------------------------------ the turn clock

    def _show_clock(self) -> None:
        """Count down the seconds the seat to move has, as the server last said them."""
        running = self.online.clock_left()
        banner = self.query_one(TurnBanner)
        if running is None or self.state.over:
            banner.show_clock(None)
            return
        clock, left = running
        if clock.turn != self.state.turn or clock.seat != self.state.to_move:
            banner.show_clock(None)  # (the board still shows an earlier move)
            return
        seconds = math.ceil(left)
        banner.show_clock(seconds, urgent=clock.seat in self.controls and seconds <= URGENT)

    def _present(self, message: Message) -> None:
        super()._present(message)
        self._show_clock()

    # ------------------------------------------------------------------ talk

    def _log_talk(self, said: protocol.Said) -> None:
        talk = Talk(said.seat, said.name, said.text)
        self.query_one(GameLog).add(talk_line(talk, self.names), talk=True)

    def action_talk(self) -> None:
        line = self.query_one("#talk-line", Input)
        self.query_one("#actions").display = False
        self.query_one("#talk-row").display = True
        line.disabled = False
        line.focus()

    @on(Input.Submitted, "#talk-line")
    def _on_talk(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.online.send(protocol.Say(text))
        self._close_talk()

    def _close_talk(self) -> None:
        line = self.query_one("#talk-line", Input)
        line.value = ""
        line.disabled = True
        self.query_one("#talk-row").display = False
        self.query_one("#actions").display = True
        self.set_focus(None)

    @property
    def talking(self) -> bool:
        """The line to talk is open."""
        try:
            return bool(self.query_one("#talk-row").display)
        except NoMatches:
            return False  # (not composed yet, or being taken down)

    def action_cancel(self) -> None:
        if self.talking:
            self._close_talk()
        else:
            super().action_cancel()

    def action_toggle_talk(self) -> None:
        shown = not self.prefs.settings.show_talk
        self.prefs.change(show_talk=shown)
        self.notify("Talk shown." if shown else "Talk hidden: h shows it again.", timeout=3)

    def _show_talk(self, shown: bool) -> None:
        self.query_one(GameLog).show_talk(shown)

    # ------------------------------------------------------------------ leaving, coming back

    def action_leave(self) -> None:
        from .confirm import ConfirmScreen

        if not self.seated or self.state.over:
            return
        question = (
            "Leave this game for good? The away bot plays your seat to the end, the game "
            "counts as a loss for you, and you cannot take the seat back."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(self.Leave())

        self.app.push_screen(ConfirmScreen("Leave the game", question, "Leave", "Stay"), answered)

    def action_back(self) -> None:
        if self._away_here():
            self.online.send(protocol.ImBack())

    def _away_here(self) -> bool:
        """This seat is played by the away bot while this app is connected."""
        seat = self.online.seat
        return seat is not None and not self.state.over and self._presence_of(seat) == "away"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel" and self.talking:
            return True  # Esc closes the line to talk, whoever's turn it is
        if action == "leave":
            return self.seated and not self.state.over
        if action == "back":
            return True if self._away_here() else None
        return super().check_action(action, parameters)

    def _hint(self) -> str:
        if self._away_here():
            return "You are away: the bot plays for you · b: play your own turns again"
        if self.state.over and self.seated:
            return self.offer_line() or "Game over · r: the result, to offer another game"
        return super()._hint()

    # ------------------------------------------------------------------ another game

    def result_screen(self, result: GameOver) -> GameOverScreen:
        seated = self.seated
        choices = (
            ONLINE_CHOICES
            if seated
            else tuple(c for c in ONLINE_CHOICES if c not in ONLINE_ANSWERS)
        )
        screen = GameOverScreen(
            result,
            self.names,
            self.seed,
            choices=choices,
            note=self.result_note(),
            answers=ONLINE_ANSWERS if seated else frozenset(),
            ratings=self.result_ratings(),
            played_on=self.played_on(),
        )
        self._result_screen = screen
        self._offer_to(screen)
        screen.show_ratings(self._ratings_line())
        return screen

    def _ratings_line(self) -> str:
        return ratings_line(rating_changes(self.seating.ratings, self.names))

    def show_offer(self, closed: protocol.OfferClosed | None = None) -> None:
        """Show how another game stands (``closed``: why the last offer is off)."""
        if closed is not None:
            self.offer_news = closed_line(closed, self.names)
        elif self.online.offer is not None:
            self.offer_news = ""
        screen = self._result_screen
        if screen is not None and screen.is_attached:
            self._offer_to(screen)
        elif self.online.offer is not None and self.result is not None and self.is_current:
            self.show_result()  # someone offers: the result comes back up to answer it
        self._update_controls()

    def _offer_to(self, screen: GameOverScreen) -> None:
        offer = self.online.offer
        me = self.online.seat
        waiting = offer is not None and me is not None and me not in offer.accepted
        screen.show_offer(
            self.offer_line(),
            accept=offer is None or waiting,
            decline=waiting,
        )

    def offer_line(self) -> str:
        """How another game stands, in a line ("" when nobody offers one)."""
        offer = self.online.offer
        if offer is None:
            return self.offer_news
        left = f"{math.ceil(self.online.offer_left())} s"
        return f"{offer_line(offer, self.names, self.online.seat)} ({left})"
