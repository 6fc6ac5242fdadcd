"""Who is using the app and what they may change: sign-in, the current person and role, and where a person
lands after signing in."""
