"""``WindowEnv``: one TCP flow's window set by an agent, step by step (issue 35).

    import gymnasium, hopsim.gym
    env = gymnasium.make("hopsim/WindowChain-v0")          # or hopsim.gym.WindowEnv("x.toml")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

Each step applies the action (the flow's window limit, or its congestion window, in
segments), runs the engine in-process for ``step_s`` simulated seconds (or one smoothed RTT
with ``step="rtt"``) and observes the flow over the step (``OBS_FIELDS``). An episode is the
scenario's ``duration_s``: ``truncated`` when it is reached, ``terminated`` when a transfer of
a fixed size is complete. ``reset(seed=s)`` runs the scenario with seed ``s``: the same seed,
the same episode, bit for bit.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .. import _core
from .._core import ScenarioError
from ..api import ScenarioLike
from ..result import Result
from ..scenario import Overrides
from ._common import (
    OBS_FIELDS,
    Episodes,
    Reward,
    RewardFn,
    Settings,
    check_flow,
    episode_seed,
)

__all__ = ["WindowEnv"]

_N = len(OBS_FIELDS)


def observation_space() -> gym.spaces.Box:
    return gym.spaces.Box(0.0, np.inf, shape=(_N,), dtype=np.float32)


def action_space(low: float, high: float) -> gym.spaces.Box:
    return gym.spaces.Box(np.float32(low), np.float32(high), shape=(1,), dtype=np.float32)


class WindowEnv(gym.Env[np.ndarray, np.ndarray]):
    """An agent sets flow ``flow``'s window of ``scenario`` (a TOML path or a dict, with
    ``overrides``) each step.

    Args:
        action: ``"window_limit"`` (a fixed CWL, congestion control runs under it) or
            ``"cwnd"`` (the congestion window itself, congestion control going on from it).
        step: ``"fixed"`` (``step_s`` simulated seconds) or ``"rtt"`` (one smoothed RTT, at
            least ``step_s``).
        action_low, action_high: the action's range in segments (actions are clipped to it).
        warmup_s: simulated time run before the first observation.
        reward_fn: ``reward_fn(obs, info) -> float``; default :func:`default_reward` with
            ``delay_weight`` and ``loss_weight``.

    Raises:
        ScenarioError: a setting, the scenario or an override is refused (naming it).
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        scenario: ScenarioLike,
        *,
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
        self._episodes = Episodes(scenario, overrides)
        self.flow = check_flow(flow, self._episodes.n_flows)
        self._settings = Settings(action, step, step_s, action_low, action_high, warmup_s)
        self._core = _core.WindowEnvCore([self.flow], *self._settings.core_args())
        self._reward = Reward(reward_fn, delay_weight, loss_weight)
        self.observation_space = observation_space()
        self.action_space = action_space(self._settings.low, self._settings.high)
        self._ready = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode: the scenario with ``seed`` (drawn from the environment's generator
        when None); ``options={"overrides": {...}}`` changes scenario keys for it."""
        super().reset(seed=seed)
        run_seed = seed if seed is not None else episode_seed(self.np_random)
        row = np.frombuffer(self._core.reset(self._episodes.document(run_seed, options)))
        self._ready = True
        return row[:_N].astype(np.float32), {"time_s": float(row[_N + 2]), "seed": run_seed}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._ready:
            raise gym.error.ResetNeeded("call reset() before step()")
        value = float(np.asarray(action, dtype=np.float64).reshape(-1)[0])
        row = np.frombuffer(self._core.step(value))
        obs = row[:_N]
        terminated, truncated = bool(row[_N]), bool(row[_N + 1])
        info = {"time_s": float(row[_N + 2])}
        reward = self._reward.one(obs, info)
        if terminated or truncated:
            self._ready = False
        return obs.astype(np.float32), reward, terminated, truncated, info

    def result(self) -> Result:
        """The ended episode's :class:`hopsim.Result` (every metric ``hopsim.run`` gives,
        measured from the scenario's ``warmup_s``); the episode must have been truncated,
        and is closed by it.

        Raises:
            ScenarioError: no episode, or one not at its end yet.
        """
        try:
            text = self._core.result_json()
        except ValueError as exc:
            raise ScenarioError(str(exc)) from None
        return Result.from_json(text)

    def state(self) -> dict[str, Any]:
        """The run's live state (as :meth:`hopsim.Simulation.state`)."""
        import json

        doc: dict[str, Any] = json.loads(self._core.state_json())
        return doc
