"""What the line mode says: a decision, a position, the odds, a result, in words to be heard.

Each line leads with what matters most (who, then what), spells every
colour as a word and carries no glyph that means something.  The moves
themselves are worded as the game log words them (``table.narration``):
one sentence per move, for the app's log and these lines alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

from ..engine import BACKS, COLOUR_NAMES, GameOver, Steal, View
from ..table.credit import credited_names, left_note
from ..table.names import YOU
from ..table.narration import game_over_line, join_names, possessive, reason_text


def colours(back: int) -> str:
    """A card's back, spelt: "red, green or blue"."""
    names = [COLOUR_NAMES[c] for c in BACKS[back]]
    return join_or(names)


def chance(p: Fraction) -> str:
    """A chance as it is said: "1 in 3", "2 in 3", "sure", "no chance"."""
    if p <= 0:
        return "no chance"
    if p >= 1:
        return "sure"
    return f"{p.numerator} in {p.denominator}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _has(name: str) -> str:
    return "you have" if name == YOU else f"{name} has"


def tank_text(view: View, seat: int, among: Sequence[int] | None = None) -> str:
    """A tank's cards by colour ("2 blue and 1 red"), or "empty"; ``among``: these colours only."""
    counts = view.tank_counts(seat)
    wanted = range(len(counts)) if among is None else among
    held = [f"{counts[c]} {COLOUR_NAMES[c]}" for c in wanted if counts[c]]
    if not held:
        return "empty" if among is None else "none of these"
    return join_names(held)


def top_card(view: View, *, odds: bool = False) -> str:
    """ "Top card red, green or blue"; with the odds, which faces are out of play."""
    assert view.top_back is not None
    text = f"Top card {colours(view.top_back)}"
    if odds:
        gone = [COLOUR_NAMES[c] for c, weight in view.face_weights() if not weight]
        if gone:
            text += f"; the {join_names(gone)} one {'is' if len(gone) == 1 else 'are'} played"
    return text


def options(view: View, names: Sequence[str], *, odds: bool = False) -> list[str]:
    """Each move the seat to move may make, with what it holds against the top card, and,
    with ``odds``, its chance to match: "s: score, you have 2 blue, 1 in 3 to match"."""
    from ..players.odds import odds_for

    assert view.top_back is not None
    back = BACKS[view.top_back]
    found = odds_for(view) if odds else None
    mover = view.to_move
    mine = tank_text(view, mover, back)
    said = [f"s: score, {_has(names[mover])} {mine}"]
    if found is not None and mine != "none of these":
        said[0] += f", {chance(found.p_score)} to match"
    for action in view.legal_actions():
        if not isinstance(action, Steal):
            continue
        target = action.target
        theirs = tank_text(view, target, back)
        line = f"{target + 1}: steal from {names[target]}, who has {theirs}"
        if names[target] == YOU:
            line = f"{target + 1}: steal from you, you have {theirs}"
        if found is not None and theirs != "none of these":
            p = next(s.p_match for s in found.steals if s.target == target)
            line += f", {chance(p)} to match"
        said.append(line)
    return said


def decision(view: View, names: Sequence[str], *, odds: bool = False, clock: str = "") -> str:
    """The question of a turn played here, in one line: whose turn, the top card, the moves."""
    mover = names[view.to_move]
    who = "Your turn" if mover == YOU else f"{mover}, your turn"
    if view.extra_turn:
        who += ", an extra turn"
    parts = [who, f"{clock}" if clock else "", top_card(view, odds=odds)]
    head = ". ".join(p for p in parts if p)
    return f"{head}. {'. '.join(options(view, names, odds=odds))}."


