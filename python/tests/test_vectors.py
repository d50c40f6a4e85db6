"""Published known answers of every algorithm, through the Python API."""

import pytest

from vecrypt.aead import AESGCM, KuznyechikGCM, KuznyechikMGM, UBlockGCM
from vecrypt.ciphers import Cipher, algorithms, modes
from vecrypt.cmac import OMAC
from vecrypt.kem import AigisEncPrivateKey

from conftest import DATA, blocks_text, h


def run(algorithm, mode, data, decrypt=False):
    c = Cipher(algorithm, mode)
    ctx = c.decryptor() if decrypt else c.encryptor()
    return ctx.update(data) + ctx.finalize()


def test_fips197_appendix_c(vectors):
    for v in vectors["fips197"]:
        alg = algorithms.AES(h(v["key"]))
        assert run(alg, modes.ECB(), h(v["pt"])).hex() == v["ct"]
        assert run(alg, modes.ECB(), h(v["ct"]), decrypt=True).hex() == v["pt"]


@pytest.mark.parametrize("size", [0, 1, 2])
def test_sp800_38a(vectors, size):
    v = vectors["sp800_38a"]
    alg = algorithms.AES(h(v["keys"][size]))
    pt = h(v["pt"])
    for mode, want in [
        (modes.ECB(), v["ecb"][size]),
        (modes.CBC(h(v["iv"])), v["cbc"][size]),
        (modes.CTR(h(v["counter"])), v["ctr"][size]),
    ]:
        assert run(alg, mode, pt).hex() == want, mode.name
        assert run(alg, mode, h(want), decrypt=True) == pt, mode.name


def test_gcm_specification_cases(vectors):
    for i, v in enumerate(vectors["gcm_spec"]):
        gcm = AESGCM(h(v["key"]))
        aad = h(v["aad"]) or None
        sealed = gcm.encrypt(h(v["iv"]), h(v["pt"]), aad)
        assert sealed.hex() == v["ct"] + v["tag"], f"case {i}"
        assert gcm.decrypt(h(v["iv"]), sealed, aad) == h(v["pt"])


def test_gost_34_12_kuznyechik_block():
    records = blocks_text(DATA / "kuznyechik_65.vec")
    assert len(records) == 65
    for r in records:
        alg = algorithms.Kuznyechik(h(r["Key"]))
        assert run(alg, modes.ECB(), h(r["In"])) == h(r["Out"])
        assert run(alg, modes.ECB(), h(r["Out"]), decrypt=True) == h(r["In"])


def test_gost_34_13_appendix_a1(vectors):
    v = vectors["gost_34_13"]
    alg = algorithms.Kuznyechik(h(v["key"]))
    pt = h(v["pt"])
    iv = h(v["iv"])
    cases = [
        (modes.ECB(), v["ecb"]),
        (modes.GostCTR(h(v["ctr_iv"])), v["ctr"]),
        (modes.CTR(h(v["ctr_iv"]) + bytes(8)), v["ctr"]),
        (modes.GostOFB(iv), v["ofb"]),
        (modes.GostCBC(iv), v["cbc"]),
        (modes.GostCFB(iv), v["cfb"]),
    ]
    for mode, want in cases:
        assert run(alg, mode, pt).hex() == want, mode.name
        assert run(alg, mode, h(want), decrypt=True) == pt, mode.name
        # The same in pieces of every size.
        for piece in (1, 5, 16, 17, 33):
            enc = Cipher(alg, mode).encryptor()
            out = b"".join(enc.update(pt[i : i + piece]) for i in range(0, len(pt), piece))
            assert out + enc.finalize() == h(want), (mode.name, piece)
    mac = OMAC(alg)
    mac.update(pt)
    assert mac.finalize().hex() == v["mac"]
    for tag_len in (16, 8, 4):
        m = OMAC(alg)
        m.update(pt)
        m.verify(h(v["mac"])[:tag_len])


def test_rfc9058_mgm(vectors):
    v = vectors["mgm"]
    mgm = KuznyechikMGM(h(v["key"]))
    sealed = mgm.encrypt(h(v["nonce"]), h(v["pt"]), h(v["ad"]))
    assert sealed.hex() == v["ct"] + v["tag"]
    assert mgm.decrypt(h(v["nonce"]), sealed, h(v["ad"])) == h(v["pt"])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_ublock_design_document(vectors, index):
    v = vectors["ublock"][index]
    cls = getattr(algorithms, v["algorithm"])
    alg = cls(h(v["key"]))
    assert run(alg, modes.ECB(), h(v["pt"])).hex() == v["ct"]
    assert run(alg, modes.ECB(), h(v["ct"]), decrypt=True).hex() == v["pt"]
    zero = cls(bytes(len(h(v["key"]))))
    n = len(h(v["pt"]))
    assert run(zero, modes.ECB(), bytes(n)).hex() == v["zero_key_zero_block"]
    # A million chained encryptions, through one context.
    enc = Cipher(alg, modes.ECB()).encryptor()
    b = h(v["pt"])
    for _ in range(1_000_000):
        b = enc.update(b)
    assert b.hex() == v["million"]


@pytest.mark.parametrize(
    "name, cls",
    [("kuznyechik-gcm.txt", KuznyechikGCM), ("ublock128-gcm.txt", UBlockGCM)],
)
def test_gcm_over_other_ciphers(name, cls):
    records = blocks_text(DATA / name)
    assert len(records) >= 9
    for r in records:
        gcm = cls(h(r["key"]))
        sealed = gcm.encrypt(h(r["iv"]), h(r["pt"]), h(r["ad"]))
        assert sealed == h(r["ct"]) + h(r["tag"])
        assert gcm.decrypt(h(r["iv"]), sealed, h(r["ad"])) == h(r["pt"])


def aigis_vectors(n):
    out, cur = [], None
    for line in open(DATA / "aigis" / f"aigis_enc_{n}_test_vectors.txt"):
        line = line.strip()
        if line.startswith("TEST VEC"):
            cur = {}
            out.append(cur)
        elif "=" in line and cur is not None:
            k, _, val = line.partition("=")
            cur[k.strip()] = bytes.fromhex(val.strip())
    return out


@pytest.mark.parametrize("set_", [1, 2, 3, 4])
def test_aigis_enc_known_answers(set_):
    records = aigis_vectors(set_)
    assert len(records) == 10
    for r in records:
        sk = AigisEncPrivateKey.from_seed_bytes(r["keypair coins"], set=set_, hash="shake")
        assert sk.public_key().public_bytes() == r["pk"]
        assert sk.private_bytes() == r["sk"]
        ss, ct = sk.public_key()._encapsulate_with_coins(r["kem_enc coins"])
        assert ct == r["ct"]
        assert ss == r["ss"]
        loaded = AigisEncPrivateKey.from_bytes(r["sk"], set_, "shake")
        assert loaded.decapsulate(r["ct"]) == r["ss"]
        assert loaded.public_key().public_bytes() == r["pk"]


def test_aigis_enc_2_first_shared_secret():
    r = aigis_vectors(2)[0]
    assert r["ss"].hex().upper() == "0F54C7321A3CB9950A243559E9D5E68C52645E640D8327F810BABE2112BF1166"
