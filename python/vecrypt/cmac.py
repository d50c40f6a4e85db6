"""OMAC1 (CMAC, NIST SP 800-38B; the MAC of GOST R 34.13-2015) over any block cipher of
:mod:`vecrypt.ciphers.algorithms`."""

from ._vecrypt import OMAC

__all__ = ["OMAC"]
