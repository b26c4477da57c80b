"""The endpoints, one router a resource: health, deals (layout, verify), games (replay,
analyze) and the catalog (pages, random)."""
