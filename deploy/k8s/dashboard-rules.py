"""Writes every query of the chart's Grafana dashboard as a Prometheus recording rule, so that
`promtool check rules` parses each one as PromQL (a typo in a panel fails the check, not a
dashboard an operator opens). Grafana's variables become what they stand for: $namespace and
$service match anything, $__rate_interval is 5m.

Usage: python3 dashboard-rules.py DASHBOARD_JSON > rules.yaml
"""

import json
import sys

dashboard = json.load(open(sys.argv[1]))
print("groups:\n  - name: dashboard\n    rules:")
for number, panel in enumerate(dashboard["panels"]):
    for letter, target in enumerate(panel.get("targets", [])):
        expr = (
            target["expr"]
            .replace("$__rate_interval", "5m")
            .replace("$namespace", ".*")
            .replace("$service", ".*")
        )
        print(f"      - record: dashboard:panel_{number}_{letter}")
        print(f"        expr: {json.dumps(expr)}")
