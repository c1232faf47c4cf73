"""How many worker processes a parallel run starts when not told (`euchre.pool.default_jobs`): the
CPUs this process may use, no more than the free memory holds, never none."""

from __future__ import annotations

from pathlib import Path

import pytest

from euchre import pool

MB = 2**20
REAL_READ = pool._read


def _machine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *, affinity: int, meminfo: str | None,
             cgroup: dict[str, str]) -> None:
    """A machine with ``affinity`` CPUs, this /proc/meminfo text (None: not there) and these cgroup
    (v2) files."""
    monkeypatch.setattr(pool.os, "sched_getaffinity", lambda pid: set(range(affinity)), raising=False)
    group = tmp_path / "cgroup"
    group.mkdir(parents=True)
    for name, text in cgroup.items():
        (group / name).write_text(text)
    monkeypatch.setattr(pool, "_CGROUP", group)
    proc = tmp_path / "meminfo"
    if meminfo is not None:
        proc.write_text(meminfo)

    def read(path: Path) -> str | None:
        return REAL_READ(proc if path == Path("/proc/meminfo") else path)

    monkeypatch.setattr(pool, "_read", read)


MEMINFO = "MemTotal:       24684000 kB\nMemFree:        20000000 kB\nMemAvailable:   {} kB\n"


def test_one_job_per_usable_cpu_when_memory_is_plentiful(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _machine(monkeypatch, tmp_path, affinity=6, meminfo=MEMINFO.format(64 * 2**20), cgroup={})
    assert pool.default_jobs(pool.ANALYZE_JOB_MEMORY) == 6


def test_memory_caps_the_jobs_on_a_big_machine_with_little_memory(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    # 64 CPUs, 2 GB available: a review would have started 64 processes of about 270 MB each.
    _machine(monkeypatch, tmp_path, affinity=64, meminfo=MEMINFO.format(2 * 2**20), cgroup={})
    assert pool.default_jobs(pool.ANALYZE_JOB_MEMORY) == 2 * 1024 // 320
    assert pool.default_jobs(pool.ARENA_JOB_MEMORY) == 4


def test_a_container_limits_count_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The host shows 32 CPUs and 64 GB; the container has 1.5 CPUs' time and 1 GB, 200 MB of it used.
    _machine(monkeypatch, tmp_path, affinity=32, meminfo=MEMINFO.format(64 * 2**20),
             cgroup={"cpu.max": "150000 100000\n", "memory.max": f"{1024 * MB}\n", "memory.current": f"{200 * MB}\n"})
    assert pool._usable_cpus() == 2
    assert pool._available_memory() == 824 * MB
    assert pool.default_jobs(pool.ANALYZE_JOB_MEMORY) == 2
    assert pool.default_jobs(pool.ARENA_JOB_MEMORY) == 1
    # no limit written as "max": the host's figures hold
    _machine(monkeypatch, tmp_path / "b", affinity=32, meminfo=MEMINFO.format(64 * 2**20),
             cgroup={"cpu.max": "max 100000\n", "memory.max": "max\n", "memory.current": f"{200 * MB}\n"})
    assert pool.default_jobs(pool.ANALYZE_JOB_MEMORY) == 32


def test_never_fewer_than_one_job(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _machine(monkeypatch, tmp_path, affinity=8, meminfo=MEMINFO.format(1000), cgroup={})
    assert pool.default_jobs(pool.ANALYZE_JOB_MEMORY) == 1


def test_unknown_memory_leaves_the_cpu_count(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # no /proc/meminfo (not Linux) and no cgroup files, or garbage in them
    _machine(monkeypatch, tmp_path, affinity=3, meminfo=None, cgroup={})
    assert pool._available_memory() is None
    assert pool.default_jobs(pool.ANALYZE_JOB_MEMORY) == 3
    _machine(monkeypatch, tmp_path / "b", affinity=3, meminfo="MemAvailable: lots\n",
             cgroup={"cpu.max": "0 0\n", "memory.max": "-1\n", "memory.current": "x\n"})
    assert pool._available_memory() is None
    assert pool.default_jobs(pool.ANALYZE_JOB_MEMORY) == 3


def test_this_machine_gets_at_least_one_job_and_no_more_than_its_cpus() -> None:
    import os

    jobs = pool.default_jobs(pool.ANALYZE_JOB_MEMORY)
    assert 1 <= jobs <= (os.cpu_count() or 1)
