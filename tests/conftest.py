"""Test set-up shared by every test: headless Qt, isolated settings, no stray files."""

from __future__ import annotations

import os
from pathlib import Path

# Must happen before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_QUICK_BACKEND", "software")

import pytest
from hypothesis import HealthCheck, settings

# Property tests: the same examples on every run (CI must not turn red by chance), no example
# database written into the checkout, no per-example deadline on a slow machine; the autouse
# fixture below is harmless to share between examples.
settings.register_profile(
    "repo", derandomize=True, database=None, deadline=None, max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# A longer hunt, run by hand: HYPOTHESIS_PROFILE=deep pytest tests/core/test_fuzz.py ...
settings.register_profile("deep", parent=settings.get_profile("repo"), derandomize=False, max_examples=3000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repo"))

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"
# The seed texts are beside a developer's checkout, not in the repository: a clone with nothing beside it
# skips what reads them (with this reason) and runs everything else.
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds (../shared/seeds) are not beside this checkout")


def seed_text(name: str) -> str:
    """The text of one seed file (call it only in a test marked ``needs_seeds``)."""
    return (SEEDS / name).read_text(encoding="utf-8")
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the developer's own settings and files out of every test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("SHENSHA_PLATES_CONFIG_DIR", str(home / "shensha-config"))
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(home / "shensha-cache"))
