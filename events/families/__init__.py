"""One module per event family. Importing a family registers its event types; :data:`events.registry.registry`
imports a family when one of its types is first asked for (``registry.names()`` imports them all)."""
