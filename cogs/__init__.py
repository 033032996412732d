"""Discord glue: one module per feature or game; each parses interactions and calls the table."""
