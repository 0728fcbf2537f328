#!/usr/bin/env python3
"""Helper of compare_sizes.sh: schema mapping, Granary part sizes, DuckDB through its C API
(ctypes), the TSV -> CSV conversion for DuckDB, the escaping probe, the cross-engine checks and
the report (text table, CSV, SVG). Standard library only.

Subcommands (compare_sizes.sh calls them; each prints usage with -h):
  ch-ddl SCHEMA                       CREATE TABLE for ClickHouse 18.16 (MergeTree, same sort key)
  check-sql SCHEMA ENGINE             the one-row check query (granary|clickhouse|duckdb)
  granary-sizes TABLEDIR OUT.json     bytes per column (sum of c<i>.* over parts), du -sb total
  clickhouse-sizes ...                parses system.parts / system.columns output into JSON
  tsv-to-csv SCHEMA IN OUT            ClickHouse-escaped TSV -> RFC 4180 CSV (strings quoted)
  probe-sql                           Granary SQL for the escaping probe (one row, tricky strings)
  probe-check ...                     compares the probe as read back by each engine
  duckdb-load ...                     loads a DuckDB file database, CHECKPOINT, sizes, checks
  report ...                          the side-by-side table, CSV and SVG
"""

import argparse
import ctypes
import json
import math
import os
import re
import sys

# --------------------------------------------------------------------------------------------
# Types

CH_TYPES = {
    "Int8": "Int8", "Int16": "Int16", "Int32": "Int32", "Int64": "Int64",
    "UInt8": "UInt8", "UInt16": "UInt16", "UInt32": "UInt32", "UInt64": "UInt64",
    "Float32": "Float32", "Float64": "Float64",
    "String": "String", "Date": "Date", "DateTime": "DateTime",
}
# DuckDB: same width and signedness. DateTime (ClickHouse: 4-byte seconds) has no 4-byte
# DuckDB twin: TIMESTAMP is 8-byte microseconds (DuckDB's storage compresses it anyway).
DUCK_TYPES = {
    "Int8": "TINYINT", "Int16": "SMALLINT", "Int32": "INTEGER", "Int64": "BIGINT",
    "UInt8": "UTINYINT", "UInt16": "USMALLINT", "UInt32": "UINTEGER", "UInt64": "UBIGINT",
    "Float32": "REAL", "Float64": "DOUBLE",
    "String": "VARCHAR", "Date": "DATE", "DateTime": "TIMESTAMP",
}
INT_TYPES = {"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"}


def load_schema(path):
    with open(path) as f:
        s = json.load(f)
    for c in s["columns"]:
        if c["type"] not in CH_TYPES:
            sys.exit(f"sizes.py: column {c['name']}: type {c['type']} has no mapping")
    return s


def qi(name, engine):
    return f"`{name}`" if engine == "clickhouse" else f'"{name}"'


# --------------------------------------------------------------------------------------------
# TSV escaping (ClickHouse TabSeparated, which Granary writes)

_UNESCAPE = {b"t": b"\t", b"n": b"\n", b"r": b"\r", b"b": b"\b", b"f": b"\f", b"0": b"\0",
             b"\\": b"\\", b"'": b"'", b"a": b"\a", b"v": b"\v", b"e": b"\x1b"}
_ESC_RE = re.compile(rb"\\(.)", re.S)


def tsv_unescape(field):
    if b"\\" not in field:
        return field
    return _ESC_RE.sub(lambda m: _UNESCAPE.get(m.group(1), m.group(1)), field)


def tsv_fields(line):
    if line.endswith(b"\n"):
        line = line[:-1]
    return [tsv_unescape(f) for f in line.split(b"\t")]


# --------------------------------------------------------------------------------------------
# Checks: one row of aggregates, the same meaning in all three engines

DISTINCT_COLUMNS = ("UserID", "SearchPhrase", "URL")


