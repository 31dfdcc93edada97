"""The KillTeam ruleset: scenario data in, a playable game out.

Scenario table ``[killteam]``::

    format = 100                   # points format: 100, 125 or 200 (§4.1)
    zones = ["South", "North"]     # the two deployment zones of the map (§4.4)
    [[killteam.forces]]            # one per side, in the order of ``sides``
    faction = "militia"            # a faction of factions.toml (or of [killteam.factions])
    roster = [{ datasheet = "sergeant", specialism = "Leader", options = ["shock_axe"] }]
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.decisions import Procedure
from engine.errors import ScenarioError
from engine.position import Position, PositionError
from engine.ruleset import Outcome, RuleContext, Ruleset, RulesetInfo
from engine.rulesets.killteam.evaluation import KillTeamEvaluation
from engine.rulesets.killteam.position import load_killteam_position
from engine.rulesets.killteam.profiles import (
    POWERS,
    SPECIALISMS,
    Faction,
    load_factions,
    parse_factions,
    profile_lines,
)
from engine.rulesets.killteam.reference import quick_reference
from engine.rulesets.killteam.roster import RosterEntry, parse_roster, validate_roster
from engine.rulesets.killteam.roster_builder import MIN_MODELS, choose_format, choose_roster
from engine.rulesets.killteam.state import KTState, Model, Team
from engine.rulesets.killteam.threat import threat_of
from engine.rulesets.killteam.turn import PHASES, holds_phase_flags, play_from, play_game
from engine.scenario import KeySpec, Scenario, check_keys
from engine.threat import Threat
from engine.view import GameView, ModelView, SideView

FORMATS = (100, 125, 200)
RESUMABLE = ("Initiative", *(name for name, _ in PHASES))
"""The phases a checkpoint may start at (``ctx.boundary`` in turn.py)."""


_MODE = dict.fromkeys(("type", "abilities", "name", "range", "shots", "S", "AP", "D"))
_WEAPON: KeySpec = {**_MODE, "points": None, "profiles": _MODE}
_SHEET: KeySpec = {
    **dict.fromkeys(("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv", "invuln", "max")),
    **dict.fromkeys(("name", "glyph", "points", "wargear", "specialisms", "powers")),
    **dict.fromkeys(("keywords", "casts", "denies")),
    "options": dict.fromkeys(("replace", "with", "points")),
}
SCENARIO_KEYS: KeySpec = {
    "format": None,
    "zones": None,
    "factions": {"*": {"name": None, "weapons": {"*": _WEAPON}, "datasheets": {"*": _SHEET}}},
    "roster_building": None,
    "forces": {
        "faction": None,
        "roster": dict.fromkeys(("datasheet", "count", "specialism", "options")),
    },
}
"""The keys of a scenario's [killteam] table, its factions (as factions.toml has them)
and forces."""


_Card = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]
"""A model's profile lines and weapon lines (`ModelView.profile`, `.weapons`)."""


