"""Reports that leave the dashboard: a site's month from the history store, drawn once as HTML and
printed to PDF; their schedules' runs, share links and spreadsheet feeds' files.

``content`` gathers a report's facts (no API call), ``charts`` draws them with the History and
Market pages' own figures, ``document`` writes the one HTML (``report.html.j2``), ``render`` turns
charts into SVG through one long-lived Chromium and HTML into PDF, ``branding`` reads ``[report]``,
``feeds`` writes the spreadsheet feeds' files. What is stored of them lives in ``store.reports``.
"""
