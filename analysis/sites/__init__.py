"""My sites, site details, AI visibility, Search Console and the monitor, pure: API models → DataFrames
(``frames``) → plotly figures (``charts``). The picker and the writes are ``components.sites.widgets``."""
