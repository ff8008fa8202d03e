"""What the line mode says: a decision, a position, the odds, a result, in words to be heard.

Each line leads with what matters most (who, then what), spells every
colour as a word and carries no glyph that means something: no brackets,
no quotation marks, no symbols a screen reader would read by name.  The
moves themselves are worded as the game log words them
(``table.narration``), then made ``heard``: one sentence per move.

A turn's question is short by default: whose turn, the top card's back,
and each move's key ("s scores; steal from 2 Ann or 3 Bea"), with its
chance when the odds are on.  ``more`` adds what each tank holds of the
top card's colours.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

from ..engine import BACKS, COLOUR_NAMES, GameOver, Steal, View
from ..table import Talk
from ..table.credit import credited_names, left_note
from ..table.names import YOU
from ..table.narration import join_names, possessive, reason_text, talk_line


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


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 card", "3 cards" (``many``: the plural when it is not ``word`` + s)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def who(name: str) -> str:
    """A seat's name inside a sentence ("you" for the seat called You)."""
    return "you" if name == YOU else name


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
    """ "top card red, green or blue"; with the odds, which faces are out of play."""
    assert view.top_back is not None
    text = f"top card {colours(view.top_back)}"
    if odds:
        gone = [COLOUR_NAMES[c] for c, weight in view.face_weights() if not weight]
        if gone:
            text += f", {join_names(gone)} already seen"
    return text


def choices(view: View) -> str:
    """The keys of the moves open now: "s, 2, 3 or 4"."""
    steals = [str(a.target + 1) for a in view.legal_actions() if isinstance(a, Steal)]
    return join_or(["s", *steals])


def options(
    view: View, names: Sequence[str], *, odds: bool = False, more: bool = False
) -> list[str]:
    """Each move the seat to move may make, by its key, score first: "s scores",
    "2 steals from Ann"; with ``odds`` its chance to match, with ``more`` what the tank holds
    of the top card's colours ("s scores, you have 2 blue, 1 in 3 to match")."""
    from ..players.odds import odds_for

    assert view.top_back is not None
    back = BACKS[view.top_back]
    found = odds_for(view) if odds else None
    mover = view.to_move
    p_score = found.p_score if found is not None else None
    said = [_option("s scores", _has(names[mover]), view, mover, back, p_score, more)]
    for action in view.legal_actions():
        if not isinstance(action, Steal):
            continue
        target = action.target
        key = f"{target + 1} steals from {who(names[target])}"
        holder = "you have" if names[target] == YOU else "who has"
        p = None
        if found is not None:
            p = next(s.p_match for s in found.steals if s.target == target)
        said.append(_option(key, holder, view, target, back, p, more))
    return said


def _option(
    key: str,
    holder: str,
    view: View,
    seat: int,
    back: Sequence[int],
    p: Fraction | None,
    more: bool,
) -> str:
    """One move's words: its key, then (``more``) what ``seat``'s tank holds of ``back``'s
    colours, then its chance (``p``; left out when nothing there could match)."""
    if not more:
        return key if p is None else f"{key}, {chance(p)}"
    held = tank_text(view, seat, back)
    text = f"{key}, {holder} {held}"
    if p is not None and held != "none of these":
        text += f", {chance(p)} to match"
    return text


def moves_text(view: View, names: Sequence[str], *, odds: bool = False, more: bool = False) -> str:
    """The moves as the question says them: "s scores; steal from 2 Ann, 3 Bea or 4 Cal"
    (each steal's "steals" said once when nothing more is said of it)."""
    said = options(view, names, odds=odds, more=more)
    if more:
        return "; ".join(said)
    steals = [re.sub(r"^(\d+) steals from ", r"\1 ", line) for line in said[1:]]
    if not steals:
        return said[0]
    return f"{said[0]}; steal from {'; '.join(steals) if odds else join_or(steals)}"


def decision(
    view: View,
    names: Sequence[str],
    *,
    odds: bool = False,
    more: bool = False,
    clock: str = "",
) -> str:
    """The question of a turn played here, in one line: whose turn (and its time), the top
    card, the moves: "Your turn, top card red, green or blue. s scores; steal from 2 Ann."."""
    mover = names[view.to_move]
    turn = "extra turn" if view.extra_turn else "turn"
    head = f"Your {turn}" if mover == YOU else f"{mover}, your {turn}"
    if clock:
        head += f", {clock}"
    moves = moves_text(view, names, odds=odds, more=more)
    return f"{head}, {top_card(view, odds=odds)}. {moves}."


def option_lines(view: View, names: Sequence[str], *, odds: bool = False) -> list[str]:
    """Each move with what it would match, a line each (``more`` typed once)."""
    return [f"{line}." for line in options(view, names, odds=odds, more=True)]


def odds_lines(view: View, names: Sequence[str]) -> list[str]:
    """The exact odds of every move for the seat to move, a line each, by its key."""
    from ..players.odds import odds_for

    found = odds_for(view)
    if found is None:
        return ["No odds: the game is over."]
    faces = ", ".join(f"{COLOUR_NAMES[c]} {chance(p)}" for c, p in found.faces)
    lines = [f"Odds for {who(names[found.seat])}: the top card is {faces}."]
    lines.append(f"s scores: {chance(found.p_score)} to match{_cards(found.expected_score_cards)}.")
    for steal in found.steals:
        lines.append(
            f"{steal.target + 1} steals from {who(names[steal.target])}: "
            f"{chance(steal.p_match)} to match{_cards(steal.expected_cards)}."
        )
    return lines


