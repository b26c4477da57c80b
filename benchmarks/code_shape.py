"""The package's shape, counted the same way before and after a refactoring (issue 49).

Usage: ``python benchmarks/code_shape.py [--list] [--json FILE]``

Prints, for ``spider_solver/``:

* functions taking more than ``MAX_PARAMETERS`` parameters (``self``/``cls`` left out,
  ``*args``/``**kwargs`` counted), click commands apart (a function decorated with
  ``@...command(...)`` takes one parameter per option);
* the largest module and the largest function, in lines (a function's lines run from its
  ``def`` to its last line, decorators and docstring included);
* annotations that carry a result as a dict: a dataclass field, an attribute or a
  return annotated with ``dict``/``Mapping`` (bare or parameterised) in a module that
  makes, stores, prints or serves a result (``RESULT_MODULES``); an argument annotation
  is not counted (a ``to_dict``'s return and a ``from_dict``'s argument are the JSON edge,
  listed apart).

``--list`` names each one; ``--json FILE`` writes the figures.
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "spider_solver"
MAX_PARAMETERS = 8
#: Where results are made, carried, printed or served (not the rules, the kernels' tables,
#: the catalog's SQL rows or configuration).
RESULT_MODULES = ("analysis", "verify", "record", "outcomes", "engine/driver", "engine/beam", "batch", "grading",
                  "cli", "service", "export")
#: Functions that are the JSON or HTTP edge: they turn a record into plain data.
EDGE_FUNCTIONS = {"to_dict", "summary_dict", "to_json"}


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return len(names) + (args.vararg is not None) + (args.kwarg is not None)


def _is_click_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("command", "group"):
            return True
    return False


def _mentions_dict(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id in ("dict", "Dict", "Mapping"):
            return True
        if isinstance(node, ast.Attribute) and node.attr in ("Dict", "Mapping"):
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "dict" in node.value:
            return True
    return False


def _in_result_module(relative: str) -> bool:
    return any(relative.startswith(prefix) for prefix in RESULT_MODULES)


def measure() -> dict:
    wide, commands, dict_fields, edges = [], [], [], []
    modules, functions = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        modules.append((len(text.splitlines()), relative))
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                functions.append((node.end_lineno - start + 1, f"{relative}:{node.lineno} {node.name}"))
                count = _parameters(node)
                if count > MAX_PARAMETERS:
                    (commands if _is_click_command(node) else wide).append((count, f"{relative}:{node.lineno} "
                                                                                   f"{node.name}"))
                if _in_result_module(relative) and _mentions_dict(node.returns):
                    (edges if node.name in EDGE_FUNCTIONS else dict_fields).append(
                        f"{relative}:{node.lineno} {node.name}() -> {ast.unparse(node.returns)}")
            elif isinstance(node, ast.ClassDef) and _in_result_module(relative):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and _mentions_dict(item.annotation):
                        dict_fields.append(f"{relative}:{item.lineno} {node.name}."
                                           f"{ast.unparse(item.target)}: {ast.unparse(item.annotation)}")
            if (isinstance(node, ast.AnnAssign) and _in_result_module(relative)
                    and isinstance(node.target, ast.Attribute) and _mentions_dict(node.annotation)):
                dict_fields.append(f"{relative}:{node.lineno} {ast.unparse(node.target)}: "
                                   f"{ast.unparse(node.annotation)}")
    wide.sort(reverse=True)
    commands.sort(reverse=True)
    return {
        "functions_over_8_parameters": len(wide), "wide": wide,
        "click_commands_over_8_parameters": len(commands), "commands": commands,
        "largest_module": max(modules), "largest_function": max(functions),
        "modules_over_300_lines": sorted((m for m in modules if m[0] > 300), reverse=True),
        "dict_annotations": len(dict_fields), "dict_fields": dict_fields, "edges": edges,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name each function and annotation")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    figures = measure()
    wide = figures["functions_over_8_parameters"]
    print(f"functions over {MAX_PARAMETERS} parameters (click commands aside): {wide}")
    print(f"click commands over {MAX_PARAMETERS} parameters: {figures['click_commands_over_8_parameters']}")
    print(f"largest module: {figures['largest_module'][1]} ({figures['largest_module'][0]} lines)")
    print(f"largest function: {figures['largest_function'][1]} ({figures['largest_function'][0]} lines)")
    print(f"modules over 300 lines: {len(figures['modules_over_300_lines'])}")
    print(f"dict-typed result annotations (fields, attributes, returns): {figures['dict_annotations']}")
    print(f"JSON-edge functions returning a dict: {len(figures['edges'])}")
    if args.list:
        for title, key in (("functions", "wide"), ("click commands", "commands"),
                           ("modules over 300 lines", "modules_over_300_lines")):
            print(f"\n{title}:")
            for count, name in figures[key]:
                print(f"  {count:4} {name}")
        print("\ndict-typed result annotations:")
        for name in figures["dict_fields"]:
            print(f"  {name}")
        print("\nJSON edges:")
        for name in figures["edges"]:
            print(f"  {name}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
