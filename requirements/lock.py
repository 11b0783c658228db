"""Write ``requirements/dev.lock``: the exact versions of everything ``pip install -e '.[dev]'``
installs, resolved afresh from the package index for this Python and platform (``make lock``).

pip resolves the install without performing it (``--dry-run --ignore-installed --report``),
so the versions do not depend on what the running environment already has. The file is a pip
constraints file: ``make`` installs with ``pip install -c requirements/dev.lock -e '.[dev]'``.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "dev.lock"


def resolve(target: str = ".[dev]") -> list[tuple[str, str]]:
    """(name, version) of every distribution that installing ``target`` would bring, sorted."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet"]
            + ["--report", str(report), target],
            cwd=ROOT,
            check=True,
        )
        items = json.loads(report.read_text())["install"]
    pins = {(i["metadata"]["name"], i["metadata"]["version"]) for i in items}
    return sorted(((n, v) for n, v in pins if n.lower() != "pigtheory"), key=lambda p: p[0].lower())


def main() -> int:
    pins = resolve()
    head = [
        "# Exact versions for `pip install -c requirements/dev.lock -e '.[dev]'` (what `make` runs).",
        f"# Resolved for Python {platform.python_version()} on {platform.system()} {platform.machine()}.",
        "# Regenerate with `make lock` (requirements/lock.py) after a change of the dependencies",
        "# in pyproject.toml; other Pythons or platforms may need other versions.",
    ]
    LOCK.write_text("\n".join(head + [f"{n}=={v}" for n, v in pins]) + "\n")
    print(f"{LOCK.relative_to(ROOT)}: {len(pins)} pins")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
