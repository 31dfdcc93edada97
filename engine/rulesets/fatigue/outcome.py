"""Immediate results: the signal that ends the game at once (digest fatigue §4.4).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.rulesets.fatigue.state import FState
from engine.wording import says


class GameOver(Exception):  # noqa: N818 - a signal, not an error
    """Raised where the game ends at once: rout, voluntary rout, wipe-out (§4.4)."""

    def __init__(self, winner: int | None, reason: str, cause: str = "rout") -> None:
        super().__init__(reason)
        self.winner = winner
        self.reason = reason
        self.cause = cause
        """What decided it (`engine.ruleset.Outcome.cause`): "rout" or "wiped out"."""


def check_wipeout(state: FState) -> None:
    """A force with no model left in play loses; both at once is a draw (FILL-IN, §4.4).

    Raises:
        GameOver: when a force is wiped out.
    """
    alive = [any(u.in_play for u in state.units_of(p)) for p in (0, 1)]
    if all(alive) or state.round == 0:
        return
    if not any(alive):
        raise GameOver(None, "Both forces were wiped out at once.", "wiped out")
    winner = 0 if alive[0] else 1
    name = state.side(1 - winner).name
    raise GameOver(winner, f"{says(name, 'has')} no models left in play.", "wiped out")
