"""The ruleset registry imports a ruleset when it is first asked for, so opening a game of
one ruleset does not pay for loading the other four (Continue, hosted sessions)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import UnknownRulesetError
from engine.rulesets import ENTRIES, RULESETS, Entry, find_ruleset

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_each_entry_names_what_its_ruleset_says(entry: Entry) -> None:
    info = entry.load().INFO
    assert (info.name, info.aliases) == (entry.name, entry.aliases)
    for alias in entry.aliases:
        assert find_ruleset(alias.upper()) is entry.load()


def test_rulesets_lists_all_five_in_menu_order() -> None:
    names = [ruleset.INFO.name for ruleset in RULESETS]
    assert names == ["killteam", "confrontation", "apocalypse", "fatigue", "wh40k6"]


def test_an_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownRulesetError, match="valid names: killteam, confrontation"):
        find_ruleset("chess")


def test_opening_a_kill_team_save_loads_kill_team_alone(tmp_path: Path) -> None:
    code = f"""
import sys
from engine.game import Game
from engine.resumption import open_save
from engine.save import read_save, write_save
from engine.scenario import load_scenario
game = Game(load_scenario({str(ROOT / "scenarios" / "killteam-crossroads.toml")!r}), 7)
for _ in range(30):
    game.choose_key(game.pending.keys()[0])
write_save(game, {str(tmp_path / "kt.wargrid")!r})
open_save(read_save({str(tmp_path / "kt.wargrid")!r}))
print(sorted({{m.split(".")[2] for m in sys.modules if m.count(".") > 1
              and m.startswith("engine.rulesets.")}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['killteam']"
