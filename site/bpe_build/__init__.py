"""The site's build, one job a module: paths, util (helpers), installs, fetch, wheels and patches,
lock, bytecode, convert, bundles, assemble, serve, and cli (what `python3 build.py` runs)."""
