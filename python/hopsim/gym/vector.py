"""``VecWindowEnv``: ``num_envs`` window environments stepped on native threads in one
process (Gymnasium's vector API; issue 35).

The engines run in the core with the GIL released, ``workers`` threads at once (the calling
thread included), each owning a fixed share of the environments; a step moves only actions
and observations. Environments are independent, so the results do not depend on
``workers``. Autoreset is Gymnasium's ``NEXT_STEP`` mode: the step after an environment's
episode ends starts its next episode (its action ignored, reward 0).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import _core
from .._core import ScenarioError
from ..api import ScenarioLike
from ..scenario import Overrides
from ._common import (
    OBS_FIELDS,
    ROW,
    Episodes,
    Reward,
    RewardFn,
    Settings,
    check_flow,
    episode_seed,
)
from .env import action_space, observation_space

__all__ = ["VecWindowEnv"]

_N = len(OBS_FIELDS)


class VecWindowEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` copies of :class:`~hopsim.gym.WindowEnv` (same keywords), each with its
    own seed, stepped by ``workers`` threads (default: the machine's cores, at most
    ``num_envs``). ``reset(seed=s)`` gives environment ``i`` the seed ``s + i``."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        scenario: ScenarioLike,
        num_envs: int = 2,
        *,
        workers: int | None = None,
        flow: int = 0,
        overrides: Overrides | None = None,
        action: str = "window_limit",
        step: str = "fixed",
        step_s: float = 0.01,
        action_low: float = 1.0,
        action_high: float = 64.0,
        warmup_s: float = 0.0,
        reward_fn: RewardFn | None = None,
        delay_weight: float = 0.1,
        loss_weight: float = 0.05,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ScenarioError(
                f"num_envs = {num_envs!r}: a whole number of environments, 1 or more"
            )
        if workers is None:
            workers = min(num_envs, os.cpu_count() or 1)
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ScenarioError(f"workers = {workers!r}: a whole number of threads, 1 or more")
        self._episodes = Episodes(scenario, overrides)
        self.flow = check_flow(flow, self._episodes.n_flows)
        self._settings = Settings(action, step, step_s, action_low, action_high, warmup_s)
        self.num_envs = num_envs
        self.workers = min(workers, num_envs)
        self._reward = Reward(reward_fn, delay_weight, loss_weight)
        self.single_observation_space = observation_space()
        self.single_action_space = action_space(self._settings.low, self._settings.high)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._core: _core.VecWindowEnvCore | None = None
        self._done = np.zeros(num_envs, dtype=bool)
        self._seeds = [0] * num_envs

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Every environment starts a new episode: seeds ``seed + i`` (or the list given, or
        drawn from the generator); ``options={"overrides": {...}}`` for all of them."""
        first = seed[0] if isinstance(seed, list) and seed else seed
        super().reset(seed=first if isinstance(first, int) else None)
        if isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise ScenarioError(f"seed: {len(seed)} seeds for {self.num_envs} environments")
            seeds = list(seed)
        elif seed is not None:
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = [episode_seed(self.np_random) for _ in range(self.num_envs)]
        docs = [self._episodes.document(s, options) for s in seeds]
        self._core = _core.VecWindowEnvCore(
            docs, self.workers, self.flow, *self._settings.core_args()
        )
        self._seeds = seeds
        self._done[:] = False
        rows = np.frombuffer(self._core.first_rows()).reshape(self.num_envs, ROW)
        return rows[:, :_N].astype(np.float32), {
            "time_s": rows[:, _N + 2].copy(),
            "seed": np.array(seeds),
        }

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._core is None:
            raise ScenarioError("call reset() before step()")
        values = np.asarray(actions, dtype=np.float64).reshape(self.num_envs, -1)[:, 0].copy()
        if np.isnan(values).any():
            raise ScenarioError("actions: NaN is not a number of segments")
        # NEXT_STEP autoreset: environments whose episode ended start the next one, and are
        # held (NaN) in this step so that it returns their first observation.
        restarted = np.flatnonzero(self._done)
        for i in restarted:
            self._seeds[i] = episode_seed(self.np_random)
            self._core.reset_one(int(i), self._episodes.document(self._seeds[i]))
            values[i] = np.nan
        rows = np.frombuffer(self._core.step(values.tolist())).reshape(self.num_envs, ROW)
        obs = rows[:, :_N]
        terminated, truncated = rows[:, _N] == 1.0, rows[:, _N + 1] == 1.0
        info: dict[str, Any] = {"time_s": rows[:, _N + 2].copy()}
        rewards = self._reward.rows(obs, rows[:, _N + 2])
        rewards[restarted] = 0.0
        terminated[restarted] = False
        truncated[restarted] = False
        self._done = terminated | truncated
        return obs.astype(np.float32), rewards, terminated, truncated, info
