"""Helpers every feature shares, pure: the role rules (``access_rules``) and the one bounded cache of the
process-wide books and memos (``bounded_cache``). Typed frames, text and error wording are in
``analysis`` (``shaping``, ``text``, ``error_wording``)."""
