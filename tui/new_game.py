"""The two lists behind the main menu: scenarios for a new game, and saved games.

Each screen only gathers what the players picked and says so in a message up
(`NewGameScreen.Start`, `SavesScreen.Open`); the app opens it, and shows errors the
engine explains (a broken scenario or save) as one line, never a traceback. Kept apart from the
main menu so the menu's first frame does not wait for the form widgets to load.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Checkbox, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from engine.errors import WargridError
from engine.save import MAX_NAME
from engine.scenario import Scenario, load_scenario, scenario_dirs
from engine.untrusted import check_seed
from tui.saves import SaveEntry, list_saves, round_word
from tui.settings import Settings

SEATS = (
    ("played by a person", ""),
    ("played by the computer (easy)", "easy"),
    ("played by the computer (normal)", "normal"),
)
"""Who plays a side: (label, `Game.computer` level)."""

DEMO_SCENARIO = "killteam-crossroads.toml"
"""The scenario a new player starts on (`make play`): highlighted in the list."""


def find_scenarios() -> list[tuple[Path, Scenario | None, str]]:
    """Every scenario file on the search path: (path, scenario or None, error)."""
    found: list[tuple[Path, Scenario | None, str]] = []
    for folder in scenario_dirs():
        for path in sorted(folder.glob("*.toml")):
            try:
                found.append((path, load_scenario(path), ""))
            except WargridError as exc:
                found.append((path, None, str(exc)))
    return found


class NewGameScreen(Screen[None]):
    """Pick a scenario; optionally a seed, the players' names and hand-over screens."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "start", "Start"),
    ]

    class Start(Message):
        """Start a game on ``scenario`` with the form's settings (the app does it)."""

        def __init__(
            self,
            scenario: Path,
            seed: int | None,
            players: tuple[str, str],
            handover: bool,
            computer: tuple[str, str] = ("", ""),
        ) -> None:
            super().__init__()
            self.scenario = scenario
            self.seed = seed
            self.players = players
            self.handover = handover
            self.computer = computer
            """Per side, the computer's level, or "" for a person."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.scenarios = find_scenarios()
        self.settings = settings
        """What the players chose last time (the app keeps them in the saves folder)."""

    def compose(self) -> ComposeResult:
        yield Static(
            "New game: pick a scenario and press Enter (Tab for the options)", id="new-title"
        )
        with Horizontal(id="new-main"):
            yield OptionList(
                *(
                    Option(
                        s.describe() if s else f"{p.name}: unusable", id=str(i), disabled=s is None
                    )
                    for i, (p, s, _) in enumerate(self.scenarios)
                ),
                id="scenario-list",
                markup=False,
            )
            with Vertical(id="new-form"):
                yield Static(id="scenario-about")
                yield Label("Seed (empty: random)")
                yield Input(placeholder="random", id="seed", type="integer", compact=True)
                yield Label("Players (names, and who plays each side)")
                for n in (1, 2):
                    yield Input(
                        value=f"Player {n}", id=f"player-{n}", compact=True, max_length=MAX_NAME
                    )
                    yield Select(
                        SEATS, value=self.settings.seats[n - 1], allow_blank=False,
                        id=f"seat-{n}", compact=True,
                        prompt=f"Side {n} is played by",
                    )  # fmt: skip
                yield Checkbox(
                    "Hand-over screen between players",
                    value=self.settings.handover,
                    id="handover",
                    compact=True,
                )
        yield Footer()

    def on_mount(self) -> None:
        listing = self.query_one("#scenario-list", OptionList)
        listing.focus()
        usable = {path.name: i for i, (path, s, _) in enumerate(self.scenarios) if s is not None}
        # The last new game's scenario, else the demo game (a new player's first choice).
        for name in (self.settings.scenario, DEMO_SCENARIO):
            if name in usable:
                listing.highlighted = usable[name]
                break
        if not self.scenarios:
            dirs = ", ".join(str(d) for d in scenario_dirs())
            self.query_one("#scenario-about", Static).update(f"No scenarios found in {dirs}.")

    @on(OptionList.OptionHighlighted, "#scenario-list")
    def _about(self, event: OptionList.OptionHighlighted) -> None:
        _, scenario, error = self.scenarios[event.option_index]
        found = self.query("#scenario-about").results(Static)
        about = next(found, None)
        if about is None:  # a late highlight after the screen was left
            return
        if scenario is None:
            about.update(Text(error, "red"))
            return
        text = Text(scenario.name, "bold")
        rounds = f"{scenario.rounds} {round_word(scenario.ruleset).lower()}s"
        text.append(f"\n{scenario.describe()} · {rounds}\n")
        text.append(" vs ".join(scenario.sides) + "\n", "italic")
        text.append(scenario.description)
        about.update(text)

    @on(OptionList.OptionSelected, "#scenario-list")
    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Start the highlighted scenario with the form's settings."""
        index = self.query_one("#scenario-list", OptionList).highlighted
        if index is None or self.scenarios[index][1] is None:
            self.notify("Pick a usable scenario first.", severity="warning")
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = check_seed(seed_text) if seed_text else None
        except ValueError as exc:
            self.notify(f"Seed: {exc}", severity="error")
            return
        levels = tuple(str(self.query_one(f"#seat-{n}", Select).value) for n in (1, 2))
        names = tuple(
            self.query_one(f"#player-{n}", Input).value.strip() or f"Player {n}" for n in (1, 2)
        )
        names = tuple(
            f"Computer ({level})" if level and name == f"Player {n}" else name
            for n, (name, level) in enumerate(zip(names, levels, strict=True), start=1)
        )
        self.post_message(
            self.Start(
                self.scenarios[index][0],
                seed,
                (names[0], names[1]),
                self.query_one("#handover", Checkbox).value,
                (levels[0], levels[1]),
            )
        )

    def action_back(self) -> None:
        """Back to the main menu."""
        self.dismiss(None)


class SavesScreen(Screen[None]):
    """The saves folder, newest first: Enter opens one (to play on, or as a replay)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    class Open(Message):
        """Open the save at ``path``: to play on, or as a replay (the app does it)."""

        def __init__(self, path: Path, *, replay: bool) -> None:
            super().__init__()
            self.path = path
            self.replay = replay

    def __init__(self, saves_dir: Path, *, replay: bool) -> None:
        super().__init__()
        self.saves_dir = saves_dir
        self.replay = replay
        self.entries: list[SaveEntry] = []

    def compose(self) -> ComposeResult:
        what = "Open a replay" if self.replay else "Load a saved game"
        yield Static(f"{what}: pick a file and press Enter (Esc: back)", id="saves-title")
        yield OptionList(id="saves-list", markup=False)
        yield Static(id="saves-note")
        yield Footer()

    def on_mount(self) -> None:
        self.entries = list_saves(self.saves_dir)
        saves = self.query_one("#saves-list", OptionList)
        saves.set_options(Option(e.describe(), disabled=e.data is None) for e in self.entries)
        # The newest readable save highlighted: "press Enter" opens it at once.
        saves.highlighted = next((n for n, e in enumerate(self.entries) if e.data), None)
        if not self.entries:
            self.query_one("#saves-note", Static).update(
                f"No saved games in {self.saves_dir}/ yet."
            )
        saves.focus()

    @on(OptionList.OptionSelected, "#saves-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        path = self.entries[event.option_index].path
        self.post_message(self.Open(path, replay=self.replay))

    def action_back(self) -> None:
        """Back to the main menu."""
        self.dismiss(None)
