"""``python -m shensha_plates``: the same command line as ``shensha-plates``."""

from __future__ import annotations

from shensha_plates.gui.shell.launcher import main

if __name__ == "__main__":
    raise SystemExit(main())
