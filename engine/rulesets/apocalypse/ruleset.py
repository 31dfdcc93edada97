"""The Apocalypse ruleset: scenario data in, a playable game out (digest apocalypse).

See `engine.rulesets.apocalypse.roster` for the scenario table ``[apocalypse]``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.board import Cell
from engine.cards import Deck
from engine.decisions import Procedure
from engine.dice import face
from engine.errors import ScenarioError
from engine.footprints import Rect, footprint_owner, footprint_views, square
from engine.position import Position, PositionError
from engine.ruleset import Outcome, RuleContext, Ruleset, RulesetInfo
from engine.rulesets.apocalypse.assets import card_name, deck_cards
from engine.rulesets.apocalypse.command import command_ranges, needs_marker
from engine.rulesets.apocalypse.evaluation import ApocalypseEvaluation
from engine.rulesets.apocalypse.position import Dealing, load_apocalypse_position, stack
from engine.rulesets.apocalypse.profiles import (
    DATASHEET_KEYS,
    Datasheet,
    load_catalogue,
    parse_datasheets,
    profile_lines,
)
from engine.rulesets.apocalypse.reference import quick_reference
from engine.rulesets.apocalypse.roster import build_army
from engine.rulesets.apocalypse.roster_builder import RosterRules, choose_rosters
from engine.rulesets.apocalypse.state import DESTROYED, ORDERS, ApocState, Detachment, Side, Unit
from engine.rulesets.apocalypse.terrain import TerrainMap
from engine.rulesets.apocalypse.threat import threat_of
from engine.rulesets.apocalypse.turn import PHASES, play_from, play_game
from engine.rulesets.apocalypse.view import terrain_views, unit_notes
from engine.scenario import KeySpec, Scenario, check_keys
from engine.threat import Threat
from engine.view import GameView, ModelView, SideView, TerrainView

PHASE_NAMES = tuple(name for name, _ in PHASES)


SCENARIO_KEYS: KeySpec = {
    **dict.fromkeys(("zones", "points", "max_detachments", "roster_building")),
    "datasheets": DATASHEET_KEYS,
    "forces": {
        "faction": None,
        "detachments": {
            "name": None,
            "units": dict.fromkeys(("datasheet", "name", "start", "at", "commander")),
        },
    },
}
"""The keys of a scenario's [apocalypse] table, its forces, detachments and units."""


def deck_seed(seed: int) -> int:
    """The seed the asset decks shuffle by, kept in the state and so in its checkpoints,
    which msgpack packs only as 64-bit integers: a game seed that fits is itself (every
    save made so far shuffles as before), a larger one, such as the secret 128-bit seed a
    game gets without --seed, is hashed down to 64 bits."""
    return seed if 0 <= seed < 1 << 64 else face(seed, 0, 1 << 64) - 1


