"""The conventions of the API: bytes-like inputs, ValueError for bad lengths, InvalidTag,
streaming contexts, and the KEM's shape."""

import array
import os

import pytest

import vecrypt
from vecrypt.aead import AESGCM, KuznyechikGCM, KuznyechikMGM, UBlockGCM
from vecrypt.ciphers import Cipher, algorithms, modes
from vecrypt.cmac import OMAC
from vecrypt.kem import AigisEncPrivateKey, AigisEncPublicKey

AEADS = [
    (AESGCM, 16, 12),
    (AESGCM, 24, 12),
    (AESGCM, 32, 12),
    (KuznyechikMGM, 32, 16),
    (KuznyechikGCM, 32, 12),
    (UBlockGCM, 16, 12),
    (UBlockGCM, 32, 12),
]


def mgm_nonce(n):
    """A nonce of `n` bytes whose top bit is clear, as MGM wants."""
    b = bytearray(os.urandom(n))
    b[0] &= 0x7F
    return bytes(b)


@pytest.mark.parametrize("cls, key_len, nonce_len", AEADS)
def test_aead_round_trip_and_tampering(cls, key_len, nonce_len):
    aead = cls(os.urandom(key_len))
    nonce = mgm_nonce(nonce_len)
    for n in (0, 1, 16, 100, 5000):
        data = os.urandom(n)
        sealed = aead.encrypt(nonce, data, b"ad")
        assert isinstance(sealed, bytes) and len(sealed) == n + 16
        assert aead.decrypt(nonce, sealed, b"ad") == data
        for bad in (
            sealed[:-1] + bytes([sealed[-1] ^ 1]),
            bytes([sealed[0] ^ 0x80]) + sealed[1:],
        ):
            with pytest.raises(vecrypt.InvalidTag):
                aead.decrypt(nonce, bad, b"ad")
        with pytest.raises(vecrypt.InvalidTag):
            aead.decrypt(nonce, sealed, b"other ad")
        with pytest.raises(vecrypt.InvalidTag):
            aead.decrypt(nonce, sealed, None)
    for short in (b"", b"x" * 15):
        with pytest.raises(vecrypt.InvalidTag):
            aead.decrypt(nonce, short, None)


@pytest.mark.parametrize("cls, key_len, nonce_len", AEADS)
def test_aead_bytes_like_inputs(cls, key_len, nonce_len):
    key = os.urandom(key_len)
    nonce = mgm_nonce(nonce_len)
    data = os.urandom(100)
    want = cls(key).encrypt(nonce, data, b"ad")
    for wrap in (bytearray, memoryview, lambda b: array.array("B", b)):
        aead = cls(wrap(key))
        assert aead.encrypt(wrap(nonce), wrap(data), wrap(b"ad")) == want
        assert aead.decrypt(wrap(nonce), wrap(want), wrap(b"ad")) == data
    # A non-contiguous view is read in order.
    doubled = bytes(b for x in data for b in (x, 0))
    assert cls(key).encrypt(nonce, memoryview(doubled)[::2], b"ad") == want
    with pytest.raises(TypeError):
        cls(key).encrypt(nonce, "text", None)
    with pytest.raises(TypeError):
        cls(key).encrypt(nonce, 12, None)


def test_aead_bad_lengths():
    for cls, lengths in [
        (AESGCM, (0, 15, 17, 31, 33)),
        (KuznyechikMGM, (0, 16, 31, 33)),
        (KuznyechikGCM, (16, 31)),
        (UBlockGCM, (0, 24, 31)),
    ]:
        for n in lengths:
            with pytest.raises(ValueError):
                cls(bytes(n))
    with pytest.raises(ValueError):
        AESGCM(bytes(16)).encrypt(b"", b"data", None)
    mgm = KuznyechikMGM(bytes(32))
    for nonce in (bytes(12), bytes(15), bytes(17), b"\x80" + bytes(15)):
        with pytest.raises(ValueError):
            mgm.encrypt(nonce, b"data", None)
        with pytest.raises(ValueError):
            mgm.decrypt(nonce, bytes(32), None)


def test_generate_key():
    for bits in (128, 192, 256):
        k = AESGCM.generate_key(bits)
        assert isinstance(k, bytes) and len(k) == bits // 8
    assert AESGCM.generate_key(256) != AESGCM.generate_key(256)
    with pytest.raises(ValueError):
        AESGCM.generate_key(64)
    assert len(KuznyechikMGM.generate_key()) == 32
    assert len(KuznyechikGCM.generate_key()) == 32
    assert len(UBlockGCM.generate_key()) == 32
    assert len(UBlockGCM.generate_key(128)) == 16
    with pytest.raises(ValueError):
        UBlockGCM.generate_key(192)


