"""Data-driven conformance suite for the PartiQL layer (spec partiql-dynamodb.md §9)."""
