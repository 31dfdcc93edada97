"""Rule cases: a position, the dice that will fall, the choices made, and what must follow.

The conformance suite of every ruleset is a folder of these TOML files (OpenSpiel's
playthroughs, chess's EPD suites). A case passes when, starting from its position with
its scripted dice and choices, the game shows the expected events (in order, by kind and
fields), model states, side resources and next decider. Failures say expected versus got.

Layout::

    name = "D6: failed charge, then a Command Re-roll"
    source = "killteam §9 D6"
    dice = [3, 2, { face = 4, reason = "charge" }]   # draw order; reason must match
    choices = ["A1", "charge", "yes"]                 # option keys, in order; or a table
    # { choose = "yes", offered = ["yes"], absent = ["no"] }: what that decision offers
    [position]                                        # a position table (engine.position)
    ...
    [expect]
    next_player = 2                 # 1 or 2; 0 = the game is over
    next_prompt = "Fight"           # substring of the next Decision's prompt
    next_options = ["B2", "B3"]     # the next Decision's option keys (any order)
    offered = ["B2"]                # keys the next Decision must offer (others may too)
    absent = ["retreat"]            # keys it must not offer: what the rules forbid
    dice_left = 0                   # scripted faces left unrolled (default 0)
    [[expect.events]]               # must occur in this order (others may come between)
    kind = "ChargeFailed"
    model = "A1"
    [expect.models.A1]              # fields of the model's view
    cell = [5, 0]
    facing = "NE"                   # N, NE, E ... (rulesets with facings)
    wounds = 1
    removed = false
    states = ["failed charge"]      # must all be present
    not_states = ["charged"]        # must all be absent
    [expect.sides.1]                # player 1 or 2: resources by label, and score
    CP = "1"
    score = 0

A case folder may also hold scenario files its positions share (``scenario =
"open-ground.toml"``, found beside the case): a file with a top-level ``ruleset`` key
is a scenario, and ``wargrid check FOLDER`` does not run it as a case.

Instead of ``[position]`` and ``dice``, a case may name a save beside it (``save =
"bug.wargrid"``): the save is replayed and the choices follow. A bug report written when
the engine failed on a choice is such a case, so ``wargrid check`` reproduces the failure
and passes once it is fixed. An engine exception is an ERROR of its case (the exception,
where, the last decision), never the end of the run.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import tomllib
import traceback
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.dice import Dice
from engine.errors import EngineBugError, WargridError
from engine.events import Event
from engine.facing import NAMES
from engine.game import Game
from engine.position import position_from_data
from engine.save import read_save, replay
from engine.view import GameView


@dataclass(slots=True)
class CaseResult:
    """The verdict on one rule case."""

    path: str
    name: str
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """The engine crashed: the exception, where, and the last decision (a rules bug)."""

    @property
    def passed(self) -> bool:
        return not self.failures and not self.errors

    def describe(self) -> str:
        """PASSED/FAILED/ERROR line, then one indented line per failure or error."""
        verdict = "ERROR" if self.errors else "PASSED" if self.passed else "FAILED"
        head = f"{verdict} {self.path}: {self.name}"
        return "\n".join([head, *(f"    {f}" for f in [*self.errors, *self.failures])])


def case_files(paths: Sequence[str | Path]) -> Iterator[Path]:
    """The .toml files named, or found under the folders named, in sorted order.

    A folder may hold scenario files its cases share (``scenario = "open-ground.toml"``):
    those are not cases and are left out. A file named on its own is always run.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from (p for p in sorted(path.rglob("*.toml")) if not is_scenario_file(p))
        else:
            yield path


