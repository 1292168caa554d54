"""Settings: the shipped defaults, the user's file merged over them, --config, bad values."""

from __future__ import annotations

import configparser

import pytest

from partiql.shell import config
from partiql.shell.config import ConfigError, Settings, load


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_come_from_the_shipped_file():
    settings = load()
    assert (settings.format, settings.row_limit, settings.timer, settings.scan, settings.key_bindings) == (
        "table", 100, True, "allow", "emacs")  # a session's scan policy, never the file's
    assert settings.colors["scan"] == "ansired bold"


def test_every_shipped_key_is_documented_by_a_comment_and_every_setting_is_shipped():
    lines = config.DEFAULT_FILE.read_text(encoding="utf-8").splitlines()
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(config.DEFAULT_FILE)
    for key in parser["shell"]:
        line = next(n for n, text in enumerate(lines) if text.startswith(f"{key} ="))
        assert lines[line - 1].startswith("#"), key
    fields = set(Settings.__dataclass_fields__) - {"colors"}
    commented = {text[2:].split(" =")[0] for text in lines if text.startswith("# ") and " = " in text}
    # Every setting is shipped, set or (scan: the database's own policy by default) commented out.
    assert fields == set(parser["shell"]) | (commented & fields)
    assert "scan" in commented


def test_the_user_file_is_merged_over_the_defaults(private_config):
    write(private_config / "partiql" / "config", "[shell]\nformat = json\ntimer = off\n[colors]\nscan = ansiyellow\n")
    settings = load()
    assert (settings.format, settings.timer, settings.row_limit) == ("json", False, 100)
    assert settings.colors["scan"] == "ansiyellow" and settings.colors["error"] == "ansired bold"


def test_config_option_replaces_the_user_file(private_config, tmp_path):
    write(private_config / "partiql" / "config", "[shell]\nformat = json\n")
    chosen = write(tmp_path / "other.conf", "[shell]\nkey_bindings = vi\n")
    settings = load(chosen)
    assert (settings.format, settings.key_bindings) == ("table", "vi")


@pytest.mark.parametrize("text, message", [
    ("[shell]\nformat = yaml\n", "format must be one of table, vertical, json, jsonl, csv, ddb-json, not 'yaml'"),
    ("[shell]\nrow_limit = lots\n", "row_limit must be a whole number, not 'lots'"),
    ("[shell]\ntimer = maybe\n", "timer must be on or off, not 'maybe'"),
    ("[shell]\ncolour = red\n", "unknown setting 'colour'"),
    ("format = json\n", "File contains no section headers"),
])
def test_bad_files_name_the_file_and_the_problem(tmp_path, text, message):
    path = write(tmp_path / "bad.conf", text)
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)


def test_a_missing_config_file_is_an_error_but_a_missing_user_file_is_not(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load(tmp_path / "absent.conf")
    assert load().format == "table"


def test_paths_follow_xdg(private_config):
    assert config.user_file() == private_config / "partiql" / "config"
    assert config.history_file() == private_config / "partiql" / "history"


def test_with_value_parses_text():
    assert Settings().with_value("timer", "OFF").timer is False
    assert Settings().with_value("scan", "deny").scan == "deny"
