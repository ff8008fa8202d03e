"""What a launch loads before its first screen: only what that screen needs.

Every launch pays for each module imported and each file read before the first
frame (``benchmarks/startup.py`` measures it), so online play, the simulator,
the statistics database and the expert's weights wait until they are used.
Each check runs in a fresh interpreter, which is the only place the modules a
launch loads can be seen (this test process has imported everything already).
"""

from __future__ import annotations

import gc
import subprocess
import sys

from textual import events

#: Opens the app headless the way ``mantis`` would, then prints what it loaded.
LAUNCH = """
import asyncio, sys
from mantis.cli.parser import build_parser
args = build_parser().parse_args(sys.argv[1:] or ["play"])
from mantis.cli.play import seats_asked  # what `mantis play` imports
from mantis.tui.launch import run_play  # and the app's launch
from mantis.tui import first_screens
from mantis.tui.app import MantisApp

async def main():
    seats = seats_asked(args.seats, args.names, seed=args.seed, resume=args.resume)
    first = first_screens.NewTable(seats, args.seed, paused=True) if seats else None
    app = MantisApp(first, still=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        print(type(app.screen).__name__)

asyncio.run(main())
expert = sys.modules.get("mantis.players.bots.expert")
print("weights loaded" if expert is not None and expert._NETWORKS is not None else "no weights")
print(" ".join(sorted(sys.modules)))
"""

#: Loaded by none of the app's first screens (ratings are worked out when a game is
#: recorded, charts drawn when one is shown, a game reviewed when its review opens).
NEVER_AT_START = (
    "mantis.review",
    "mantis.tui.screens.review",
    "mantis.net",
    "mantis.sim",
    "websockets",
    "sqlite3",
    "mantis.home.stats",
    "plotext",
    "textual_plotext",
    "mantis.rating.update",
    "openskill",
    "mantis.envs",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
)


