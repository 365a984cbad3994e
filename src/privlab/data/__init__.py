"""Package data: the project's own small taxonomies (``taxonomy_*.json``)."""
