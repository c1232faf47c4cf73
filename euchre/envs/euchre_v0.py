"""Euchre as a PettingZoo AEC environment, named as PettingZoo's classic games are (the version
is bumped whenever a change alters what an agent learns: spaces, rewards, observation layout).
The sister games (Hasenpfeffer, Bid Euchre and its double deck, Napoleon at 3 to 7 players) play in
it too, each in spaces of its own (:func:`layout`), which left Euchre's unchanged.

>>> from euchre.envs import euchre_v0
>>> env = euchre_v0.env(rules="british")
>>> env.reset(seed=42)
>>> for agent in env.agent_iter(max_iter=8):
...     observation, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else int(observation["action_mask"].nonzero()[0][0])
...     env.step(action)
>>> env.close()

There is no ``parallel_env``: Euchre is turn-based (one seat acts at a time), so the parallel API,
where every live agent acts at every step, does not fit it (``docs/rl.md``).
"""

from __future__ import annotations

from euchre.envs.aec import (
    RENDER_VIEWS,
    REWARDS,
    env,
    hand_rewards,
    raw_env,
    relative,
    resolve_rules,
    table_text,
)
from euchre.envs.observation import (
    BID_CODES,
    EUCHRE_LAYOUT,
    MAX_BIDS,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    UP_CARD_FATES,
    Layout,
    ObservationField,
    action_count,
    action_mask,
    encode,
    field_slice,
    layout,
    observation_fields,
    observation_size,
    unpack,
)

__all__ = ["env", "raw_env", "resolve_rules", "relative", "hand_rewards", "table_text", "REWARDS", "RENDER_VIEWS",
           "OBSERVATION_FIELDS", "OBSERVATION_SIZE", "ObservationField", "observation_fields", "field_slice",
           "unpack", "encode", "action_mask", "BID_CODES", "MAX_BIDS", "UP_CARD_FATES", "Layout", "EUCHRE_LAYOUT",
           "layout", "observation_size", "action_count"]
