"""What also runs without a page: the snapshot and watch jobs (``jobs``), alert rules, their evaluation
and delivery (``alerts``), reports (``reports``), the market figures of a site's keywords read from the
history (``market``), and the command line (``cli``, run as ``python -m store …``).

Below ``components`` and above ``analysis`` (pure figures and words) and ``store`` (persistence); no
Streamlit here.
"""
