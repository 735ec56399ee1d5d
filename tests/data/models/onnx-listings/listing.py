#!/usr/bin/env python3
"""The tensors of an ONNX model as protoc decodes it, independently of QuantScope's reader.

    protoc --decode=onnx.ModelProto -I/usr/include onnx/onnx.proto < MODEL.onnx | python3 listing.py > MODEL.tsv

One line per initializer and Constant value, graph by graph (initializers first, then the
nodes in order, descending into graph attributes where the node stands):
name <TAB> shape <TAB> dtype <TAB> origin.
"""
import sys

DTYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64", 8: "string",
          9: "bool", 10: "float16", 11: "float64", 12: "uint32", 13: "uint64", 16: "bfloat16"}


def parse(text):
    root = []
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.endswith("{"):
            node = (line[:-1].strip(), [])
            stack[-1].append(node)
            stack.append(node[1])
        elif line == "}":
            stack.pop()
        else:
            key, value = line.split(":", 1)
            stack[-1].append((key.strip(), value.strip()))
    return root


def get(children, key):
    return [v for k, v in children if k == key]


def text(children, key, default=""):
    values = get(children, key)
    return values[0].strip('"') if values else default


def row(name, tensor, origin):
    dims = ",".join(get(tensor, "dims"))
    dtype = int(get(tensor, "data_type")[0])
    print(f"{name}\t[{dims}]\t{DTYPES.get(dtype, dtype)}\t{origin}")


def walk(graph, prefix):
    for init in get(graph, "initializer"):
        row(text(init, "name"), init, prefix + "initializer")
    for node in get(graph, "node"):
        op, name = text(node, "op_type"), text(node, "name")
        for attribute in get(node, "attribute"):
            attr = text(attribute, "name")
            if op == "Constant" and attr == "value":
                row(text(node, "output"), get(attribute, "t")[0], prefix + "Constant node" + (f" '{name}'" if name else ""))
            here = prefix + (f"{op} '{name}' {attr}" if name else f"{op} {attr}")
            for g in get(attribute, "g"):
                walk(g, here + " \u203a ")
            for k, g in enumerate(get(attribute, "graphs")):
                walk(g, f"{here} {k} \u203a ")


walk(get(parse(sys.stdin.read()), "graph")[0], "")
