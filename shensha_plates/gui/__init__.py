"""The Qt side of Shensha Plates: it draws and turns the plates and computes no spirit itself.

In layers, each importing only those below it (import-linter contracts in pyproject.toml)::

    shell/             the application: launcher, start-up, main window, presentation mode, settings
    panels/ | export/  beside the plate: details, tables, other systems, classroom | snapshots, printing
    plate/             the drawing: one item per ring, the scene that stacks them, the view that turns them
    model, describe, fonts, style   the state the widgets follow; texts about spirits; type; colours
    i18n               the interface strings

Importing this package loads no Qt module; :mod:`shensha_plates.gui.shell.app` does.
"""
