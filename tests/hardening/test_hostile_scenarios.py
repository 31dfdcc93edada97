"""Hostile scenario files: every key missing in turn, any value of any type, broken maps.

Extends ``tests/engine/test_scenario.py`` (one example of each mistake): here every key of
every shipped scenario of every registered ruleset is deleted in turn and replaced by
values of every TOML type, and each list of tables in a ruleset's own table (forces,
rosters) is blown up past any roster limit. Each result is either a game that starts and
plays, or a `ScenarioError` in one line naming the file and the key. Files are loaded the
way ``wargrid`` loads them (`tui.cli.checked_scenario`: read, validate, ruleset known).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ScenarioError
from engine.game import Game
from tests.hardening.budget import scaled, time_limit
from tests.hardening.hostile import (
    WRONG_TOML_VALUES,
    Path_,
    assert_one_line,
    dotted,
    mutated,
    tree_paths,
)
from tests.hardening.playouts import make_picker, play, rulesets_with_scenarios
from tests.hardening.tomltext import dumps
from tui.cli import checked_scenario

SCENARIOS = rulesets_with_scenarios()
CASES = [(name, paths[0]) for name, paths in sorted(SCENARIOS.items())]
"""One scenario per ruleset for the exhaustive sweeps (a ruleset's files share their keys;
the Hypothesis search draws from all of them), so the cost grows with rulesets only."""
IDS = [name for name, _ in CASES]
PLAYED = 8
"""Choices played after a mutated scenario loads (some checks run when the game starts)."""

KNOWN_CRASHES: dict[tuple[str, str], tuple[type[Exception], Any, str]] = {}
"""Found by these tests, not yet fixed, by (ruleset, key): the exception the ruleset raises
instead of a ScenarioError, a value that triggers it, and where. Mostly a list or table
where a name belongs reaching a dict lookup (``TypeError: unhashable type``). The sweeps
tolerate exactly these; `test_known_crashes_are_still_there` fails once one is fixed, so
its entry gets removed."""


def _known_crash(data: dict[str, Any], changed: Path_, exc: Exception) -> bool:
    ruleset = str(data.get("ruleset"))
    return changed[:1] == (ruleset,) and any(
        (ruleset, key) in KNOWN_CRASHES and isinstance(exc, KNOWN_CRASHES[ruleset, key][0])
        for key in changed
        if isinstance(key, str)
    )


@cache
def tree(path: Path) -> dict[str, Any]:
    """The scenario file as TOML data (copy before changing it)."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


def start(folder: Path, data: dict[str, Any], changed: Path_ = (), *, tolerate: bool = True) -> str:
    """Write ``data`` to a file, load it as wargrid does, play a few choices: the outcome.

    A refusal must be a one-line ScenarioError naming the file and a key of the changed
    path, or of a table next to it (a roster without a Leader is reported on the roster).
    """
    file = folder / "hostile.toml"
    file.write_text(dumps(data), encoding="utf-8")
    with time_limit(10):
        try:
            play(Game(checked_scenario(file), 3), make_picker("uniform", 3), limit=PLAYED)
        except (TypeError, ValueError) as exc:
            if tolerate and _known_crash(data, changed, exc):
                return "known crash"
            raise
        except ScenarioError as exc:
            message = str(exc)
            assert_one_line(exc)
            assert message.startswith(f"{file}: "), f"no file name: {message}"
            names = [step for step in changed if isinstance(step, str)]
            assert not names or any(name in message for name in names), (
                f"changing {dotted(changed)} gave an error naming none of its keys: {message}"
            )
            return message
    return "ok"


@pytest.mark.parametrize(("name", "path"), CASES, ids=IDS)
def test_every_key_missing_in_turn(name: str, path: Path, tmp_path: Path) -> None:
    data = tree(path)
    for changed in tree_paths(data):
        if changed[:2] != ("map", "rows") or len(changed) == 2:  # rows: a test of their own
            start(tmp_path, mutated(data, changed, delete=True), changed)


