"""My sites, site details, AI visibility, Search Console, monitor: frames, charts, picker and writes."""
