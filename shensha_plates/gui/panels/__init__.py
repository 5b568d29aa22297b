"""The panels and dialogs beside the plate: the details of a branch, the square tables, the other
systems (Bazi, relations, date selection) and the classroom."""
