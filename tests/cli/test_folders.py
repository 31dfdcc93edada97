"""Where wargrid finds scenarios and keeps saves, and what ``--version`` says (#21).

The installed case (the user's data folder, scenarios inside the package) is
`tests/cli/test_install.py`; these run from the checkout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import ScenarioError
from engine.rulesets import RULESETS
from engine.save import ENGINE_VERSION, FORMAT_VERSION
from engine.scenario import SHIPPED_SCENARIOS, find_scenario, scenario_dirs
from tui.cli import main
from tui.saves import SAVES_VARIABLE, saves_folder

ROOT = Path(__file__).parents[2]


def test_saves_go_to_the_option_then_the_variable_then_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SAVES_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)  # not the folder the player starts in: the checkout's
    assert saves_folder() == ROOT / "saves"
    monkeypatch.setenv(SAVES_VARIABLE, str(tmp_path / "mine"))
    assert saves_folder() == tmp_path / "mine"
    assert saves_folder(tmp_path / "option") == tmp_path / "option"
    monkeypatch.setenv(SAVES_VARIABLE, "")  # set but empty: as if unset
    assert saves_folder() == ROOT / "saves"


def test_the_shipped_scenarios_live_in_the_package() -> None:
    assert (ROOT / "engine" / "scenarios").resolve() == SHIPPED_SCENARIOS
    assert (SHIPPED_SCENARIOS / "killteam-crossroads.toml").is_file()
    assert (ROOT / "scenarios").resolve() == SHIPPED_SCENARIOS  # the checkout's old path


def test_a_scenario_is_found_by_name_from_any_folder_own_ones_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert scenario_dirs() == (tmp_path / "scenarios", SHIPPED_SCENARIOS)
    shipped = SHIPPED_SCENARIOS / "killteam-crossroads.toml"
    assert find_scenario("killteam-crossroads") == shipped
    assert find_scenario("killteam-crossroads.toml") == shipped
    own = tmp_path / "scenarios" / "killteam-crossroads.toml"
    own.parent.mkdir()
    own.write_text(shipped.read_text())
    assert find_scenario("killteam-crossroads").resolve() == own  # ./scenarios comes first
    assert find_scenario(Path("scenarios/killteam-crossroads.toml")).resolve() == own


def test_an_unknown_name_names_the_folders_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScenarioError, match=r"nowhere: no such scenario file.*engine/scenarios"):
        find_scenario("nowhere")


@pytest.mark.parametrize("ref", ["../killteam-crossroads.toml", "sub/killteam-crossroads"])
def test_a_path_with_folders_is_never_looked_up(
    ref: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only bare names are searched for; a path stays the player's, errors and all."""
    monkeypatch.chdir(tmp_path)
    assert find_scenario(ref) == Path(ref)


def test_simulate_takes_a_scenario_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "killteam-crossroads", "--seed", "7"]) == 0
    assert capsys.readouterr().out.startswith("Hold the Crossroads, seed 7: ")
    assert main(["simulate", "no-such-scenario"]) == 2
    assert "no-such-scenario: no such scenario file" in capsys.readouterr().err


def test_version_names_what_a_save_records(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("wargrid 0.1.0")
    assert lines[1] == f"engine {ENGINE_VERSION}, save format {FORMAT_VERSION}"
    assert lines[2:] == [f"{r.INFO.name} {r.INFO.version} ({r.INFO.title})" for r in RULESETS]
