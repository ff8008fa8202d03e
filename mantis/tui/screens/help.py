"""How to play, in a few paragraphs, and the keys."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

HELP_TEXT = """\
# How to play Mantis

**Your goal:** be the first to bank enough cards in your *score pile* —
**10 cards**, or **15** when only two play.

## The cards
There are 105 cards in seven colours: **R** red, **G** green, **B** blue,
**P** purple, **K** pink, **Y** yellow, **O** orange. Every card's back shows
three colours, and its face is always one of those three. You can see the back
of the top card of the draw pile, so you always know the draw is one of three
colours — never which one. Each colour is always shown with its letter.

Everyone starts with four cards face up in front of them: their **tank**.

## Your turn: score or steal
**Score** — flip the top card into your own tank. If you already had cards of
that colour, the whole group plus the new card goes to your score pile.
If not, the card just stays in your tank: your tank grows, which feeds later
scores.

**Steal** — choose an opponent and flip the top card into *their* tank. If
they had that colour, you take their whole group plus the new card into your
own tank (not your score pile). If they had none, the card stays with them —
you have just handed them a card. You cannot steal from yourself; stealing
from an empty tank always misses.

## Two players: extra turns
With two players, every successful steal gives you another turn straight
away, and another after each further successful steal. Any score attempt, or
a steal that misses, ends the run.

## The end
The game ends the moment someone's score pile reaches the target. If the
draw pile runs out first, the biggest score pile wins; on a tie the larger
tank wins; players still tied share the victory.

## Keys at the table
| key | does |
| --- | --- |
| `s` | score (or click **Score**) |
| `1`–`6`, `←` `→` | pick a seat to steal from (or click its tank) |
| `Enter` | steal from the picked seat (or click **Steal**) |
| `Esc` | unpick the seat |
| `p` / `n` | pause bots / let one bot move while paused |
| `f` | bot speed: slow, normal, fast, instant |
| `F1` or `?` | this help |
| `F2` | settings: speed, animations, theme, bot time limit |
| `Ctrl+P` | command palette: new game, help, settings, theme |
| `Ctrl+Q` | quit |

A steal always takes two steps — pick, then confirm — so one stray key or
click never steals.
"""


class HelpScreen(ModalScreen[None]):
    """The rules in short and the keys; any of Esc, q, F1 or ? closes it."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        background: $background 60%;
    }
    #help-box {
        width: 86;
        max-width: 100%;
        height: 1fr;
        max-height: 100%;
        border: round $accent;
        border-title-align: center;
        background: $surface;
        padding: 0 1;
    }
    #help-box Markdown {
        margin: 0;
        padding: 0;
    }
    """

    BINDINGS = [
        Binding("escape,q,f1,question_mark", "close", "Close"),
        Binding("up,k", "scroll(-1)", "Scroll", show=False),
        Binding("down,j", "scroll(1)", "Scroll", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box") as box:
            box.border_title = "Help · Esc closes"
            yield Markdown(HELP_TEXT)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-box", VerticalScroll).scroll_relative(y=lines, animate=False)
