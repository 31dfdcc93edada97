"""A quick worth for each option of a Decision, from what the option itself says.

Reads only the Decision (its odds, cells, models and whether it ends a phase), the public
`GameView` and the board: no copy of a rule. The easy player plays by it; the normal one
uses it to pick which few options to look ahead on, and to play its own future moves in
that look-ahead.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from fractions import Fraction

from engine.board import Board, Cell, distance
from engine.bot.evaluation import SCALE, Evaluation, in_cover
from engine.decisions import Decision, DecisionKind, Odds, Option
from engine.view import GameView

ENEMIES = 16
"""Most enemy models a cell's distance is measured to."""

PASSING = frozenset({"pass", "nothing", "decline", "none", "stay"})
"""Keys of options that give up an action: worth less than doing something."""


SPEND = 2 * SCALE + 1
"""What spending something scarce (a command point) costs an option that shows its odds
(`Option.spends`): an odds-weighed option is worth 4 `SCALE` times its chance, so the
point is spent only where the odds say it more likely than not does better (at even
odds the point is kept)."""

ROUNDABOUT = SCALE // 4
"""What another way than a cell costs where cells are offered (`OptionScorer._roundabout`)."""

MARKER = 4
"""Worth of each inch a marker placed stands nearer the seat's own deployment zone than
the other side's."""


TELLING = ("kill", "slay", "wound", "lost")
"""Words of named outcomes that say more than the first one ("if undefended: lands
83%, wounds 76%, kills 9%": the kill and the wound are what an attack is for; "hull point
lost 0%": a hit that cannot hurt a vehicle is no use)."""


def passing(option: Option) -> bool:
    """The option gives up an action ("Pass", "Nothing", "Do not ...")."""
    return option.key in PASSING or option.label.startswith(("Pass", "Do not"))


def chance(odds: Odds) -> Fraction:
    """The most telling chance an option shows: slay, else unsaved, wound, else a named
    kill, wound or loss chance, else hit, else the first named outcome ("charge
    succeeds"). A named loss goes before the hit: a wh40k6 vehicle's odds give its hit
    and the hull points it loses, and a horde took its 33% hit on a tank it could not
    damage for its best target."""
    for value in (odds.slay, odds.unsaved, odds.wound):
        if value is not None:
            return value
    for word in TELLING:
        for label, value in odds.chances:
            if word in label:
                return value
    if odds.hit is not None:
        return odds.hit
    return odds.chances[0][1] if odds.chances else Fraction(0)


def kill_chance(odds: Odds) -> Fraction:
    """How likely the option takes its target out (for choosing whom to attack): the
    slay or named kill chance, else the telling chance itself."""
    if odds.slay is not None:
        return odds.slay
    for label, value in odds.chances:
        if "kill" in label or "slay" in label:
            return value
    return chance(odds)


