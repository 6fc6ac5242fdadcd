"""Pure helpers every feature shares: colours, the empty figure, typed frames, text, error wording."""
