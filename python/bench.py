"""Throughput of vecrypt through Python, beside `cryptography` (AES-GCM) and `gostcrypto`
(Kuznyechik CTR), at 16 KiB and 1 MiB per call, in MB/s (10^6 bytes a second).

    python bench.py [--seconds S] [--check]

The Kuznyechik CTR rows also give the library's own speed on the same backend (CTR over a
buffer inside the extension, no Python objects on the way) and the ratio of the two.
With --check the script exits 1 when Kuznyechik CTR at 1 MiB runs below 0.8 of the
library's speed or AES-GCM at 1 MiB below `cryptography`'s.
"""

import argparse
import os
import sys
import time

# The installed package, not the source folder beside this script (it has no extension).
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

import vecrypt  # noqa: E402
from vecrypt import _vecrypt  # noqa: E402
from vecrypt.aead import AESGCM, KuznyechikGCM, KuznyechikMGM, UBlockGCM  # noqa: E402
from vecrypt.ciphers import Cipher, algorithms, modes  # noqa: E402

SIZES = [("16 KiB", 16 * 1024), ("1 MiB", 1024 * 1024)]


def rate(fn, size, seconds, rounds=3):
    """Best MB/s of `rounds` runs of `fn` repeated for about `seconds` each."""
    best = 0.0
    for _ in range(rounds):
        n = 0
        start = time.perf_counter()
        while True:
            fn()
            n += 1
            took = time.perf_counter() - start
            if took >= seconds:
                break
        best = max(best, n * size / took / 1e6)
    return best


def library_ctr(alg, size, seconds, rounds=3):
    """MB/s of the library's CTR alone, best of `rounds` runs of about `seconds`."""
    iterations = max(1, int(seconds * 1e9 / size / 20))
    best = 0.0
    for _ in range(rounds):
        took = 0.0
        n = 0
        while took < seconds:
            took += _vecrypt._ctr_seconds(alg, size, iterations)
            n += iterations
        best = max(best, n * size / took / 1e6)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.3, help="time per measurement")
    ap.add_argument("--check", action="store_true", help="exit 1 if a speed target is missed")
    args = ap.parse_args()
    s = args.seconds

    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM as PycaAESGCM
    except ImportError:
        PycaAESGCM = None
    try:
        from gostcrypto import gostcipher
    except ImportError:
        gostcipher = None

    backends = vecrypt.backends()
    print("backends: " + ", ".join(f"{k} {v}" for k, v in backends.items()))
    print(f"{'what':44} {'16 KiB':>10} {'1 MiB':>10}   MB/s")

    def row(name, values, note=""):
        cells = "".join(
            f"{'-':>10} " if v is None else f"{v:10.1f} " if v >= 10 else f"{v:10.4f} "
            for v in values
        )
        print(f"{name:44} {cells}  {note}")

    key32 = os.urandom(32)
    nonce12 = os.urandom(12)
    results = {}

    def measure(name, make, note=""):
        values = []
        for _, size in SIZES:
            data = os.urandom(size)
            fn = make(data)
            values.append(rate(fn, size, s) if fn else None)
        results[name] = values
        row(name, values, note)

    def in_turns(a, b):
        """Best MB/s of `a` and of `b` (makers of calls by data), measured in turns so that
        the load of the machine weighs on both alike."""
        ra, rb = [], []
        for _, size in SIZES:
            d = os.urandom(size)
            fa, fb = a(d), b(d)
            x = y = 0.0
            for _ in range(5):
                x = max(x, fa(size))
                y = max(y, fb(size))
            ra.append(x)
            rb.append(y)
        return ra, rb

    gcm = AESGCM(key32)
    ours = lambda d: lambda size: rate(lambda: gcm.encrypt(nonce12, d, None), size, s, 1)
    if PycaAESGCM:
        pg = PycaAESGCM(key32)
        theirs = lambda d: lambda size: rate(lambda: pg.encrypt(nonce12, d, None), size, s, 1)
        a, b = in_turns(ours, theirs)
        results["vecrypt AESGCM-256 encrypt"] = a
        results["cryptography AESGCM-256 encrypt"] = b
        row("vecrypt AESGCM-256 encrypt", a, backends["aes-256"])
        row("cryptography AESGCM-256 encrypt", b, "OpenSSL")
    else:
        measure("vecrypt AESGCM-256 encrypt", lambda d: lambda: gcm.encrypt(nonce12, d, None),
                backends["aes-256"])
    mgm = KuznyechikMGM(key32)
    nonce16 = bytes(16)
    measure("vecrypt KuznyechikMGM encrypt", lambda d: lambda: mgm.encrypt(nonce16, d, None),
            backends["kuznyechik"])
    kg = KuznyechikGCM(key32)
    measure("vecrypt KuznyechikGCM encrypt", lambda d: lambda: kg.encrypt(nonce12, d, None))
    ug = UBlockGCM(key32[:16])
    measure("vecrypt UBlockGCM-128 encrypt", lambda d: lambda: ug.encrypt(nonce12, d, None),
            backends["ublock-128-128"])

    kuz = algorithms.Kuznyechik(key32)

    def ctr(d):
        ctx = Cipher(kuz, modes.GostCTR(bytes(8))).encryptor()
        return lambda: ctx.update(d)

    # Through Python and in the library alone, in turns.
    through, lib = in_turns(
        lambda d: (lambda f: lambda size: rate(f, size, s, 1))(ctr(d)),
        lambda d: lambda size: library_ctr(kuz, size, s, rounds=1),
    )
    results["vecrypt Kuznyechik GostCTR update"] = through
    row("vecrypt Kuznyechik GostCTR update", through, backends["kuznyechik"])
    row("library Kuznyechik CTR (no Python)", lib, backends["kuznyechik"])
    if gostcipher:
        # Pure Python: one call each, 16 KiB only for the larger size too (then scaled).
        values = []
        for _, size in SIZES:
            d = bytearray(os.urandom(min(size, 16 * 1024)))
            g = gostcipher.new("kuznechik", bytearray(key32), gostcipher.MODE_CTR,
                               init_vect=bytearray(8))
            t = time.perf_counter()
            g.encrypt(d)
            values.append(len(d) / (time.perf_counter() - t) / 1e6)
        row("gostcrypto Kuznyechik CTR", values, "pure Python, one 16 KiB call")

    ratio = results["vecrypt Kuznyechik GostCTR update"][1] / lib[1]
    print(f"Kuznyechik CTR at 1 MiB through Python: {ratio:.2f} of the library's speed "
          f"(target 0.80)")
    ok = ratio >= 0.8
    if PycaAESGCM:
        g = results["vecrypt AESGCM-256 encrypt"][1] / results["cryptography AESGCM-256 encrypt"][1]
        print(f"AES-GCM at 1 MiB: {g:.2f} times cryptography's speed (target 1.00)")
        ok = ok and g >= 1.0
    if args.check and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
