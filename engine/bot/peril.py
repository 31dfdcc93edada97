"""What the computer player's wounded leader risks where it stands, by the engine's threat.

The evaluation (engine.bot.evaluation) counts enemies near a leader at a few hundredths
of a model each, whatever its wounds: a Kill Team Leader down to its last wound charged
three enemies 9-11" away, then charged again. Which enemies can reach a model in melee is
the rules' answer (`Ruleset.threat`, engine.threat), not the bot's: each such enemy puts
the wounds it has lost at stake.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from engine.board import distance
from engine.game import Game


def peril(game: Game, seat: int) -> int:
    """What ``seat``'s wounded leaders stand to lose where they are, as worth: for each,
    its worth times the share of its wounds already lost, for every enemy the engine says
    can reach it (a leader at full wounds, or one no enemy reaches, risks nothing here)."""
    evaluation = game.ruleset.EVALUATION
    total = 0
    for model in game.view().models:
        if model.player != seat or model.removed or model.cell is None:
            continue
        if not 0 < model.wounds < model.max_wounds or not evaluation.is_leader(model):
            continue
        threat = game.ruleset.threat(model.id)
        if threat is None:
            continue
        reaching = sum(1 for menace in threat.menaces if menace.reaches)
        reaching += sum(
            1
            for menace in threat.menaces
            if any(distance(cell, model.cell) <= evaluation.contact_range for cell in menace.cells)
        )
        lost = model.max_wounds - model.wounds
        total += evaluation.model_value(model) * reaching * lost // model.max_wounds
    return total
