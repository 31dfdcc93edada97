"""Rosters chosen at the table (digest apocalypse §7 #1 under the §4.1 army-building rules)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypeVar

import pytest

from engine.bot import RandomBot
from engine.decisions import Procedure
from engine.errors import ScenarioError
from engine.game import Game
from engine.rulesets.apocalypse.profiles import load_catalogue
from engine.rulesets.apocalypse.roster import build_army
from engine.rulesets.apocalypse.roster_builder import (
    RosterRules,
    build_force,
    commander_candidates,
    faction_sheets,
    legal_additions,
)
from engine.rulesets.apocalypse.ruleset import Apocalypse
from engine.scenario import Scenario, parse_scenario

SCENARIOS = Path(__file__).parents[3] / "scenarios"
CATALOGUE = load_catalogue()
LEGION = faction_sheets(CATALOGUE, "LEGION")
HORDE = faction_sheets(CATALOGUE, "HORDE")
T = TypeVar("T")


def crossing(building: str | None = "true", name: str = "apocalypse-crossing.toml") -> Scenario:
    """The Crossing scenario with ``roster_building`` set as given (None: left out)."""
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    text = re.sub(r"(?m)^roster_building = .*\n", "", text)
    if building is not None:
        text = text.replace("[apocalypse]\n", f"[apocalypse]\nroster_building = {building}\n", 1)
    return parse_scenario(text, name)


def roster_summary(game: Game) -> list[tuple[str, str, str, bool, bool]]:
    ruleset = game.ruleset
    assert isinstance(ruleset, Apocalypse)
    return [
        (u.uid, u.name, u.detachment, u.is_commander, u.is_warlord)
        for u in ruleset.state.units.values()
    ]


def test_without_the_switch_the_game_starts_at_deployment() -> None:
    game = Game(crossing(None), 1)
    assert game.pending is not None
    assert "roster" not in game.pending.prompt


def test_keeping_both_prepared_rosters_changes_nothing() -> None:
    plain = Game(crossing(None), 4)
    game = Game(crossing(), 4)
    for player, side in enumerate(("Ironclad Legion", "Scrap Horde")):
        assert game.pending is not None
        assert game.pending.player == player
        assert game.pending.prompt == f"Your {side} roster"
        assert [o.key for o in game.pending.options] == ["keep", "build"]
        game.choose_key("keep")
    assert roster_summary(game) == roster_summary(plain)
    assert game.pending is not None and plain.pending is not None
    assert game.pending.prompt == plain.pending.prompt
    assert [e.kind for e in game.events].count("RosterKept") == 2


def test_building_a_roster_replaces_the_prepared_one() -> None:
    """Captain + two Line Squads (Captain commands: the only CHARACTER, so the Warlord),
    then a Battle Tank + Fire Team whose Commander the player picks (§4.1 items 3-5)."""
    game = Game(crossing(), 2)
    answers = [
        "build",
        "legion_line_squad",
        "legion_captain",
        "legion_line_squad",
        "close",  # the Captain is the only CHARACTER: no Commander Decision
        "more",
        "legion_fire_team",
        "legion_battle_tank",
        "close",
    ]
    for key in answers:
        game.choose_key(key)
    assert (
        game.pending is not None
        and game.pending.prompt == "Roster: the Commander of Legion Detachment 2"
    )
    assert [o.label for o in game.pending.options] == ["Legion Fire Team", "Legion Battle Tank"]
    game.choose_key("1")
    assert game.pending is not None
    assert [o.key for o in game.pending.options] == ["more", "done"]
    game.choose_key("done")
    game.choose_key("keep")
    ruleset = game.ruleset
    assert isinstance(ruleset, Apocalypse)
    state = ruleset.state
    legion = [u for u in state.units.values() if u.owner == 0]
    assert [(u.uid, u.name, u.detachment) for u in legion] == [
        ("A1", "Legion Captain", "A-D1"),
        ("A2", "Legion Line Squad α", "A-D1"),
        ("A3", "Legion Line Squad β", "A-D1"),
        ("A4", "Legion Battle Tank", "A-D2"),
        ("A5", "Legion Fire Team", "A-D2"),
    ]
    assert [u.uid for u in legion if u.is_commander] == ["A1", "A4"]
    assert [u.uid for u in legion if u.is_warlord] == ["A1"]
    assert state.side(0).points == 20 + 20 + 20 + 45 + 25
    assert [d.id for d in state.detachments.values() if d.owner == 0] == ["A-D1", "A-D2"]
    assert [d.owner for d in state.detachments.values()] == [0, 0, 1, 1]
    built = [e for e in game.events if e.kind == "RosterBuilt"]
    assert len(built) == 1 and "130-pt army of 2 detachments" in built[0].text


def test_only_legal_and_affordable_units_are_offered() -> None:
    """Offers shrink with the points left; a detachment holds at most 6 units (§4.1)."""
    game = Game(crossing(), 5)
    game.choose_key("build")
    for _ in range(6):
        assert game.pending is not None
        offered = {o.key for o in game.pending.options} - {"close"}
        assert offered <= {s.id for s in LEGION}
        game.choose_key("legion_captain")
    assert game.pending is not None
    assert [o.key for o in game.pending.options] == ["close"]  # six units: full
    game.choose_key("close")
    assert game.pending is not None and "Commander" in game.pending.prompt
    game.choose_key("0")
    # 120 of 180 pts spent: a second detachment may only take units of <= 60 pts.
    game.choose_key("more")
    assert game.pending is not None
    assert {o.key for o in game.pending.options} == {s.id for s in LEGION if s.points <= 60}


def test_size_limits_of_legal_additions() -> None:
    """1-6 units, or 1-3 if all SUPER-HEAVY; only what the points allow (§4.1 item 3)."""
    colossus = CATALOGUE["legion_colossus"]
    squad = CATALOGUE["legion_line_squad"]
    assert colossus in legal_additions([colossus, colossus], LEGION, 1000)
    assert colossus not in legal_additions([colossus] * 3, LEGION, 1000)
    assert squad in legal_additions([colossus] * 3, LEGION, 1000)
    assert colossus in legal_additions([colossus] * 3 + [squad], LEGION, 1000)
    assert legal_additions([squad] * 6, LEGION, 1000) == []
    assert [s.id for s in legal_additions([], LEGION, 20)] == [
        s.id for s in LEGION if s.points <= 20
    ]


def test_a_character_must_command() -> None:
    """§4.1 item 4: with a CHARACTER in the detachment only CHARACTERs may command."""
    boss, mob = CATALOGUE["horde_warboss"], CATALOGUE["horde_brute_mob"]
    assert commander_candidates([mob, boss, mob]) == [1]
    assert commander_candidates([mob, mob]) == [0, 1]


@pytest.mark.parametrize("seed", range(40))
def test_random_building_always_ends_with_a_legal_army(seed: int) -> None:
    """Random answers always finish, and the army passes the loader's §4.1 checks."""
    for faction, catalogue, limit in (("LEGION", LEGION, 180), ("HORDE", HORDE, 280)):
        rules = RosterRules(CATALOGUE, limit, 4, "test")
        force = _random_answers(build_force(0, faction, catalogue, rules), RandomBot(seed))
        got_faction, dets, units = build_army(force, 0, CATALOGUE, "test", max_detachments=4)
        assert got_faction == faction
        assert 1 <= len(dets) <= 4
        assert sum(u.sheet.points for u in units) <= limit
        assert all(sum(u.is_commander for u in units if u.detachment == d.id) == 1 for d in dets)


