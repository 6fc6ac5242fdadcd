"""Growth (discovery and link exchanges), pure: API models → DataFrames (``frames``) → plotly figures
(``charts``). The pages' Streamlit pieces and the exchange writes are ``components.growth.widgets``."""