def check_items(schema):
    """[(label, {engine: expression})]."""
    items = [("count(*)", {e: "count(*)" for e in ("granary", "clickhouse", "duckdb")})]
    names = {c["name"] for c in schema["columns"]}
    for c in schema["columns"]:
        n, t = c["name"], c["type"]
        ex = {e: qi(n, e) for e in ("granary", "clickhouse", "duckdb")}
        items.append((f"min({n})", {e: f"min({x})" for e, x in ex.items()}))
        items.append((f"max({n})", {e: f"max({x})" for e, x in ex.items()}))
        if t in INT_TYPES:
            items.append((f"bitxor({n})", {"granary": f"groupBitXor({ex['granary']})",
                                           # 18.16 takes unsigned integers only
                                           "clickhouse": f"groupBitXor(toUInt64({ex['clickhouse']}))",
                                           "duckdb": f"bit_xor({ex['duckdb']})"}))
        if t == "String":
            items.append((f"sum(bytes({n}))", {"granary": f"sum(length({ex['granary']}))",
                                              "clickhouse": f"sum(length({ex['clickhouse']}))",
                                              "duckdb": f"sum(strlen({ex['duckdb']}))"}))
            items.append((f"count({n} = '')",
                          {e: f"sum(CASE WHEN {x} = '' THEN 1 ELSE 0 END)" for e, x in ex.items()}))
    for n in DISTINCT_COLUMNS:
        if n in names:
            items.append((f"count(DISTINCT {n})",
                          {e: f"count(DISTINCT {qi(n, e)})" for e in ("granary", "clickhouse", "duckdb")}))
    return items


def check_sql(schema, engine, table="hits"):
    items = check_items(schema)
    return "SELECT " + ", ".join(f"{x[engine]} AS k{i}" for i, (_, x) in enumerate(items)) + \
        f" FROM {table}"


def values_equal(a, b, label=""):
    if a == b:
        return True
    if a is None or b is None:
        return False
    if label.startswith("bitxor("):
        # Int16 xor in Granary/DuckDB (its own type) vs UInt64 xor of the sign-extended
        # values in ClickHouse: the same bits once sign-extended to 64.
        try:
            return int(a) % (1 << 64) == int(b) % (1 << 64)
        except ValueError:
            return False
    try:
        fa, fb = float(a), float(b)
    except ValueError:
        return False
    if math.isnan(fa) and math.isnan(fb):
        return True
    return fa == fb or abs(fa - fb) <= 1e-9 * max(abs(fa), abs(fb))


# --------------------------------------------------------------------------------------------
# Granary

def granary_sizes(table_dir):
    schema = load_schema(os.path.join(table_dir, "schema.json"))
    ncol = len(schema["columns"])
    per = [0] * ncol
    other = 0
    total = 0
    files = 0
    pat = re.compile(r"^c(\d+)\.")
    for root, dirs, names in os.walk(table_dir):
        dirs.sort()
        for d in dirs:  # du -sb counts directories too
            total += os.lstat(os.path.join(root, d)).st_size
        for fn in names:
            size = os.lstat(os.path.join(root, fn)).st_size
            total += size
            files += 1
            m = pat.match(fn)
            if m and root != table_dir and int(m.group(1)) < ncol:
                per[int(m.group(1))] += size
            else:
                other += size
    total += os.lstat(table_dir).st_size
    parts = [d for d in os.listdir(table_dir) if os.path.isdir(os.path.join(table_dir, d))]
    return {
        "engine": "Granary",
        "columns": {c["name"]: per[i] for i, c in enumerate(schema["columns"])},
        "total": total,
        "other": total - sum(per),
        "detail": f"{len(parts)} parts, {files} files, storage_format "
                  f"{schema.get('storage_format', '(none given)')}, codecs "
                  f"{','.join(sorted({c.get('codec', '-') for c in schema['columns']}))}",
    }


# --------------------------------------------------------------------------------------------
# DuckDB through the C API

class DuckResult(ctypes.Structure):
    _fields_ = [("deprecated_column_count", ctypes.c_uint64),
                ("deprecated_row_count", ctypes.c_uint64),
                ("deprecated_rows_changed", ctypes.c_uint64),
                ("deprecated_columns", ctypes.c_void_p),
                ("deprecated_error_message", ctypes.c_char_p),
                ("internal_data", ctypes.c_void_p)]


