"""The import-linter layers contract names every top-level module of ``campaign``: a module left out of it is
free to import upward, which is how a layered design quietly stops being one."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _layered() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    (layers,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return {name.strip() for layer in layers["layers"] for name in layer.split(":")}


def _top_level_modules() -> set[str]:
    found = set()
    for path in (ROOT / "campaign").iterdir():
        if path.suffix == ".py" and path.stem != "__init__":
            found.add(f"campaign.{path.stem}")
        elif path.is_dir() and (path / "__init__.py").exists():
            found.add(f"campaign.{path.name}")
    return found


def test_every_module_of_campaign_is_in_a_layer() -> None:
    layered = _layered()
    missing = {m for m in _top_level_modules() if m not in layered and not any(n.startswith(m + ".") for n in layered)}
    assert not missing, f"modules outside the layers contract: {sorted(missing)}"


def test_the_read_side_is_one_package() -> None:
    loose = {p.stem for p in (ROOT / "campaign").glob("*.py")}
    assert not loose & {"views", "verify_views", "log_view", "describe", "charts"}
