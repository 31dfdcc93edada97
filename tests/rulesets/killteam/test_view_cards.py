"""The view's model cards (profile and weapon lines), kept per model between views."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from engine.rulesets.killteam.profiles import load_factions, profile_lines
from engine.rulesets.killteam.roster import equip
from engine.scenario import load_scenario

CROSSROADS = Path(__file__).parents[3] / "scenarios" / "killteam-crossroads.toml"


def cards(game: Game) -> dict[str, tuple[object, object]]:
    return {m.id: (m.profile, m.weapons) for m in game.view().models}


def written_afresh(game: Game) -> dict[str, tuple[object, object]]:
    models = game.ruleset.state.models  # type: ignore[attr-defined]
    return {
        mid: (profile_lines(m.sheet), tuple(p.describe() for w in m.weapons for p in w.profiles))
        for mid, m in models.items()
    }


def test_a_models_card_follows_its_sheet_and_weapons() -> None:
    """A card kept from an earlier view is the one written afresh, also once a model's
    datasheet or weapons are replaced (a roster fielded again keeps the models' ids)."""
    game = Game(load_scenario(CROSSROADS), 3)
    for _ in range(40):  # a view at each of the first choices: the same cards
        assert cards(game) == written_afresh(game)
        assert game.pending is not None
        game.choose_key(game.pending.options[0].key)
    faction = load_factions()["militia"]
    model = game.ruleset.state.models["A1"]  # type: ignore[attr-defined]
    other = next(s for s in faction.datasheets.values() if s is not model.sheet)
    model.sheet = other
    model.weapons = equip(faction, other, [])
    assert cards(game)["A1"] == written_afresh(game)["A1"]
    assert cards(game)["A1"][0] == profile_lines(other)
