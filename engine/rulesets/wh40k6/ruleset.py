"""The Warhammer 40,000 6th edition ruleset: scenario data in, a playable game out.

Scenario table ``[wh40k6]`` (every key optional except the forces)::

    mission = 5                   # 1-6, "roll" or "choose" (§4.2, D1)
    deployment = "dawn_of_war"    # a map, "roll" or "choose" (§4.3, D2)
    terrain = "fixed"             # "fixed", "auto", "alternating" or "choose" (§4.5, D5)
    reserves = false              # may units be held in reserve (§4.9, D10)?
    [wh40k6.legend]               # map character -> terrain feature (§4.5)
    W = "woods"
    [[wh40k6.forces]]             # one per side, in the order of ``sides``
    units = [{ unit = "warden_lexicar", warlord = true }, { unit = "warden_squad", name = "Alpha" }]
    fortifications = [[4, 4]]     # optional: buildings to place (§4.4)

``[wh40k6.weapons]``, ``[wh40k6.profiles]`` and ``[wh40k6.units]`` may add to the
default catalogue (`catalogue`) in the same format.

Must not import tui, textual, rich, another ruleset or the registry ``engine.rulesets``.
"""

from __future__ import annotations

import tomllib
from typing import Any, ClassVar

from engine.board import Board, Cell, Terrain
from engine.decisions import Procedure
from engine.errors import ScenarioError
from engine.footprints import footprint_owner
from engine.position import Position, PositionError
from engine.ruleset import Outcome, RuleContext, Ruleset, RulesetInfo
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.catalogue import CATALOGUE
from engine.rulesets.wh40k6.checkup import packed_snapshot, packed_state
from engine.rulesets.wh40k6.deployment import DEPLOYING_ON, DEPLOYING_UNIT
from engine.rulesets.wh40k6.evaluation import Wh40k6Evaluation
from engine.rulesets.wh40k6.parsing import parse_catalogue
from engine.rulesets.wh40k6.position import SETUP, load_wh40k6_position, roll_off_winner
from engine.rulesets.wh40k6.profiles import Catalogue
from engine.rulesets.wh40k6.reference import quick_reference
from engine.rulesets.wh40k6.resume import play_from
from engine.rulesets.wh40k6.setup import SetupOptions
from engine.rulesets.wh40k6.state import Model, Side, State, Unit
from engine.rulesets.wh40k6.threat import threat_of
from engine.rulesets.wh40k6.turn import INSIDE, TURN, play_game, play_setup
from engine.rulesets.wh40k6.view import game_view
from engine.scenario import KeySpec, Scenario, check_keys
from engine.threat import Threat
from engine.view import GameView

DEFAULT_FEATURES = {
    Terrain.BLOCKING: "ruin_wall",
    Terrain.IMPASSABLE: "rock",
    Terrain.DIFFICULT: "woods",
    Terrain.COVER: "barricade",
}
MAP_KEYS = ("dawn_of_war", "hammer_and_anvil", "vanguard_strike")


SCENARIO_KEYS: KeySpec = {
    **dict.fromkeys(("mission", "deployment", "terrain", "reserves", "legend")),
    "weapons": {"*": dict.fromkeys(("name", "type", "range", "strength", "ap", "rules"))},
    "profiles": {
        "*": {
            **dict.fromkeys(("name", "glyph", "type", "vehicle_types", "rules", "mastery")),
            **dict.fromkeys(("ws", "bs", "s", "t", "w", "i", "a", "ld", "sv", "inv")),
            **dict.fromkeys(("av_front", "av_side", "av_rear", "hp", "size", "capacity")),
            "weapons": dict.fromkeys(("weapon", "mount")),
        }
    },
    "units": {
        "*": {
            **dict.fromkeys(("name", "slot", "points")),
            "models": dict.fromkeys(("profile", "count")),
        }
    },
    "forces": {
        "units": dict.fromkeys(("unit", "name", "warlord")),
        "fortifications": None,
    },
}
"""The keys of a scenario's [wh40k6] table, its catalogue (as catalogue.py has it) and
forces."""


