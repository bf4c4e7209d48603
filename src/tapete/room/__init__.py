"""The poker room: tables as actors, each with its append-only event log.

- :mod:`tapete.room.log`: :class:`~tapete.room.log.TableConfig` (a table's settings, lossless
  JSON) and :class:`~tapete.room.log.EventLog` (every table's records, SQLAlchemy Core).
- :mod:`tapete.room.table`: :class:`~tapete.room.table.RoomTable`, the one owner of a table's
  state, and :func:`~tapete.room.table.restore`, which rebuilds it from the log alone.
- :mod:`tapete.room.clock`: the injectable clock the timers read.
- :mod:`tapete.room.money`: the bankroll a table takes buy-ins from and pays cash-outs to.
- :mod:`tapete.room.ports`: what the room needs of the world around a process (who owns a
  table, what the other nodes are told, the bankroll), one process and several nodes being
  two implementations of them, chosen where the app is built.
- :mod:`tapete.room.hands`: a table's finished hands from its records, and its hand histories
  (PHH, PokerStars text) as one player keeps them.
- :mod:`tapete.room.ledger`: a table's ledger (buy-ins, rebuys, cash-outs, the house) and who
  pays whom to settle it.
"""