@pytest.mark.parametrize(("name", "path"), CASES, ids=IDS)
def test_each_top_level_key_of_any_type(name: str, path: Path, tmp_path: Path) -> None:
    data = tree(path)
    for key in data:
        for value in WRONG_TOML_VALUES:
            start(tmp_path, mutated(data, (key,), value), (key,))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
@scaled(3)
@given(data=st.data())
def test_any_value_of_any_type_anywhere(
    name: str, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    tree_ = tree(data.draw(st.sampled_from(SCENARIOS[name]), label="scenario"))
    changed = data.draw(st.sampled_from(list(tree_paths(tree_))), label="path")
    value = data.draw(st.sampled_from(WRONG_TOML_VALUES), label="value")
    start(tmp_path_factory.mktemp("any"), mutated(tree_, changed, value), changed)


@pytest.mark.parametrize(("name", "path"), CASES, ids=IDS)
def test_lists_of_tables_blown_up_break_the_roster_rules_cleanly(
    name: str, path: Path, tmp_path: Path
) -> None:
    """Forces and rosters repeated past every limit: refused with the key, or playable."""
    data = tree(path)
    for changed in tree_paths(data.get(name, {}), (name,)):
        node: Any = data
        for step in changed:
            node = node[step]
        if isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
            start(tmp_path, mutated(data, changed, (node * 30)[:60]), changed)


@pytest.mark.parametrize(("name", "path"), CASES, ids=IDS)
def test_missing_core_keys_say_how_to_fix_them(name: str, path: Path, tmp_path: Path) -> None:
    data = tree(path)
    for key in ("name", "ruleset", "description", "rounds", "sides", "map"):
        message = start(tmp_path, mutated(data, (key,), delete=True), (key,))
        assert f"missing key '{key}'" in message and "(add " in message, message
    message = start(tmp_path, mutated(data, ("map", "rows"), delete=True), ("map", "rows"))
    assert "'map.rows' must be" in message


@pytest.mark.parametrize(("name", "path"), CASES, ids=IDS)
@pytest.mark.parametrize("where", [0, 1, -1])
@pytest.mark.parametrize("change", [-1, 1])
def test_a_row_of_the_wrong_length_is_named(
    name: str, path: Path, tmp_path: Path, where: int, change: int
) -> None:
    data = tree(path)
    rows = list(data["map"]["rows"])
    if where == 0 and len(rows[0]) + change < 4:
        pytest.skip("the first row sets the width")
    index = where % len(rows)
    rows[index] = rows[index] + "." if change > 0 else rows[index][:-1]
    message = start(tmp_path, mutated(data, ("map", "rows"), rows), ("map", "rows"))
    if where == 0:  # the first row sets the width: the next row is the one reported
        index = 1
    assert f"row {index + 1} " in message and "every row must have" in message, message


@pytest.mark.parametrize(("name", "path"), CASES, ids=IDS)
@pytest.mark.parametrize("axis", ["x", "y"])
@pytest.mark.parametrize(
    "span", [[-1, 2], [0, 400], [5, 2], [0], [0, 1, 2], ["a", "b"], [0.5, 2], "all"]
)
def test_zones_outside_the_map_are_named(
    name: str, path: Path, tmp_path: Path, axis: str, span: Any
) -> None:
    data = tree(path)
    if not data.get("zones"):
        pytest.skip("no zones in this scenario")
    message = start(tmp_path, mutated(data, ("zones", 0, axis), span), ("zones", axis))
    assert f"'zones[0].{axis}'" in message, message
    assert "outside the map" in message or "[first, last]" in message, message


def test_an_unknown_ruleset_names_the_file_key_and_valid_names(tmp_path: Path) -> None:
    name, path = CASES[0]
    message = start(tmp_path, mutated(tree(path), ("ruleset",), "chess"), ("ruleset",))
    assert "key 'ruleset': unknown ruleset 'chess'; valid names: " in message
    assert name in message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
        ("a = " + "{b = " * 600 + "1" + "}" * 600, "nested too deeply"),
        ("rounds = " + "9" * 5000, "too many digits"),
        ('name = "x', "not valid TOML"),
        ("\x00", "not valid TOML"),
    ],
    ids=["deep-arrays", "deep-tables", "huge-integer", "unclosed-string", "nul"],
)
def test_absurd_toml_is_one_clear_error(tmp_path: Path, text: str, words: str) -> None:
    file = tmp_path / "absurd.toml"
    file.write_text(text, encoding="utf-8")
    with time_limit(5), pytest.raises(ScenarioError, match=rf"^{file}: .*{words}") as info:
        checked_scenario(file)
    assert_one_line(info.value)


