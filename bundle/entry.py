"""The bundle's entry point: the same as ``shensha-plates`` (see bundle/build.py)."""

from shensha_plates.gui.shell.launcher import main

raise SystemExit(main())
