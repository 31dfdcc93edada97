"""The plural rule of engine.wording against every name the game ships (scenarios, rosters,
catalogues): a verb after a side, unit or model name agrees with it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.resumption import open_save
from engine.save import read_save, replay
from engine.wording import agreeing, agrees, its, plural, possessive, says

REPLAYS = Path(__file__).resolve().parents[1] / "replays"

ENGINE = Path(__file__).parents[2] / "engine"

PLURAL = {
    "Ashen Reavers",
    "Ashfang Scavengers",
    "Battle rifles",
    "Bogfen Raiders",
    "Cleavers",
    "Combat blades",
    "Crusher claws",
    "Crushing treads",
    "Dustroad Wardens",
    "Fists",
    "Flame pistols",
    "Heavy lasers",
    "Horde Scrap Gunners",
    "Horde Sky Raiders",
    "Iron Wardens",
    "Krak grenades",
    "Relic Longguns",
    "Road Spears",
    "Rocket racks",
    "Scrap Gunners α",
    "Scrap Gunners β",
    "Scrap cannons",
    "Scrap guns",
    "Scrap pistols",
    "Sidearms",
    "Sky Raiders",
    "Throwing hooks",
    "Throwing knives",
    "Warden Outriders",
    "Warden Rangers",
}
"""Every plural name shipped; "Stomping feet" (a weapon, never before a verb) reads
singular, like every other name."""


def _names(data: Any, found: set[str], root: bool = False) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "name" and isinstance(value, str):
                if not root:  # a scenario's title
                    found.add(value)
            elif key == "sides":
                found.update(value)
            elif not (root and key == "zones"):
                _names(value, found)
    elif isinstance(data, list):
        for item in data:
            _names(item, found)


def shipped_names() -> set[str]:
    found: set[str] = set()
    for path in sorted((ENGINE / "scenarios").glob("*.toml")):
        _names(tomllib.loads(path.read_text()), found, root=True)
    for path in sorted((ENGINE / "rulesets").glob("*/*.toml")):
        _names(tomllib.loads(path.read_text()), found)
    catalogue = (ENGINE / "rulesets" / "wh40k6" / "catalogue.py").read_text()
    found.update(re.findall(r'"name": "([^"]*)"', catalogue))
    return found


def test_every_shipped_name_has_the_number_it_reads_with() -> None:
    names = shipped_names()
    assert {"Horde Warboss", "Pack-Boss", "Reaver Boss", "Order of the Lantern"} <= names
    assert names >= PLURAL
    assert {name for name in names if plural(name)} == PLURAL


@pytest.mark.parametrize(
    "name",
    [
        "Warboss",
        "Reaver Boss",
        "Pack-Boss",
        "B3 Magus",
        "Chaos",
        "Sons' Genesis",
        "Osiris",
        "Lord of the Flies",
        "Grish's",
        "B14 Scrapling",
        "s",
        "",
    ],
)
def test_names_ending_in_s_that_name_one(name: str) -> None:
    assert not plural(name)
    assert agrees(name, "has") == "has"
    assert says(name, "passes") == f"{name} passes"
    assert its(name) == "its"


def test_plural_names_take_plural_verbs_and_their() -> None:
    assert says("Ashfang Scavengers", "passes") == "Ashfang Scavengers pass"
    assert says("Dustroad Wardens", "has") == "Dustroad Wardens have"
    assert says("Ashen Reavers", "gains") == "Ashen Reavers gain"
    assert says("Road Spears", "deploys") == "Road Spears deploy"
    assert says("Scrap Gunners β", "carries") == "Scrap Gunners β carry"
    assert says("Sky Raiders", "dies") == "Sky Raiders die"
    assert says("Sky Raiders", "pushes") == "Sky Raiders push"
    assert says("Sky Raiders", "goes") == "Sky Raiders go"
    assert its("Ashen Reavers") == "their"
    assert agreeing("Sky Raiders", "has taken its last wound") == "have taken their last wound"
    assert agreeing("Warboss", "has taken its last wound") == "has taken its last wound"
    assert its("Sky Raiders 2") == "their"


def test_possessives_follow_the_same_rule() -> None:
    assert possessive("Iron Wardens") == "Iron Wardens'"
    assert possessive("Horde Warboss") == "Horde Warboss's"
    assert possessive("Rustbound Horde") == "Rustbound Horde's"
    assert possessive("Scrap Gunners α") == "Scrap Gunners α's"


@pytest.mark.parametrize(
    "ruleset", ["killteam", "wh40k6", "apocalypse", "confrontation", "fatigue"]
)
def test_every_log_line_of_a_whole_game_starts_as_a_sentence(ruleset: str) -> None:
    """A line of the log is a sentence: it starts with a capital (or a number). Lines
    began "the side of Bogfen Cutthroat B2.2 and 3 more wins the Initiative" and
    "attack damage on ..." in Confrontation."""
    game = open_save(read_save(REPLAYS / f"{ruleset}.wargrid")).game
    texts = [event.text for event in game.events if event.text]
    assert texts
    assert [text for text in texts if not (text[0].isupper() or text[0].isdigit())] == []


@pytest.mark.parametrize(
    "ruleset", ["killteam", "wh40k6", "apocalypse", "confrontation", "fatigue"]
)
def test_no_log_line_or_prompt_counts_with_a_bracketed_plural(ruleset: str) -> None:
    """Played: "loses 1 wound(s)", "2 attack(s)", "Scrap Hauler flat outs": a count
    agrees with its noun ("1 wound", "2 attacks") in events, prompts and options."""
    game = open_save(read_save(REPLAYS / f"{ruleset}.wargrid")).game
    texts = [event.text for event in game.events]
    texts += [d.prompt for d in game.answered]
    texts += [o.label for d in game.answered for o in d.options]
    assert texts
    assert [text for text in texts if "(s)" in text or " outs " in f"{text} "] == []


ONE_PLURAL = re.compile(r"(?<![\d.])1 (steps|wounds|hits|attacks|dice|models|units|rolls|shots)\b")
"""A count of one with a plural noun: "flees 1 steps", "1 wounds left", "1 attacks"."""


@pytest.mark.parametrize("ruleset", ["killteam", "fatigue", "wh40k6", "apocalypse"])
def test_no_golden_replay_line_counts_one_in_the_plural(ruleset: str) -> None:
    """The fatigue golden replay said "(..., shots from Relic Longguns), 1 wounds left"."""
    game = replay(read_save(REPLAYS / f"{ruleset}.wargrid"))
    assert not [e.text for e in game.events if ONE_PLURAL.search(e.text)]
