"""prompt_toolkit's side of completion: ``suggest`` answers, this hands its answers over."""

from __future__ import annotations

from prompt_toolkit.completion import Completer, Completion

from .suggest import suggest


class ShellCompleter(Completer):
    """Completes keywords, tables, indexes, attributes, functions, meta-commands and paths."""

    def __init__(self, catalog):
        self.catalog = catalog

    def get_completions(self, document, complete_event):
        for suggestion in suggest(document.text_before_cursor, self.catalog):
            yield Completion(suggestion.text, start_position=-suggestion.replace,
                             display_meta=suggestion.meta)
