#!/usr/bin/env python3
"""Parses a metrics page with the Prometheus client library's own text parser (Debian's
python3-prometheus-client) and prints each family's name, type and sample count.

Usage: parse_metrics.py FILE
Exits 1 when the page does not parse or has no families.
"""
import sys

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as e:  # the parser raises ValueError and friends on malformed text
        print(f"metrics page does not parse: {e}", file=sys.stderr)
        return 1
    if not families:
        print("metrics page has no families", file=sys.stderr)
        return 1
    for family in families:
        print(f"{family.name} {family.type} {len(family.samples)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
