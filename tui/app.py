"""The wargrid Textual app and `make_app`, the factory the CLI and the tests share.

The app is a stack of screens: the main menu at the bottom, a game (or the replay viewer)
above it, and modal screens (hand-over, help, game over) on top. A
`TooSmallScreen` covers everything while the terminal is under 80x24. Games are built
here from scenario files or saves; the `GameScreen` then owns each one.

Attributes down, messages up: screens never import the app or each other. They post what
the players asked for (`MainMenu.Picked`, `NewGameScreen.Start`, `SavesScreen.Open`,
`GameScreen.ReplayWanted`, `ReplayScreen.Forked`) and the handlers here navigate.

Textual is imported here, so the engine and the headless CLI commands never load it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.events import Resize
from textual.geometry import Size

from engine.untrusted import new_seed
from tui import collector
from tui.first_frame import frame_written
from tui.menu import MainMenu
from tui.modals import MIN_SIZE, TooSmallScreen
from tui.saves import latest_entry, saves_folder, unchanged
from tui.settings import load_settings, save_settings

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine.game import Game
    from engine.save import SaveData
    from tui.game_screen import GameScreen
    from tui.new_game import NewGameScreen, SavesScreen
    from tui.replay_screen import ReplayScreen

# The engine's rulesets load only when a game is opened (inside the methods below), so the
# main menu draws its first frame about as fast as a bare Textual app (benchmarks/).


class WargridApp(App[None]):
    """Menu, games, help; one terminal, two players taking turns at the keyboard."""

    CSS_PATH = "wargrid.tcss"
    TITLE = "wargrid"
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012 (Textual's type)
    """Short terminals get a tighter model panel (see wargrid.tcss)."""

    def __init__(self, *, saves_dir: Path | None = None) -> None:
        super().__init__()
        self.saves_dir = saves_folder() if saves_dir is None else saves_dir
        self._opening: Screen[None] | None = None
        """A game or replay to open as soon as the menu is up (from the command line)."""
        self._too_small: TooSmallScreen | None = None
        self._started = False

    def post_display_hook(self) -> None:
        collector.release()  # held off by the CLI until the first frame
        frame_written(self)

    def on_mount(self) -> None:
        self.push_screen(MainMenu(self.saves_dir, covered=self._opening is not None))
        if self._opening is not None:
            self.push_screen(self._opening)
            self._opening = None
        self._started = True
        self._check_size(self.size)

    def on_resize(self, event: Resize) -> None:
        if self._started:  # before that, on_mount checks once its screens are stacked
            self._check_size(event.size)

    def _check_size(self, size: Size) -> None:
        """Cover the app with a "please enlarge" screen while the terminal is too small."""
        small = size.width < MIN_SIZE[0] or size.height < MIN_SIZE[1]
        if small and self._too_small is None:
            self._too_small = TooSmallScreen()
            self.push_screen(self._too_small)
        if self._too_small is not None:
            if small:
                self._too_small.show_size(size.width, size.height)
            elif self.screen is self._too_small:
                self._too_small = None
                self.pop_screen()

    # -- messages up: navigation ---------------------------------------------------------

    def on_main_menu_picked(self, event: MainMenu.Picked) -> None:
        """Open what the main menu entry names."""
        from tui.new_game import NewGameScreen, SavesScreen  # the form widgets load on use

        item = event.item
        if item == "new":
            self.push_screen(NewGameScreen(load_settings(self.saves_dir)))
        elif item == "continue":
            found = event.found if event.found and unchanged(event.found) else None
            latest = found or latest_entry(self.saves_dir)
            if latest is None:
                self.notify("No unfinished game to continue.", severity="warning")
            else:
                self.open_save(latest.path, data=latest.data)
        elif item in ("load", "replay"):
            self.push_screen(SavesScreen(self.saves_dir, replay=item == "replay"))
        elif item == "settings":
            from tui.settings_screen import SettingsScreen

            self.push_screen(SettingsScreen(self.saves_dir))
        elif item == "help":
            self.show_help()
        elif item == "quit":
            self.exit()

    def on_new_game_screen_start(self, event: NewGameScreen.Start) -> None:
        """The new-game form is filled in: start that game in its place (and remember the
        hand-over setting, the scenario and who plays each side for next time)."""
        settings = load_settings(self.saves_dir)
        kept = replace(
            settings,
            handover=event.handover,
            scenario=event.scenario.name,
            seats=event.computer,
        )
        if kept != settings:
            try:
                save_settings(self.saves_dir, kept)
            except OSError as exc:  # the game starts anyway; only the memory of it is lost
                self.notify(f"Could not keep the setting: {exc}", severity="warning")
        self.pop_screen()
        self.start_game(
            event.scenario,
            seed=event.seed,
            players=event.players,
            handover=event.handover,
            computer=event.computer,
        )

    def on_saves_screen_open(self, event: SavesScreen.Open) -> None:
        """A save was picked: play on, or open it in the replay viewer."""
        self.pop_screen()
        if event.replay:
            self.open_replay(event.path)
        else:
            self.open_save(event.path)

    def on_game_screen_replay_wanted(self, event: GameScreen.ReplayWanted) -> None:
        """The finished game's replay, over the game screen."""
        from engine.timeline import timeline_of_game  # loads on use
        from tui.replay_screen import ReplayScreen

        source = str(event.save_path) if event.save_path is not None else "this game"
        timeline = timeline_of_game(event.game, source)
        # A hosted game (no save path) must not turn into a local game.
        self.push_screen(ReplayScreen(timeline, can_fork=event.save_path is not None))

    def on_replay_screen_forked(self, event: ReplayScreen.Forked) -> None:
        """Play on from a replay's step: a new game in the viewer's place, in a new file."""
        from tui.game_screen import GameScreen
        from tui.saves import new_save_path

        name = f"{event.game.scenario.name} from step {event.step}"
        path = new_save_path(self.saves_dir, name)
        self.switch_screen(GameScreen(event.game, save_path=path))
        self.notify(f"A new game from step {event.step}, saved to {path}.", timeout=6)

    # -- opening games -------------------------------------------------------------------

    def _open(self, screen: Screen[None]) -> None:
        if not self.is_running:
            self._opening = screen
        else:
            self.push_screen(screen)

    def open_game(
        self, game: Game, *, save_path: Path | None = None, handover: bool = True
    ) -> GameScreen:
        """Play ``game`` (already built), autosaving to ``save_path`` if given."""
        from tui.game_screen import GameScreen

        screen = GameScreen(game, save_path=save_path, handover=handover)
        self._open(screen)
        return screen

    def start_game(
        self,
        scenario_path: Path | None = None,
        *,
        position_path: Path | None = None,
        seed: int | None = None,
        players: tuple[str, str] | None = None,
        handover: bool = True,
        computer: tuple[str, str] = ("", ""),
    ) -> None:
        """Start a new game on a scenario file (or at a position file), saved to a new file
        in the saves folder; ``computer`` names the computer's level per seat ("": a
        person).

        Raises:
            ScenarioError: the scenario or position file is unusable (PositionError is one).
        """
        from engine.game import Game
        from engine.position import load_position
        from engine.scenario import load_scenario
        from tui.saves import new_save_path

        position = None if position_path is None else load_position(position_path)
        if position is not None:
            scenario = position.scenario
        elif scenario_path is not None:
            scenario = load_scenario(scenario_path)
        else:
            raise ValueError("start_game needs a scenario or a position")
        chosen = new_seed() if seed is None else seed
        names = players or ("Player 1", "Player 2")
        game = Game(scenario, chosen, players=names, position=position, computer=computer)
        self.open_game(
            game, save_path=new_save_path(self.saves_dir, scenario.name), handover=handover
        )

    def open_save(self, path: Path, data: SaveData | None = None) -> None:
        """Continue a saved game where it stopped; it keeps saving to the same file.

        The game shows at once from the save's last checkpoint; the game screen re-runs the
        whole file in the background (`tui.save_check`). ``data``: the file as just read
        (the menu's search for Continue read it; reading it twice was a third of
        Continue)."""
        from engine.resumption import open_save
        from tui.game_screen import GameScreen
        from tui.save_check import SaveCheck

        whole: Callable[[], SaveData] | None = None
        try:
            if data is None:
                data, whole = _read_newest(path)
            opened = open_save(data, whole)  # at its last checkpoint: shown, checked after
        except Exception as exc:  # SaveError, ReplayMismatchError: say why, in one line
            if not self.is_running:
                raise
            why = str(exc)
            if data is not None and not data.same_version:
                why = _other_version(path, data.ruleset, data.ruleset_version, why)
            self.notify(why, severity="error", timeout=12)
            return
        if opened.note:
            self.notify(opened.note, severity="warning", timeout=8)
        target = path
        if not data.same_version:
            # Never write over a file another version made: continue in a new one.
            target = _unused(path.with_name(f"{path.stem}-continued{path.suffix}"))
            self.notify(
                f"{path.name} was saved by another version; continuing in {target.name}.", timeout=8
            )
        from tui.settings import load_settings

        handover = load_settings(target.parent).handover  # as the players last left it
        check = None if opened.checked else SaveCheck(data, whole)
        self._open(GameScreen(opened.game, save_path=target, handover=handover, check=check))

    def open_replay(self, path: Path) -> None:
        """Open a save in the replay viewer: at once from its last checkpoint, the whole
        file re-run (and verified when it can be) in the background."""
        from engine.save import read_save
        from engine.timeline import opening_timeline
        from tui.replay_screen import ReplayScreen

        try:
            timeline = opening_timeline(read_save(path))
        except Exception as exc:  # SaveError: damaged, foreign, newer format
            if not self.is_running:
                raise
            self.notify(str(exc), severity="error", timeout=8)
            return
        self._open(ReplayScreen(timeline))

    def show_help(self) -> None:
        """The key map and the quick reference of every ruleset with a scenario."""
        from engine.rulesets import find_ruleset
        from tui.help import HelpScreen
        from tui.new_game import find_scenarios

        references: dict[str, str] = {}
        for _, scenario, _ in find_scenarios():
            if scenario is not None and scenario.ruleset not in references:
                ruleset = find_ruleset(scenario.ruleset)(scenario)
                references[scenario.ruleset] = ruleset.quick_reference()
        self.push_screen(HelpScreen(list(references.values())))


