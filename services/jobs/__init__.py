"""Jobs that run from the command line or a timer, with nobody having the app open: the daily snapshot
(``snapshot``), watching (``watch``), alerts (``alerts``) and the digest (``digest``), reports
(``report``, ``reports``), the visibility command (``visibility``), and the exit codes they share
(``outcomes``)."""
