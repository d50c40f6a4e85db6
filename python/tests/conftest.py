import json
import pathlib

import pytest

DATA = pathlib.Path(__file__).parent / "data"


def h(s):
    return bytes.fromhex("".join(s.split()))


@pytest.fixture(scope="session")
def vectors():
    with open(DATA / "vectors.json") as f:
        return json.load(f)


def blocks_text(path):
    """Records of `name = hex` lines separated by blank lines, `#` lines skipped."""
    records, current = [], {}
    for line in open(path):
        line = line.strip()
        if line.startswith("#") or line.startswith("["):
            continue
        if not line:
            if current:
                records.append(current)
                current = {}
            continue
        name, _, value = line.partition("=")
        current[name.strip()] = value.strip()
    if current:
        records.append(current)
    return records
