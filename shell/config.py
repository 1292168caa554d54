"""Settings: the shipped default.conf, merged under the user's file, checked once.

The default file documents every key; ``load`` reads it, then the user's
file (``$XDG_CONFIG_HOME/partiql/config``, or the one ``--config`` names),
and turns the ``[shell]`` section into a ``Settings`` value. Each key has one
parser in ``_SHELL_KEYS``, so adding a setting is one line here and one
commented entry in default.conf.
"""

from __future__ import annotations

import configparser
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

DEFAULT_FILE = Path(__file__).with_name("default.conf")
FORMATS = ("table", "vertical", "json", "jsonl", "csv", "ddb-json")
SCAN_POLICIES = ("allow", "warn", "deny")
KEY_BINDINGS = ("emacs", "vi")
_BOOLEANS = {"on": True, "true": True, "yes": True, "1": True,
             "off": False, "false": False, "no": False, "0": False}


class ConfigError(Exception):
    """A setting with a value the shell cannot use."""


@dataclass(frozen=True)
class Settings:
    """Everything the shell reads from configuration."""

    format: str = "table"
    row_limit: int = 100
    timer: bool = True
    scan: str = "allow"  # this session's scan policy (never saved in the database file)
    key_bindings: str = "emacs"
    pager: str = ""
    colors: dict = field(default_factory=dict)

    def with_value(self, key: str, text: str) -> "Settings":
        """A copy with ``key`` set from its textual form (raises ConfigError)."""
        parse = _SHELL_KEYS.get(key)
        if parse is None:
            raise ConfigError(f"unknown setting {key!r}")
        return replace(self, **{key: parse(key, text.strip())})


def _choice(options: tuple):
    def parse(key: str, text: str) -> str:
        if text.lower() not in options:
            raise ConfigError(f"{key} must be one of {', '.join(options)}, not {text!r}")
        return text.lower()
    return parse


def _bool(key: str, text: str) -> bool:
    try:
        return _BOOLEANS[text.lower()]
    except KeyError:
        raise ConfigError(f"{key} must be on or off, not {text!r}") from None


def _count(key: str, text: str) -> int:
    if not text.isdigit():
        raise ConfigError(f"{key} must be a whole number, not {text!r}")
    return int(text)


def _text(key: str, text: str) -> str:
    return text


_SHELL_KEYS = {
    "format": _choice(FORMATS),
    "row_limit": _count,
    "timer": _bool,
    "scan": _choice(SCAN_POLICIES),
    "key_bindings": _choice(KEY_BINDINGS),
    "pager": _text,
}


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/partiql`` (``~/.config/partiql`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "partiql"


def user_file() -> Path:
    return config_dir() / "config"


def history_file() -> Path:
    return config_dir() / "history"


def load(path: str | os.PathLike | None = None) -> Settings:
    """Settings from default.conf merged under ``path`` (default: the user's file).

    A missing user file is fine; a missing ``--config`` file, a malformed
    file or a bad value raise ConfigError naming the file.
    """
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(DEFAULT_FILE, encoding="utf-8")
    chosen = Path(path) if path is not None else user_file()
    if path is not None and not chosen.exists():
        raise ConfigError(f"{chosen}: no such file")
    try:
        parser.read(chosen, encoding="utf-8")
        return _settings(parser)
    except (configparser.Error, ConfigError) as error:
        raise ConfigError(f"{chosen}: {error}") from None


def _settings(parser: configparser.ConfigParser) -> Settings:
    settings = Settings(colors=dict(parser["colors"]))
    for key, text in parser["shell"].items():
        settings = settings.with_value(key, text)
    return settings
