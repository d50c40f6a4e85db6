"""Authenticated encryption: ``encrypt(nonce, data, associated_data)`` returns the
ciphertext followed by a 16-byte tag, ``decrypt`` raises :class:`vecrypt.InvalidTag` when
the tag does not match."""

from ._vecrypt import AEAD, AESGCM, KuznyechikGCM, KuznyechikMGM, UBlockGCM

__all__ = ["AEAD", "AESGCM", "KuznyechikGCM", "KuznyechikMGM", "UBlockGCM"]
