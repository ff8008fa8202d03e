"""A seat's score pile: how many cards, and how far to the target."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class ScorePile(Widget):
    """ "Score 7/10" with a progress bar of one cell per card up to the target."""

    DEFAULT_CSS = """
    ScorePile {
        height: 1;
        width: 1fr;
        & > .score-pile--filled {
            color: $success;
            text-style: bold;
        }
        & > .score-pile--empty {
            color: $foreground 40%;
        }
    }
    """
    COMPONENT_CLASSES = {"score-pile--filled", "score-pile--empty"}

    score: reactive[int] = reactive(0)
    target: reactive[int] = reactive(10)
    tank: reactive[int] = reactive(0)
    """The tank's size, shown alongside when there is room (it breaks deck-out ties)."""

    def render(self) -> Text:
        label = f"Score {self.score:>2}/{self.target}"
        tank = f"  tank {self.tank}"
        if self.size.width >= len(label) + len(tank):
            label += tank
        else:  # narrow seats (4+ at 80 columns) still show the tank size, a deck-out tiebreak
            for compact in (
                f"Score {self.score}/{self.target} tank {self.tank}",
                f"{self.score}/{self.target}  tank {self.tank}",
            ):
                if self.size.width >= len(compact):
                    label = compact
                    break
        text = Text(label, no_wrap=True, overflow="ellipsis")
        room = self.size.width - len(label) - 1
        if room >= 5:
            cells = min(self.target, room)
            filled = min(cells, round(self.score * cells / self.target))
            text.append(" ")
            text.append("■" * filled, style=self.get_component_rich_style("score-pile--filled"))
            text.append(
                "·" * (cells - filled), style=self.get_component_rich_style("score-pile--empty")
            )
        return text
