"""Threads at once: shared objects give the same answers as one thread, and the long calls
release the GIL, so that other Python threads run while they do."""

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from vecrypt.aead import AESGCM, KuznyechikMGM
from vecrypt.ciphers import Cipher, algorithms, modes
from vecrypt.cmac import OMAC


def test_shared_objects_from_many_threads():
    gcm = AESGCM(os.urandom(32))
    mgm = KuznyechikMGM(os.urandom(32))
    alg = algorithms.Kuznyechik(os.urandom(32))
    jobs = [(os.urandom(12), os.urandom(16), os.urandom(1000 * i + 3)) for i in range(40)]

    def work(job):
        nonce12, nonce16, data = job
        nonce16 = bytes([nonce16[0] & 0x7F]) + nonce16[1:]
        e = Cipher(alg, modes.GostCTR(nonce12[:8])).encryptor()
        return (
            gcm.encrypt(nonce12, data, b"ad"),
            mgm.encrypt(nonce16, data, None),
            e.update(data) + e.finalize(),
            nonce16,
        )

    alone = [work(j) for j in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(work, jobs))
    assert together == alone
    with ThreadPoolExecutor(max_workers=8) as pool:
        back = list(pool.map(lambda r: gcm.decrypt(r[0][0], r[1][0], b"ad"), zip(jobs, alone)))
    assert back == [j[2] for j in jobs]


def _make_calls():
    key = os.urandom(32)
    gcm = AESGCM(key)
    mgm = KuznyechikMGM(key)
    alg = algorithms.Kuznyechik(key)

    def ctr(data):
        Cipher(alg, modes.GostCTR(bytes(8))).encryptor().update(data)

    def omac(data):
        OMAC(alg).update(data)

    return {
        "gcm-encrypt": lambda d: gcm.encrypt(bytes(12), d, None),
        "mgm-encrypt": lambda d: mgm.encrypt(bytes(16), d, None),
        "kuznyechik-ctr": ctr,
        "omac": omac,
    }


@pytest.mark.parametrize("name", ["gcm-encrypt", "mgm-encrypt", "kuznyechik-ctr", "omac"])
def test_long_calls_release_the_gil(name):
    call = _make_calls()[name]
    # Grow the input until one call takes at least 0.2 s here.
    size = 1 << 20
    while True:
        data = os.urandom(size)
        t0 = time.perf_counter()
        call(data)
        took = time.perf_counter() - t0
        if took >= 0.2 or size >= 1 << 30:
            break
        size *= 2
    span = {}
    started = threading.Event()

    def worker():
        started.set()
        span["start"] = time.perf_counter()
        call(data)
        span["end"] = time.perf_counter()

    t = threading.Thread(target=worker)
    stamps = []
    t.start()
    started.wait()
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    inside = [s for s in stamps if span["start"] < s < span["end"]]
    duration = span["end"] - span["start"]
    # With the GIL held for the whole call this thread could not run inside it at all but
    # for one switch interval (5 ms) before the call starts.
    assert len(inside) > 100, (name, len(inside), duration)
    covered = max(inside) - min(inside)
    assert covered > 0.5 * duration, (name, covered, duration)
