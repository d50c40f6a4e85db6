"""vecrypt.seal: round trips, failures, file objects, and interop with the `vecrypt`
command both ways (the command is the binary that VECRYPT_BIN names; .ci/test-python
builds it and sets the variable)."""

import io
import os
import pathlib
import subprocess

import pytest

import vecrypt
from vecrypt import seal
from vecrypt.kem import AigisEncPrivateKey

# Runs of the command end within this many seconds, or the test fails.
CLI_TIMEOUT = 120


def data_of(n):
    return os.urandom(n)


def test_generate_key_is_key_file_text():
    k = seal.generate_key()
    assert isinstance(k, str)
    assert k.startswith("vecrypt-key-v1 ") and k.endswith("\n")
    assert len(bytes.fromhex(k.split()[1])) == 32
    assert seal.generate_key() != k


@pytest.mark.parametrize("suite", ["aes-256-gcm", "kuznyechik-mgm"])
@pytest.mark.parametrize("size", [0, 1, 65536, 65537, 300_000])
def test_round_trip_with_a_key(suite, size):
    data = data_of(size)
    text = seal.generate_key()
    raw = bytes.fromhex(text.split()[1])
    sealed = seal.seal(data, key=text, suite=suite)
    assert sealed.startswith(b"VECRYPT")
    assert seal.open(sealed, key=raw) == data
    assert seal.open(bytearray(sealed), key=text.encode()) == data
    assert seal.seal(data, key=raw, suite=suite) != sealed  # a fresh nonce prefix each time


def test_round_trip_with_a_passphrase_and_a_recipient():
    data = data_of(100_000)
    sealed = seal.seal(data, passphrase="correct horse")
    assert seal.open(sealed, passphrase=b"correct horse") == data
    with pytest.raises(vecrypt.InvalidTag):
        seal.open(sealed, passphrase="wrong horse")
    for hash_ in ("shake", "sm3"):
        sk = AigisEncPrivateKey.generate(set=3, hash=hash_)
        sealed = seal.seal(data, recipient=sk.public_key(), suite="kuznyechik-mgm")
        assert seal.open(sealed, identity=sk) == data
        with pytest.raises(vecrypt.InvalidTag):
            seal.open(sealed, identity=AigisEncPrivateKey.generate(set=3, hash=hash_))


