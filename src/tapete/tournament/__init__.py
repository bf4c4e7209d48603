"""Tournaments: the model (schedule, stacks, entries, payouts), the director that seats,
breaks and balances the tables, deals, and a simulator that plays a whole tournament with bots.

* :mod:`tapete.tournament.model`: :class:`~tapete.tournament.model.Schedule`,
  :class:`~tapete.tournament.model.TournamentRules`;
* :mod:`tapete.tournament.payouts`: the standard table by field size, or custom;
* :mod:`tapete.tournament.deals`: an ICM deal or a chip chop, and a bot's answer;
* :mod:`tapete.tournament.director`: :class:`~tapete.tournament.director.Director`, over
  :class:`~tapete.core.table.Table` objects;
* :mod:`tapete.tournament.sim`: :func:`~tapete.tournament.sim.simulate` (``tapete tournament``);
* :mod:`tapete.tournament.live`: :class:`~tapete.tournament.live.LiveTournament`, the director
  of tables that play at their own pace;
* :mod:`tapete.tournament.coordinator`: the one live coordinator (its stream, replay, restore,
  refund and pay) of the room's tournaments and the practice sit-and-go, over a port to its
  tables.

The rulings are docs/rules.md's "Tournaments".
"""
