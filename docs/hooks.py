"""MkDocs hooks: the files the site takes from outside docs/.

RULES.md stays at the repository root as the rules contract and is a page of the site as
it is; the files of data/ that it and the pages link to (test vectors, schemas) are
copied beside it. The pages of docs/ link to those files by their paths in the
repository (``../RULES.md``), so that the links work where the pages are read as files;
on the site the links are pointed at the copies (``on_page_markdown``). The service's
OpenAPI document is generated from the application itself, so it cannot drift from it.
The docstrings cite names with Sphinx roles (``:class:`Deal```), which the API reference
shows as the name in code alone.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

#: The files of data/ that the site publishes: the test vectors and the schemas.
DATA = ("deal_vectors.json", "replay_vectors.json", "best_target_vectors.json")
#: Files of the package that the site publishes beside them: (path in the repository, name on the site).
PACKAGE_FILES = (("spider_solver/catalog/schema.sql", "catalog-schema.sql"),
                 ("spider_solver/export.schema.json", "export.schema.json"))

#: Every file the site takes from outside docs/: its path in the repository, and on the site.
PUBLISHED = {"RULES.md": "RULES.md", **{f"data/{name}": f"data/{name}" for name in DATA},
             **dict(PACKAGE_FILES)}
#: A Markdown link's target: the path, and the anchor if any.
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")

#: A Sphinx role before a name in code, as the docstrings render: ``:class:<code>~a.b.C</code>``.
ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):<code>(~?)([^<]*)</code>")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = Path(config.config_file_path).parent
    paths = [root / "RULES.md", *(root / "data" / name for name in DATA)]
    for path in paths:
        files.append(File(path.relative_to(root).as_posix(), src_dir=str(root), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
    for source, name in PACKAGE_FILES:
        files.append(File.generated(config, name, content=(root / source).read_text(encoding="utf-8")))
    from spider_solver.service.app import create_app

    document = json.dumps(create_app().openapi(), indent=2, ensure_ascii=False) + "\n"
    files.append(File.generated(config, "openapi.json", content=document))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Point a link to a file of ``PUBLISHED``, written by its path in the repository, at
    the file's place on the site, relative to the page's."""
    root = Path(config.config_file_path).parent
    source = Path(page.file.abs_src_path or "").parent
    here = posixpath.dirname(page.file.src_uri)

    def on_site(match: re.Match[str]) -> str:
        target = match[1]
        if "://" in target:
            return match[0]
        in_repository = os.path.relpath(os.path.normpath(source / target), root).replace(os.sep, "/")
        if in_repository not in PUBLISHED:
            return match[0]
        return f"]({posixpath.relpath(PUBLISHED[in_repository], here or '.')}{match[2] or ''})"

    return LINK.sub(on_site, markdown)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Drop the role; ``~`` keeps the last part of the name alone, as Sphinx does."""
    return ROLE.sub(lambda match: f"<code>{match[2].rsplit('.', 1)[-1] if match[1] else match[2]}</code>", html)
