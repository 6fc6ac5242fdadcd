"""The coach, pure: the ``vdr`` CLI's advice rules (``rules``), the advice as DataFrames (``frames``)
and as plotly figures (``charts``). The Coach page's tabs are ``components.coach.widgets``."""
