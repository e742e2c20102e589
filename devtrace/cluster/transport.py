"""The collectives' meeting point: a named Ray actor (``Rendezvous``) that sums the workers' arrays
(``all_reduce``) and hands the chief's to the others (``broadcast``). Ray 2.60's
``ray.util.collective`` has no usable CPU backend in its wheel (GLOO needs ``pygloo``, which is not
installed with it; NCCL needs CuPy arrays on real GPUs), so NumPy arrays go through the actor and
Ray's object store. Sums are taken in rank order, so every worker gets the same bits."""

from __future__ import annotations

import asyncio
import json
import os

ENV = "DEVTRACE_CLUSTER"  # {"address", "namespace", "actor", "rank", "world"}: set by the launcher


class Rendezvous:
    """Each collective is a key; the last worker to arrive completes it, every worker gets the result."""

    def __init__(self, world: int):
        self.world = world
        self.slots: dict = {}

    async def _meet(self, key, rank, array, combine):
        slot = self.slots.get(key)
        if slot is None:
            slot = self.slots[key] = {"parts": {}, "done": asyncio.Event(), "taken": 0}
        slot["parts"][rank] = array
        if len(slot["parts"]) == self.world:
            slot["result"] = combine(slot["parts"])
            slot["done"].set()
        await slot["done"].wait()
        slot["taken"] += 1
        if slot["taken"] == self.world:
            del self.slots[key]
        return slot["result"]

    async def all_reduce(self, key, rank, array):
        def total(parts):
            out = parts[0].copy()
            for r in range(1, self.world):
                out += parts[r]
            return out
        return await self._meet(key, rank, array, total)

    async def broadcast(self, key, rank, array):
        return await self._meet(key, rank, array, lambda parts: parts[0])


class RayTransport:
    """A worker's end: connects to the cluster on its first collective."""

    def __init__(self, address: str, namespace: str, actor: str, rank: int, world: int):
        self.address, self.namespace, self.actor_name = address, namespace, actor
        self.rank, self.world = rank, world
        self._actor = None

    def _handle(self):
        if self._actor is None:
            from . import loopback

            loopback(self.address)  # (before Ray is imported: it reads the setting then)
            import ray

            if not ray.is_initialized():
                ray.init(address=self.address, namespace=self.namespace, log_to_driver=False,
                         configure_logging=False, include_dashboard=False)
            self._actor = ray.get_actor(self.actor_name, namespace=self.namespace)
        return self._actor

    def all_reduce(self, key: str, array):
        import ray

        return ray.get(self._handle().all_reduce.remote(key, self.rank, array))

    def broadcast(self, key: str, array=None):
        import ray

        return ray.get(self._handle().broadcast.remote(key, self.rank, array))


def install_from_env(env=None) -> bool:
    """In a worker ``devtrace run`` started: install its transport (``runtime.collective``)."""
    from ..runtime import collective

    text = (os.environ if env is None else env).get(ENV)
    if not text:
        return False
    spec = json.loads(text)
    collective.install(RayTransport(spec["address"], spec["namespace"], spec["actor"], spec["rank"], spec["world"]))
    return True
