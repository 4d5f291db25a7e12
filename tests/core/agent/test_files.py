"""Attached files in the request (agent.md §7): text inside the message, recent images as image
parts, older images and missing files named in a line."""

from __future__ import annotations

import asyncio
import base64

from core.agent.files import RECENT_IMAGE_MESSAGES, needed, with_files
from core.events import Attachment
from core.llm.messages import Image, Message, ModelRequest
from core.llm.openai_wire import to_openai_messages
from core.session.attachments import classify
from tests.core.agent.fakes import Reply
from tests.core.agent.test_agent import make_agent

PNG = b"\x89PNG\r\n\x1a\n" + b"\x01" * 16


def attach(name: str, data: bytes) -> Attachment:
    record = classify(name, data)
    assert isinstance(record, Attachment)
    return record


def test_a_text_file_is_sent_inside_its_message_in_a_fence_longer_than_its_backticks() -> None:
    code = attach("demo.md", b"```py\nx = 1\n```\n")
    message = Message(role="user", text="What does this do?", attachments=(code,))
    (sent,) = with_files([message], {code.sha256: b"```py\nx = 1\n```\n"})
    assert (
        sent.text
        == "What does this do?\n\nAttached file “demo.md”:\n````\n```py\nx = 1\n```\n\n````"
    )
    assert (sent.attachments, sent.images) == ((), ())


def test_only_the_newest_messages_with_images_carry_them() -> None:
    picture = attach("p.png", PNG)
    messages = [
        Message(role="user", text=f"look {n}", attachments=(picture,))
        for n in range(RECENT_IMAGE_MESSAGES + 1)
    ]
    assert needed(messages) == {picture.sha256}
    sent = with_files(messages, {picture.sha256: PNG})
    assert sent[0].images == ()
    assert "sent in an earlier request" in sent[0].text
    assert all(m.images == (Image("image/png", PNG),) for m in sent[1:])


def test_a_missing_file_is_named_instead_of_sent() -> None:
    text, picture = attach("a.txt", b"hi"), attach("p.png", PNG)
    (sent,) = with_files([Message(role="user", text="x", attachments=(text, picture))], {})
    assert "“a.txt” was attached here; its file is missing" in sent.text
    assert "“p.png” was attached here; its file is missing" in sent.text
    assert sent.images == ()


def test_images_go_to_the_wire_as_data_url_parts() -> None:
    request = ModelRequest(
        system="s",
        messages=(Message(role="user", text="what is it?", images=(Image("image/png", PNG),)),),
    )
    wired = to_openai_messages(request)[-1]
    assert wired["content"][0] == {"type": "text", "text": "what is it?"}
    url = wired["content"][1]["image_url"]["url"]
    assert url == "data:image/png;base64," + base64.b64encode(PNG).decode()


def test_a_submitted_attachment_reaches_the_model_and_stays_in_later_history() -> None:
    async def main() -> list[ModelRequest]:
        agent, log, model, _ = make_agent([Reply("a list"), Reply("sure")])
        record = await log.add_attachment("todo.txt", b"- milk\n- eggs\n")
        assert isinstance(record, Attachment)
        agent.submit("Summarize this", None, [record])
        await agent.when_idle()
        agent.submit("Thanks", None)
        await agent.when_idle()
        return model.requests

    first, second = asyncio.run(main())
    assert "- milk\n- eggs" in first.messages[0].text
    assert second.messages[0].text == first.messages[0].text
