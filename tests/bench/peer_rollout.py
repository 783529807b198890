#!/usr/bin/env python3
"""Peer for bench_rollout: the same policy transformer in idiomatic PyTorch eager with a preallocated KV cache.

Pre-norm decoder (learned positions, fused qkv, GELU MLP, final LayerNorm, untied head), sampling from
softmax(logits / T) with the token's log-probability, exactly the work Cohort's generate() does.
Prints one JSON line per batch size: {"batch": B, "best_tok_s": ..., "median_tok_s": ..., "times": [...]}.
With --weights it loads Cohort's safetensors checkpoint (so both sides run identical weights).
With --check FILE (prompts, Cohort's greedy tokens and their log-probabilities, JSON) it computes the same tokens'
log-probabilities teacher-forced and prints how far they are from Cohort's and whether each of Cohort's tokens is
this model's most likely one: the two sides must compute the same function before their speeds mean anything.
"""
import argparse
import json
import os
import re
import statistics
import struct
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    base = 8 + n
    tensors = {}
    for name, info in header.items():
        assert info["dtype"] == "F32", name
        b, e = info["data_offsets"]
        t = torch.frombuffer(bytearray(data[base + b:base + e]), dtype=torch.float32)
        tensors[name] = t.reshape(info["shape"]).clone()
    return tensors, meta


class Block(nn.Module):
    def __init__(self, d, h, f, eps):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d, eps=eps)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d, eps=eps)
        self.fc1 = nn.Linear(d, f)
        self.fc2 = nn.Linear(f, d)

    def forward(self, x, kcache, vcache, start):
        # x: [B, T, d]; writes keys/values of positions start..start+T-1 into the [B, H, S, hd] caches
        B, T, d = x.shape
        hd = d // self.h
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, hd).permute(2, 0, 3, 1, 4)
        kcache[:, :, start:start + T] = k
        vcache[:, :, start:start + T] = v
        keys = kcache[:, :, :start + T]
        vals = vcache[:, :, :start + T]
        att = (q @ keys.transpose(-2, -1)) / (hd ** 0.5)
        if T > 1:
            mask = torch.ones(T, start + T, dtype=torch.bool).triu(start + 1)
            att = att.masked_fill(mask, float("-inf"))
        y = (att.softmax(-1) @ vals).transpose(1, 2).reshape(B, T, d)
        x = x + self.out(y)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Policy(nn.Module):
    def __init__(self, V, d, L, H, f, S, eps):
        super().__init__()
        self.d, self.H, self.S = d, H, S
        self.tok_emb = nn.Embedding(V, d)
        self.pos_emb = nn.Embedding(S, d)
        self.layers = nn.ModuleList(Block(d, H, f, eps) for _ in range(L))
        self.ln_f = nn.LayerNorm(d, eps=eps)
        self.head = nn.Linear(d, V, bias=False)

    def load_cohort(self, tensors):
        own = {}
        for name, t in tensors.items():
            n = name.replace("attn.", "").replace("mlp.", "")
            own[n] = t
        self.load_state_dict(own, strict=True)

    def logits(self, hidden):
        # As Cohort's policy: with the byte vocabulary a completion never holds BOS (256) or PAD (258), so their
        # logits are pinned far below the rest before any softmax.
        out = self.head(hidden)
        if out.shape[-1] == 259:
            out[..., [256, 258]] = -1e9
        return out

    def forward(self, tokens, start, caches):
        B, T = tokens.shape
        pos = torch.arange(start, start + T)
        x = self.tok_emb(tokens) + self.pos_emb(pos)
        for layer, (kc, vc) in zip(self.layers, caches):
            x = layer(x, kc, vc, start)
        return self.logits(self.ln_f(x[:, -1]))

    @torch.inference_mode()
    def generate(self, prompts, new_tokens, temperature=1.0):
        B, L = prompts.shape
        hd = self.d // self.H
        caches = [(torch.empty(B, self.H, L + new_tokens, hd), torch.empty(B, self.H, L + new_tokens, hd))
                  for _ in self.layers]
        logits = self(prompts, 0, caches)
        out, logps = [], []
        for t in range(new_tokens):
            logp = F.log_softmax(logits / temperature, -1)
            tok = torch.multinomial(logp.exp(), 1)
            logps.append(logp.gather(-1, tok))
            out.append(tok)
            if t + 1 < new_tokens:
                logits = self(tok, L + t, caches)
        return torch.cat(out, 1), torch.cat(logps, 1)


