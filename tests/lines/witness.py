"""A terminal for the line mode that holds everything it is told against the game as it stands.

The line mode writes each line, and each prompt, in one piece, at the moment
the game it follows is in the state the words are about.  ``Witness`` is the
``out`` a test hands the ``Console``: it keeps every byte, and checks each
piece against the ``LiveTable`` followed at that moment, so a claim that
contradicts the stream is caught where it is made:

- a question of a turn ("Your turn, ...", brief "You: ...") only while a seat
  played here is asked; the keys asked again ("s, 2 or 3") only while its
  question is open, and exactly the moves the rules allow then;
- the odds, the coach and ``more`` by their keys only for the person asked;
- "The game is over." only once it is; "Not your turn" only when it is not;
  "a card is being turned" only while one is;
- nothing that looks like a traceback, ever.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mantis.engine import Steal
from mantis.follow.live_game import Turning
from mantis.lines.live_table import LiveTable

QUESTION = re.compile(r"(Your (extra )?turn\b|You( again)?(, \d+ seconds?)?: )")
KEYS = re.compile(r"s(, \d)*( or \d)?|s( \d)*")


def legal_keys(live: LiveTable) -> list[str]:
    view = live.state.view()
    return ["s", *(str(a.target + 1) for a in view.legal_actions() if isinstance(a, Steal))]


def _yours_to_move(live: LiveTable) -> bool:
    to_move = live.state.view().to_move
    return to_move == live.you or live.names[to_move].lower() == "you"


class Witness:
    """What the line mode wrote, each piece checked as it was written (``faults``)."""

    def __init__(self, live: Callable[[], LiveTable | None] = lambda: None) -> None:
        """``live``: the table being followed at each moment (None: none, or a replay)."""
        self.live = live
        self.pieces: list[str] = []
        self.faults: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self.pieces)

    def flush(self) -> None:
        pass

    def write(self, piece: str) -> int:
        self.pieces.append(piece)
        body = piece.lstrip("\a")
        if "Traceback" in body:
            self._fault("a traceback", body)
        if body.endswith("> "):
            self._prompt(body[:-2].rstrip())
        elif body.endswith("\n"):
            self._line(body.rstrip("\n"))
        return len(piece)

    def _fault(self, what: str, piece: str) -> None:
        live = self.live()
        where = "no table" if live is None else f"phase {live.game.phase}"
        self.faults.append(f"{what}: {piece!r} ({where})")

    def _prompt(self, question: str) -> None:
        live = self.live()
        if QUESTION.match(question):
            if live is None or live.asking is None or live.asking != live.you:
                self._fault("a question of your turn when it is not", question)
        elif KEYS.fullmatch(question):
            if live is None or not live.question_open:
                self._fault("a move's keys with no question open", question)
            else:
                keys = re.findall(r"s|\d", question)
                if keys != legal_keys(live):
                    self._fault(f"keys other than the legal moves {legal_keys(live)}", question)

    def _line(self, line: str) -> None:
        live = self.live()
        if line == "The game is over." and (live is None or not live.state.over):
            self._fault("the game said over before it is", line)
        if line.startswith(("Coach:", "s scores")) and (live is None or live.asking is None):
            self._fault("advice for you when you are not asked", line)
        # The odds are anyone's to ask for: "for you" only when the seat to move is yours (in
        # a game), or is called you (a replay of a game played here: its seat named You).
        if line.startswith("Odds for you") and not (live is not None and _yours_to_move(live)):
            self._fault("odds for you when another seat is to move", line)
        if line.startswith("Not your turn") and live is not None and live.asking is not None:
            self._fault("not your turn, when it is", line)
        if "card is being turned" in line and (
            live is None or not isinstance(live.game.phase, Turning)
        ):
            self._fault("a card said turned when none is", line)
