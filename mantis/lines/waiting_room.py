"""An online table's waiting room in lines: its seats, who it waits for, the host's setting up.

The seats are said as the app's waiting room lists them (a bot's level, an
open seat, the host, a person offline, a rating at a rated table); each
change is said as it comes (a seat added or removed, someone sitting down
or leaving), and who the room waits for only when that changes.  The host
adds bots and open seats, removes seats and starts, as the app's waiting
room lets them (``bot expert``, ``open``, ``remove 3``, ``start``); anyone
else is told who does.
"""

from __future__ import annotations

import re

from ..follow.online_table import OnlineTable
from ..follow.seat_ratings import seat_rating
from ..net import protocol
from ..players.registry import BOTS, level_choices
from . import wording
from .commands import Command
from .console import Console

#: The level a bot added without one has (as the app's waiting room offers first).
DEFAULT_BOT = "greedy"


def rating_words(text: str) -> str:
    """A rating as ``seat_rating`` shows it, in words: "1,500?" is "1,500, provisional",
    "1,537 (+37)" is "1,537, up 37"."""
    text = text.replace("?", ", provisional")
    text = re.sub(r" \(\+([\d,]+)\)", r", up \1", text)
    return re.sub(r" \(-([\d,]+)\)", r", down \1", text)


def bot_level(word: str) -> str | None:
    """The bot a typed level names ("expert", "hard", "greedy"...), or None."""
    wanted = word.casefold()
    for label, bot in level_choices():
        if wanted in (label.casefold(), bot):
            return bot
    return wanted if wanted in BOTS else None


