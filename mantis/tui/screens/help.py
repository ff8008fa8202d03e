"""How to play, in a few paragraphs, the ratings (the bot levels' and yours), and the keys."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ...engine import NUM_COLOURS
from ...engine.seat_count import MAX_SEATS, SEAT_COUNTS
from ...players.registry import BOTS, level_label
from .. import palette
from ..level_ratings import rating_text


def _colour(colour: int) -> str:
    """``R ● red`` with the letter and glyph in the colour's hue (either alone tells them
    apart)."""
    return (
        f"[bold {palette.hue(colour)}]{palette.letter(colour)} {palette.GLYPHS[colour]} [/]"
        f"{palette.name(colour)}"
    )


# Content markup, not Markdown: every space after a bold or italic run sits
# inside the run ("[b]goal: [/b]be"), so no renderer can glue the words.
HELP_SECTIONS: tuple[tuple[str, str], ...] = (
    (
        "How to play Mantis",
        "[b]Your goal: [/b]be the first to bank enough cards in your [i]score pile [/i]— "
        "[b]10 cards[/b], or [b]15 [/b]when only two play.",
    ),
    (
        "The cards",
        "There are 105 cards in seven colours: "
        + ", ".join(_colour(c) for c in range(NUM_COLOURS))
        + ". Every card's back shows three colours, and its face is always one of those "
        "three. You can see the back of the top card of the draw pile, so you always know "
        "the draw is one of three colours — never which one. Each colour is always shown "
        "with its letter, and with its glyph where there is room.\n\nEveryone starts with "
        "four cards face up in front of them: "
        "their [b]tank[/b].",
    ),
    (
        "Your turn: score or steal",
        "[b]Score [/b]— flip the top card into your own tank. If you already had cards of "
        "that colour, the whole group plus the new card goes to your score pile. If not, "
        "the card just stays in your tank: your tank grows, which feeds later scores.\n\n"
        "[b]Steal [/b]— choose an opponent and flip the top card into [i]their [/i]tank. If "
        "they had that colour, you take their whole group plus the new card into your own "
        "tank (not your score pile). If they had none, the card stays with them — you have "
        "just handed them a card. You cannot steal from yourself; stealing from an empty "
        "tank always misses.",
    ),
    (
        "Two players: extra turns",
        "With two players, every successful steal gives you another turn straight away, "
        "and another after each further successful steal. Any score attempt, or a steal "
        "that misses, ends the run.",
    ),
    (
        "The end",
        "The game ends the moment someone's score pile reaches the target. If the draw pile "
        "runs out first, the biggest score pile wins; on a tie the larger tank wins; "
        "players still tied share the victory.",
    ),
    (
        "Odds and coach",
        "Press [b]o [/b]for the odds panel: for the seat to move, the exact chance that "
        "scoring matches, and for each opponent the chance a steal matches and the cards "
        "it would bring — worked out only from what everyone can see (every played card "
        "is remembered, so some faces of the top card are impossible). Press [b]c [/b]for "
        "the coach: what the strongest bot would do now, and why.",
    ),
    (
        "Reviewing a game",
        "Press [b]e [/b]when a game ends, or on any game in the past games, to see what "
        "each choice was worth. Every option of every decision is given its chance of "
        "winning, worked out as the strongest bot would, from what the player could see "
        "then — never from the card that came up next. A choice that gave up 3 points of "
        "winning chance or more is an [i]inaccuracy[/i], 8 a [i]mistake[/i], 20 a "
        "[i]blunder[/i]; where every option was within a point, there was no real choice. "
        "[i]Luck [/i]is what the faces turned over did to each chance, in win-% points "
        "over the game (100 points make a whole win), and the [i]adjusted [/i]result is "
        "the result with that luck taken out: the review's table says both in full.\n\n"
        "The chart follows every seat's chance from the deal to the end, each seat's line "
        "drawn with its number, with a mark at each labelled choice. [b]Enter [/b]opens a "
        "decision on the board with each option's chance; [b][ ] [/b]there step to the "
        "previous or next labelled one. [b]a [/b]lists every seat's decisions, [b]s [/b]"
        "moves to the next seat. [b]r [/b]retries your mistakes: each position again (the "
        "odds hidden until you answer), where "
        "a choice within 2 points of the best counts as solved on the first try; "
        "[b]a [/b]shows the answer, [b]n [/b]goes on to the next.",
    ),
    (
        "Playing online",
        "Press [b]o [/b]at the start screen to play with people elsewhere. Give the "
        "address of a table server — someone runs [b]mantis serve[/b], or press [b]Serve "
        "here [/b]to run one inside this app — and your name. [b]Play now [/b](Ctrl+G) "
        "seats you at any table of that size with room: it starts by itself once full, "
        "and after a minute bots take the seats nobody came for. Or create a table (open "
        "seats for friends, bots for the rest; a turn clock or none; talk on or off) and "
        "read its four-letter code out to them (a private table's is twelve letters, too "
        "many to guess), or join a table by its code, or pick one from the server's list "
        "([b]\\[ [/b]and [b]] [/b]turn its pages). The host starts the game with "
        "[b]Ctrl+S [/b]once every seat is taken.\n\nThe board is the same as here, and "
        "your seat is called You. Each seat's border shows its person's connection. "
        "With a turn clock, the banner "
        "counts down the seconds the seat to move has (your own, in its last 10 s, in "
        "red and marked ‼); when time runs out a bot plays that one move, and after three "
        "in a row it plays on for you until you press [b]b[/b] or move. [b]t [/b]opens a "
        "line at the bottom to talk to the table (Enter sends, Esc cancels); talk shows "
        "in the log marked ›, and [b]h [/b]hides or shows it. [b]l [/b]leaves the game for "
        "good (after a yes): a bot plays your seat to the end and it counts as your loss. "
        "When the game is over, [b]a [/b]on its result offers another game at the same "
        "table, or accepts one offered ([b]d [/b]declines).\n\nIf your connection drops, "
        "the app reconnects by itself, and opening the table again takes your own seat "
        "back. If you stay away too long, a bot plays for you until you are back. "
        "Finished online games go into your past games.",
    ),
    (
        "Playing without the screen: the line mode",
        "For a screen reader or a braille display, run [b]mantis play --lines[/b] (and "
        "[b]--lines [/b]on host, join, quick, watch, replay and review). Mantis then writes "
        "plain lines and never redraws: each move is one line, said once, and on your turn "
        "one short line asks the question, the top card's back in colour words and each "
        "move's key, then waits at [b]> [/b]. Type [b]s [/b]to score, a seat's "
        "number to steal from it, [b]more [/b]for what each tank holds, [b]look [/b]for the "
        "whole table, [b]odds[/b], [b]coach[/b], [b]log[/b], [b]p [/b]to pause the bots, "
        "[b]help [/b]for the rest, [b]q [/b]to quit (the game is saved). "
        "[b]MANTIS_LINES=1 [/b]or the Line mode setting (F2) makes it the way Mantis starts "
        "([b]mantis stats [/b]too); [b]--no-lines [/b]opens this app.",
    ),
    (
        "Playing in a browser",
        "Run [b]mantis web [/b]and open the very address it prints: its key (made anew "
        "each run) is what lets your browser in, and the page keeps it, so a reload works. "
        "Each browser tab is a Mantis "
        "of its own, with this computer's saves and statistics; keys and the mouse work as "
        "here. Closing a tab saves its game just as quitting does, every tab keeps its own "
        "game, and the next tab offers to resume them.\n\nBrowsers keep a few keys for "
        "themselves — Ctrl+W, Ctrl+T, Ctrl+N and, in Firefox, Ctrl+Q — and Mantis needs none "
        "of them: to quit, close the tab, or pick Quit in the command palette (Ctrl+P).",
    ),
)

RATINGS_TITLE = "Ratings: the bots' and yours"
RATINGS_TEXT = (
    "Every bot level has a rating, fixed by many games between the bots, at each table "
    "size (a level's strength depends on it: random play is nearly hopeless at six). "
    "The setup screen shows each level's rating for the size you pick; the table below "
    "also rates [b]score[/b], a bot that nearly always scores (seat it with mantis play "
    "--seats). Each level wins about three games in five against the one before it at two "
    "seats.\n\nYou have a "
    "rating too, from your finished games here, against the bots and against each other "
    "at one keyboard. It starts at [b]1,500 [/b]with a ± of 500 that narrows as you play, "
    "and is [i]provisional [/i]while the ± is wider than 240 (your first twenty games or "
    "so). Each game's change shows when it ends (Ann 1,500 → 1,541); press [b]t [/b]at the "
    "start screen for your rating and its history. At two seats, 400 points between two "
    "players are about 10-to-1 odds."
)


def _levels_table() -> Table:
    """Each built-in bot's rating at each table size and over all sizes, weakest first (as
    the README lists them: the levels, and ``score``, which nearly always scores)."""
    table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("Level", no_wrap=True)
    for players in SEAT_COUNTS:
        table.add_column(f"{players} seats", justify="right")
    table.add_column("all", justify="right")
    sizes = [*SEAT_COUNTS, None]
    for bot in BOTS:
        if rating_text(bot):
            table.add_row(level_label(bot), *(rating_text(bot, n) for n in sizes))
    return table


KEYS: tuple[tuple[str, str], ...] = (
    ("s", "score (or click Score)"),
    (f"1–{MAX_SEATS}, ← →", "pick a seat to steal from (or click its tank)"),
    ("Enter", "steal from the picked seat (or click Steal)"),
    ("Esc", "unpick the seat"),
    ("p / n", "pause bots / let one bot move while paused"),
    ("f", "bot speed: slow, normal, fast, instant"),
    ("o / c", "odds panel / coach, on or off"),
    ("t / h", "online: talk to the table / hide or show talk"),
    ("l / b", "online: leave the game for good / play your own turns again"),
    ("F1 or ?", "this help"),
    ("F2", "settings: speed, animations, theme, odds, coach, bot time limit"),
    ("Ctrl+P", "command palette: new game, past games, statistics, help, settings"),
    ("Ctrl+Q", "quit (in a browser: close the tab)"),
)
"""Keys at the table, with what they do."""

CLOSING_NOTE = (
    "A steal always takes two steps — pick, then confirm — so one stray key or click "
    "never steals. At the start screen: [b]o [/b]play online, [b]g [/b]past games "
    "(replay any of them, or [b]e [/b]review it), [b]t [/b]statistics. In a replay: "
    "[b]← → [/b]step back and "
    "forward, [b]Home End [/b]jump to either end, [b]space [/b]plays and pauses, "
    "[b]+ - [/b]change its speed."
)


def _keys_table() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, does in KEYS:
        table.add_row(key, does)
    return table


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
    #help-box .title {
        text-style: bold;
        color: $accent;
        margin-top: 1;
    }
    #help-box .first {
        text-align: center;
        margin-top: 0;
    }
    #help-box Static {
        width: 1fr;
    }
    #help-box #level-ratings {
        margin-top: 1;
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
            for i, (title, text) in enumerate(HELP_SECTIONS):
                yield Static(title, classes="title first" if i == 0 else "title")
                yield Static(text)
            yield Static(RATINGS_TITLE, classes="title")
            yield Static(RATINGS_TEXT)
            yield Static(_levels_table(), id="level-ratings")
            yield Static("Keys at the table", classes="title")
            yield Static(_keys_table())
            yield Static("")
            yield Static(CLOSING_NOTE)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-box", VerticalScroll).scroll_relative(y=lines, animate=False)
