"""The computer opponents: easy and normal, and `make_bot` to pick one by name.

Both answer the game's pending Decision for the seat it belongs to, through the same
Choices a person makes, and see only what that seat may see:

- easy plays the quick worth of each option (engine.bot.heuristic), now and then a
  lesser one, and looks ahead on yes/no questions only;
- normal takes the few best of those that are close calls (in the battle only on yes/no
  questions where the ruleset's `Evaluation.foresight` says so) and, for each, plays on a few
  choices (both sides by the quick worth) in a copy of the game, then values the result
  with the ruleset's `Evaluation`. The copy is the game restored from its last
  checkpoint, its future dice re-seeded (the real dice are not foreseen) and the other
  side's secrets replaced by a guess (`Ruleset.conceal`); the evaluation reads only the
  public view.

Seeded and deterministic: the same seed, game and Decision give the same Choice.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from typing import Protocol

from engine.bot.evaluation import SCALE
from engine.bot.heuristic import OptionScorer, passing
from engine.bot.peril import peril
from engine.bot.placing import weighed_move
from engine.bot.random_bot import RandomBot
from engine.checkpoints import last_at
from engine.decisions import Choice, DecisionKind, Option
from engine.dice import face
from engine.game import Game

LEVELS = ("easy", "normal", "random")
"""Names a player may pick (``--bots normal,random``, the new-game form)."""

RESTORE = 4
"""A look-ahead copy's restore (decoding the checkpoint's state) costs about as much as
this many choices."""

WIN = 1_000_000
"""Worth of a won game in a look-ahead (more than any position)."""


class Player(Protocol):
    """Anything that answers a game's pending Decision."""

    level: str

    def decide(self, game: Game) -> Choice:
        """A legal Choice for ``game.pending``."""
        ...


class RandomPlayer:
    """The random bot as a `Player`."""

    level = "random"

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)

    def decide(self, game: Game) -> Choice:
        assert game.pending is not None
        return self.bot.choose(game.pending)


def scorer(game: Game) -> OptionScorer:
    """The quick scorer for ``game``'s pending Decision (public view only)."""
    assert game.pending is not None
    return OptionScorer(game.pending, game.view(), game.board, game.ruleset.EVALUATION)


