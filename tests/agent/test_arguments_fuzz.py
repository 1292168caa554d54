"""Any arguments, from any agent: an answer, or an error that names the tool and says what is wrong — never an
internal error. In process over many generated calls (``Desk.call``, the one way in), then a sample of them
through the protocol."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partiql
from partiql.agent.answers import Answer, ToolError
from partiql.agent.desk import TOOLS, Desk

NAMES = sorted({name for tool in TOOLS.values() for name in tool.schema["properties"]} | {"x", "", "Statement"})
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 10 ** 6), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from([
                        "Orders", "SELECT * FROM Orders WHERE pk = ?", "SELECT * FROM Orders", "ddl", "json",
                        "CREATE TABLE", "INSERT INTO Orders VALUE {'pk': ?}", "duration = 1", "/", "ByStatus",
                        "DELETE FROM Orders WHERE pk = 'a'", "EXPLAIN SELECT * FROM Orders", "?", "'",
                        "CREATE TABLE Tmp PRIMARY KEY (k STRING HASH)"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(NAMES), inner, max_size=3)), max_leaves=8)


def arguments_for(tool, objects_only: bool = False):
    """Mostly the tool's own argument names with any JSON; sometimes not an object at all (which the SDK's
    client does not send: ``objects_only``)."""
    own = sorted(tool.schema["properties"]) + ["bogus"]
    named = st.dictionaries(st.sampled_from(own), JSON, max_size=4)
    return named if objects_only else st.one_of(named, JSON)


@pytest.fixture(scope="module")
def desk():
    db = partiql.connect()
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) GSI (ByStatus ON (status STRING HASH) "
               "PROJECTING ALL)")
    db.execute("INSERT INTO Orders VALUE {'pk': 'a', 'status': 'new'}")
    yield Desk(db)
    db.close()


@pytest.mark.parametrize("name", list(TOOLS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_arguments_get_an_answer_or_words_naming_the_tool(desk, name, data):
    arguments = data.draw(arguments_for(TOOLS[name]))
    try:
        answer = desk.call(name, arguments)
    except ToolError as error:
        assert str(error).startswith(f"{name}: "), str(error)
        return
    assert isinstance(answer, Answer) and isinstance(answer.text, str) and isinstance(answer.data, dict)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_through_the_protocol_too(agent, data):
    name = data.draw(st.sampled_from(list(TOOLS) + ["nope"]))
    tool = TOOLS.get(name, TOOLS["execute"])
    result = agent.call(name, data.draw(arguments_for(tool, objects_only=True)))
    text = result.content[0].text
    assert "internal error" not in text and "Traceback" not in text
    if result.is_error:
        assert text.startswith(f"{name}: ") or text.startswith("no tool 'nope'"), text
