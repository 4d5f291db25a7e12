"""The offline assistant in German: which language answers, German read into the canonical
phrasing, answers in German formats, and German conversations over the real reminder tools."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.llm.offline import assistant, create, framing, intent, replies, when
from core.llm.offline.lang import ENGLISH, GERMAN, spoken, told
from core.llm.offline.lang.de_format import day, duration, every, number, translate_prompt
from core.llm.offline.lang.de_read import canonical
from core.llm.offline.lang.de_say import translate
from tests.core.llm.conversation import Conversation

START = datetime(2026, 8, 5, 11, 21, 18, tzinfo=UTC)  # a Wednesday, 13:21:18 in Berlin


def test_a_message_answers_in_its_own_language_else_in_the_conversations() -> None:
    assert told("erinnere mich in 5 Minuten an den Tee") is GERMAN
    assert told("remind me in 5 minutes to stretch") is ENGLISH
    assert told("Berlin") is None
    assert told("17:00") is None
    assert told("ok") is None
    texts = ["hallo", "Tee kochen", None, "remind me later", "Berlin"]
    assert [lang.code for lang in spoken(texts)] == ["de", "de", "de", "en", "en"]
    assert spoken(["17:00"]) == [ENGLISH]  # a conversation that told none is English


@pytest.mark.parametrize(
    ("german", "canonical_text"),
    [
        ("erinnere mich in 10 Minuten ans Lüften", "remind me in 10 minutes about Lüften"),
        ("In 10 Minuten erinnere mich ans Lüften", "In 10 minutes remind me about Lüften"),
        (
            "Erinner mich morgen um 9 daran, die Pflanzen zu gießen",
            "remind me tomorrow at 9 to die Pflanzen gießen",
        ),
        ("erinnere mich in 2 Stunden, Ana anzurufen", "remind me in 2 hours to Ana anrufen"),
        ("um halb acht", "at 7:30"),
        ("um Viertel nach drei", "at 3:15"),
        ("um Viertel vor neun", "at 8:45"),
        ("dreiviertel neun", "at 8:45"),
        ("in einer halben Stunde", "in 30 minutes"),
        ("in anderthalb Stunden", "in 90 minutes"),
        ("übermorgen um 17 Uhr", "the day after tomorrow at 17:00"),
        ("am 24.12. um 18 Uhr", "on 24.12. at 18:00"),
        ("heute Abend", "this evening"),
        ("nächsten Montag", "next monday"),
        ("stündlich", "hourly"),
        ("alle 30 Minuten", "every 30 minutes"),
        ("jeden Tag", "every day"),
        ("um 9 Uhr New Yorker Zeit", "at 9:00 New York time"),
        ("um 20 Uhr MEZ", "at 20:00 CET"),
        ("loesch die Wasser-Erinnerung", "delete the Wasser reminder"),
        ("welche Erinnerungen habe ich?", "what reminders do i have"),
        ("wie spät ist es in Tokio", "what time is it in Tokyo"),
        ("Wecker auf 7 Uhr", "alarm for 7:00am"),
        ("stell den Wecker auf 6:30", "set an alarm for 6:30am"),
        (
            "Kannst du mich in 20 Minuten an den Kuchen erinnern?",
            "remind me in 20 minutes about den Kuchen",
        ),
        ("noch 5 Minuten", "5 more minutes"),
        ("die zweite", "the second one"),
    ],
)
def test_german_is_read_into_the_canonical_phrasing_keeping_the_task_as_typed(
    german: str, canonical_text: str
) -> None:
    assert canonical(german) == canonical_text


def test_answers_use_german_formats() -> None:
    assert number(1234) == "1.234"
    assert day("Fri 4 Dec") == "Fr, 4. Dez."
    assert day("Thu 24 Dec 2027") == "Do, 24. Dez. 2027"
    assert duration("1 hour 30 minutes") == "1 Stunde 30 Minuten"
    assert duration("3 days", dative=True) == "3 Tagen"
    assert every("every day") == "jeden Tag"
    assert every("every 30 minutes") == "alle 30 Minuten"
    assert translate_prompt("Timer for 1 minute 30 seconds") == "Timer für 1 Minute 30 Sekunden"
    assert translate_prompt("Wake up") == "Aufwachen"
    assert translate(
        "Delete all 1234 reminders? That is “a”, “b” and 1232 more. Say “yes” to delete them, "
        "or “no” to keep them."
    ).startswith("Alle 1.234 Erinnerungen löschen? Das sind „a“, „b“ und 1232 weitere.")
    assert (
        translate("I'll remind you to call at 18:00 on Fri 4 Dec, in 121 days *(schedule-1)*.")
        == "Ich erinnere dich am Fr, 4. Dez. um 18:00 Uhr (in 121 Tagen): „call“ *(schedule-1)*."
    )


FIXED_SENTENCES = (
    replies.HELP,
    replies.NOT_UNDERSTOOD,
    replies.GONE,
    assistant.UNAVAILABLE,
    assistant.LOST,
    assistant.NO_ANSWER,
    create.ONE_AT_A_TIME,
    create.ASK_WHAT_AND_WHEN,
    create.EXAMPLES,
    intent.CANNOT_EDIT,
    intent.WHICH_TO_DELETE,
    when._CALENDAR_RULE,
    framing.UNREADABLE,
    "You have no reminders in this conversation.",
    "What time today?",
    "That time has already passed; pick a time in the future.",
)


@pytest.mark.parametrize("sentence", FIXED_SENTENCES)
def test_every_fixed_sentence_of_the_assistant_has_its_german_form(sentence: str) -> None:
    german = translate(sentence)
    assert german != sentence
    for english in (" the ", " you ", " reminder ", "I can", "I'm "):
        assert english not in german


def german(start: datetime = START) -> Conversation:
    return Conversation(start, "Europe/Berlin")


def test_a_german_reminder_is_confirmed_listed_snoozed_and_undone_in_german() -> None:
    c = german()
    assert c.say("erinnere mich in 1 Minute ans Dehnen") == (
        "Ich erinnere dich um 13:22 Uhr (in 1 Minute): „Dehnen“ *(schedule-1)*."
    )
    c.play(["+2"])
    assert c.deliver_due() == (
        "Erinnerung: Dehnen (fällig um 13:22 Uhr, vor 1 Minute; dieses Gespräch war da nicht offen)"
    )
    assert c.say("noch 5 Minuten").startswith("Ich erinnere dich um 13:28 Uhr (in 5 Minuten)")
    assert c.calls == [("schedule_create", {"prompt": "Dehnen", "after_seconds": 300})]
    assert c.say("rückgängig") == "Gelöscht: „Dehnen“ *(schedule-2)*."
    assert c.say("welche Erinnerungen habe ich") == "Du hast keine Erinnerungen in diesem Gespräch."


def test_a_calendar_rule_is_refused_in_german_and_a_new_request_is_not_taken_as_the_answer() -> (
    None
):
    c = german()
    refusal = c.say("erinnere mich jeden Werktag um 8 ans Aufstehen")
    assert refusal.startswith("Ich kann eine Erinnerung nur in einem festen Abstand wiederholen")
    assert refusal.endswith("Wann soll ich dich erinnern?")
    assert c.calls == []
    assert c.say("ping mich in 10 Minuten") == "Woran soll ich dich in 10 Minuten erinnern?"
    assert c.calls == []
    assert c.say("Tee").startswith("Ich erinnere dich um 13:31 Uhr (in 10 Minuten): „Tee“")
    assert c.calls == [("schedule_create", {"prompt": "Tee", "after_seconds": 600})]


def test_the_english_refusal_keeps_its_task_and_a_new_request_is_its_own() -> None:
    """The reported bug: "ping me in 10 minutes" was glued to "at 8 to stand up"."""
    c = Conversation(datetime(2026, 8, 5, 21, 36, tzinfo=UTC), "Europe/Berlin")
    assert c.say("remind me every weekday at 8 to stand up").endswith("When should I remind you?")
    assert c.say("ping me in 10 minutes") == "What should I remind you about in 10 minutes?"
    assert c.calls == []
    c = Conversation(datetime(2026, 8, 5, 21, 36, tzinfo=UTC), "Europe/Berlin")
    c.say("remind me every weekday at 8 to stand up")
    assert c.say("in 10 minutes").startswith("I'll remind you to stand up at 23:46")
    assert c.calls == [("schedule_create", {"prompt": "stand up", "after_seconds": 600})]


def test_a_clock_change_gap_and_an_impossible_date_are_explained_in_german() -> None:
    c = german()
    gap = c.say("erinnere mich am 28.03.2027 um 2:30 ans Joggen")
    assert "gibt es in Zeit Berlin nicht, weil die Uhren bei der Zeitumstellung vorspringen" in gap
    assert c.say("erinnere mich am 31.02. an die Miete") == (
        "Den 31.02. gibt es im Kalender nicht; prüf Tag und Monat."
    )
    assert c.calls == []


def test_a_german_conversation_answers_an_english_message_in_english() -> None:
    c = german()
    assert c.say("hallo").startswith("Hallo! Ich bin Chimes eingebauter Offline-Assistent")
    assert c.say("what time is it").startswith("It's 13:21 on Wednesday 5 August 2026")
    assert c.say("wie spät ist es?") == (
        "Es ist 13:21 Uhr am Mittwoch, 5. August 2026 (Europe/Berlin)."
    )


def test_a_list_is_worded_in_german_line_by_line() -> None:
    english = (
        "You have 3 reminders in this conversation (times in UTC):\n\n"
        "- Wasser trinken — every 30 minutes, next at 10:28, in 28 minutes *(schedule-2)*\n"
        "- Dehnen — was due at 10:05 today, 2 minutes ago; it will arrive shortly *(schedule-3)*\n"
        "- Tee — 10:05:30, now *(schedule-4)*\n"
        "- (a reminder I couldn't read)\n"
        "- Kaffee — sometime *(schedule-5)*"
    )
    assert translate(english).splitlines() == [
        "Du hast 3 Erinnerungen in diesem Gespräch (Zeiten in UTC):",
        "",
        "- Wasser trinken — alle 30 Minuten, nächste um 10:28 Uhr, in 28 Minuten *(schedule-2)*",
        "- Dehnen — war fällig heute um 10:05 Uhr, vor 2 Minuten; sie kommt gleich *(schedule-3)*",
        "- Tee — 10:05:30 Uhr, jetzt *(schedule-4)*",
        "- (eine Erinnerung, die ich nicht lesen konnte)",
        "- Kaffee — sometime *(schedule-5)*",
    ]
    assert translate("You have 1 reminder in this conversation:") == (
        "Du hast 1 Erinnerung in diesem Gespräch:"
    )


def test_fragments_the_table_does_not_know_are_kept_as_they_are() -> None:
    assert day("someday") == "someday"
    assert every("at that interval") == "in diesem Abstand"
    assert every("every 2 weeks") == "alle 2 Wochen"
    assert translate("That day (5 Smarch 2026) has already passed; pick a time in the future.") == (
        "Dieser Tag (5. Smarch 2026) ist schon vorbei; nimm eine Zeit in der Zukunft."
    )
    assert translate("It's 09:00 on Someday (UTC).") == "Es ist 09:00 Uhr am Someday (UTC)."
    assert translate("I read 5/8 as 5 August.") == "Ich habe das Datum als 5. August gelesen."
    assert translate("Alarm set for 07:00 today, in 2 hours: “Wake up”.") == (
        "Wecker gestellt heute um 07:00 Uhr (in 2 Stunden): „Wake up“."
    )


@pytest.mark.parametrize(
    ("said", "prompt"),
    [
        ("erinnere mich in einer Stunde an das Meeting um 15 Uhr", "das Meeting um 15 Uhr"),
        ("erinnere mich in 10 Minuten an das Essen morgen Abend", "das Essen morgen Abend"),
        ("sag mir um 15 Uhr, dass ich los muss", "ich los muss"),
        ("bitte in 10 Minuten an den Tee erinnern", "den Tee"),
        ("ich brauche eine Erinnerung in 10 Minuten für den Tee", "den Tee"),
        ("erinnere mich am Montag, den 10. August, um 9 Uhr an den Zahnarzt", "den Zahnarzt"),
        ("Timer auf eine halbe Stunde", "Timer für 30 Minuten"),
        (
            "Kannst du mich daran erinnern, in 10 Minuten den Herd auszuschalten?",
            "den Herd ausschalten",
        ),
        ("erinnere mich, um 17 Uhr Mama anzurufen", "Mama anrufen"),
    ],
)
def test_the_reminder_text_is_kept_as_typed_with_its_own_time_words(said: str, prompt: str) -> None:
    c = german()
    c.say(said)
    assert [args["prompt"] for name, args in c.calls if name == "schedule_create"] == [prompt]
