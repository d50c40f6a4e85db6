"""Block ciphers in modes of operation: ``Cipher(algorithm, mode)`` and its streaming
``encryptor()`` and ``decryptor()`` contexts (``update``, ``update_into``, ``finalize``)."""

from .._vecrypt import Cipher, CipherContext
from . import algorithms, modes

__all__ = ["Cipher", "CipherContext", "algorithms", "modes"]
