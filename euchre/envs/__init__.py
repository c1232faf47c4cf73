"""Learning environments on the engine (the ``rl`` extra: ``pip install euchre[rl]``).

``euchre_v0`` is the PettingZoo AEC environment, named as PettingZoo's classic games are:

>>> from euchre.envs import euchre_v0
>>> env = euchre_v0.env(rules="british")

It plays every preset, the sister games included (Hasenpfeffer, Bid Euchre and its double
deck, Napoleon at 3 to 7 players), each in spaces sized by its rules. ``docs/rl.md`` documents
it. :mod:`euchre.envs.observation` (the observation vector and its layout) needs only NumPy, so
it imports without the ``rl`` extra.
"""

__all__ = ["euchre_v0"]
