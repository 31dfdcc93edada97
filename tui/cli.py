"""The ``wargrid`` command line: play, list scenarios, simulate bot games, replay saves.

Every failure the engine explains (a broken scenario, a damaged save, a divergent replay)
is printed as one line on stderr with exit code 2 (1 for a replay that diverged), never as
a traceback. Each subcommand imports what it uses when it runs: Textual only for the UI
(the headless commands start fast and run without a terminal), the bots, the rule cases
and the transcripts only for theirs, so ``wargrid play`` loads no more than the game it
opens.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ReplayMismatchError, ScenarioError, UnknownRulesetError, WargridError
from engine.untrusted import check_seed, printable

if TYPE_CHECKING:
    from textual.app import App

    from engine.game import Game
    from engine.scenario import Scenario

DEFAULT_SCENARIO = "killteam-crossroads.toml"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wargrid`` console script."""
    args = _parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except ReplayMismatchError as exc:
        print(f"wargrid: replay diverged: {_one_line(exc)}", file=sys.stderr)
        return 1
    except WargridError as exc:
        print(f"wargrid: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return code


def _one_line(exc: Exception) -> str:
    """The message on one line, whatever a file smuggled into it (names with newlines,
    terminal escapes in a file name)."""
    text = " / ".join(part.strip() for part in str(exc).splitlines() if part.strip())
    return printable(text if len(text) <= 2000 else text[:2000] + f"... ({len(text):,} characters)")


def _seed(text: str) -> int:
    """A ``--seed`` value, checked where it enters (a 30-digit seed once crashed the save)."""
    try:
        return check_seed(text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def checked_scenario(path: Path) -> Scenario:
    """Read a scenario and check this wargrid has its ruleset (the error names the key)."""
    from engine.rulesets import find_ruleset
    from engine.scenario import find_scenario, load_scenario

    path = find_scenario(path)
    scenario = load_scenario(path)
    try:
        find_ruleset(scenario.ruleset)
    except UnknownRulesetError as exc:
        raise ScenarioError(f"{path}: key 'ruleset': {exc}") from None
    return scenario


def _parser() -> argparse.ArgumentParser:
    from tui.saves import SAVES_VARIABLE  # tui.cli itself imports no other tui module

    parser = argparse.ArgumentParser(
        prog="wargrid", description="Terminal hot-seat tabletop wargames."
    )
    saves_help = (
        f"folder for saves and settings (default: ${SAVES_VARIABLE}, else saves/ of a "
        "checkout, else the user's data folder)"
    )
    parser.set_defaults(run=_play, scenario=None, seed=None, load=None, position=None, saves=None)
    parser.add_argument(
        "--version", action=_Version, help="print the versions a save records, and exit"
    )
    sub = parser.add_subparsers(title="commands")

    play = sub.add_parser("play", help="open the game (main menu, or straight into a game)")
    play.add_argument(
        "scenario", nargs="?", type=Path, help="start a new game on this file (or scenario name)"
    )
    play.add_argument("--seed", type=_seed, help="dice seed (a secret random one if omitted)")
    play.add_argument("--load", type=Path, help="continue a saved game")
    play.add_argument("--position", type=Path, help="start a new game from a position file")
    play.add_argument("--saves", type=Path, metavar="DIR", help=saves_help)
    play.set_defaults(run=_play)

    scen = sub.add_parser("scenarios", help="list the scenarios")
    scen.set_defaults(run=_scenarios)

    sim = sub.add_parser("simulate", help="play bot against bot and print the result")
    sim.add_argument(
        "scenario", type=Path, help="a scenario file, or a name in `wargrid scenarios`"
    )
    sim.add_argument("--seed", type=_seed, default=1, help="dice and bot seed (default 1)")
    sim.add_argument("--save", type=Path, help="write the game to this save file")
    sim.add_argument("--text", action="store_true", help="print the whole game as text")
    sim.add_argument(
        "--bots",
        metavar="A,B",
        help="the computer player of each side, side 1 first: easy, normal or random "
        "(default: one random bot for both)",
    )
    sim.add_argument(
        "--games", type=int, default=1, help="play this many seeds from --seed on, and count"
    )
    sim.set_defaults(run=_simulate)

    chk = sub.add_parser("check", help="run rule case files (or folders of them)")
    chk.add_argument("cases", nargs="+", type=Path)
    chk.set_defaults(run=_check)

    rep = sub.add_parser("replay", help="replay a save: view it, or print / verify it")
    rep.add_argument("path", type=Path)
    rep.add_argument("--verify", action="store_true", help="re-run and check every roll")
    rep.add_argument("--text", action="store_true", help="print the game as text")
    rep.add_argument("--saves", type=Path, metavar="DIR", help=saves_help)
    rep.set_defaults(run=_replay)

    pos = sub.add_parser(
        "position", help="print a save's position at a phase start (wargrid play --position)"
    )
    pos.add_argument("path", type=Path)
    pos.add_argument(
        "--step",
        type=int,
        help="the last phase that began at or before this step (default: the end)",
    )
    pos.set_defaults(run=_position)

    from tui.serve.command import add_serve_command  # options only: asyncssh loads on use

    add_serve_command(sub)
    return parser


class _Version(argparse.Action):
    """``--version``: what a save records (engine and ruleset versions), so a player can tell
    which saves this wargrid verifies. Built only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib import metadata

        from engine.rulesets import RULESETS
        from engine.save import ENGINE_VERSION, FORMAT_VERSION

        try:
            version = metadata.version("wargrid")
        except metadata.PackageNotFoundError:
            version = "(not installed)"
        print(f"wargrid {version}")
        print(f"engine {ENGINE_VERSION}, save format {FORMAT_VERSION}")
        for ruleset in RULESETS:
            info = ruleset.INFO
            print(f"{info.name} {info.version} ({info.title})")
        parser.exit()


def _play(args: argparse.Namespace) -> int:
    from tui import collector

    collector.hold()  # until the first frame (tui.collector)
    try:
        from tui.terminal import run_in_terminal

        run_in_terminal(_play_app(args))
    finally:
        collector.release(freeze=False)  # if no frame was drawn
    return 0


def play_app(argv: Sequence[str]) -> App[None]:
    """The app ``wargrid play ARGV...`` runs, not yet running (tests drive it with Pilot).

    Raises:
        WargridError: a scenario, position or save that cannot be opened.
    """
    return _play_app(_parser().parse_args(["play", *argv]))


def _play_app(args: argparse.Namespace) -> App[None]:
    from engine.position import load_position
    from engine.scenario import find_scenario
    from tui.app import make_app  # Textual loads only for the UI commands
    from tui.saves import saves_folder

    scenario = args.scenario
    if scenario is not None:
        scenario = find_scenario(scenario)
        checked_scenario(scenario)  # a broken file fails here with one clear line
    saves = saves_folder(args.saves)
    if args.position is not None:
        load_position(args.position)
        app = make_app(position=args.position, seed=args.seed, saves_dir=saves)
    else:
        app = make_app(scenario=scenario, seed=args.seed, load=args.load, saves_dir=saves)
    return app


def _scenarios(args: argparse.Namespace) -> int:
    from engine.scenario import scenario_dirs

    found = False
    for folder in scenario_dirs():
        for path in sorted(folder.glob("*.toml")):
            found = True
            try:
                s = checked_scenario(path)
            except WargridError as exc:
                print(f"unusable: {_one_line(exc)}")
                continue
            print(f"{path}\n    {s.describe()} - {s.description}")
    if not found:
        print("no scenarios found (looked in: " + ", ".join(str(d) for d in scenario_dirs()) + ")")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from engine.save import write_save
    from engine.transcript import transcript

    scenario = checked_scenario(args.scenario)
    levels = _bot_levels(args.bots)
    if args.games < 1:
        raise WargridError("--games must be at least 1")
    if args.games > 1 and (args.save or args.text):
        raise WargridError("--save and --text show one game: leave out --games")
    tally = [[0, 0, 0], [0, 0, 0]]  # per side: won, lost, drawn
    for seed in range(args.seed, args.seed + args.games):
        game = _bot_game(scenario, seed, levels)
        if args.text:
            for line in transcript(game):
                print(line)
        outcome = game.outcome
        assert outcome is not None
        winner = "draw" if outcome.winner is None else scenario.sides[outcome.winner]
        print(
            f"{scenario.name}, seed {seed}: {winner} - {outcome.reason} "
            f"({len(game.choices)} choices, {len(game.rolls)} rolls)"
        )
        for side in (0, 1):
            column = 2 if outcome.winner is None else int(outcome.winner != side)
            tally[side][column] += 1
        if args.save:
            write_save(game, args.save)
            print(f"saved to {args.save}")
    if levels is not None and args.games > 1:
        for side in (0, 1):
            won, lost, drawn = tally[side]
            print(
                f"{levels[side]} ({scenario.sides[side]}): {won} won, {lost} lost, "
                f"{drawn} drawn of {args.games}"
            )
    return 0


def _bot_levels(text: str | None) -> tuple[str, str] | None:
    """``--bots easy,normal`` as two known levels (None: the old single random bot)."""
    from engine.bot.players import LEVELS

    if text is None:
        return None
    names = [name.strip().lower() for name in text.split(",")]
    if len(names) != 2 or any(name not in LEVELS for name in names):
        raise WargridError(
            f"--bots wants two names, side 1 first, each one of {', '.join(LEVELS)} "
            f"(got {text[:40]!r})"
        )
    return names[0], names[1]


def _bot_game(scenario: Scenario, seed: int, levels: tuple[str, str] | None) -> Game:
    """A game played to the end by bots (``levels`` None: one random bot for both, as
    ``simulate`` always did, so old seeds give the same games)."""
    from engine.bot import RandomBot
    from engine.bot.players import make_bot
    from engine.game import Game

    if levels is None:
        game = Game(scenario, seed, players=("Bot 1", "Bot 2"))
        bot = RandomBot(seed)
        while game.pending is not None:
            game.choose(bot.choose(game.pending))
        return game
    game = Game(scenario, seed, players=(f"Computer ({levels[0]})", f"Computer ({levels[1]})"))
    players = (make_bot(levels[0], seed), make_bot(levels[1], seed + 1))
    while game.pending is not None:
        game.choose(players[game.pending.player].decide(game))
    return game


def _check(args: argparse.Namespace) -> int:
    from engine.rulecase import case_files, run_case

    results = [run_case(path) for path in case_files(args.cases)]
    for result in results:
        print(result.describe())
    failed = sum(not r.passed for r in results)
    errors = sum(bool(r.errors) for r in results)
    crashed = f" ({errors} with an engine error)" if errors else ""
    print(f"{len(results) - failed} passed, {failed} failed{crashed}")
    return 1 if failed or not results else 0


def _replay(args: argparse.Namespace) -> int:
    if not (args.verify or args.text):
        from tui import collector

        collector.hold()  # until the first frame (tui.collector)
        try:
            from tui.app import make_app
            from tui.saves import saves_folder
            from tui.terminal import run_in_terminal

            run_in_terminal(make_app(replay=args.path, saves_dir=saves_folder(args.saves)))
        finally:
            collector.release(freeze=False)  # if no frame was drawn
        return 0
    from engine.save import read_save, replay
    from engine.timeline import build_timeline
    from engine.transcript import timeline_transcript, transcript

    data = read_save(args.path)
    verify = args.verify
    if not verify:  # --text: the file's own record (any version), its verdict on top
        for line in timeline_transcript(build_timeline(data, views=False)):
            print(line)
        return 0
    if verify and not data.same_version:
        print(
            f"wargrid: {args.path} was written by another engine or ruleset version; "
            "it cannot be verified, only shown",
            file=sys.stderr,
        )
        return 1
    game = replay(data, verify=verify)
    for line in transcript(game):
        print(line)
    if verify:
        print(
            f"verified: {len(game.choices)} choices and {len(game.rolls)} rolls match {args.path}"
        )
    return 0


def _position(args: argparse.Namespace) -> int:
    """Replay the save (verified when this engine wrote it) up to the step, print the
    position at the last phase boundary on the way."""
    from engine.save import read_save, replay

    data = read_save(args.path)
    step = len(data.choices) if args.step is None else args.step
    if not 0 <= step <= len(data.choices):
        raise WargridError(f"--step must be 0 to {len(data.choices)} (the save's choices)")
    game = replay(data, verify=data.same_version, upto=step)
    sys.stdout.write(game.position_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