def test_unreadable_scenario_files_are_one_clear_error(tmp_path: Path) -> None:
    latin = tmp_path / "latin1.toml"
    latin.write_bytes('name = "caf\xe9"'.encode("latin-1"))
    big = tmp_path / "big.toml"
    with big.open("wb") as handle:
        handle.truncate(64 * 2**20)
    fifo = tmp_path / "pipe.toml"
    os_mkfifo = getattr(__import__("os"), "mkfifo", None)
    paths = [latin, big, tmp_path, tmp_path / "missing.toml", Path("/dev/zero")]
    if os_mkfifo is not None:
        os_mkfifo(fifo)
        paths.append(fifo)
    for file in paths:
        with time_limit(2), pytest.raises(ScenarioError, match=rf"^{file}: ") as info:
            checked_scenario(file)
        assert_one_line(info.value)
        assert any(word in str(info.value) for word in ("not", "cannot", "too large")), info


FIXED_CRASHES: dict[tuple[str, str], Any] = {
    ("killteam", "faction"): [],
    ("confrontation", "profile"): [],
    ("confrontation", "roster"): [[]],
    ("confrontation", "budgets"): [1],
    ("apocalypse", "datasheet"): [],
    ("wh40k6", "mission"): [],
    ("wh40k6", "legend"): {"W": []},
    ("wh40k6", "unit"): [],
}
"""Crashes these tests found and that were fixed: each value is now a one-line refusal."""


@pytest.mark.parametrize("fixed", FIXED_CRASHES, ids=lambda k: f"{k[0]}-{k[1]}")
def test_fixed_crashes_are_now_refused(fixed: tuple[str, str], tmp_path: Path) -> None:
    name, key = fixed
    if name not in SCENARIOS:
        pytest.skip(f"{name} is not registered")
    refused = 0
    for path in SCENARIOS[name]:
        data = tree(path)
        changed = next((c for c in tree_paths(data) if c[0] == name and c[-1] == key), None)
        if changed is None:
            continue
        value = FIXED_CRASHES[fixed]
        node: Any = data
        for step in changed:
            node = node[step]
        if isinstance(value, dict) and isinstance(node, dict):
            value = {**node, **value}
        outcome = start(tmp_path, mutated(data, changed, value), changed, tolerate=False)
        refused += outcome not in ("ok",)
    assert refused, f"no scenario of {name} has a '{key}' key to break"


@pytest.mark.parametrize("known", KNOWN_CRASHES, ids=lambda k: f"{k[0]}-{k[1]}")
@pytest.mark.xfail(strict=True, raises=(TypeError, ValueError), reason="see KNOWN_CRASHES")
def test_known_crashes_are_still_there(known: tuple[str, str], tmp_path: Path) -> None:
    """Fails (XPASS, strict) once the crash is fixed: then delete its KNOWN_CRASHES entry."""
    name, key = known
    if name not in SCENARIOS:
        pytest.skip(f"{name} is not registered")
    value = KNOWN_CRASHES[known][1]
    for path in SCENARIOS[name]:
        data = tree(path)
        changed = next((c for c in tree_paths(data) if c[0] == name and c[-1] == key), None)
        if changed is not None:
            node: Any = data
            for step in changed:
                node = node[step]
            if isinstance(value, dict) and isinstance(node, dict):  # change one entry of it
                value = {**node, **value}
            start(tmp_path, mutated(data, changed, value), changed, tolerate=False)
