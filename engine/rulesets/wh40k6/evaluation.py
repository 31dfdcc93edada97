"""What the Warhammer 40,000 (6th edition) computer player counts (engine.bot.evaluation).

Victory points; models left weighted by their wounds or hull points (a vehicle's hull
points stand for its worth, once however many cells its hull covers), the Warlord double
since Slay the Warlord scores; objective markers held as the rules hold them (a model
within 3" and no enemy model within 3", digest wh40k6 §4.6); The Relic (mission 6) as an
objective where the view shows it, on the ground or with its carrier, and carrying it;
and being near the markers (or the enemy when there are none), in cover, the Warlord
kept out of reach. Ending a phase is weighed by the look-ahead only when the quick worth
finds it close (`stops`).
"""

from __future__ import annotations

from engine.board import Board, Cell
from engine.bot.evaluation import SCALE, Evaluation
from engine.rulesets.wh40k6.view import CARRIES_RELIC, RELIC_ZONE
from engine.view import GameView, ModelView


class Wh40k6Evaluation(Evaluation):
    name = "wh40k6"
    counts = (
        "victory points (10 models each)",
        "models left, by wounds or hull points (Warlord double)",
        'objectives held: a model within 3" and no enemy model within 3"',
        "the Relic: held as an objective where it lies or is carried, carrying it",
        "nearness to objectives (or the enemy), cover, Warlord away from enemies",
    )
    hold_range = 3
    contest = True
    stops = False
    """Weighing the end of the phase against every move and shot lost it whole phases: a
    look-ahead that ends the Movement phase reaches the next phase's shots that a move has
    no choices left to see (seeds 1-12: 10 won, 2 drawn against random, 8 won without;
    6 won against easy, 4 without)."""
    budget = 36
    """Its choices cost the most to play (paths, sight lines of whole units): four
    look-aheads a decision at most."""
    relic_weight = 2 * Evaluation.hold_weight
    """Worth of carrying the Relic, beside holding its cell: it scores at the end for
    whoever carries it, wherever (seeds 10, 11 and 14 were drawn with the Relic left on
    the ground: the evaluation did not see it, so no side went for it)."""

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
