#!/usr/bin/env python3
"""Checks, without an Apple machine, that a package builds for the Apple minimums it declares.

Most AutoMap users build for iOS and macOS, with a deployment target below the newest systems;
this machine runs Linux, where the compiler checks no Apple availability at all. So this audit
does what the compiler would do on a Mac, from two things the toolchain here already has:

- what each API needs: the symbol graphs of the toolchain's modules (Swift, _Concurrency,
  Synchronization, Observation, FoundationEssentials, ...), made by `swift-symbolgraph-extract`,
  give each symbol's `introduced` version on macOS, iOS, tvOS, watchOS and visionOS (a member
  without its own inherits its type's);
- what the package uses: the index store a debug build writes gives every reference, with the
  declaration it sits in.

A reference to a symbol introduced after the package's minimum (its `platforms:`), the
toolchain's or the package's own, fails the audit unless it is guarded as the compiler would
require on an Apple system:
- the declaration it sits in (or one enclosing that) is marked `@available` with at least that
  version (from the package's own symbol graphs, extensions included); or
- it lies in the block of an `if #available(...)`, or after a `guard #available(...) else {}`
  in its block, naming at least that version (read from the source text).

Usage: Scripts/availability-audit.py [--package DIR] [--scratch-path DIR] [--self-test]
--self-test audits Scripts/AvailabilityAuditFixture, a package with unguarded uses of `Mutex`
among guarded ones, and fails unless the audit reports exactly the lines marked
`// audit: flagged` there.

Needs: the Swift toolchain on PATH, and its libIndexStore.so (found next to `swift`).
"""

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The symbol graphs' availability domains, spelled as SwiftPM's `platforms:` spells them.
DOMAINS = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
# The toolchain modules whose APIs have Apple availability worth checking.
TOOLCHAIN_MODULES = ["Swift", "_Concurrency", "Synchronization", "Observation",
                     "_StringProcessing", "RegexBuilder", "FoundationEssentials",
                     "FoundationInternationalization", "Foundation", "Dispatch", "Testing"]

ROLE_REFERENCE = 1 << 2
ROLE_IMPLICIT = 1 << 8
ROLE_REL_CHILDOF = 1 << 9
ROLE_REL_CALLEDBY = 1 << 13
ROLE_REL_ACCESSOROF = 1 << 15
ROLE_REL_CONTAINEDBY = 1 << 16
CONTAINING_ROLES = ROLE_REL_CHILDOF | ROLE_REL_CALLEDBY | ROLE_REL_ACCESSOROF | ROLE_REL_CONTAINEDBY


def version_tuple(text):
  """(major, minor, patch) of "13", "13.4" or "13.4.1"."""
  parts = [int(part) for part in text.split(".")]
  return tuple(parts + [0] * (3 - len(parts)))


def show(version):
  return ".".join(str(part) for part in version)


# MARK: Minimums


def declared_minimums(package_dir):
  """The package's `platforms:` minimums, per domain; a domain it does not name is unchecked."""
  with open(os.path.join(package_dir, "Package.swift")) as file:
    text = file.read()
  minimums = {}
  for name, version in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*\.v([0-9_]+)\s*\)",
                                  text):
    minimums[name] = version_tuple(version.replace("_", "."))
  for name, version in re.findall(
      r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*\"([0-9.]+)\"\s*\)", text):
    minimums[name] = version_tuple(version)
  return minimums


# MARK: Symbol graphs


def availability_of(symbol):
  """{domain: introduced} and the domains where the symbol is unavailable."""
  introduced, unavailable = {}, set()
  for entry in symbol.get("availability", []):
    domain = entry.get("domain")
    if domain not in DOMAINS:
      continue
    if entry.get("isUnconditionallyUnavailable") or "obsoleted" in entry:
      unavailable.add(domain)
    if "introduced" in entry:
      parts = entry["introduced"]
      introduced[domain] = (parts.get("major", 0), parts.get("minor", 0), parts.get("patch", 0))
  return introduced, unavailable