def _random_answers(procedure: Procedure[T], bot: RandomBot) -> T:
    """Drive ``procedure`` with random answers; it must end within 200 Decisions."""
    decision = next(procedure)
    for _ in range(200):
        assert decision.options
        try:
            decision = procedure.send(bot.choose(decision))
        except StopIteration as stop:
            result: T = stop.value
            return result
    raise AssertionError("the builder does not end")


@pytest.mark.parametrize("seed", range(1, 5))
def test_random_bot_games_with_building_end(seed: int) -> None:
    game = Game(crossing(name="apocalypse-crossing-big.toml"), seed)
    bot = RandomBot(seed)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
        assert len(game.choices) < 20_000
    assert game.outcome is not None
    ruleset = game.ruleset
    assert isinstance(ruleset, Apocalypse)
    assert all(side.points <= 280 for side in ruleset.state.sides)


@pytest.mark.parametrize(
    ("line", "message"),
    [("roster_building = 1", "roster_building"), ("roster_building = true", "points")],
)
def test_bad_switches_are_scenario_errors(line: str, message: str) -> None:
    text = (SCENARIOS / "apocalypse-crossing.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^roster_building = .*\n", "", text)
    text = re.sub(r"(?m)^points = .*\n", "", text)
    text = text.replace("[apocalypse]\n", f"[apocalypse]\n{line}\n", 1)
    with pytest.raises(ScenarioError, match=message):
        Game(parse_scenario(text, "bad.toml"), 1)