class OptionScorer:
    """Scores every option of one Decision for the seat that must answer it."""

    def __init__(
        self, decision: Decision, view: GameView, board: Board, evaluation: Evaluation
    ) -> None:
        self.decision = decision
        self.view = view
        self.board = board
        self.evaluation = evaluation
        self.seat = decision.player
        alive = [m for m in view.models if not m.removed and m.cell is not None]
        enemies = [m.cell for m in alive if m.player != self.seat and m.cell is not None]
        step = 1 + len(enemies) // ENEMIES
        self.enemies = enemies[::step]
        """Every enemy model, or an even sample of a big army's (a cell's distance to the
        nearest is what counts)."""
        self.goals = evaluation.goals(view, board)
        self.mover = view.model(decision.subject) if decision.subject else None
        if self.mover is not None:  # an objective its side holds without it draws it no more
            self.goals = evaluation.wanted(self.goals, alive, board, self.mover)
        self.kept = next(
            (o for o in decision.options if o.key == "done" and o.odds is not None), None
        )
        """"Done" with odds of its own: what is declared so far ("Done: charge A2")."""
        self.camps = evaluation.camps(view, decision)
        """A marker placed: the middles of the seat's own and the other deployment zone."""

    def score(self, option: Option) -> int:
        """Higher is better; about `SCALE` for one enemy model taken out."""
        value = 0
        likely = Fraction(1)
        if option.odds is not None:
            likely = chance(option.odds)
            value += int(likely * 3 * SCALE) + int(kill_chance(option.odds) * SCALE)
            if likely == 0:
                value -= SCALE // 2  # the engine says it cannot work ("will fail")
            if option.spends:
                value -= SPEND
        if option.model is not None:
            value += int(self._model(option.model) * likely)
        if option.cell is not None and self.decision.kind is DecisionKind.PICK_CELL:
            value += self._cell(option.cell)
            if self.mover is not None and option.cell == self.mover.cell:
                value -= SCALE // 2  # a move that stays put spends the action for nothing
        value += self.evaluation.option_worth(option)
        if self.kept is not None and option is not self.kept:
            value -= SCALE // 2  # one more target: one more enemy reacts, for no better odds
        if option.ends:
            value -= 3 * SCALE
        elif passing(option):
            value -= SCALE
        return value

    def _model(self, model_id: str) -> int:
        """An enemy target: a leader, or one nearly dead, is worth more."""
        model = self.view.model(model_id)
        if model is None or model.player == self.seat:
            return 0
        value = self.evaluation.model_value(model) // 4
        if model.max_wounds > 0:
            value += SCALE * (model.max_wounds - model.wounds) // (4 * model.max_wounds)
        return value

    def _cell(self, cell: Cell) -> int:
        """Where to go: onto objectives, near the enemy, into cover; a marker near
        the seat's own deployment zone, far from the other."""
        if self.camps is not None:
            own, other = self.camps
            return MARKER * (distance(cell, other) - distance(cell, own))
        value = SCALE // 5 if in_cover(self.board, cell) else 0
        if self.goals:
            near = min(distance(cell, g) for g in self.goals)
            value -= 4 * min(near, 60)
            if near <= self.evaluation.hold_range:
                value += SCALE
        if self.enemies:
            near = min(distance(cell, e) for e in self.enemies)
            weight = 1 if self.goals else 4
            if self.mover is not None and self.evaluation.keeps_distance(self.mover):
                weight = -2  # a leader keeps its distance
            elif self.mover is not None:  # a shooter is content at its range
                near = max(0, near - self.evaluation.standoff(self.mover))
            value -= weight * min(near, 60)
        return value

    def scored(self, limit: int | None = None) -> list[tuple[int, Option]]:
        """(score, option) best first; of options tied, the one the engine suggests first
        (a vehicle facing the centre: the quick worth cannot tell facings apart, and every
        computer tank faced north, its rear to an enemy in the south), then the offered
        order (deterministic).

        ``limit`` scores only an even sample of that many options (a look-ahead's own
        moves among hundreds of cells), always with those that name no cell."""
        options = self.decision.options
        if limit is not None and len(options) > limit:
            step = len(options) // limit + 1
            options = tuple(o for i, o in enumerate(options) if i % step == 0 or o.cell is None)
        scored = [(self.score(o), i, o) for i, o in enumerate(options)]
        if self.decision.kind is DecisionKind.PICK_CELL:
            scored = self._roundabout(scored)
        scored.sort(key=lambda t: (-t[0], not t[2].suggested, t[1]))
        return [(score, option) for score, _, option in scored]

    def _roundabout(self, scored: list[tuple[int, int, Option]]) -> list[tuple[int, int, Option]]:
        """Where to go, asked with other ways beside the cells ("Place the models one by
        one", "Put in Reserve", "Embark"): such a way is worth a little less than the best
        cell offered. Valued by itself it was worth nothing, more than every cell a few
        inches from an objective: a wh40k6 unit was placed model by model (a dozen
        choices, often out of coherency and placed again), an Apocalypse army waited in
        reserve."""
        cells = [value for value, _, option in scored if option.cell is not None]
        if not cells:
            return scored
        best = max(cells) - ROUNDABOUT
        return [
            (best, i, o)
            if o.cell is None and o.odds is None and not o.ends and not passing(o)
            else (value, i, o)
            for value, i, o in scored
        ]

    def ranked(self) -> list[Option]:
        """The options best first."""
        return [option for _, option in self.scored()]
