"""What every page draws the same way: tables with their CSV, the error panel, the sidebar's connection
settings, demo inputs."""