class Wh40k6(Ruleset):
    """Warhammer 40,000 6th edition: armies of units, I-go-you-go (digest wh40k6)."""

    EVALUATION = Wh40k6Evaluation()
    EAGER_GAP = 4
    """A wh40k6 choice costs milliseconds to re-run (paths, sight, placements): undo
    starts from a checkpoint written at most this many choices back."""
    INFO: ClassVar[RulesetInfo] = RulesetInfo(
        name="wh40k6",
        title="Warhammer 40,000 (6th edition)",
        version="15",
        digest="shared/rules/wh40k6.md",
        aliases=("40k", "wh40k", "warhammer 40000", "40k6"),
        round_word="Turn",  # the spec's game turn; its log reads "Turn 1, <side>: ... phase"
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        rules = scenario.rules
        src = scenario.source
        if not rules:
            raise ScenarioError(f"{src}: missing table [wh40k6] with the two forces")
        check_keys(rules, SCENARIO_KEYS, src, "wh40k6")
        base = parse_catalogue(CATALOGUE, "<wh40k6 catalogue>")
        catalogue = parse_catalogue(rules, src, base)
        self.catalogue = catalogue
        self.position: Position | None = None
        self.options = _options(rules, src)
        sides = (Side(0, scenario.sides[0]), Side(1, scenario.sides[1]))
        self.state = State(scenario.board, sides)
        self.state.reserves_allowed = bool(rules.get("reserves", False))
        self.state.terrain = _terrain(scenario, rules)
        forces = rules.get("forces")
        if not isinstance(forces, list) or len(forces) != 2:
            raise ScenarioError(
                f"{src}: key 'wh40k6.forces' must list two forces ([[wh40k6.forces]] twice)"
            )
        forts = []
        for seat, force in enumerate(forces):
            forts.append(_force(self.state, catalogue, force, seat, src))
        self.options = SetupOptions(
            self.options.mission,
            self.options.deployment,
            self.options.terrain,
            (forts[0], forts[1]),
        )

    def load_position(self, position: Position) -> None:
        load_wh40k6_position(self.state, self.catalogue, position)
        self.position = position

    def resume(self, ctx: RuleContext, round_number: int, phase: str) -> Procedure[Outcome]:
        if phase in (DEPLOYING_ON, DEPLOYING_UNIT):  # `State.moving` tells the two apart
            return play_setup(self.state, ctx, DEPLOYING_ON, 0)  # the roll-off winner: past use
        if phase not in TURN and phase not in INSIDE:
            points = ", ".join((*TURN, *INSIDE, DEPLOYING_ON, DEPLOYING_UNIT))
            raise PositionError(f"a wh40k6 game resumes at one of {points}")
        self.state.game_turn = round_number
        return play_from(self.state, ctx, phase, checkpoint=True)

    def play(self, ctx: RuleContext) -> Procedure[Outcome]:
        if self.position is not None and self.position.phase in SETUP:
            winner = roll_off_winner(self.position)
            return (yield from play_setup(self.state, ctx, self.position.phase, winner))
        if self.position is not None:
            # Start at the start of the position's phase of its player turn (§5).
            ctx.enter(self.position.round, self.position.phase)
            return (yield from play_from(self.state, ctx, self.position.phase))
        return (yield from play_game(self.state, ctx, self.options))

    def snapshot(self) -> dict[str, Any]:
        return self.state.snapshot()

    def packed_snapshot(self) -> bytes:
        return packed_snapshot(self.state)

    def packed_state(self) -> bytes:
        return packed_state(self.state, (Board, *self.STATIC))

    def view(self) -> GameView:
        return game_view(self.state, self.INFO.round_word)

    def threat(self, model_id: str) -> Threat | None:
        model = self.state.models.get(footprint_owner(model_id))
        return None if model is None else threat_of(self.state, model)

    def quick_reference(self) -> str:
        return quick_reference()


def _options(rules: Any, src: str) -> SetupOptions:
    mission = rules.get("mission", 5)
    if mission not in ("roll", "choose") and (
        not isinstance(mission, int) or mission not in t.MISSIONS
    ):
        raise ScenarioError(f'{src}: key \'wh40k6.mission\' must be 1..6, "roll" or "choose"')
    deployment = rules.get("deployment", "dawn_of_war")
    if deployment not in (*MAP_KEYS, "roll", "choose"):
        raise ScenarioError(
            f"{src}: key 'wh40k6.deployment' must be one of {[*MAP_KEYS, 'roll', 'choose']}"
        )
    terrain = rules.get("terrain", "fixed")
    if terrain not in ("fixed", "auto", "alternating", "choose"):
        raise ScenarioError(
            f"{src}: key 'wh40k6.terrain' must be fixed, auto, alternating or choose"
        )
    return SetupOptions(mission, deployment, terrain)


def _terrain(scenario: Scenario, rules: Any) -> dict[Cell, str]:
    """Feature of every cell, from the map rows and ``[wh40k6.legend]`` (§4.5, §12.4)."""
    src = scenario.source
    legend = rules.get("legend", {})
    if not isinstance(legend, dict) or any(
        not isinstance(v, str) or v not in t.FEATURES for v in legend.values()
    ):
        raise ScenarioError(
            f"{src}: key 'wh40k6.legend' must map map characters to {sorted(t.FEATURES)}"
        )
    rows = tomllib.loads(scenario.text)["map"]["rows"]
    board = scenario.board
    out: dict[Cell, str] = {}
    for line_no, row in enumerate(rows):
        y = board.height - 1 - line_no
        for x, char in enumerate(row):
            cell = Cell(x, y)
            kind = legend.get(char) or DEFAULT_FEATURES.get(board.kind(cell))
            if kind and kind != "open":
                out[cell] = kind
    return out


FORCE_ORG = {
    "HQ": (1, 2),
    "Troops": (2, 6),
    "Elites": (0, 3),
    "Fast Attack": (0, 3),
    "Heavy Support": (0, 3),
    "Fortification": (0, 1),
}
"""Force organisation chart of one detachment (digest §4.11): slot -> (min, max)."""


def _check_force_org(state: State, seat: int, src: str, key: str) -> None:
    """Each army is one legal detachment with at most one Warlord (§4.11)."""
    units = [u for u in state.units.values() if u.player == seat]
    for slot, (low, high) in FORCE_ORG.items():
        count = sum(1 for u in units if u.slot == slot)
        if not low <= count <= high:
            raise ScenarioError(
                f"{src}: key '{key}.units' has {count} {slot} unit(s); the force organisation "
                f"chart allows {low} to {high}"
            )
    if sum(1 for u in units if u.warlord) > 1:
        raise ScenarioError(f"{src}: key '{key}.units' names more than one Warlord")


def _force(
    state: State, catalogue: Catalogue, force: Any, seat: int, src: str
) -> tuple[tuple[int, int], ...]:
    key = f"wh40k6.forces[{seat}]"
    if (
        not isinstance(force, dict)
        or not isinstance(force.get("units"), list)
        or not force["units"]
    ):
        raise ScenarioError(f"{src}: key '{key}.units' must list the army's units")
    for n, item in enumerate(force["units"]):
        unit = item.get("unit") if isinstance(item, dict) else None
        if not isinstance(unit, str) or unit not in catalogue.units:
            raise ScenarioError(
                f"{src}: key '{key}.units[{n}].unit' must name a unit of the catalogue "
                f"({', '.join(sorted(catalogue.units))})"
            )
        entry = catalogue.units[item["unit"]]
        uid = f"{'AB'[seat]}{n + 1}"
        profiles = [p for p, count in entry.models for _ in range(count)]
        unit = Unit(
            uid,
            str(item.get("name", entry.name)),
            seat,
            entry.slot,
            [],
            len(profiles),
            entry.points,
        )
        for k, profile in enumerate(profiles):
            mid = f"{uid}.{k + 1}"
            state.models[mid] = Model(mid, uid, seat, profile, profile.w, hp=profile.hp)
            unit.models.append(mid)
        state.units[uid] = unit
        if item.get("warlord"):
            unit.warlord = True
            state.side(seat).warlord = unit.models[0]
    _check_force_org(state, seat, src, key)
    forts = force.get("fortifications", [])
    if not isinstance(forts, list) or not all(
        isinstance(f, list) and len(f) == 2 and all(isinstance(v, int) and 1 <= v <= 12 for v in f)
        for f in forts
    ):
        raise ScenarioError(
            f"{src}: key '{key}.fortifications' must list [width, height] pairs (1..12)"
        )
    return tuple((f[0], f[1]) for f in forts)
