"""The lobby of a hosted server: the games, and a new game on a scenario.

Dumb screens: the hub sends the lobby (`Hub.lobby`) whenever it changes and the screen
shows it; a key becomes a request to the hub (sit, watch, replay, create), whose answer
arrives as a message the app acts on. Nothing here reads files: scenarios are the hub's
list, named by file name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.wording import counted, says
from tui.serve.protocol import Message

KEYS = (
    ("Enter", "play / resume"),
    ("w", "watch"),
    ("r", "replay"),
    ("n", "new game"),
    ("q", "quit"),
)


Offer = tuple[str, str, tuple[str, str]]
"""A scenario the hub offers: file name, one-line description, its two sides' names."""


def offer(item: Any) -> Offer:
    """A scenario entry of the hub's lobby message."""
    sides = item[2] if len(item) > 2 and isinstance(item[2], list) else []
    names = [str(side) for side in sides[:2]] + ["the first side", "the other side"][len(sides) :]
    return str(item[0]), str(item[1]), (names[0], names[1])


SCENARIO_WIDTH = 24
"""Most columns a game's scenario takes in the lobby (longer names are cut)."""


def game_line(
    info: dict[str, Any], width: int | None = None, scenario_width: int = SCENARIO_WIDTH
) -> Text:
    """One game of the lobby: id, scenario, seats (* = connected), whose turn, choices
    made, spectators, in that order of importance.

    Within ``width`` columns a part that does not fit starts a new line under the
    scenario instead of being wrapped at a space: at 80 columns "0" ended one line and
    "choices" began the next.
    """
    seats = info.get("seats") or [None, None]
    online = info.get("online") or [False, False]
    names = [
        "(free)" if name is None else f"{name}{'*' if online[i] else ''}"
        for i, name in enumerate(seats[:2])
    ]
    number = str(info.get("id", "?")).split("-", 1)[0]
    head = Text(f"#{number} ", "bold")
    indent = head.cell_len
    head.append(f"{info.get('scenario', ''):<{scenario_width}.{scenario_width}}")
    parts = [Text(f"{names[0]} vs {names[1]}")]
    if info.get("finished"):
        parts.append(Text(f"finished: {info.get('result', '')}", "dim"))
    else:
        turn = info.get("turn")
        if isinstance(turn, int) and 0 <= turn < len(seats):
            player = seats[turn]
            parts.append(Text(f"{player} to play" if player else "needs a player", "italic"))
        choices = info.get("choices", 0)
        parts.append(Text(counted(choices if isinstance(choices, int) else 0, "choice")))
    watchers = info.get("watchers", 0)
    if watchers:
        parts.append(Text(f"{watchers} watching", "dim"))
    text, line = Text(), head
    for i, part in enumerate(parts):
        gap = " " if i == 0 else " · "
        if width is None or line.cell_len + len(gap) + part.cell_len <= width:
            line.append(gap)
        else:
            text.append_text(line)
            text.append("\n")
            line = Text(" " * indent)
        line.append_text(part)
    text.append_text(line)
    return text


