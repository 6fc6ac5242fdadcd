"""Keyword research, suggestions and tracked keywords: frames and charts (pure), the own-site picker."""
