"""Vector indexes and SearchVectors (vector-search.md): DynamoDB's 2026 index type.

``definitions`` checks CreateTable's ``VectorIndexes`` and UpdateTable's ``VectorIndexUpdates`` and makes
``schema.VectorIndexSpec`` s; ``values`` holds what a write's vector and SearchSchema values must be and
the 32-bit float arithmetic; ``index`` keeps an index's entries (sparse, by HASH value) beside the table,
told by the one write path (``Table.commit``); ``search`` is the SearchVectors operation; ``messages``
every text, DynamoDB's recorded ones and our (model) ones apart (spec §11 Q6).
"""
