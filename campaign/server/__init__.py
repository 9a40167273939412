"""The shared table: an ASGI application (FastAPI) over one database, for a group of accounts with roles."""
