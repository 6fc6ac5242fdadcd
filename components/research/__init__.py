"""Trust Map, site check, bulk DR, snippets, categories: frames and charts (pure), the bulk run."""
