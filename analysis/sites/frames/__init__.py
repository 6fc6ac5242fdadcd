"""Your sites' answers → DataFrames: sites and monitor, AI visibility and Search Console, the export."""
