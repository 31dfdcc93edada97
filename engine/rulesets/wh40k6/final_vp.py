"""The VP a wh40k6 game scores only at its end (§4.2), as the view shows them before then.

The view's score counts no VP until the last turn is over, so the computer player's
evaluation (engine.rulesets.wh40k6.evaluation) asks these of the view instead: is a side's
Warlord slain (Slay the Warlord), does a side stand in the other's deployment zone
(Linebreaker), how many of its units still stand (Purge the Alien).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.footprints import footprint_owner
from engine.rulesets.wh40k6.view import FALLING_BACK, RELIC_ZONE, deployment_zone
from engine.view import GameView


def warlord_slain(view: GameView, player: int) -> bool:
    """``player``'s Warlord is slain: Slay the Warlord scores 1 VP for the other side."""
    return any(m.player == player and m.removed and "Warlord" in m.states for m in view.models)


def breaks_line(view: GameView, player: int) -> bool:
    """A model of ``player`` not falling back stands in the other side's deployment zone
    (the view's `areas`: the map tints zones only while setting up), so Linebreaker would
    score for it. Uncounted, it went to easy in 36 of the 131 games normal did not win
    against it (seeds 1001-1400), and alone decided a Horde loss 6-7 (seed 1196)."""
    name = deployment_zone(view.sides[1 - player].name)
    zone = next((cells for area, cells in view.areas if area == name), None)
    if not zone:
        return False
    return any(
        m.player == player and m.cell in zone and FALLING_BACK not in m.states
        for m in view.models
        if not m.removed and m.cell is not None
    )


def units_standing(view: GameView, player: int) -> int:
    """With no marker and no Relic (Purge the Alien: 1 VP for each enemy unit destroyed or
    falling back at the end), how many of ``player``'s units still stand; 0 in any other
    mission."""
    if view.objectives or any(name == RELIC_ZONE for name, _ in view.zones):
        return 0
    return len(
        {
            m.id.rpartition(".")[0]
            for m in view.models
            if m.player == player
            and not m.removed
            and m.states
            and FALLING_BACK not in m.states
            and footprint_owner(m.id) == m.id
        }
    )
