"""Positions: any moment of a game written down as data (chess's FEN, for wargames).

A position file is TOML. It names a scenario for the map, zones and sides (or embeds
one), the round and phase to start at, and a table named after the ruleset with the
models, their cells, wounds and states, and each side's resources. The core reads the
common keys; the ruleset validates its own table when it loads the position. A game
started from a position begins at the start of that phase.

Layout::

    scenario = "killteam-crossroads.toml"   # a file name: beside this file or in scenarios/
    round = 2
    phase = "Shooting"
    next_player = 1                         # optional check: who decides first

    [killteam]                              # the ruleset's own table
    ...

A position written by wargrid (the `w` key, ``wargrid position``) holds the whole game
instead of the ruleset's table, and goes on exactly as the game it was taken from::

    [dice]
    seed = 42                               # the game's dice
    draws = 317                             # dice drawn so far (the dice counter)
    [state]                                 # every field of the ruleset's state
    ...                                     # (engine.statecodec)

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import ScenarioError
from engine.scenario import Scenario, load_scenario, parse_scenario, scenario_dirs
from engine.tomlfile import parse_toml, read_toml_text
from engine.untrusted import check_seed, printable, quote, unknown_key

TOP_KEYS = frozenset({"scenario", "round", "phase", "next_player", "dice", "state"})
"""A position's own keys; the one other table is named after its scenario's ruleset."""


class PositionError(ScenarioError):
    """A position file is unusable; the message names the file, the key and why."""


@dataclass(frozen=True, slots=True)
class Position:
    """A validated position, ready for a ruleset to set up."""

    scenario: Scenario
    round: int
    phase: str
    rules: Mapping[str, Any]
    """The ruleset's own table (models, sides), validated by the ruleset."""
    next_player: int | None
    source: str
    text: str
    """The TOML text as read (embedded in saves of games started from it)."""
    state: Mapping[str, Any] | None = None
    """The whole state of the ruleset, when wargrid wrote the position (checked on use)."""
    seed: int | None = None
    """The dice seed the game goes on with ([dice] of a written position)."""
    draws: int = 0
    """Dice already drawn (the dice counter) when the position was taken."""

    def error(self, key: str, why: str) -> PositionError:
        """An error naming this position's file and ``key``."""
        return PositionError(f"{self.source}: key '{key}': {why}")

    def side_tables(self, root: str, raw: Any) -> list[tuple[int, str, dict[str, Any]]]:
        """The ``sides`` list of the ``root`` table: at most two tables, player 1's first;
        each with its seat and the key an error about it names ("killteam.sides[0]")."""
        if not isinstance(raw, list) or len(raw) > 2:
            raise self.error(f"{root}.sides", "list at most two sides (player 1, player 2)")
        out = []
        for seat, table in enumerate(raw):
            key = f"{root}.sides[{seat}]"
            if not isinstance(table, dict):
                raise self.error(key, "must be a table")
            out.append((seat, key, table))
        return out


def load_position(path: str | Path) -> Position:
    """Read and validate a position file."""
    path = Path(path)
    text = read_toml_text(path, "position", PositionError)
    return parse_position(text, printable(str(path)), base=path.parent)


def parse_position(
    text: str, source: str, *, base: Path | None = None, scenario: Scenario | None = None
) -> Position:
    """Validate position TOML; ``scenario`` overrides the file's own reference (saves)."""
    data = parse_toml(text, source, PositionError)
    return position_from_data(data, source, text, base=base, scenario=scenario)


def position_from_data(
    data: Mapping[str, Any],
    source: str,
    text: str,
    *,
    base: Path | None = None,
    scenario: Scenario | None = None,
) -> Position:
    """Validate an already parsed position table (rule cases embed one)."""
    if scenario is None:
        scenario = _scenario(data, source, base)
    if why := unknown_key(data, {*TOP_KEYS, scenario.ruleset}):
        raise PositionError(f"{source}: {why}")
    rnd = data.get("round")
    if not isinstance(rnd, int) or isinstance(rnd, bool) or not 1 <= rnd <= scenario.rounds:
        raise PositionError(
            f"{source}: key 'round' must be a whole number from 1 to {scenario.rounds} "
            "(the scenario's last round)"
        )
    phase = data.get("phase")
    if not isinstance(phase, str) or not phase:
        raise PositionError(f"{source}: key 'phase' must name the phase to start at")
    nxt = data.get("next_player")
    if nxt is not None and nxt not in (1, 2):
        raise PositionError(f"{source}: key 'next_player' must be 1 or 2")
    rules = data.get(scenario.ruleset, {})
    if not isinstance(rules, dict):
        raise PositionError(f"{source}: key '{scenario.ruleset}' must be a table")
    state = data.get("state")
    if state is not None and not isinstance(state, dict):
        raise PositionError(f"{source}: key 'state' must be a table")
    seed, draws = _dice(data.get("dice"), source)
    if state is not None and seed is None:
        raise PositionError(f"{source}: a position with a [state] needs [dice] seed and draws")
    return Position(
        scenario,
        rnd,
        phase,
        rules,
        None if nxt is None else nxt - 1,
        source,
        text,
        state,
        seed,
        draws,
    )


def _dice(raw: Any, source: str) -> tuple[int | None, int]:
    """[dice] seed and draws: where the game's dice stream stands."""
    if raw is None:
        return None, 0
    if not isinstance(raw, dict):
        raise PositionError(f"{source}: key 'dice' must be a table with seed and draws")
    try:
        seed = check_seed(raw.get("seed"))
    except ValueError as exc:
        raise PositionError(f"{source}: key 'dice.seed': {exc}") from None
    draws = raw.get("draws")
    if not isinstance(draws, int) or isinstance(draws, bool) or not 0 <= draws < 2**63:
        raise PositionError(f"{source}: key 'dice.draws' must be a whole number >= 0")
    return seed, draws


def _scenario(data: Mapping[str, Any], source: str, base: Path | None) -> Scenario:
    ref = data.get("scenario")
    if isinstance(ref, dict):
        embedded = ref.get("text")
        if not isinstance(embedded, str):
            raise PositionError(f"{source}: key 'scenario.text' must hold the scenario TOML")
        return parse_scenario(embedded, f"{source} (embedded scenario)")
    if not isinstance(ref, str) or not ref:
        raise PositionError(
            f"{source}: key 'scenario' must name a scenario file (or embed one as scenario.text)"
        )
    if Path(ref).name != ref or ref.startswith(".") or not ref.endswith(".toml"):
        raise PositionError(  # confined: never /etc/passwd, ../.. or a device
            f"{source}: key 'scenario' must be the file name of a scenario ending in .toml "
            f"(no folders), found next to the position or in scenarios/, not {quote(ref)}"
        )
    for folder in (base or Path.cwd(), *scenario_dirs()):
        if (folder / ref).is_file():
            return load_scenario(folder / ref)
    raise PositionError(
        f"{source}: key 'scenario': no scenario file {quote(ref)} next to the position or "
        "in scenarios/ (a file name ending in .toml, without folders)"
    )
