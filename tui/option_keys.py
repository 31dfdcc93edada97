"""Which key answers which option: one mapping for the list, the key bindings and tests.

The rule, so a habitual keypress never does something the player did not see:

- digits never pick a cell: a cell picker's cells are chosen with the cursor and Enter
  (or a click), so a digit typed after a refused Enter cannot land a model on a cell
  from a list the player never read;
- an option the engine marks as ending a phase, turn or activations (`Option.ends`) is
  listed last and answers only to ``e`` (the screen asks before taking it);
- an option that commits to nothing (`Option.neutral`: "Nothing", "Stop", "Pass", "Hold
  fire", "Finish the roster") is listed after the others and answers to ``0``, in every
  list: Confrontation's "Nothing" was key 2 for one slinger and 4 for the next, so a
  player pressing 2 again declared a charge, and "Stop" swapped places with "Re-roll".
  An option doing nothing that a ruleset always lists first is not marked and stays on 1,
  where a habitual 1 does nothing (Kill Team's "No re-roll" before the re-rolls that
  spend a command point, wh40k6's "Stop placing terrain");
- every other option gets a key in list order: 1 to 9, then letters no other command
  uses (``0`` and ``e`` are never dealt to them);
- a list is one player's question about one thing: its prompt (counts masked: "Roster: 2
  models" is "Roster: 1 model" asked again; names such as "B2.3" are kept) and the model
  it is about (`Decision.subject`). Another model's list, or another card's fighters, is
  another list, dealt from 1 with no gaps;
- a list the player comes back to after answering other questions, offering only options
  it offered last time, keeps each option's key (`OptionKeys`): a player who learnt
  "Squad Beta is 3" pressed 3 after Squad Alpha had moved and got the unit listed after
  Beta (half of wh40k6's "Which unit moves next?" lists shifted). A list asked again
  straight away (holding units in reserve one by one, stacking cards, removing
  casualties) is still in front of the player and is dealt afresh, as is a list that
  offers an option it did not offer last time.

Pure (no Textual), so the mapping can be tested without an app.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from engine.decisions import Decision, DecisionKind, Option

DIGITS = "1234567890"
LETTERS = "abcdfgimrtxyz"
"""Option keys after the digits: letters no game-screen command or board move uses."""
OPTION_KEYS = DIGITS + LETTERS
"""Every key that may pick an option (the screen binds them all)."""
DEALT = DIGITS[:-1] + LETTERS
"""The keys dealt in list order: 1 to 9, then the letters (``0`` is the neutral key)."""
END_KEY = "e"
"""The key of an option that ends a phase, turn or the player's activations."""
NEUTRAL_KEY = "0"
"""The key of an option that commits to nothing ("Nothing", "Stop"), in every list."""


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


def keyed_options(decision: Decision, kept: Mapping[str, str] | None = None) -> tuple[Keyed, ...]:
    """The options in list order (neutral, then ending ones last) with the key that picks each.

    ``kept`` maps engine option keys to the keys they had when the list was last shown
    (`OptionKeys` passes it only when no option is new to the list): each option keeps
    its key. Where that would number the list out of order or leave an option without a
    key, keys are dealt afresh from 1."""
    rows = _deal(decision, kept or {})
    if kept and not _in_order(decision, rows):
        rows = _deal(decision, {})
    return rows


def _deal(decision: Decision, kept: Mapping[str, str]) -> tuple[Keyed, ...]:
    free = iter(k for k in DEALT if k not in set(kept.values()))
    rows: list[Keyed] = []
    neutral: list[Option] = []
    for option in (o for o in decision.options if not o.ends):
        if is_cell_pick(decision, option):
            rows.append(Keyed("", option))
        elif option.neutral:
            neutral.append(option)
        else:
            rows.append(Keyed(kept.get(option.key) or next(free, ""), option))
    for n, option in enumerate(neutral):
        rows.append(Keyed(NEUTRAL_KEY if n == 0 else next(free, ""), option))
    for n, option in enumerate(o for o in decision.options if o.ends):
        rows.append(Keyed(END_KEY if n == 0 else next(free, ""), option))
    return tuple(rows)


def _in_order(decision: Decision, rows: tuple[Keyed, ...]) -> bool:
    """True when every dealt option has a key and the keys rise down the list."""
    dealt = _dealt_set(decision)  # once: per row it made a 400-cell list quadratic
    listed = [r for r in rows if r.option in dealt]
    if any(r.key == "" for r in listed):
        return False
    return all(DEALT.find(a.key) < DEALT.find(b.key) for a, b in pairwise(listed))


def _dealt_set(decision: Decision) -> set[Option]:
    """The options dealt keys in list order: not cells, not ending, not neutral."""
    return {
        o
        for o in decision.options
        if not o.ends and not o.neutral and not is_cell_pick(decision, o)
    }


def list_name(decision: Decision) -> tuple[int, str, str | None]:
    """Which list ``decision`` asks again: its player, its prompt with counts and plurals
    left out ("Roster: 2 models, 11/100 pts" is "Roster: 1 model, 6/100 pts" asked again;
    "Bogfen Cutthroat B2.3" stays a name), and the model it is about."""
    prompt = PLURALS.sub("", NUMBERS.sub("#", decision.prompt))
    return decision.player, prompt, decision.subject


NUMBERS = re.compile(r"(?<![A-Za-z0-9.])\d+(?:[./]\d+)*")
"""A prompt's counts: numbers standing alone, not those inside a name ("B2.3")."""
PLURALS = re.compile(r"s\b")
"""A prompt's plural endings, which change with its numbers while it asks the same list."""


