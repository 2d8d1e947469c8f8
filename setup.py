"""Package layout that pyproject.toml cannot state on its own; everything else is in pyproject.toml.

The top-level ``resources/`` folder (icons, and whatever else the UI ships) is installed as the
package ``amicus_desktop._resources``, so the wheel carries it as package data and
``amicus_desktop.resources.resource_path()`` finds it in a checkout, a wheel and a PyInstaller
bundle alike. Sub-packages are discovered, including folders without ``__init__.py``.
"""

from setuptools import find_namespace_packages, setup

RESOURCES = "amicus_desktop._resources"

setup(
    packages=[
        *find_namespace_packages(include=["amicus_desktop", "amicus_desktop.*"]),
        RESOURCES,
        # its sub-folders too, or setuptools warns that their files look like unlisted packages
        *(f"{RESOURCES}.{name}" for name in find_namespace_packages(where="resources")),
    ],
    package_dir={RESOURCES: "resources"},
)
