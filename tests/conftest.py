"""Shared test setup: pytester for the plugin tests, and the hypothesis profiles.

``ci`` (the default) runs thousands of examples per property; ``long`` is for a soak run:
``python3 -m pytest tests --hypothesis-profile long`` (or HYPOTHESIS_PROFILE=long).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

pytest_plugins = ["pytester"]

settings.register_profile("ci", max_examples=2000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=50000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
