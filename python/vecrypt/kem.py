"""Aigis-enc, the module-lattice KEM, in its four parameter sets and two hash modes
(``"shake"`` and ``"sm3"``). ``public_key.encapsulate()`` returns
``(shared_secret, ciphertext)``, as pyca's ML-KEM does."""

from ._vecrypt import AigisEncPrivateKey, AigisEncPublicKey

__all__ = ["AigisEncPrivateKey", "AigisEncPublicKey"]