def test_aesgcm_other_nonce_lengths_and_none_ad():
    key = os.urandom(16)
    a = AESGCM(key)
    for n in (1, 8, 13, 64):
        nonce = os.urandom(n)
        assert a.decrypt(nonce, a.encrypt(nonce, b"hi", None), b"") == b"hi"


ALGORITHMS = [
    (algorithms.AES, 16),
    (algorithms.AES, 24),
    (algorithms.AES, 32),
    (algorithms.Kuznyechik, 32),
    (algorithms.UBlock128, 16),
    (algorithms.UBlock128, 32),
    (algorithms.UBlock256, 32),
]


def all_modes(n):
    return [
        modes.ECB(),
        modes.CBC(os.urandom(n)),
        modes.CTR(os.urandom(n)),
        modes.GostCTR(os.urandom(n // 2)),
        modes.GostOFB(os.urandom(n)),
        modes.GostOFB(os.urandom(3 * n)),
        modes.GostCBC(os.urandom(n)),
        modes.GostCBC(os.urandom(2 * n)),
        modes.GostCFB(os.urandom(n)),
        modes.GostCFB(os.urandom(2 * n)),
    ]


@pytest.mark.parametrize("cls, key_len", ALGORITHMS)
def test_streaming_matches_one_call_in_every_mode(cls, key_len):
    alg = cls(os.urandom(key_len))
    n = alg.block_size // 8
    assert alg.key_size == 8 * key_len
    for mode in all_modes(n):
        whole = mode.name in ("ECB", "CBC", "GostCBC")
        data = os.urandom(n * 40 + (0 if whole else 7))
        c = Cipher(alg, mode)
        enc = c.encryptor()
        one = enc.update(data) + enc.finalize()
        assert len(one) == len(data)
        for step in (1, n - 1, n + 1, 3 * n, 1000):
            e = c.encryptor()
            out = b"".join(e.update(data[i : i + step]) for i in range(0, len(data), step))
            assert out + e.finalize() == one, (mode.name, step)
            d = c.decryptor()
            back = b"".join(d.update(one[i : i + step]) for i in range(0, len(one), step))
            assert back + d.finalize() == data, (mode.name, step)
        if mode.name != "ECB":
            # A different IV gives a different ciphertext.
            other = type(mode)(os.urandom(len(mode.initialization_vector)))
            e = Cipher(alg, other).encryptor()
            assert e.update(data) + e.finalize() != one


@pytest.mark.parametrize("cls, key_len", ALGORITHMS)
def test_bad_keys_and_ivs(cls, key_len):
    for bad in (0, 1, key_len - 1, key_len + 1, 64):
        if bad in (16, 24, 32) and cls is algorithms.AES:
            continue
        if bad in (16, 32) and cls is algorithms.UBlock128:
            continue
        with pytest.raises(ValueError):
            cls(bytes(bad))
    alg = cls(bytes(key_len))
    n = alg.block_size // 8
    for mode in (
        modes.CBC(bytes(n - 1)),
        modes.CBC(bytes(n + 1)),
        modes.CTR(bytes(n // 2)),
        modes.GostCTR(bytes(n)),
        modes.GostOFB(b""),
        modes.GostOFB(bytes(n + 1)),
        modes.GostCBC(bytes(n // 2)),
        modes.GostCFB(bytes(3 * n - 1)),
    ):
        with pytest.raises(ValueError):
            Cipher(alg, mode)


def test_whole_blocks_only_in_ecb_and_cbc():
    alg = algorithms.AES(bytes(16))
    for mode in (modes.ECB(), modes.CBC(bytes(16)), modes.GostCBC(bytes(32))):
        for ctx in (Cipher(alg, mode).encryptor(), Cipher(alg, mode).decryptor()):
            assert ctx.update(bytes(20)) and True
            with pytest.raises(ValueError):
                ctx.finalize()


def test_finalized_context_refuses_calls():
    c = Cipher(algorithms.Kuznyechik(bytes(32)), modes.GostCTR(bytes(8)))
    e = c.encryptor()
    e.update(b"abc")
    assert e.finalize() == b""
    with pytest.raises(vecrypt.AlreadyFinalized):
        e.update(b"more")
    with pytest.raises(vecrypt.AlreadyFinalized):
        e.finalize()
    m = OMAC(algorithms.Kuznyechik(bytes(32)))
    m.finalize()
    with pytest.raises(vecrypt.AlreadyFinalized):
        m.update(b"x")


def test_update_into():
    alg = algorithms.AES(os.urandom(16))
    iv = os.urandom(16)
    data = os.urandom(100)
    e = Cipher(alg, modes.CBC(iv)).encryptor()
    want = e.update(data)
    assert len(want) == 96
    for buf in (bytearray(200), memoryview(bytearray(200)), array.array("B", bytes(200))):
        e = Cipher(alg, modes.CBC(iv)).encryptor()
        assert e.update_into(data, buf) == 96
        assert bytes(buf[:96]) == want
        assert bytes(buf[96:]) == bytes(104)
    e = Cipher(alg, modes.CTR(iv)).encryptor()
    with pytest.raises(ValueError):
        e.update_into(data, bytearray(99))
    with pytest.raises(TypeError):
        e.update_into(data, bytes(200))


def test_omac_verify():
    alg = algorithms.UBlock256(os.urandom(32))
    m = OMAC(alg)
    m.update(b"message")
    tag = m.finalize()
    assert len(tag) == 32
    m = OMAC(alg)
    m.update(b"message")
    m.verify(tag)
    for bad in (tag[:-1] + bytes([tag[-1] ^ 1]), tag[:4][::-1]):
        m = OMAC(alg)
        m.update(b"message")
        with pytest.raises(vecrypt.InvalidSignature):
            m.verify(bad)
    for bad_len in (b"", tag + b"x"):
        m = OMAC(alg)
        m.update(b"message")
        with pytest.raises(ValueError):
            m.verify(bad_len)


@pytest.mark.parametrize("set_", [1, 2, 3, 4])
@pytest.mark.parametrize("hash_", ["shake", "sm3"])
def test_kem_round_trip(set_, hash_):
    sk = AigisEncPrivateKey.generate(set=set_, hash=hash_)
    assert (sk.set, sk.hash) == (set_, hash_)
    pk = sk.public_key()
    ss, ct = pk.encapsulate()
    assert len(ss) == 32
    assert sk.decapsulate(ct) == ss
    ss2, ct2 = pk.encapsulate()
    assert ss2 != ss and ct2 != ct
    # A changed ciphertext gives another secret (implicit rejection), not an error.
    bad = bytes([ct[0] ^ 1]) + ct[1:]
    assert sk.decapsulate(bad) != ss
    again = AigisEncPrivateKey.from_bytes(sk.private_bytes(), set_, hash_)
    assert again.decapsulate(ct) == ss
    pk2 = AigisEncPublicKey.from_bytes(bytearray(pk.public_bytes()), set_, hash_)
    assert pk2 == pk
    ss3, ct3 = pk2.encapsulate()
    assert sk.decapsulate(memoryview(ct3)) == ss3


def test_kem_bad_inputs():
    sk = AigisEncPrivateKey.generate()
    assert (sk.set, sk.hash) == (2, "shake")
    pk = sk.public_key()
    _, ct = pk.encapsulate()
    with pytest.raises(ValueError):
        sk.decapsulate(ct[:-1])
    with pytest.raises(ValueError):
        sk.decapsulate(ct + b"x")
    with pytest.raises(ValueError):
        AigisEncPublicKey.from_bytes(pk.public_bytes(), 3, "shake")
    with pytest.raises(ValueError):
        AigisEncPrivateKey.from_bytes(sk.private_bytes()[:-1], 2, "shake")
    with pytest.raises(ValueError):
        AigisEncPrivateKey.generate(set=5)
    with pytest.raises(ValueError):
        AigisEncPrivateKey.generate(hash="md5")
    with pytest.raises(ValueError):
        AigisEncPrivateKey.from_seed_bytes(bytes(63))
    # The hash mode is part of the key: SM3 decapsulation of a SHAKE ciphertext disagrees.
    other = AigisEncPrivateKey.from_bytes(sk.private_bytes(), 2, "sm3")
    ss, ct = pk.encapsulate()
    assert other.decapsulate(ct) != ss


def test_backends_lists_every_algorithm():
    b = vecrypt.backends()
    for name in (
        "aes-128",
        "aes-192",
        "aes-256",
        "kuznyechik",
        "ublock-128-128",
        "ublock-128-256",
        "ublock-256-256",
        "aigis-enc",
    ):
        assert isinstance(b[name], str) and b[name]
    assert AESGCM(bytes(16)).backend == b["aes-128"]


def test_docstrings_and_stubs_ship():
    import pathlib

    root = pathlib.Path(vecrypt.__file__).parent
    assert (root / "py.typed").exists()
    assert (root / "_vecrypt.pyi").exists()
    for obj in (
        AESGCM,
        AESGCM.encrypt,
        KuznyechikMGM,
        Cipher,
        modes.GostCTR,
        OMAC,
        AigisEncPrivateKey,
        AigisEncPublicKey.encapsulate,
        vecrypt.backends,
        vecrypt.seal.seal,
        vecrypt.seal.open,
    ):
        assert obj.__doc__ and len(obj.__doc__) > 20, obj
