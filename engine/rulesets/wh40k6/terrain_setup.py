"""Terrain set-up: the fixed map, auto terrain or the alternating method (wh40k6 §4.5).

The table is cut into 2'x2' areas (24x24 cells); each area rolls a D3 for its terrain
density, the most pieces whose centre may lie in it (PROPOSED). Auto terrain places that
many pieces per area at seeded random positions; the alternating method lets the players
place pieces in turn (the table-half winner first) until both stop or every area is
full (D5). Pieces follow the terrain types of §4.5 with the sizes of the §12.4 map; the
"nudge and rotate" step is left out on the grid (PROPOSED).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Cell
from engine.checks import TABLE
from engine.decisions import Decision, DecisionKind, Option, Procedure, cell_options
from engine.footprints import Grid
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.placement import parse_cell
from engine.rulesets.wh40k6.state import State

AREA = 24
STOP = "stop"
AUTO_TRIES = 12
"""Random positions tried per piece before auto terrain gives up on it."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A terrain piece of the library: a w x h block of one feature (walls on one row)."""

    key: str
    name: str
    feature: str
    width: int
    height: int
    wall_row: int | None = None

    def cells(self, anchor: Cell) -> dict[Cell, str]:
        out = {}
        for dx in range(self.width):
            for dy in range(self.height):
                wall = self.wall_row == dy and 0 < dx < self.width - 1
                out[Cell(anchor.x + dx, anchor.y + dy)] = "ruin_wall" if wall else self.feature
        return out

    def centre(self, anchor: Cell) -> Cell:
        return Cell(anchor.x + self.width // 2, anchor.y + self.height // 2)


PIECES: tuple[Piece, ...] = (
    Piece("woods", "Woods", "woods", 6, 6),
    Piece("ruins", "Ruins", "ruins", 8, 4, wall_row=0),
    Piece("crater", "Crater (cluster)", "crater", 3, 3),
    Piece("wire", "Razor wire (cluster)", "razor_wire", 3, 1),
    Piece("barricade", "Barricade", "barricade", 6, 1),
    Piece("rock", "Rock", "rock", 4, 4),
)
"""The piece library; a D6 picks one for auto terrain."""


def areas(state: State) -> list[tuple[int, int]]:
    """The 2'x2' areas as (column, row) indices."""
    cols = max(1, (state.width + AREA - 1) // AREA)
    rows = max(1, (state.height + AREA - 1) // AREA)
    return [(c, r) for r in range(rows) for c in range(cols)]


def area_of(cell: Cell) -> tuple[int, int]:
    return cell.x // AREA, cell.y // AREA


def roll_density(state: State, ctx: RuleContext) -> dict[tuple[int, int], int]:
    """D3 per area (§4.5 step 2)."""
    density = {}
    for area in areas(state):
        density[area] = ctx.dice.d3(
            player=-1, reason=f"terrain density of area {area}", check=TABLE
        )
    ctx.emit(
        "TerrainDensityRolled",
        "Terrain density: " + ", ".join(f"{a}: {d}" for a, d in density.items()),
    )
    return density


def fits(
    state: State,
    piece: Piece,
    anchor: Cell,
    counts: dict[tuple[int, int], int],
    density: dict[tuple[int, int], int],
) -> bool:
    """On the table, on open ground, and its area has room (§4.5 steps 3-5)."""
    if anchor.x < 0 or anchor.y < 0:
        return False
    if anchor.x + piece.width > state.width or anchor.y + piece.height > state.height:
        return False
    area = area_of(piece.centre(anchor))
    if counts.get(area, 0) >= density.get(area, 0):
        return False
    x1, y1 = anchor.x + piece.width - 1, anchor.y + piece.height - 1
    return not _terrain_grid(state).count(anchor.x, anchor.y, x1, y1)


def _terrain_grid(state: State) -> Grid:
    """Cells that already hold terrain (cached until the terrain changes)."""
    cached = state.cache.get("terrain-grid")
    if not isinstance(cached, Grid):
        cached = Grid.from_cells(state.width, state.height, state.terrain)
        state.cache["terrain-grid"] = cached
    return cached


def place(
    state: State,
    ctx: RuleContext,
    piece: Piece,
    anchor: Cell,
    counts: dict[tuple[int, int], int],
    player: int = -1,
) -> None:
    state.terrain.update(piece.cells(anchor))
    state.cache.clear()
    area = area_of(piece.centre(anchor))
    counts[area] = counts.get(area, 0) + 1
    ctx.emit("TerrainPlaced", f"{piece.name} placed at {anchor}", player=player)


def auto_terrain(state: State, ctx: RuleContext) -> None:
    """Seeded random placement that follows the density rule (§4.5 PROPOSED)."""
    density = roll_density(state, ctx)
    counts: dict[tuple[int, int], int] = {}
    for area in areas(state):
        for _ in range(density[area]):
            kind = PIECES[ctx.dice.d6(player=-1, reason="terrain piece type", check=TABLE) - 1]
            for _ in range(AUTO_TRIES):
                x0, y0 = area[0] * AREA, area[1] * AREA
                w = min(AREA, state.width - x0)
                h = min(AREA, state.height - y0)
                rx = (
                    ctx.dice.roll(
                        1, w, player=-1, reason="terrain position (x)", check=TABLE
                    ).faces[0]
                    - 1
                )
                ry = (
                    ctx.dice.roll(
                        1, h, player=-1, reason="terrain position (y)", check=TABLE
                    ).faces[0]
                    - 1
                )
                anchor = Cell(x0 + rx - kind.width // 2, y0 + ry - kind.height // 2)
                if fits(state, kind, anchor, counts, density):
                    place(state, ctx, kind, anchor, counts)
                    break


def alternating_terrain(state: State, ctx: RuleContext, first: int) -> Procedure[None]:
    """D5: players alternate placing pieces until both stop or the table is full."""
    density = roll_density(state, ctx)
    counts: dict[tuple[int, int], int] = {}
    player, passes = first, 0
    while passes < 2:
        options = [Option(STOP, "Stop placing terrain")]
        for piece in PIECES:
            if _anchors(state, piece, counts, density, limit=1):
                options.append(
                    Option(piece.key, f"Place {piece.name} ({piece.width}x{piece.height})")
                )
        if len(options) == 1:
            ctx.answered(
                "No terrain piece fits on the table any more: terrain placing ends.", player
            )
            return
        choice = yield Decision(
            player, DecisionKind.PICK_OPTION, "Place a terrain piece?", tuple(options)
        )
        if choice.key == STOP:
            passes += 1
        else:
            passes = 0
            piece = next(p for p in PIECES if p.key == choice.key)
            anchors = _anchors(state, piece, counts, density)
            where = yield Decision(
                player,
                DecisionKind.PICK_CELL,
                f"Where does the {piece.name} go (its south-west corner)?",
                cell_options(anchors, f"{piece.name} at "),
            )
            place(state, ctx, piece, parse_cell(where.key), counts, player)
        player = 1 - player


def _anchors(
    state: State,
    piece: Piece,
    counts: dict[tuple[int, int], int],
    density: dict[tuple[int, int], int],
    limit: int = 0,
) -> list[Cell]:
    """Every anchor at which ``piece`` `fits`, row by row from the south-west (the first
    ``limit`` of them if set).

    Whole areas are skipped at once: a row of anchors whose centres lie in one area is a
    run of columns, kept only if that area has room; in the run, one prefix-sum count
    per anchor. `fits` asked of every cell of the table was a third of replaying a
    wh40k6 game with alternating terrain (the option list asks it of every piece)."""
    w, h = piece.width, piece.height
    last_x, last_y = state.width - w, state.height - h
    if last_x < 0 or last_y < 0:
        return []
    grid = _terrain_grid(state)
    cols = (state.width + AREA - 1) // AREA
    out: list[Cell] = []
    for y in range(last_y + 1):
        row = (y + h // 2) // AREA
        for col in range(cols):
            if counts.get((col, row), 0) >= density.get((col, row), 0):
                continue
            start = max(0, col * AREA - w // 2)
            stop = min(last_x, col * AREA + AREA - 1 - w // 2)
            for x in range(start, stop + 1):
                if not grid.count(x, y, x + w - 1, y + h - 1):
                    out.append(Cell(x, y))
                    if limit and len(out) >= limit:
                        return out
    return out


def _anchors_plain(
    state: State,
    piece: Piece,
    counts: dict[tuple[int, int], int],
    density: dict[tuple[int, int], int],
) -> list[Cell]:
    """`_anchors` as the rule says it: every cell of the table asked `fits` (tests hold
    the fast one to it)."""
    return [
        Cell(x, y)
        for y in range(state.height - piece.height + 1)
        for x in range(state.width - piece.width + 1)
        if fits(state, piece, Cell(x, y), counts, density)
    ]
