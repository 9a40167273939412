"""Accounts, sessions, tokens and campaign memberships: who may read and change which campaign."""