class Duck:
    def __init__(self, lib_path):
        lib = ctypes.CDLL(lib_path)
        vp, R = ctypes.c_void_p, ctypes.POINTER(DuckResult)
        sig = {
            "duckdb_open": ([ctypes.c_char_p, ctypes.POINTER(vp)], ctypes.c_int),
            "duckdb_connect": ([vp, ctypes.POINTER(vp)], ctypes.c_int),
            "duckdb_query": ([vp, ctypes.c_char_p, R], ctypes.c_int),
            "duckdb_destroy_result": ([R], None),
            "duckdb_disconnect": ([ctypes.POINTER(vp)], None),
            "duckdb_close": ([ctypes.POINTER(vp)], None),
            "duckdb_column_count": ([R], ctypes.c_uint64),
            "duckdb_row_count": ([R], ctypes.c_uint64),
            "duckdb_column_name": ([R, ctypes.c_uint64], ctypes.c_char_p),
            "duckdb_result_error": ([R], ctypes.c_char_p),
            "duckdb_value_is_null": ([R, ctypes.c_uint64, ctypes.c_uint64], ctypes.c_bool),
            "duckdb_value_varchar": ([R, ctypes.c_uint64, ctypes.c_uint64], ctypes.c_void_p),
            "duckdb_free": ([vp], None),
            "duckdb_library_version": ([], ctypes.c_char_p),
        }
        for name, (args, res) in sig.items():
            f = getattr(lib, name)
            f.argtypes, f.restype = args, res
        self.lib = lib
        self.db = vp()
        self.con = vp()

    def version(self):
        return self.lib.duckdb_library_version().decode()

    def open(self, path):
        if self.lib.duckdb_open(path.encode() if path else None, ctypes.byref(self.db)) != 0:
            raise RuntimeError(f"duckdb_open({path}) failed")
        if self.lib.duckdb_connect(self.db, ctypes.byref(self.con)) != 0:
            raise RuntimeError("duckdb_connect failed")

    def close(self):
        self.lib.duckdb_disconnect(ctypes.byref(self.con))
        self.lib.duckdb_close(ctypes.byref(self.db))

    def query(self, sql):
        """Rows of strings (None for NULL). Cast nested types to VARCHAR in the SQL."""
        r = DuckResult()
        rp = ctypes.byref(r)
        if self.lib.duckdb_query(self.con, sql.encode(), rp) != 0:
            err = self.lib.duckdb_result_error(rp)
            msg = err.decode("utf-8", "replace") if err else "unknown error"
            self.lib.duckdb_destroy_result(rp)
            raise RuntimeError(f"DuckDB: {msg}\n  in: {sql[:300]}")
        try:
            nc, nr = self.lib.duckdb_column_count(rp), self.lib.duckdb_row_count(rp)
            rows = []
            for i in range(nr):
                row = []
                for j in range(nc):
                    if self.lib.duckdb_value_is_null(rp, j, i):
                        row.append(None)
                        continue
                    p = self.lib.duckdb_value_varchar(rp, j, i)
                    row.append(ctypes.string_at(p).decode("utf-8", "surrogateescape"))
                    self.lib.duckdb_free(p)
                rows.append(row)
            return rows
        finally:
            self.lib.duckdb_destroy_result(rp)


def duck_read_expr(path, schema_cols, fmt):
    """read_csv over Granary's TSV (fmt tsv: only when it has no backslash, i.e. no escapes)
    or over the CSV that tsv-to-csv wrote. An empty field is an empty string, never NULL."""
    cols = ", ".join(f"'{n}': '{t}'" for n, t in schema_cols)
    common = (f"header = false, auto_detect = false, new_line = '\\n', nullstr = '\\x01NULL', "
              f"columns = {{{cols}}}")
    p = path.replace("'", "''")
    if fmt == "tsv":
        return f"read_csv('{p}', delim = '\t', quote = '', escape = '', {common})"
    return (f"read_csv('{p}', delim = ',', quote = '\"', escape = '\"', "
            f"allow_quoted_nulls = false, {common})")


def duck_column_bytes(duck, table, block_size):
    """Per column bytes from pragma_storage_info: every block a column's segments use is
    divided among the segments in it by their offsets (a segment runs to the next one's
    offset, the last to the end of the block), additional blocks count whole. So the sum
    over the columns is (blocks holding table data) x block size."""
    rows = duck.query(
        f"SELECT column_name, block_id, block_offset, CAST(additional_block_ids AS VARCHAR) "
        f"FROM pragma_storage_info('{table}') WHERE block_id >= 0")
    blocks = {}
    per = {}
    for name, bid, off, extra in rows:
        blocks.setdefault(int(bid), []).append((int(off), name))
        for e in re.findall(r"-?\d+", extra or ""):
            if int(e) >= 0:
                per[name] = per.get(name, 0) + block_size
    for bid, segs in blocks.items():
        segs.sort()
        for k, (off, name) in enumerate(segs):
            start = 0 if k == 0 else off
            end = segs[k + 1][0] if k + 1 < len(segs) else block_size
            per[name] = per.get(name, 0) + max(0, end - start)
    return per, len(blocks)


