"""Which key answers which option: one mapping for the list, the key bindings and tests.

Three rules keep a habitual keypress from doing something the player did not see:

- digits never pick a cell: a cell picker's cells are chosen with the cursor and Enter
  (or a click), so a digit typed after a refused Enter cannot land a model on a cell
  from a list the player never read;
- an option the engine marks as ending a phase, turn or activations (`Option.ends`) is
  listed last and answers only to ``e`` (the screen asks before taking it);
- every other option gets a key: the digits, then letters no other command uses.

Pure (no Textual), so the mapping can be tested without an app.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decisions import Decision, DecisionKind, Option

DIGITS = "1234567890"
LETTERS = "abcdfgimrtxyz"
"""Option keys after the ten digits: letters no game-screen command or board move uses."""
OPTION_KEYS = DIGITS + LETTERS
END_KEY = "e"
"""The key of an option that ends a phase, turn or the player's activations."""


@dataclass(frozen=True, slots=True)
class Keyed:
    """One row of the option list: the key that picks it ("" for none) and the option."""

    key: str
    option: Option


def is_cell_pick(decision: Decision, option: Option) -> bool:
    """True when ``option`` is a cell of a cell picker (chosen on the board only)."""
    return decision.kind is DecisionKind.PICK_CELL and option.cell is not None


def picks_cells(decision: Decision) -> bool:
    """True when some options of ``decision`` are chosen on the board only."""
    return any(is_cell_pick(decision, option) for option in decision.options)


def keyed_options(decision: Decision) -> tuple[Keyed, ...]:
    """The options in list order (ending ones last) with the key that picks each."""
    ordinary = [o for o in decision.options if not o.ends]
    ending = [o for o in decision.options if o.ends]
    free = iter(OPTION_KEYS)
    rows: list[Keyed] = []
    for option in ordinary:
        rows.append(Keyed("" if is_cell_pick(decision, option) else next(free, ""), option))
    for n, option in enumerate(ending):
        rows.append(Keyed(END_KEY if n == 0 else next(free, ""), option))
    return tuple(rows)


def option_for_key(decision: Decision, key: str) -> Option | None:
    """The option ``key`` picks in ``decision``, or None."""
    return next((row.option for row in keyed_options(decision) if row.key == key), None)


def key_for(decision: Decision, option_key: str) -> str:
    """The key that picks the option with engine key ``option_key`` ("" if none)."""
    return next((r.key for r in keyed_options(decision) if r.option.key == option_key), "")


def needs_confirmation(decision: Decision, option: Option) -> bool:
    """True when ``option`` ends something while other options (units that could still
    act) remain."""
    return option.ends and any(not o.ends for o in decision.options)


def still_open(decision: Decision, shown: int = 3) -> str:
    """Why ending now is asked first, naming what could still be done ("Still open: Move
    Warden Lexicar, Move Warden Squad Beta and 3 more."); cells to pick are not named."""
    if picks_cells(decision):
        return "Other options are still open (cells on the board to choose)."
    labels = list(dict.fromkeys(o.label for o in decision.options if not o.ends))
    named = ", ".join(labels[:shown])
    more = len(labels) - shown
    return f"Still open: {named}" + (f" and {more} more." if more > 0 else ".")


def refusal(decision: Decision, key: str) -> str:
    """Why ``key`` picks nothing in ``decision``, for the decision panel."""
    if key in DIGITS and picks_cells(decision):
        return (
            f"{key} picks nothing here: digits never choose a cell. "
            "Move the cursor to a + cell and press Enter (or click it)."
        )
    if key == END_KEY:
        return "e picks nothing here: no option ends a phase or turn."
    return f"{key} picks nothing here: no option has that key."