def test_changed_or_wrong_input_is_refused():
    key = seal.generate_key()
    data = data_of(150_000)
    sealed = seal.seal(data, key=key)
    for at in (len(sealed) // 2, len(sealed) - 1, 100):
        bad = bytearray(sealed)
        bad[at] ^= 1
        with pytest.raises(vecrypt.InvalidTag):
            seal.open(bytes(bad), key=key)
    with pytest.raises(vecrypt.InvalidTag):
        seal.open(sealed, key=seal.generate_key())
    # Cut at a chunk boundary and inside one: never a silent short plaintext.
    for cut in (len(sealed) - 17, 65536 + 16 + 40, 60):
        with pytest.raises((vecrypt.InvalidTag, ValueError)):
            seal.open(sealed[:cut], key=key)
    with pytest.raises((vecrypt.InvalidTag, ValueError)):
        seal.open(b"not a sealed file at all", key=key)


def test_argument_errors():
    key = seal.generate_key()
    with pytest.raises(ValueError):
        seal.seal(b"x")
    with pytest.raises(ValueError):
        seal.seal(b"x", key=key, passphrase="p")
    with pytest.raises(ValueError):
        seal.seal(b"x", key=key, suite="rot13")
    with pytest.raises(ValueError):
        seal.seal(b"x", key=bytes(31))
    with pytest.raises(ValueError):
        seal.seal(b"x", recipient=bytes(100))
    with pytest.raises(ValueError):
        seal.open(b"x")
    with pytest.raises(TypeError):
        seal.seal(b"x", key)  # the key is keyword-only


class Trickle(io.RawIOBase):
    """A reader that hands out at most 1000 bytes a call."""

    def __init__(self, data):
        self.data, self.at = data, 0

    def readable(self):
        return True

    def read(self, n=-1):
        n = 1000 if n < 0 else min(n, 1000)
        out = self.data[self.at : self.at + n]
        self.at += len(out)
        return out


def test_file_objects():
    key = seal.generate_key()
    data = data_of(200_001)
    dst = io.BytesIO()
    seal.seal_file(Trickle(data), dst, key=key, suite="kuznyechik-mgm")
    sealed = dst.getvalue()
    assert seal.open(sealed, key=key) == data
    back = io.BytesIO()
    seal.open_file(Trickle(sealed), back, key=key)
    assert back.getvalue() == data
    bad = bytearray(sealed)
    bad[-5] ^= 1
    with pytest.raises(vecrypt.InvalidTag):
        seal.open_file(io.BytesIO(bytes(bad)), io.BytesIO(), key=key)


def test_file_object_errors_come_back():
    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            raise OSError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        seal.seal_file(Broken(), io.BytesIO(), key=seal.generate_key())

    class Full(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            raise OSError("no space left")

    with pytest.raises(OSError, match="no space left"):
        seal.seal_file(io.BytesIO(b"data"), Full(), key=seal.generate_key())


# Interop with the command.


@pytest.fixture(scope="module")
def cli():
    path = os.environ.get("VECRYPT_BIN")
    assert path, "VECRYPT_BIN must name the vecrypt binary (.ci/test-python sets it)"
    assert os.access(path, os.X_OK), path

    def run(*args):
        r = subprocess.run(
            [path, *map(str, args)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=CLI_TIMEOUT,
        )
        assert r.returncode == 0, (args, r.returncode, r.stderr)
        return r

    return run


@pytest.mark.parametrize("suite", ["aes-256-gcm", "kuznyechik-mgm"])
def test_cli_key_both_ways(cli, tmp_path: pathlib.Path, suite):
    key_file = tmp_path / "key"
    cli("keygen", "--out", key_file)
    key_text = key_file.read_text()
    data = data_of(333_333)
    plain = tmp_path / "plain"
    plain.write_bytes(data)
    # The command seals, Python opens.
    cli("seal", "--key-file", key_file, "--suite", suite, "--in", plain, "--out", tmp_path / "c1")
    assert seal.open((tmp_path / "c1").read_bytes(), key=key_text) == data
    # Python seals, the command opens.
    (tmp_path / "c2").write_bytes(seal.seal(data, key=key_text, suite=suite))
    cli("open", "--key-file", key_file, "--in", tmp_path / "c2", "--out", tmp_path / "p2")
    assert (tmp_path / "p2").read_bytes() == data
    # A key file from Python works for the command.
    (tmp_path / "pykey").write_text(seal.generate_key())
    os.chmod(tmp_path / "pykey", 0o600)
    sealed = seal.seal(data, key=(tmp_path / "pykey").read_text())
    (tmp_path / "c3").write_bytes(sealed)
    cli("open", "--key-file", tmp_path / "pykey", "--in", tmp_path / "c3", "--out", tmp_path / "p3")
    assert (tmp_path / "p3").read_bytes() == data


def test_cli_passphrase_both_ways(cli, tmp_path):
    pass_file = tmp_path / "pass"
    pass_file.write_text("a long passphrase\n")
    os.chmod(pass_file, 0o600)
    data = data_of(70_000)
    (tmp_path / "plain").write_bytes(data)
    cli("seal", "--passphrase-file", pass_file, "--in", tmp_path / "plain", "--out", tmp_path / "c1")
    assert seal.open((tmp_path / "c1").read_bytes(), passphrase="a long passphrase") == data
    (tmp_path / "c2").write_bytes(seal.seal(data, passphrase="a long passphrase"))
    cli("open", "--passphrase-file", pass_file, "--in", tmp_path / "c2", "--out", tmp_path / "p2")
    assert (tmp_path / "p2").read_bytes() == data


@pytest.mark.parametrize("hash_", ["shake", "sm3"])
def test_cli_kem_both_ways(cli, tmp_path, hash_):
    pk, sk = tmp_path / "pk", tmp_path / "sk"
    cli("kem", "2", "keygen", "--hash", hash_, "--pk", pk, "--sk", sk)
    data = data_of(100_000)
    (tmp_path / "plain").write_bytes(data)
    cli("seal", "--to", pk, "--in", tmp_path / "plain", "--out", tmp_path / "c1")
    assert seal.open((tmp_path / "c1").read_bytes(), identity=sk.read_bytes()) == data
    (tmp_path / "c2").write_bytes(seal.seal(data, recipient=pk.read_bytes()))
    cli("open", "--sk", sk, "--in", tmp_path / "c2", "--out", tmp_path / "p2")
    assert (tmp_path / "p2").read_bytes() == data
