"""The one write path: role, exactly once, the client, the audit row, and the caches dropped after; reads
that spend quota and refused clicks go through it too."""
