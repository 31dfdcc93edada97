"""Decision, Option and Choice: the only way a player acts on a game.

A ruleset yields a `Decision` when a player must choose; a UI, bot or test answers with a
`Choice` naming one of its `Option` keys. Every Decision is "pick one of N": richer
answers (splitting attacks, ordering tests) are asked as a sequence of Decisions, so every
answer is one recorded key and bots and the contract test can enumerate every legal move
(OpenSpiel's legal actions).

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import partial
from typing import Any, NamedTuple, TypeAlias, TypeVar

from engine.board import Cell
from engine.checks import percent

T = TypeVar("T")


class DecisionKind(enum.Enum):
    """What sort of answer a Decision wants; tells the UI how to present it."""

    PICK_MODEL = "pick_model"
    """Choose one of the player's own models (options carry ``model`` and ``cell``)."""
    PICK_CELL = "pick_cell"
    """Choose a cell on the battlefield (options carry ``cell``)."""
    PICK_TARGET = "pick_target"
    """Choose an enemy model or point to act against (options carry ``model``, odds)."""
    PICK_OPTION = "pick_option"
    """Choose one of a few named options (actions, weapons, powers)."""
    YES_NO = "yes_no"
    """Accept or decline (option keys ``yes`` and ``no``)."""
    ALLOCATE = "allocate"
    """Give the next of several things (attacks, dice) to one of the options."""
    ORDER = "order"
    """Choose which of several things comes next (test order, card order)."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Chances the engine computes for an option that leads to a roll, shown before
    committing: an attack's hit, wound, unsaved and slay chances, or any named outcome
    ("charge succeeds", "passes") in ``chances``."""

    hit: Fraction | None = None
    """Chance that one attack hits."""
    wound: Fraction | None = None
    """Chance that one attack hits and wounds."""
    unsaved: Fraction | None = None
    """Chance that one attack gets through hit, wound and save."""
    slay: Fraction | None = None
    """Chance that the whole attack puts the target out of action, when known."""
    chances: tuple[tuple[str, Fraction], ...] = ()
    """Other outcomes and their chances, in display order."""

    @staticmethod
    def of(*chances: tuple[str, Fraction]) -> Odds:
        """Odds of named outcomes: ``Odds.of(("charge succeeds", p))``."""
        return Odds(chances=chances)

    def describe(self) -> str:
        """Percentages for a one-line display."""
        named = [("hit", self.hit), ("wound", self.wound), ("unsaved", self.unsaved)]
        named += [("slay", self.slay), *self.chances]
        return ", ".join(f"{label} {percent(p)}" for label, p in named if p is not None)


class Option(NamedTuple):
    """One allowed answer to a Decision, with what a UI needs to show it.

    A named tuple, not a frozen dataclass: a cell decision offers hundreds of options and
    a bot reads one, so building them is hot (a tuple is made in C, a frozen dataclass
    sets each field through ``object.__setattr__``: three times slower)."""

    key: str
    """Stable identifier recorded in the save (unique within the Decision)."""
    label: str
    """Short text for the option list."""
    cell: Cell | None = None
    """Battlefield cell to highlight for this option."""
    model: str | None = None
    """Model the option refers to (for PICK_MODEL / PICK_TARGET)."""
    odds: Odds | None = None
    """Attack odds when the option commits an attack."""
    detail: str = ""
    """Longer explanation shown for the highlighted option."""
    ends: bool = False
    """True when choosing it ends a phase, a turn or the player's activations ("End the
    Movement phase", "Pass (final)"): a UI keeps it last, gives it its own key and asks
    before taking it while other options remain, so a habitual keypress cannot skip a
    phase."""
    suggested: bool = False
    """The option a UI highlights first, where the list's own order must stay fixed (the
    facing towards the enemy, or the one kept, in compass order): Enter takes it."""
    spends: bool = False
    """Choosing it spends something scarce (a command point on a re-roll): a computer
    player takes it only when its ``odds`` say it is worth the cost."""
    neutral: bool = False
    """Choosing it commits to nothing: "Nothing", "Stop", "Pass", "Hold fire", listed after
    a number of other options that varies. A UI lists it after the others and gives it the
    same key in every list, so the key a player learnt for doing nothing never commits an
    action in the next list. Not set on one always listed first (Kill Team's "No re-roll"
    before re-rolls that spend a command point): its key is always the first."""


new_option: Callable[[tuple[Any, ...]], Option] = partial(tuple.__new__, Option)
"""An `Option` from all ten of its fields in order, ``new_option((key, label, cell,
model, None, "", False, False, False, False))``: the tuple made in C, without the constructor's
Python-level call (a third faster; a deployment offers several hundred cells)."""


def cell_keys(cells: Iterable[Cell]) -> list[str]:
    """Each cell's option key, "x,y": written once per cell for the whole process (two
    numbers formatted cost more than finding the text; cell options come by hundreds)."""
    keys = _KEYS
    out = []
    for cell in cells:
        key = keys.get(cell)
        if key is None:
            if len(keys) >= _MOST_KEYS:
                keys.clear()
            key = keys[cell] = f"{cell[0]},{cell[1]}"
        out.append(key)
    return out


_KEYS: dict[Cell, str] = {}
_MOST_KEYS = 100_000
"""Cells whose keys `cell_keys` keeps (a few tables' worth)."""


def cell_options(cells: Sequence[Cell], before: str) -> tuple[Option, ...]:
    """An option per cell, keyed "x,y" and labelled ``before`` and the cell as str(cell)
    writes it ("Objective at (12,30)"): the cells of a set-up step run to a thousand."""
    return tuple(
        new_option((key, f"{before}({key})", cell, None, None, "", False, False, False, False))
        for cell, key in zip(cells, cell_keys(cells), strict=True)
    )


