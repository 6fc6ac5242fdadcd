"""History: what the store remembers of domains, Trust Maps and tracked keywords, as frames and charts.

``frames`` and ``charts`` are pure (no Streamlit); ``source`` is the seam the page reads rows through;
``widgets`` holds the Streamlit pieces (the watch button, the unavailable notice, the page's tabs).
"""
