"""The pasted ``mcpServers`` JSON and the settings form (core/mcp/config.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.mcp.config import (
    McpConfigError,
    Secret,
    from_settings,
    is_secret,
    parse_servers,
    to_settings,
)
from core.mcp.types import HttpServer, ServerConfig, StdioServer

README_EXAMPLE = """{
  "mcpServers": {
    "time": {"command": "uvx", "args": ["mcp-server-time", "--local-timezone=Europe/Berlin"]},
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abc", "LOG_LEVEL": "info"}
    },
    "remote": {
      "type": "http",
      "url": "https://mcp.example.com/mcp",
      "headers": {"Authorization": "Bearer s3cret", "X-Team": "blue"}
    }
  }
}"""


def test_a_readme_example_is_read_with_its_secrets_split_out() -> None:
    parsed = parse_servers(README_EXAMPLE)
    assert parsed.problems == ()
    time, github, remote = parsed.servers
    assert time == ServerConfig(
        "time", StdioServer("uvx", ("mcp-server-time", "--local-timezone=Europe/Berlin"))
    )
    assert github.transport == StdioServer(
        "npx",
        ("-y", "@modelcontextprotocol/server-github"),
        (("LOG_LEVEL", "info"),),
        ("GITHUB_PERSONAL_ACCESS_TOKEN",),
    )
    assert remote.transport == HttpServer(
        "https://mcp.example.com/mcp", (("X-Team", "blue"),), ("Authorization",)
    )
    assert parsed.secrets == (
        Secret("github", "env", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_abc"),
        Secret("remote", "header", "Authorization", "Bearer s3cret"),
    )
    assert parsed.secrets[0].key == "mcp/github/env/GITHUB_PERSONAL_ACCESS_TOKEN"


def test_a_bare_mapping_and_the_vs_code_key_are_read_too() -> None:
    bare = parse_servers('{"t": {"command": "x"}}')
    code = parse_servers('{"servers": {"t": {"command": "x", "type": "stdio"}}}')
    assert bare.servers == code.servers == (ServerConfig("t", StdioServer("x")),)


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ('"x"', "not a JSON object"),
        ("{}", 'neither a "command"'),
        ('{"command": ""}', "is empty"),
        ('{"command": 3}', '"command" must be a text'),
        ('{"command": "x", "args": "y"}', '"args" must be a list'),
        ('{"command": "x", "env": {"A": 1}}', '"env" must be an object of texts'),
        ('{"command": "x", "env": {"": "1"}}', "empty or not printable"),
        ('{"command": "x", "cwd": " "}', '"cwd" must be a folder'),
        ('{"url": "ftp://x"}', "http:// or https://"),
        ('{"url": "https://x", "type": "sse"}', "SSE transport is not supported"),
        ('{"url": "https://x", "type": "ws"}', 'type "ws" is not'),
        ('{"url": "https://x", "headers": []}', '"headers" must be an object'),
        ('{"url": "https://x", "enabledByDefault": 1}', "true or false"),
        ('{"url": "https://x", "secretHeaders": [""]}', "list of names"),
    ],
)
def test_each_bad_entry_is_one_sentence_and_the_good_ones_stay(entry: str, says: str) -> None:
    parsed = parse_servers(f'{{"mcpServers": {{"bad": {entry}, "good": {{"command": "x"}}}}}}')
    assert [s.name for s in parsed.servers] == ["good"]
    (problem,) = parsed.problems
    assert problem.startswith('Server "bad": ')
    assert says in problem
    assert problem.endswith(".")


def test_names_must_be_printable_short_and_unique() -> None:
    text = json.dumps(
        {
            " ": {"command": "x"},
            "a" * 65: {"command": "x"},
            "a": {"command": "x"},
            " a ": {"command": "y"},
        }
    )
    parsed = parse_servers(text)
    assert [s.name for s in parsed.servers] == ["a"]
    assert len(parsed.problems) == 3
    assert "comes earlier" in parsed.problems[2]


@pytest.mark.parametrize("text", ["", "[1]", "nope", '{"a": ' * 300 + "1" + "}" * 300])
def test_a_text_that_is_no_object_raises_the_documented_error(text: str) -> None:
    with pytest.raises(McpConfigError) as raised:
        parse_servers(text)
    assert str(raised.value).startswith("The text is not")


def test_servers_that_are_no_mapping_are_one_problem() -> None:
    assert parse_servers('{"mcpServers": [1]}').problems == (
        "The servers are not a JSON object of names to servers.",
    )


@pytest.mark.parametrize(
    ("name", "value", "secret"),
    [
        ("API_KEY", "x", True),
        ("OPENAI_API_KEY", "x", True),
        ("Authorization", "x", True),
        ("X-Password", "x", True),
        ("X-Custom", "Bearer abc", True),
        ("X-Custom", "basic abc", True),
        ("LOG_LEVEL", "debug", False),
        ("PATH", "/usr/bin", False),
    ],
)
def test_what_counts_as_a_secret(name: str, value: str, secret: bool) -> None:
    assert is_secret(name, value) is secret


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12)
_names = _text.filter(lambda n: n.strip() == n and len(n) > 0 and n.isprintable())
_plain = st.dictionaries(
    _names.filter(lambda n: "=" not in n and not is_secret(n)),
    _text.filter(lambda v: not is_secret("", v)),
    max_size=3,
)
_stdio = st.builds(
    lambda c, a, e, s, d: StdioServer(c, tuple(a), tuple(e.items()), tuple(s), d),
    _names,
    st.lists(_text, max_size=3),
    _plain,
    st.lists(_names, max_size=2, unique=True),
    st.none() | _names,
)
_http = st.builds(
    lambda host, h, s: HttpServer(f"https://{host}.example/mcp", tuple(h.items()), tuple(s)),
    st.from_regex(r"[a-z0-9]{1,10}", fullmatch=True),
    _plain,
    st.lists(_names, max_size=2, unique=True),
)
_servers = st.dictionaries(_names, st.tuples(_stdio | _http, st.booleans()), max_size=4).map(
    lambda d: tuple(ServerConfig(n, t, b) for n, (t, b) in d.items())
)


@given(_servers)
def test_the_settings_form_round_trips(servers: tuple[ServerConfig, ...]) -> None:
    form = to_settings(servers)
    assert from_settings(json.loads(json.dumps(form))).servers == servers
    assert parse_servers(json.dumps({"mcpServers": form})).servers == servers


_secret_value = st.from_regex(r"SECRET[A-Za-z0-9]{6,12}", fullmatch=True)


@given(
    st.dictionaries(
        _names,
        st.tuples(
            _plain,
            st.dictionaries(
                st.sampled_from(
                    ["API_KEY", "GITHUB_TOKEN", "Authorization", "X-Api-Key", "DB_PASSWORD"]
                ),
                _secret_value,
                min_size=1,
            ),
        ),
        min_size=1,
        max_size=3,
    ),
    st.booleans(),
)
def test_no_secret_value_ever_reaches_the_settings_form(
    entries: dict[str, tuple[dict[str, str], dict[str, str]]], http: bool
) -> None:
    key = "headers" if http else "env"
    base = {"url": "https://h.example/mcp"} if http else {"command": "x"}
    text = json.dumps(
        {"mcpServers": {n: {**base, key: {**p, **s}} for n, (p, s) in entries.items()}}
    )
    parsed = parse_servers(text)
    form = json.dumps(to_settings(parsed.servers))
    assert "SECRET" not in form
    assert {s.value for s in parsed.secrets} == {v for _, s in entries.values() for v in s.values()}


@given(
    st.text(max_size=200)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=20,
    ).map(json.dumps)
)
def test_garbage_never_raises_anything_but_the_documented_error(text: str) -> None:
    try:
        problems = parse_servers(text).problems
        readable = True
    except McpConfigError as error:
        problems, readable = (str(error),), False
    assert all(p.endswith(".") for p in problems)
    if readable:
        assert all(p.endswith(".") for p in from_settings(json.loads(text)).problems)
