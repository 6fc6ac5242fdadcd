"""The market's daily roll-ups: each day's sums of a keyword set kept in the database, so a period's
visibility and share of voice read a few hundred rows a day whatever the number of keywords
(``MarketDays``, ``HistoryStore.market_days``), and the versions of the days' top 10s that tell a roll-up
when its day changed (``bump_days``, called by every write of the top 10s)."""
