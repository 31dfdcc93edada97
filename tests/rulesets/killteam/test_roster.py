"""Rosters, the points format and starting CP (digest killteam §4.1-§4.3, §7 #1-#4)."""

from __future__ import annotations

from pathlib import Path

from engine.decisions import Decision
from engine.game import Game
from engine.rulesets.killteam.deployment import starting_cp
from engine.rulesets.killteam.profiles import load_factions
from engine.rulesets.killteam.roster import RosterEntry, equip, validate_roster
from engine.rulesets.killteam.roster_builder import build_roster, choose_format
from engine.scenario import load_scenario
from tests.rulesets.killteam.table import Table

CROSSROADS = Path(__file__).parents[3] / "scenarios" / "killteam-crossroads.toml"


def entry(datasheet: str, specialism: str | None = None, *options: str) -> RosterEntry:
    faction = load_factions()["militia"]
    sheet = faction.datasheets[datasheet]
    return RosterEntry(sheet, equip(faction, sheet, list(options)), specialism)


def test_s20_underdog_gets_a_cp_per_full_ten_points() -> None:
    """S20: a 100-pt roster against a 125-pt one starts with +2 CP; the other with 0."""
    t = Table()
    t.state.team(0).points, t.state.team(1).points = 100, 125
    starting_cp(t.state, t.ctx)
    assert (t.state.team(0).cp, t.state.team(1).cp) == (2, 0)


def test_default_rosters_cost_what_the_digest_says() -> None:
    """§12.3: Force A 68 pts, Force B 71 pts, 10 models each, within 10 points: no CP."""
    game = Game(load_scenario(CROSSROADS), 1)
    teams = game.ruleset.state.teams  # type: ignore[attr-defined]
    assert (teams[0].points, teams[1].points) == (68, 71)
    assert (teams[0].start_count, teams[1].start_count) == (10, 10)


def test_roster_rules() -> None:
    """§4.2: at least 3 models, one Leader, no repeats, at most 4 specialists, Max."""
    legal = [entry("sergeant", "Leader"), entry("trooper"), entry("trooper")]
    assert validate_roster(legal, 100) == []
    assert "at least 3" in " ".join(validate_roster(legal[:2], 100))
    no_leader = [entry("trooper"), entry("trooper"), entry("trooper")]
    assert "exactly one model must be the Leader" in validate_roster(no_leader, 100)
    five = [
        entry("sergeant", "Leader"),
        entry("trooper", "Comms"),
        entry("trooper", "Medic"),
        entry("trooper", "Scout"),
        entry("trooper", "Sniper"),
    ]
    assert "5 specialists; at most 4, Leader included" in validate_roster(five, 100)
    wrong = [entry("sergeant", "Leader"), entry("trooper", "Heavy"), entry("trooper")]
    assert "Militia Trooper cannot be a Heavy specialist" in validate_roster(wrong, 100)


def test_format_is_proposed_then_confirmed_or_chosen() -> None:
    """§7 #1 (PROPOSED): player 1 proposes; player 2 agrees, or picks (final)."""
    t = Table()
    assert t.run(choose_format(t.ctx, 100), ["125", "yes"]) == 125
    t = Table()
    assert t.run(choose_format(t.ctx, 100), ["200", "no", "100"]) == 100
    assert [d.player for d in t.decisions] == [0, 1, 1]


def test_building_offers_only_legal_additions() -> None:
    """§7 #2-#4: Leader first; offers respect points, Max and the specialist limit."""
    faction = load_factions()["militia"]
    t = Table()

    def check(decision: Decision) -> str:
        prompt = decision.prompt
        if prompt.startswith("Roster: specialism"):
            return decision.options[-1].key
        if prompt.startswith("Roster: wargear"):
            return decision.options[0].key
        if "seer" in decision:
            return "seer"
        return "done" if "done" in decision else decision.options[0].key

    roster = t.run(build_roster(t.ctx, 0, faction, 30), then=check)
    assert roster[0].specialism == "Leader"
    assert roster[0].sheet.id == "sergeant"  # the Militia's one Leader: taken unasked
    assert not any(d.prompt == "Roster: choose your Leader" for d in t.decisions)
    assert t.ctx.notes[0] == (0, "Militia Sergeant is your Leader: the only one you can take.")
    assert sum(e.points for e in roster) <= 30
    seer_offers = [d for d in t.decisions if "seer" in d]
    assert len(seer_offers) == 1  # Max 1: once taken, never offered again
    assert validate_roster(roster, 30) == []


def test_building_never_strands_a_roster_below_three_models() -> None:
    """With 20 points, after a 6-pt Leader a 10-pt Seer would leave no room for a third."""
    faction = load_factions()["militia"]
    t = Table()
    roster = t.run(
        build_roster(t.ctx, 0, faction, 20),
        then=lambda d: "seer" if "seer" in d else d.options[-1].key,
    )
    assert not any("seer" in d for d in t.decisions)
    assert validate_roster(roster, 20) == []


def test_a_lone_affordable_wargear_is_taken_unasked_with_a_note() -> None:
    """7 pts left: the Sergeant's Shock axe loadout (8 pts) is out of reach, so the 6-pt
    one is his without a wargear question, and the player is told."""
    faction = load_factions()["militia"]
    t = Table()
    roster = t.run(build_roster(t.ctx, 0, faction, 7), then=lambda d: d.options[-1].key)
    assert [w.name for w in roster[0].weapons] == ["Service pistol", "Chain blade", "Frag grenade"]
    assert not any(d.prompt.startswith("Roster: wargear") for d in t.decisions)
    assert (
        0,
        "Militia Sergeant takes Service pistol, Chain blade, Frag grenade: the only "
        "wargear within the points.",
    ) in t.ctx.notes
