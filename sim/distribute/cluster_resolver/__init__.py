"""``tf.distribute.cluster_resolver``: how a program learns the cluster and its own task.

base (``ClusterResolver``, the interface), tfconfig (``TFConfigClusterResolver``, from the
TF_CONFIG environment variable), simple (``SimpleClusterResolver``, from arguments), slurm (``SlurmClusterResolver``, from a
Slurm job step's variables).
"""
from sim.distribute.cluster_resolver.base import ClusterResolver, format_master_url
from sim.distribute.cluster_resolver.simple import SimpleClusterResolver
from sim.distribute.cluster_resolver.slurm import SlurmClusterResolver
from sim.distribute.cluster_resolver.tfconfig import TFConfigClusterResolver

__all__ = ["ClusterResolver", "SimpleClusterResolver", "SlurmClusterResolver", "TFConfigClusterResolver",
           "format_master_url"]
