"""The Qt side of Shensha Plates: it draws and turns the plates and computes no spirit itself.

Importing this package loads no Qt module; :mod:`gui.shell.app` does.
"""