class Apocalypse(Ruleset):
    """Warhammer 40,000: Apocalypse (2019): detachments, secret orders, blast markers."""

    EVALUATION = ApocalypseEvaluation()
    INFO: ClassVar[RulesetInfo] = RulesetInfo(
        name="apocalypse",
        title="Warhammer 40,000: Apocalypse (2019)",
        version="13",
        digest="shared/rules/apocalypse.md",
        aliases=("40k apocalypse", "apoc"),
        round_word="Turn",  # the spec's word (§5.3): "Turn 1 begins with the Initiative phase"
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        self._ranges: dict[tuple[str, Rect], frozenset[Cell]] = {}
        """Command-range cells by Commander and footprint (the view's cache)."""
        self._notes: dict[str, tuple[str, ...]] = {}
        """Card notes by datasheet id (datasheets never change)."""
        self._terrain: tuple[TerrainView, ...] | None = None
        """The map's terrain pieces (the map never changes)."""
        rules = scenario.rules
        src = scenario.source
        if not rules:
            raise ScenarioError(f"{src}: missing table [apocalypse] with zones and forces")
        check_keys(rules, SCENARIO_KEYS, src, "apocalypse")
        sheets = load_catalogue()
        if "datasheets" in rules:
            sheets.update(parse_datasheets(rules["datasheets"], src, "apocalypse.datasheets."))
        zones = _zones(rules, scenario)
        forces = rules.get("forces")
        if not isinstance(forces, list) or len(forces) != 2:
            raise ScenarioError(
                f"{src}: key 'apocalypse.forces' must list two forces ([[apocalypse.forces]] twice)"
            )
        max_dets = rules.get("max_detachments", 4)
        if not isinstance(max_dets, int) or not 1 <= max_dets <= 100:
            raise ScenarioError(f"{src}: key 'apocalypse.max_detachments' must be 1..100")
        self.roster_rules = _roster_rules(rules, sheets, max_dets, src)
        units: dict[str, Unit] = {}
        dets: dict[str, Detachment] = {}
        sides: list[Side] = []
        for seat, force in enumerate(forces):
            faction, army_dets, army_units = build_army(
                force, seat, sheets, src, max_detachments=max_dets
            )
            points = sum(u.sheet.points for u in army_units)
            limit = rules.get("points")
            if isinstance(limit, int) and points > limit:
                raise ScenarioError(
                    f"{src}: key 'apocalypse.forces[{seat}]': {points} points exceed the "
                    f"limit of {limit} (key 'apocalypse.points')"
                )
            dets.update((d.id, d) for d in army_dets)
            units.update((u.uid, u) for u in army_units)
            deck = Deck(seat, f"assets-{seat}", deck_cards())
            sides.append(Side(seat, scenario.sides[seat], faction, deck, points=points))
        self.state = ApocState(
            TerrainMap(scenario.board),
            units,
            dets,
            (sides[0], sides[1]),
            zones,
            rounds=scenario.rounds,
        )
        _check_placements(self.state, src)
        self.position: Position | None = None
        self._deal = Dealing((0, 0), ((), ()))
        """Asset cards still to deal from the shuffled decks (a position's hand counts)."""

    def load_position(self, position: Position) -> None:
        self._deal = load_apocalypse_position(self.state, position)
        self.position = position

    STATIC = (TerrainMap,)

    def resume(self, ctx: RuleContext, round_number: int, phase: str) -> Procedure[Outcome]:
        if phase not in PHASE_NAMES:
            raise PositionError(f"an Apocalypse game resumes at one of {', '.join(PHASE_NAMES)}")
        return play_from(self.state, ctx, round_number, phase)

    def play(self, ctx: RuleContext) -> Procedure[Outcome]:
        self.state.seed = deck_seed(ctx.dice.seed)
        for side in self.state.sides:
            side.deck.shuffle(self.state.seed)
        if self.position is not None:
            for side, count, top in zip(
                self.state.sides, self._deal.deal, self._deal.top, strict=True
            ):
                stack(side.deck, top)
                side.deck.draw(count, self.state.seed)
            if self.position.phase == "Deployment":
                return (yield from play_game(self.state, ctx))
            start = (self.position.round, self.position.phase)
            return (yield from play_from(self.state, ctx, *start))
        if self.roster_rules is not None:
            ctx.enter(0, "Setup")
            yield from choose_rosters(self.state, ctx, self.roster_rules)
        return (yield from play_game(self.state, ctx))

    def snapshot(self) -> dict[str, Any]:
        return self.state.snapshot()

    def conceal(self, viewer: int, seed: int) -> None:
        """The other side's face-down orders, its hand and whether it has gone quiet on
        assets are guessed; nobody's draw pile order or future shuffles are known."""
        s = self.state
        s.seed = seed
        for side in s.sides:
            side.deck.guess(viewer, seed)
            if side.player != viewer:
                side.assets_quiet = False
        hidden = sorted(
            d.name
            for d in s.detachments.values()
            if d.owner != viewer and d.order is not None and not d.order_revealed
        )
        for det in s.detachments.values():
            if det.name in hidden:
                det.order = ORDERS[face(seed, hidden.index(det.name), len(ORDERS)) - 1]

    def view(self) -> GameView:
        s = self.state
        sides = tuple(_side_view(s, side) for side in s.sides)
        models: list[ModelView] = []
        names = {uid: u.name for uid, u in s.units.items()}
        for unit in s.units.values():
            det = s.detachment_of(unit)
            order = det.order if det.order_revealed and unit.is_commander else None
            view = ModelView(
                unit.uid,
                unit.owner,
                unit.name,
                unit.sheet.glyph,
                unit.anchor if unit.on_battlefield else None,
                max(0, unit.sheet.wounds - unit.damage),
                unit.sheet.wounds,
                (det.name, *unit.states(order, names), *_command_state(s, unit)),
                profile_lines(unit.sheet),
                tuple(w.describe() for w in unit.sheet.weapons),
                removed=unit.location == DESTROYED,
                notes=self._card_notes(unit.sheet),
            )
            if unit.on_battlefield and unit.anchor is not None and unit.sheet.footprint > 1:
                models.extend(footprint_views(view, square(unit.anchor, unit.sheet.footprint)))
            else:
                models.append(view)
        zones = tuple(
            (s.side(p).name, s.zones[p]) for p in (0, 1) if s.phase == "Deployment" and s.zones[p]
        )
        return GameView(
            s.turn,
            s.phase,
            s.step,
            (sides[0], sides[1]),
            tuple(models),
            zones,
            self._terrain_views(),
            ranges=command_ranges(s, self._ranges),
            round_word=self.INFO.round_word,
        )

    def _card_notes(self, sheet: Datasheet) -> tuple[str, ...]:
        found = self._notes.get(sheet.id)
        if found is None:
            found = self._notes[sheet.id] = unit_notes(sheet)
        return found

    def _terrain_views(self) -> tuple[TerrainView, ...]:
        if self._terrain is None:
            self._terrain = terrain_views(self.scenario.board)
        return self._terrain

    def threat(self, model_id: str) -> Threat | None:
        unit = self.state.units.get(footprint_owner(model_id))
        return None if unit is None else threat_of(self.state, unit)

    def quick_reference(self) -> str:
        return quick_reference()


def _command_state(s: ApocState, unit: Unit) -> tuple[str, ...]:
    """ "out of command range" for a unit that would get a Deserter marker now (§6.3.1)."""
    if needs_marker(s, unit) and not unit.deserter:
        return ("out of command range",)
    return ()


def _side_view(s: ApocState, side: Side) -> SideView:
    hand, pile, discard = side.deck.public()
    units = s.units_of(side.player)
    alive = sum(u.alive for u in units)
    reserve = sum(1 for u in units if u.alive and s.in_reserve(u))
    return SideView(
        side.player,
        side.name,
        (
            ("Initiative", "yes" if s.turn and s.initiative == side.player else "-"),
            # While the rosters are chosen (secret until both are) the units are not known:
            # the prepared roster's "0/7" stood beside a player building five.
            ("Units", "-" if s.phase == "Setup" else f"{alive}/{len(units)}"),
            ("Reserve", str(reserve)),
            ("Assets", f"{hand} in hand, {pile} in deck"),
            ("Discards", _discards(discard)),
        ),
        side.vp,
    )


def _discards(pile: tuple[str, ...]) -> str:
    """The public discard pile as names with counts (§10 A11), "-" when empty."""
    counts: dict[str, int] = {}
    for card in pile:
        counts[card_name(card)] = counts.get(card_name(card), 0) + 1
    return ", ".join(f"{n} x{c}" if c > 1 else n for n, c in counts.items()) or "-"


def _roster_rules(
    rules: Any, sheets: dict[str, Datasheet], max_dets: int, src: str
) -> RosterRules | None:
    """``roster_building = true`` offers §7 #1 at the table; it needs a points limit."""
    building = rules.get("roster_building", False)
    if not isinstance(building, bool):
        raise ScenarioError(f"{src}: key 'apocalypse.roster_building' must be true or false")
    if not building:
        return None
    points = rules.get("points")
    if not isinstance(points, int) or isinstance(points, bool) or points < 1:
        raise ScenarioError(
            f"{src}: key 'apocalypse.points' must be a positive points limit when "
            "'apocalypse.roster_building' is true"
        )
    return RosterRules(sheets, points, max_dets, src)


def _zones(rules: Any, scenario: Scenario) -> tuple[frozenset[Cell], frozenset[Cell]]:
    pair = scenario.zone_pair()
    assert pair is not None  # required
    return scenario.zone(pair[0]).cells, scenario.zone(pair[1]).cells


def _check_placements(state: ApocState, src: str) -> None:
    """Units the scenario places (``at``) must stand on legal, unshared cells."""
    taken: dict[Cell, str] = {}
    for unit in state.units.values():
        if unit.start.count(",") != 1:
            continue
        x, y = (int(v) for v in unit.start.split(","))
        rect = square(Cell(x, y), unit.sheet.footprint)
        if rect.x0 < 0 or rect.y0 < 0 or rect.x1 >= state.cols or rect.y1 >= state.rows:
            raise ScenarioError(f"{src}: {unit.name} 'at' [{x}, {y}] lies off the map")
        terrain = state.terrain
        blocked = (
            terrain.impassable if "INFANTRY" in unit.sheet.keywords else terrain.impassable_or_ruins
        )
        if blocked.any_in(rect):
            raise ScenarioError(f"{src}: {unit.name} 'at' [{x}, {y}] stands on forbidden terrain")
        for cell in rect.cells():
            if cell in taken:
                raise ScenarioError(f"{src}: {unit.name} 'at' [{x}, {y}] overlaps {taken[cell]}")
            taken[cell] = unit.name
