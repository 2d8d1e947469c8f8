"""Amicus Desktop: a desktop study companion with retrieval you can see into."""

__version__ = "0.1.0"
