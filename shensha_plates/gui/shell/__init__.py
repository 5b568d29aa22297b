"""The application shell: the launcher (command line or window), the Qt application, the main window
that holds the model, declares the actions and wires the panels to them, presentation mode (which
rearranges the window) and the saved settings. Nothing outside this package imports it."""
