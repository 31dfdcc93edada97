"""The Confrontation ruleset: scenario data in, a playable game out (digest confrontation).

Scenario table ``[confrontation]``::

    zones = ["South", "North"]       # deployment zones of the map, seat 1 then seat 2
    budget = 100                     # army points per side (§4.1, FILL-IN 100)
    [[confrontation.profiles]]       # reference cards' characteristics (§3.1)
    id = "spearman"  name = "Lantern Spearman"  glyph = "s"  hero = false
    mov = 10  ini = 3  att = 3  str = 4  def = 3  res = 3  aim = "-"  dis = 2
    size = "medium"  ap = 12         # optional: skills, special_cards_without_cost,
                                     # removed_equipment = { steam = 2 }, weapon = {...}
    [[confrontation.forces]]         # one per side, in the order of ``sides``
    cards = [{ id = "A2", profile = "spearman", count = 3 }]
    # ... or, to build the armies at the table (D1, D2):
    # roster = ["aldric", "spearman"]  # the profiles this side may choose from
    # budgets = [75, 100, 150]         # in [confrontation]: budgets the players may propose

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.board import Board, Cell
from engine.decisions import Procedure
from engine.errors import ScenarioError
from engine.hidden import SecretStack
from engine.position import Position, PositionError
from engine.ruleset import Outcome, RuleContext, Ruleset, RulesetInfo
from engine.rulesets.confrontation.evaluation import ConfrontationEvaluation
from engine.rulesets.confrontation.geometry import range_gap
from engine.rulesets.confrontation.muster import muster_armies
from engine.rulesets.confrontation.position import load_confrontation_position
from engine.rulesets.confrontation.profiles import (
    Profile,
    parse_profile,
    profile_lines,
    show_cells,
)
from engine.rulesets.confrontation.reference import quick_reference
from engine.rulesets.confrontation.state import Card, CState, Fighter, Side
from engine.rulesets.confrontation.tables import Wound
from engine.rulesets.confrontation.threat import threat_of
from engine.rulesets.confrontation.turn import play_game
from engine.scenario import KeySpec, Scenario, check_keys
from engine.threat import Threat
from engine.view import GameView, ModelView, SideView

RESUMABLE = ("Strategic", "Activation", "Combat")
"""The phases a checkpoint may start at (``ctx.boundary`` in turn.py)."""


SCENARIO_KEYS: KeySpec = {
    **dict.fromkeys(("zones", "budget", "budgets")),
    "profiles": {
        **dict.fromkeys(("id", "name", "glyph", "size", "base", "removed_equipment", "hero")),
        **dict.fromkeys(("mov", "ini", "att", "str", "def", "res", "aim", "dis", "fea", "cou")),
        **dict.fromkeys(("ap", "skills", "special_cards_without_cost", "rank")),
        "weapon": dict.fromkeys(("name", "ranges", "str")),
    },
    "forces": {"roster": None, "cards": dict.fromkeys(("id", "profile", "count"))},
}
"""The keys of a scenario's [confrontation] table, its profiles and forces."""