def same_list(one: Decision, other: Decision) -> bool:
    """True when ``other`` is ``one`` shown again (its notes may differ): after an undo
    and another choice, a Decision with the same number asks something else."""
    return one.id == other.id and one.prompt == other.prompt and one.options == other.options


class OptionKeys:
    """The keys of one screen's lists, kept while a list comes back with fewer options.

    The memory is per list (`list_name`) and holds its keys as last shown, so the unit
    list keeps its keys across the cells and weapons asked between two of its showings.
    A list asked again with no other question in between, or offering an option it did
    not offer last time, is dealt afresh from 1. Each Decision's keys are worked out
    once: the list, the key bindings and tests read the same rows."""

    LISTS = 64
    """Lists remembered (each model's facing question is a list of its own)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, str, str | None], dict[str, str]] = {}
        self._rows: tuple[Decision, tuple[Keyed, ...]] | None = None
        self._last: tuple[int, str, str | None] | None = None
        """The list of the Decision dealt last: the one asked again straight away."""

    def rows(self, decision: Decision) -> tuple[Keyed, ...]:
        """``decision``'s options with their keys (`keyed_options`), this screen's way."""
        if self._rows is not None and same_list(self._rows[0], decision):
            return self._rows[1]
        name = list_name(decision)
        kept = self._kept.pop(name, {})
        offered = {o.key for o in _dealt_set(decision)}
        if name == self._last or not offered <= kept.keys():
            kept = {}
        rows = keyed_options(decision, kept)
        self._kept[name] = {r.option.key: r.key for r in rows if r.option.key in offered}
        if len(self._kept) > self.LISTS:
            del self._kept[next(iter(self._kept))]  # the list asked longest ago
        self._rows = (decision, rows)
        self._last = name
        return rows

    def option_for(self, decision: Decision, key: str) -> Option | None:
        """The option ``key`` picks in ``decision``, or None."""
        return next((row.option for row in self.rows(decision) if row.key == key), None)

    def key_for(self, decision: Decision, option_key: str) -> str:
        """The key that picks the option with engine key ``option_key`` ("" if none)."""
        return next((r.key for r in self.rows(decision) if r.option.key == option_key), "")


def option_for_key(decision: Decision, key: str) -> Option | None:
    """The option ``key`` picks in ``decision`` shown for the first time, or None."""
    return OptionKeys().option_for(decision, key)


def key_for(decision: Decision, option_key: str) -> str:
    """The key that picks ``option_key`` in ``decision`` shown for the first time."""
    return OptionKeys().key_for(decision, option_key)


def needs_confirmation(decision: Decision, option: Option) -> bool:
    """True when ``option`` ends something while other options (units that could still
    act) remain, or spends something for nothing (`futile`)."""
    return (option.ends and any(not o.ends for o in decision.options)) or futile(option)


def futile(option: Option) -> bool:
    """``option`` spends something scarce (a card, a command point) where every chance its
    odds show is 0%: a habitual 1 spent Tactical Insight on "re-roll your 10 (the enemy
    has 2) [re-roll takes the Initiative 0%]", a die already winning."""
    odds = option.odds
    if not option.spends or odds is None:
        return False
    known = [p for p in (odds.hit, odds.wound, odds.unsaved, odds.slay) if p is not None]
    known += [p for _, p in odds.chances]
    return bool(known) and not any(known)


def why_asked(decision: Decision, option: Option) -> str:
    """Why taking ``option`` is asked first (`needs_confirmation`)."""
    if futile(option) and option.odds is not None:
        return f"Its odds say it cannot help ({option.odds.describe()}): it is spent for nothing."
    return still_open(decision)


def still_open(decision: Decision, shown: int = 3) -> str:
    """Why ending now is asked first, naming what could still be done ("Still open: Move
    Warden Lexicar, Move Warden Squad Beta and 3 more."); cells to pick are not named."""
    if picks_cells(decision):
        return "Other options are still open (cells on the board to choose)."
    labels = list(dict.fromkeys(o.label for o in decision.options if not o.ends))
    named = ", ".join(labels[:shown])
    more = len(labels) - shown
    return f"Still open: {named}" + (f" and {more} more." if more > 0 else ".")


def refusal(decision: Decision, key: str, rows: tuple[Keyed, ...] = ()) -> str:
    """Why ``key`` picks nothing in ``decision``, for the decision panel, naming the keys
    its ``rows`` use (kept keys leave gaps: "1" after unit 1 has moved)."""
    if key in DIGITS and picks_cells(decision):
        return (
            f"{key} picks nothing here: digits never choose a cell. "
            "Move the cursor to a + cell and press Enter (or click it)."
        )
    if key == END_KEY:
        return "e picks nothing here: no option ends a phase or turn."
    if key == NEUTRAL_KEY:
        return "0 picks nothing here: 0 is for Nothing, Stop and the like, and none is offered."
    used = [row.key for row in rows if row.key]
    if not used or len(used) > 6:  # a long list shows its keys better than a sentence
        return f"{key} picks nothing here: no option has that key."
    if len(used) == 1:  # "the options' keys are e." read as if more were listed
        return f"{key} picks nothing here: the only option's key is {used[0]}."
    listed = ", ".join(used[:-1]) + " or " + used[-1]
    return f"{key} picks nothing here: the options' keys are {listed}."
