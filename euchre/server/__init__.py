"""Play in the browser and online: ``euchre serve`` (see ``docs/server.md``).

:mod:`~euchre.server.db` is the database, :mod:`~euchre.server.core` the live tables (commit,
then tell), :mod:`~euchre.server.app` the web layer, :mod:`~euchre.server.run` the command.
"""
