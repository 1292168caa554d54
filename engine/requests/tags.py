"""TagResource, UntagResource, ListTagsOfResource (item-api §5.17).

Tags live in the table's spec (``TableSpec.tags``), so a database file keeps
them and DeleteTable drops them. Changes apply synchronously (R: AWS applies
them asynchronously since 2024; a local engine need not lag).
"""

from __future__ import annotations

import dataclasses
import re

from .. import limits
from ..envelope import list_of, string, structure, validate
from ..type_pass import check_types
from ..errors import AccessDeniedException, ResourceNotFoundException, ValidationException
from .control import INVALID, TAG

INVALID_ARN = "Invalid TableArn"
NO_TAGS = "Atleast one Tag needs to be provided as Input."  # sic (AWS)
NO_TAG_KEYS = "Atleast one Tag Key needs to be provided as Input."  # sic (AWS)
# INF: the spec records no texts for these two; worded in the INVALID family.
TOO_MANY_TAGS = INVALID + f"The number of tags on a resource cannot exceed {limits.MAX_TAGS}"
RESERVED_PREFIX = INVALID + "Tag keys starting with the prefix 'aws:' are reserved for system use"

_ARN = string(min_len=1, max_len=limits.MAX_RESOURCE_ARN)
TAG_RESOURCE = structure({"ResourceArn": _ARN, "Tags": list_of(TAG, required=True)}, name="TagResourceInput")
UNTAG_RESOURCE = structure({
    "ResourceArn": _ARN,
    "TagKeys": list_of(string(min_len=1, max_len=limits.MAX_TAG_KEY), required=True),
}, name="UntagResourceInput")
LIST_TAGS = structure({"ResourceArn": _ARN, "NextToken": string()}, name="ListTagsOfResourceInput")

# arn:partition:service:region:account:resource — six colon-separated parts, the
# resource holding a '/' (DL validations: `…:…:…:…:…:…/…`).
_WELL_FORMED = re.compile(r"arn:[^:]*:[^:]*:[^:]*:[^:]*:[^/]+/.*")
_TABLE = re.compile(r"arn:aws[a-z-]*:dynamodb:(?P<region>[^:]*):(?P<account>[^:]*):table/(?P<name>[^/]+)")


def _checked(request, shape: dict) -> dict:
    checked = check_types(request, shape)
    if "ResourceArn" not in checked:
        raise ValidationException(INVALID_ARN)
    validate(checked, shape)
    return checked


def _table(engine, arn: str, operation: str):
    """The table an ARN names, after DynamoDB's checks in DynamoDB's order.

    why: the issue (2026-04) records a malformed ARN as a ValidationException and
    a well-formed ARN of another account as AccessDeniedException; the older
    dynalite capture in the spec called the malformed one AccessDenied.
    """
    if not _WELL_FORMED.fullmatch(arn):
        raise ValidationException(f"{INVALID_ARN}: Invalid ResourceArn provided as input {arn}")
    found = _TABLE.fullmatch(arn)
    account = arn.split(":")[4]
    if account != engine.account:
        raise AccessDeniedException(
            f"User: arn:aws:iam::{engine.account}:root is not authorized to perform: "
            f"dynamodb:{operation} on resource: {arn}")
    if found is None:
        raise ValidationException(f"{INVALID_ARN}: Invalid ResourceArn provided as input {arn}")
    table = engine.tables.get(found["name"])
    if table is None or found["region"] != engine.region:
        raise ResourceNotFoundException(f"Requested resource not found: ResourcArn: {arn} not found")  # sic
    return table


def _save(engine, table, tags: dict) -> None:
    engine.storage.check_writable()
    table.set_spec(dataclasses.replace(table.spec, tags=tuple(tags.items())))
    engine.storage.save_table(table)


def tag_resource(engine, request: dict) -> None:
    checked = _checked(request, TAG_RESOURCE)
    if not checked["Tags"]:
        raise ValidationException(NO_TAGS)
    if any(tag["Key"].startswith("aws:") for tag in checked["Tags"]):
        raise ValidationException(RESERVED_PREFIX)
    with engine.lock:
        table = _table(engine, checked["ResourceArn"], "TagResource")
        tags = dict(table.spec.tags)
        tags.update((tag["Key"], tag["Value"]) for tag in checked["Tags"])  # a known key is replaced
        if len(tags) > limits.MAX_TAGS:
            raise ValidationException(TOO_MANY_TAGS)
        _save(engine, table, tags)
    return None  # an empty body on the wire (item-api §1.2)


def untag_resource(engine, request: dict) -> None:
    checked = _checked(request, UNTAG_RESOURCE)
    if not checked["TagKeys"]:
        raise ValidationException(NO_TAG_KEYS)
    with engine.lock:
        table = _table(engine, checked["ResourceArn"], "UntagResource")
        removed = set(checked["TagKeys"])
        _save(engine, table, {key: value for key, value in table.spec.tags if key not in removed})
    return None


def list_tags_of_resource(engine, request: dict) -> dict:
    # INF: at most 50 tags exist, so one page holds them all and no NextToken is returned.
    checked = _checked(request, LIST_TAGS)
    with engine.lock:
        table = _table(engine, checked["ResourceArn"], "ListTagsOfResource")
        return {"Tags": [{"Key": key, "Value": value} for key, value in table.spec.tags]}


OPERATIONS = {"TagResource": tag_resource, "UntagResource": untag_resource,
              "ListTagsOfResource": list_tags_of_resource}
