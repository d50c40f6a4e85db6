"""Modes of operation. ECB, CBC and GostCBC take whole blocks (no padding); CTR, GostCTR,
GostOFB and GostCFB take any length. The GOST modes follow GOST R 34.13-2015 with
whole-block segments: GostCTR's IV is half a block, the IV of GostOFB, GostCBC and GostCFB
one or more blocks (as many chains side by side)."""

from .._vecrypt import CBC, CTR, ECB, GostCBC, GostCFB, GostCTR, GostOFB, Mode

__all__ = ["CBC", "CTR", "ECB", "GostCBC", "GostCFB", "GostCTR", "GostOFB", "Mode"]
