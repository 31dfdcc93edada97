"""Scenario files: TOML data for a map, deployment zones, sides and a ruleset's forces.

Loading validates everything the core understands and hands the ruleset its own table
(``[killteam]`` and so on) to validate. Every error is a `ScenarioError` naming the file,
the key and what would fix it. The raw text is kept so saves can embed the scenario.

Layout of a file::

    name = "Hold the Crossroads"
    ruleset = "killteam"
    description = "..."
    rounds = 4
    sides = ["Vanguard Militia", "Ashen Reavers"]

    [map]
    rows = ["....", "..#."]          # north at the top, every row the same length
    [map.legend]                     # optional: extends the default legend below
    "P" = { terrain = "cover", height = 3 }

    [[zones]]
    name = "South"
    x = [0, 29]                      # inclusive column range (optional: whole width)
    y = [0, 5]                       # inclusive row range, 0 = south edge

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.board import Board, Cell, Objective, Terrain
from engine.errors import ScenarioError
from engine.tomlfile import parse_toml, read_toml_text
from engine.untrusted import printable, unknown_key

DEFAULT_LEGEND: dict[str, dict[str, Any]] = {
    ".": {"terrain": "open"},
    "#": {"terrain": "blocking"},
    "o": {"terrain": "cover"},
    "P": {"terrain": "cover", "height": 3},
    "~": {"terrain": "difficult"},
    "X": {"terrain": "impassable"},
}
"""Map characters every scenario may use; digits 1-9 are objective markers on open ground."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A named rectangle of the map (a deployment zone)."""

    name: str
    cells: frozenset[Cell]


@dataclass(frozen=True, slots=True)
class Scenario:
    """A validated scenario: everything needed to start a game but the seed."""

    name: str
    ruleset: str
    description: str
    rounds: int
    sides: tuple[str, str]
    board: Board
    zones: tuple[Zone, ...]
    rules: Mapping[str, Any]
    """The ruleset's own table (forces, mission options), validated by the ruleset."""
    source: str
    """File name (or "<save>") for error messages."""
    text: str
    """The TOML text as read, embedded in saves."""

    def zone(self, name: str) -> Zone:
        """The zone with this name (the ruleset checked it exists)."""
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise ScenarioError(f"{self.source}: no zone named {name!r}")

    def zone_pair(self, key: str = "zones", *, required: bool = True) -> tuple[str, str] | None:
        """The two different map zones the ruleset table's ``key`` names (one per side).

        Returns None when the key is absent and not ``required``.

        Raises:
            ScenarioError: naming the key and the zones the map defines.
        """
        value = self.rules.get(key)
        if value is None and not required:
            return None
        names = [z.name for z in self.zones]
        where = f"{self.source}: key '{self.ruleset}.{key}'"
        if not isinstance(value, list) or len(value) != 2 or not all(v in names for v in value):
            raise ScenarioError(
                f"{where} must name two of the map's zones (defined: {', '.join(names) or 'none'})"
            )
        if value[0] == value[1]:
            raise ScenarioError(f"{where} names the same zone twice")
        return value[0], value[1]

    def describe(self) -> str:
        """One line for menus: name, ruleset, size."""
        return f"{self.name} [{self.ruleset}] {self.board.width}x{self.board.height}"


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file."""
    path = Path(path)
    text = read_toml_text(path, "scenario", ScenarioError)
    return parse_scenario(text, printable(str(path)))


def parse_scenario(text: str, source: str) -> Scenario:
    """Validate scenario TOML text; ``source`` names it in errors."""
    data = parse_toml(text, source, ScenarioError)
    req = _Required(data, source)
    name = req.string("name")
    ruleset = req.string("ruleset")
    known = {*TOP_KEYS, ruleset}
    if ruleset not in data:  # a misspelt ruleset, whose table the game names better
        known |= {key for key, value in data.items() if isinstance(value, dict)}
    _known_keys(data, known, source, "")
    description = req.string("description")
    rounds = req.integer("rounds", low=1, high=99)
    sides_raw = req.value("sides", list, "a list of two side names")
    if len(sides_raw) != 2 or not all(isinstance(s, str) and s for s in sides_raw):
        raise ScenarioError(f"{source}: key 'sides' must list exactly two non-empty names")
    board = _parse_map(req.value("map", dict, "a [map] table with rows"), source)
    zones = _parse_zones(data.get("zones", []), board, source)
    rules = data.get(ruleset, {})
    if not isinstance(rules, dict):
        raise ScenarioError(f"{source}: key '{ruleset}' must be a table of the ruleset's data")
    return Scenario(
        name,
        ruleset,
        description,
        rounds,
        (sides_raw[0], sides_raw[1]),
        board,
        zones,
        rules,
        source,
        text,
    )


class _Required:
    """Typed access to required keys, with errors that name file and key."""

    def __init__(self, data: Mapping[str, Any], source: str, prefix: str = "") -> None:
        self.data = data
        self.source = source
        self.prefix = prefix

    def value(self, key: str, kind: type, what: str) -> Any:
        full = self.prefix + key
        if key not in self.data:
            raise ScenarioError(f"{self.source}: missing key '{full}' (add {what})")
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ScenarioError(
                f"{self.source}: key '{full}' must be {what}, not {type(value).__name__}"
            )
        return value

    def string(self, key: str) -> str:
        value: str = self.value(key, str, "a string")
        if not value.strip():
            raise ScenarioError(f"{self.source}: key '{self.prefix}{key}' must not be empty")
        return value

    def integer(self, key: str, low: int, high: int) -> int:
        value: int = self.value(key, int, "an integer")
        if not low <= value <= high:
            raise ScenarioError(
                f"{self.source}: key '{self.prefix}{key}' is {value}; it must be "
                f"between {low} and {high}"
            )
        return value


TOP_KEYS = frozenset({"name", "ruleset", "description", "rounds", "sides", "map", "zones"})
"""A scenario's own keys; the one other table is named after its ruleset."""