class WaitingRoom:
    """An online table's seats and state, said; the waiting room's commands answered."""

    def __init__(self, console: Console, table: OnlineTable) -> None:
        self.console = console
        self.table = table
        self.room: protocol.RoomState | None = table.room
        """The table's seats and state, as last said."""
        self.presence: tuple[str, ...] = table.presence
        """Each seat's connection, as last said."""
        self._waiting_said: list[str] = []
        self._why_said = ""

    def seat_words(self, seat: int) -> str:
        """A seat in the waiting room: "2, Bea, rated 1,512" or "3, greedy bot" or "4, open"."""
        room = self.room
        assert room is not None
        state = room.seats[seat]
        if state.kind == "bot":
            what = f"{state.bot} bot"
        elif state.taken:
            what = "you" if seat == self.table.seat else state.name
        else:
            what = "open"
        if seat == room.host and not room.quick:
            what += ", host"
        presence = self.presence[seat] if seat < len(self.presence) else ""
        if state.kind == "human" and state.taken and presence == "gone":
            what += ", offline"
        rating = self.rating(seat)
        return f"{seat + 1}, {what}{f', rated {rating}' if rating else ''}"

    def rating(self, seat: int) -> str:
        """A seat's rating in words, at a rated table ("" at any other: it means nothing)."""
        ratings = self.table.ratings
        if ratings is None or not ratings.rated:
            return ""
        return rating_words(seat_rating(ratings, self.room, seat))

    def lines(self) -> list[str]:
        """The room in lines: the seats, the table's rules, who it waits for."""
        room = self.room
        if room is None:
            return []
        seats = "; ".join(self.seat_words(seat) for seat in range(len(room.seats)))
        lines = [f"Seats: {seats}."]
        rules = []
        if room.clock is not None:
            rules.append(f"a turn clock of {room.clock} seconds a move")
        if not room.talk:
            rules.append("no talk")
        if rules:
            lines.append(f"{' and '.join(rules).capitalize()}.")
        why = self.why_unrated()
        if why:
            self._why_said = why
            lines.append(why)
        if room.state == "waiting":
            self._waiting_said = self.waiting_lines(room)
            lines += self._waiting_said
        return lines

    def waiting_lines(self, room: protocol.RoomState) -> list[str]:
        """Who or what the waiting room waits for (and, at a quick-play table, when bots
        take the open seats)."""
        missing = sum(1 for s in room.seats if not s.taken)
        people = wording.plural(missing, "more person", "more people")
        if room.quick:
            if not missing:
                return ["The table is full: the game starts."]
            lines = [f"Waiting for {people}: the game starts by itself once the table is full."]
            if room.bots_in is not None:
                lines.append(
                    f"In {room.bots_in:.0f} seconds, {room.away_bot} bots take the open seats."
                )
            return lines
        if self.hosting():
            if missing:
                return [f"Waiting for {people} to join with the code."]
            return ["Every seat is taken: type start."]
        if missing:
            return [f"Waiting for {people}, then for the host to start."]
        return ["Waiting for the host to start."]

    def say_why(self) -> None:
        """Why the table's next game is not rated, said once (it came after the seats)."""
        why = self.why_unrated()
        if why and why != self._why_said:
            self._why_said = why
            self.console.say(why)

    def why_unrated(self) -> str:
        """Why a rated table's next game is not rated, as the server said it ("" if it is)."""
        ratings = self.table.ratings
        if ratings is None or not ratings.why:
            return ""
        why = ratings.why.rstrip(".")
        return f"{why[:1].upper()}{why[1:]}."

    def changed(self, room: protocol.RoomState) -> None:
        """The server's word on the room: what changed in the waiting room, said."""
        old, self.room = self.room, room
        if room.state != "waiting" or old is None:
            return
        said: list[str] = []
        if len(room.seats) > len(old.seats):
            for seat in range(len(old.seats), len(room.seats)):
                what = self.seat_words(seat).split(", ", 1)[1]
                said.append(f"Seat {seat + 1} added: {what}.")
        elif len(room.seats) < len(old.seats):
            gone = next(
                (i for i, (a, b) in enumerate(zip(old.seats, room.seats, strict=False)) if a != b),
                len(room.seats),
            )
            seats = "; ".join(self.seat_words(seat) for seat in range(len(room.seats)))
            said.append(f"Seat {gone + 1} removed. Seats: {seats}.")
        else:
            for seat, (was, now) in enumerate(zip(old.seats, room.seats, strict=True)):
                if now.kind == "human" and now.taken and not was.taken:
                    said.append(f"{now.name} sat down in seat {seat + 1}.")
                elif was.kind == "human" and was.taken and not now.taken:
                    said.append(f"{was.name} left seat {seat + 1}: it is open again.")
        waiting = self.waiting_lines(room)
        said += [line for line in waiting if line not in self._waiting_said]
        self._waiting_said = waiting
        if said:
            self.console.say(*said)

    def hosting(self) -> bool:
        """Whether this person hosts the table (a quick-play table has nobody to set it up)."""
        room = self.room
        seat = self.table.seat
        return room is not None and not room.quick and seat is not None and room.host == seat

    def command(self, command: Command) -> None:
        """The waiting room's commands: the seats, and the host's setting up."""
        word, send = command.word, self.table.send
        room = self.room
        if word in ("look", "repeat"):
            self.console.say(*self.lines())
        elif word in ("start", "bot", "open", "remove") and not self.hosting():
            self.console.say(
                "The table starts by itself once it is full."
                if room is not None and room.quick
                else "Only the host sets up and starts the table."
            )
        elif word == "start":
            send(protocol.Start())
        elif word == "bot":
            level = bot_level(command.rest or DEFAULT_BOT)
            if level is None:
                levels = wording.join_or([bot for _, bot in level_choices()])
                self.console.say(f"No bot {command.rest}: {levels}.")
            else:
                send(protocol.AddBot(level))
        elif word == "open":
            send(protocol.AddOpen())
        elif word == "remove":
            number = command.rest.split(" ", 1)[0]
            seats = len(room.seats) if room is not None else 0
            if not number.isdigit() or not 1 <= int(number) <= seats:
                self.console.say(f"Remove which seat? remove, then its number, 1 to {seats}.")
            else:
                send(protocol.RemoveSeat(int(number) - 1))
        else:
            self.console.say("The game has not started: help lists what you can do now.")
