"""Playout helpers for the hardening tests: every ruleset's scenarios, pickers, invariants.

Everything here is generic over ``engine.rulesets.RULESETS`` and the views every ruleset
builds (`GameView`), so a ruleset gets fuzzed the moment it is registered and has a
scenario in ``scenarios/``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from engine.board import Cell
from engine.decisions import Decision, DecisionKind
from engine.errors import WargridError
from engine.game import Game
from engine.position import Position, load_position
from engine.rulesets import RULESETS
from engine.scenario import Scenario, load_scenario
from engine.view import SideView

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_DIR = ROOT / "scenarios"
MAX_CHOICES = 6_000
"""A game longer than this is taken not to end (bot games take 100-600 choices; a game
keeps every answered Decision, up to ~0.1 MB each with big cell lists, so this also
bounds the memory of a runaway playout)."""


@cache
def scenario_files() -> tuple[tuple[str, Path], ...]:
    """(ruleset name, file) for every shipped scenario of a registered ruleset."""
    names = {r.INFO.name for r in RULESETS}
    found = []
    for path in sorted(SCENARIO_DIR.glob("*.toml")):
        try:
            scenario = load_scenario(path)
        except WargridError:
            continue  # a scenario for a ruleset still being written; its own tests say so
        if scenario.ruleset in names:
            found.append((scenario.ruleset, path))
    return tuple(found)


@cache
def rulesets_with_scenarios() -> dict[str, tuple[Path, ...]]:
    """Every registered ruleset's shipped scenario files, by ruleset name.

    Property tests run per ruleset and draw the scenario, so their cost grows with the
    number of rulesets, not with the number of scenario files.
    """
    found: dict[str, list[Path]] = {}
    for name, path in scenario_files():
        found.setdefault(name, []).append(path)
    return {name: tuple(paths) for name, paths in found.items()}


CROWDED_DIR = Path(__file__).resolve().parent / "crowded"
CROWDED_LIMIT = 60
"""Choices played from a crowded position: its rare corners come in the first clashes."""


@cache
def crowded_positions() -> dict[str, tuple[Path, ...]]:
    """Small crowded positions by ruleset (``crowded/<ruleset>-*.toml``): everyone in
    contact, shooting into melee, the last models dying mid-activation, transports and
    reserves, which games from the shipped scenarios reach too rarely."""
    found: dict[str, list[Path]] = {}
    for path in sorted(CROWDED_DIR.glob("*.toml")):
        found.setdefault(path.stem.split("-", 1)[0], []).append(path)
    return {name: tuple(paths) for name, paths in found.items()}


@cache
def crowded(path: Path) -> Position:
    """The position in ``path`` (parsed once per test process)."""
    return load_position(path)


def case_ids(cases: tuple[tuple[str, Path], ...] | list[tuple[str, Path]]) -> list[str]:
    """Readable pytest ids: the scenario file stems."""
    return [path.stem for _, path in cases]


@cache
def scenario(path: Path) -> Scenario:
    """The scenario in ``path`` (parsed once per test process)."""
    return load_scenario(path)


PASSIVE_KEYS = frozenset({"pass", "stay", "no", "end", "hold", "skip", "done", "none"})
"""Option keys that decline to act; a passive picker makes long, slow-moving games."""

Picker = Callable[[Decision], str]


def make_picker(style: str, seed: int) -> Picker:
    """A way of choosing options: ``uniform``, ``first``, ``last`` or ``passive``.

    ``first`` and ``last`` probe the edges of every option list, but pick at random one
    time in four: a player who always answers "start again" (a deployment reset) would
    otherwise keep a game going for ever, which is their right, not an engine bug.
    """
    rng = random.Random(seed)

    def uniform(d: Decision) -> str:
        return rng.choice(d.options).key

    def first(d: Decision) -> str:
        return d.options[0].key if rng.random() < 0.75 else uniform(d)

    def last(d: Decision) -> str:
        return d.options[-1].key if rng.random() < 0.75 else uniform(d)

    def passive(d: Decision) -> str:
        calm = [o.key for o in d.options if o.key in PASSIVE_KEYS]
        return rng.choice(calm) if calm and rng.random() < 0.8 else uniform(d)

    return {"first": first, "last": last, "passive": passive}.get(style, uniform)


PICKER_STYLES = ("uniform", "first", "last", "passive")

_INT = re.compile(r"^-?\d+$")
_FRACTION = re.compile(r"^(-?\d+)/(-?\d+)$")


@dataclass
class Watch:
    """Checks the invariants of a running game after every choice.

    - no two models on one cell, every model on the board;
    - wounds within 0..max, max at least 1;
    - a model removed from the battlefield stays removed, never moves, is never the
      subject of a Decision and never an option of a model or target choice;
    - every numeric resource at least 0, every "n/m" resource has 0 <= n <= m, scores >= 0;
    - the round never goes back.
    """

    game: Game
    removed: dict[str, Cell | None] = field(default_factory=dict)
    """Models removed after they were on the battlefield, with where they were left."""
    fielded: set[str] = field(default_factory=set)
    """Models seen on the battlefield. Only these count as removed when a view says so:
    some rulesets also flag models not yet deployed (or in reserve) as removed."""
    last_round: int = 0

    def check(self) -> None:
        """Assert every invariant for the current moment."""
        view = self.game.view()
        where = f"after {len(self.game.choices)} choices"
        on_table = [m.cell for m in view.models if m.cell is not None and not m.removed]
        assert len(on_table) == len(set(on_table)), f"two models share a cell {where}"
        for m in view.models:
            assert 0 <= m.wounds <= m.max_wounds and m.max_wounds >= 1, f"{m} {where}"
            if m.cell is not None:
                assert m.cell in self.game.board, f"{m.id} is off the board {where}"
            if m.id in self.removed:
                assert m.removed, f"{m.id} came back after being removed ({where})"
                assert m.cell == self.removed[m.id], f"{m.id} moved after removal {where}"
            elif m.removed and m.id in self.fielded:
                self.removed[m.id] = m.cell
            elif m.cell is not None:
                self.fielded.add(m.id)
        self._check_sides(view.sides, where)
        assert view.round >= self.last_round, f"round went back to {view.round} {where}"
        self.last_round = view.round
        if self.game.pending is not None:
            self._check_decision(self.game.pending, where)

    def _check_sides(self, sides: tuple[SideView, SideView], where: str) -> None:
        for side in sides:
            assert side.score >= 0, f"{side.name} has score {side.score} {where}"
            for label, value in side.resources:
                if _INT.match(value):
                    assert int(value) >= 0, f"{side.name} {label} = {value} {where}"
                elif match := _FRACTION.match(value):
                    have, most = int(match[1]), int(match[2])
                    assert 0 <= have <= most, f"{side.name} {label} = {value} {where}"

    def _check_decision(self, decision: Decision, where: str) -> None:
        assert decision.player in (0, 1), decision
        assert decision.options, decision.prompt
        gone = self.removed
        assert decision.subject not in gone, (
            f"removed model {decision.subject} is asked to act {where}: {decision.prompt}"
        )
        if decision.kind in (DecisionKind.PICK_MODEL, DecisionKind.PICK_TARGET):
            for option in decision.options:
                assert option.model not in gone, (
                    f"removed model {option.model} offered {where}: {decision.prompt}"
                )


def play(game: Game, picker: Picker, *, watch: bool = True, limit: int = MAX_CHOICES) -> Game:
    """Answer every Decision with ``picker`` (checking the invariants) until the game ends."""
    watcher = Watch(game) if watch else None
    if watcher:
        watcher.check()
    while game.pending is not None and len(game.choices) < limit:
        game.choose_key(picker(game.pending))
        if watcher:
            watcher.check()
    return game