def is_scenario_file(path: Path) -> bool:
    """A scenario, not a case: its top level names the ruleset (a case's never does).

    A file that cannot be read is not a scenario, so running it reports the problem.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return "ruleset" in data and "expect" not in data


def run_case(path: str | Path) -> CaseResult:
    """Run one rule case file; problems with the file itself are failures too."""
    path = Path(path)
    result = CaseResult(str(path), path.stem)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        result.failures.append(f"cannot read the case: {exc}")
        return result
    result.name = str(data.get("name", path.stem))
    progress = _Progress()
    try:
        game = _play(data, path, progress)
        _check(game, data.get("expect", {}), result.failures)
    except EngineBugError as exc:
        result.errors += [f"engine error: {exc}", _where(exc.trace)]
    except (WargridError, _CaseError) as exc:
        result.failures.append(str(exc))
    except Exception as exc:  # a rules bug outside any choice: the case's error, not check's
        trace = traceback.format_exc()
        result.errors += [f"engine error: {type(exc).__name__}: {exc}", _where(trace)]
        result.errors.append(f"last decision: {progress.last}")
    return result


class _CaseError(Exception):
    """The case cannot be played as written."""


@dataclass(slots=True)
class _Progress:
    """How far a case got, for the report of an engine crash outside a choice."""

    last: str = "none: the game did not start"


def _where(trace: str) -> str:
    """The innermost frame of a traceback: where the engine failed."""
    frames = [line.strip() for line in trace.splitlines() if line.strip().startswith("File ")]
    return f"at {frames[-1]}" if frames else "at an unknown place"


def _play(data: Mapping[str, Any], path: Path, progress: _Progress) -> Game:
    if "save" in data:
        return _play_save(data, path, progress)
    raw_position = data.get("position")
    if not isinstance(raw_position, dict):
        raise _CaseError("key 'position' must be a table (a position, see engine.position)")
    position = position_from_data(raw_position, f"{path} [position]", "", base=path.parent)
    dice = Dice.scripted([_face(d) for d in data.get("dice", [])])
    game = Game(position.scenario, 0, dice=dice, position=position)
    _choose(game, data, progress)
    if position.next_player is not None and game.answered:
        first = game.answered[0].player
        if first != position.next_player:
            raise _CaseError(
                f"position says player {position.next_player + 1} decides first, "
                f"but the rules gave the first decision to player {first + 1}"
            )
    return game


def _play_save(data: Mapping[str, Any], path: Path, progress: _Progress) -> Game:
    """A case that starts from a save (a bug report): replay it, then make the choices."""
    name = data["save"]
    if not isinstance(name, str) or not name:
        raise _CaseError("key 'save' must name a .wargrid file beside the case")
    game = replay(read_save(path.parent / name), verify=True)
    _choose(game, data, progress)
    return game


def _choose(game: Game, data: Mapping[str, Any], progress: _Progress) -> None:
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise _CaseError("key 'choices' must be a list of option keys")
    for step, entry in enumerate(choices, start=1):
        key = entry.get("choose") if isinstance(entry, dict) else entry
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            raise _CaseError(f'choice {step}: give an option key or {{ choose = "KEY", ... }}')
        if game.pending is None:
            raise _CaseError(f"choice {step} ({key!r}): the game is already over")
        if isinstance(entry, dict):
            wrong = _offers(game, entry)
            if wrong:
                raise _CaseError(f"choice {step} ({game.pending.prompt!r}): {wrong}")
        if str(key) not in game.pending:
            raise _CaseError(
                f"choice {step}: {key!r} is not an option of {game.pending.prompt!r} "
                f"(options: {', '.join(game.pending.keys()[:15])})"
            )
        progress.last = f"#{game.pending.id} {game.pending.prompt!r}, choice {key!r}"
        game.choose_key(str(key))
        progress.last = "none pending" if game.pending is None else game.pending.prompt


def _offers(game: Game, expect: Mapping[str, Any]) -> str:
    """What is wrong with the pending Decision's options against ``offered`` and ``absent``
    (keys it must and must not offer); empty when nothing is."""
    keys = [] if game.pending is None else list(game.pending.keys())
    problems = []
    for name, must in (("offered", True), ("absent", False)):
        want = expect.get(name, [])
        if not isinstance(want, list):
            raise _CaseError(f"key {name!r} must be a list of option keys")
        bad = [str(k) for k in want if (str(k) in keys) != must]
        if bad:
            verb = "does not offer" if must else "offers"
            problems.append(f"{verb} {bad} (options: {', '.join(keys[:15]) or 'none'})")
    return "; ".join(problems)


def _face(raw: Any) -> int | tuple[int, str]:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, dict) and isinstance(raw.get("face"), int):
        reason = raw.get("reason")
        return (raw["face"], reason) if isinstance(reason, str) else raw["face"]
    raise _CaseError(f'dice entry {raw!r} must be a face or {{ face = N, reason = "..." }}')


def _check(game: Game, expect: Mapping[str, Any], failures: list[str]) -> None:
    view = game.view()
    _check_next(game, expect, failures)
    left = getattr(game.dice, "unused", 0)
    if left != expect.get("dice_left", 0):
        failures.append(f"dice left unrolled: expected {expect.get('dice_left', 0)}, got {left}")
    _check_events(game.events, expect.get("events", []), failures)
    for model_id, fields in expect.get("models", {}).items():
        _check_model(view, model_id, fields, failures)
    for player, fields in expect.get("sides", {}).items():
        _check_side(view, player, fields, failures)


def _check_next(game: Game, expect: Mapping[str, Any], failures: list[str]) -> None:
    if "next_player" in expect:
        got = 0 if game.pending is None else game.pending.player + 1
        if got != expect["next_player"]:
            failures.append(f"next decider: expected {expect['next_player']}, got {got}")
    if "next_options" in expect:
        keys = list(game.pending.keys()) if game.pending is not None else []
        want = expect["next_options"]
        if not isinstance(want, list) or sorted(map(str, want)) != sorted(keys):
            failures.append(f"next options: expected {want!r}, got {keys!r}")
    wrong = _offers(game, expect)
    if wrong:
        failures.append(f"next decision {wrong}")
    if "next_prompt" in expect:
        prompt = "(game over)" if game.pending is None else game.pending.prompt
        if str(expect["next_prompt"]) not in prompt:
            failures.append(
                f"next prompt: expected to contain {expect['next_prompt']!r}, got {prompt!r}"
            )


def _check_events(events: Sequence[Event], wanted: Sequence[Any], failures: list[str]) -> None:
    at = 0
    for spec in wanted:
        fields = {k: v for k, v in spec.items() if k != "kind"}
        while at < len(events) and not _matches(events[at], spec.get("kind"), fields):
            at += 1
        if at == len(events):
            seen = [e.kind for e in events][-12:]
            failures.append(f"event: expected {spec} (in order), not found; last events: {seen}")
            return
        at += 1


def _matches(event: Event, kind: object, fields: Mapping[str, Any]) -> bool:
    return event.kind == kind and all(event.get(k) == v for k, v in fields.items())


def _check_model(
    view: GameView, model_id: str, fields: Mapping[str, Any], failures: list[str]
) -> None:
    model = view.model(model_id)
    if model is None:
        failures.append(f"model {model_id}: no such model")
        return
    got = {
        "cell": None if model.cell is None else [model.cell.x, model.cell.y],
        "wounds": model.wounds,
        "removed": model.removed,
        "facing": None if model.facing is None else NAMES[model.facing % len(NAMES)],
    }
    for key, want in fields.items():
        if key == "states":
            missing = [s for s in want if s not in model.states]
            if missing:
                failures.append(f"model {model_id}: states {list(model.states)} lack {missing}")
        elif key == "not_states":
            present = [s for s in want if s in model.states]
            if present:
                failures.append(f"model {model_id}: states {list(model.states)} have {present}")
        elif key not in got:
            failures.append(f"model {model_id}: unknown field {key!r} (use {', '.join(got)})")
        elif got[key] != want:
            failures.append(f"model {model_id} {key}: expected {want!r}, got {got[key]!r}")


def _check_side(
    view: GameView, player: str, fields: Mapping[str, Any], failures: list[str]
) -> None:
    if player not in ("1", "2"):
        failures.append(f"sides.{player}: use 1 or 2")
        return
    side = view.sides[int(player) - 1]
    resources = dict(side.resources)
    for key, want in fields.items():
        got: object = side.score if key == "score" else resources.get(key)
        if key != "score" and key not in resources:
            failures.append(f"side {player}: no resource {key!r} (has {', '.join(resources)})")
        elif got != want:
            failures.append(f"side {player} {key}: expected {want!r}, got {got!r}")
