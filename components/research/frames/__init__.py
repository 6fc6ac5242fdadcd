"""Research shaping, one pure module per page: Trust Map, site check, bulk DR, snippets, categories."""
