"""Research shaping, one pure module per page: Trust Map, site check, snippets, categories (the bulk DR
checker's is ``components.research.frames.bulk``)."""
