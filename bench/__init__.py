"""Benchmarks of local_broadcast against its peers: ``python -m bench.broadcast_bench --help``."""
