"""Train PPO (stable-baselines3, an optional extra: pip install stable-baselines3) on the
same 7-hop chain as cem.py, then set it beside the same baselines
(examples/gym-window/README.md). Not run by `make test`: it needs a deep-learning framework.

    python examples/gym-window/ppo.py --steps 200000
"""

from __future__ import annotations

import argparse

import numpy as np
from evaluate import HIGH, LOW, compare, make_env, print_table
from gymnasium.wrappers import RescaleAction
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecNormalize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="training steps")
    parser.add_argument("--envs", type=int, default=4, help="environments trained on")
    parser.add_argument("--duration", type=float, default=60.0, help="episode, seconds")
    args = parser.parse_args()
    # PPO's Gaussian policy wants actions in [-1, 1] and observations of unit scale.
    venv = make_vec_env(
        lambda: RescaleAction(make_env(args.duration), -1.0, 1.0), n_envs=args.envs, seed=1
    )
    venv = VecNormalize(venv, norm_obs=True, norm_reward=True)
    model = PPO("MlpPolicy", venv, seed=1, verbose=0, n_steps=512, batch_size=256)
    model.learn(total_timesteps=args.steps)
    venv.training = False

    def policy(obs: np.ndarray) -> float:
        action, _ = model.predict(venv.normalize_obs(obs[None, :]), deterministic=True)
        return float(LOW + (np.clip(action[0, 0], -1, 1) + 1) / 2 * (HIGH - LOW))

    seeds = list(range(101, 111))
    rows = compare({f"learned (PPO, {args.steps} steps)": policy}, args.duration, seeds)
    print_table(rows, args.duration, len(seeds))


if __name__ == "__main__":
    main()
