"""uBlock, Kuznyechik, AES and Aigis-enc, with an API shaped like pyca/cryptography's.

- :mod:`vecrypt.aead`: ``AESGCM``, ``KuznyechikMGM``, ``KuznyechikGCM``, ``UBlockGCM``.
- :mod:`vecrypt.ciphers`: ``Cipher(algorithm, mode)`` with streaming encryptors and
  decryptors; ``algorithms`` and ``modes`` (ECB, CBC, CTR and the GOST R 34.13 modes).
- :mod:`vecrypt.cmac`: ``OMAC`` (CMAC) over any of the block ciphers.
- :mod:`vecrypt.kem`: Aigis-enc keys.
- :mod:`vecrypt.seal`: the sealed format of the ``vecrypt`` command.

Every function takes any bytes-like object and returns ``bytes``; a wrong length or key
raises ``ValueError`` and a failed authentication :class:`InvalidTag`. Calls on more than
4 KiB release the GIL, so threads run them side by side.
"""

from ._vecrypt import AlreadyFinalized, InvalidSignature, InvalidTag, backends
from . import aead, ciphers, cmac, kem, seal

__version__ = "0.1.0"

__all__ = [
    "AlreadyFinalized",
    "InvalidSignature",
    "InvalidTag",
    "aead",
    "backends",
    "ciphers",
    "cmac",
    "kem",
    "seal",
]
