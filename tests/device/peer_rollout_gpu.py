#!/usr/bin/env python3
"""PyTorch eager peer for device_rollout: tests/bench/peer_rollout.py's model (pre-norm byte transformer with a
preallocated KV cache, sampling from softmax(logits / T)) on a chosen device, fp32, with Cohort's weights.

On CUDA every factory call of that model (caches, positions, masks, prompts) lands on the device through
torch.set_default_device (PyTorch >= 2.0), and the clock stops only after torch.cuda.synchronize().
Prints {"torch": version, "device": name} and then one JSON line per batch size:
{"batch": B, "best_tok_s": ..., "median_tok_s": ...}. Exit status 3 when the device is unavailable.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))

import torch  # noqa: E402

import peer_rollout as peer  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", required=True)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--batches", default="1,32")
    ap.add_argument("--prompt", type=int, default=16)
    ap.add_argument("--new", type=int, default=128)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()

    cuda = args.device.startswith("cuda")
    if cuda and not torch.cuda.is_available():
        print(json.dumps({"error": "torch.cuda.is_available() is False", "torch": torch.__version__}), flush=True)
        sys.exit(3)
    if cuda and not hasattr(torch, "set_default_device"):
        print(json.dumps({"error": "PyTorch %s has no set_default_device (needs 2.0+)" % torch.__version__}), flush=True)
        sys.exit(3)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(0)

    tensors, meta = peer.read_safetensors(args.weights)  # CPU tensors, read before the default device changes
    if cuda:
        torch.set_default_device(args.device)
    name = torch.cuda.get_device_name(torch.device(args.device)) if cuda else "cpu"
    print(json.dumps({"torch": torch.__version__, "device": name}), flush=True)

    g = lambda k, dflt: int(meta.get("cohort.model." + k, dflt))  # noqa: E731
    model = peer.Policy(g("vocab_size", 259), g("d_model", 256), g("n_layers", 4), g("n_heads", 4), g("d_ff", 1024),
                        g("max_seq_len", 256), float(meta.get("cohort.model.norm_eps", 1e-5)))
    model.load_cohort(tensors)
    model.eval()
    sync = torch.cuda.synchronize if cuda else (lambda: None)

    for B in [int(b) for b in args.batches.split(",") if b]:
        prompts = torch.randint(0, 256, (B, args.prompt))
        times = []
        for i in range(args.warmup + args.repeats):
            sync()
            t0 = time.perf_counter()
            toks, _ = model.generate(prompts, args.new)
            sync()
            dt = time.perf_counter() - t0
            assert toks.shape == (B, args.new)
            if i >= args.warmup:
                times.append(dt)
        n = B * args.new
        print(json.dumps({"batch": B, "best_tok_s": n / min(times), "median_tok_s": n / statistics.median(times)}),
              flush=True)


if __name__ == "__main__":
    main()
