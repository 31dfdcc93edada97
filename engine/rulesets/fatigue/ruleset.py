"""The Roads of the Apocalypse ruleset: scenario data in, a playable game out.

Scenario table ``[fatigue]`` (see ``scenarios/fatigue-crossroads.toml``)::

    zones = ["South", "North"]                  # the two edges' deployment zones (§4.3)
    forward_zones = ["South forward", "North forward"]   # optional: CAMOUFLAGE zones
    [fatigue.modules]                           # optional switches (§12.4)
    special_manoeuvres = true
    misfires = true
    lost_group_test = false
    elevation = false
    metric = "one_two_one"                      # or "chebyshev"
    [[fatigue.forces]]                          # two forces, or more to let players pick
    name = "Dustroad Wardens"
    faction = "WARDENS"
    [[fatigue.forces.units]]
    name = "Road Spears"
    points = 45
    fp = 2
    abilities = []                              # whirlwind_of_steel, rallying_voice
    keywords = []                               # fear, terror, frenzy, stupidity, ...
    [[fatigue.forces.units.models]]
    name = "Spearman"
    glyph = "s"
    count = 4
    M = 4
    R = 1
    Mo = 3
    Def = 4
    melee = { name = "Spear", A = 1, damage = 1 }

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from engine.board import Board, Cell
from engine.decisions import Procedure
from engine.errors import ScenarioError
from engine.position import Position, PositionError
from engine.ruleset import Outcome, RuleContext, Ruleset, RulesetInfo
from engine.rulesets.fatigue.activation import NEXT
from engine.rulesets.fatigue.deployment import DEPLOYING, FORCES, SETUP_STEPS, Setup
from engine.rulesets.fatigue.evaluation import FatigueEvaluation
from engine.rulesets.fatigue.position import load_fatigue_position
from engine.rulesets.fatigue.reference import quick_reference
from engine.rulesets.fatigue.resume import play_from
from engine.rulesets.fatigue.roster import parse_forces, parse_modules
from engine.rulesets.fatigue.state import FState, Side
from engine.rulesets.fatigue.threat import threat_of
from engine.rulesets.fatigue.turn import ROUND, play_game, play_on
from engine.rulesets.fatigue.viewing import game_view
from engine.scenario import KeySpec, Scenario, check_keys
from engine.threat import Threat
from engine.view import GameView
from engine.wording import counted

_WEAPON: KeySpec = dict.fromkeys(("name", "A", "damage", "range", "unstable"))
SCENARIO_KEYS: KeySpec = {
    **dict.fromkeys(("zones", "forward_zones", "modules")),  # parse_modules names its own
    "forces": {
        **dict.fromkeys(("name", "faction", "points_limit")),
        "units": {
            **dict.fromkeys(("name", "fp", "points", "abilities", "keywords")),
            "models": {
                **dict.fromkeys(("count", "glyph", "name", "M", "R", "Mo", "Def")),
                **dict.fromkeys(("commander", "leader")),
                "melee": _WEAPON,
                "ranged": _WEAPON,
            },
        },
    },
}
"""The keys of a scenario's [fatigue] table, its forces, units, models and weapons."""


class Fatigue(Ruleset):
    """Roads of the Apocalypse: warbands, FP pools and fatigue (digest fatigue)."""

    EVALUATION = FatigueEvaluation()
    INFO: ClassVar[RulesetInfo] = RulesetInfo(
        name="fatigue",
        title="Roads of the Apocalypse",
        version="10",
        digest="shared/rules/fatigue.md",
        aliases=("rota", "roads of the apocalypse", "roads"),
    )

    @staticmethod
    def distance_text(board: Board, a: Cell, b: Cell) -> str:
        """Steps, as every prompt and log line counts (§11.1: 1-2-1 diagonals); the
        status line said '4" from A2'."""
        dx, dy = abs(a.x - b.x), abs(a.y - b.y)
        return counted(max(dx, dy) + min(dx, dy) // 2, "step")

    @classmethod
    def measure(cls, scenario: Scenario) -> Callable[[Board, Cell, Cell], str]:
        """Steps by the scenario's metric: its Chebyshev module counts a diagonal as 1."""
        rules = scenario.rules or {}
        try:
            chebyshev = parse_modules(rules.get("modules"), scenario.source).chebyshev
        except ScenarioError:
            chebyshev = False
        if not chebyshev:
            return cls.distance_text
        return lambda board, a, b: counted(max(abs(a.x - b.x), abs(a.y - b.y)), "step")

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        rules = scenario.rules
        src = scenario.source
        if not rules:
            raise ScenarioError(f"{src}: missing table [fatigue] with forces and zones")
        check_keys(rules, SCENARIO_KEYS, src, "fatigue")
        self.setup = Setup(
            parse_forces(rules.get("forces"), src),
            scenario.zone_pair("zones") or ("", ""),
            scenario.zone_pair("forward_zones", required=False),
        )
        self.state = FState(
            scenario.board,
            (Side(0, scenario.sides[0]), Side(1, scenario.sides[1])),
            parse_modules(rules.get("modules"), src),
            zones={z.name: z.cells for z in scenario.zones},
            rounds=scenario.rounds,
        )
        self.position: Position | None = None

    def load_position(self, position: Position) -> None:
        load_fatigue_position(self.state, self.setup, position)
        self.position = position

    def resume(self, ctx: RuleContext, round_number: int, phase: str) -> Procedure[Outcome]:
        if phase in (*FORCES, "Deployment", *DEPLOYING):  # set-up: before round 1
            return play_game(self.state, ctx, self.setup, phase)
        if phase not in ROUND and phase not in NEXT:
            points = (*FORCES, "Deployment", *DEPLOYING, *ROUND, *NEXT)
            raise PositionError(f"a fatigue game resumes at one of {', '.join(points)}")
        return play_on(self.state, ctx, round_number, phase)

    def play(self, ctx: RuleContext) -> Procedure[Outcome]:
        if self.position is not None and self.position.phase in SETUP_STEPS:
            return (yield from play_game(self.state, ctx, self.setup, self.position.phase))
        if self.position is not None:
            return (yield from play_from(self.state, ctx, self.position.phase))
        return (yield from play_game(self.state, ctx, self.setup))

    def snapshot(self) -> dict[str, Any]:
        return self.state.snapshot()

    def view(self) -> GameView:
        return game_view(self.state, self.setup)

    def threat(self, model_id: str) -> Threat | None:
        model = self.state.models.get(model_id)
        return None if model is None else threat_of(self.state, model)

    def quick_reference(self) -> str:
        return quick_reference(self.setup.forces)