def load_graphs(directory, table, parents, defaults, declarations, generated):
  """Reads every symbol graph in `directory` into `table` (USR -> availability), `parents` (USR
  -> the USR of the type, protocol or extension it is a member of) and `defaults` (a protocol
  requirement's USR -> its default implementations' USRs) and `declarations` (file -> [(line,
  USR)] of the declarations it holds, extension blocks included) and `generated` (the USRs of
  declarations a macro made)."""
  for name in sorted(os.listdir(directory)):
    if not name.endswith(".symbols.json"):
      continue
    with open(os.path.join(directory, name)) as file:
      graph = json.load(file)
    for symbol in graph.get("symbols", []):
      usr = symbol["identifier"]["precise"]
      if "::SYNTHESIZED::" in usr:  # a protocol's member shown on each conforming type
        continue
      location = symbol.get("location")
      # Declarations a macro made (their names start with `$`) are skipped: what they hold
      # belongs to the declaration the macro is attached to.
      if symbol["names"]["title"].startswith("$"):
        generated.add(usr)
      elif location:
        path = os.path.realpath(location["uri"].removeprefix("file://"))
        declarations.setdefault(path, []).append((location["position"]["line"] + 1, usr))
      introduced, unavailable = availability_of(symbol)
      known = table.get(usr)
      if known:  # the same symbol in two graphs: keep what both say
        for domain, version in known[0].items():
          introduced[domain] = max(version, introduced.get(domain, version))
        unavailable |= known[1]
      table[usr] = (introduced, unavailable)
    for relation in graph.get("relationships", []):
      kind = relation.get("kind")
      if kind in ("memberOf", "optionalRequirementOf", "requirementOf", "extensionTo"):
        parents.setdefault(relation["source"], relation["target"])
      elif kind == "defaultImplementationOf":
        defaults.setdefault(relation["target"], []).append(relation["source"])


def extract(module, output, include_paths, access_level=None):
  command = ["swift-symbolgraph-extract", "-module-name", module, "-target", target_triple(),
             "-output-dir", output, "-skip-inherited-docs"]
  for path in include_paths:
    command += ["-I", path]
  if access_level:  # the package's own modules: extensions too, with their `@available`
    command += ["-minimum-access-level", access_level, "-emit-extension-block-symbols"]
  result = subprocess.run(command, capture_output=True, text=True)
  if result.returncode != 0:
    sys.exit(f"availability-audit: swift-symbolgraph-extract failed for {module}:\n"
             f"{result.stderr[-2000:]}")


_triple = None


def target_triple():
  global _triple
  if _triple is None:
    info = json.loads(subprocess.run(["swiftc", "-print-target-info"], capture_output=True,
                                     text=True, check=True).stdout)
    _triple = info["target"]["triple"]
  return _triple


def toolchain_lib():
  swift = os.path.realpath(shutil.which("swiftc") or sys.exit("availability-audit: no swiftc"))
  return os.path.join(os.path.dirname(os.path.dirname(swift)), "lib")


def toolchain_graphs(cache):
  """The toolchain modules' symbol graphs, extracted once per toolchain into `cache`."""
  version = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout
  stamp = os.path.join(cache, "toolchain-version")
  if os.path.exists(stamp) and open(stamp).read() == version:
    return cache
  shutil.rmtree(cache, ignore_errors=True)
  os.makedirs(cache)
  platform_dir = os.path.join(toolchain_lib(), "swift", sys.platform.rstrip("0123456789"))
  for module in TOOLCHAIN_MODULES:
    if os.path.exists(os.path.join(platform_dir, module + ".swiftmodule")):
      extract(module, cache, [platform_dir])
  with open(stamp, "w") as file:
    file.write(version)
  return cache


