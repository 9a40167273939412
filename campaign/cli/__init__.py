"""The ``campaign`` command."""