def cmd_duckdb_load(a):
    schema = load_schema(a.schema)
    cols = [(c["name"], DUCK_TYPES[c["type"]]) for c in schema["columns"]]
    for suffix in ("", ".wal"):
        if os.path.exists(a.db + suffix):
            os.remove(a.db + suffix)
    duck = Duck(a.lib)
    out = {"engine": "DuckDB", "version": duck.version()}
    if a.storage_version:
        duck.open(None)
        duck.query(f"ATTACH '{a.db}' AS sizes (STORAGE_VERSION '{a.storage_version}')")
        duck.query("USE sizes")
        out["version"] += f" (STORAGE_VERSION {a.storage_version})"
    else:
        duck.open(a.db)
    duck.query(f"SET threads = {int(a.threads)}")
    ddl = ", ".join(f'"{n}" {t}' for n, t in cols)
    duck.query(f"CREATE TABLE {a.table} ({ddl})")
    log(f"DuckDB: loading {a.input} ({a.format})")
    duck.query(f"INSERT INTO {a.table} SELECT * FROM {duck_read_expr(a.input, cols, a.format)}")
    log("DuckDB: CHECKPOINT")
    duck.query("CHECKPOINT")
    block_size = int(duck.query("SELECT block_size FROM pragma_database_size() LIMIT 1")[0][0])
    used = duck.query("SELECT total_blocks, used_blocks, free_blocks FROM pragma_database_size() "
                      "LIMIT 1")[0]
    per, nblocks = duck_column_bytes(duck, a.table, block_size)
    if a.check_sql:
        log("DuckDB: check query")
        with open(a.check_sql) as f:
            out["checks"] = duck.query(f.read())[0]
    duck.close()
    total = os.path.getsize(a.db)
    wal = a.db + ".wal"
    if os.path.exists(wal):
        total += os.path.getsize(wal)
    out["columns"] = {n: per.get(n, 0) for n, _ in cols}
    out["total"] = total
    out["other"] = total - sum(out["columns"].values())
    out["detail"] = (f"file {total} B; block {block_size} B: {used[0]} total, {used[1]} used, "
                     f"{used[2]} free, {nblocks} hold table segments")
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)


# --------------------------------------------------------------------------------------------
# ClickHouse (the queries run in compare_sizes.sh with clickhouse-client)

def cmd_ch_ddl(a):
    s = load_schema(a.schema)
    cols = ", ".join(f"`{c['name']}` {CH_TYPES[c['type']]}" for c in s["columns"])
    key = ", ".join(f"`{k}`" for k in s.get("sort_key", [])) or ""
    print(f"CREATE TABLE {a.table} ({cols}) ENGINE = MergeTree() ORDER BY ({key})")


def cmd_clickhouse_sizes(a):
    with open(a.parts) as f:
        parts = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    with open(a.columns) as f:
        cols = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    total = sum(int(p[1]) for p in parts)
    rows = sum(int(p[2]) for p in parts)
    columns = {c[0]: int(c[1]) for c in cols}
    out = {"engine": "ClickHouse", "version": a.version, "columns": columns, "total": total,
           "other": total - sum(columns.values()),
           "detail": f"{len(parts)} active part(s), {rows} rows; data dir du -sb {a.du} B"}
    if a.checks:
        with open(a.checks, "rb") as f:
            out["checks"] = [v.decode("utf-8", "surrogateescape") for v in tsv_fields(f.readline())]
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)


# --------------------------------------------------------------------------------------------
# TSV -> CSV for DuckDB (when the TSV holds escapes, which DuckDB's reader does not decode)

def csv_line(fields, is_str):
    """Decoded values -> one CSV line: strings always quoted (so '' is an empty string, not
    NULL, with allow_quoted_nulls = false), quotes doubled; numbers and dates bare."""
    return b",".join(b'"' + f.replace(b'"', b'""') + b'"' if is_str[i] else f
                     for i, f in enumerate(fields)) + b"\n"


