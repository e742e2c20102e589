"""The collectives' meeting point: a Ray actor (``Rendezvous``) that sums the workers' arrays
(``all_reduce``) and hands the chief's to the others (``broadcast``). Each worker program reaches
it through the Ray actor that started it, over a local socket (``PipeTransport``, ``relay``). Ray 2.60's
``ray.util.collective`` has no usable CPU backend in its wheel (GLOO needs ``pygloo``, which is not
installed with it; NCCL needs CuPy arrays on real GPUs), so NumPy arrays go through the actor and
Ray's object store. Sums are taken in rank order, so every worker gets the same bits."""

from __future__ import annotations

import asyncio
import json
import os

ENV = "DEVTRACE_CLUSTER"  # {"socket", "authkey", "rank", "world"}: set by the worker's actor


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


class PipeTransport:
    """A worker program's end: its collectives go over a local socket to the Ray actor that started
    it (``relay``), which calls the ``Rendezvous``; the program itself never connects to Ray."""

    def __init__(self, address: str, authkey: bytes, rank: int, world: int):
        self.address, self.authkey = address, authkey
        self.rank, self.world = rank, world
        self._conn = None

    def _call(self, op: str, key: str, array):
        if self._conn is None:
            from multiprocessing.connection import Client

            self._conn = Client(self.address, family="AF_UNIX", authkey=self.authkey)
        self._conn.send((op, key, array))
        return self._conn.recv()

    def all_reduce(self, key: str, array):
        return self._call("all_reduce", key, array)

    def broadcast(self, key: str, array=None):
        return self._call("broadcast", key, array)


def relay(listener, rendezvous, rank: int) -> None:
    """In the worker's Ray actor: serve the program's collectives until it closes its end."""
    import ray

    try:
        conn = listener.accept()
    except OSError:
        return
    with conn:
        while True:
            try:
                op, key, array = conn.recv()
            except (EOFError, OSError):
                return
            conn.send(ray.get(getattr(rendezvous, op).remote(key, rank, array)))


def install_from_env(env=None) -> bool:
    """In a worker ``devtrace run`` started: install its transport (``runtime.collective``)."""
    from ..runtime import collective

    text = (os.environ if env is None else env).get(ENV)
    if not text:
        return False
    spec = json.loads(text)
    collective.install(PipeTransport(spec["socket"], bytes.fromhex(spec["authkey"]), spec["rank"], spec["world"]))
    return True
