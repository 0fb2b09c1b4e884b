"""Write bleukit/variants/table.py: the built-in variants as bleukit.config.schema
validates them, so that loading one by name needs neither PyYAML nor
pydantic. Run it after changing a built-in YAML file (tests/test_loading.py
fails until the table matches).

    python scripts/build_variant_table.py
"""

from __future__ import annotations

import pprint
from pathlib import Path

from bleukit.metrics.registry import validated_builtins

TABLE = Path(__file__).resolve().parents[1] / "bleukit" / "variants" / "table.py"

HEADER = '''"""The built-in variants, validated (generated from the YAML files beside
this module by scripts/build_variant_table.py: do not edit)."""

from typing import Any

BUILTIN: dict[str, dict[str, Any]] = '''


def main() -> None:
    body = pprint.pformat(validated_builtins(), width=88, sort_dicts=False)
    TABLE.write_text(HEADER + body + "\n", encoding="utf-8")
    print(f"wrote {TABLE}")


if __name__ == "__main__":
    main()
