"""The version of spider-solver: written here once, and read from here by the package's
build (``pyproject.toml``, ``[tool.setuptools.dynamic]``), so that the metadata of an
install and ``__version__`` come from the same line (an editable install's metadata is
rewritten when it is installed again), and knowing it costs no import of
``importlib.metadata`` (0.04 s of every command's start)."""

__version__ = "0.1.0"

__all__ = ["__version__"]