def make_app(
    *,
    scenario: Path | None = None,
    seed: int | None = None,
    load: Path | None = None,
    replay: Path | None = None,
    saves_dir: Path | None = None,
    players: tuple[str, str] | None = None,
    position: Path | None = None,
    computer: tuple[str, str] = ("", ""),
) -> App[None]:
    """Build the app: the main menu, or straight into a new game (on a scenario or from a
    position file), a save or a replay.

    Raises:
        WargridError: the scenario, position or save cannot be opened (the CLI prints why).
    """
    app = WargridApp(saves_dir=saves_dir)
    if position is not None or scenario is not None:
        handover = load_settings(app.saves_dir).handover  # as the players last left it
        app.start_game(
            scenario,
            position_path=position,
            seed=seed,
            players=players,
            handover=handover,
            computer=computer,
        )
    elif load is not None:
        app.open_save(load)
    elif replay is not None:
        app.open_replay(replay)
    return app


def _read_newest(path: Path) -> tuple[SaveData, Callable[[], SaveData]]:
    """``path`` read for Continue: only the events and rolls the log panel shows, if the
    game opens at its last checkpoint before the others (`engine.resumption`), else
    whole; and how to read it whole (building every event and roll of a long game was
    most of reading it: 2,000 Kill Team choices 36 -> 14 ms).

    Raises:
        SaveError: the file is unreadable, or damaged in what is read.
    """
    from engine.resumption import opens_at_checkpoint
    from engine.save import decode, read_bytes
    from tui.log_panel import LogPanel

    raw, name = read_bytes(path)
    whole = partial(decode, raw, name)
    newest = decode(raw, name, recent=LogPanel.SHOWN)
    return (newest if opens_at_checkpoint(newest) else whole()), whole


def _other_version(path: Path, ruleset: str, version: str, why: str) -> str:
    """Why a save another version of the rules wrote cannot go on, in a player's words:
    the raw refusal ("step 54: 'A1' is not an option of decision #53 ...") names no
    cause and no way out."""
    from engine.errors import UnknownRulesetError
    from engine.rulesets import find_ruleset

    try:
        info = find_ruleset(ruleset).INFO
    except UnknownRulesetError:
        return why  # not these rules at all: the refusal says so
    return (
        f"{path.name} was saved by {info.title} rules version {version}; this wargrid plays "
        f"version {info.version}, and the game cannot go on under them ({why}). "
        "Open it as a replay (r in the menu) to see it."
    )


def _unused(path: Path) -> Path:
    """``path``, or ``path`` with -2, -3 ... before the suffix, whichever does not exist."""
    candidate, n = path, 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate
