"""Fortifications: placed before terrain, wholly in the owner's half (wh40k6 §4.1, §4.4).

A fortification is a static building (v1: impassable, blocks sight, 3+ cover to models
it obscures, §4.5). The table-half winner places first and the players alternate (D4);
each must lie wholly within its owner's table half and more than 3" from every other
fortification. None are fielded in the default game.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import Rect, rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import maps
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.placement import cell_key, parse_cell
from engine.rulesets.wh40k6.state import State
from engine.sight_lines import rectangles
from engine.wording import possessive, says


def legal_spots(state: State, player: int, width: int, height: int) -> list[Cell]:
    half = state.side(player).half
    forts = rectangles([c for c, k in state.terrain.items() if k == "fortification"])
    out = []
    for y in range(state.height - height + 1):
        for x in range(state.width - width + 1):
            rect = Rect(x, y, x + width - 1, y + height - 1)
            if any(c in state.terrain for c in rect.cells()):
                continue
            if not all(
                maps.in_half(half, state.width, state.height, c)
                for c in (
                    rect.anchor,
                    Cell(rect.x1, rect.y1),
                    Cell(rect.x0, rect.y1),
                    Cell(rect.x1, rect.y0),
                )
            ):
                continue
            if any(rect_distance(rect, f) <= t.FORTIFICATION_GAP for f in forts):
                continue
            out.append(Cell(x, y))
    return out


def place_fortifications(
    state: State,
    ctx: RuleContext,
    first: int,
    forts: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]],
) -> Procedure[None]:
    """D4: alternate placing each side's fortifications, the half winner first."""
    queues = {p: list(forts[p]) for p in (0, 1)}
    player = first
    while queues[0] or queues[1]:
        if not queues[player]:
            player = 1 - player
            continue
        width, height = queues[player].pop(0)
        spots = legal_spots(state, player, width, height)
        if spots:
            choice = yield Decision(
                player,
                DecisionKind.PICK_CELL,
                f"Place your {width}x{height} fortification (its south-west corner)",
                tuple(Option(cell_key(c), f"Fortification at {c}", cell=c) for c in spots),
            )
            anchor = parse_cell(choice.key)
            for dx in range(width):
                for dy in range(height):
                    state.terrain[Cell(anchor.x + dx, anchor.y + dy)] = "fortification"
            state.cache.clear()
            ctx.emit(
                "FortificationPlaced",
                f"{says(state.side(player).name, 'places')} a fortification at {anchor}",
                player=player,
            )
        else:
            ctx.emit(
                "FortificationSkipped",
                f"{possessive(state.side(player).name)} fortification does not fit",
            )
        player = 1 - player