def cmd_tsv_to_csv(a):
    s = load_schema(a.schema)
    is_str = [c["type"] == "String" for c in s["columns"]]
    n = len(is_str)
    with open(a.input, "rb") as fi, open(a.output, "wb", buffering=1 << 22) as fo:
        for lineno, line in enumerate(fi, 1):
            fields = tsv_fields(line)
            if len(fields) != n:
                sys.exit(f"sizes.py: {a.input}:{lineno}: {len(fields)} fields, expected {n}")
            fo.write(csv_line(fields, is_str))


# --------------------------------------------------------------------------------------------
# Escaping probe: one row of tricky strings written by Granary's TSV writer, read back by
# ClickHouse (TabSeparated) and by DuckDB (direct TSV for the strings without escapes, the
# CSV conversion for all), compared byte for byte (hex).

PROBE = [
    "tab\there", "new\nline", "cr\rlf\r\n", "back\\slash", "\\N", "quote'single",
    'quote"double', '"', "", "comma,semi;", "bs\b ff\f", "nul\0byte",
    "кириллица и ёж", "trailing\\", "\\t literal", "x" * 300,
]


def granary_literal(s):
    out = []
    for ch in s:
        out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r", "\b": "\\b", "\f": "\\f",
                    "\0": "\\0", "\\": "\\\\", "'": "\\'"}.get(ch, ch))
    return "'" + "".join(out) + "'"


def cmd_probe(a):
    if a.what == "granary-sql":
        print("SELECT " + ", ".join(f"{granary_literal(s)} AS p{i}" for i, s in enumerate(PROBE)))
    elif a.what == "ch-ddl":
        print("CREATE TABLE probe (" + ", ".join(f"p{i} String" for i in range(len(PROBE))) +
              ") ENGINE = TinyLog")
    elif a.what == "ch-sql":
        print("SELECT " + ", ".join(f"hex(p{i})" for i in range(len(PROBE))) + " FROM probe")


def cmd_probe_check(a):
    """Compares the probe as each engine read it; prints one line per engine, exit 1 on any
    difference."""
    expected = [s.encode() for s in PROBE]
    bad = []
    with open(a.granary_tsv, "rb") as f:
        got = tsv_fields(f.readline())
    if got != expected:
        bad.append("Granary TSV (decoded with ClickHouse's escapes): " +
                   "; ".join(f"p{i}={g!r} expected {e!r}" for i, (g, e) in
                             enumerate(zip(got, expected)) if g != e) +
                   ("" if len(got) == len(expected) else f" ({len(got)} fields)"))
    if a.ch_hex:
        with open(a.ch_hex) as f:
            hexes = f.readline().rstrip("\n").split("\t")
        diff = [f"p{i}={bytes.fromhex(h)!r} expected {e!r}" for i, (h, e) in
                enumerate(zip(hexes, expected)) if bytes.fromhex(h) != e]
        if diff or len(hexes) != len(expected):
            bad.append("ClickHouse TabSeparated: " + "; ".join(diff))
    if a.duck_lib:
        # DuckDB reads the CSV that tsv-to-csv makes of Granary's line (every string), and
        # Granary's line itself as TSV with the fields that hold escapes blanked (the direct
        # path compare_sizes.sh takes when the table's TSV has no backslash at all).
        cols = [(f"p{i}", "VARCHAR") for i in range(len(PROBE))]
        csv_path = os.path.join(a.workdir, "probe.csv")
        plain_path = os.path.join(a.workdir, "probe.plain.tsv")
        with open(a.granary_tsv, "rb") as f:
            raw = f.readline().rstrip(b"\n").split(b"\t")
        with open(csv_path, "wb") as f:
            f.write(csv_line(tsv_fields(b"\t".join(raw)), [True] * len(raw)))
        plain = [i for i, v in enumerate(raw) if b"\\" not in v]
        with open(plain_path, "wb") as f:
            f.write(b"\t".join(v if i in plain else b"" for i, v in enumerate(raw)) + b"\n")
        duck = Duck(a.duck_lib)
        duck.open(None)
        for fmt, path, idx in (("csv", csv_path, range(len(PROBE))), ("tsv", plain_path, plain)):
            try:
                row = duck.query("SELECT " + ", ".join(f"hex(p{i})" for i in range(len(cols)))
                                 + " FROM " + duck_read_expr(path, cols, fmt))[0]
                diff = [f"p{i}={bytes.fromhex(row[i] or '')!r} expected {expected[i]!r}"
                        for i in idx if row[i] is None or bytes.fromhex(row[i]) != expected[i]]
                if diff:
                    bad.append(f"DuckDB read_csv ({fmt}): " + "; ".join(diff))
            except RuntimeError as e:
                bad.append(f"DuckDB read_csv ({fmt}): {str(e).splitlines()[0]}")
        duck.close()
    for b in bad:
        log("escaping probe MISMATCH: " + b)
    if not bad:
        log(f"escaping probe: {len(PROBE)} strings (tab, newline, CR, backslash, \\N, quotes, "
            f"NUL, UTF-8, empty) read back identically")
    sys.exit(1 if bad else 0)


