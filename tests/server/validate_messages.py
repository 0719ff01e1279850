#!/usr/bin/python3
"""Validates protocol v1 messages against protocol/schema with Debian's python3-jsonschema.

Usage: validate_messages.py SCHEMA_DIR MESSAGES_FILE_OR_DIR
MESSAGES_FILE_OR_DIR is a file, or a directory whose *.txt files are all checked. Each line is "S <json>" (sent by the server) or "C <json>" (sent by a client).
A message is checked against the schema named by its `type`, which must be one of that
direction's schemas. Exits 0 when every message is valid, 1 otherwise.
"""
import collections
import concurrent.futures
import json
import os
import pathlib
import sys

from jsonschema import Draft202012Validator, RefResolver


def load(schema_dir):
    store, by_direction = {}, {"S": {}, "C": {}}
    for path in sorted(pathlib.Path(schema_dir).glob("*.json")):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        store[schema["$id"]] = schema
    for schema in store.values():
        title = schema.get("title", "")
        direction = "S" if title.endswith("(server to client)") else "C" if title.endswith("(client to server)") else None
        if direction:
            name = title.split(" ")[0]
            by_direction[direction][name] = Draft202012Validator(
                schema, resolver=RefResolver.from_schema(schema, store=store))
    return by_direction


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    schema_dir = sys.argv[1]
    load(schema_dir)  # a bad schema fails here, once
    counts, failures = collections.Counter(), []
    target = pathlib.Path(sys.argv[2])
    files = sorted(target.glob("*.txt")) if target.is_dir() else [target]
    # The files are checked in parallel, one process per core: this check runs after every server
    # test, when the other tests are done and the cores would otherwise wait for it.
    workers = max(1, min(len(files), os.cpu_count() or 1))
    with concurrent.futures.ProcessPoolExecutor(workers, initializer=start_worker, initargs=(schema_dir,)) as pool:
        for file_counts, file_failures in pool.map(check_file, files):
            counts.update(file_counts)
            failures.extend(file_failures)
    for failure in failures[:20]:
        print(failure)
    total = sum(counts.values())
    print(f"schema check: {total} messages of {len(counts)} kinds in {len(files)} file(s), {len(failures)} invalid")
    for key, n in sorted(counts.items()):
        print(f"  {key}: {n}")
    sys.exit(1 if failures or total == 0 else 0)


_validators = None


def start_worker(schema_dir):
    global _validators
    _validators = load(schema_dir)


def check_file(path):
    counts, failures = collections.Counter(), []
    check(path, _validators, counts, failures)
    return counts, failures


def check(path, validators, counts, failures):
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            direction, text = line[0], line[2:]
            try:
                message = json.loads(text)
            except ValueError as e:
                failures.append(f"{path.name} line {number}: not JSON ({e}): {text[:200]}")
                continue
            kind = message.get("type") if isinstance(message, dict) else None
            validator = validators[direction].get(kind)
            if validator is None:
                failures.append(f"{path.name} line {number}: no {direction} schema for type {kind!r}: {text[:200]}")
                continue
            errors = sorted(validator.iter_errors(message), key=lambda e: list(e.path))
            if errors:
                where = "/".join(str(p) for p in errors[0].path)
                failures.append(f"{path.name} line {number}: {kind} at '{where}': {errors[0].message}: {text[:300]}")
            counts[direction + " " + kind] += 1


if __name__ == "__main__":
    main()
