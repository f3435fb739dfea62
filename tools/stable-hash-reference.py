#!/usr/bin/env python3
"""An independent implementation of TraceValue.stableHash (the Merkle definition), written from
the doc comment in Sources/TraceKit/Hash/TraceValue+StableHash.swift, byte-at-a-time XXH64
included. It prints the expected numbers that Tests/TraceKitTests/Hash/StableHashTests.swift
asserts, so they are never copied from what the Swift code prints.

    python3 tools/stable-hash-reference.py

Values are tuples: ("null",), ("bool", b), ("int", i), ("uint", u), ("double", f),
("string", s), ("bytes", bs), ("array", [v]), ("object", [(k, v)]), ("enum", name, [(k, v)]),
("reflected", type_name, v).
"""
import struct

M = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
RUN = 64


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def rnd(acc, inp):
    return (rotl((acc + inp * P2) & M, 31) * P1) & M


def merge(acc, val):
    return (((acc ^ rnd(0, val)) * P1) + P4) & M


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v1, v2, v3, v4 = (seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M
        while i + 32 <= n:
            a, b, c, d = struct.unpack_from("<4Q", data, i)
            v1, v2, v3, v4 = rnd(v1, a), rnd(v2, b), rnd(v3, c), rnd(v4, d)
            i += 32
        h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) & M
        for v in (v1, v2, v3, v4):
            h = merge(h, v)
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while i + 8 <= n:
        (k,) = struct.unpack_from("<Q", data, i)
        h ^= rnd(0, k)
        h = (rotl(h, 27) * P1 + P4) & M
        i += 8
    if i + 4 <= n:
        (k,) = struct.unpack_from("<I", data, i)
        h ^= (k * P1) & M
        h = (rotl(h, 23) * P2 + P3) & M
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M
        h = (rotl(h, 11) * P1) & M
        i += 1
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    h ^= h >> 32
    return h


def words_hash(words):
    return xxh64(b"".join(struct.pack("<Q", w & M) for w in words))


def packed(tag, raw):
    padded = raw + b"\0" * (-len(raw) % 8)
    return [tag | len(raw) << 8] + list(struct.unpack("<%dQ" % (len(padded) // 8), padded))


def string_words(s):
    return packed(0x05, s.encode("utf-8"))


CONTAINERS = ("array", "object", "enum", "reflected")


def head(v):
    kind = v[0]
    if kind == "array":
        return 0x07 | len(v[1]) << 8
    if kind == "object":
        return 0x08 | len(v[1]) << 8
    if kind == "enum":
        return 0x09 | len(v[2]) << 8
    return 0x0A


def child(v):
    if v[0] in CONTAINERS:
        return [head(v), stable_hash(v)]
    return own_words(v)


def fields_words(fields):
    out = []
    for key, value in fields:
        out += string_words(key) + child(value)
    return out


def own_words(v):
    kind = v[0]
    if kind == "null":
        return [0]
    if kind == "bool":
        return [0x101 if v[1] else 0x001]
    if kind == "int":
        return [0x02, v[1] & M]
    if kind == "uint":
        return [0x03, v[1]]
    if kind == "double":
        return [0x04, struct.unpack("<Q", struct.pack("<d", v[1]))[0]]
    if kind == "string":
        return string_words(v[1])
    if kind == "bytes":
        return packed(0x06, bytes(v[1]))
    if kind == "array":
        elements = v[1]
        if len(elements) <= RUN:
            return [head(v)] + [w for e in elements for w in child(e)]
        runs = [elements[i:i + RUN] for i in range(0, len(elements), RUN)]
        return [head(v)] + [words_hash([w for e in run for w in child(e)]) for run in runs]
    if kind == "object":
        return [head(v)] + fields_words(v[1])
    if kind == "enum":
        return [head(v)] + string_words(v[1]) + fields_words(v[2])
    return [0x0A] + string_words(v[1]) + child(v[2])


def stable_hash(v):
    return words_hash(own_words(v))


def todo(i, done):
    return ("object", [("id", ("int", i)), ("title", ("string", "item %d" % i)),
                       ("done", ("bool", done))])


CASES = [
    ("published xxh64 ''", None, xxh64(b"")),
    ("published xxh64 'abc'", None, xxh64(b"abc")),
    ("null", ("null",), None),
    ("bool(true)", ("bool", True), None),
    ("int(1)", ("int", 1), None),
    ("int(-1)", ("int", -1), None),
    ("uint(max)", ("uint", M), None),
    ("double(1)", ("double", 1.0), None),
    ("string(héllo)", ("string", "héllo"), None),
    ("string(0123456789abcdefghij)", ("string", "0123456789abcdefghij"), None),
    ("bytes([1,2,3])", ("bytes", [1, 2, 3]), None),
    ("array([int(1), null])", ("array", [("int", 1), ("null",)]), None),
    ("todo(id 3, Buy milk)",
     ("object", [("id", ("int", 3)), ("title", ("string", "Buy milk"))]), None),
    ("enum loaded(_0: false)", ("enum", "loaded", [("_0", ("bool", False))]), None),
    ("reflected Foo []", ("reflected", "Foo", ("array", [])), None),
    ("nested [[1], {a: []}]",
     ("array", [("array", [("int", 1)]), ("object", [("a", ("array", []))])]), None),
    ("ints 0..<64", ("array", [("int", i) for i in range(64)]), None),
    ("ints 0..<65", ("array", [("int", i) for i in range(65)]), None),
    ("todos 0..<200 (done: 77)",
     ("object", [("items", ("array", [todo(i, i == 77) for i in range(200)])),
                 ("touched", ("int", 1))]), None),
]

for name, value, known in CASES:
    h = known if value is None else stable_hash(value)
    print("%-40s 0x%s" % (name, "_".join(("%016X" % h)[j:j + 4] for j in range(0, 16, 4))))
