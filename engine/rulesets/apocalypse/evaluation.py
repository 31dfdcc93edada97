"""What the Apocalypse computer player counts (engine.bot.evaluation).

Victory points; units left weighted by their category (a HEAVY unit counts double, a
SUPER-HEAVY four times: destroyed points break ties; each once, however many cells its
footprint covers), the Warlord double; objectives held (more units within 3", digest
apocalypse §12.5); and nearness to the objectives the side does not hold without the
unit (toward an empty objective, not one another unit holds), cover, the Warlord kept
away from enemies; a unit out of its Commander's range (or carrying a Deserter marker) counts half,
as it is destroyed in the Damage phase unless it gets back (§6.3.1, §6.12.2). Secret
orders and asset hands are not in the view, so they are not counted;
`Apocalypse.conceal` guesses them for look-ahead copies. Ending an activation or holding
fire is weighed by the look-ahead only when the quick worth finds it close (`stops`).
The normal player also picks where a unit moves by this evaluation (`moves`), so a
move that tips an objective is seen.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.decisions import Option
from engine.view import ModelView

WEIGHTS = {"LIGHT": 1, "HEAVY": 2, "SUPER-HEAVY": 4}


class ApocalypseEvaluation(Evaluation):
    name = "apocalypse"
    counts = (
        "victory points (10 units each)",
        "units left by wounds, HEAVY x2, SUPER-HEAVY x4, Warlord x2",
        'objectives held: more units within 3"',
        "nearness to objectives not held without the unit, cover, Warlord away from enemies",
        "a unit out of command range (or a deserter) counts half; "
        "a place out of command range costs two units",
    )
    hold_range = 3
    spread = True
    """Units draw toward an objective their side does not hold without them: the normal
    Legion's seven units all stood around O3 and the empty O2 scored for no one."""
    stops = False
    """Ending an activation, moving no more or holding fire is weighed only when the
    quick worth finds it close (its look-ahead often preferred them to acting: seeds
    1-12, 7 won against easy, 6 without; 12 of 12 against random either way)."""
    moves = "shortlist"
    """The normal player picks where a unit moves by this evaluation too
    (engine.bot.placing): whether it tips an objective (the quick worth cannot tell; O2
    stood empty all game), how exposed a Warlord stands. Seeds 1-60 against easy: 49
    won, 9 lost, 2 drawn (43, 16, 1 without)."""
    budget = 45
    """Big armies make its choices dear to play: five look-aheads a decision at most."""

    def is_leader(self, model: ModelView) -> bool:
        return any("warlord" in state for state in model.states)

    def model_value(self, model: ModelView) -> int:
        kind = dict(model.profile).get("Type", "LIGHT")
        value = SCALE * WEIGHTS.get(kind, 1)
        return 2 * value if self.is_leader(model) else value

    def condition(self, model: ModelView) -> int:
        """Half the unit's worth while it is out of command range or a deserter: it
        deployed or was left beyond its Commander's 12" and every unit of a warband
        deserted in turn 1 (the quick worth counted only nearness to objectives)."""
        if "deserter" in model.states or "out of command range" in model.states:
            return self.model_value(model) // 2
        return 0

    def option_worth(self, option: Option) -> int:
        """A place the engine says is (or leaves a unit) out of command range costs two
        units' worth: the quick worth of a cell counted only objectives and enemies, and a
        whole warband deployed 14-20" from its Warboss deserted in turn 1."""
        return -2 * SCALE if "out of command range" in option.label else 0
