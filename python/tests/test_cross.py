"""Random inputs against other implementations: `cryptography` for AES in ECB, CBC, CTR and
GCM, `gostcrypto` for Kuznyechik in the GOST R 34.13 modes and OMAC."""

import random

import pytest
from cryptography.hazmat.primitives import cmac as pyca_cmac
from cryptography.hazmat.primitives.ciphers import Cipher as PycaCipher
from cryptography.hazmat.primitives.ciphers import algorithms as pyca_alg
from cryptography.hazmat.primitives.ciphers import modes as pyca_modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as PycaAESGCM
from gostcrypto import gostcipher

from vecrypt.aead import AESGCM
from vecrypt.ciphers import Cipher, algorithms, modes
from vecrypt.cmac import OMAC

RNG = random.Random(20240611)


def rand(n):
    return RNG.randbytes(n)


def pieces(data):
    """`data` cut at random points."""
    out, i = [], 0
    while i < len(data):
        step = RNG.choice([1, 3, 15, 16, 17, 64, 100, 1000, 5000])
        out.append(data[i : i + step])
        i += step
    return out


def streamed(ctx, data):
    return b"".join(ctx.update(p) for p in pieces(data)) + ctx.finalize()


@pytest.mark.parametrize("key_len", [16, 24, 32])
def test_aes_modes_match_cryptography(key_len):
    for trial in range(40):
        key = rand(key_len)
        blocks = RNG.choice([0, 1, 2, 7, 64, 65, 300])
        tail = RNG.randrange(16)
        iv = rand(16)
        if trial % 5 == 0:
            iv = b"\xff" * 14 + rand(2)  # a counter that carries over many bytes
        for ours, theirs, whole in [
            (modes.ECB(), pyca_modes.ECB(), True),
            (modes.CBC(iv), pyca_modes.CBC(iv), True),
            (modes.CTR(iv), pyca_modes.CTR(iv), False),
        ]:
            data = rand(16 * blocks + (0 if whole else tail))
            p = PycaCipher(pyca_alg.AES(key), theirs).encryptor()
            want = p.update(data) + p.finalize()
            c = Cipher(algorithms.AES(key), ours)
            assert streamed(c.encryptor(), data) == want, (ours.name, len(data))
            assert streamed(c.decryptor(), want) == data, (ours.name, len(data))


@pytest.mark.parametrize("key_len", [16, 24, 32])
def test_aes_gcm_matches_cryptography(key_len):
    for _ in range(60):
        key = rand(key_len)
        nonce = rand(RNG.choice([12, 12, 8, 16, 60]))
        data = rand(RNG.choice([0, 1, 15, 16, 17, 255, 256, 4096, 4097, 70000]))
        aad = rand(RNG.choice([0, 1, 16, 33])) or None
        want = PycaAESGCM(key).encrypt(nonce, data, aad)
        ours = AESGCM(key)
        assert ours.encrypt(nonce, data, aad) == want
        assert ours.decrypt(nonce, want, aad) == data
        assert PycaAESGCM(key).decrypt(nonce, ours.encrypt(nonce, data, aad), aad) == data


def test_aes_cmac_matches_cryptography():
    for _ in range(40):
        key = rand(RNG.choice([16, 24, 32]))
        data = rand(RNG.choice([0, 1, 16, 17, 32, 1000]))
        c = pyca_cmac.CMAC(pyca_alg.AES(key))
        c.update(data)
        want = c.finalize()
        m = OMAC(algorithms.AES(key))
        for p in pieces(data):
            m.update(p)
        assert m.finalize() == want


def gost(mode, key, **kw):
    return gostcipher.new("kuznechik", bytearray(key), mode, **kw)


def test_kuznyechik_modes_match_gostcrypto():
    # gostcrypto is pure Python: a few hundred blocks per case.
    for _ in range(12):
        key = rand(32)
        z = RNG.choice([1, 1, 2, 3])
        iv = rand(16 * z)
        ctr_iv = rand(8)
        data_any = rand(16 * RNG.randrange(0, 24) + RNG.randrange(16))
        data_whole = rand(16 * RNG.randrange(1, 24))
        cases = [
            (modes.ECB(), gost(gostcipher.MODE_ECB, key), data_whole),
            (modes.GostCBC(iv), gost(gostcipher.MODE_CBC, key, init_vect=bytearray(iv)), data_whole),
            (modes.GostCTR(ctr_iv), gost(gostcipher.MODE_CTR, key, init_vect=bytearray(ctr_iv)), data_any),
            (modes.GostOFB(iv), gost(gostcipher.MODE_OFB, key, init_vect=bytearray(iv)), data_any),
            (modes.GostCFB(iv), gost(gostcipher.MODE_CFB, key, init_vect=bytearray(iv)), data_any),
        ]
        for ours, theirs, data in cases:
            want = bytes(theirs.encrypt(bytearray(data)))
            c = Cipher(algorithms.Kuznyechik(key), ours)
            assert streamed(c.encryptor(), data) == want, (ours.name, z, len(data))
            assert streamed(c.decryptor(), want) == data, (ours.name, z, len(data))


def test_kuznyechik_omac_matches_gostcrypto():
    for _ in range(12):
        key = rand(32)
        # gostcrypto fails on messages shorter than a block; the AES test above covers them.
        data = rand(RNG.choice([16, 17, 31, 32, 33, 64, 200]))
        theirs = gost(gostcipher.MODE_MAC, key)
        theirs.update(bytearray(data))
        want = bytes(theirs.digest(16))
        m = OMAC(algorithms.Kuznyechik(key))
        for p in pieces(data):
            m.update(p)
        assert m.finalize() == want
        m = OMAC(algorithms.Kuznyechik(key))
        m.update(data)
        m.verify(want[:8])
