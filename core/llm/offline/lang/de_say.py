"""German wording of the offline assistant's answers: each canonical sentence and its German form. Pure.

``translate(answer)`` words a composed answer in German, sentence by sentence, from a table of
the sentences the assistant says (``_SENTENCES``: the canonical sentence's shape, and the German
one built from its parts). Dates, times, durations and counts are put into German formats on the
way: the 24-hour clock with "Uhr", "Fr, 4. Dez.", "in 2 Stunden", "1.234". The reminder's own
words, ids and zone names are kept as they are. A sentence the table does not know stays
canonical (the tests list every sentence the assistant can say against this table).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.llm.offline.lang.de_format import (
    day,
    duration,
    every,
    long_date,
    long_day,
    month,
    names,
    number,
    phrase,
    relative,
    weekday,
    when,
    zone,
)

EXAMPLES = "Zum Beispiel „in 20 Minuten“, „um 17 Uhr“ oder „morgen um 9:30“."
HELP = (
    "Ich bin Chimes eingebauter Offline-Assistent: ein einfacher Helfer für Erinnerungen, kein "
    "KI-Modell. Ich kann in diesem Gespräch Erinnerungen stellen, auflisten und löschen, zum "
    "Beispiel:\n\n"
    "- „erinnere mich in 10 Minuten ans Dehnen“, „morgen um 9 die Bank anrufen“\n"
    "- „erinnere mich alle 30 Minuten ans Trinken“, „Timer 5 Minuten“\n"
    "- „welche Erinnerungen habe ich“, „lösch die Dehnen-Erinnerung“\n\n"
    "Erinnerungen kommen in diesem Gespräch an, solange es offen ist (oder wenn du es wieder "
    "öffnest). Um mit einem echten Modell zu sprechen, öffne die Einstellungen (Strg+,) und "
    "verbinde einen OpenAI-kompatiblen Endpunkt wie Ollama, LM Studio, llama.cpp, OpenAI oder "
    "DeepSeek."
)


def _task(text: str) -> str:
    return f"„{text}“"


def _list_line(match: re.Match[str]) -> str:
    head, rest = match["head"], match["rest"]
    ids = re.search(r" \*\(.+\)\*$", rest)
    tail = ids[0] if ids else ""
    rest = rest[: len(rest) - len(tail)]
    due = re.fullmatch(r"(.+), (in .+|now|.+ ago)", rest)
    repeat = re.fullmatch(r"(every .+?|at that interval), next at (.+), (in .+|now|.+ ago)", rest)
    overdue = re.fullmatch(r"was due at (.+), (.+); it will arrive shortly", rest)
    if repeat is not None:
        said = f"{every(repeat[1])}, nächste {when(repeat[2])}, {relative(repeat[3])}"
    elif overdue is not None:
        said = f"war fällig {when(overdue[1])}, {relative(overdue[2])}; sie kommt gleich"
    elif due is not None:
        said = f"{when(due[1], at=False)}, {relative(due[2])}"
    else:
        said = rest
    return f"- {head} — {said}{tail}"


def _count(count: str, one: str, many: str) -> str:
    return f"1 {one}" if count == "1" else f"{number(count)} {many}"


_Template = str | Callable[[re.Match[str]], str]
_T = r"(?P<id> \*\(.+?\)\*)?"
_SENTENCES: tuple[tuple[str, _Template], ...] = (
    (
        r"I'm fine, thanks, and ready to set reminders\. What should I remind you about\?",
        "Mir geht's gut, danke, und ich bin bereit, Erinnerungen zu stellen. Woran soll ich dich erinnern?",
    ),
    # confirmations
    (
        rf"I'll remind you (?:to|about|that) (?P<task>.+) (?P<every>every .+?|at that interval), starting at (?P<when>.+?) \((?P<rel>[^()]+)\){_T}\.",
        lambda m: (
            f"Ich erinnere dich {every(m['every'])}, ab {when(m['when'])} ({relative(m['rel'])}): {_task(m['task'])}{m['id'] or ''}."
        ),
    ),
    (
        rf"I'll remind you (?:to|about|that) (?P<task>.+) at (?P<when>.+?), (?P<rel>in .+?|now|.+? ago){_T}\.",
        lambda m: (
            f"Ich erinnere dich {when(m['when'])} ({relative(m['rel'])}): {_task(m['task'])}{m['id'] or ''}."
        ),
    ),
    (
        rf"Timer set for (?P<span>.+?) for Timer für .+?: I'll tell you at (?P<when>.+?){_T}\.",
        lambda m: (
            f"Timer für {duration(m['span'])} gestellt: Ich sage dir {when(m['when'])} Bescheid{m['id'] or ''}."
        ),
    ),
    (
        rf"Timer set for (?P<span>.+?) for (?P<task>.+?): I'll tell you at (?P<when>.+?){_T}\.",
        lambda m: (
            f"Timer für {duration(m['span'])} gestellt ({_task(m['task'])}): Ich sage dir {when(m['when'])} Bescheid{m['id'] or ''}."
        ),
    ),
    (
        rf"Timer set for (?P<span>.+?): I'll tell you at (?P<when>.+?){_T}\.",
        lambda m: (
            f"Timer für {duration(m['span'])} gestellt: Ich sage dir {when(m['when'])} Bescheid{m['id'] or ''}."
        ),
    ),
    (
        rf"Alarm set for (?P<when>.+?), (?P<rel>in .+?|now|.+? ago): “(?P<task>.+)”{_T}\.",
        lambda m: (
            f"Wecker gestellt {when(m['when'])} ({relative(m['rel'])}): {_task(m['task'])}{m['id'] or ''}."
        ),
    ),
    # notes on how a time was read
    (
        r"I took “(?P<said>[^”]+)” as (?P<c>[0-9:]+), the next [^;]+; say “(?P<p>[0-9:]+)am” or “[0-9:]+pm” to choose\.",
        lambda m: (
            f"Ich habe die Uhrzeit als {m['c']} Uhr verstanden, die nächste solche; sag „{m['p']} Uhr morgens“ oder „{m['p']} Uhr abends“, um zu wählen."
        ),
    ),
    (
        r"I took “(?P<said>[^”]+)” as (?P<c>[0-9:]+); say “(?P<p>[0-9:]+)am” for the morning\.",
        lambda m: (
            f"Ich habe die Uhrzeit als {m['c']} Uhr verstanden; sag „{m['p']} Uhr morgens“ für den Morgen."
        ),
    ),
    (
        r"I took “in (?P<n>[0-9]+)” as [0-9]+ minutes\.",
        lambda m: f"Ich habe „in {m['n']}“ als {m['n']} Minuten verstanden.",
    ),
    (
        r"I took “(?P<part>[^”]+)” as (?P<c>[0-9:]+) tomorrow, since it has passed today\.",
        lambda m: (
            f"Ich habe die Tageszeit als morgen {m['c']} Uhr verstanden, weil sie heute vorbei ist."
        ),
    ),
    (
        r"I took “(?P<part>[^”]+)” as (?P<c>[0-9:]+)\.",
        lambda m: f"Ich habe die Tageszeit als {m['c']} Uhr verstanden.",
    ),
    (
        r"You didn't say a time, so I picked 09:00\.",
        "Du hast keine Uhrzeit genannt, also habe ich 09:00 Uhr gewählt.",
    ),
    (
        r"(?P<c>[0-9:]+) had already passed today, so I set it for tomorrow\.",
        lambda m: f"{m['c']} Uhr war heute schon vorbei, also habe ich morgen gewählt.",
    ),
    (
        r"I took “next (?P<d>\w+)” as the coming (?P<name>\w+), (?P<n>[0-9]+) (?P<mon>\w+); say “\w+ next week” for the one after\.",
        lambda m: (
            f"Ich habe „nächsten {weekday(m['name'])}“ als den kommenden {weekday(m['name'])} verstanden, den {m['n']}. {month(m['mon'])}; sag „{weekday(m['name'])} in einer Woche“ für den danach."
        ),
    ),
    (
        r"I read (?P<t>.+?) as (?P<n>[0-9]+) (?P<mon>\w+)\.",
        lambda m: f"Ich habe das Datum als {m['n']}. {month(m['mon'])} gelesen.",
    ),
    (
        r"That is (?P<d>.+?) (?P<dir>before|after|earlier than|prior to) (?P<c>[0-9:]+), at (?P<c2>[0-9:]+)\.",
        lambda m: (
            f"Das ist {duration(m['d'])} {'nach' if m['dir'] == 'after' else 'vor'} {m['c']} Uhr, also um {m['c2']} Uhr."
        ),
    ),
    # questions
    (r"For example “in 20 minutes”, “at 17:00” or “tomorrow at 9:30”\.", EXAMPLES),
    (
        r"When should I remind you (?:to|about|that) (?P<task>.+?) again\?",
        lambda m: f"Wann soll ich dich wieder erinnern: {_task(m['task'])}?",
    ),
    (
        r"When exactly should I remind you (?:to|about|that) (?P<task>.+?)\?",
        lambda m: f"Wann genau soll ich dich erinnern: {_task(m['task'])}?",
    ),
    (
        r"When should I remind you (?:to|about|that) (?P<task>.+?)\?",
        lambda m: f"Wann soll ich dich erinnern: {_task(m['task'])}?",
    ),
    (r"When should I remind you\?", "Wann soll ich dich erinnern?"),
    (
        r"What should I remind you about, and when\? For example “remind me in 10 minutes to stretch”\.",
        "Woran soll ich dich erinnern, und wann? Zum Beispiel „erinnere mich in 10 Minuten ans Dehnen“.",
    ),
    (
        r"What should I remind you about (?P<when>.+?)\?",
        lambda m: f"Woran soll ich dich {phrase(m['when'])} erinnern?",
    ),
    (r"What should I remind you about\?", "Woran soll ich dich erinnern?"),
    (r"How long should the timer run\?", "Wie lange soll der Timer laufen?"),
    (r"A timer needs at least a second\.", "Ein Timer braucht mindestens eine Sekunde."),
    (r"What time today\?", "Um wie viel Uhr heute?"),
    (
        r"It's already past (?P<c>[0-9:]+)\. What time (?:today|tonight)\?",
        lambda m: f"Es ist schon nach {m['c']} Uhr. Um wie viel Uhr heute?",
    ),
    (
        r"I didn't understand when “(?P<x>[^”]+)” is\.",
        lambda m: f"Ich habe nicht verstanden, wann „{m['x']}“ sein soll.",
    ),
    (
        r"I don't know which time zone you are in, so I can't tell when that is\. Which time zone are you in\? For example “Europe/Berlin”, “London” or “UTC”\. Delays such as “in 20 minutes” work without one\.",
        "Ich weiß nicht, in welcher Zeitzone du bist, also kann ich nicht sagen, wann das ist. In welcher Zeitzone bist du? Zum Beispiel „Europe/Berlin“, „London“ oder „UTC“. Abstände wie „in 20 Minuten“ gehen auch ohne.",
    ),
    (
        r"I don't recognise “(?P<x>[^”]+)” as a time zone\. Tell me a city such as Berlin or a zone name such as Europe/Berlin or UTC\.",
        lambda m: (
            f"„{m['x']}“ kenne ich nicht als Zeitzone. Nenn mir eine Stadt wie Berlin oder einen Zonennamen wie Europe/Berlin oder UTC."
        ),
    ),
    (
        r"I don't recognise the time zone “(?P<x>[^”]+)”\. Use a name like Europe/Berlin, America/New_York or UTC, or a city such as Tokyo\.",
        lambda m: (
            f"Die Zeitzone „{m['x']}“ kenne ich nicht. Nimm einen Namen wie Europe/Berlin, America/New_York oder UTC, oder eine Stadt wie Tokio."
        ),
    ),
    (
        r"I don't recognise the time zone “(?P<x>[^”]+)”\.",
        lambda m: f"Die Zeitzone „{m['x']}“ kenne ich nicht.",
    ),
    (
        r"I don't know which time zone “(?P<x>[^”]+)” is; try a city such as Tokyo or a zone name such as Asia/Tokyo\.",
        lambda m: (
            f"Ich weiß nicht, welche Zeitzone „{m['x']}“ ist; versuch eine Stadt wie Tokio oder einen Zonennamen wie Asia/Tokyo."
        ),
    ),
    (
        r"Please say which one: (?P<names>.+)\.",
        lambda m: f"Bitte sag, welche: {m['names'].replace(' or ', ' oder ')}.",
    ),
    (
        r"On that day (?P<place>.+?) is at (?P<actual>\S+), not (?P<abbr>\S+) \((?P<fixed>\S+)\)\. Did you mean (?P=place) time, or a fixed (?P=fixed)\?",
        lambda m: (
            f"An diesem Tag gilt in {m['place']} {m['actual']}, nicht {m['abbr']} ({m['fixed']}). Meinst du die Zeit von {m['place']} oder fest {m['fixed']}?"
        ),
    ),
    # refusals
    (
        r"I can only repeat a reminder at a fixed interval counted from when you set it \(for example “every day” means every 24 hours from now\), not at a clock time or on certain days\. Say “every day” to start the 24 hours now, or set it once, for example “tomorrow at 9am”\.",
        "Ich kann eine Erinnerung nur in einem festen Abstand wiederholen, gezählt ab dem Stellen (zum Beispiel heißt „jeden Tag“ alle 24 Stunden ab jetzt), nicht zu einer Uhrzeit oder an bestimmten Tagen. Sag „jeden Tag“, um die 24 Stunden jetzt zu beginnen, oder stell sie einmal, zum Beispiel „morgen um 9 Uhr“.",
    ),
    (
        r"(?P<c>[0-9:]+) (?:today|on (?P<d>[0-9]+ \w+ [0-9]+)) has already passed \((?P<rel>[^)]+)\); pick a time in the future\.",
        lambda m: (
            f"{m['c']} Uhr {'heute' if not m['d'] else 'am ' + long_date(m['d'])} ist schon vorbei ({relative(m['rel'])}); nimm eine Zeit in der Zukunft."
        ),
    ),
    (
        r"That time has already passed; pick a time in the future\.",
        "Diese Zeit ist schon vorbei; nimm eine Zeit in der Zukunft.",
    ),
    (
        r"That day(?: \((?P<d>[^)]+)\))? has already passed; pick a time in the future\.",
        lambda m: (
            f"Dieser Tag{' (' + long_date(m['d']) + ')' if m['d'] else ''} ist schon vorbei; nimm eine Zeit in der Zukunft."
        ),
    ),
    (
        r"That's now, not later: give me a time in the future, like “in 5 minutes”\.",
        "Das ist jetzt, nicht später: Nenn mir eine Zeit in der Zukunft, etwa „in 5 Minuten“.",
    ),
    (
        r"“(?P<x>[^”]+)” isn't a time of day I understand; try 17:00 or 5pm\.",
        lambda m: f"„{m['x']}“ ist keine Uhrzeit, die ich verstehe; versuch 17:00 Uhr.",
    ),
    (
        r"There is no date (?P<d>\S+) in the calendar; check the day and the month\.",
        lambda m: f"Den {m['d']} gibt es im Kalender nicht; prüf Tag und Monat.",
    ),
    (
        r"That date is outside the range I can work with\.",
        "Dieses Datum liegt außerhalb dessen, was ich berechnen kann.",
    ),
    (
        r"I can set one reminder at a time, at one time \(or one fixed interval\)\. Please ask for them one by one, for example “remind me at 5pm to call mom”, then “remind me at 6pm to cook”\.",
        "Ich kann nur eine Erinnerung auf einmal stellen, zu einer Zeit (oder in einem festen Abstand). Bitte frag nacheinander, zum Beispiel „erinnere mich um 17 Uhr, Mama anzurufen“, dann „erinnere mich um 18 Uhr ans Kochen“.",
    ),
    (
        r"I couldn't tell the task from the time in “(?P<x>[^”]+)”\. Please say one time and the task, for example “remind me at 5pm to drink water”\.",
        lambda m: (
            f"Ich konnte in „{m['x']}“ die Aufgabe nicht von der Zeit trennen. Bitte nenn eine Zeit und die Aufgabe, zum Beispiel „erinnere mich um 17 Uhr ans Trinken“."
        ),
    ),
    (
        r"I can't change a reminder once it is set\. Delete it and set a new one instead, for example “delete the stretch reminder”, then “remind me at 6pm to stretch”\.",
        "Eine gestellte Erinnerung kann ich nicht ändern. Lösch sie und stell eine neue, zum Beispiel „lösch die Dehnen-Erinnerung“, dann „erinnere mich um 18 Uhr ans Dehnen“.",
    ),
    (
        r"I don't use tools from MCP servers: I'm Chime's built-in offline assistant and only handle reminders\. A model connected in Settings \(Ctrl\+,\) can use the MCP servers you add there, in the conversations where you turn them on\.",
        "Werkzeuge von MCP-Servern nutze ich nicht: Ich bin Chimes eingebauter Offline-Assistent und kümmere mich nur um Erinnerungen. Ein in den Einstellungen (Strg+,) verbundenes Modell kann die MCP-Server nutzen, die du dort hinzufügst, in den Gesprächen, in denen du sie einschaltest.",
    ),
    (
        r"Which reminder should I delete\? Say for example “delete the stretch reminder”, or “list my reminders” to see them\.",
        "Welche Erinnerung soll ich löschen? Sag zum Beispiel „lösch die Dehnen-Erinnerung“ oder „welche Erinnerungen habe ich“, um sie zu sehen.",
    ),
    (
        r"(?P<c>[0-9:]+) on (?P<d>\w{3} [0-9]+ \w{3} [0-9]{4}) doesn't exist in (?P<z>.+?) because the clocks skip it; pick another time\.",
        lambda m: (
            f"{m['c']} Uhr am {day(m['d'])} gibt es in {zone(m['z'])} nicht, weil die Uhren bei der Zeitumstellung vorspringen; nimm eine andere Zeit."
        ),
    ),
    (
        r"That date or time isn't a real calendar date and time, so nothing was set\.",
        "Dieses Datum oder diese Uhrzeit gibt es im Kalender nicht, also habe ich nichts gestellt.",
    ),
    (
        r"I can repeat a reminder at most every 5 minutes, so (?P<e>.+?) is too often; nothing was set\.",
        lambda m: (
            f"Ich kann eine Erinnerung höchstens alle 5 Minuten wiederholen, {every(m['e'])} ist zu oft; ich habe nichts gestellt."
        ),
    ),
    # lists and deletes
    (
        r"You have no reminders in this conversation, so there is nothing to delete\.",
        "Du hast keine Erinnerungen in diesem Gespräch, also gibt es nichts zu löschen.",
    ),
    (
        r"You have no reminders in this conversation\.",
        "Du hast keine Erinnerungen in diesem Gespräch.",
    ),
    (
        r"You have (?P<n>[0-9]+) reminders? in this conversation(?P<utc> \(times in UTC\))?:",
        lambda m: (
            f"Du hast {_count(m['n'], 'Erinnerung', 'Erinnerungen')} in diesem Gespräch{' (Zeiten in UTC)' if m['utc'] else ''}:"
        ),
    ),
    (r"(?m)^- (?P<head>.+?) — (?P<rest>.+)$", _list_line),
    (r"\(a reminder I couldn't read\)", "(eine Erinnerung, die ich nicht lesen konnte)"),
    (r"Deleted “(?P<p>.+)”(?P<id> \*\(.+?\)\*)\.", lambda m: f"Gelöscht: „{m['p']}“{m['id']}."),
    (r"Deleted reminder (?P<r>\S+)\.", lambda m: f"Erinnerung {m['r']} gelöscht."),
    (
        r"Deleted (?:the reminder|all (?P<all>[0-9]+) reminders|(?P<n>[0-9]+) reminders?): (?P<names>.+)\.",
        lambda m: (
            f"Gelöscht{' (alle ' + number(m['all']) + ')' if m['all'] else ''}: {names(m['names'])}."
        ),
    ),
    (
        r"There is no active reminder (?P<r>\S+) in this conversation \(it may have fired already or been deleted\)\. Say “list my reminders” to see them\.",
        lambda m: (
            f"In diesem Gespräch gibt es keine aktive Erinnerung {m['r']} (sie kam vielleicht schon oder wurde gelöscht). Sag „welche Erinnerungen habe ich“, um sie zu sehen."
        ),
    ),
    (
        r"I couldn't find a reminder (?:matching “(?P<w>[^”]+)”|like that)\. Your reminders are: (?P<names>.+)\.",
        lambda m: (
            f"Ich habe keine Erinnerung{' zu „' + m['w'] + '“' if m['w'] else ' dieser Art'} gefunden. Deine Erinnerungen: {names(m['names'])}."
        ),
    ),
    (
        r"That reminder is no longer active \(it may have fired or been deleted\), so I deleted nothing\.",
        "Diese Erinnerung ist nicht mehr aktiv (sie kam vielleicht schon oder wurde gelöscht), also habe ich nichts gelöscht.",
    ),
    (r"Several reminders match:", "Mehrere Erinnerungen passen:"),
    (
        r"Which one should I delete\? Say “the first one”, describe it, or say “(?P<all>both|all of them)”\.",
        lambda m: (
            f"Welche soll ich löschen? Sag „die erste“, beschreib sie, oder sag „{'beide' if m['all'] == 'both' else 'alle'}“."
        ),
    ),
    (
        r"Delete all (?P<n>[0-9]+) reminders\? That is (?P<names>.+)\. Say “yes” to delete them, or “no” to keep them\.",
        lambda m: (
            f"Alle {number(m['n'])} Erinnerungen löschen? Das sind {names(m['names'])}. Sag „ja“, um sie zu löschen, oder „nein“, um sie zu behalten."
        ),
    ),
    (
        r"Should I delete all (?P<n>[0-9]+) reminders\? Say “yes” to delete them or “no” to keep them\.",
        lambda m: (
            f"Soll ich alle {number(m['n'])} Erinnerungen löschen? Sag „ja“, um sie zu löschen, oder „nein“, um sie zu behalten."
        ),
    ),
    # small talk and failures
    (r"Okay, I didn't delete anything\.", "Okay, ich habe nichts gelöscht."),
    (r"Okay, I kept them all\.", "Okay, ich habe alle behalten."),
    (r"Okay, I won't set it\.", "Okay, dann stelle ich sie nicht."),
    (r"Okay, nothing to do then\.", "Okay, dann gibt es nichts zu tun."),
    (r"You're welcome!", "Gern geschehen!"),
    (
        r"Hi! I'm Chime's built-in offline assistant, a simple helper for reminders \(not an AI model\)\. Try “remind me in 10 minutes to stretch” or “what reminders do I have”\.",
        "Hallo! Ich bin Chimes eingebauter Offline-Assistent, ein einfacher Helfer für Erinnerungen (kein KI-Modell). Versuch „erinnere mich in 10 Minuten ans Dehnen“ oder „welche Erinnerungen habe ich“.",
    ),
    (
        r"Bye! Your reminders arrive in this conversation while it is open\.",
        "Tschüss! Deine Erinnerungen kommen in diesem Gespräch an, solange es offen ist.",
    ),
    (
        r"(?s)I'm Chime's built-in offline assistant: a simple helper for reminders, not an AI model\..*DeepSeek\.",
        HELP,
    ),
    (
        r"Sorry, I didn't understand that\. I only handle reminders: try “remind me in 10 minutes to stretch”, “what reminders do I have” or “cancel the stretch reminder”, or say “help”\.",
        "Das habe ich leider nicht verstanden. Ich kümmere mich nur um Erinnerungen: Versuch „erinnere mich in 10 Minuten ans Dehnen“, „welche Erinnerungen habe ich“ oder „lösch die Dehnen-Erinnerung“, oder sag „Hilfe“.",
    ),
    (
        r"I can't manage reminders here: the reminder tools aren't available in this conversation\.",
        "Hier kann ich keine Erinnerungen verwalten: Die Erinnerungswerkzeuge sind in diesem Gespräch nicht verfügbar.",
    ),
    (
        r"I lost track of that request, so I'm not sure what happened\. Please ask me again\.",
        "Ich habe bei dieser Anfrage den Faden verloren und weiß nicht, was passiert ist. Bitte frag noch einmal.",
    ),
    (
        r"The reminder tool didn't answer, so I can't say what happened\.",
        "Das Erinnerungswerkzeug hat nicht geantwortet, also kann ich nicht sagen, was passiert ist.",
    ),
    (
        r"The reminder tool refused my request, so nothing was changed: ",
        "Das Erinnerungswerkzeug hat meine Anfrage abgelehnt, also wurde nichts geändert: ",
    ),
    (
        r"The reminder tool gave an answer I couldn't read",
        "Das Erinnerungswerkzeug gab eine Antwort, die ich nicht lesen konnte",
    ),
    (
        r", so I can't say whether it was set\.",
        ", also kann ich nicht sagen, ob sie gestellt wurde.",
    ),
    (r"^Okay\.$", "Okay."),
    # the time
    (
        r"In (?P<place>.+?) it's (?P<c>[0-9:]+) on (?P<d>.+?) \((?P<z>[^)]+)\)\.",
        lambda m: f"In {m['place']} ist es {m['c']} Uhr am {long_day(m['d'])} ({m['z']}).",
    ),
    (
        r"It's (?P<c>[0-9:]+) UTC on (?P<d>.+?)\. I don't know your time zone \(the status bar says so\)\.",
        lambda m: (
            f"Es ist {m['c']} Uhr UTC am {long_day(m['d'])}. Deine Zeitzone kenne ich nicht (die Statusleiste zeigt das an)."
        ),
    ),
    (
        r"It's (?P<c>[0-9:]+) on (?P<d>.+?) \((?P<z>[^)]+)\)\.",
        lambda m: f"Es ist {m['c']} Uhr am {long_day(m['d'])} ({m['z']}).",
    ),
    # reminder turns
    (r"Reminder: ", "Erinnerung: "),
    (
        r"due (?P<w>[^,;]+), (?P<rel>[^;]+); this conversation wasn't open then",
        lambda m: (
            f"fällig {when(m['w'])}, {relative(m['rel'])}; dieses Gespräch war da nicht offen"
        ),
    ),
    (
        r"missed (?P<n>once|[0-9]+ times) while this conversation was closed",
        lambda m: (
            f"{'einmal' if m['n'] == 'once' else number(m['n'].split()[0]) + '-mal'} verpasst, während dieses Gespräch geschlossen war"
        ),
    ),
    (
        r"A reminder is due, but I couldn't read its details\. Say “list my reminders” to see what is still scheduled\.",
        "Eine Erinnerung ist fällig, aber ihre Einzelheiten konnte ich nicht lesen. Sag „welche Erinnerungen habe ich“, um zu sehen, was noch geplant ist.",
    ),
)
_COMPILED = tuple((re.compile(pattern), template) for pattern, template in _SENTENCES)


def translate(answer: str) -> str:
    """``answer`` in German (see the module docstring)."""
    for pattern, template in _COMPILED:
        answer = pattern.sub(template if callable(template) else _literal(template), answer)
    return re.sub(r"“([^“”„]*)”", r"„\1“", answer)


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: text
