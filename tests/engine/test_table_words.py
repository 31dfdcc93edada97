"""Small things a player notices at the table, fixed where the words are made: model
cards, stale panel lines, saves that cannot succeed, prices and garbled text (the
2026-11-25 playtest)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.decisions import Decision
from engine.game import Game
from engine.rulesets.killteam.attacks import AttackGroup, AttackSpec, resolve_attacks
from engine.rulesets.killteam.charge import charge
from engine.scenario import load_scenario
from engine.wording import counted
from tests.rulesets.killteam.table import Table

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def advanced(name: str, seed: int, until: Callable[[Game], bool]) -> Game:
    """A game whose players took the first option that ends nothing until ``until``."""
    game = Game(load_scenario(SCENARIOS / f"{name}.toml"), seed)
    while game.pending is not None and not until(game):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    return game


def test_a_successful_charge_never_reads_failed_charge_on_the_card() -> None:
    t = Table(dice=[(4, "charge"), (3, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (7, 0))
    t.state.step = "A moves"
    seen: list[tuple[str, ...]] = []

    def land(decision: Decision) -> str:
        seen.append(charger.states())  # while choosing where the charge ends
        return next(o.key for o in decision.options if o.cell is not None)

    t.run(charge(t.state, t.ctx, charger), ["none"], then=land)
    assert seen and all("failed charge" not in states for states in seen)
    assert "charge declared" in seen[0]
    assert "charged" in charger.states() and "failed charge" not in charger.states()
    # The phase panel goes back to the step the charge interrupted.
    assert t.state.step == "Charge roll" and t.state.shown_step() == "A moves"


def test_a_failed_charge_says_so_only_after_the_roll() -> None:
    t = Table(dice=[(1, "charge"), (1, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (7, 0))
    t.run(charge(t.state, t.ctx, charger), ["none", "stay"])
    assert "failed charge" in charger.states() and "charge declared" not in charger.states()


def test_a_model_without_a_save_rolls_none() -> None:
    """A Scrapling (Sv -) wounded twice: no save dice, no "a 6 fails", no re-roll offer."""
    t = Table(dice=[4, 4, 5, 5, 1, 1])  # hits, wounds, then two injury rolls
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "scrapling", (1, 9))
    t.add(1, "scrapling", (8, 9))
    t.state.team(1).cp = 3
    rifle = shooter.weapons[0].profiles[0]
    spec = AttackSpec(shooter, 4, [AttackGroup(target, 2, rifle, 3)])
    t.run(resolve_attacks(t.state, t.ctx, spec))
    assert not any("saves of" in r.reason for r in t.dice.rolls)
    (saves,) = t.find("SavesRolled")
    assert saves.text == f"{target.name} has no save against this: 2 unsaved"
    assert not any("save" in d.prompt.lower() for d in t.decisions)


def test_weapon_lines_keep_labels_and_values_apart() -> None:
    from engine.rulesets.killteam.profiles import load_factions

    lines = [
        p.describe()
        for f in load_factions().values()
        for w in f.weapons.values()
        for p in w.profiles
    ]
    assert any(": Melee S User AP -1 Dmg 1" in line for line in lines)
    assert any("Dmg D3" in line for line in lines)
    assert not any("SUser" in line or "DD3" in line for line in lines)


def test_wh40k6_melee_weapons_say_melee_once_and_sides_show_vp_once() -> None:
    def deployed(game: Game) -> bool:
        return any(m.cell is not None for m in game.view().models)

    game = advanced("wh40k6-emperors-will", 5, deployed)
    lines = [w for m in game.view().models for w in m.weapons]
    melee = [w for w in lines if ": Melee" in w]
    assert melee and all(w.count("Melee") == 1 and "SUser" not in w for w in melee)
    assert any(": Melee S User AP 3" in w for w in melee)  # the power blade
    assert all("VP" not in label for side in game.view().sides for label, _ in side.resources)


def test_confrontation_hides_the_last_tactical_winner_during_the_next_roll() -> None:
    def next_roll(game: Game) -> bool:
        state = game.ruleset.state  # type: ignore[attr-defined]
        return bool(state.round >= 2 and state.step == "Tactical roll")

    game = advanced("confrontation-crossing", 7, next_roll)
    assert game.ruleset.state.tactical_winner is not None  # type: ignore[attr-defined]
    won = [dict(side.resources)["Tactical roll"] for side in game.view().sides]
    assert won == ["-", "-"]


def test_counts_agree_with_their_nouns() -> None:
    assert (counted(1, "model"), counted(3, "model"), counted(2, "die", "dice")) == (
        "1 model",
        "3 models",
        "2 dice",
    )


def test_fatigue_prompts_count_models_and_name_lone_models_once() -> None:
    game = Game(load_scenario(SCENARIOS / "fatigue-crossroads.toml"), 7)
    texts: list[str] = []
    for _ in range(300):
        pending = game.pending
        if pending is None:
            break
        texts += [pending.prompt, *(o.label for o in pending.options)]
        game.choose_key(next(o.key for o in pending.options if not o.ends))
    assert not [t for t in texts if "(1 models" in t or ", 1 models" in t]
    assert any("(1 model)" in t for t in texts)
    doubled = [t for t in texts if " of " in t and t.split(" of ")[-1] in t.split(" of ")[0]]
    assert not doubled, doubled[:3]
    for side in game.view().sides:
        assert dict(side.resources)["Force"] != side.name


def test_the_roster_offer_names_the_price_its_wargear_can_reach() -> None:
    game = Game(load_scenario(SCENARIOS / "killteam-crossroads.toml"), 5)
    while (pending := game.pending) is not None and not pending.prompt.startswith("Roster: 1 "):
        keys = pending.keys()
        game.choose_key("build" if "build" in keys else keys[0])
    assert pending is not None and pending.prompt.startswith("Roster: 1 model,")  # not "models"
    gunner = next(o.label for o in pending.options if "Gunner" in o.label)
    assert gunner == "Add a Militia Gunner (8-9 pts)"  # its support cannon costs 9
