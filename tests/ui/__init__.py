"""Tests of the desktop app (amicus_desktop.ui), its settings, connectivity and logging."""