# --------------------------------------------------------------------------------------------
# Report

def fmt_bytes(n):
    if n is None:
        return "-"
    return f"{n:,}"


def cmd_report(a):
    schema = load_schema(a.schema)
    engines = []
    for path in (a.granary, a.clickhouse, a.duckdb):
        if path and os.path.exists(path):
            with open(path) as f:
                engines.append(json.load(f))
        else:
            engines.append(None)
    g, c, d = engines
    names = [col["name"] for col in schema["columns"]]
    types = {col["name"]: col["type"] for col in schema["columns"]}
    rows = a.rows
    present = [e for e in engines if e]

    def val(e, n):
        return None if e is None else e["columns"].get(n)

    def ratio(gv, others):
        others = [o for o in others if o is not None]
        if gv is None or not others:
            return None
        return gv / min(others) if min(others) > 0 else math.inf

    table = []
    for n in names:
        gv, cv, dv = val(g, n), val(c, n), val(d, n)
        table.append((n, types[n], gv, cv, dv, ratio(gv, [cv, dv])))
    other = tuple(None if e is None else e["other"] for e in engines)
    total = tuple(None if e is None else e["total"] for e in engines)

    # text table
    out = []
    out.append("")
    out.append("On-disk size of table hits, %s rows" % f"{rows:,}")
    for e in present:
        out.append(f"  {e['engine']:<10} {e.get('version', '')}  {e.get('detail', '')}")
    w = max(len(n) for n in names + ["(not per column)"])
    hdr = f"{'column':<{w}}  {'type':<8} {'Granary':>13} {'ClickHouse':>13} {'DuckDB':>13} {'G/min':>6}"
    out.append("")
    out.append(hdr)
    out.append("-" * len(hdr))

    def line(n, t, gv, cv, dv, r):
        rs = "-" if r is None else f"{r:.2f}"
        return (f"{n:<{w}}  {t:<8} {fmt_bytes(gv):>13} {fmt_bytes(cv):>13} {fmt_bytes(dv):>13} "
                f"{rs:>6}")

    for r in table:
        out.append(line(*r))
    out.append("-" * len(hdr))
    out.append(line("(not per column)", "", *other, None))
    out.append(line("TOTAL", "", *total, ratio(total[0], total[1:])))
    bpr = tuple(None if t is None else t / rows for t in total)
    out.append(f"{'bytes per row':<{w}}  {'':<8} " + " ".join(
        f"{'-' if b is None else f'{b:.1f}':>13}" for b in bpr))
    if total[0] and any(total[1:]):
        best = min((t, e["engine"]) for t, e in zip(total[1:], engines[1:]) if t)
        out.append(f"Granary / min(ClickHouse, DuckDB) = {total[0] / best[0]:.3f} "
                   f"(smallest: {best[1]})")
    out.append("")
    out.append("(not per column): Granary: manifest/schema/metadata.json, key marks; "
               "ClickHouse: marks, primary.idx, checksums (data_compressed_bytes is .bin only); "
               "DuckDB: file header, catalog and metadata blocks, free blocks. DuckDB per column: "
               "its segments' share of 256 KiB blocks (by block_offset), so partly filled blocks "
               "count whole.")
    for e in present:
        top = sorted(e["columns"].items(), key=lambda kv: -kv[1])[:10]
        out.append(f"10 largest columns, {e['engine']}: " +
                   ", ".join(f"{n} {v / 1e6:.2f} MB" for n, v in top))
    print("\n".join(out))

    # checks
    labels = [lab for lab, _ in check_items(schema)]
    checks = {}
    if a.granary_checks and os.path.exists(a.granary_checks):
        with open(a.granary_checks, "rb") as f:
            checks["Granary"] = [v.decode("utf-8", "surrogateescape")
                                 for v in tsv_fields(f.readline())]
    for e in (c, d):
        if e and "checks" in e:
            checks[e["engine"]] = e["checks"]
    mismatches = []
    if len(checks) >= 2:
        names_ = list(checks)
        ref = names_[0]
        for i, lab in enumerate(labels):
            vals = {k: (v[i] if i < len(v) else "<missing>") for k, v in checks.items()}
            if not all(values_equal(vals[ref], vals[k], lab) for k in names_[1:]):
                mismatches.append((lab, vals))
        print()
        if mismatches:
            print(f"CHECK MISMATCHES ({len(mismatches)} of {len(labels)} aggregates differ "
                  f"between {', '.join(names_)}):")
            for lab, vals in mismatches[:40]:
                print(f"  {lab}: " + "  ".join(f"{k}={v!r}" for k, v in vals.items()))
        else:
            distinct = [x for x in DISTINCT_COLUMNS if x in types]
            print(f"checks: {len(labels)} aggregates (count, min/max of every column, bit-xor of "
                  f"integers, byte length and empty count of strings"
                  f"{', count(DISTINCT) of ' + ', '.join(distinct) if distinct else ''}) equal "
                  f"in {', '.join(names_)}")

    # CSV
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("column,type,granary_bytes,clickhouse_bytes,duckdb_bytes,granary_over_min\n")

            def cell(v):
                return "" if v is None else (f"{v:.4f}" if isinstance(v, float) else str(v))

            for r in table:
                f.write(",".join([r[0], r[1]] + [cell(v) for v in r[2:]]) + "\n")
            f.write(",".join(["(not per column)", ""] + [cell(v) for v in other] + [""]) + "\n")
            f.write(",".join(["TOTAL", ""] + [cell(v) for v in total] +
                             [cell(ratio(total[0], total[1:]))]) + "\n")
            f.write(",".join(["bytes_per_row", ""] + [cell(v) for v in bpr] + [""]) + "\n")
    if a.svg:
        write_svg(a.svg, engines, rows, table)
    if a.fail_on_mismatch and mismatches:
        sys.exit(3)


