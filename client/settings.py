"""Where the API key and service root come from: the environment, then ``.streamlit/secrets.toml``.

The names are the ``vdr`` CLI's (``VERIFIEDDR_API_KEY``, ``VERIFIEDDR_API_BASE``), so a CLI user needs
no new configuration. The key is a ``SecretStr``: it prints as ``**********`` in logs, reprs and
tracebacks, and is unwrapped only where the Authorization header is built.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

DEFAULT_API_BASE = "https://verifieddr.com"
#: Streamlit's own search order for secrets: the project's file wins over the user's.
SECRETS_FILES = (Path.home() / ".streamlit" / "secrets.toml", Path(".streamlit") / "secrets.toml")


class Settings(BaseSettings):
    """Connection settings; environment variables override the secrets file."""

    model_config = SettingsConfigDict(extra="ignore", toml_file=SECRETS_FILES, populate_by_name=True)

    api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("VERIFIEDDR_API_KEY", "verifieddr_api_key", "api_key")
    )
    api_base: str = Field(
        default=DEFAULT_API_BASE,
        validation_alias=AliasChoices("VERIFIEDDR_API_BASE", "verifieddr_api_base", "api_base"),
    )

    timeout_s: float = Field(
        default=20.0,
        gt=0,
        le=300,
        validation_alias=AliasChoices("VERIFIEDDR_TIMEOUT", "verifieddr_timeout", "timeout_s"),
        description="Seconds to wait for an answer (the vdr CLI's default is 20).",
    )

    @field_validator("api_key", mode="before")
    @classmethod
    def _blank_key_is_none(cls, value: object) -> object:
        if isinstance(value, str | SecretStr):
            text = value.get_secret_value() if isinstance(value, SecretStr) else value
            return text.strip() or None
        return value

    @field_validator("api_base", mode="before")
    @classmethod
    def _clean_base(cls, value: object) -> object:
        """Accept a root given with a trailing slash or with the ``/api/v1`` prefix by mistake."""
        if isinstance(value, str):
            text = value.strip().rstrip("/") or DEFAULT_API_BASE
            return text.removesuffix("/api/v1")
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))


def key_fingerprint(api_key: str | None) -> str:
    """A short, one-way name for a key: safe in cache keys and logs, useless to an attacker."""
    if not api_key:
        return "nokey"
    return hashlib.sha256(b"authority-dashboard:" + api_key.encode()).hexdigest()[:16]
