"""The game server: storage of every game and action, and the game service on top of it.

Thin layers over the pure engine: :mod:`.store` keeps games, deals and moves in a database
(SQLite by default, PostgreSQL by URL) with schema migrations; :mod:`.service` applies actions
through the engine, plays the AI seats through their views, deals with committed seeds and
gives each seat only its own view.
"""