def loaded(code: str, *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def among(modules: str, prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules.split() if any(m == p or m.startswith(p + ".") for p in prefixes)]


def test_the_command_line_alone_loads_no_ui_simulator_or_network() -> None:
    (modules,) = loaded("import sys, mantis.cli; print(' '.join(sorted(sys.modules)))")
    assert among(modules, ("textual", "mantis.tui", *NEVER_AT_START)) == []


def test_plain_mantis_loads_no_parser_nor_what_only_writing_or_dealing_needs() -> None:
    # `mantis` alone has no options to read, and the setup screen neither writes a file
    # nor deals a game: argparse, and hashlib and secrets (OpenSSL), wait for those.
    code = "import sys, mantis.cli, mantis.tui.launch, mantis.tui.app, mantis.tui.screens.setup"
    (modules,) = loaded(code + "; print(' '.join(sorted(sys.modules)))")
    assert among(modules, ("argparse", "mantis.cli.parser", "hashlib", "secrets")) == []


def test_the_setup_screen_opens_without_tables_online_play_or_the_expert() -> None:
    screen, weights, modules = loaded(LAUNCH)
    assert screen == "SetupScreen"
    assert weights == "no weights"
    # Of the table, only the rules of a seat and its name (the setup form checks them) and
    # the bot speeds' delays (the settings hold a speed).
    assert among(modules, ("mantis.table",)) == [
        "mantis.table",
        "mantis.table.names",
        "mantis.table.pacing",
        "mantis.table.seating",
    ]
    assert among(modules, NEVER_AT_START) == []
    # Nor any bot (the levels are names until one sits), nor the record format and the
    # game it replays through (the remembered seats are read without them).
    assert (
        among(modules, ("mantis.players.bots", "mantis.engine.record", "mantis.engine.game")) == []
    )


def test_a_table_opens_without_the_setup_screen_online_play_or_a_hidden_coach() -> None:
    # No expert sits here, and the coach is hidden: nothing should read its weights.
    screen, weights, modules = loaded(LAUNCH, "play", "--seats", "human,greedy", "--seed", "7")
    assert screen == "LocalPlayScreen"
    assert weights == "no weights"
    assert among(modules, ("mantis.tui.screens.setup", *NEVER_AT_START)) == []
    # The game-over screen is imported when the game ends.
    assert among(modules, ("mantis.tui.screens.game_over",)) == []


def test_the_default_names_keep_the_name_rules() -> None:
    # `mantis play --seats` does not check the names it makes up (that would read the
    # look-alike data before the first frame): every mix of people and bots passes.
    from mantis.engine.seat_count import SEAT_COUNTS
    from mantis.table.seating import check_names, default_names

    for seats in SEAT_COUNTS:
        for people in range(seats + 1):
            kinds = ["human"] * people + ["bot"] * (seats - people)
            check_names(default_names(kinds))


async def test_the_collector_is_back_on_once_the_first_screen_is_up() -> None:
    # `mantis play` turns the garbage collector off until its first frame (nothing made
    # by then is garbage); the app turns it back on once its first screen is drawn.
    from mantis.tui.app import MantisApp

    gc.disable()
    try:
        app = MantisApp(still=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == "SetupScreen"
            assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


async def test_a_first_table_or_setup_screen_parses_no_style_twice(monkeypatch) -> None:
    # A screen's own style sheets, read when it is first shown, make Textual parse every
    # style of the app again; the first screen's are read with the app's instead.
    from textual.css.stylesheet import Stylesheet

    from mantis.table.seating import seats_from_text
    from mantis.tui import first_screens
    from mantis.tui.app import MantisApp

    reparsed: list[str] = []
    reparse = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        reparsed.append(type(app.screen).__name__)
        reparse(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    table = first_screens.NewTable(seats_from_text("human,greedy"), 7, paused=True)
    for first, shown in ((table, "LocalPlayScreen"), (None, "SetupScreen")):
        app = MantisApp(first, still=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == shown
        assert reparsed == []


async def test_a_screen_shown_the_first_time_is_not_styled_twice(monkeypatch) -> None:
    # Textual restyles a whole screen each time it is shown; the first time, its widgets
    # have just been styled as they mounted, so the setup screen and a board skip it
    # (StyledAtMount).  The snapshots show they look the same.
    from textual.screen import Screen

    from mantis.table.seating import seats_from_text
    from mantis.tui import first_screens
    from mantis.tui.app import MantisApp

    resumed: list[tuple[str, bool]] = []
    resume = Screen._on_screen_resume

    def noted(self: Screen, event: events.ScreenResume) -> None:
        resumed.append((type(self).__name__, event.refresh_styles))
        resume(self, event)

    monkeypatch.setattr(Screen, "_on_screen_resume", noted)
    table = first_screens.NewTable(seats_from_text("human,greedy"), 7, paused=True)
    for first, shown in ((None, "SetupScreen"), (table, "LocalPlayScreen")):
        resumed.clear()
        app = MantisApp(first, still=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == shown
        assert [r for r in resumed if r[0] == shown] == [(shown, False)]


async def test_a_chosen_select_is_not_restyled_as_it_mounts_and_still_chooses(monkeypatch) -> None:
    # Textual's Select marks its value line once mounted, restyling it; the setup screen's
    # selects are made with their value, so theirs starts marked (ChosenSelect).
    from textual.app import App
    from textual.widgets import Select
    from textual.widgets._select import SelectCurrent

    from mantis.tui.widgets.chosen_select import ChosenSelect

    restyled: list[str] = []
    update = App.update_styles

    def noted(self: App, node, animate: bool = True) -> None:
        restyled.append(type(node).__name__)
        update(self, node, animate=animate)

    monkeypatch.setattr(App, "update_styles", noted)

    class Form(App[None]):
        def compose(self):
            yield ChosenSelect([("Two", 2), ("Three", 3)], value=3, allow_blank=False)
            yield Select([("Two", 2), ("Three", 3)], value=3, allow_blank=False)

    app = Form()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        chosen, plain = app.query(Select).results(Select)
        assert chosen.query_one(SelectCurrent).has_class("-has-value")
        assert restyled.count("SelectCurrent") == 1  # the plain Select's, not the chosen one's
        chosen.focus()
        await pilot.press("enter", "up", "enter")
        await pilot.pause()
        assert chosen.value == 2
        assert chosen.query_one(SelectCurrent).has_class("-has-value")


async def test_a_chosen_select_makes_its_list_when_it_opens_and_acts_as_textuals() -> None:
    # A ChosenSelect's hidden list of options is made when it first opens, not as it
    # mounts; from then on it must do what Textual's Select does, key for key and click
    # for click: all the options, the value highlighted, the same choices and messages.
    from textual.app import App
    from textual.widgets import OptionList, Select

    from mantis.tui.widgets.chosen_select import ChosenSelect

    options = [("Two", 2), ("Three", 3), ("Four", 4)]
    changed: list[tuple[str, object]] = []

    class Form(App[None]):
        def compose(self):
            for made in (ChosenSelect, Select):
                yield made(options, value=3, allow_blank=False, compact=True, id=made.__name__)
                yield made(options, value=3, allow_blank=False, compact=True, classes="late")

        def on_select_changed(self, event: Select.Changed) -> None:
            changed.append((type(event.select).__name__, event.value))

    def offered(select: Select) -> tuple[bool, list[str], int | None]:
        overlay = select.query_one(OptionList)
        prompts = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
        return select.expanded, prompts, overlay.highlighted

    app = Form()
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        chosen, plain = app.query_one("#ChosenSelect", Select), app.query_one("#Select", Select)
        assert not chosen.query(OptionList)  # no list before it is opened
        assert offered(plain) == (False, ["Two", "Three", "Four"], 1)
        seen: dict[str, list[object]] = {}
        for select in (chosen, plain):
            steps: list[object] = []
            select.focus()
            await pilot.press("enter")  # opens on the value
            steps.append(offered(select))
            await pilot.press("down", "enter")  # chooses the next one
            steps += [select.value, offered(select)]
            await pilot.click(select)  # a click opens it too, on the new value
            steps.append(offered(select))
            await pilot.press("t", "enter")  # type to search: "Two"
            steps += [select.value, offered(select)]
            await pilot.press("space", "escape")  # opened and left: nothing chosen
            steps += [select.value, offered(select)]
            await pilot.press("space")
            await pilot.click(select.query_one(OptionList), offset=(3, 1))  # a click chooses
            steps += [select.value, offered(select)]
            select.set_options([("One", 1), ("Four", 4)])  # once opened, follows set_options
            steps += [select.value, offered(select)]
            await pilot.pause()
            seen[type(select).__name__] = steps
        assert seen["ChosenSelect"] == seen["Select"]
        assert seen["Select"][:6] == [
            (True, ["Two", "Three", "Four"], 1),
            4,
            (False, ["Two", "Three", "Four"], 2),
            (True, ["Two", "Three", "Four"], 2),
            2,
            (False, ["Two", "Three", "Four"], 0),
        ]
        assert seen["Select"][8] == 3  # the click on the second option
        kinds = ("ChosenSelect", "Select")
        by_kind = {kind: [v for k, v in changed if k == kind] for kind in kinds}
        assert by_kind["ChosenSelect"] == by_kind["Select"]
        assert by_kind["Select"][-4:] == [4, 2, 3, 1]  # each choice, then set_options' reset

        # Options set before the list was ever opened are the ones it opens with.
        late_chosen, late_plain = app.query(".late").results(Select)
        assert isinstance(late_chosen, ChosenSelect)
        for select in (late_chosen, late_plain):
            select.set_options([("One", 1), ("Five", 5)])
            select.value = 5
            select.focus()
            await pilot.press("enter")
            assert offered(select) == (True, ["One", "Five"], 1)


async def test_a_widget_being_made_is_styled_as_it_mounts_and_not_before(monkeypatch) -> None:
    # The app restyles no widget outside its DOM (StylesWhenAttached): a class set as a
    # widget is made (a button's variant) must still show once it is mounted, exactly as
    # the same class set on a widget already there, which is restyled at once.
    from textual.css.stylesheet import Stylesheet
    from textual.widgets import Button

    from mantis.tui.app import MantisApp

    restyled: list[object] = []
    update_nodes = Stylesheet.update_nodes

    def noted(self: Stylesheet, nodes, animate: bool = False) -> None:
        nodes = list(nodes)
        restyled.extend(nodes)
        update_nodes(self, nodes, animate=animate)

    app = MantisApp(still=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        monkeypatch.setattr(Stylesheet, "update_nodes", noted)
        made = Button("Made red", variant="error")
        assert made.has_class("-error") and restyled == []
        turned, plain = Button("Turned red"), Button("Plain")
        await app.screen.mount(made, turned, plain)
        turned.variant = "error"
        assert turned in restyled and made not in restyled
        await pilot.pause()
        assert made.styles.background == turned.styles.background != plain.styles.background


async def test_a_footers_keys_are_styled_once_and_look_as_textuals(monkeypatch) -> None:
    # Textual makes each footer key compact, then sets it back to its footer's style
    # as it mounts, restyling it twice (the command palette's key, which stays compact,
    # once); KeyFooter's keys start in the style they end in.
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.dom import DOMNode
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    from mantis.tui.widgets.key_footer import KeyFooter

    class Keys(App[None]):
        BINDINGS = [Binding("s", "steal", "Steal"), Binding("p", "pause", "Pause")]

        def __init__(self, footer: type[Footer]) -> None:
            super().__init__()
            self.footer = footer

        def compose(self) -> ComposeResult:
            yield self.footer()

    restyled: list[str] = []
    update_styles = App.update_styles

    def noted(self: App, node: DOMNode, animate: bool = True) -> None:
        if isinstance(node, FooterKey):
            restyled.append(node.key)
        update_styles(self, node, animate=animate)

    monkeypatch.setattr(App, "update_styles", noted)
    shown = []
    for footer in (Footer, KeyFooter):
        restyled.clear()
        app = Keys(footer)
        async with app.run_test(size=(60, 5)) as pilot:
            await pilot.pause()
            keys = list(app.query(FooterKey))
            shown.append([(k.key, k.has_class("-compact"), k.render(), k.size) for k in keys])
            assert [k for k, *_ in shown[-1]] == ["s", "p", "ctrl+p"]
        if footer is Footer:
            assert restyled, "Textual's footer keys are restyled as they mount"
    assert restyled == []
    assert shown[0] == shown[1]
