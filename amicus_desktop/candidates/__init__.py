"""Candidate generation: the rows a question could be answered by, before re-ranking.

Every function here runs on the database thread (it touches SQLite) and returns plain data.
"""