class KillTeam(Ruleset):
    """Kill Team (2018): skirmish, every model acts alone (digest killteam)."""

    EVALUATION = KillTeamEvaluation()
    INFO: ClassVar[RulesetInfo] = RulesetInfo(
        name="killteam",
        title="Kill Team (2018)",
        version="12",
        digest="shared/rules/killteam.md",
        aliases=("kill team", "kt", "killteam2018"),
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        rules = scenario.rules
        src = scenario.source
        if not rules:
            raise ScenarioError(f"{src}: missing table [killteam] with forces and zones")
        check_keys(rules, SCENARIO_KEYS, src, "killteam")
        self.format = rules.get("format", 100)
        if self.format not in FORMATS:
            raise ScenarioError(f"{src}: key 'killteam.format' must be one of {FORMATS}")
        self.zones = _pair(scenario)
        factions = dict(load_factions())
        if "factions" in rules:
            factions.update(parse_factions(rules["factions"], src))
        forces = rules.get("forces")
        if not isinstance(forces, list) or len(forces) != 2:
            raise ScenarioError(
                f"{src}: key 'killteam.forces' must list two forces ([[killteam.forces]] twice)"
            )
        self.position: Position | None = None
        self.roster_building = rules.get("roster_building", False)
        if not isinstance(self.roster_building, bool):
            raise ScenarioError(f"{src}: key 'killteam.roster_building' must be true or false")
        teams: list[Team] = []
        self.prepared: list[list[RosterEntry]] = []
        self.factions: list[Faction] = []
        for seat, force in enumerate(forces):
            team, entries = _force(force, seat, factions, scenario, self.format)
            teams.append(team)
            self.prepared.append(entries)
            self.factions.append(factions[team.faction])
        self.state = KTState(
            scenario.board,
            (teams[0], teams[1]),
            {},
            zones={z.name: z.cells for z in scenario.zones},
            rounds=scenario.rounds,
        )
        for seat, entries in enumerate(self.prepared):
            self._field(seat, entries)
        self.rostered: frozenset[int] = frozenset()
        """The seats whose roster is chosen (`_choose_rosters`); replaced, never changed,
        as a `fork` shares it."""
        self._cards: dict[str, tuple[object, object, _Card]] = {}
        """Model id -> (its datasheet, its weapons, their lines in the view): they never
        change in play, and writing them afresh was most of a view (one per choice in
        every session watching a hosted game). Forks share it: entries are checked by
        the identity of the sheet and weapons they were written from."""

    def load_position(self, position: Position) -> None:
        load_killteam_position(self.state, position, (self.factions[0], self.factions[1]))
        self.position = position

    def resume(self, ctx: RuleContext, round_number: int, phase: str) -> Procedure[Outcome]:
        if phase not in RESUMABLE:
            raise PositionError(f"a Kill Team game resumes at one of {', '.join(RESUMABLE)}")
        ctx.enter(round_number, phase)
        return play_from(self.state, ctx, round_number, phase)

    def play(self, ctx: RuleContext) -> Procedure[Outcome]:
        if self.position is not None and self.position.phase == "Deployment":
            # The start of the game (§4.3, §4.4): starting CP, roll-off, placing the models.
            return (yield from play_game(self.state, ctx, self.zones))
        if self.position is not None:
            ctx.enter(self.position.round, self.position.phase)
            round_number, phase = self.position.round, self.position.phase
            held = holds_phase_flags(self.state)
            return (yield from play_from(self.state, ctx, round_number, phase, held=held))
        if self.roster_building:
            yield from self._choose_rosters(ctx)
        return (yield from play_game(self.state, ctx, self.zones))

    def _choose_rosters(self, ctx: RuleContext) -> Procedure[None]:
        """§4.1-§4.2 at the table: agree a format, then keep or build each roster."""
        self.state.phase = "Rosters"
        ctx.enter(0, "Rosters")
        limit = yield from choose_format(ctx, self.format)
        for seat in (0, 1):
            roster = yield from choose_roster(
                ctx,
                seat,
                self.factions[seat],
                self.prepared[seat],
                limit,
                self.state.team(seat).name,
            )
            self._field(seat, roster)
            self.rostered |= {seat}

    def _field(self, seat: int, entries: list[RosterEntry]) -> None:
        """Replace a team's models with ``entries`` (ids A1.. / B1..)."""
        models = self.state.models
        for mid in [m for m, model in models.items() if model.player == seat]:
            del models[mid]
        for n, entry in enumerate(entries, start=1):
            mid = f"{'AB'[seat]}{n}"
            models[mid] = Model(
                mid, seat, entry.sheet, entry.weapons, entry.specialism, entry.sheet.W
            )
        team = self.state.team(seat)
        team.points = sum(e.points for e in entries)
        team.start_count = len(entries)

    def snapshot(self) -> dict[str, Any]:
        return self.state.snapshot()

    def view(self) -> GameView:
        s = self.state
        sides = tuple(
            SideView(
                t.player,
                t.name,
                (
                    ("CP", str(t.cp)),
                    ("Models", self._models_text(t)),
                    ("Broken", "yes" if t.broken else "no"),
                    ("Initiative", "yes" if s.round and s.initiative == t.player else "-"),
                ),
                t.vp,
            )
            for t in s.teams
        )
        models = tuple(
            ModelView(
                m.id,
                m.player,
                m.name,
                m.sheet.glyph,
                m.cell,
                m.wounds,
                m.sheet.W,
                m.states(),
                *self._card(m),
                removed=m.out_of_action,
            )
            for m in s.models.values()
        )
        zones = tuple(
            (t.zone or name, s.zones[t.zone or name])
            for t, name in zip(s.teams, self.zones, strict=True)
        )
        return GameView(
            s.round,
            s.phase,
            s.shown_step(),
            (sides[0], sides[1]),
            models,
            zones if s.phase == "Deployment" else (),
        )

    def _models_text(self, team: Team) -> str:
        """On the table of the team's models; while rosters are built, what the roster
        rules ask (at least 3, no most, §4.2) until the team's roster is chosen: "0/10"
        there, the scenario's own roster, read as a cap of 10."""
        if self.state.phase != "Rosters":
            return f"{len(self.state.on_table(team.player))}/{team.start_count}"
        return str(team.start_count) if team.player in self.rostered else f"min {MIN_MODELS}"

    def _card(self, model: Model) -> _Card:
        """``model``'s profile and weapon lines, as the view shows them."""
        cached = self._cards.get(model.id)
        if cached is not None and cached[0] is model.sheet and cached[1] is model.weapons:
            return cached[2]
        card = (
            profile_lines(model.sheet),
            tuple(p.describe() for w in model.weapons for p in w.profiles),
        )
        self._cards[model.id] = (model.sheet, model.weapons, card)
        return card

    def threat(self, model_id: str) -> Threat | None:
        model = self.state.models.get(model_id)
        return None if model is None else threat_of(self.state, model)

    def quick_reference(self) -> str:
        return quick_reference(POWERS, SPECIALISMS)


def _force(
    force: Any, seat: int, factions: dict[str, Faction], scenario: Scenario, limit: int
) -> tuple[Team, list[RosterEntry]]:
    src = scenario.source
    key = f"killteam.forces[{seat}]"
    if not isinstance(force, dict):
        raise ScenarioError(f"{src}: key '{key}' must be a table")
    fid = force.get("faction")
    if not isinstance(fid, str) or fid not in factions:
        raise ScenarioError(
            f"{src}: key '{key}.faction': unknown faction {fid!r} "
            f"(use one of: {', '.join(factions)})"
        )
    faction = factions[fid]
    entries = parse_roster(force.get("roster"), faction, src, f"{key}.roster")
    problems = validate_roster(entries, limit)
    if problems:
        raise ScenarioError(
            f"{src}: key '{key}.roster' breaks the roster rules: " + "; ".join(problems)
        )
    points = sum(e.points for e in entries)
    team = Team(seat, scenario.sides[seat], fid, points=points, start_count=len(entries))
    return team, entries


def _pair(scenario: Scenario) -> tuple[str, str]:
    pair = scenario.zone_pair()
    assert pair is not None  # required
    return pair
