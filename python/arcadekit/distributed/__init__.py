"""arcade's long runs on a Ray cluster (see docs/cluster.md).

- :func:`run_bench`: a benchmark (``mines-bench``, ``tetris-bench``,
  ``tiles-bench``, ``flappy-eval``, ``mines-battle``) split into seed-range
  shards, one Ray task each, merged exactly into the report
  ``arcade ... --json`` prints for the same run; finished shards are stored as
  JSON lines, so an interrupted run resumes.
- :func:`tune`: Tetris weight tuning or Geek board-value tuning (CEM, DE,
  PSO) with each generation's fitness evaluations spread over the cluster,
  checkpointed after every generation in the CLI's checkpoint format.
- :func:`tune_search`: the same fitness under Ray Tune's random search, to
  compare with CEM.
- :func:`connect`: ``ray.init`` with a one-line error for a bad address.

The console command ``arcadekit-cluster`` runs all of these.
"""

from .bench import KINDS, run_bench
from .cluster import ClusterError, connect
from .tuning import tune, tune_search

__all__ = ["KINDS", "ClusterError", "connect", "run_bench", "tune", "tune_search"]
