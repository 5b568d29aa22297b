"""Rules of the other systems of the sources (Bazi, date selection) as data."""