def _known_keys(table: Mapping[str, Any], known: set[str], source: str, prefix: str) -> None:
    """Refuse a key nobody reads: a misspelt option would silently not apply."""
    if why := unknown_key(table, known):
        raise ScenarioError(f"{source}: {f'in [{prefix}]: ' if prefix else ''}{why}")


KeySpec = Mapping[str, "KeySpec | None"]
"""The keys a ruleset's table accepts: a key maps to None (a value the ruleset checks
itself) or to the spec of the table, or of each table of the list, it holds. The key
``"*"`` stands for names the file chooses (datasheet ids, legend characters)."""


def check_keys(data: object, spec: KeySpec, source: str, prefix: str) -> None:
    """Refuse a key ``spec`` does not declare, in ``data`` and the tables it declares.

    Rulesets read their own tables with ``get`` and defaults, so without this a misspelt
    key (``roster_bulding``) would silently leave the default in place. Values of the
    wrong kind are left to the ruleset's readers, which name them better.

    Raises:
        ScenarioError: naming the file, the table and the closest known key.
    """
    if isinstance(data, list):
        for i, entry in enumerate(data):
            check_keys(entry, spec, source, f"{prefix}[{i}]")
        return
    if not isinstance(data, dict):
        return
    if "*" not in spec:
        _known_keys(data, set(spec), source, prefix)
    for key, value in data.items():
        inner = spec.get(key, spec.get("*"))
        if inner is not None:
            check_keys(value, inner, source, f"{prefix}.{key}")


def _legend(raw: Any, source: str) -> dict[str, tuple[Terrain, int, str | None]]:
    merged = dict(DEFAULT_LEGEND)
    if raw is not None:
        if not isinstance(raw, dict):
            raise ScenarioError(f"{source}: key 'map.legend' must be a table")
        merged.update(raw)
    legend: dict[str, tuple[Terrain, int, str | None]] = {}
    for char, spec in merged.items():
        key = f"map.legend.{char!r}"
        if len(char) != 1:
            raise ScenarioError(f"{source}: key {key}: legend keys are single characters")
        if isinstance(spec, str):
            spec = {"terrain": spec}
        if not isinstance(spec, dict):
            raise ScenarioError(f"{source}: key {key} must be a terrain name or a table")
        _known_keys(spec, {"terrain", "height", "objective"}, source, key)
        kind = spec.get("terrain", "open")
        try:
            terrain = Terrain(kind)
        except ValueError:
            names = ", ".join(t.value for t in Terrain)
            raise ScenarioError(
                f"{source}: key {key}: unknown terrain {kind!r} (use one of: {names})"
            ) from None
        height = spec.get("height", 0)
        if not isinstance(height, int) or isinstance(height, bool) or not 0 <= height <= 30:
            raise ScenarioError(f"{source}: key {key}: height must be an integer 0..30")
        objective = spec.get("objective")
        if objective is not None and not isinstance(objective, str):
            raise ScenarioError(f"{source}: key {key}: objective must be a name")
        legend[char] = (terrain, height, objective)
    return legend


