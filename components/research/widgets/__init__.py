"""Streamlit pieces of the research pages: the bulk DR checker's run (``bulk_check``: every domain's
DR through the cached data layer, paced) and its page parts (``bulk``: the list, the cost, the start
button, the results); the Trust Map page's parts (``trust_map``) and the Site check page's
(``site_check``). Nothing is imported here: each page imports the module it uses."""
