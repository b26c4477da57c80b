"""MkDocs hooks: the files the site takes from outside docs/.

RULES.md stays at the repository root as the rules contract and is a page of the site as
it is; the files of data/ that it and the pages link to (test vectors, schemas) are
copied beside it, so those links work on the site as in the repository. The service's
OpenAPI document is generated from the application itself, so it cannot drift from it.
"""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

#: The files of data/ that the site publishes: the test vectors and the schemas.
DATA = ("deal_vectors.json", "replay_vectors.json", "best_target_vectors.json", "export.schema.json",
        "catalog-schema.sql")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = Path(config.config_file_path).parent
    paths = [root / "RULES.md", *(root / "data" / name for name in DATA)]
    for path in paths:
        files.append(File(path.relative_to(root).as_posix(), src_dir=str(root), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
    from spider_solver.service.app import create_app

    document = json.dumps(create_app().openapi(), indent=2, ensure_ascii=False) + "\n"
    files.append(File.generated(config, "openapi.json", content=document))
    return files