def _parse_map(raw: dict[str, Any], source: str) -> Board:
    _known_keys(raw, {"rows", "legend"}, source, "map")
    rows = raw.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise ScenarioError(f"{source}: key 'map.rows' must be a list of strings (north first)")
    width = len(rows[0])
    if not 4 <= width <= 400 or not 4 <= len(rows) <= 400:
        raise ScenarioError(f"{source}: key 'map.rows': the map must be 4..400 cells each way")
    legend = _legend(raw.get("legend"), source)
    terrain: list[tuple[Terrain, ...]] = []
    heights: list[tuple[int, ...]] = []
    objectives: list[Objective] = []
    height = len(rows)
    for line_no, row in enumerate(rows):
        y = height - 1 - line_no
        if len(row) != width:
            raise ScenarioError(
                f"{source}: key 'map.rows' row {line_no + 1} (y={y}) has {len(row)} cells; "
                f"every row must have {width} like the first"
            )
        t_row: list[Terrain] = []
        h_row: list[int] = []
        for x, char in enumerate(row):
            if char.isdigit() and char != "0" and char not in legend:
                objectives.append(Objective(f"O{char}", Cell(x, y)))
                t_row.append(Terrain.OPEN)
                h_row.append(0)
                continue
            if char not in legend:
                raise ScenarioError(
                    f"{source}: key 'map.rows' row {line_no + 1} column {x + 1}: unknown "
                    f"map character {char!r} (add it to [map.legend])"
                )
            kind, z, objective = legend[char]
            if objective:
                objectives.append(Objective(objective, Cell(x, y)))
            t_row.append(kind)
            h_row.append(z)
        terrain.append(tuple(t_row))
        heights.append(tuple(h_row))
    terrain.reverse()
    heights.reverse()
    objectives.sort(key=lambda o: o.name)
    return Board(width, height, tuple(terrain), tuple(heights), tuple(objectives))


def _parse_zones(raw: Any, board: Board, source: str) -> tuple[Zone, ...]:
    if not isinstance(raw, list):
        raise ScenarioError(f"{source}: key 'zones' must be an array of tables ([[zones]])")
    zones: list[Zone] = []
    for i, spec in enumerate(raw):
        prefix = f"zones[{i}]."
        if not isinstance(spec, dict):
            raise ScenarioError(f"{source}: key 'zones[{i}]' must be a table")
        _known_keys(spec, {"name", "x", "y"}, source, f"zones[{i}]")
        req = _Required(spec, source, prefix)
        name = req.string("name")
        xs = _span(spec.get("x", [0, board.width - 1]), board.width, f"{prefix}x", source)
        ys = _span(spec.get("y", [0, board.height - 1]), board.height, f"{prefix}y", source)
        cells = frozenset(Cell(x, y) for x in xs for y in ys)
        zones.append(Zone(name, cells))
    names = [z.name for z in zones]
    if len(set(names)) != len(names):
        raise ScenarioError(f"{source}: key 'zones': zone names must be unique")
    return tuple(zones)


def _span(raw: Any, size: int, key: str, source: str) -> range:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise ScenarioError(f"{source}: key '{key}' must be [first, last] (inclusive integers)")
    lo, hi = raw
    if not 0 <= lo <= hi < size:
        raise ScenarioError(
            f"{source}: key '{key}' = [{lo}, {hi}] lies outside the map (0..{size - 1})"
        )
    return range(lo, hi + 1)


SHIPPED_SCENARIOS = Path(__file__).resolve().parent / "scenarios"
"""The scenarios that come with wargrid: package data, so an installed wargrid has them."""


def scenario_dirs() -> tuple[Path, ...]:
    """The scenario search path, in order: ./scenarios (a player's own, and a checkout's),
    then the shipped ones. Every lookup by name and every listing goes through here."""
    here = Path.cwd() / "scenarios"
    return (here,) if here.resolve() == SHIPPED_SCENARIOS else (here, SHIPPED_SCENARIOS)


def find_scenario(ref: str | Path) -> Path:
    """The scenario file ``ref`` names: a path as given when it exists or names a folder,
    else a bare name, with or without ``.toml``, on the search path (first folder wins),
    else a scenario's title ("Hold the Crossroads", any case).

    Raises:
        ScenarioError: a bare name found nowhere; the message names the folders searched
            and the scenarios there are.
    """
    path = Path(ref)
    if path.exists() or path.parent != Path() or not path.name:
        return path  # loading it says what is wrong with it, if anything
    for folder in scenario_dirs():
        for candidate in (folder / path.name, folder / f"{path.name}.toml"):
            if candidate.is_file():
                return candidate
    wanted = " ".join(str(ref).split()).casefold()
    known: list[str] = []
    for folder in scenario_dirs():
        try:
            files = sorted(folder.glob("*.toml"))
        except OSError:
            continue
        for candidate in files:
            try:
                title = load_scenario(candidate).name
            except ScenarioError:
                continue
            if " ".join(title.split()).casefold() == wanted:
                return candidate
            known.append(f"{candidate.stem} ({title})")
    looked = ", ".join(str(d) for d in scenario_dirs())
    listing = "; ".join(known) if known else "none"
    raise ScenarioError(
        f"{ref}: no such scenario file, nor a scenario of that name in {looked}. "
        f"The scenarios: {listing}"
    )
