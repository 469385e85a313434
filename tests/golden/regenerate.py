"""Write the expected records of the golden transcripts.

    python tests/golden/regenerate.py            # every <name>.script.json here
    python tests/golden/regenerate.py renege     # just one

Each ``<name>.record.json`` is produced by the independent reference referee
(``tests/reference/referee.py``), never by ``bourre``: the golden test then checks
``bourre replay`` against it.  Look at a record before committing it (README.md here
lists what each transcript shows and which ones were checked by hand).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from tests.reference.referee import referee  # noqa: E402


def dumps(value, indent: int = 0) -> str:
    """JSON with lists of scalars (cards, balances) kept on one line."""
    pad = " " * indent
    if isinstance(value, dict):
        if all(not isinstance(v, (dict, list)) for v in value.values()) or (
            set(value) <= {"seat", "action", "discard", "card", "corrected_to", "type"}
        ):
            return json.dumps(value, ensure_ascii=False)
        items = [f"{pad}  {json.dumps(k)}: {dumps(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value) or all(
            isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v) for v in value
        ):
            return json.dumps(value, ensure_ascii=False)
        items = [f"{pad}  {dumps(v, indent + 2)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def main(names: list[str]) -> None:
    scripts = sorted(HERE.glob("*.script.json"))
    if names:
        scripts = [HERE / f"{n}.script.json" for n in names]
    for path in scripts:
        script = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(dumps(script) + "\n", encoding="utf-8")
        record = referee(json.loads(json.dumps(script)))
        out = path.with_name(path.name.replace(".script.json", ".record.json"))
        out.write_text(dumps(record) + "\n", encoding="utf-8")
        print(f"{out.name}: {len(record['hands'])} hands")


if __name__ == "__main__":
    main(sys.argv[1:])
