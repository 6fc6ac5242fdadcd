"""Navigation: the page registry, visits of a page, tabs kept in the URL, inputs shared across pages, and
the browser's Back button. Each workaround of Streamlit 1.67 says in its module which behaviour it works
around."""
