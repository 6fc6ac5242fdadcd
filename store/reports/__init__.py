"""The reports' records: comments (``comments``), schedules and their sends (``schedules``), share links
(``links``), spreadsheet feeds (``feed_records``), the month a report covers (``period``) and their
tables (``tables``). Building, drawing, printing and mailing reports are services
(``services.reports``)."""
