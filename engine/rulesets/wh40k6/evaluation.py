"""What the Warhammer 40,000 (6th edition) computer player counts (engine.bot.evaluation).

Victory points; models left weighted by their wounds or hull points (a vehicle's hull
points stand for its worth, once however many cells its hull covers), the Warlord double
since Slay the Warlord scores; objective markers held as the rules hold them (a model
within 3" and no enemy model within 3", digest wh40k6 §4.6); The Relic (mission 6) as an
objective where the view shows it, on the ground or with its carrier, and carrying it;
and its own models being near the markers (or the enemy when there are none), in cover, the Warlord
kept out of reach. Ending a phase is weighed by the look-ahead only when the quick worth
finds it close (`stops`). The normal player moves a unit where this evaluation, with the
whole unit standing there, likes it best among the best cells by the quick worth
(`moves`, `alongside`); a charge counts what its blows do once it arrives
(`option_worth`); a marker is placed near the placing side's deployment zone (`camps`).
Models with an enemy in reach of their guns count for their side (`threats`: the normal
player's look-ahead and moves only).
"""

from __future__ import annotations

from fractions import Fraction

from engine.board import Board, Cell, distance
from engine.bot.evaluation import SCALE, Evaluation
from engine.decisions import Decision, Option
from engine.footprints import footprint_owner
from engine.rulesets.wh40k6.fight_odds import BLOW, LOSES, WINS
from engine.rulesets.wh40k6.view import CARRIES_RELIC, RELIC_ZONE
from engine.view import GameView, ModelView

IN_RANGE = SCALE // 5
"""Worth of a model with an enemy in reach of its gun (`threats`)."""

HOPELESS = Fraction(1, 20)
"""A charge whose blows get through less often than this is not made: a Horde mob
charged bikes (a blow in 36 through), lost the fight and was swept away."""


