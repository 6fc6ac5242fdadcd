"""History: what the store remembers of domains, Trust Maps and tracked keywords, on the page.

``watching`` is the watch button's read and write; ``widgets`` holds the Streamlit pieces (the watch
button, the unavailable notice, the page's tabs). The frames, charts and an alert's evidence are pure,
in ``analysis.figures`` (``history_frames``, ``history_charts``, ``history_evidence``).
"""
