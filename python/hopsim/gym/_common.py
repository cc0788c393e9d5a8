"""What the window environments share: the observation's fields, the default reward, the
scenario documents of an episode, and the settings checked before the core sees them
(docs/interfaces.md, "Gymnasium environments")."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .. import _core
from .._core import ScenarioError
from ..api import ScenarioLike, prepare
from ..scenario import Overrides, to_json

#: The observation's fields, in order (per step unless said): cwnd and the window limit in
#: force (segments, now), the mean RTT of the step's samples (the smoothed RTT when it had
#: none) and the least RTT so far (ms), RTT samples, goodput (kbit/s), retransmissions,
#: timeouts, MAC retries on the route, packets in the source's queue (now), route changes,
#: and the hops of the route (now).
OBS_FIELDS: tuple[str, ...] = tuple(_core.WindowEnvCore.fields())
OBS_INDEX: dict[str, int] = {name: i for i, name in enumerate(OBS_FIELDS)}
#: f64 per row of the core's step result: the observation, terminated, truncated, time (s).
ROW = len(OBS_FIELDS) + 3

ACTIONS = ("window_limit", "cwnd")
STEPS = ("fixed", "rtt")

#: A reward computed from a step's observation (``OBS_FIELDS``) and the step's ``info``.
RewardFn = Callable[[np.ndarray, dict[str, Any]], float]

_GOODPUT, _RTT, _MIN_RTT, _RETX = (
    OBS_INDEX[k] for k in ("goodput_kbps", "rtt_ms", "min_rtt_ms", "retransmissions")
)


def default_reward(obs: np.ndarray, delay_weight: float = 0.1, loss_weight: float = 0.05) -> float:
    """Goodput in Mbit/s, less ``delay_weight`` per base RTT of queueing (the step's RTT over
    the least RTT seen, less one) and ``loss_weight`` per retransmission."""
    reward = float(obs[_GOODPUT]) * 1e-3
    rtt, base = float(obs[_RTT]), float(obs[_MIN_RTT])
    if rtt > 0.0 and base > 0.0:
        reward -= delay_weight * max(0.0, rtt / base - 1.0)
    return reward - loss_weight * float(obs[_RETX])


def default_rewards(
    obs: np.ndarray, delay_weight: float = 0.1, loss_weight: float = 0.05
) -> np.ndarray:
    """:func:`default_reward` of each row of ``obs`` (one observation per row)."""
    rtt, base = obs[:, _RTT], obs[:, _MIN_RTT]
    valid = (rtt > 0.0) & (base > 0.0)
    queueing = np.where(valid, rtt / np.where(base > 0.0, base, 1.0) - 1.0, 0.0)
    return (
        obs[:, _GOODPUT] * 1e-3
        - delay_weight * np.maximum(0.0, queueing)
        - loss_weight * obs[:, _RETX]
    )


class Reward:
    """An environment's reward: ``reward_fn(obs, info)``, or :func:`default_reward` with the
    weights given."""

    __slots__ = ("_fn", "_weights")

    def __init__(self, reward_fn: RewardFn | None, delay_weight: float, loss_weight: float) -> None:
        _number("delay_weight", delay_weight, lambda v: v >= 0, "0 or more")
        _number("loss_weight", loss_weight, lambda v: v >= 0, "0 or more")
        if reward_fn is not None and not callable(reward_fn):
            raise ScenarioError(f"reward_fn = {reward_fn!r}: a function (obs, info) -> float")
        self._fn, self._weights = reward_fn, (float(delay_weight), float(loss_weight))

    def one(self, obs: np.ndarray, info: dict[str, Any]) -> float:
        if self._fn is None:
            return default_reward(obs, *self._weights)
        return float(self._fn(obs, info))

    def rows(self, obs: np.ndarray, times_s: np.ndarray) -> np.ndarray:
        """One reward per row of ``obs`` (the step ending at ``times_s``)."""
        if self._fn is None:
            return default_rewards(obs, *self._weights)
        return np.array(
            [self.one(o, {"time_s": float(t)}) for o, t in zip(obs, times_s, strict=True)]
        )


class Settings:
    """The checked settings of an environment (every keyword named in its error)."""

    __slots__ = ("action", "high", "low", "step_rtt", "step_s", "warmup_s")

    def __init__(
        self,
        action: str,
        step: str,
        step_s: float,
        action_low: float,
        action_high: float,
        warmup_s: float,
    ) -> None:
        if action not in ACTIONS:
            raise ScenarioError(f"action = {action!r}: one of {', '.join(ACTIONS)}")
        if step not in STEPS:
            raise ScenarioError(f"step = {step!r}: one of {', '.join(STEPS)}")
        _number(
            "step_s",
            step_s,
            lambda v: v > 0,
            "seconds, above 0 (with step = 'rtt': the least step)",
        )
        _number(
            "action_low", action_low, lambda v: 0 < v <= 1e6, "segments, above 0 and at most 1e6"
        )
        _number(
            "action_high",
            action_high,
            lambda v: action_low <= v <= 1e6,
            f"segments, {action_low} (action_low) to 1e6",
        )
        _number("warmup_s", warmup_s, lambda v: v >= 0, "seconds, 0 or more")
        self.action, self.step_rtt, self.step_s = action, step == "rtt", float(step_s)
        self.low, self.high, self.warmup_s = float(action_low), float(action_high), float(warmup_s)

    def core_args(self) -> tuple[str, float, bool, float, float, float]:
        return (self.action, self.step_s, self.step_rtt, self.low, self.high, self.warmup_s)


def _number(key: str, value: Any, ok: Callable[[float], bool], allowed: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ScenarioError(f"{key} = {value!r}: a number, {allowed}")
    if not math.isfinite(value) or not ok(float(value)):
        raise ScenarioError(f"{key} = {value!r}: {allowed}")


def check_flow(flow: Any, n_flows: int) -> int:
    if isinstance(flow, bool) or not isinstance(flow, int) or not 0 <= flow < n_flows:
        raise ScenarioError(f"flow = {flow!r}: a flow index, 0 to {n_flows - 1}")
    return flow


class Episodes:
    """The scenario of every episode: loaded once; each episode's seed and overrides."""

    __slots__ = ("_base",)

    def __init__(self, scenario: ScenarioLike, overrides: Overrides | None) -> None:
        self._base = prepare(scenario, overrides, None)
        _core.validate_json(to_json(self._base))  # refused here, naming the key

    @property
    def n_flows(self) -> int:
        return len(self._base.get("flows", []))

    @property
    def duration_s(self) -> float:
        return float(self._base.get("duration_s", 0.0))

    def document(self, seed: int, options: Mapping[str, Any] | None = None) -> str:
        """The episode's scenario as JSON: ``seed``, and ``options["overrides"]`` if any."""
        extra = None
        if options:
            unknown = set(options) - {"overrides"}
            if unknown:
                # Gymnasium and PettingZoo pass options through (their API tests send keys of
                # their own): said, not refused.
                warnings.warn(
                    f"reset options {sorted(unknown)} ignored: the only option is "
                    "'overrides' (scenario keys for this episode)",
                    stacklevel=3,
                )
            extra = options.get("overrides")
            if extra is not None and not isinstance(extra, Mapping):
                raise ScenarioError(
                    f"reset option overrides = {extra!r}: a dict of scenario keys and values"
                )
        return to_json(prepare(self._base, extra, seed))


def episode_seed(rng: np.random.Generator) -> int:
    """A scenario seed drawn from the environment's generator (reset without a seed)."""
    return int(rng.integers(0, 2**63 - 1))