class Wh40k6Evaluation(Evaluation):
    name = "wh40k6"
    counts = (
        "victory points (10 models each)",
        "models left, by wounds or hull points (Warlord double)",
        'objectives held: a model within 3" and no enemy model within 3"',
        "the Relic: held as an objective where it lies or is carried, carrying it",
        "nearness to objectives (or the enemy), cover, Warlord away from enemies",
        "a charge: its chance and its fight's (none where its blows barely get through "
        "or the fight is more likely lost)",
        "models with an enemy in reach of their longest gun (normal only)",
    )
    hold_range = 3
    contest = True
    stops = False
    """Weighing the end of the phase against every move and shot lost it whole phases: a
    look-ahead that ends the Movement phase reaches the next phase's shots that a move has
    no choices left to see (seeds 1-12: 10 won, 2 drawn against random, 8 won without;
    6 won against easy, 4 without)."""
    rivals_approach = False
    """Closeness counts for its own models only: with no markers (Purge the Alien) a
    squad closing in on a bigger mob scored as a loss, the mob's closeness counted too,
    and normal held back (against easy, seeds 6000-6019: 5-8-7 with it, 7-6-7 without;
    7000-7020: 5 won and 7 lost with it, 6 won and 5 lost without)."""
    moves = "shortlist"
    """Seeds 2000-2019 against easy: 5 won, 12 lost, 3 drawn by the quick worth; 9 won,
    11 lost weighed by this evaluation (with markers placed by `camps`: 10-6-4)."""
    budget = 36
    """Its choices cost the most to play (paths, sight lines of whole units): four
    look-aheads a decision at most."""
    relic_weight = 2 * Evaluation.hold_weight
    """Worth of carrying the Relic, beside holding its cell: it scores at the end for
    whoever carries it, wherever (seeds 10, 11 and 14 were drawn with the Relic left on
    the ground: the evaluation did not see it, so no side went for it)."""

    def option_worth(self, option: Option) -> int:
        """A charge by what its fight promises (engine.rulesets.wh40k6.fight_odds): one
        its blows barely get through (fewer than one in `HOPELESS`), or more likely lost
        than won, is worth less than declaring none (a lost fight may be swept away);
        else the more likely won, the better."""
        if option.odds is None:
            return 0
        chances = dict(option.odds.chances)
        blow = chances.get(BLOW)
        if blow is None:
            return 0
        edge = chances.get(WINS, blow) - chances.get(LOSES, Fraction(0))
        if blow < HOPELESS or edge < 0:
            return -8 * SCALE  # more than its odds and target add, and ending costs
        return int(chances.get("charge succeeds", Fraction(1)) * edge * 4 * SCALE)

    def alongside(self, view: GameView, decision: Decision) -> frozenset[str]:
        """The rest of the unit where it moves keeping its formation (the prompt says so:
        "... keeping its formation: where does A2.1 ... go?"); its models' ids are the
        unit's id and a number ("A2.3")."""
        if decision.subject is None or "formation" not in decision.prompt:
            return frozenset()
        unit = decision.subject.rpartition(".")[0]
        return frozenset(
            m.id
            for m in view.models
            if m.id.rpartition(".")[0] == unit and m.id != decision.subject
        )

    def camps(self, view: GameView, decision: Decision) -> tuple[Cell, Cell] | None:
        """Placing an objective marker (§4.6): the middles of the two deployment zones
        the view tints while setting up. Both players put every marker on the first legal
        row offered (the south one), all in one side's zone in Dawn of War."""
        if not decision.prompt.startswith("Place objective marker"):
            return None
        zones = dict(view.zones)
        names = [f"{side.name} deployment zone" for side in view.sides]
        mine, theirs = (
            zones.get(names[decision.player]),
            zones.get(names[1 - decision.player]),
        )
        if not mine or not theirs:
            return None
        return middle(mine), middle(theirs)

    def threats(self, view: GameView, board: Board, player: int) -> int:
        """`IN_RANGE` for each of ``player``'s models with an enemy model within reach of
        its longest gun (the inches its weapon lines show): a Warden stands where its
        rifle reaches and a Horde pistol does not. A big model counts once, measured
        from its anchor. Counted by the normal player only (its look-ahead and where it
        moves a unit); the quick worth does not."""
        anchors = [
            m
            for m in view.models
            if not m.removed and m.cell is not None and footprint_owner(m.id) == m.id
        ]
        enemies = [m.cell for m in anchors if m.player != player and m.cell is not None]
        total = 0
        for model in anchors:
            if model.player != player or model.cell is None:
                continue
            reach = max((_inches(line) for line in model.weapons), default=0)
            cell = model.cell
            if reach and any(distance(cell, e) <= reach for e in enemies):
                total += IN_RANGE
        return total

    def goals(self, view: GameView, board: Board) -> list[Cell]:
        """The markers, and the Relic's cells (one on the ground, its carrier's)."""
        relic = [cell for name, cells in view.zones if name == RELIC_ZONE for cell in cells]
        return super().goals(view, board) + sorted(relic)

    def side_worth(self, view: GameView, player: int) -> int:
        """Carrying the Relic."""
        carries = any(
            m.player == player and not m.removed and CARRIES_RELIC in m.states[1:]
            for m in view.models
        )
        return self.relic_weight if carries else 0

    def is_leader(self, model: ModelView) -> bool:
        return "Warlord" in model.states

    def model_value(self, model: ModelView) -> int:
        value = SCALE * max(1, min(model.max_wounds, 10))
        return 2 * value if self.is_leader(model) else value


def middle(cells: frozenset[Cell]) -> Cell:
    """The cell at the mean of ``cells`` (rounded down: whole numbers, deterministic)."""
    return Cell(sum(c.x for c in cells) // len(cells), sum(c.y for c in cells) // len(cells))


def _inches(line: str) -> int:
    """The range of a weapon line ("Service rifle: 24\" S 4 AP 5 Rapid Fire" -> 24; 0 for
    a melee weapon)."""
    _, _, rest = line.partition(": ")
    inches, quote, _ = rest.partition('"')
    return int(inches) if quote and inches.isdigit() else 0