class Graphs:
  """Availability of the symbols of a set of symbol graphs."""

  def __init__(self, *directories):
    self.table, self.parents, self.defaults, self.declarations = {}, {}, {}, {}
    self.generated = set()
    for directory in directories:
      load_graphs(directory, self.table, self.parents, self.defaults, self.declarations,
                  self.generated)
    for entries in self.declarations.values():
      entries.sort()

  def declaration_from(self, path, line):
    """The first declaration in `path` on `line` or after it."""
    for at, usr in self.declarations.get(path, []):
      if at >= line:
        return usr
    return None

  def knows(self, usr):
    """Whether `usr` is a declaration of these graphs that a macro did not make."""
    usr = usr if usr in self.table else self.declaration_of_accessor(usr)
    return usr in self.table and usr not in self.generated

  @staticmethod
  def declaration_of_accessor(usr):
    """A property's or subscript's USR for the USR of one of its accessors (getter `vg`,
    setter `vs`, `init` `vi`, ...), which symbol graphs do not list; other USRs unchanged."""
    if len(usr) > 2 and usr[-2] in "vi" and usr[-1] in "gsMirwWaluxy":
      return usr[:-1] + "p"
    return usr

  def needs(self, usr):
    """What using `usr` needs: ({domain: introduced}, {domains where it is unavailable}), the
    latest of its own and its enclosing declarations'. A protocol requirement that is newer
    than one of its default implementations needs only what that implementation needs: code
    built for an older system calls the implementation."""
    introduced, unavailable = self._own_and_parents(usr)
    for default in self.defaults.get(usr, []):
      other, other_unavailable = self._own_and_parents(default)
      for domain in list(introduced):
        introduced[domain] = min(introduced[domain], other.get(domain, (0, 0, 0)))
      unavailable &= other_unavailable
    return introduced, unavailable

  def _own_and_parents(self, usr):
    introduced, unavailable = {}, set()
    seen = set()
    usr = self.declaration_of_accessor(usr) if usr not in self.table else usr
    while usr and usr not in seen:
      seen.add(usr)
      own = self.table.get(usr)
      if own:
        for domain, version in own[0].items():
          introduced[domain] = max(version, introduced.get(domain, version))
        unavailable |= own[1]
      usr = self.parents.get(usr)
    return introduced, unavailable


# MARK: #available blocks


def available_blocks(path):
  """[(first line, last line, {domain: version})] of the code an `if #available(...)` or a
  `guard #available(...)` covers in a Swift file. Strings and comments are skipped; the
  scanner knows braces, not the whole grammar, which is all the two forms need."""
  with open(path) as file:
    text = file.read()
  tokens = []  # (kind, value, line): "{", "}", "else", "#available", "if", "guard"
  index, line, length = 0, 1, len(text)
  while index < length:
    char = text[index]
    if char == "\n":
      line += 1
      index += 1
    elif text.startswith("//", index):
      index = text.find("\n", index)
      index = length if index < 0 else index
    elif text.startswith("/*", index):
      depth, index = 1, index + 2
      while index < length and depth:
        if text.startswith("/*", index):
          depth, index = depth + 1, index + 2
        elif text.startswith("*/", index):
          depth, index = depth - 1, index + 2
        else:
          line += text[index] == "\n"
          index += 1
    elif char == '"' or (char == "#" and re.match(r'#+"', text[index:])):
      hashes = len(re.match(r'#*', text[index:]).group())
      index += hashes
      quote = '"""' if text.startswith('"""', index) else '"'
      index += len(quote)
      closing = quote + "#" * hashes
      while index < length and not text.startswith(closing, index):
        if text[index] == "\\" and not hashes:
          index += 1
        line += text[index] == "\n"
        index += 1
      index += len(closing)
    elif char in "{}()":
      tokens.append((char, char, line))
      index += 1
    elif char == "#" or char.isalpha() or char == "_":
      match = re.match(r"#?[A-Za-z_][A-Za-z0-9_]*", text[index:])
      word = match.group()
      if word in ("if", "guard", "else", "#available"):
        tokens.append((word, word, line))
      if word == "#available":
        close = text.find(")", index)
        tokens[-1] = (word, text[index + len(word):close + 1], line)
      index += len(word)
    else:
      index += 1

  def matching(position):
    """The position of the `}` closing the `{` at `position`."""
    depth = 0
    for other in range(position, len(tokens)):
      depth += {"{": 1, "}": -1}.get(tokens[other][0], 0)
      if depth == 0:
        return other
    return len(tokens) - 1

  def enclosing_end(position):
    depth = 0
    for other in range(position, len(tokens)):
      depth += {"{": 1, "}": -1}.get(tokens[other][0], 0)
      if depth < 0:
        return tokens[other][2]
    return line

  blocks = []
  for position, (kind, value, at) in enumerate(tokens):
    if kind != "#available" or position == 0 or tokens[position - 1][0] not in ("if", "guard"):
      continue
    versions = {}
    for domain, version in re.findall(r"(macOS|iOS|tvOS|watchOS|visionOS)\s+([0-9.]+)", value):
      versions[domain] = version_tuple(version)
    opening = next((other for other in range(position + 1, len(tokens))
                    if tokens[other][0] == "{"), None)
    if opening is None:
      continue
    end = matching(opening)
    if tokens[position - 1][0] == "if":
      blocks.append((tokens[opening][2], tokens[end][2], versions))
    else:  # guard: from the end of its `else` block to the end of the enclosing block
      blocks.append((tokens[end][2], enclosing_end(end + 1), versions))
  return blocks


