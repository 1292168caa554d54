"""partiql-ddb on any DynamoDB: real DynamoDB, ``partiql serve``, or an endpoint (issue 18).

``partiql.connect(endpoint_url=…, region=…, profile=…)`` returns a
``RemoteConnection``: the ``Connection`` API, statements run by the service,
EXPLAIN and the scan guard decided locally before anything is sent. boto3
(the ``aws`` extra) is imported only when such a connection is made.
"""

from .connection import RemoteConnection

__all__ = ["RemoteConnection"]
