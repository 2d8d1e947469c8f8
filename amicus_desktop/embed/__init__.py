"""The embed proxy client (no Qt)."""

from .client import EmbedClient, Embedding, check_against_db

__all__ = ["EmbedClient", "Embedding", "check_against_db"]