@dataclass(frozen=True, slots=True)
class Decision:
    """A question the engine asks one player; the game waits for a Choice."""

    player: int
    """Seat (0 or 1) who must answer."""
    kind: DecisionKind
    prompt: str
    """The question, in the digest's English terms."""
    options: tuple[Option, ...]
    id: int = -1
    """Stamped by `Game`: the number of choices made before this Decision."""
    hidden: bool = False
    """True when the answer is secret from the other player (hand-over screen hides it)."""
    subject: str | None = None
    """Model the Decision is about (the UI selects it), if any."""
    notes: tuple[str, ...] = field(default=(), compare=False)
    """Prompts the game answered by itself since the last choice (one legal option),
    stamped by `Game` from ``RuleContext.answered`` so a UI can say what was done (a
    checkpoint keeps those still waiting, so a restored game shows them too). Not
    compared: they say what was done, not what is asked."""
    told: tuple[str, ...] = field(default=(), compare=False)
    """Prompts the game answered for the other player since the last choice: what the
    player taking over should know happened ("B2 is the only enemy within 12\" to
    charge." before the Overwatch question), never a reason to hold their keys."""
    why_not: Callable[[Cell], str] | None = field(default=None, compare=False, repr=False)
    """Why a cell this Decision does not offer cannot be picked, in the rules' words (""
    when the rules give no reason): asked only when a player presses Enter on an unlit
    cell, so it may work the answer out then. A formation move lights the cells where
    every model can go; the one that cannot is what the player needs to hear."""
    _index: dict[str, Option] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"Decision {self.prompt!r} offers no option")
        index = {option.key: option for option in self.options}
        if len(index) != len(self.options):
            raise ValueError(f"Decision {self.prompt!r} repeats an option key")
        object.__setattr__(self, "_index", index)

    def __contains__(self, key: object) -> bool:
        """``"yes" in decision``: is this an option key?"""
        return key in self._index

    def option(self, key: str) -> Option | None:
        """The option with this key, or None."""
        return self._index.get(key)

    def keys(self) -> tuple[str, ...]:
        """Every option key, in offered order."""
        return tuple(option.key for option in self.options)

    def stamped(self, number: int, notes: tuple[str, ...], told: tuple[str, ...]) -> Decision:
        """This Decision with `Game`'s stamp: ``number`` as its id, and ``notes`` and
        ``told`` added.

        `dataclasses.replace` would check the options and index them again (a cell
        decision has hundreds, and every Decision is stamped); the copy shares them."""
        clone: Decision = object.__new__(Decision)
        for name in _DECISION_FIELDS:
            object.__setattr__(clone, name, getattr(self, name))
        object.__setattr__(clone, "id", number)
        object.__setattr__(clone, "notes", self.notes + notes)
        object.__setattr__(clone, "told", self.told + told)
        return clone


_DECISION_FIELDS = tuple(f.name for f in fields(Decision))


def answered_as(decision_id: int, key: str, prompt: str) -> Decision:
    """A Decision of player 0 with ``key`` its one option, numbered ``decision_id``:
    what a choice answered, where the real Decision is not known (a game restored at a
    checkpoint stands one in for each choice before it, thousands in a long game). Made
    without the constructor's checks, which one option always passes."""
    option = Option(key, key)
    decision: Decision = object.__new__(Decision)
    for name, value in _ANSWERED_FIELDS:
        object.__setattr__(decision, name, value)
    object.__setattr__(decision, "prompt", prompt)
    object.__setattr__(decision, "options", (option,))
    object.__setattr__(decision, "id", decision_id)
    object.__setattr__(decision, "_index", {key: option})
    return decision


_ANSWERED_FIELDS = tuple(
    (name, getattr(Decision(0, DecisionKind.PICK_OPTION, "", (Option("", ""),)), name))
    for name in _DECISION_FIELDS
    if name not in ("prompt", "options", "id", "_index")
)


@dataclass(frozen=True, slots=True)
class Choice:
    """A player's answer: the Decision it answers and the option key picked."""

    decision_id: int
    key: str


Procedure: TypeAlias = Generator[Decision, Choice, T]
"""A rules procedure: yields Decisions, receives Choices, returns its result."""


def yes_no(
    player: int,
    prompt: str,
    *,
    subject: str | None = None,
    spends: bool = False,
    odds: Odds | None = None,
) -> Decision:
    """A YES_NO Decision with the standard keys ``yes`` and ``no``. When yes ``spends``
    something (a command point), no comes first and is `Option.suggested`: key 1 and
    Enter spend nothing, as in every other question that offers to spend a point (a
    player who learnt "1 = No re-roll" on a hit die must not pay on a psychic test);
    ``odds`` on yes say what spending buys (a re-roll's chance to do better)."""
    yes = Option("yes", "Yes", odds=odds, spends=spends)
    no = Option("no", "No", suggested=spends)
    return Decision(
        player, DecisionKind.YES_NO, prompt, (no, yes) if spends else (yes, no), subject=subject
    )


def ask_yes_no(
    player: int,
    prompt: str,
    *,
    subject: str | None = None,
    spends: bool = False,
    odds: Odds | None = None,
) -> Procedure[bool]:
    """Ask a yes/no question and return the answer (``spends``, ``odds``: see `yes_no`)."""
    choice = yield yes_no(player, prompt, subject=subject, spends=spends, odds=odds)
    return choice.key == "yes"