class LobbyScreen(Screen[None]):
    """Every hosted game; Enter plays (a free seat, or back to mine), w watches."""

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { height: auto; padding: 0 1; }
    LobbyScreen #lobby-games { height: 1fr; }
    LobbyScreen #lobby-note { height: auto; color: $text-muted; padding: 0 1; }
    LobbyScreen #lobby-keys { height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New game"),
        Binding("w", "watch", "Watch"),
        Binding("r", "replay", "Replay"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, send: Callable[[Message], None]) -> None:
        super().__init__()
        self.send = send
        self.player = ""
        self.games: list[dict[str, Any]] = []
        self.scenarios: list[Offer] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("wargrid server: connecting…", "bold"), id="lobby-title")
        yield OptionList(id="lobby-games", markup=False)
        yield Static(id="lobby-note")
        keys = Text()
        for key, label in KEYS:
            keys.append(f" {key} ", "bold reverse")
            keys.append(f" {label} ")
        yield Static(keys, id="lobby-keys")

    def on_screen_resume(self) -> None:
        self.query_one("#lobby-games", OptionList).focus()

    def show(self, message: Message) -> None:
        """Display the hub's lobby message (keeping the highlighted game)."""
        self.player = str(message.get("you", ""))
        self.games = [g for g in message.get("games", []) if isinstance(g, dict)]
        self.scenarios = [offer(s) for s in message.get("scenarios", [])]
        title = Text("wargrid server", "bold")
        title.append(f" · signed in as {self.player}")
        self.query_one("#lobby-title", Static).update(title)
        self._list_games()
        note = "" if self.games else "No games yet: press n to start one."
        self.query_one("#lobby-note", Static).update(note)
        games = self.query_one("#lobby-games", OptionList)
        if not games.has_focus:
            games.focus()

    def on_resize(self) -> None:
        """Lay the rows out again for the new width (once the list has it)."""
        if self.games:
            self.call_after_refresh(self._list_games)

    def _list_games(self) -> None:
        """The games as rows as wide as the list (keeping the highlighted game)."""
        games = self.query_one("#lobby-games", OptionList)
        highlighted = games.highlighted
        current = self._selected_id()
        width = games.scrollable_content_region.width or self.size.width - games.styles.gutter.width
        if not games.show_vertical_scrollbar:  # room for it, should the games outgrow the list
            width -= games.styles.scrollbar_size_vertical
        scenarios = min(
            SCENARIO_WIDTH, max((len(str(g.get("scenario", ""))) for g in self.games), default=0)
        )
        games.set_options(
            Option(game_line(g, width if width > 0 else None, scenarios), id=str(g.get("id")))
            for g in self.games
        )
        ids = [str(g.get("id")) for g in self.games]
        if current in ids:
            games.highlighted = ids.index(current)
        elif self.games:
            games.highlighted = min(highlighted or 0, len(self.games) - 1)

    def _selected_id(self) -> str | None:
        games = self.query_one("#lobby-games", OptionList)
        index = games.highlighted
        if index is None or not 0 <= index < games.option_count:
            return None
        return games.get_option_at_index(index).id

    def _selected(self) -> dict[str, Any] | None:
        game_id = self._selected_id()
        return next((g for g in self.games if str(g.get("id")) == game_id), None)

    @on(OptionList.OptionSelected, "#lobby-games")
    def _enter(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        game = self._selected()
        if game is None:
            return
        if game.get("finished"):
            self.send({"t": "replay", "game": game["id"]})
        else:
            self.send({"t": "sit", "game": game["id"], "seat": None})

    def action_watch(self) -> None:
        """Watch the highlighted game (read-only)."""
        game = self._selected()
        if game is not None and not game.get("finished"):
            self.send({"t": "watch", "game": game["id"]})
        elif game is not None:
            self.notify("That game is over: r opens its replay.")

    def action_replay(self) -> None:
        """Open the highlighted finished game's replay."""
        game = self._selected()
        if game is not None:
            self.send({"t": "replay", "game": game["id"]})

    def action_new(self) -> None:
        """Pick a scenario for a new game (the hub draws its secret seed)."""
        self.app.push_screen(CreateScreen(self.scenarios, self.send))

    def action_quit(self) -> None:
        """End the session (seats wait for their players to come back)."""
        self.app.exit()


OPPONENTS = (
    ("a person: the other seat stays open for whoever joins", ""),
    ("the computer (easy)", "easy"),
    ("the computer (normal)", "normal"),
)
"""Who plays the second seat of a new game: (label, `Game.computer` level)."""


class CreateScreen(Screen[None]):
    """A scenario, then the opponent; the creator takes the first seat. There is no seed
    to type: whoever knew it would know every future roll and the other side's hidden
    cards."""

    DEFAULT_CSS = """
    CreateScreen #create-title { height: auto; text-style: bold; padding: 0 1; }
    CreateScreen #create-list { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(self, scenarios: Sequence[Offer], send: Callable[[Message], None]):
        super().__init__()
        self.scenarios = list(scenarios)
        self.send = send

    def compose(self) -> ComposeResult:
        yield Static(
            "New game: pick a scenario, then Enter to choose your opponent (Esc: back)",
            id="create-title",
        )
        yield OptionList(
            *(Option(f"{key}: {label}", id=key) for key, label, _ in self.scenarios),
            id="create-list",
            markup=False,
        )

    def on_mount(self) -> None:
        self.query_one("#create-list", OptionList).focus()

    @on(OptionList.OptionSelected, "#create-list")
    def _create(self) -> None:
        index = self.query_one("#create-list", OptionList).highlighted
        if index is None or not self.scenarios:
            self.notify("Pick a scenario first.", severity="warning")
            return
        self.app.push_screen(OpponentScreen(self.scenarios[index], self.send))

    def action_back(self) -> None:
        """Back to the lobby."""
        self.dismiss(None)


class OpponentScreen(Screen[None]):
    """Who plays the other side: a person who joins, or the computer (the hub plays it)."""

    DEFAULT_CSS = """
    OpponentScreen #opponent-title { height: auto; text-style: bold; padding: 0 1; }
    OpponentScreen #opponent-list { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(self, scenario: Offer, send: Callable[[Message], None]) -> None:
        super().__init__()
        self.scenario = scenario
        self.send = send

    def compose(self) -> ComposeResult:
        _, label, (mine, theirs) = self.scenario
        title = Text(f"New game on {label}\n")  # a Text: "[killteam]" is not markup
        title.append(
            f"You play {mine}. {says(theirs, 'is')} played by… (Enter creates it, Esc: back)"
        )
        yield Static(title, id="opponent-title")
        yield OptionList(
            *(Option(label, id=level or "person") for label, level in OPPONENTS),
            id="opponent-list",
            markup=False,
        )

    def on_mount(self) -> None:
        self.query_one("#opponent-list", OptionList).focus()

    @on(OptionList.OptionSelected, "#opponent-list")
    def _create(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        level = OPPONENTS[event.option_index][1]
        self.send({"t": "create", "scenario": self.scenario[0], "computer": level})

    def action_back(self) -> None:
        """Back to the scenarios."""
        self.dismiss(None)
