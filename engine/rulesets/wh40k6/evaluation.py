"""What the Warhammer 40,000 (6th edition) computer player counts (engine.bot.evaluation).

Victory points; models left weighted by their wounds or hull points (a vehicle's hull
points stand for its worth, once however many cells its hull covers), the Warlord double
since Slay the Warlord scores; objective markers held as the rules hold them (a model
within 3" and no enemy model within 3", digest wh40k6 §4.6); and being near the markers
(or the enemy when there are none), in cover, the Warlord kept out of reach. Ending a
phase is weighed by the look-ahead only when the quick worth finds it close (`stops`).
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.view import ModelView


class Wh40k6Evaluation(Evaluation):
    name = "wh40k6"
    counts = (
        "victory points (10 models each)",
        "models left, by wounds or hull points (Warlord double)",
        'objectives held: a model within 3" and no enemy model within 3"',
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

    def is_leader(self, model: ModelView) -> bool:
        return "Warlord" in model.states

    def model_value(self, model: ModelView) -> int:
        value = SCALE * max(1, min(model.max_wounds, 10))
        return 2 * value if self.is_leader(model) else value
