#!/usr/bin/env python3
"""Writes the seed corpora that need real Ed25519 signatures (fuzz_identity_file, fuzz_request_verifier).

Run from the repository root: python3 tests/fuzz/make_signed_seeds.py (needs python3-cryptography).
The key is derived from a fixed seed so reruns write the same files.
"""
import base64
import hashlib
import json
import os

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
seed = hashlib.sha256(b"cohort fuzz seed key").digest()
key = Ed25519PrivateKey.from_private_bytes(seed)
pub = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
secret = seed + pub  # libsodium's 64-byte secret key: seed then public key
b64 = lambda b: base64.b64encode(b).decode()


def write(folder, name, data):
    os.makedirs(os.path.join(root, folder), exist_ok=True)
    with open(os.path.join(root, folder, name), "wb") as f:
        f.write(data)


identity = {"format": "cohort-ed25519-v1", "public_key": b64(pub), "secret_key": b64(secret),
            "created": "2026-12-02T09:00:00Z"}
write("identity_file", "valid.json", json.dumps(identity, indent=4).encode())
write("identity_file", "inconsistent.json", json.dumps(dict(identity, public_key=b64(bytes(32)))).encode())
write("identity_file", "unknown_format.json", json.dumps(dict(identity, format="cohort-ed25519-v0")).encode())
write("identity_file", "truncated.json", json.dumps(identity).encode()[:70])

# fuzz_request_verifier's layout: key, timestamp, nonce, signature, method, path, body, separated by '\n'.
def request(method, path, body, ts=1764666000000, nonce=b"00112233445566778899aabbccddeeff"):
    canonical = (b"cohort-request-v1\n" + method.upper() + b"\n" + path + b"\n" + str(ts).encode() + b"\n" + nonce +
                 b"\n" + hashlib.sha256(body).hexdigest().encode())
    signature = key.sign(canonical)
    return b"\n".join([b64(pub).encode(), str(ts).encode(), nonce, b64(signature).encode(), method, path, body])


write("request_verifier", "signed_post.txt", request(b"POST", b"/v1/nodes/register", b'{"name":"fuzz"}'))
write("request_verifier", "signed_get.txt", request(b"GET", b"/v1/tasks?x=1", b""))
tampered = bytearray(request(b"POST", b"/v1/work", b'{"batch":1}'))
tampered[-2] ^= 1
write("request_verifier", "tampered_body.txt", bytes(tampered))
