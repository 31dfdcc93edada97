"""wargrid installed from its wheel plays from any folder, as after ``pipx install`` (#21).

The wheel is built from a copy of the sources (so the checkout gets no ``build/``), with the
development environment's setuptools and no network. It goes into a fresh virtual
environment that borrows only the third-party packages (textual, msgpack, ...) from this
one through a ``.pth`` line, so nothing is downloaded and every file of wargrid itself,
scenarios included, must come from the wheel. The commands run from an unrelated folder,
with the user's data folder pointed into the test's own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from engine.rulesets import RULESETS

ROOT = Path(__file__).parents[2]
SHIPPED = sorted(p.name for p in (ROOT / "engine" / "scenarios").glob("*.toml"))

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="venv layout of POSIX")


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; its bin folder."""
    tmp = tmp_path_factory.mktemp("install")
    source = tmp / "source"
    for part in ("engine", "tui"):
        shutil.copytree(ROOT / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, source / part)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    env = {**os.environ, "PIP_NO_INPUT": "1"}
    run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", "dist", str(source)], tmp, env)
    (wheel,) = (tmp / "dist").glob("wargrid-*.whl")
    run([sys.executable, "-m", "venv", "--without-pip", "venv"], tmp, env)
    python = tmp / "venv" / "bin" / "python"
    run([*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)], tmp, env)
    fresh = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(fresh, "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return tmp / "venv" / "bin"


@pytest.fixture
def player(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """An unrelated folder to start from, and an environment whose data folder is ours."""
    home = tmp_path / "home"
    folder = tmp_path / "somewhere"
    folder.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARGRID", "XDG_", "PYTHON"))}
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    return folder, env


@pytest.mark.slow
def test_the_installed_tool_plays_from_any_folder(
    installed: Path, player: tuple[Path, dict[str, str]]
) -> None:
    folder, env = player
    wargrid = str(installed / "wargrid")
    listing = run([wargrid, "scenarios"], folder, env)
    listed = sorted(Path(line).name for line in listing.splitlines() if line.endswith(".toml"))
    assert listed == SHIPPED
    assert str(installed.parent) in listing  # found inside the installed package
    out = run(
        [wargrid, "simulate", "killteam-crossroads", "--seed", "7", "--save", "g"], folder, env
    )
    assert out.startswith("Hold the Crossroads, seed 7: ")
    out = run([wargrid, "replay", "g", "--verify"], folder, env)
    assert out.splitlines()[-1].startswith("verified: ")
    version = run([wargrid, "--version"], folder, env)
    assert version.startswith("wargrid 0.1.0\n")
    for ruleset in RULESETS:
        assert f"{ruleset.INFO.name} {ruleset.INFO.version}" in version
    saves = run([str(installed / "python"), "-c", SAVES_FOLDER], folder, env)
    assert saves.strip() == str(Path(env["XDG_DATA_HOME"]) / "wargrid" / "saves")
    assert sorted(p.name for p in folder.iterdir()) == ["g"]  # nothing else left behind


SAVES_FOLDER = "from tui.saves import saves_folder; print(saves_folder())"
