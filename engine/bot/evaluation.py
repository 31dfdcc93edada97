"""How the computer player values a moment of a game, from what its seat may see.

An `Evaluation` reads only the `GameView` (what the shared screen shows both players)
and the board, never the ruleset's state: a side's secret deck, orders or hand are not in
the view, so no evaluation can peek at them. Each ruleset gives its own subclass (in its
package) saying what a model is worth, who its leader is and how near an objective must be
to hold it; the sums are the same everywhere.

All values are integers (hundredths of a model) so two runs on two machines agree.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.board import Board, Cell, Terrain, distance
from engine.decisions import Decision, Option
from engine.events import Event
from engine.footprints import footprint_owner
from engine.view import GameView, ModelView

SCALE = 100
"""One ordinary model at full wounds is worth this much."""

HOLDS = 2
"""`Evaluation.presence` of a model that may hold an objective."""
DENIES = 1
"""`Evaluation.presence` of a model that only keeps the other side from holding one."""

Near = tuple[dict[str, int], dict[str, int]]
"""Each side's models within reach of an objective, by id, with their `presence`."""

MoveWeighing = Literal["quick", "shortlist", "sample"]
"""How the normal player weighs a move among many cells (`Evaluation.moves`)."""


class Evaluation:
    """The generic evaluation; rulesets override the hooks, not `score`."""

    name = "generic"
    """Which ruleset this is for (the report names it)."""
    counts: tuple[str, ...] = (
        "victory points (10 models each)",
        "models alive, by wounds left",
        "objectives held (more models within reach)",
        "closeness to the nearest objective or enemy",
    )
    """What it counts, in plain words (shown by the benchmark and the help)."""
    score_weight = 10 * SCALE
    """Worth of one victory point."""
    hold_range = 2
    """Models within this many inches of an objective count for holding it (the side with
    more holds it)."""
    hold_weight = 2 * SCALE
    """Worth of one objective held at this moment."""
    contest = False
    """True: a side holds an objective only with no enemy model within reach of it (any
    enemy contests it); False: the side with more models within reach holds it."""
    leader_weight = 2
    """A leader counts this many times an ordinary model (losing it costs more)."""
    cover_weight = SCALE // 10
    """Worth of a model standing in or next to cover."""
    approach_weight = 2
    """Worth of each inch closer to the nearest objective (or enemy)."""

    spread = False
    """True: a model draws toward the nearest objective its side does not hold without it
    (one it alone holds stays its own), not merely the nearest: every unit of an
    Apocalypse army crowded the objective nearest its deployment while an empty one a
    turn's march away scored nothing all game (engine.bot.heuristic moves by it too)."""

    rivals_approach = True
    """False: closeness counts for the seat's own models only. With no objectives, an
    enemy closing in is no loss in itself (what its fights and shots may cost is
    `threats`), and counting it made a model stay back so as not to bring them near."""

    contact_range = 1
    """Models this near an enemy fight it in melee (base contact)."""
    melee_weight = 0
    """Worth of each point of melee edge (`melee`) a model has over an enemy it is in
    contact with: a brute next to a rifleman is a kill in the making, a rifleman next to a
    brute is one lost. 0: not counted."""

    depth = 0
    """Choices the normal player plays on after an option in a look-ahead; 0 for its
    default (engine.bot.players)."""

    muster = 0
    """Choices the normal player plays on in a look-ahead before the first checkpoint
    (keep the prepared roster or build one: the whole roster); 0: no look-ahead there."""
    kinds = True
    """The normal player weighs the best option of each kind (with odds, without, one
    that stops) besides its best few (engine.bot.players `NormalPlayer.candidates`);
    False: the best stopping option only."""
    actions = False
    """The normal player also weighs the best option of each action a Decision offers
    when some option names a target (its key before the ":": "charge:B2" and
    "charge:B3" are one action, "common" another), cells aside: a sure charge's quick
    worth hid the shot behind "common". A choice of how many dice is no such list (the
    look-ahead's few futures of the dice are no better judge than the odds shown)."""
    foresight = True
    """The normal player looks ahead on the close calls of the battle (engine.bot.players);
    False: on yes/no questions only (a concession, a rout), the rest by the quick worth,
    whose odds are the engine's exact expectation where a look-ahead plays one or two
    futures of the dice, and by how it weighs moves (`moves`)."""
    stops = True
    """The normal player weighs the best option that stops (pass, end the phase) against
    acting; False: only when the quick worth finds it close (among its best few)."""
    ties = True
    """The normal player also weighs every option tied with the best (the quick worth
    cannot tell them apart)."""
    settle = False
    """True: a look-ahead stops where a model is next picked to act (the option's own
    activation played out), so an action that takes many choices (a charge: targets,
    reactions, the move) is not valued against one that leaves room for more moves."""

    moves: MoveWeighing = "quick"
    """How the normal player picks where a model or unit goes among many cells (easy
    always goes by the quick worth; engine.bot.placing):

    - "quick": by the quick worth of each cell, as easy does;
    - "shortlist": the quick worth of each of the best cells plus this evaluation of the
      view with the unit standing there (`placing.place`): the quick worth's pull and the
      engine's warnings, and what the move does to the board (an objective tipped); a way
      that is no cell ("Stay" in base contact, holding an objective) may win;
    - "sample": `score` alone of the position with the model standing on each of an even
      sample of the cells offered (`placing.placed`), not the quick worth's closeness: a
      Confrontation spearman ran alone at the nearest goblin, into the reach of three.

    Each measured worse in the other's ruleset, so both stay."""

    roam = 0
    """Where the normal player weighs a move by a "shortlist" (`moves`), it also weighs an
    even sample of this many of the other cells offered: the quick worth draws toward the
    nearest open objective, and a cell toward another one the evaluation prefers (the
    other side's, `pressing`) was never weighed."""

    detours = False
    """True: where a "shortlist" (`moves`) weighs where a unit goes, another way than a
    cell ("Place the models one by one", "Put in Reserve") is worth less than the best
    cell (engine.bot.placing `place`); False: the view as it stands values it, so it
    wins wherever every cell weighed looks worse than standing still."""

    budget = 60
    """Choices the normal player may replay and play in its look-aheads for one decision
    (engine.bot.players): a ruleset whose choices cost more to play gives a smaller one,
    keeping a decision within its time (benchmarks/bot_strength.py)."""

    def alongside(self, view: GameView, decision: Decision) -> frozenset[str]:
        """The models that move with the Decision's model where it picks a cell (its
        unit, keeping formation), so a "shortlist" weighs where the whole unit ends; none by
        default."""
        return frozenset()

    def camps(self, view: GameView, decision: Decision) -> tuple[Cell, Cell] | None:
        """Where the seat places a marker both sides will fight over: the middles of its
        own and of the other side's deployment zones (the quick worth puts it near the
        first, far from the second); None where the Decision places no marker."""
        return None

    judging = False
    """True: the ruleset takes some choices by its own reckoning (`judge`); False spares
    the player from copying the public log for every decision."""

    def judge(
        self, decision: Decision, view: GameView, board: Board, events: Sequence[Event]
    ) -> str | None:
        """The key of the option the ruleset's own reckoning picks for the normal player
        (a choice its odds value over every outcome, where a look-ahead's few futures of
        the dice only guess: how a fight's dice are split), from the Decision, the view
        and the public log; None: the player's search decides."""
        return None

    def needless(self, decision: Decision, view: GameView) -> frozenset[str]:
        """Keys of options the normal player never takes because another option offered
        includes them (a ruleset's "Nothing" beside an action that may still do nothing):
        a look-ahead that plays the action on by the quick worth may find it worse."""
        return frozenset()

    def option_worth(self, option: Option) -> int:
        """What the engine's own words on an option say it costs or gains beyond where it
        goes (a ruleset's warning, "out of command range"); 0 where not counted."""
        return 0

    def model_value(self, model: ModelView) -> int:
        """Worth of ``model`` at full wounds."""
        return SCALE * (self.leader_weight if self.is_leader(model) else 1)

    def side_worth(self, view: GameView, player: int) -> int:
        """What ``player``'s side counters say beyond its models (a rout coming near)."""
        return 0

    def condition(self, model: ModelView) -> int:
        """What ``model``'s states cost it now (fatigue, shaken), as worth to subtract."""
        return 0

    def melee(self, model: ModelView) -> int:
        """How hard ``model`` fights in melee, read from its profile (0 where not counted)."""
        return 0

    def threats(self, view: GameView, board: Board, player: int) -> int:
        """What ``player``'s side may inflict next (its fights, its shots), as worth."""
        return 0

    def horizon(self, view: GameView, player: int, seat: int) -> bool:
        """Does a look-ahead for ``seat`` stop where ``player`` must decide next, its own
        choices played out? False: it plays on both sides' choices to its depth."""
        return False

    def standoff(self, model: ModelView) -> int:
        """Inches from the nearest target a model is content to stand at (a shooter's
        range): closeness counts only beyond it."""
        return 0

    def is_leader(self, model: ModelView) -> bool:
        """True for the model whose loss hurts its side most (leader, warlord, hero)."""
        return "Leader" in model.name or "Leader" in model.states

    def keeps_distance(self, model: ModelView) -> bool:
        """True for a model that stays away from the enemy (each enemy near it costs, and
        the quick worth moves it away): a leader, by default."""
        return self.is_leader(model)

    def score(self, view: GameView, board: Board, seat: int) -> int:
        """How good ``view`` is for ``seat``: its side's worth minus the other's."""
        standing = [m for m in view.models if not m.removed and m.cell is not None]
        # a big model's view is repeated on each cell of its footprint: its worth and its
        # place count once (a 3x3 transport was worth nine models), its reach from any cell
        models = [m for m in view.models if footprint_owner(m.id) == m.id]
        alive = [m for m in standing if footprint_owner(m.id) == m.id]
        goals = self.goals(view, board)
        total = self.score_weight * (view.sides[seat].score - view.sides[1 - seat].score)
        total += self.side_worth(view, seat) - self.side_worth(view, 1 - seat)
        for model in models:
            sign = 1 if model.player == seat else -1
            total += sign * self._material(model)
        reach = [self._within(cell, standing) for cell in goals]
        weights = self.goal_weights(view, goals)
        held = [self._held(*near_goal, seat) for near_goal in reach]
        total += sum(weight * h for weight, h in zip(weights, held, strict=True))
        press, pull = self.pressing(view, weights, held, seat)
        theirs = [g for g, h in zip(goals, held, strict=True) if h < 0] if press else []
        shunned = self.shunned(view)
        empty = not goals and {m.player for m in alive} == {seat}
        staging = self.staging(view, seat) if empty else []
        for model in alive:
            sign = 1 if model.player == seat else -1
            near = self.rivals_approach or model.player == seat
            mine = theirs and model.player == seat and not self.keeps(model, reach, seat)
            wanted = theirs if mine else self._open(goals, reach, model) or staging
            if shunned and self.presence(model) != HOLDS:
                wanted = [g for g in wanted if g not in shunned]
            total += sign * self._placement(model, alive, wanted, board, near)
            if mine and model.cell is not None:
                closest = min(distance(model.cell, g) for g in theirs)
                total -= pull * min(max(closest - self.hold_range, 0), 48)
        total += self.threats(view, board, seat) - self.threats(view, board, 1 - seat)
        if self.melee_weight:
            total += self.melee_weight * self._contact(alive, seat)
        return total

    def goals(self, view: GameView, board: Board) -> list[Cell]:
        """The cells worth holding: the objective markers of the map and of the game (a
        ruleset adds what its view shows otherwise, as wh40k6 its Relic)."""
        return [o.cell for o in board.objectives] + [o.cell for o in view.objectives]

    def goal_weights(self, view: GameView, goals: list[Cell]) -> list[int]:
        """Worth of holding each of ``goals`` at this moment (`goals` order): `hold_weight`
        each by default; a ruleset whose markers score unlike VP weighs them apart."""
        return [self.hold_weight] * len(goals)

    def pressing(
        self, view: GameView, weights: list[int], held: list[int], seat: int
    ) -> tuple[bool, int]:
        """Whether the seat's own models are drawn toward the objectives the other side
        holds (each the nearer the better, by the worth per inch it gives with it), from
        each goal's worth (`goal_weights`) and who holds it now (+1 the seat, -1 the other
        side, 0 neither): never by default."""
        return False, 0

    def keeps(self, model: ModelView, reach: list[Near], seat: int) -> bool:
        """Whether ``model`` stays by an objective it holds for the seat even while
        `pressing` draws the seat's other models toward the other side's (never by
        default), from who stands within reach of each goal (`_within`)."""
        return False

    def staging(self, view: GameView, player: int) -> list[Cell]:
        """Where ``player``'s models draw while the table shows neither an objective nor
        an enemy (deploying first with no marker); none by default: closeness counts
        nothing then."""
        return []

    def shunned(self, view: GameView) -> frozenset[Cell]:
        """Goals a model that cannot hold one (`presence`) is not drawn to: it would
        only stand in the way (none by default)."""
        return frozenset()

    def presence(self, model: ModelView) -> int:
        """What ``model`` does to an objective within reach: `HOLDS` (it may hold it, and
        keeps the other side from it), `DENIES` (it only keeps the other side from it: a
        wh40k6 Warlord or tank is no scoring unit) or 0 (neither)."""
        return HOLDS

    def wanted(
        self, goals: list[Cell], standing: list[ModelView], board: Board, model: ModelView
    ) -> list[Cell]:
        """The objectives ``model`` draws toward: with `spread`, those its side does not
        hold without it (all of them when its side holds every one); else ``goals``."""
        if not self.spread or not goals:
            return goals
        return self._open(goals, [self._within(g, standing) for g in goals], model)

    def _open(self, goals: list[Cell], reach: list[Near], model: ModelView) -> list[Cell]:
        """`wanted`, from who stands within reach of each goal (`_within`), worked out
        once for all models (each model's own count was a pass over the whole army: a
        wh40k6 placing weighed forty cells in a fifth of a second)."""
        if not self.spread or not goals:
            return goals
        owner = footprint_owner(model.id)
        open_goals = [
            g
            for g, (first, second) in zip(goals, reach, strict=True)
            if self._held(_without(first, owner), _without(second, owner), model.player) <= 0
        ]
        return open_goals or goals

    def _contact(self, alive: list[ModelView], seat: int) -> int:
        """The seat's melee edge summed over every pair of enemies in contact."""
        edge = 0
        mine = [(m.cell, self.melee(m)) for m in alive if m.player == seat]
        theirs = [(m.cell, self.melee(m)) for m in alive if m.player != seat]
        for cell, power in mine:
            assert cell is not None
            for other, against in theirs:
                assert other is not None
                if distance(cell, other) <= self.contact_range:
                    edge += power - against
        return edge

    def _material(self, model: ModelView) -> int:
        if model.removed or model.max_wounds <= 0:
            return 0
        value = self.model_value(model)
        left = max(0, min(model.wounds, model.max_wounds))
        return value // 2 + value * left // (2 * model.max_wounds) - self.condition(model)

    def _holder(self, cell: Cell, alive: list[ModelView], board: Board, seat: int) -> int:
        """+1 if ``seat`` holds the objective at ``cell`` (more models within reach, or,
        with `contest`, the only side within reach; a big model counts once; a model that
        only denies it, `presence`, holds nothing), -1 if the other side holds it, else 0."""
        return self._held(*self._within(cell, alive), seat)

    def _within(self, cell: Cell, alive: list[ModelView]) -> Near:
        """Each side's models within reach of the objective at ``cell`` (a big model
        once), each with its `presence` (models with none left out)."""
        owners: Near = ({}, {})
        for model in alive:
            assert model.cell is not None
            if distance(model.cell, cell) <= self.hold_range:
                presence = self.presence(model)
                if presence:
                    owner = footprint_owner(model.id)
                    side = owners[model.player]
                    side[owner] = max(presence, side.get(owner, 0))
        return owners

    def _held(self, first: dict[str, int], second: dict[str, int], seat: int) -> int:
        """`_holder` from each side's models within reach (`_within`)."""
        sides = (first, second)
        holding = [sum(p == HOLDS for p in side.values()) for side in sides]
        if self.contest:
            mine, theirs = holding[seat] > 0, holding[1 - seat] > 0
            return (mine and not sides[1 - seat]) - (theirs and not sides[seat])
        return (holding[seat] > holding[1 - seat]) - (holding[1 - seat] > holding[seat])

    def _placement(
        self,
        model: ModelView,
        alive: list[ModelView],
        goals: list[Cell],
        board: Board,
        approach: bool = True,
    ) -> int:
        """Cover and closeness to what matters (when ``approach``), for one model."""
        cell = model.cell
        assert cell is not None
        value = self.cover_weight if in_cover(board, cell) else 0
        targets = goals or [m.cell for m in alive if m.player != model.player and m.cell]
        if targets and approach:
            near = min(distance(cell, t) for t in targets) - self.standoff(model)
            value -= self.approach_weight * min(max(near, 0), 48)
        if self.keeps_distance(model):
            value -= self.leader_weight * SCALE * exposed(model, alive) // 10
        return value


