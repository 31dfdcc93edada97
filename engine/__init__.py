"""wargrid's rules engine: deterministic, headless, and the single source of rules.

Nothing in this package imports tui, textual or rich, reads the clock, or uses ``random``.
"""
