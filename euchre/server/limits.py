"""Rate limits: a token bucket per connection, and one per client address (:class:`RateLimiter`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

__all__ = ["TokenBucket", "RateLimiter", "seconds"]


class TokenBucket:
    """``rate`` messages a second with bursts of ``burst``: a person never notices it, a flood
    does."""

    def __init__(self, burst: float, rate: float, clock: Any = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.tokens = burst
        self.last = clock()

    def take(self) -> bool:
        t = self.clock()
        self.tokens = min(self.burst, self.tokens + (t - self.last) * self.rate)
        self.last = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)

    def wait(self) -> float:
        """Seconds until the next token (0 if there is one now)."""
        t = self.clock()
        tokens = min(self.burst, self.tokens + (t - self.last) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


class RateLimiter:
    """One :class:`TokenBucket` per client address: ``per_minute`` with bursts of ``burst``.

    Memory stays bounded: buckets are kept least recently used first, and one untouched for
    ``burst / rate`` seconds is full again, the same as no bucket, so it is dropped (a few at each
    :meth:`take`, oldest first); past ``max_keys`` addresses the oldest are dropped anyway (which
    only forgives them).
    """

    def __init__(self, per_minute: float, burst: float, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("a rate limit needs per_minute > 0 and burst >= 1")
        self.rate = per_minute / 60
        self.burst = burst
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[str, TokenBucket] = {}
        """Least recently used first (a dict keeps insertion order; a used key is moved last)."""

    def take(self, key: str) -> float:
        """Take a token for ``key``: 0 if it had one, else the seconds until it will."""
        t = self.clock()
        stale = t - self.burst / self.rate
        while self.buckets:
            oldest = next(iter(self.buckets))
            if self.buckets[oldest].last > stale and len(self.buckets) < self.max_keys:
                break
            del self.buckets[oldest]
        bucket = self.buckets.pop(key, None) or TokenBucket(self.burst, self.rate, self.clock)
        self.buckets[key] = bucket
        return 0.0 if bucket.take() else bucket.wait()


def seconds(wait: float) -> int:
    """A wait as whole seconds, at least 1 (``Retry-After`` and the messages)."""
    return max(1, math.ceil(wait - 1e-6))
