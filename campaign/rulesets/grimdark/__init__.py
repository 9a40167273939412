"""Seed 004 (RULES.md §4): One Page Rules Grimdark Future v3.5.1 morale, and its campaign (XP, casualties, traits)."""
