"""The installed version of spider-solver (``0.0.0`` when run from a bare source tree)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("spider-solver")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["__version__"]
