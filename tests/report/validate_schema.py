#!/usr/bin/python3
"""ctest report.json_validates_with_jsonschema: validates report.json files against
reports/report.schema.json with python3-jsonschema, a validator independent of iclproof's own
(src/report/json_schema.cpp, which validates every report before writing it). The schema must
also have teeth: the first report with one required field removed, and with a metric value of
the wrong type, must be rejected.

Usage: validate_schema.py SCHEMA REPORT.json [REPORT.json ...]; exit 0 only if all hold."""
import copy
import json
import sys

import jsonschema


def main() -> int:
    schema_path, reports = sys.argv[1], sys.argv[2:]
    with open(schema_path) as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    failed = False
    for path in reports:
        with open(path) as f:
            report = json.load(f)
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for e in errors[:5]:
            print(f"{path}: {'/'.join(map(str, e.path)) or '(top)'}: {e.message}")
        print(f"{path}: {'INVALID' if errors else 'valid'} ({validator_class.__name__})")
        failed |= bool(errors)
    with open(reports[0]) as f:
        report = json.load(f)
    missing = copy.deepcopy(report)
    del missing[schema["required"][0]]
    wrong_type = copy.deepcopy(report)
    wrong_type["properties"][0]["cases"] = "many"
    for name, broken in (("required field removed", missing), ("cases as a string", wrong_type)):
        if validator.is_valid(broken):
            print(f"schema accepts a broken report ({name})")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
