"""The Activity page's shaping, pure: the audit log's rows → the table and its filters, in plain words
(``frames``). The page's Streamlit pieces are ``components.activity.widgets``."""
