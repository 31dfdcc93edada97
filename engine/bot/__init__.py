"""Computer players: the seeded random bot, and the easy and normal opponents.

Light on purpose: ``engine.ruleset`` imports `engine.bot.evaluation`, so this package
imports nothing that imports the game (the players live in `engine.bot.players`).
"""

from engine.bot.random_bot import RandomBot

__all__ = ["RandomBot"]
