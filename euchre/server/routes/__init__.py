"""The application's routes, one module per concern, each an ``APIRouter`` that
:func:`~euchre.server.app.create_app` includes: :mod:`.pages` (the HTML pages and the health
check), :mod:`.tables` (creating and running tables), :mod:`.records` (records and the list of
games), :mod:`.stats`, and :mod:`.socket` (the table's WebSocket). What they share is in
:mod:`.common`."""
