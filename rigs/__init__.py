"""Servers, app processes and sessions that tests and benchmarks start on 127.0.0.1, and the rows they feed.

- ``processes``: the sandbox and the app (``streamlit run``) in processes of their own, on free ports.
- ``deployment``: redis-server, app replicas and nginx as ``deploy/`` runs them.
- ``postgres``: a throw-away PostgreSQL server (initdb + pg_ctl) for the store tests and the benchmarks.
- ``streamlit_session``: a browser's Streamlit session over one WebSocket, without the browser.
- ``chromium``: Debian's headless Chromium, launched one way for every test and benchmark.
- ``page_visits``: every page of the app as a browser opens it.
- ``frame_source``: one account's history rows in memory, read as the History and Market pages read
  the store.

Not product code: the app never imports it (and coverage does not count it).
"""
