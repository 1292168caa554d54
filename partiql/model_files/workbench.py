"""NoSQL Workbench's model format (JSON, versions 1.0, 2.0 and 3.0): read into a ``Model``, and written back from
tables and items (design-time.md §3.1).

Mapping (model unless the spec cites): each table of ``DataModel`` becomes a
CreateTable request — its key and every GSI's key attributes defined once (one
name with two types is an error), an INCLUDE projection without the key
attributes; ``BillingMode`` PROVISIONED gives the table and each GSI the
file's ``ProvisionedThroughput`` (the file has none per GSI) and its
``AutoScalingRead``/``AutoScalingWrite`` become policies for the table *and*
each GSI (AWS's advice); PAY_PER_REQUEST or no billing member is on demand
(the latter said, as Workbench's default since 3.13.5). ``TableData`` of the
table and of its facets are its items, in file order, a later duplicate key
replacing an earlier one; an item without its key is skipped and said.
Facets, sample-data formats and members we do not know are kept as notes.
"""

from __future__ import annotations

import datetime
import json

from .model import Model, ModelError, Policy, expect

TYPES = ("S", "N", "B")
PROJECTIONS = ("ALL", "KEYS_ONLY", "INCLUDE")
TABLE_MEMBERS = ("TableName", "KeyAttributes", "NonKeyAttributes", "GlobalSecondaryIndexes", "TableFacets",
                 "TableData", "DataAccess", "SampleDataFormats", "BillingMode", "ProvisionedCapacitySettings")
TOP_MEMBERS = ("ModelName", "ModelMetadata", "DataModel")
SCALING = {"AutoScalingRead": "read", "AutoScalingWrite": "write"}


def read(document: dict, source: str) -> Model:
    """The Workbench model ``document`` (``source`` names it in errors)."""
    metadata = document.get("ModelMetadata") or {}
    version = metadata.get("Version", "?") if isinstance(metadata, dict) else "?"
    model = Model(str(document.get("ModelName") or "model"), f"NoSQL Workbench {version}")
    model.notes += [f"kept aside: {name} (not a member of Workbench's format)"
                    for name in document if name not in TOP_MEMBERS]
    tables = expect(document["DataModel"], list, f"{source}: DataModel", "a list of tables")
    for n, table in enumerate(tables):
        _table(model, expect(table, dict, f"{source}: DataModel[{n}]", "a table"), f"{source}: DataModel[{n}]")
    return model


def _table(model: Model, table: dict, where: str) -> None:
    name = expect(table.get("TableName"), str, f"{where}.TableName", "the table's name")
    where = f"{where} ({name})"
    model.notes += [f"{name}: kept aside {member} (not a member of Workbench's format)"
                    for member in table if member not in TABLE_MEMBERS]
    types: dict = {}
    request = {"TableName": name, "AttributeDefinitions": [],
               "KeySchema": _keys(table.get("KeyAttributes"), f"{where}.KeyAttributes", types)}
    gsis = []
    for n, index in enumerate(expect(table.get("GlobalSecondaryIndexes", []), list,
                                     f"{where}.GlobalSecondaryIndexes", "a list of indexes")):
        gsis.append(_gsi(expect(index, dict, f"{where}.GlobalSecondaryIndexes[{n}]", "an index"),
                         f"{where}.GlobalSecondaryIndexes[{n}]", types, request["KeySchema"]))
    request["AttributeDefinitions"] = [{"AttributeName": attribute, "AttributeType": kind}
                                       for attribute, kind in types.items()]
    _billing(model, table, request, gsis, where)
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    model.tables.append(request)
    model.items[name] = _items(model, table, [key["AttributeName"] for key in request["KeySchema"]], where)
    for facet in table.get("TableFacets") or []:
        if isinstance(facet, dict):
            alias = facet.get("KeyAttributeAlias") or {}
            others = ", ".join(map(str, facet.get("NonKeyAttributes") or [])) or "no other attributes"
            model.notes.append(f"{name}: facet {facet.get('FacetName')} (keys as {alias.get('PartitionKeyAlias')}"
                               + (f", {alias['SortKeyAlias']}" if alias.get("SortKeyAlias") else "")
                               + f"; {others}): a named view, no DynamoDB meaning")
    for attribute, form in (table.get("SampleDataFormats") or {}).items():
        model.notes.append(f"{name}: sample data format of {attribute}: {form} (the model's items are used as "
                           "they are)")


