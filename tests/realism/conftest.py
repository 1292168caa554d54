"""A boto3 client for a server of these tests (retries as each test asks)."""

from __future__ import annotations

import pytest


@pytest.fixture
def boto3_for():
    """``boto3_for(url, **retries)``: a DynamoDB client for ``url``, ``retries`` as botocore's Config takes them
    (one attempt by default)."""
    import boto3
    from botocore.config import Config

    def client(url: str, **retries):
        return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1", aws_access_key_id="a",
                            aws_secret_access_key="b", config=Config(retries=retries or {"max_attempts": 1}))

    return client
