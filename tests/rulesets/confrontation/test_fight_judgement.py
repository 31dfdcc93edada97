"""The fight choices the normal Confrontation player takes by the fight's worth over every
outcome (engine.rulesets.confrontation.melee_value, judgement): how the Tactical winner
splits a melee, a hero's extra dice, the split of combat dice."""

from __future__ import annotations

from engine.bot.players import make_bot
from engine.game import Game
from engine.position import parse_position
from engine.rulesets.confrontation.evaluation import _loss
from engine.rulesets.confrontation.melee_value import (
    Fighter,
    allocations,
    defended,
    fight_value,
    material,
)
from tests.rulesets.confrontation.test_evaluation import EVALUATION, SCENARIOS, table

SPEARMAN = Fighter(0, 3, 3, 4, 3, 100)
"""ATT 3, DEF 3, STR 4, RES 3, 12 AP."""
CUTTHROAT = Fighter(1, 3, 2, 3, 2, 75)
"""ATT 3, DEF 2, STR 3, RES 2, 9 AP."""


def combat(tactical_winner: int, *fighters: tuple[int, str, int, int], seed: int = 0) -> Game:
    """A first-round Combat phase with ``(player, profile, x, y)`` fighters."""
    text = 'scenario = "confrontation-crossing.toml"\nround = 1\nphase = "Combat"\n'
    text += f"[confrontation]\ntactical_winner = {tactical_winner}\n"
    for player, profile, x, y in fighters:
        text += f'[[confrontation.fighters]]\nplayer = {player}\nprofile = "{profile}"\n'
        text += f"cell = [{x}, {y}]\n"
    position = parse_position(text, "p.toml", base=SCENARIOS)
    return Game(position.scenario, seed, position=position)


def test_one_undefended_attack_is_worth_its_odds_of_the_wound_table() -> None:
    """One attack die against no defence: it lands unless a natural 1 (5 in 6), then
    takes what the wound table takes on average (`_loss`, STR 4 against RES 2)."""
    value = fight_value((SPEARMAN, CUTTHROAT), ((1, 0, 4), (0, 0, 4)), 0)
    expected = material(100, 4) - material(75, 4) + _loss(4, 2, 4, 75) * 5 / 6
    assert abs(value - expected) < 1


def test_a_spearman_strikes_back_rather_than_only_parrying() -> None:
    """A spearman that lost the Initiative to a goblin splits first: all its dice to
    defence leaves the goblin two attacks and itself none; the worth of the fight says
    attack with both (the goblin's best answer then is to attack too)."""
    splits = {
        attack: allocations((SPEARMAN, CUTTHROAT), (2, 2), (4, 4), 1, {0: attack})[1]
        for attack in range(3)
    }
    assert max(splits, key=lambda attack: splits[attack]) == 2
    assert splits[2] > splits[1] > splits[0]


# Round 1 of seed 5005 (normal as the Lantern against easy): the Captain and three
# spearmen charged Grish, goblins charged the spearmen.
MELEE = (
    (1, "aldric", 5, 16),
    (1, "spearman", 6, 17),
    (1, "spearman", 5, 18),
    (1, "spearman", 4, 17),
    (2, "grish", 5, 17),
    (2, "cutthroat", 4, 18),
    (2, "cutthroat", 6, 18),
    (2, "slinger", 4, 16),
    (2, "slinger", 7, 17),
)


def test_the_tactical_winner_splits_a_melee_so_grish_is_ganged_up_on() -> None:
    """The auto-split (the first option, which the quick worth and easy keep) has Grish
    fight one spearman alone; normal splits so that the Captain and a spearman fight him
    together."""
    game = combat(1, *MELEE)
    decision = game.pending
    assert decision is not None and decision.prompt == "Split this melee into fights"
    labels = {option.key: option.label for option in decision.options}
    assert "Lantern Spearman A4 vs Grish the Sly B1" in labels["0"].split(" | ")
    assert make_bot("easy", 1).decide(game).key == "0"
    split = labels[make_bot("normal", 1).decide(game).key].split(" | ")
    grish = next(fight for fight in split if "Grish" in fight)
    assert grish.startswith("Grish the Sly B1 vs ") and grish.count(" + ") >= 1
    assert "Captain Aldric Vane A1" in grish


def test_a_spearman_that_lost_the_initiative_splits_its_dice_to_attack() -> None:
    """In a duel the Initiative loser splits first; normal puts both dice to attack on
    every seed (the look-ahead put both to defence on some futures of the dice: seeds 6,
    28, 32 of these)."""
    asked = []
    for seed in range(40):
        game = combat(1, (1, "spearman", 10, 10), (2, "cutthroat", 10, 11), seed=seed)
        decision = game.pending
        assert decision is not None
        if decision.prompt.startswith("Lantern Spearman A1: split 2 combat dice"):
            asked.append(seed)
            assert make_bot("normal", seed).decide(game).key == "2"
    assert {6, 28, 32} <= set(asked)


