"""Gymnasium environments on the engine, in-process (issue 35; docs/interfaces.md,
"Gymnasium environments"). Importing this module registers them:

=========================== ==========================================================
``hopsim/Window-v0``        :class:`WindowEnv` on any scenario (``scenario=`` a path or dict)
``hopsim/WindowChain-v0``   :class:`WindowEnv` on the 7-hop TCP chain, 20 s episodes
``hopsim/WindowChain4-v0``  the same on a 4-hop chain
=========================== ==========================================================

``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")`` gives the
native :class:`VecWindowEnv`; :class:`FlowsParallelEnv` is the PettingZoo parallel
environment (every flow an agent). Needs the ``gym`` extra (``pip install hopsim[gym]``).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ._common import OBS_FIELDS, OBS_INDEX, default_reward, default_rewards
from .env import WindowEnv
from .scenarios import chain_scenario, grid_scenario
from .vector import VecWindowEnv

__all__ = [
    "OBS_FIELDS",
    "OBS_INDEX",
    "FlowsParallelEnv",
    "VecWindowEnv",
    "WindowEnv",
    "chain_scenario",
    "default_reward",
    "default_rewards",
    "grid_scenario",
]

_ENVS: dict[str, dict[str, Any]] = {
    "hopsim/Window-v0": {},
    "hopsim/WindowChain-v0": {"scenario": chain_scenario(7)},
    "hopsim/WindowChain4-v0": {"scenario": chain_scenario(4)},
}

for _id, _kwargs in _ENVS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="hopsim.gym.env:WindowEnv",
            vector_entry_point="hopsim.gym.vector:VecWindowEnv",
            kwargs=_kwargs,
            disable_env_checker=False,
        )


def __getattr__(name: str) -> Any:
    # PettingZoo is imported only when its environment is asked for.
    if name == "FlowsParallelEnv":
        from .parallel import FlowsParallelEnv

        return FlowsParallelEnv
    raise AttributeError(f"module 'hopsim.gym' has no attribute {name!r}")
