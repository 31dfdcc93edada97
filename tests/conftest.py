"""Test-wide settings: the Hypothesis profiles.

``ci`` (the default, used by ``make test``) is derandomized with a fixed example budget, so
every run takes the same time and checks the same cases; it keeps no example database, so
CI writes nothing into the tree. ``fuzz`` (``make fuzz``) draws fresh random cases with a
budget fifty times larger, and keeps the database so a failure it finds is replayed first
next time. Pick one with ``HYPOTHESIS_PROFILE=fuzz``. Tests that need a different budget
scale the profile's (``tests.hardening.budget.scaled``) rather than fixing a number, so
the fuzz profile lengthens them too.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_IS_FINE = (HealthCheck.too_slow, HealthCheck.data_too_large)

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=10,
    database=None,
    suppress_health_check=_SLOW_IS_FINE,
    print_blob=True,
)
settings.register_profile(
    "fuzz",
    deadline=None,
    max_examples=500,
    suppress_health_check=_SLOW_IS_FINE,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