# MARK: Index store


class StringRef(ctypes.Structure):
  _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

  def text(self):
    return ctypes.string_at(self.data, self.length).decode() if self.length else ""


Applier = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)
NameApplier = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, StringRef)


class IndexStore:
  def __init__(self, path):
    library = ctypes.CDLL(os.path.join(toolchain_lib(), "libIndexStore.so"))
    self.lib = library
    p = ctypes.c_void_p
    signatures = {
        "indexstore_store_create": (p, [ctypes.c_char_p, ctypes.POINTER(p)]),
        "indexstore_store_units_apply_f": (ctypes.c_bool, [p, ctypes.c_uint, p, NameApplier]),
        "indexstore_unit_reader_create": (p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
        "indexstore_unit_reader_dispose": (None, [p]),
        "indexstore_unit_reader_get_module_name": (StringRef, [p]),
        "indexstore_unit_reader_get_main_file": (StringRef, [p]),
        "indexstore_unit_reader_dependencies_apply_f": (ctypes.c_bool, [p, p, Applier]),
        "indexstore_unit_dependency_get_kind": (ctypes.c_int, [p]),
        "indexstore_unit_dependency_get_name": (StringRef, [p]),
        "indexstore_unit_dependency_get_filepath": (StringRef, [p]),
        "indexstore_record_reader_create": (p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
        "indexstore_record_reader_dispose": (None, [p]),
        "indexstore_record_reader_occurrences_apply_f": (ctypes.c_bool, [p, p, Applier]),
        "indexstore_occurrence_get_symbol": (p, [p]),
        "indexstore_occurrence_get_roles": (ctypes.c_uint64, [p]),
        "indexstore_occurrence_get_line_col": (None, [p, ctypes.POINTER(ctypes.c_uint),
                                                      ctypes.POINTER(ctypes.c_uint)]),
        "indexstore_occurrence_relations_apply_f": (ctypes.c_bool, [p, p, Applier]),
        "indexstore_symbol_relation_get_roles": (ctypes.c_uint64, [p]),
        "indexstore_symbol_relation_get_symbol": (p, [p]),
        "indexstore_symbol_get_usr": (StringRef, [p]),
        "indexstore_symbol_get_name": (StringRef, [p]),
        "indexstore_error_get_description": (ctypes.c_char_p, [p]),
    }
    for name, (restype, argtypes) in signatures.items():
      function = getattr(library, name)
      function.restype = restype
      function.argtypes = argtypes
    error = p()
    self.store = library.indexstore_store_create(path.encode(), ctypes.byref(error))
    if not self.store:
      sys.exit(f"availability-audit: cannot open the index store at {path}: "
               f"{library.indexstore_error_get_description(error)}")

  def units(self):
    names = []
    callback = NameApplier(lambda _, name: names.append(name.text()) or True)
    self.lib.indexstore_store_units_apply_f(self.store, 0, None, callback)
    return names

  def records_of_unit(self, unit):
    """(module name, [(record name, source path)]) of one unit."""
    lib = self.lib
    error = ctypes.c_void_p()
    reader = lib.indexstore_unit_reader_create(self.store, unit.encode(), ctypes.byref(error))
    if not reader:
      return None, []
    module = lib.indexstore_unit_reader_get_module_name(reader).text()
    records = []

    def each(_, dependency):
      if lib.indexstore_unit_dependency_get_kind(dependency) == 2:  # a record
        records.append((lib.indexstore_unit_dependency_get_name(dependency).text(),
                        lib.indexstore_unit_dependency_get_filepath(dependency).text()))
      return True

    lib.indexstore_unit_reader_dependencies_apply_f(reader, None, Applier(each))
    lib.indexstore_unit_reader_dispose(reader)
    return module, records

  def references(self, record):
    """Each reference in a record: (USR, name, line, column, [containing USRs])."""
    lib = self.lib
    error = ctypes.c_void_p()
    reader = lib.indexstore_record_reader_create(self.store, record.encode(), ctypes.byref(error))
    if not reader:
      return []
    found = []

    def each(_, occurrence):
      roles = lib.indexstore_occurrence_get_roles(occurrence)
      if not roles & ROLE_REFERENCE:
        return True
      symbol = lib.indexstore_occurrence_get_symbol(occurrence)
      name = lib.indexstore_symbol_get_name(symbol).text()
      # `for await` calls `next(isolation:)` where the deployment target has it and `next()`
      # below: the compiler chooses, so its implicit call is never a mistake.
      if roles & ROLE_IMPLICIT and name == "next(isolation:)":
        return True
      line, column = ctypes.c_uint(), ctypes.c_uint()
      lib.indexstore_occurrence_get_line_col(occurrence, ctypes.byref(line), ctypes.byref(column))
      containers = []

      def relation(_, related):
        if lib.indexstore_symbol_relation_get_roles(related) & CONTAINING_ROLES:
          other = lib.indexstore_symbol_relation_get_symbol(related)
          containers.append(lib.indexstore_symbol_get_usr(other).text())
        return True

      lib.indexstore_occurrence_relations_apply_f(occurrence, None, Applier(relation))
      found.append((lib.indexstore_symbol_get_usr(symbol).text(), name, line.value,
                    column.value, containers))
      return True

    lib.indexstore_record_reader_occurrences_apply_f(reader, None, Applier(each))
    lib.indexstore_record_reader_dispose(reader)
    return found


# MARK: The audit


def build(package_dir, scratch):
  """A debug build of every target, tests included, that writes an index store."""
  command = ["swift", "build", "--build-tests", "--package-path", package_dir,
             "--enable-index-store"]
  if scratch:
    command += ["--scratch-path", scratch]
  print("availability-audit: " + " ".join(command), flush=True)
  result = subprocess.run(command, capture_output=True, text=True)
  if result.returncode != 0:
    sys.exit(f"availability-audit: the build failed:\n{result.stdout[-4000:]}{result.stderr[-4000:]}")
  result = subprocess.run(command + ["--show-bin-path"], capture_output=True, text=True,
                          check=True)
  return result.stdout.strip()


def audit(package_dir, scratch=None):
  """Returns the list of violations, each a printable line."""
  package_dir = os.path.realpath(package_dir)
  minimums = declared_minimums(package_dir)
  if not minimums:
    return [f"{package_dir}/Package.swift declares no Apple minimums in `platforms:`"]
  bin_path = build(package_dir, scratch)
  store_path = os.path.join(bin_path, "index", "store")
  cache = os.path.join(os.path.dirname(bin_path), "availability-audit")
  toolchain = Graphs(toolchain_graphs(os.path.join(cache, "toolchain")))

  store = IndexStore(store_path)
  by_module = {}
  for unit in store.units():
    module, records = store.records_of_unit(unit)
    for record, source in records:
      path = os.path.realpath(source)
      # Only this package's own sources, still present (the store keeps units of old builds).
      if path.startswith(package_dir + os.sep) and os.path.exists(path) and \
          f"{os.sep}.build" not in path[len(package_dir):]:
        by_module.setdefault(module, {})[record] = path

  own = os.path.join(cache, "package")
  shutil.rmtree(own, ignore_errors=True)
  os.makedirs(own)
  platform_dir = os.path.join(toolchain_lib(), "swift", sys.platform.rstrip("0123456789"))
  # The package's C targets: each `.build` folder with a module map SwiftPM generated.
  includes = [os.path.join(bin_path, "Modules"), platform_dir] + [
      os.path.join(bin_path, name) for name in sorted(os.listdir(bin_path))
      if os.path.exists(os.path.join(bin_path, name, "module.modulemap"))]
  for module in sorted(by_module):
    if os.path.exists(os.path.join(bin_path, "Modules", module + ".swiftmodule")):
      extract(module, own, includes, "private")
  package = Graphs(own)

  guards, sources = {}, {}
  violations, checked = set(), 0
  for module, records in sorted(by_module.items()):
    for record, path in sorted(records.items(), key=lambda item: item[1]):
      for usr, name, line, column, containers in store.references(record):
        checked += 1
        needed, unavailable = toolchain.needs(usr)
        own_needs, own_unavailable = package.needs(usr)
        for domain, version in own_needs.items():
          needed[domain] = max(version, needed.get(domain, version))
        unavailable |= own_unavailable
        too_new = {domain: version for domain, version in needed.items()
                   if domain in minimums and version > minimums[domain]}
        gone = [domain for domain in unavailable if domain in minimums]
        if not too_new and not gone:
          continue
        if path not in guards:
          guards[path] = available_blocks(path)
        if too_new and not gone and any(
            first <= line <= last and all(versions.get(domain, (0,)) >= version
                                          for domain, version in too_new.items())
            for first, last, versions in guards[path]):
          continue
        containers = [usr for usr in containers if package.knows(usr)]
        if not containers:
          # Where the index names no container, or only code a macro generated: the type an
          # `extension` line names, and the attributes and macros of a declaration
          # (`@Observable`, `@Test`), belong to the declaration that starts there or follows.
          if line not in sources.setdefault(path, {}):
            sources[path] = dict(enumerate(open(path).read().split("\n"), start=1))
          text = sources[path].get(line, "")
          if text.lstrip().startswith("@") or re.match(r"\s*(\w+\s+)*extension\b", text):
            containers = [package.declaration_from(path, line)]
        if too_new and not gone and any(
            covers(package, container, too_new) for container in containers if container):
          continue
        where = os.path.relpath(path, package_dir)
        needs = ", ".join(f"{domain} {show(version)}" for domain, version in sorted(too_new.items()))
        if gone:
          needs = ", ".join(filter(None, [needs, "unavailable on " + ", ".join(sorted(gone))]))
        violations.add(f"{where}:{line}:{column}: `{name}` needs {needs}")
  print(f"availability-audit: {checked} references in "
        f"{sum(len(records) for records in by_module.values())} files of "
        f"{', '.join(sorted(filter(None, by_module)))} checked against "
        + ", ".join(f"{domain} {show(version)}" for domain, version in sorted(minimums.items())))
  return sorted(violations)


def covers(package, container, too_new):
  """Whether declaration `container` (or one enclosing it) is `@available` from every version in
  `too_new` on."""
  available, _ = package.needs(container)
  return all(available.get(domain, (0,)) >= version for domain, version in too_new.items())


def self_test(scratch):
  """Audits the fixture package and compares what it reports with the lines marked
  `// audit: flagged` there: every such line reported, and nothing else."""
  here = os.path.dirname(os.path.realpath(__file__))
  fixture = os.path.join(here, "AvailabilityAuditFixture")
  expected = set()
  for folder, _, files in os.walk(os.path.join(fixture, "Sources")):
    for name in files:
      path = os.path.join(folder, name)
      for number, text in enumerate(open(path), start=1):
        if text.rstrip().endswith("// audit: flagged"):
          expected.add(f"{os.path.relpath(path, fixture)}:{number}")
  found = audit(fixture, scratch=scratch)
  print("\n".join(found))
  reported = {":".join(line.split(":")[:2]) for line in found}
  if reported == expected and any("`Mutex`" in line for line in found):
    print(f"availability-audit self-test: passed ({len(expected)} unguarded uses reported, "
          "the guarded ones not)")
    return 0
  print("availability-audit self-test FAILED")
  for line in sorted(expected - reported):
    print(f"  not reported: {line}")
  for line in sorted(reported - expected):
    print(f"  reported but guarded: {line}")
  return 1


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--package", default=os.path.join(os.path.dirname(__file__), ".."))
  parser.add_argument("--scratch-path", default=None)
  parser.add_argument("--self-test", action="store_true")
  arguments = parser.parse_args()
  if arguments.self_test:
    scratch = arguments.scratch_path or tempfile.mkdtemp(prefix="availability-audit-")
    return self_test(scratch)
  violations = audit(arguments.package, scratch=arguments.scratch_path)
  for line in violations:
    print(line)
  if violations:
    print(f"availability-audit: {len(violations)} references to APIs newer than the declared "
          f"minimums without an `@available` or `#available` that covers them")
    return 1
  print("availability-audit: passed")
  return 0


if __name__ == "__main__":
  sys.exit(main())
