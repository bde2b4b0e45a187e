"""A package launched with `python -m app.train`."""