class NormalPlayer:
    """Looks a few choices ahead on the close calls among its best options, keeps the best."""

    level = "normal"
    width = 3
    """How many options it looks ahead on."""
    plies = 4
    """Choices played on in one look-ahead (both sides' by the quick worth, the other
    side's secrets guessed), so an attack is seen through its defence and dice."""
    few = 12
    """Decisions with more options (cells to move to) go by the quick worth alone."""
    sample = 48
    """In a look-ahead, its moves among more options than this are chosen from a sample."""
    futures = 3
    """Most futures of the dice each option is played on (the same ones for every
    option), so one lucky or unlucky throw does not decide (a failed Rout test in the
    one future looked at made refusing to rout look as bad as routing)."""
    margin = SCALE // 2
    """Options whose quick worth trails the best by this much are not looked at: the
    look-ahead is for close calls (which model, which action, a re-roll)."""

    weighs_moves = True
    """Where a ruleset asks (`Evaluation.moves`), a move among many cells is weighed by
    the evaluation; easy goes where the quick worth says."""
    judges = True
    """Where the ruleset's evaluation values a choice itself (`Evaluation.judge`), it
    takes that choice; easy does not."""
    spots = 32
    """Where a model goes by the evaluation alone (`Evaluation.moves` "sample"): cells of this even
    sample of those offered, with the best few by the quick worth, are weighed, then the
    cells next to the best of them."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def decide(self, game: Game) -> Choice:
        decision = game.pending
        assert decision is not None
        if any(o.spends and o.odds is not None for o in decision.options):
            # spending is weighed by the engine's odds against its cost: a look-ahead
            # counts no command point, and its few futures of the dice are no better
            # judge than the odds (normal re-rolled an Advance of 5 and got a 2); nor is
            # an answer given before a reason for another (`fresh`): each throw is new
            return Choice(decision.id, scorer(game).scored()[0][1].key)
        if self.judges and game.ruleset.EVALUATION.judging:
            events = [e for e in game.events if not e.get("private")]
            key = game.ruleset.EVALUATION.judge(decision, game.view(), game.board, events)
            if key is not None and any(o.key == key for o in decision.options):
                return Choice(decision.id, key)
        scored = fresh(game, scorer(game).scored())
        evaluation = game.ruleset.EVALUATION
        if self.judges:
            needless = evaluation.needless(decision, game.view())
            scored = [(s, o) for s, o in scored if o.key not in needless] or scored
        if len(scored) > self.few and self.weighs_moves:
            move = weighed_move(game, scored, self.spots)
            if move is not None:
                return Choice(decision.id, move.key)
        close = self.candidates(
            scored, evaluation.kinds, evaluation.ties, evaluation.actions, evaluation.stops
        )
        battle = bool(game.checkpoints) and game.checkpoints[-1].round >= 1
        foresees = evaluation.foresight or decision.kind is DecisionKind.YES_NO
        looks = self.looks(game) if foresees else 0
        close = close[:looks]
        if len(close) <= 1 or len(scored) > self.few or not (battle or self.mustering(game)):
            return Choice(decision.id, scored[0][1].key)

        futures = max(1, min(self.futures, looks // len(close)))
        seeds = [face(self.seed + k, decision.id, 1 << 30) for k in range(futures)]
        best, best_value = close[0], None
        for option in close:
            value = sum(self.look(game, option, dice_seed) for dice_seed in seeds)
            if best_value is None or value > best_value:
                best, best_value = option, value
        return Choice(decision.id, best.key)

    def candidates(
        self,
        scored: list[tuple[int, Option]],
        kinds: bool = True,
        ties: bool = True,
        actions: bool = False,
        stops: bool = True,
    ) -> list[Option]:
        """The options worth a look-ahead, in the order they are looked at: the best few
        within `margin` of the best; then the best of each kind not among them (one that
        stops, one the engine gives odds for, one it gives none for: when few looks are
        affordable, stopping is weighed first), so a charge with odds is weighed against
        walking and shooting, and stopping against both; then
        the rest of those tied with the best (the quick worth cannot tell them apart).
        Without ``kinds`` (`Evaluation.kinds`) only the best stopping option joins the
        best few; without ``ties`` (`Evaluation.ties`) the tied ones do not; with
        ``actions`` (`Evaluation.actions`) the best of each action does; without
        ``stops`` (`Evaluation.stops`) stopping joins only as one of the best few."""
        top = scored[0][0]
        close = [o for s, o in scored[: self.width] if top - s < self.margin]
        for kind in ((2, 0, 1) if kinds else (2,))[0 if stops else 1 :]:
            best = next((o for _, o in scored if _kind(o) == kind), None)
            if best is not None and all(_kind(o) != kind for o in close):
                close.append(best)
        if actions and any(":" in o.key for _, o in scored):  # `Evaluation.actions`
            for _, option in scored:
                action = option.key.partition(":")[0]
                fresh = all(o.key.partition(":")[0] != action for o in close)
                if option.cell is None and fresh:
                    close.append(option)
        if ties:
            close += [o for s, o in scored if s == top and o not in close]
        return close

    def depth(self, game: Game) -> int:
        """Choices played on after the option: `plies`, or the ruleset's own
        (`Evaluation.depth`: a charge takes more choices to play out in some rules;
        `Evaluation.muster` before the first checkpoint: a whole roster)."""
        if self.mustering(game):
            return game.ruleset.EVALUATION.muster
        return game.ruleset.EVALUATION.depth or self.plies

    def mustering(self, game: Game) -> bool:
        """Before the first checkpoint (rosters), where the ruleset asks for a look-ahead;
        never on a yes/no question (agreeing to the scenario's points format is no
        roster: a look-ahead through two rosters built on either answer refused it on
        one future in three)."""
        pending = game.pending
        return (
            game.ruleset.EVALUATION.muster > 0
            and not game.checkpoints
            and (pending is None or pending.kind is not DecisionKind.YES_NO)
        )

    def looks(self, game: Game) -> int:
        """How many options it may look ahead on now, within the ruleset's budget of
        choices per decision (`Evaluation.budget`): each look-ahead replays the choices
        since the last checkpoint, costs as much as `RESTORE` choices to restore, and
        plays `depth` more. Counted in choices, not seconds, so it stays deterministic.
        Never fewer than two: a yes/no question may end the game (concede, rout)."""
        index = last_at(game.checkpoints, len(game.choices))
        if index is None and not self.mustering(game):
            return 0
        replay = len(game.choices) - (0 if index is None else game.checkpoints[index].step)
        return max(2, game.ruleset.EVALUATION.budget // (RESTORE + replay + self.depth(game) + 1))

    def look(self, game: Game, option: Option, dice_seed: int) -> int:
        """Worth for the seat of taking ``option``, then playing on a few choices."""
        decision = game.pending
        assert decision is not None
        seat = decision.player
        copy = lookahead_copy(game, seat, dice_seed)
        if copy is None:
            return 0
        try:
            copy.choose(Choice(decision.id, option.key))
            steps = 0
            evaluation = game.ruleset.EVALUATION
            settle = evaluation.settle and not self.mustering(game)
            while copy.pending is not None and steps < self.depth(game):
                if settle and copy.pending.kind is DecisionKind.PICK_MODEL:
                    break  # the activation is played out: the next one is another call
                rival = copy.pending.player != seat
                if rival and evaluation.horizon(copy.view(), copy.pending.player, seat):
                    break  # its own move played out: the other side's reply is not guessed
                pick = scorer(copy).scored(self.sample)[0][1]
                copy.choose(Choice(copy.pending.id, pick.key))
                steps += 1
        except Exception:  # an engine failure in a copy: never the option to take
            return -2 * WIN
        value = worth(copy, seat)
        if copy.outcome is not None and copy.outcome.winner is not None:
            value += steps if value < 0 else -steps  # lose late, win soon: never give up
        return value


def _kind(option: Option) -> int:
    """0: the engine gives odds for it (an attack, a charge); 1: it does something the
    odds do not tell; 2: it stops (pass, end the phase, stay)."""
    if option.ends or passing(option):
        return 2
    return 0 if option.odds is not None else 1


class EasyPlayer(NormalPlayer):
    """Plays the best-looking option, one time in four a random one of the best three;
    looks one choice ahead on yes/no questions only (so it does not concede a game)."""

    level = "easy"
    weighs_moves = False
    judges = False
    width = 2
    few = 2
    futures = 1
    """A yes/no answer is valued on one future of the dice (the three of normal's made
    easy as slow as normal where a ruleset's budget is large)."""
    slip = 4

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.picks = 0

    def depth(self, game: Game) -> int:
        """A yes/no question is valued as it stands right after the answer."""
        return 0

    def decide(self, game: Game) -> Choice:
        decision = game.pending
        assert decision is not None
        self.picks += 1
        if len(decision.options) > 1 and face(self.seed ^ 0xEA5E, self.picks, self.slip) == 1:
            ranked = [option for _, option in fresh(game, scorer(game).scored())]
            pick = ranked[face(self.seed ^ 0xEA5F, self.picks, min(3, len(ranked))) - 1]
            return Choice(decision.id, pick.key)
        return super().decide(game)


def fresh(game: Game, scored: list[tuple[int, Option]]) -> list[tuple[int, Option]]:
    """``scored`` without the options the seat already took at this very question (same
    prompt, same options) in this battle round, unless that leaves none.

    A question seen again in one round means the answer came back to it ("Start again"
    re-places a unit, then asks the same thing): a player that answers one position the
    same way every time would go round for ever (a wh40k6 normal player re-placed a mob
    18,000 times, a checkpoint taken at each try). Another answer each time the question
    returns ends the circle."""
    pending = game.pending
    assert pending is not None
    index = last_at(game.checkpoints, len(game.choices))
    start = 0
    if index is not None:
        now = game.checkpoints[index].round
        while index > 0 and game.checkpoints[index - 1].round == now:
            index -= 1
        start = game.checkpoints[index].step
    keys = [option.key for option in pending.options]
    taken = {
        choice.key
        for asked, choice in zip(game.answered[start:], game.choices[start:], strict=True)
        if asked.player == pending.player
        and asked.prompt == pending.prompt
        and [option.key for option in asked.options] == keys
    }
    return [(s, o) for s, o in scored if o.key not in taken] or scored


def lookahead_copy(game: Game, seat: int, dice_seed: int) -> Game | None:
    """A throwaway copy of ``game`` at its pending Decision, as ``seat`` may know it:
    restored from the last checkpoint (or replayed from the start, before the first),
    future dice re-seeded, the other side's secrets guessed. None before the first
    checkpoint of a game started from a position."""
    index = last_at(game.checkpoints, len(game.choices))
    if index is not None:
        copy = game.restored(index, game.choices, hashes=False)
    elif game.position is None:  # setting up: the few choices so far, replayed
        copy = Game(game.scenario, game.seed, hashes=False)
        for choice in game.choices:
            copy.choose(choice)
    else:
        return None
    copy.dice.seed = dice_seed
    copy.ruleset.conceal(seat, dice_seed)
    return copy


def worth(game: Game, seat: int) -> int:
    """The seat's worth of ``game``: the result if over, else the ruleset's evaluation
    less what its wounded leaders risk (`peril`)."""
    if game.outcome is not None:
        if game.outcome.winner is None:
            return 0
        return WIN if game.outcome.winner == seat else -WIN
    return game.ruleset.EVALUATION.score(game.view(), game.board, seat) - peril(game, seat)


def make_bot(level: str, seed: int) -> Player:
    """The player named ``level`` (one of `LEVELS`), seeded.

    Raises:
        ValueError: an unknown level, naming the known ones.
    """
    if level == "easy":
        return EasyPlayer(seed)
    if level == "normal":
        return NormalPlayer(seed)
    if level == "random":
        return RandomPlayer(seed)
    raise ValueError(f"unknown computer player {level!r}: choose one of {', '.join(LEVELS)}")
