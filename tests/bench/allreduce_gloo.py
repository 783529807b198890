#!/usr/bin/env python3
"""Peer for bench_allreduce: torch.distributed all_reduce (SUM) over Gloo on 127.0.0.1, N processes.

Every rank all-reduces a float32 tensor of --mib MiB --warmup + --iters times; before each timed call a barrier lines
the ranks up, and the time of a call is the slowest rank's (a second all_reduce of the times, MAX).
Prints one JSON line: {"backend": "gloo", "procs": N, "bytes": B, "ms": [...]}.
"""
import argparse
import json
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world, port, mib, warmup, iters, threads, queue):
    torch.set_num_threads(threads)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    count = mib * 1024 * 1024 // 4
    g = torch.Generator().manual_seed(rank)
    data = torch.rand(count, generator=g, dtype=torch.float32) * 8 - 4
    times = []
    work = torch.empty_like(data)
    for i in range(warmup + iters):
        work.copy_(data)
        dist.barrier()
        t0 = time.perf_counter()
        dist.all_reduce(work, op=dist.ReduceOp.SUM)
        dt = torch.tensor([(time.perf_counter() - t0) * 1000.0], dtype=torch.float64)
        dist.all_reduce(dt, op=dist.ReduceOp.MAX)
        if i >= warmup:
            times.append(float(dt.item()))
    if rank == 0:
        queue.put(times)
    dist.barrier()
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    ctx = mp.get_context("spawn")
    queue = ctx.SimpleQueue()
    port = free_port()
    procs = [ctx.Process(target=worker, args=(r, a.procs, port, a.mib, a.warmup, a.iters, a.threads, queue))
             for r in range(a.procs)]
    for p in procs:
        p.start()
    times = queue.get()
    for p in procs:
        p.join()
    print(json.dumps({"backend": "gloo", "procs": a.procs, "bytes": a.mib * 1024 * 1024, "ms": times}), flush=True)


if __name__ == "__main__":
    main()