def test_nothing_is_needless_where_an_action_may_still_do_nothing() -> None:
    """A free fighter's common actions offer "Nothing" and a walk may stay put: normal
    never declares or does "Nothing" where those are offered (weighed by a look-ahead
    that walked on by the quick worth, "Nothing" won and crossbowmen never shot, as on
    round 1 of seed 5003). In contact, "Nothing" stays a choice."""
    game = table((1, "crossbowman", 3, 9), (2, "cutthroat", 3, 20))
    game.choose_key("me")
    declare = game.pending
    assert declare is not None and declare.prompt.startswith("Declare the action")
    assert "nothing" in EVALUATION.needless(declare, game.view())
    game.choose_key("common")
    do = game.pending
    assert do is not None and {"walk", "nothing"} <= {o.key for o in do.options}
    assert EVALUATION.needless(do, game.view()) == frozenset({"nothing"})
    assert make_bot("normal", 1).decide(game).key != "nothing"
    held = table((1, "spearman", 10, 10), (2, "cutthroat", 10, 11), (2, "cutthroat", 11, 10))
    held.choose_key("me")
    fought = held.pending
    assert fought is not None and fought.prompt.startswith("Declare the action")
    assert "nothing" in {o.key for o in fought.options}
    assert EVALUATION.needless(fought, held.view()) == frozenset()


CAPTAIN = Fighter(0, 5, 4, 5, 5, 250, hero=True)
"""Captain Aldric Vane: ATT 5, DEF 4, STR 5, RES 5, 30 AP, a hero."""


def test_a_heros_master_strike_is_weighed() -> None:
    """The Captain strikes first with two attack dice at a goblin that puts both of its
    dice to attack: one master strike at STR 10 (5 + ATT 5) is likelier to kill it
    before it strikes back than one attack at STR 5; a fighter that is no hero has only
    the attack."""
    dice = ((2, 0, 4), (2, 0, 4))
    plain = fight_value((CAPTAIN._replace(hero=False), CUTTHROAT), dice, 0)
    assert fight_value((CAPTAIN, CUTTHROAT), dice, 0) > plain


def test_a_third_goblin_on_a_spearman_counts_against_it() -> None:
    """Beyond two leaves a fight is not played out over every outcome (too many), but
    each further goblin still strikes: the spearman's fight is worth less to it."""
    two = allocations((SPEARMAN, CUTTHROAT, CUTTHROAT), (3, 2, 2), (4, 4, 4), 1, {})[1]
    three = (SPEARMAN, CUTTHROAT, CUTTHROAT, CUTTHROAT)
    worth = allocations(three, (4, 2, 2, 2), (4, 4, 4, 4), 1, {})[1]
    assert worth < two - material(75, 4)


def test_a_spearman_keeps_a_defence_die_for_the_second_attack() -> None:
    """Both of the spearman's dice in defence, both of the goblin's in attack: against
    the first attack normal commits one die and keeps one for the second (it committed
    both and met the second attack undefended); against the last attack, all it has."""
    game = combat(1, (1, "spearman", 10, 10), (2, "cutthroat", 10, 11), seed=6)
    for prompt, key in (("Lantern Spearman A1: split", "0"), ("Bogfen Cutthroat B1: split", "2")):
        assert game.pending is not None and game.pending.prompt.startswith(prompt)
        game.choose_key(key)
    decision = game.pending
    assert decision is not None and decision.prompt == (
        "Bogfen Cutthroat B1 makes an attack on Lantern Spearman A1 (ATT 3): "
        "commit how many of 2 defence dice (DEF 3)?"
    )
    assert make_bot("normal", 6).decide(game).key == "1"
    assert defended(3, 3, (3, 3), 3, 100, 4, 2, 0) == 2
    assert defended(3, 3, (3, 3), 3, 100, 4, 2, 1) == 1


def test_a_crossbowman_with_a_shot_does_not_charge() -> None:
    """A crossbowman (ATT 2) with a goblin at medium range (a hit one time in two)
    shoots: its charges are needless (crossbowmen charged goblins and were ganged up on,
    seed 5015; here the look-ahead charged on seed 8). Grish, a hero with knives, may
    still charge."""
    game = table((1, "crossbowman", 3, 9), (2, "cutthroat", 3, 16))
    game.choose_key("me")
    declare = game.pending
    assert declare is not None and "charge:B1" in {o.key for o in declare.options}
    assert {"charge:B1", "nothing"} <= EVALUATION.needless(declare, game.view())
    assert {make_bot("normal", seed).decide(game).key for seed in (1, 8)} == {"common"}
    hero = table((2, "grish", 3, 16), (1, "crossbowman", 3, 9))
    hero.choose_key("them")
    grish = hero.pending
    assert grish is not None and grish.prompt.startswith("Declare the action of Grish")
    assert not any(k.startswith("charge") for k in EVALUATION.needless(grish, hero.view()))
