"""hopsim.gym (issue 35): Gymnasium's and PettingZoo's own API checkers, determinism per
seed, the vector environment against the single one, and the action against the scenario
key it stands for (a constant window-limit action is the configured tcp.max_window)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
import hopsim  # noqa: E402
import hopsim.gym as hg  # noqa: E402
from hopsim import ScenarioError  # noqa: E402

CHAIN4 = hg.chain_scenario(4, duration_s=5.0)


def episode(env, seed: int, action) -> tuple[np.ndarray, list[float]]:
    obs, _ = env.reset(seed=seed)
    rows, rewards = [obs], []
    while True:
        obs, r, term, trunc, _ = env.step(np.array([action(obs)], np.float32))
        rows.append(obs)
        rewards.append(r)
        if term or trunc:
            return np.array(rows), rewards


def test_check_env_passes_on_the_registered_environments() -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on normalised, bounded spaces
        for env_id in ("hopsim/WindowChain-v0", "hopsim/WindowChain4-v0"):
            env = gymnasium.make(env_id)
            check_env(env.unwrapped, skip_render_check=True)
        env = gymnasium.make("hopsim/Window-v0", scenario=CHAIN4, action="cwnd", step="rtt")
        check_env(env.unwrapped, skip_render_check=True)


def test_an_episode_is_its_seed() -> None:
    env = hg.WindowEnv(CHAIN4)
    a, ra = episode(env, 3, lambda o: 3.0)
    b, rb = episode(env, 3, lambda o: 3.0)
    c, _ = episode(env, 4, lambda o: 3.0)
    assert a.shape == (501, len(hg.OBS_FIELDS)), "5 s in 10 ms steps, and the first"
    assert np.array_equal(a, b) and ra == rb
    assert not np.array_equal(a, c)
    assert (a[1:, hg.OBS_INDEX["window_limit_segments"]] == 3.0).all()
    assert (a[1:, hg.OBS_INDEX["cwnd_segments"]] <= 3.0).all()
    assert (a[:, hg.OBS_INDEX["hops"]] == 4.0).all()


@pytest.mark.parametrize("limit", [2.0, 6.0])
def test_a_constant_window_limit_action_is_the_configured_max_window(limit: float) -> None:
    env = hg.WindowEnv(CHAIN4, step_s=0.05)
    rows, _ = episode(env, 7, lambda o: limit)
    stepped_kbit = rows[1:, hg.OBS_INDEX["goodput_kbps"]].astype(float).sum() * 0.05
    configured = hopsim.Simulation(CHAIN4, {"tcp.max_window": limit}, seed=7)
    configured.run_until(5.0)
    want_kbit = configured.state()["flows"][0]["delivered_bytes"] * 8 / 1e3
    assert stepped_kbit == pytest.approx(want_kbit, rel=1e-6)  # float32 observations
    assert env.state()["flows"][0]["delivered_bytes"] * 8 / 1e3 == want_kbit
    got, want = env.result().flows[0], hopsim.run(CHAIN4, {"tcp.max_window": limit}, seed=7)
    for key in ("goodput_kbps", "mean_delay_ms", "retransmissions", "avg_cwnd"):
        assert getattr(got, key) == getattr(want.flows[0], key), key
    with pytest.raises(ScenarioError, match="no episode"):
        env.result()  # taken: the next episode starts with reset()


def test_the_vector_environment_is_the_single_one_on_any_number_of_threads() -> None:
    single = hg.WindowEnv(CHAIN4)
    want = [episode(single, 10 + i, lambda o: 1.0 + o[0] % 5)[0] for i in range(3)]
    got = []
    for workers in (1, 2):
        v = hg.VecWindowEnv(CHAIN4, num_envs=3, workers=workers)
        obs, info = v.reset(seed=10)
        assert list(info["seed"]) == [10, 11, 12]
        rows = [obs]
        for _ in range(500):
            obs, rewards, term, trunc, _ = v.step(1.0 + rows[-1][:, :1] % 5)
            rows.append(obs)
        assert trunc.all() and not term.any(), "5 s episodes end together"
        got.append(np.stack(rows, axis=1))
        # NEXT_STEP autoreset: the next step starts new episodes, reward 0.
        obs, rewards, term, trunc, info = v.step(np.full((3, 1), 4.0))
        assert (rewards == 0).all() and not (term | trunc).any()
        assert (info["time_s"] == 0).all() and (obs[:, 0] == 2.0).all(), "initial window"
    assert np.array_equal(got[0], got[1])
    for i in range(3):
        assert np.array_equal(got[0][i], want[i])


def test_make_vec_gives_the_native_vector_environment() -> None:
    v = gymnasium.make_vec(
        "hopsim/WindowChain4-v0", num_envs=2, vectorization_mode="vector_entry_point"
    )
    assert isinstance(v.unwrapped, hg.VecWindowEnv)
    obs, _ = v.reset(seed=1)
    assert obs.shape == (2, len(hg.OBS_FIELDS))


def test_pettingzoo_parallel_api_and_one_agent_per_flow() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_api_test

    env = hg.FlowsParallelEnv(hg.grid_scenario(duration_s=3.0))
    assert env.possible_agents == ["flow_0", "flow_1", "flow_2", "flow_3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the test's own reset options
        parallel_api_test(env, num_cycles=100)
    obs, _ = env.reset(seed=2)
    limits = {"flow_0": 1.0, "flow_1": 2.0, "flow_2": 3.0, "flow_3": 4.0}
    for _ in range(50):
        obs, rewards, terms, truncs, _ = env.step(limits)
    for agent, w in limits.items():
        assert obs[agent][hg.OBS_INDEX["window_limit_segments"]] == w
        assert obs[agent][hg.OBS_INDEX["cwnd_segments"]] <= w


def test_bad_settings_are_refused_by_name() -> None:
    udp = dict(CHAIN4, flows=[{"src": 0, "dst": 4, "transport": "udp", "interval_s": 0.1}])
    cases = [
        ({"action": "rate"}, "action"),
        ({"step": "ack"}, "step"),
        ({"step_s": 0.0}, "step_s"),
        ({"action_low": 4.0, "action_high": 2.0}, "action_high"),
        ({"flow": 1}, "flow"),
        ({"warmup_s": -1.0}, "warmup_s"),
    ]
    for kwargs, key in cases:
        with pytest.raises(ScenarioError, match=key):
            hg.WindowEnv(CHAIN4, **kwargs)
    with pytest.raises(ScenarioError, match="TCP"):
        hg.WindowEnv(udp).reset(seed=1)
    with pytest.raises(ScenarioError, match="num_envs"):
        hg.VecWindowEnv(CHAIN4, num_envs=0)
    with pytest.raises(ScenarioError, match="mac.nope"):
        hg.WindowEnv(CHAIN4, overrides={"mac.nope": 1})
    env = hg.WindowEnv(CHAIN4)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(np.array([2.0]))
    env.reset(seed=1)
    with pytest.raises(ScenarioError, match="NaN"):
        env.step(np.array([np.nan]))
    with pytest.raises(ScenarioError, match="overrides"):
        env.reset(seed=1, options={"overrides": 3})
