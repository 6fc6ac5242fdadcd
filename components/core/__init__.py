"""Shared Streamlit infrastructure, one sub-package per job: ``cache`` (the one read path: in-process
cache -> Redis -> client, and which service and key a session uses), ``auth`` (the person, roles,
sign-in), ``nav`` (the page registry, visits, tabs, shared inputs, and the Streamlit workarounds),
``writes`` (the one write path: role -> exactly once -> client -> audit -> invalidation), ``history``
(the app's side of the history store and of alerts) and ``ui`` (tables with CSV, the error panel, the
sidebar, demo inputs)."""
