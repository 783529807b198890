#!/usr/bin/env python3
"""Peer for bench_rollout: the same policy transformer in idiomatic PyTorch eager with a preallocated KV cache.

Pre-norm decoder (learned positions, fused qkv, GELU MLP, final LayerNorm, untied head), sampling from
softmax(logits / T) with the token's log-probability, exactly the work Cohort's generate() does.
Prints one JSON line per batch size: {"batch": B, "best_tok_s": ..., "median_tok_s": ...}.
With --weights it loads Cohort's safetensors checkpoint (so both sides run identical weights).
"""
import argparse
import json
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

    def forward(self, tokens, start, caches):
        B, T = tokens.shape
        pos = torch.arange(start, start + T)
        x = self.tok_emb(tokens) + self.pos_emb(pos)
        for layer, (kc, vc) in zip(self.layers, caches):
            x = layer(x, kc, vc, start)
        return self.head(self.ln_f(x[:, -1]))

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights")
    ap.add_argument("--batches", default="1,32")
    ap.add_argument("--prompt", type=int, default=16)
    ap.add_argument("--new", type=int, default=128)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
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
                          "torch": torch.__version__, "threads": torch.get_num_threads()}), flush=True)


if __name__ == "__main__":
    main()
