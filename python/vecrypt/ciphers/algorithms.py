"""The block ciphers, each holding its key (wiped when the object is dropped)."""

from .._vecrypt import AES, UBlock128, UBlock256, BlockCipherAlgorithm, Kuznyechik

__all__ = ["AES", "BlockCipherAlgorithm", "Kuznyechik", "UBlock128", "UBlock256"]