def _without(near: dict[str, int], model_id: str) -> dict[str, int]:
    """``near`` without one model (does its side hold the objective without it?)."""
    return {key: value for key, value in near.items() if key != model_id}


def number(text: str, default: int = 0) -> int:
    """The leading whole number of a profile value ("3+" -> 3, "10 cm (4)" -> 10), kept
    within 0..99; ``default`` when there is none (a "-")."""
    digits = ""
    for char in text.strip():
        if not char.isdigit():
            break
        digits += char
    return min(int(digits), 99) if digits else default


def in_cover(board: Board, cell: Cell) -> bool:
    """The cell is cover, or touches cover or a wall (something to hide behind)."""
    return cell in _cover_cells(board)


_COVER: list[tuple[Board, frozenset[Cell]]] = []
"""The cover cells of the last boards asked about (a board never changes in play)."""


def _cover_cells(board: Board) -> frozenset[Cell]:
    for known, cells in _COVER:
        if known is board:
            return cells
    hiding = (Terrain.COVER, Terrain.BLOCKING)
    cells = frozenset(
        cell
        for cell in board.cells()
        if board.kind(cell) in (Terrain.COVER, Terrain.DIFFICULT)
        or any(
            Cell(cell.x + dx, cell.y + dy) in board
            and board.kind(Cell(cell.x + dx, cell.y + dy)) in hiding
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )
    )
    _COVER[:] = [*_COVER[-7:], (board, cells)]
    return cells


def exposed(model: ModelView, alive: list[ModelView]) -> int:
    """How many enemy models stand within 6 inches of ``model`` (threat to a leader)."""
    assert model.cell is not None
    return sum(
        1
        for m in alive
        if m.player != model.player and m.cell is not None and distance(m.cell, model.cell) <= 6
    )
