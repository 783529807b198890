#!/usr/bin/env python3
"""Peer for bench_allreduce: torch.distributed all_reduce (SUM) over Gloo on 127.0.0.1, N processes.

Every rank all-reduces a float32 tensor of --mib MiB --warmup + --iters times; before each call a barrier lines the
ranks up. Each rank notes when it called and when the call returned on the machine-wide monotonic clock
(time.monotonic_ns(), CLOCK_MONOTONIC), and bench_allreduce times Cohort's peers the same way: an operation takes from
the last rank's call to the last rank's return.
Prints one JSON line: {"backend": "gloo", "procs": N, "bytes": B, "ms": [...], "spans": [[t0, t1] per rank] per op}.
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
    spans = []
    work = torch.empty_like(data)
    for i in range(warmup + iters):
        work.copy_(data)
        dist.barrier()
        t0 = time.monotonic_ns()
        dist.all_reduce(work, op=dist.ReduceOp.SUM)
        t1 = time.monotonic_ns()
        # Every rank's [t0, t1], gathered after the timed call (this second exchange is not timed).
        mine = torch.tensor([t0, t1], dtype=torch.int64)
        everyone = [torch.zeros(2, dtype=torch.int64) for _ in range(world)]
        dist.all_gather(everyone, mine)
        if i >= warmup:
            spans.append([[int(x[0]), int(x[1])] for x in everyone])
    if rank == 0:
        queue.put(spans)
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
    spans = queue.get()
    for p in procs:
        p.join()
    # The one convention: from the last rank's call to the last rank's return.
    ms = [(max(t1 for _, t1 in op) - max(t0 for t0, _ in op)) / 1e6 for op in spans]
    print(json.dumps({"backend": "gloo", "procs": a.procs, "bytes": a.mib * 1024 * 1024, "ms": ms, "spans": spans}),
          flush=True)


if __name__ == "__main__":
    main()
