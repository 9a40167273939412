"""Seed 001 (RULES.md §1): disorder markers, morale checks, rallies, retreats, force morale and officer Glory."""
