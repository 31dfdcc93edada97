"""The threat key's (T) state: whether it is on, and the last `Threat` the ruleset gave.

The ruleset computes a threat from its own move, charge and sight functions; that costs
path searches, so the answer is kept for as long as the same model is selected at the same
moment of the game (the screen's view object), and asked again after any choice.
"""

from __future__ import annotations

from engine.game import Game
from engine.threat import Threat
from engine.view import GameView, ModelView


class ThreatKey:
    """On or off, with the last threat asked for and the model and view it was for."""

    def __init__(self) -> None:
        self.on = False
        self._last: tuple[str, GameView, Threat | None] | None = None

    def threat(self, game: Game, view: GameView, model: ModelView | None) -> Threat | None:
        """The ruleset's threat for ``model`` at ``view``'s moment (None off the table)."""
        if model is None or model.cell is None or model.removed:
            return None
        last = self._last
        if last is None or last[0] != model.id or last[1] is not view:
            last = self._last = (model.id, view, game.ruleset.threat(model.id))
        return last[2]
