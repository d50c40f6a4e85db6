"""The sealed format of the ``vecrypt`` command (``vecrypt seal`` / ``vecrypt open``):
bytes sealed here open with the command and the other way round.

``seal`` and ``open`` work on bytes, ``seal_file`` and ``open_file`` on binary file objects
a chunk at a time. Give exactly one of ``key`` (32 bytes, or a key file's text from
``generate_key()`` or ``vecrypt keygen``), ``passphrase``, or ``recipient`` / ``identity``
(Aigis-enc keys from :mod:`vecrypt.kem`, or the bytes of the command's key files). A wrong
key or changed data raises :class:`vecrypt.InvalidTag`.
"""

from ._vecrypt import SUITES, generate_key, open, open_file, seal, seal_file

__all__ = ["SUITES", "generate_key", "open", "open_file", "seal", "seal_file"]
