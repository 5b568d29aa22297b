"""Entry point of ``shensha-plates``: text commands go to :mod:`core.cli`, no command opens the window.

Qt is imported only for the commands that need it, so ``show`` runs where no Qt can load.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("gui", "--lang") or args[0].startswith("--state"):
        from gui.shell.app import run_app
        return run_app(args[1:] if args and args[0] == "gui" else args)
    if args[0] == "snapshot":
        from gui.export.cli import main as snapshot_main
        return snapshot_main(args[1:])
    if args[0] == "booklet":
        from gui.export.cli import booklet_main
        return booklet_main(args[1:])
    from core.cli import main as cli_main
    return cli_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