def esc_xml(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_svg(path, engines, rows, table):
    colors = {"Granary": "#3b7dd8", "ClickHouse": "#f2b01e", "DuckDB": "#5a9e4b"}
    present = [e for e in engines if e]
    W = 760
    left = 150
    barw = W - left - 170
    y = 20
    parts = []
    parts.append(f'<text x="{W / 2}" y="{y}" text-anchor="middle" font-size="16" '
                 f'font-weight="bold">On-disk size of hits ({rows:,} rows)</text>')
    y += 20
    maxt = max(e["total"] for e in present)
    for e in present:
        w = barw * e["total"] / maxt
        col = colors.get(e["engine"], "#888")
        parts.append(f'<text x="{left - 8}" y="{y + 17}" text-anchor="end" font-size="13">'
                     f'{esc_xml(e["engine"])}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="24" fill="{col}"/>')
        parts.append(f'<text x="{left + w + 6:.1f}" y="{y + 17}" font-size="12">'
                     f'{e["total"] / 1e6:.1f} MB, {e["total"] / rows:.1f} B/row</text>')
        y += 32
    # largest columns (by the maximum over engines), grouped bars
    y += 16
    top = sorted(table, key=lambda r: -max(v or 0 for v in r[2:5]))[:10]
    parts.append(f'<text x="{W / 2}" y="{y}" text-anchor="middle" font-size="14" '
                 f'font-weight="bold">10 largest columns (MB)</text>')
    y += 12
    maxc = max(max(v or 0 for v in r[2:5]) for r in top) or 1
    for r in top:
        parts.append(f'<text x="{left - 8}" y="{y + 16}" text-anchor="end" font-size="12">'
                     f'{esc_xml(r[0])}</text>')
        for k, e in enumerate(engines):
            v = r[2 + k]
            if e is None or v is None:
                continue
            w = barw * v / maxc
            parts.append(f'<rect x="{left}" y="{y + 1}" width="{w:.1f}" height="7" '
                         f'fill="{colors.get(e["engine"], "#888")}"/>')
            parts.append(f'<text x="{left + w + 4:.1f}" y="{y + 8}" font-size="8">'
                         f'{v / 1e6:.2f}</text>')
            y += 8
        y += 8
    y += 10
    for e in present:
        parts.append(f'<rect x="{left}" y="{y}" width="12" height="12" '
                     f'fill="{colors.get(e["engine"], "#888")}"/>')
        parts.append(f'<text x="{left + 16}" y="{y + 10}" font-size="11">{esc_xml(e["engine"])}: '
                     f'{esc_xml(e.get("version", ""))}</text>')
        y += 16
    y += 8
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{y}" '
           f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n' +
           "\n".join(parts) + "\n</svg>\n")
    with open(path, "w") as f:
        f.write(svg)