def _cards(expected: Fraction) -> str:
    if not expected:
        return ""
    figure = f"{float(expected):.1f}".removesuffix(".0")
    return f", {figure} {'card' if figure == '1' else 'cards'} on average"


def coach_line(view: View, names: Sequence[str]) -> str:
    """What the strongest bot would do for the seat to move, and why."""
    from ..players.coach import advise

    advice = advise(view, names)
    if advice is None:
        return "No advice: the game is over."
    move, _, why = advice.reason.partition(": ")  # "score: 1 in 3 to match..."
    return f"Coach: {spoken(move)}{f', {spoken(why)}' if why else ''}."


def spoken(text: str) -> str:
    """Signs a screen reader would read as their names, in words: "~1.3" is "about 1.3",
    "8/10" is "8 of 10", "blue/red" is "blue or red", "33%" is "33 percent", "(x)" is ", x"."""
    text = re.sub(r"(\d)/(\d)", r"\1 of \2", text)
    text = text.replace("/", " or ").replace("~", "about ").replace("%", " percent")
    text = re.sub(r"(\d)\.0\b", r"\1", text)
    text = text.replace("<1 percent", "under 1 percent").replace(">99 percent", "over 99 percent")
    return _unbracketed(text)


def _unbracketed(text: str) -> str:
    """Brackets as commas: "New game (seed 4): ..." as "New game, seed 4: ...", "(score 5)"
    as ", score 5", "Ann's seat (played by greedy) wins" as "..., played by greedy, wins"."""
    text = re.sub(r"\s*\(([^()]*)\)(?=\s+\w)", r", \1,", text)
    return re.sub(r"\s*\(([^()]*)\)", r", \1", text).replace(", ,", ",")


def heard(line: str) -> str:
    """A line of the game log as it is said: no brackets, seconds in full ("10 s" is read
    as "10 s"), and a full stop at its end."""
    text = re.sub(r"\b(\d+(?:\.\d+)?) s\b", r"\1 seconds", _unbracketed(line))
    return text if text.endswith((".", "!", "?")) else f"{text}."


def talk_text(talk: Talk, names: Sequence[str]) -> str:
    """A line said at the table as the log words it, without brackets or quotation marks:
    "Bea says: good luck", "Cal, watching says: hello"."""
    line = talk_line(talk, names)
    speaker, _, words = line.partition(" “")
    return f"{_unbracketed(speaker.replace(') ', '), '))}: {words.removesuffix('”')}"


def scores_line(view: View, names: Sequence[str]) -> str:
    """ "Scores: you 4, Bea 7, Cal 0; first to 10." """
    said = ", ".join(f"{who(name)} {score}" for name, score in zip(names, view.scores, strict=True))
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
        place = f"{seat + 1}, {who(name)}{f', {extra}' if extra else ''}"
        lines.append(f"{place}: score {view.scores[seat]}, tank {tank_text(view, seat)}.")
    if view.over:
        lines.append("The game is over.")
    else:
        mover = names[view.to_move]
        turn = "Your turn" if mover == YOU else f"{possessive(mover, start=True)} turn"
        if view.top_back is not None:
            turn += f", {top_card(view)}"
        lines.append(f"{turn}.")
    return lines


def result_lines(
    over: GameOver,
    names: Sequence[str],
    seed: int | None = None,
    *,
    played_on: Mapping[int, str] | None = None,
) -> list[str]:
    """The end, as the game-over screen has it: who won and why, every seat's score and
    tank from the first, the moves played and the seed.  ``played_on``: per seat whose
    person left, the bot that played it on (its result is the seat's: ``table.credit``)."""
    # "Your seat (played by greedy)" stands for a name: inside a sentence, "your seat".
    credited = [
        name.replace("Your seat", "your seat") for name in credited_names(names, played_on or {})
    ]
    winners = [credited[s] for s in over.winners]
    best = over.scores[over.winners[0]]
    if len(winners) > 1:
        headline = f"Game over: the draw pile ran out; {join_names(winners)} share the win"
    else:
        wins = "you win" if winners[0] == YOU else f"{winners[0]} wins"
        how = "" if over.reason == "target" else "; the draw pile ran out"
        headline = f"Game over: {wins} with {plural(best, 'scored card')}{how}"
    lines = [_unbracketed(f"{headline}.")]
    if over.scores.count(best) > 1:  # a tie on scores: the tiebreak said
        lines.append(_unbracketed(reason_text(over, credited)))
    left = left_note(names, played_on or {})
    if left:
        lines.append(left)
    order = sorted(range(len(names)), key=lambda s: (-over.scores[s], -over.tank_sizes[s], s))
    lines.append("Scores: " + ", ".join(f"{who(names[s])} {over.scores[s]}" for s in order) + ".")
    lines.append(
        "Tanks: " + ", ".join(f"{who(names[s])} {over.tank_sizes[s]}" for s in order) + "."
    )
    deal = "" if seed is None else f", seed {seed}"
    lines.append(f"{plural(over.turns, 'move')}{deal}.")
    return lines


def ratings_text(changes: Sequence[tuple[str, int, int]]) -> str:
    """ "Rating: you 1,500 to 1,523, up 23." ("" for none)."""
    if not changes:
        return ""
    moves = "; ".join(f"{who(name)} {_change(before, after)}" for name, before, after in changes)
    return f"Rating{'s' if len(changes) > 1 else ''}: {moves}."


def _change(before: int, after: int) -> str:
    moved = f", {'up' if after > before else 'down'} {abs(after - before):,}"
    return f"{before:,} to {after:,}{moved if after != before else ''}"


def join_or(words: Sequence[str]) -> str:
    """ "2", "2 or 3", "2, 3 or 4"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"
