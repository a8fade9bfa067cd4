#!/usr/bin/env python3
"""A browser's push service, and the browser's own decryption, on loopback.

Browsers' push services (FCM, Mozilla's, Apple's) cannot be reached from the test
machines, so the tests run this instead: it hands out subscriptions as a browser's
PushManager would (a fresh P-256 key pair and auth secret each), and checks and
decrypts every push the server sends with implementations independent of the
server's: the VAPID JWT (RFC 8292) with `cryptography`, the payload (RFC 8291,
aes128gcm) with `http_ece`.

    GET  /subscribe        -> {"endpoint": ".../push/N", "keys": {"p256dh", "auth"}}
    POST /push/N           -> 201, decrypted and recorded (401 when VAPID is wrong)
    POST /gone/N           -> every later push to N answers 410 Gone
    POST /busy/N           -> every later push to N answers 503 (a service that is failing)
    GET  /received         -> [{"subscription": N, "payload": {...}, "ttl": ..., "vapid": {...}}]
    GET  /refused          -> pushes answered 401, with why
    GET  /busy             -> pushes answered 503: [{"subscription": N}]

Usage: push_service.py PORT
"""

import base64
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.exceptions import InvalidSignature

lock = threading.Lock()
subscriptions = {}  # n -> (private key, auth secret)
gone = set()
busy = set()
received = []
refused = []
turned_away = []


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(header: str, audiences: tuple) -> dict:
    """The claims of a valid `vapid t=JWT, k=KEY` header, else ValueError."""
    if not header.startswith("vapid "):
        raise ValueError(f"not a vapid authorization: {header!r}")
    parts = dict(p.strip().split("=", 1) for p in header[len("vapid "):].split(","))
    token, key = parts["t"], parts["k"]
    head, claims, signature = token.split(".")
    if json.loads(unb64url(head)).get("alg") != "ES256":
        raise ValueError("not ES256")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("bad signature")
    claims = json.loads(unb64url(claims))
    if claims.get("aud") not in audiences:
        raise ValueError(f"audience {claims.get('aud')!r}, expected one of {audiences!r}")
    if claims.get("exp", 0) <= time.time():
        raise ValueError("expired")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError(f"subject {claims.get('sub')!r}")
    return claims


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        # The browser tests fetch /subscribe from the app's page.
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/subscribe":
            key = ec.generate_private_key(ec.SECP256R1())
            auth = os.urandom(16)
            with lock:
                n = len(subscriptions) + 1
                subscriptions[n] = (key, auth)
            point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            host = self.headers.get("Host")
            self.answer(200, {"endpoint": f"http://{host}/push/{n}", "keys": {"p256dh": b64url(point), "auth": b64url(auth)}})
        elif self.path == "/received":
            with lock:
                self.answer(200, list(received))
        elif self.path == "/refused":
            with lock:
                self.answer(200, list(refused))
        elif self.path == "/busy":
            with lock:
                self.answer(200, list(turned_away))
        else:
            self.answer(404, {"error": "no such page"})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        kind, _, n = self.path.strip("/").partition("/")
        if kind == "gone" and n.isdigit():
            with lock:
                gone.add(int(n))
            return self.answer(200, {})
        if kind == "busy" and n.isdigit():
            with lock:
                busy.add(int(n))
            return self.answer(200, {})
        if kind != "push" or not n.isdigit() or int(n) not in subscriptions:
            return self.answer(404, {"error": "no such subscription"})
        n = int(n)
        if n in gone:
            return self.answer(410, {"error": "unsubscribed"})
        if n in busy:
            with lock:
                turned_away.append({"subscription": n})
            return self.answer(503, {"error": "try again later"})
        key, auth = subscriptions[n]
        try:
            # The push resource's origin. The server's VAPID library (web-push-native)
            # leaves the port out of it; browsers' push services are all on 443, where
            # the two spellings are the same origin, so both are accepted here.
            host = self.headers.get("Host")
            vapid = check_vapid(self.headers.get("Authorization", ""), (f"http://{host}", f"http://{host.split(':')[0]}"))
            if self.headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"content encoding {self.headers.get('Content-Encoding')!r}")
            plain = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
            payload = json.loads(plain)
        except Exception as err:  # noqa: BLE001 - every refusal is recorded for the test
            with lock:
                refused.append({"subscription": n, "why": str(err)})
            return self.answer(401, {"error": str(err)})
        with lock:
            received.append({"subscription": n, "payload": payload, "ttl": self.headers.get("TTL"), "vapid": vapid})
        self.answer(201, {})


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
