"""Reports that leave the dashboard: a site's month from the history store, drawn once as HTML and
printed to PDF; their comments, schedules and outbox, share links and spreadsheet feeds.

``content`` gathers a report's facts (no API call), ``charts`` draws them with the History and
Market pages' own figures, ``template`` writes the one HTML, ``render`` turns charts into SVG through
one long-lived Chromium and HTML into PDF, ``branding`` reads ``[report]``; ``tables`` are the rows.
"""