def _keys(keys, where: str, types: dict) -> list:
    keys = expect(keys, dict, where, "PartitionKey and SortKey")
    schema = []
    for member, role in (("PartitionKey", "HASH"), ("SortKey", "RANGE")):
        if member not in keys:
            if role == "HASH":
                raise ModelError(f"{where} needs PartitionKey")
            continue
        key = expect(keys[member], dict, f"{where}.{member}", "AttributeName and AttributeType")
        attribute = expect(key.get("AttributeName"), str, f"{where}.{member}.AttributeName", "a name")
        kind = key.get("AttributeType")
        if kind not in TYPES:
            raise ModelError(f"{where}.{member}.AttributeType takes S, N or B, not {json.dumps(kind)}")
        if types.setdefault(attribute, kind) != kind:
            raise ModelError(f"{where}.{member}: {attribute} is {kind} here but {types[attribute]} in another key "
                             "of the table")
        schema.append({"AttributeName": attribute, "KeyType": role})
    return schema


def _gsi(index: dict, where: str, types: dict, table_keys: list) -> dict:
    name = expect(index.get("IndexName"), str, f"{where}.IndexName", "the index's name")
    keys = _keys(index.get("KeyAttributes"), f"{where}.KeyAttributes", types)
    projection = expect(index.get("Projection", {"ProjectionType": "ALL"}), dict, f"{where}.Projection",
                        "ProjectionType")
    kind = projection.get("ProjectionType", "ALL")
    if kind not in PROJECTIONS:
        raise ModelError(f"{where}.Projection.ProjectionType takes ALL, KEYS_ONLY or INCLUDE, not {json.dumps(kind)}")
    out = {"IndexName": name, "KeySchema": keys, "Projection": {"ProjectionType": kind}}
    if kind == "INCLUDE":
        # why drop key attributes: DynamoDB refuses them in NonKeyAttributes; one AWS sample lists them
        keyed = {key["AttributeName"] for key in keys + table_keys}
        names = expect(projection.get("NonKeyAttributes", []), list, f"{where}.Projection.NonKeyAttributes",
                       "a list of names")
        out["Projection"]["NonKeyAttributes"] = [n for n in names if n not in keyed]
    return out


def _billing(model: Model, table: dict, request: dict, gsis: list, where: str) -> None:
    mode = table.get("BillingMode")
    name = request["TableName"]
    if mode is None:
        model.notes.append(f"{name}: no BillingMode: on demand (Workbench's default since 3.13.5)")
        mode = "PAY_PER_REQUEST"
    if mode == "PAY_PER_REQUEST":
        request["BillingMode"] = mode
        return
    if mode != "PROVISIONED":
        raise ModelError(f"{where}.BillingMode takes PROVISIONED or PAY_PER_REQUEST, not {json.dumps(mode)}")
    settings = expect(table.get("ProvisionedCapacitySettings", {}), dict, f"{where}.ProvisionedCapacitySettings",
                      "ProvisionedThroughput and auto scaling")
    units = expect(settings.get("ProvisionedThroughput"), dict,
                   f"{where}.ProvisionedCapacitySettings.ProvisionedThroughput",
                   "ReadCapacityUnits and WriteCapacityUnits")
    throughput = {member: _units(units.get(member), f"{where}.ProvisionedCapacitySettings.ProvisionedThroughput."
                                 f"{member}") for member in ("ReadCapacityUnits", "WriteCapacityUnits")}
    request["BillingMode"], request["ProvisionedThroughput"] = mode, throughput
    for gsi in gsis:
        gsi["ProvisionedThroughput"] = dict(throughput)
    for member, dimension in SCALING.items():
        if member in settings:
            _scaling(model, settings[member], f"{where}.ProvisionedCapacitySettings.{member}", name,
                     [None] + [gsi["IndexName"] for gsi in gsis], dimension)


def _scaling(model: Model, entry, where: str, table: str, indexes: list, dimension: str) -> None:
    entry = expect(entry, dict, where, "ScalableTargetRequest and ScalingPolicyConfiguration")
    target = expect(entry.get("ScalableTargetRequest"), dict, f"{where}.ScalableTargetRequest",
                    "MinCapacity and MaxCapacity")
    policy = expect(entry.get("ScalingPolicyConfiguration"), dict, f"{where}.ScalingPolicyConfiguration",
                    "TargetValue")
    low = _units(target.get("MinCapacity"), f"{where}.ScalableTargetRequest.MinCapacity")
    high = _units(target.get("MaxCapacity"), f"{where}.ScalableTargetRequest.MaxCapacity")
    value = policy.get("TargetValue")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ModelError(f"{where}.ScalingPolicyConfiguration.TargetValue takes a percentage, not {json.dumps(value)}")
    for index in indexes:  # why every GSI too: AWS advises the table's settings for its GSIs
        model.policies.append(Policy(table, index, dimension, low, high, float(value)))


