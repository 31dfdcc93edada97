"""Army building at the table: budget, secret lists, card grouping.

Digest confrontation §4.1, D1, D2.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import ScenarioError
from engine.rulesets.confrontation import Confrontation
from engine.rulesets.confrontation.muster import (
    agree_budget,
    choose_army,
    group_cards,
    partitions,
)
from engine.scenario import load_scenario, parse_scenario
from tests.rulesets.confrontation.table import Table, profile

MUSTER = Path(__file__).parents[3] / "scenarios" / "confrontation-muster.toml"
HERO = profile("Hero", is_hero=True, ap_printed=30)
SPEAR = profile("Spearman", ap_printed=12)


def test_partitions_into_cards_of_three_at_most() -> None:
    """§3.3: a card holds 1-3 identical fighters."""
    assert list(partitions(4)) == [(3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    assert list(partitions(1)) == [(1,)]


def test_budget_agreed_on_the_second_proposal() -> None:
    """D1 (FILL-IN): player 1 proposes, player 2 refuses and proposes, player 1 accepts."""
    t = Table()
    budget = t.run(agree_budget(t.ctx, (75, 100), 100), ["75", "no", "100", "yes"])
    assert budget == 100
    assert [d.player for d in t.decisions] == [0, 1, 1, 0]


def test_no_agreement_falls_back_on_the_scenario() -> None:
    t = Table()
    answers = ["75", "no"] * 6
    assert t.run(agree_budget(t.ctx, (75, 125), 100), answers) == 100


def test_army_list_is_secret_and_within_budget() -> None:
    """D1 (army list): hidden picks; a hero only once; nothing over the budget is offered."""
    t = Table()
    army = t.run(choose_army(0, [HERO, SPEAR], 60), ["hero", "spearman", "spearman", "done"])
    assert [p.id for p in army] == ["hero", "spearman", "spearman"]
    assert all(d.hidden for d in t.decisions)
    assert t.decisions[1].keys() == ("spearman", "done")  # the hero is taken
    assert t.decisions[3].option("spearman") is None  # 6 AP left


def test_done_ends_the_list_and_counts_one_fighter() -> None:
    """D1 (army list): "Done" ends the army (`Option.ends`: a UI keeps it off the digit
    keys and asks before taking it while fighters may still be added), so a player
    pressing 1 for spearman after spearman is refused once none is affordable, not
    left with an army he did not finish. One fighter reads "1 fighter"."""
    t = Table()
    army = t.run(choose_army(0, [HERO, SPEAR], 36), ["hero", "done"])
    assert [p.id for p in army] == ["hero"]
    done = t.decisions[1].option("done")
    assert done is not None and done.ends and done.label == "Done (1 fighter, 30 AP)"
    t = Table()
    t.run(choose_army(0, [HERO, SPEAR], 40), ["spearman", "spearman", "spearman", "done"])
    last = t.decisions[-1]
    assert last.keys() == ("done",) and last.options[0].label == "Done (3 fighters, 36 AP)"
    assert last.options[0].ends


def test_fighters_keep_their_keys_when_a_hero_is_taken_or_unaffordable() -> None:
    """A player who takes the hero, then presses the same key twice, adds two of the same
    fighter: what leaves the list leaves from its end (the hero first in the pool moved
    every key by one, and "2" twice added a crossbowman then something else)."""
    bow = profile("Crossbowman", ap_printed=14)
    t = Table()
    t.run(choose_army(0, [HERO, bow, SPEAR], 75), ["hero", "spearman", "spearman", "done"])
    first, *rest = (d.keys() for d in t.decisions)
    assert first == ("spearman", "crossbowman", "hero")
    assert rest[0][:2] == rest[1][:2] == rest[2][:2] == ("spearman", "crossbowman")


def test_card_groupings_read_as_cards_not_numbers() -> None:
    """D2: "1 2" / "2 1 + 1" (key, label) read as numbers; the options say cards."""
    t = Table()
    t.run(group_cards(t.state, t.ctx, 0, [SPEAR, SPEAR, SPEAR]), ["2+1"])
    labels = [o.label for o in t.decisions[0].options]
    assert labels == ["one card of 3", "2 cards: 2 + 1", "3 cards of 1"]


def test_grouping_onto_cards() -> None:
    """D2: heroes alone; identical fighters grouped as the player chooses."""
    t = Table()
    t.run(group_cards(t.state, t.ctx, 1, [HERO, SPEAR, SPEAR, SPEAR, SPEAR]), ["2+2"])
    cards = t.state.cards
    assert [cards[c].fighters for c in t.state.side(1).cards] == [
        ("B1",),
        ("B2.1", "B2.2"),
        ("B3.1", "B3.2"),
    ]
    assert t.find("ArmyMustered")[0].text.startswith("B: B1: Hero, B2: Spearman x2")


def test_the_muster_scenario_starts_with_the_budget() -> None:
    game = Confrontation(load_scenario(MUSTER))
    assert game.rosters is not None and game.budgets == (75, 100, 125)
    assert not game.state.fighters


def test_forces_must_use_one_mode() -> None:
    text = MUSTER.read_text(encoding="utf-8").replace(
        'roster = ["grish", "cutthroat", "slinger"]',
        'cards = [{ id = "B1", profile = "grish" }]',
    )
    with pytest.raises(ScenarioError, match="both sides"):
        Confrontation(parse_scenario(text, "bad.toml"))
