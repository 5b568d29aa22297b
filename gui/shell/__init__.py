"""The application shell: the launcher (command line or window), the Qt application, the main window
that holds the model and wires the panels to it, and the saved settings."""
