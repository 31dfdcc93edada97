"""What the Confrontation computer player counts: the fights and shots a side may make
next, priced with the rules' own odds (engine.rulesets.confrontation.evaluation)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from engine.bot.players import make_bot
from engine.game import Game
from engine.position import parse_position
from engine.rulesets.confrontation.evaluation import ConfrontationEvaluation, _loss, fight_worth
from engine.rulesets.confrontation.shooting import success_chance

SCENARIOS = Path(__file__).parents[3] / "scenarios"
EVALUATION = ConfrontationEvaluation()


def table(*fighters: tuple[int, str, int, int]) -> Game:
    """A first-round Activation phase with ``(player, profile, x, y)`` fighters, side 1
    to choose who goes first."""
    text = 'scenario = "confrontation-crossing.toml"\nround = 1\nphase = "Activation"\n'
    text += "[confrontation]\ntactical_winner = 1\n"
    for player, profile, x, y in fighters:
        text += f'[[confrontation.fighters]]\nplayer = {player}\nprofile = "{profile}"\n'
        text += f"cell = [{x}, {y}]\n"
    position = parse_position(text, "p.toml", base=SCENARIOS)
    return Game(position.scenario, 0, position=position)


def threats(game: Game, seat: int) -> int:
    return EVALUATION.threats(game.view(), game.board, seat)


def test_a_crossbowman_counts_the_shot_it_has_in_range_and_sight() -> None:
    """Crossbow 6-12-18 cells, AIM 3: a goblin 10 cells off (gap 9) is at medium range,
    difficulty 7, so 4+ on the open-ended die; STR 5 against RES 2. Half counted (it may
    never be taken); beyond 18 cells nothing."""
    game = table((1, "crossbowman", 3, 3), (2, "cutthroat", 3, 13))
    expected = Fraction(1, 2) * success_chance(7 - 3) * _loss(5, 2, 4, 75)
    assert threats(game, 0) == int(expected) > 0
    far = table((1, "crossbowman", 3, 3), (2, "cutthroat", 3, 30))
    assert threats(far, 0) == 0


def test_a_goblin_in_the_captains_reach_is_a_loss_in_the_making() -> None:
    """The Captain (MOV "10 cm (4 cells)", as the card shows it) may charge a goblin 8
    cells off and win the duel; the goblin would lose it, so it counts nothing for the
    goblins. Out of reach, nothing either way."""
    near = table((1, "aldric", 10, 3), (2, "cutthroat", 10, 12))
    assert threats(near, 0) > 0
    assert threats(near, 1) == 0
    far = table((1, "aldric", 10, 3), (2, "cutthroat", 10, 20))
    assert threats(far, 0) == threats(far, 1) == 0


def test_three_goblins_in_reach_of_a_lone_spearman_gang_up_on_it() -> None:
    """One goblin loses a duel with a spearman; three charging together win the fight."""
    one = table((1, "spearman", 10, 3), (2, "cutthroat", 10, 10))
    three = table(
        (1, "spearman", 10, 3),
        (2, "cutthroat", 9, 10),
        (2, "cutthroat", 10, 10),
        (2, "cutthroat", 11, 10),
    )
    assert threats(one, 1) == 0 < threats(one, 0)
    assert threats(three, 1) > 0


def test_a_fight_counts_what_each_side_may_destroy_in_it() -> None:
    """In contact, a spearman (ATT 3, STR 4) hurts a goblin (DEF 2, RES 2) more than the
    goblin (ATT 3, STR 3) hurts it (DEF 3, RES 3)."""
    game = table((1, "spearman", 10, 10), (2, "cutthroat", 10, 11))
    assert threats(game, 0) > threats(game, 1) > 0


def test_the_shoot_option_shows_the_odds_of_the_best_shot_in_sight() -> None:
    game = table((1, "crossbowman", 3, 3), (2, "cutthroat", 3, 13), (2, "cutthroat", 3, 20))
    game.choose_key("me")
    game.choose_key("common")
    assert game.pending is not None and game.pending.prompt.startswith("What does")
    shoot = game.pending.option("shoot")
    walk = game.pending.option("walk")
    assert shoot is not None and walk is not None and walk.odds is None
    assert shoot.odds is not None and shoot.odds.hit == success_chance(7 - 3)


def test_normal_shoots_with_the_crossbowman_rather_than_charging() -> None:
    """A goblin 6 cells off is in charge reach and in sight: the crossbowman (ATT 2, DEF 2)
    would lose the fight, so it shoots (a charge is what it did before)."""
    for seed in (1, 2, 3):
        game = table((1, "crossbowman", 3, 3), (2, "cutthroat", 3, 9))
        game.choose_key("me")
        bot = make_bot("normal", seed)
        assert bot.decide(game).key == "common"
        game.choose_key("common")
        assert game.pending is not None and game.pending.prompt.startswith("What does")
        assert "shoot" in bot.decide(game).key


def test_two_goblins_ganging_up_on_a_spearman_count_their_fights_worth() -> None:
    """Two goblins in charge reach of a lone spearman: the sum of one blow's odds gave
    their gang-up 7 hundredths of a model; played out over every outcome of the fight
    (melee_value), it keeps the spearman's side 22 worse off than it stands (100 - 2 x
    74 = -48 becomes -70), which is what the goblins' charge now counts."""
    two = table((1, "spearman", 10, 3), (2, "cutthroat", 9, 10), (2, "cutthroat", 10, 10))
    view = two.view()
    spearman = next(m for m in view.models if m.player == 0)
    goblins = [m for m in view.models if m.player == 1]
    worth = fight_worth([spearman, *goblins])
    assert worth is not None and int(worth) == -70
    assert threats(two, 1) == 22