def blas_info():
    """torch's BLAS_INFO, and the BLAS libraries this process has mapped (Debian's "generic" is libblas.so.3, which the
    alternatives system points at OpenBLAS or the reference BLAS)."""
    found = re.search(r"BLAS_INFO=([^,\s]+)", torch.__config__.show())
    torch.zeros(8, 8) @ torch.zeros(8, 8)  # the BLAS is loaded by now
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "blas" in os.path.basename(path).lower():
                    libs.add(os.path.realpath(path))
    except OSError:
        pass
    return "%s (%s)" % (found.group(1) if found else "unknown", ", ".join(sorted(libs)) or "no BLAS library mapped")


@torch.inference_mode()
def check(model, path):
    with open(path) as f:
        ref = json.load(f)
    worst, agree, total = 0.0, 0, 0
    for prompt, tokens, logps in zip(ref["prompts"], ref["tokens"], ref["logprobs"]):
        seq = torch.tensor([prompt + tokens[:-1]])
        S = seq.shape[1]
        hd = model.d // model.H
        caches = [(torch.empty(1, model.H, S, hd), torch.empty(1, model.H, S, hd)) for _ in model.layers]
        x = model.tok_emb(seq) + model.pos_emb(torch.arange(S))
        for layer, (kc, vc) in zip(model.layers, caches):
            x = layer(x, kc, vc, 0)
        logits = model.logits(model.ln_f(x[0, len(prompt) - 1:]))  # the positions that predict each token
        lp = F.log_softmax(logits, -1)
        for i, tok in enumerate(tokens):
            worst = max(worst, abs(lp[i, tok].item() - logps[i]))
            agree += int(lp[i, tok].item() >= lp[i].max().item() - 1e-4)
            total += 1
    return {"max_abs_logprob_diff": worst, "greedy_agree": agree, "tokens": total}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights")
    ap.add_argument("--batches", default="1,32")
    ap.add_argument("--prompt", type=int, default=16)
    ap.add_argument("--new", type=int, default=128)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--check")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    meta = {}
    tensors = None
    if args.weights:
        tensors, meta = read_safetensors(args.weights)
    g = lambda k, dflt: int(meta.get("cohort.model." + k, dflt))
    model = Policy(g("vocab_size", 259), g("d_model", 256), g("n_layers", 4), g("n_heads", 4), g("d_ff", 1024),
                   g("max_seq_len", 256), float(meta.get("cohort.model.norm_eps", 1e-5)))
    if tensors is not None:
        model.load_cohort(tensors)
    model.eval()
    if args.check:
        print(json.dumps({"check": check(model, args.check), "torch": torch.__version__, "blas": blas_info(),
                          "threads": torch.get_num_threads()}), flush=True)
        return
    for B in [int(b) for b in args.batches.split(",")]:
        prompts = torch.randint(0, 256, (B, args.prompt))
        times = []
        for i in range(args.warmup + args.repeats):
            t0 = time.perf_counter()
            toks, _ = model.generate(prompts, args.new)
            dt = time.perf_counter() - t0
            assert toks.shape == (B, args.new)
            if i >= args.warmup:
                times.append(dt)
        n = B * args.new
        print(json.dumps({"batch": B, "best_tok_s": n / min(times), "median_tok_s": n / statistics.median(times),
                          "times": times, "torch": torch.__version__, "threads": torch.get_num_threads()}), flush=True)


if __name__ == "__main__":
    main()