def odds_lines(view: View, names: Sequence[str]) -> list[str]:
    """The exact odds of every move for the seat to move, a line each."""
    from ..players.odds import odds_for

    found = odds_for(view)
    if found is None:
        return ["No odds: the game is over."]
    mover = names[found.seat]
    faces = ", ".join(f"{COLOUR_NAMES[c]} {chance(p)}" for c, p in found.faces)
    lines = [f"Odds for {'you' if mover == YOU else mover}. The top card is {faces}."]
    lines.append(f"Score: {chance(found.p_score)} to match{_cards(found.expected_score_cards)}.")
    for steal in found.steals:
        who = "you" if names[steal.target] == YOU else names[steal.target]
        lines.append(
            f"Steal from {who}: {chance(steal.p_match)} to match{_cards(steal.expected_cards)}."
        )
    return lines


def _cards(expected: Fraction) -> str:
    if not expected:
        return ""
    return f", {float(expected):.1f} cards on average"


def coach_line(view: View, names: Sequence[str]) -> str:
    """What the strongest bot would do for the seat to move, and why."""
    from ..players.coach import advise

    advice = advise(view, names)
    if advice is None:
        return "No advice: the game is over."
    return f"Coach: {spoken(advice.reason)}."


def spoken(text: str) -> str:
    """Signs a screen reader would read as their names, in words: "~1.3" is "about 1.3",
    "8/10" is "8 of 10", "blue/red" is "blue or red", "33%" is "33 percent"."""
    text = re.sub(r"(\d)/(\d)", r"\1 of \2", text)
    text = text.replace("/", " or ").replace("~", "about ").replace("%", " percent")
    return text.replace("<1 percent", "under 1 percent").replace(">99 percent", "over 99 percent")


def scores_line(view: View, names: Sequence[str]) -> str:
    """ "Scores: you 4, Bea 7, Cal 0, first to 10." """
    said = ", ".join(
        f"{'you' if name == YOU else name} {score}"
        for name, score in zip(names, view.scores, strict=True)
    )
    return f"Scores: {said}; first to {view.target}."


def table_lines(
    view: View,
    names: Sequence[str],
    about: Sequence[str] = (),
) -> list[str]:
    """The whole table again: the pile, then each seat's score and tank (``about``: a word
    more on each seat, such as a bot's level or a person's connection), then whose turn."""
    lines = [
        f"{plural(view.turn, 'move')} played, {plural(view.pile_size, 'card')} left, "
        f"first to {view.target}."
    ]
    for seat, name in enumerate(names):
        extra = about[seat] if seat < len(about) and about[seat] else ""
        who = f"{seat + 1}, {'you' if name == YOU else name}{f', {extra}' if extra else ''}"
        lines.append(f"{who}: score {view.scores[seat]}, tank {tank_text(view, seat)}.")
    if view.over:
        lines.append("The game is over.")
    else:
        mover = names[view.to_move]
        turn = "Your turn" if mover == YOU else f"{possessive(mover, start=True)} turn"
        if view.top_back is not None:
            turn += f", top card {colours(view.top_back)}"
        lines.append(f"{turn}.")
    return lines


def result_lines(
    over: GameOver, names: Sequence[str], played_on: Mapping[int, str] | None = None
) -> list[str]:
    """The end: who won and why, then every seat's score.  ``played_on``: per seat whose
    person left, the bot that played it on (its result is the seat's: ``table.credit``)."""
    scores = ", ".join(
        f"{'you' if name == YOU else name} {score}"
        for name, score in zip(names, over.scores, strict=True)
    )
    credited = credited_names(names, played_on or {})
    lines = [f"{game_over_line(over, credited)}."]
    if over.reason != "target":  # the first line says it all when someone reached it
        lines.append(reason_text(over, credited))
    left = left_note(names, played_on or {})
    if left:
        lines.append(left)
    lines.append(f"Final scores: {scores}; {plural(over.turns, 'move')}.")
    return lines


def ratings_text(changes: Sequence[tuple[str, int, int]]) -> str:
    """ "Rating: you 1,500 to 1,523." ("" for none)."""
    if not changes:
        return ""
    moves = "; ".join(
        f"{'you' if name == YOU else name} {before:,} to {after:,}"
        for name, before, after in changes
    )
    return f"Rating{'s' if len(changes) > 1 else ''}: {moves}."


def join_or(words: Sequence[str]) -> str:
    """ "2", "2 or 3", "2, 3 or 4"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"