def _units(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ModelError(f"{where} takes a whole number of capacity units >= 1, not {json.dumps(value)}")
    return value


def _items(model: Model, table: dict, keys: list, where: str) -> list:
    """The table's items and its facets', in file order, a later one with the same key replacing an earlier."""
    found: dict = {}
    sources = [(f"{where}.TableData", table.get("TableData") or [])]
    sources += [(f"{where}.TableFacets[{n}].TableData", facet.get("TableData") or [])
                for n, facet in enumerate(table.get("TableFacets") or []) if isinstance(facet, dict)]
    for place, items in sources:
        for n, item in enumerate(expect(items, list, place, "a list of items")):
            if not isinstance(item, dict) or any(key not in item for key in keys):
                model.notes.append(f"{place}[{n}]: skipped, " + ("not an item" if not isinstance(item, dict)
                                   else f"it lacks {', '.join(k for k in keys if k not in item)}"))
                continue
            found[json.dumps([item[key] for key in keys], sort_keys=True)] = item
    return list(found.values())


def export(descriptions: list, items: dict, name: str, now: datetime.datetime | None = None) -> tuple:
    """(a Workbench 3.0 model of ``descriptions`` (TableDescriptions) with ``items`` (table -> wire items), what
    it could not say: LSIs, streams, TTL, vector indexes have no member in Workbench's format)."""
    when = (now or datetime.datetime.now(datetime.timezone.utc)).strftime("%b %d, %Y, %I:%M %p")
    notes, tables = [], []
    for table in descriptions:
        types = {d["AttributeName"]: d["AttributeType"] for d in table["AttributeDefinitions"]}
        held = items.get(table["TableName"], [])
        out = {"TableName": table["TableName"], "KeyAttributes": _key_attributes(table["KeySchema"], types),
               "NonKeyAttributes": _non_keys(held, types, table["KeySchema"])}
        gsis = []
        for index in table.get("GlobalSecondaryIndexes") or []:
            roles = [key["KeyType"] for key in index["KeySchema"]]
            if roles.count("HASH") > 1 or roles.count("RANGE") > 1:  # (Workbench's keys are one attribute each)
                notes.append(f"{table['TableName']}: index {index['IndexName']} not written (a multi-attribute key: "
                             "Workbench's format holds one attribute a key)")
                continue
            gsis.append({"IndexName": index["IndexName"], "KeyAttributes": _key_attributes(index["KeySchema"], types),
                         "Projection": index["Projection"]})
        if gsis:
            out["GlobalSecondaryIndexes"] = gsis
        out.update({"TableData": held, "DataAccess": {"MySql": {}}})
        summary = table.get("BillingModeSummary", {}).get("BillingMode")
        units = table.get("ProvisionedThroughput", {})
        if summary == "PAY_PER_REQUEST" or not units.get("ReadCapacityUnits"):
            out["BillingMode"] = "PAY_PER_REQUEST"
        else:
            out["BillingMode"] = "PROVISIONED"
            out["ProvisionedCapacitySettings"] = {"ProvisionedThroughput": {
                "ReadCapacityUnits": units["ReadCapacityUnits"], "WriteCapacityUnits": units["WriteCapacityUnits"]}}
        notes += [f"{table['TableName']}: {what} not written (Workbench's format has no member for it)"
                  for what, there in (("local secondary indexes", table.get("LocalSecondaryIndexes")),
                                      ("its stream", (table.get("StreamSpecification") or {}).get("StreamEnabled")),
                                      ("vector indexes", table.get("VectorIndexes")))
                  if there]
        tables.append(out)
    metadata = {"Author": "", "DateCreated": when, "DateLastModified": when, "Description": "",
                "AWSService": "Amazon DynamoDB", "Version": "3.0"}
    return {"ModelName": name, "ModelMetadata": metadata, "DataModel": tables}, notes


def _key_attributes(schema: list, types: dict) -> dict:
    roles = {"HASH": "PartitionKey", "RANGE": "SortKey"}
    return {roles[key["KeyType"]]: {"AttributeName": key["AttributeName"],
                                    "AttributeType": types[key["AttributeName"]]} for key in schema}


def _non_keys(items: list, types: dict, keys: list) -> list:
    """The attributes beyond the table's key (Workbench lists its indexes' keys there too): the defined ones,
    then those the items hold, each with the type it first has."""
    primary = {key["AttributeName"] for key in keys}
    seen = {name: kind for name, kind in types.items() if name not in primary}
    for item in items:
        for attribute, value in item.items():
            if attribute not in primary and attribute not in seen:
                seen[attribute] = next(iter(value))
    return [{"AttributeName": name, "AttributeType": kind} for name, kind in seen.items()]
