"""``FlowsParallelEnv``: every TCP flow of a scenario is an agent setting its own window
(a PettingZoo parallel environment; issue 35). Agents are named ``flow_<index>``; each sees
its flow's observation (``OBS_FIELDS``) and earns its flow's reward. All flows step together
(one simulated step per ``step()``); the episode ends for all at ``duration_s``, and a flow
whose fixed-size transfer completes is terminated and leaves the agents.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from .. import _core
from .._core import ScenarioError
from ..api import ScenarioLike
from ..scenario import Overrides
from ._common import OBS_FIELDS, ROW, Episodes, Reward, RewardFn, Settings, episode_seed
from .env import action_space, observation_space

__all__ = ["FlowsParallelEnv"]

_N = len(OBS_FIELDS)


class FlowsParallelEnv(ParallelEnv[str, np.ndarray, np.ndarray]):
    """The TCP flows of ``scenario`` (all of them, or those of ``flows``) as agents; the other
    keywords as :class:`~hopsim.gym.WindowEnv`'s."""

    metadata: dict[str, Any] = {"name": "hopsim_flows_v0", "render_modes": []}

    def __init__(
        self,
        scenario: ScenarioLike,
        *,
        flows: list[int] | None = None,
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
        self._episodes = Episodes(scenario, overrides)
        doc = self._episodes.document(0)
        import json

        every = [
            i
            for i, f in enumerate(json.loads(doc).get("flows", []))
            if f.get("transport", "tcp") == "tcp"
        ]
        chosen = every if flows is None else list(flows)
        bad = [f for f in chosen if f not in every]
        if bad or not chosen or len(set(chosen)) != len(chosen):
            raise ScenarioError(
                f"flows = {flows!r}: distinct TCP flow indices of the scenario ({every})"
            )
        self._flows = chosen
        self._settings = Settings(action, step, step_s, action_low, action_high, warmup_s)
        self._core = _core.WindowEnvCore(chosen, *self._settings.core_args())
        self._reward = Reward(reward_fn, delay_weight, loss_weight)
        self.possible_agents = [f"flow_{i}" for i in chosen]
        self.agents: list[str] = []
        self._live: dict[str, bool] = {}
        self._rng = np.random.default_rng()

    @functools.cache  # noqa: B019 - one space per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Box:
        return observation_space()

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Box:
        return action_space(self._settings.low, self._settings.high)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        run_seed = seed if seed is not None else episode_seed(self._rng)
        rows = np.frombuffer(self._core.reset(self._episodes.document(run_seed, options)))
        rows = rows.reshape(len(self._flows), ROW)
        self.agents = list(self.possible_agents)
        self._live = {a: True for a in self.agents}
        obs = {a: rows[k, :_N].astype(np.float32) for k, a in enumerate(self.possible_agents)}
        infos = {
            a: {"time_s": float(rows[k, _N + 2]), "seed": run_seed}
            for k, a in enumerate(self.possible_agents)
        }
        return obs, infos

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, np.ndarray],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise ScenarioError("the episode is over: call reset()")
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ScenarioError(f"actions for {sorted(unknown)}: the agents now are {self.agents}")
        values = []
        for agent in self.possible_agents:
            if agent in actions:
                values.append(float(np.asarray(actions[agent], dtype=np.float64).reshape(-1)[0]))
            else:  # a finished agent has no say (its limit lifted to the range's top)
                values.append(self._settings.high if not self._live.get(agent) else float("nan"))
        if any(np.isnan(v) for v in values):
            missing = [a for a, v in zip(self.possible_agents, values, strict=True) if np.isnan(v)]
            raise ScenarioError(f"no action for {missing}: every agent acts each step")
        rows = np.frombuffer(self._core.step_flows(values)).reshape(len(self._flows), ROW)
        obs, rewards, terms, truncs, infos = {}, {}, {}, {}, {}
        for k, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            o = rows[k, :_N]
            info = {"time_s": float(rows[k, _N + 2])}
            obs[agent] = o.astype(np.float32)
            rewards[agent] = self._reward.one(o, info)
            terms[agent], truncs[agent] = bool(rows[k, _N]), bool(rows[k, _N + 1])
            infos[agent] = info
        self.agents = [a for a in self.agents if not (terms[a] or truncs[a])]
        for a in terms:
            self._live[a] = a in self.agents
        return obs, rewards, terms, truncs, infos
