"""MkDocs hook: the playground's runtime (placeholder)."""
