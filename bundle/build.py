"""Build the standalone bundle (no Python needed where it runs)::

    pip install -e ".[bundle]"      # PyInstaller
    python bundle/build.py          # -> build/bundle/dist/shensha-plates/shensha-plates

A folder (not one file: a one-file bundle unpacks itself at every start, which costs start-up time),
made by PyInstaller from bundle/shensha-plates.spec; its work files go to build/bundle/work. Both are
git-ignored and never committed. Prints the executable's path.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "bundle"
EXECUTABLE = OUT / "dist" / "shensha-plates" / ("shensha-plates.exe" if sys.platform == "win32" else "shensha-plates")


def main() -> int:
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        sys.stderr.write("bundle/build.py: error: PyInstaller is not installed (pip install -e \".[bundle]\")\n")
        return 2
    proc = subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                           "--distpath", str(OUT / "dist"), "--workpath", str(OUT / "work"),
                           str(ROOT / "bundle" / "shensha-plates.spec")], cwd=ROOT)
    if proc.returncode != 0 or not EXECUTABLE.is_file():
        sys.stderr.write("bundle/build.py: error: PyInstaller failed (its messages are above)\n")
        return proc.returncode or 1
    print(EXECUTABLE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
