"""Tests of the ``amicus-desktop`` command line: each sub-command as another program runs it."""