class Confrontation(Ruleset):
    """Confrontation 3rd edition, starter rules: individual fighters activated by cards."""

    EVALUATION = ConfrontationEvaluation()
    INFO: ClassVar[RulesetInfo] = RulesetInfo(
        name="confrontation",
        title="Confrontation 3 (Rackham)",
        version="13",
        digest="shared/rules/confrontation.md",
        aliases=("confrontation3", "rackham"),
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        src = scenario.source
        rules = scenario.rules
        if not rules:
            raise ScenarioError(f"{src}: missing table [confrontation] with profiles and forces")
        check_keys(rules, SCENARIO_KEYS, src, "confrontation")
        zones = scenario.zone_pair()
        assert zones is not None  # required
        budget = rules.get("budget", 100)
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
            raise ScenarioError(f"{src}: key 'confrontation.budget' must be a positive integer")
        profiles = _profiles(rules.get("profiles"), src)
        forces = rules.get("forces")
        if not isinstance(forces, list) or len(forces) != 2:
            raise ScenarioError(
                f"{src}: key 'confrontation.forces' must list two forces "
                "([[confrontation.forces]] twice)"
            )
        cards: dict[str, Card] = {}
        fighters: dict[str, Fighter] = {}
        sides = []
        self.rosters = _rosters(forces, profiles, src)
        self.budget = budget
        self.budgets = _budgets(rules.get("budgets", []), src)
        cheapest = min(p.ap for p in profiles.values())
        if any(b < cheapest for b in self.budgets):
            raise ScenarioError(
                f"{src}: key 'confrontation.budgets': every budget must buy at least one "
                f"fighter (the cheapest costs {cheapest} AP)"
            )
        for seat, force in enumerate(forces):
            ids = (
                [] if self.rosters else _force(force, seat, profiles, budget, src, cards, fighters)
            )
            sides.append(Side(seat, scenario.sides[seat], ids, SecretStack(seat), zones[seat]))
        self.state = CState(
            scenario.board,
            (sides[0], sides[1]),
            fighters,
            cards,
            zones={z.name: z.cells for z in scenario.zones},
            rounds=scenario.rounds,
        )
        self.profiles = profiles
        self._lines = {pid: profile_lines(p) for pid, p in profiles.items()}
        self.position: Position | None = None

    def load_position(self, position: Position) -> None:
        load_confrontation_position(self.state, position, self.profiles)
        self.position = position

    def resume(self, ctx: RuleContext, round_number: int, phase: str) -> Procedure[Outcome]:
        if phase not in RESUMABLE:
            raise PositionError(f"a Confrontation game resumes at one of {', '.join(RESUMABLE)}")
        self.state.round = round_number
        return play_game(self.state, ctx, phase)

    def play(self, ctx: RuleContext) -> Procedure[Outcome]:
        if self.position is not None:
            phase, fighters = self.position.phase, self.state.fighters.values()
            held = any(
                (f.engaged and phase == "Activation") or (f.fought and phase == "Combat")
                for f in fighters
            )
            return (yield from play_game(self.state, ctx, phase, held=held))
        if self.rosters:
            yield from muster_armies(self.state, ctx, self.rosters, self.budget, self.budgets)
        return (yield from play_game(self.state, ctx))

    def snapshot(self) -> dict[str, Any]:
        return self.state.snapshot()

    def conceal(self, viewer: int, seed: int) -> None:
        """The other side's face-down activation deck gets a guessed order."""
        for side in self.state.sides:
            side.deck.guess(viewer, seed)

    def view(self) -> GameView:
        s = self.state
        sides = tuple(_side_view(s, side) for side in s.sides)
        models = tuple(_model_view(f, self._lines) for f in s.fighters.values())
        zones = tuple((side.zone, s.zones[side.zone]) for side in s.sides)
        return GameView(
            s.round,
            s.phase,
            s.step,
            (sides[0], sides[1]),
            models,
            zones if s.phase == "Deployment" else (),
        )

    def threat(self, model_id: str) -> Threat | None:
        fighter = self.state.fighters.get(model_id)
        return None if fighter is None else threat_of(self.state, fighter)

    @staticmethod
    def distance_text(board: Board, a: Cell, b: Cell) -> str:
        """Edge to edge, as ranges are measured (§11), in cm with cells in brackets; no
        gap is contact ("0 cm (0 cells) from A1" read as a measuring fault)."""
        gap = range_gap(a, b)
        return show_cells(gap) if gap else "0 cm (in contact)"

    def quick_reference(self) -> str:
        return quick_reference(list(self.profiles.values()))


def _side_view(s: CState, side: Side) -> SideView:
    """Public side information: deck size and revealed cards only, never the hidden order."""
    left, revealed = side.deck.public()
    alive = len([f for f in s.fighters_of(side.player) if f.alive])
    total = len(s.fighters_of(side.player))
    return SideView(
        side.player,
        side.name,
        (
            ("Cards face down", str(left)),
            ("Revealed", ", ".join(revealed) or "-"),
            ("Fighters", f"{alive}/{total}"),
            ("Tactical roll", "won" if _won_tactical(s, side.player) else "-"),
        ),
        s.lost_ap(1 - side.player),
    )


def _won_tactical(s: CState, player: int) -> bool:
    """This round's Tactical roll is decided and ``player`` won it (in the Strategic phase
    it is still to come: the winner kept is the last round's, or deployment's)."""
    done = bool(s.round) and s.phase != "Strategic" and not s.tactical_open
    return done and s.tactical_winner == player


def _model_view(f: Fighter, lines: dict[str, tuple[tuple[str, str], ...]]) -> ModelView:
    weapon = f.profile.weapon
    return ModelView(
        f.id,
        f.player,
        f.name,
        f.profile.glyph,
        f.cell,
        Wound.KILLED - f.wound,
        int(Wound.KILLED),
        f.states(),
        lines[f.profile.id],
        (weapon.describe(),) if weapon else (),
        facing=f.facing if f.cell is not None else None,
        removed=not f.alive,
    )


def _rosters(
    forces: list[Any], profiles: dict[str, Profile], src: str
) -> tuple[list[Profile], list[Profile]] | None:
    """The profiles each side may muster, or None when the scenario fixes the cards."""
    kinds = ["roster" in f if isinstance(f, dict) else False for f in forces]
    if not any(kinds):
        return None
    if not all(kinds):
        raise ScenarioError(
            f"{src}: key 'confrontation.forces': give both sides 'cards' or both 'roster'"
        )
    out = []
    for seat, force in enumerate(forces):
        raw = force["roster"]
        key = f"confrontation.forces[{seat}].roster"
        if (
            not isinstance(raw, list)
            or not raw
            or any(not isinstance(r, str) or r not in profiles for r in raw)
        ):
            raise ScenarioError(f"{src}: key '{key}' must list known profile ids")
        out.append([profiles[r] for r in raw])
    return out[0], out[1]


def _budgets(raw: Any, src: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or not all(
        isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in raw
    ):
        raise ScenarioError(f"{src}: key 'confrontation.budgets' must list positive integers")
    return tuple(raw)


def _profiles(raw: Any, src: str) -> dict[str, Profile]:
    if not isinstance(raw, list) or not raw:
        raise ScenarioError(f"{src}: key 'confrontation.profiles' must be an array of tables")
    out: dict[str, Profile] = {}
    for i, spec in enumerate(raw):
        p = parse_profile(spec, f"{src}: key 'confrontation.profiles[{i}]'")
        if p.id in out:
            raise ScenarioError(f"{src}: key 'confrontation.profiles[{i}].id' repeats {p.id!r}")
        out[p.id] = p
    return out


def _force(
    force: Any,
    seat: int,
    profiles: dict[str, Profile],
    budget: int,
    src: str,
    cards: dict[str, Card],
    fighters: dict[str, Fighter],
) -> list[str]:
    """One side's cards and fighters (§4.1 steps 2-3, A36: grouping fixed for the game)."""
    key = f"confrontation.forces[{seat}].cards"
    raw = force.get("cards") if isinstance(force, dict) else None
    if not isinstance(raw, list) or not raw:
        raise ScenarioError(f"{src}: key '{key}' must list the side's reference cards")
    ids, total = [], 0
    for i, spec in enumerate(raw):
        where = f"{src}: key '{key}[{i}]'"
        if not isinstance(spec, dict):
            raise ScenarioError(f"{where} must be a table {{ id, profile, count }}")
        cid, pid, count = spec.get("id"), spec.get("profile"), spec.get("count", 1)
        if not isinstance(cid, str) or not cid or cid in cards:
            raise ScenarioError(f"{where}.id must be a new, non-empty card id")
        if not isinstance(pid, str) or pid not in profiles:
            raise ScenarioError(f"{where}.profile: unknown profile {pid!r}")
        profile = profiles[pid]
        limit = 1 if profile.is_hero else 3
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= limit:
            raise ScenarioError(
                f"{where}.count must be 1..{limit} (a card holds 1-3 fighters; heroes alone)"
            )
        fids = tuple(cid if count == 1 else f"{cid}.{n}" for n in range(1, count + 1))
        for fid in fids:
            fighters[fid] = Fighter(fid, seat, cid, profile)
        cards[cid] = Card(cid, seat, profile, fids)
        ids.append(cid)
        total += profile.ap * count
    if total > budget:
        raise ScenarioError(f"{src}: key '{key}' costs {total} AP, over the budget of {budget}")
    return ids
