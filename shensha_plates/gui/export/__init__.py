"""Export and printing: snapshot pages (PNG, SVG, PDF) rendered from a fixed scene, the headless
``snapshot`` command and the export dialog."""