# --------------------------------------------------------------------------------------------

def log(msg):
    print(f"[compare_sizes] {msg}", file=sys.stderr, flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sp = p.add_subparsers(dest="cmd", required=True)

    x = sp.add_parser("ch-ddl")
    x.add_argument("schema")
    x.add_argument("--table", default="hits")
    x.set_defaults(func=cmd_ch_ddl)

    x = sp.add_parser("check-sql")
    x.add_argument("schema")
    x.add_argument("engine", choices=["granary", "clickhouse", "duckdb"])
    x.add_argument("--table", default="hits")
    x.set_defaults(func=lambda a: print(check_sql(load_schema(a.schema), a.engine, a.table)))

    x = sp.add_parser("granary-sizes")
    x.add_argument("table_dir")
    x.add_argument("out")
    x.add_argument("--version", default="")

    def run_g(a):
        r = granary_sizes(a.table_dir)
        r["version"] = a.version
        with open(a.out, "w") as f:
            json.dump(r, f, indent=1)
    x.set_defaults(func=run_g)

    x = sp.add_parser("clickhouse-sizes")
    x.add_argument("--parts", required=True, help="TSV: name, bytes_on_disk, rows (active)")
    x.add_argument("--columns", required=True, help="TSV: name, data_compressed_bytes")
    x.add_argument("--checks")
    x.add_argument("--version", default="")
    x.add_argument("--du", default="?")
    x.add_argument("out")
    x.set_defaults(func=cmd_clickhouse_sizes)

    x = sp.add_parser("tsv-to-csv")
    x.add_argument("schema")
    x.add_argument("input")
    x.add_argument("output")
    x.set_defaults(func=cmd_tsv_to_csv)

    x = sp.add_parser("probe")
    x.add_argument("what", choices=["granary-sql", "ch-ddl", "ch-sql"])
    x.set_defaults(func=cmd_probe)

    x = sp.add_parser("probe-check")
    x.add_argument("--granary-tsv", required=True)
    x.add_argument("--ch-hex")
    x.add_argument("--duck-lib")
    x.add_argument("--workdir", default=".")
    x.set_defaults(func=cmd_probe_check)

    x = sp.add_parser("duckdb-load")
    x.add_argument("--lib", required=True)
    x.add_argument("--db", required=True)
    x.add_argument("--schema", required=True)
    x.add_argument("--input", required=True)
    x.add_argument("--format", choices=["tsv", "csv"], required=True)
    x.add_argument("--threads", default=1, type=int)
    x.add_argument("--table", default="hits")
    x.add_argument("--check-sql")
    x.add_argument("--storage-version")
    x.add_argument("--out", required=True)
    x.set_defaults(func=cmd_duckdb_load)

    x = sp.add_parser("report")
    x.add_argument("--schema", required=True)
    x.add_argument("--rows", type=int, required=True)
    x.add_argument("--granary")
    x.add_argument("--granary-checks")
    x.add_argument("--clickhouse")
    x.add_argument("--duckdb")
    x.add_argument("--csv")
    x.add_argument("--svg")
    x.add_argument("--fail-on-mismatch", action="store_true")
    x.set_defaults(func=cmd_report)

    a = p.parse_args()
    a.func(a)


if __name__ == "__main__":
    main()
