"""The conformance run. pytest collects this module through conformance/plugin.py, which replaces it with
one test per check of every case in cases/*.yaml: `pytest conformance --help` lists the options."""
