<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <source>&amp;New session</source>
        <translation>&amp;Neue Sitzung</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>&amp;Umbenennen…</translation>
    </message>
    <message>
        <source>Choose &amp;model…</source>
        <translation>Modell &amp;wählen…</translation>
    </message>
    <message>
        <source>&amp;Instructions and temperature…</source>
        <translation>Anwe&amp;isungen und Temperatur…</translation>
    </message>
    <message>
        <source>&amp;Fork from last good turn</source>
        <translation>Ab letzter gelungener Runde &amp;abzweigen</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>Als &amp;Markdown exportieren…</translation>
    </message>
    <message>
        <source>Export as &amp;JSONL…</source>
        <translation>Als &amp;JSONL exportieren…</translation>
    </message>
    <message>
        <source>Im&amp;port conversations…</source>
        <translation>Gespräche im&amp;portieren…</translation>
    </message>
    <message>
        <source>&amp;Close session</source>
        <translation>Sitzung &amp;schließen</translation>
    </message>
    <message>
        <source>&amp;Delete session</source>
        <translation>Sitzung &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Undo delete</source>
        <translation>Löschen &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>Ne&amp;xt session</source>
        <translation>Nä&amp;chste Sitzung</translation>
    </message>
    <message>
        <source>Pre&amp;vious session</source>
        <translation>&amp;Vorherige Sitzung</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Copy message</source>
        <translation>Nachricht &amp;kopieren</translation>
    </message>
    <message>
        <source>&amp;Stop answer</source>
        <translation>Antwort &amp;abbrechen</translation>
    </message>
    <message>
        <source>&amp;Retry failed turn</source>
        <translation>Fehlgeschlagene Runde &amp;wiederholen</translation>
    </message>
    <message>
        <source>Re&amp;generate last answer</source>
        <translation>Letzte Antwort &amp;neu erzeugen</translation>
    </message>
    <message>
        <source>C&amp;ontinue last answer</source>
        <translation>Letzte Antwort f&amp;ortsetzen</translation>
    </message>
    <message>
        <source>&amp;Undo hide</source>
        <translation>Ausblenden &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>&amp;Find in conversation…</source>
        <translation>Im Gespräch &amp;suchen…</translation>
    </message>
    <message>
        <source>Find ne&amp;xt</source>
        <translation>Nächster &amp;Treffer</translation>
    </message>
    <message>
        <source>Find pre&amp;vious</source>
        <translation>&amp;Vorheriger Treffer</translation>
    </message>
    <message>
        <source>&amp;Attach files…</source>
        <translation>&amp;Dateien anhängen…</translation>
    </message>
    <message>
        <source>Se&amp;ttings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>Saved &amp;prompts…</source>
        <translation>Gespeicherte &amp;Prompts …</translation>
    </message>
    <message>
        <source>Go to &amp;message box</source>
        <translation>Zum &amp;Nachrichtenfeld</translation>
    </message>
    <message>
        <source>Go to &amp;transcript</source>
        <translation>Zum &amp;Verlauf</translation>
    </message>
    <message>
        <source>Go to &amp;sessions</source>
        <translation>Zu den &amp;Sitzungen</translation>
    </message>
    <message>
        <source>Searc&amp;h all sessions</source>
        <translation>Alle Sitzungen &amp;durchsuchen</translation>
    </message>
    <message>
        <source>S&amp;essions sidebar</source>
        <translation>Sitzungs&amp;leiste</translation>
    </message>
    <message>
        <source>&amp;Reminders panel</source>
        <translation>&amp;Erinnerungsleiste</translation>
    </message>
    <message>
        <source>&amp;All reminders…</source>
        <translation>&amp;Alle Erinnerungen…</translation>
    </message>
    <message>
        <source>Show time &amp;context</source>
        <translation>&amp;Zeitkontext anzeigen</translation>
    </message>
    <message>
        <source>&amp;Wrap long code lines</source>
        <translation>Lange Codezeilen &amp;umbrechen</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About Chime</source>
        <translation>Ü&amp;ber Chime</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>&amp;Sitzung</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
</context>
<context>
    <name>AllReminders</name>
    <message>
        <source>Overdue</source>
        <translation>Überfällig</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Tomorrow</source>
        <translation>Morgen</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>live</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>waiting until its conversation is opened</source>
        <translation>wartet, bis das Gespräch geöffnet wird</translation>
    </message>
    <message>
        <source>overdue · opens to deliver</source>
        <translation>überfällig · kommt beim Öffnen</translation>
    </message>
</context>
<context>
    <name>AllRemindersDialog</name>
    <message>
        <source>All reminders — Chime</source>
        <translation>Alle Erinnerungen — Chime</translation>
    </message>
    <message>
        <source>All reminders</source>
        <translation>Alle Erinnerungen</translation>
    </message>
    <message>
        <source>No reminders are set in any conversation.</source>
        <translation>In keinem Gespräch ist eine Erinnerung gestellt.</translation>
    </message>
</context>
<context>
    <name>AnswerWait</name>
    <message>
        <source>Waiting for the answer…</source>
        <translation>Warten auf die Antwort…</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Denkt nach…</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <source>A session log&apos;s incomplete last write (never saved) was set aside as {name}.</source>
        <translation>Der unvollständige letzte Schreibvorgang eines Sitzungsprotokolls (nie gespeichert) wurde als {name} beiseitegelegt.</translation>
    </message>
    <message>
        <source>Could not open the session: </source>
        <translation>Die Sitzung konnte nicht geöffnet werden: </translation>
    </message>
    <message>
        <source>Chime cannot write to {folder}: {reason}. Conversations cannot be saved; choose another folder with --data-dir or fix its permissions.</source>
        <translation>Chime kann nicht in {folder} schreiben: {reason}. Gespräche können nicht gespeichert werden; wählen Sie mit --data-dir einen anderen Ordner oder korrigieren Sie dessen Zugriffsrechte.</translation>
    </message>
    <message>
        <source>Could not create a new session. </source>
        <translation>Es konnte keine neue Sitzung angelegt werden. </translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>nicht gespeichert</translation>
    </message>
    <message>
        <source>Nothing can be saved — see above.</source>
        <translation>Nichts kann gespeichert werden – siehe oben.</translation>
    </message>
    <message>
        <source>live</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>read-only: folder not writable</source>
        <translation>schreibgeschützt: Ordner nicht beschreibbar</translation>
    </message>
    <message>
        <source>Read-only — nothing can be saved here.</source>
        <translation>Schreibgeschützt – hier kann nichts gespeichert werden.</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>beschädigt</translation>
    </message>
    <message>
        <source>read-only: open elsewhere</source>
        <translation>schreibgeschützt: anderswo geöffnet</translation>
    </message>
    <message>
        <source>This session is read-only.</source>
        <translation>Diese Sitzung ist schreibgeschützt.</translation>
    </message>
    <message>
        <source>Fork a copy to continue here</source>
        <translation>Eine Kopie abzweigen, um hier weiterzumachen</translation>
    </message>
    <message>
        <source>Read-only session — fork it to continue.</source>
        <translation>Schreibgeschützte Sitzung – zweigen Sie sie ab, um weiterzumachen.</translation>
    </message>
    <message>
        <source>The offline assistant cannot read images; choose a model that reads images in the model picker.</source>
        <translation>Der Offline-Assistent kann keine Bilder lesen; wählen Sie in der Modellauswahl ein Modell, das Bilder liest.</translation>
    </message>
    <message>
        <source>There is no failed turn to retry.</source>
        <translation>Es gibt keine fehlgeschlagene Runde zum Wiederholen.</translation>
    </message>
    <message>
        <source>Could not fork: </source>
        <translation>Abzweigen fehlgeschlagen: </translation>
    </message>
    <message>
        <source>New session</source>
        <translation>Neue Sitzung</translation>
    </message>
    <message>
        <source>Could not delete: </source>
        <translation>Löschen fehlgeschlagen: </translation>
    </message>
    <message>
        <source>“{title}” moved to the trash. Undo: Ctrl+Shift+T</source>
        <translation>„{title}“ wurde in den Papierkorb verschoben. Rückgängig: Strg+Umschalt+T</translation>
    </message>
    <message>
        <source>“{title}” is back.</source>
        <translation>„{title}“ ist wieder da.</translation>
    </message>
    <message>
        <source>Could not export to {target}: {reason}</source>
        <translation>Export nach {target} fehlgeschlagen: {reason}</translation>
    </message>
    <message>
        <source>Exported to </source>
        <translation>Exportiert nach </translation>
    </message>
    <message>
        <source>“{title}” can no longer be saved: its folder in {folder} was deleted or moved. Chime keeps the conversation open; save a copy elsewhere before quitting.</source>
        <translation>„{title}“ kann nicht mehr gespeichert werden: Sein Ordner in {folder} wurde gelöscht oder verschoben. Chime lässt das Gespräch offen; speichern Sie vor dem Beenden eine Kopie an einem anderen Ort.</translation>
    </message>
    <message>
        <source>(unreadable)</source>
        <translation>(nicht lesbar)</translation>
    </message>
    <message>
        <source>Reminder: </source>
        <translation>Erinnerung: </translation>
    </message>
    <message>
        <source>Unreadable session</source>
        <translation>Nicht lesbare Sitzung</translation>
    </message>
</context>
<context>
    <name>Application</name>
    <message>
        <source>opening…</source>
        <translation>wird geöffnet…</translation>
    </message>
</context>
<context>
    <name>AttachFlow</name>
    <message>
        <source>“{name}” is a folder: choose the files in it instead.</source>
        <translation>„{name}“ ist ein Ordner: Wählen Sie stattdessen die Dateien darin.</translation>
    </message>
    <message>
        <source>“{name}” could not be read ({reason}).</source>
        <translation>„{name}“ konnte nicht gelesen werden ({reason}).</translation>
    </message>
    <message>
        <source>“{name}” is not a regular file (a device, a pipe or a socket), so it cannot be attached.</source>
        <translation>„{name}“ ist keine gewöhnliche Datei (ein Gerät, eine Pipe oder ein Socket) und kann daher nicht angehängt werden.</translation>
    </message>
    <message>
        <source>“{name}” was not added: reading it took longer than {seconds} seconds.</source>
        <translation>„{name}“ wurde nicht hinzugefügt: Das Lesen dauerte länger als {seconds} Sekunden.</translation>
    </message>
    <message>
        <source>“{name}” was not added: {reason}</source>
        <translation>„{name}“ wurde nicht hinzugefügt: {reason}</translation>
    </message>
</context>
<context>
    <name>AttachmentOpener</name>
    <message>
        <source>“{name}” cannot be opened: its stored copy is missing or damaged.</source>
        <translation>„{name}“ kann nicht geöffnet werden: Die gespeicherte Kopie fehlt oder ist beschädigt.</translation>
    </message>
    <message>
        <source>“{name}” could not be opened ({reason}).</source>
        <translation>„{name}“ konnte nicht geöffnet werden ({reason}).</translation>
    </message>
    <message>
        <source>“{name}” could not be opened: no program on this computer opens it.</source>
        <translation>„{name}“ konnte nicht geöffnet werden: Kein Programm auf diesem Computer öffnet diese Datei.</translation>
    </message>
</context>
<context>
    <name>AttachmentStrip</name>
    <message>
        <source>Open {name}</source>
        <translation>{name} öffnen</translation>
    </message>
    <message>
        <source>Remove {name}</source>
        <translation>{name} entfernen</translation>
    </message>
    <message>
        <source>The picture cannot be shown: its file is missing or damaged.</source>
        <translation>Das Bild kann nicht angezeigt werden: Die Datei fehlt oder ist beschädigt.</translation>
    </message>
</context>
<context>
    <name>Background</name>
    <message>
        <source>Start at login could not be changed: </source>
        <translation>Der Start bei der Anmeldung konnte nicht geändert werden: </translation>
    </message>
    <message>
        <source>Chime keeps running in the tray so your reminders arrive on time. Quit it from the tray&apos;s menu (or with Ctrl+Q in its window); Settings changes this.</source>
        <translation>Chime läuft im Infobereich weiter, damit Ihre Erinnerungen pünktlich kommen. Beenden können Sie es über das Menü im Infobereich (oder mit Strg+Q in seinem Fenster); in den Einstellungen lässt sich das ändern.</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Fork from last good turn</source>
        <translation>Ab letzter gelungener Runde abzweigen</translation>
    </message>
</context>
<context>
    <name>ChoicesFlow</name>
    <message>
        <source>Offline assistant</source>
        <translation>Offline-Assistent</translation>
    </message>
    <message>
        <source>default model</source>
        <translation>Standardmodell</translation>
    </message>
    <message>
        <source>The choice could not be recorded: </source>
        <translation>Die Auswahl konnte nicht gespeichert werden: </translation>
    </message>
    <message>
        <source>The instructions could not be recorded: </source>
        <translation>Die Anweisungen konnten nicht gespeichert werden: </translation>
    </message>
    <message>
        <source>This session&apos;s instructions apply from its next answer.</source>
        <translation>Die Anweisungen dieser Sitzung gelten ab ihrer nächsten Antwort.</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Message — try: remind me in 10 minutes to stretch</source>
        <translation>Nachricht – zum Beispiel: erinnere mich in 10 Minuten ans Dehnen</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Send message</source>
        <translation>Nachricht senden</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop the running answer</source>
        <translation>Die laufende Antwort abbrechen</translation>
    </message>
    <message>
        <source>Stop the running answer (Esc)</source>
        <translation>Die laufende Antwort abbrechen (Esc)</translation>
    </message>
    <message>
        <source>This session is read-only.</source>
        <translation>Diese Sitzung ist schreibgeschützt.</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Einreihen</translation>
    </message>
</context>
<context>
    <name>ComposerTools</name>
    <message>
        <source>Attach files</source>
        <translation>Dateien anhängen</translation>
    </message>
    <message>
        <source>Attach files (Ctrl+U): text files up to 256 KB, PNG, JPEG, GIF or WebP images up to 5 MB. You can also drop or paste them here.</source>
        <translation>Dateien anhängen (Strg+U): Textdateien bis 256 KB, PNG-, JPEG-, GIF- oder WebP-Bilder bis 5 MB. Sie können sie auch hierher ziehen oder einfügen.</translation>
    </message>
    <message>
        <source>Instructions for this session</source>
        <translation>Anweisungen für diese Sitzung</translation>
    </message>
    <message>
        <source>Instructions ✓</source>
        <translation>Anweisungen ✓</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>Anweisungen</translation>
    </message>
    <message>
        <source>This session&apos;s instructions:</source>
        <translation>Die Anweisungen dieser Sitzung:</translation>
    </message>
    <message>
        <source>No instructions of its own: Chime&apos;s prompt only.</source>
        <translation>Keine eigenen Anweisungen: nur Chimes Prompt.</translation>
    </message>
    <message>
        <source>Temperature: {value:g}</source>
        <translation>Temperatur: {value:g}</translation>
    </message>
    <message>
        <source>Click to change them (Ctrl+I).</source>
        <translation>Zum Ändern klicken (Strg+I).</translation>
    </message>
</context>
<context>
    <name>ConversationBar</name>
    <message>
        <source>Conversation position</source>
        <translation>Position im Gespräch</translation>
    </message>
</context>
<context>
    <name>ConversationVerbs</name>
    <message>
        <source>This message has no failed answer to retry.</source>
        <translation>Diese Nachricht hat keine fehlgeschlagene Antwort zum Wiederholen.</translation>
    </message>
    <message>
        <source>A reminder cannot be edited: retry it, or discard it.</source>
        <translation>Eine Erinnerung kann nicht bearbeitet werden: Wiederholen oder verwerfen Sie sie.</translation>
    </message>
    <message>
        <source>send the edited message</source>
        <translation>die bearbeitete Nachricht senden</translation>
    </message>
    <message>
        <source>regenerate the answer</source>
        <translation>die Antwort neu erzeugen</translation>
    </message>
    <message>
        <source>This answer was not cut off: there is nothing to continue.</source>
        <translation>Diese Antwort wurde nicht abgeschnitten: Es gibt nichts fortzusetzen.</translation>
    </message>
    <message>
        <source>There is no answer to regenerate yet.</source>
        <translation>Es gibt noch keine Antwort, die neu erzeugt werden kann.</translation>
    </message>
    <message>
        <source>There is no answer to continue yet.</source>
        <translation>Es gibt noch keine Antwort, die fortgesetzt werden kann.</translation>
    </message>
    <message>
        <source>hide the message</source>
        <translation>die Nachricht ausblenden</translation>
    </message>
    <message>
        <source>Discarded “{words}”: left out of the view and of what the model is sent.</source>
        <translation>„{words}“ verworfen: aus der Ansicht und aus dem, was das Modell erhält, herausgenommen.</translation>
    </message>
    <message>
        <source>“{words}” is hidden from the model (and from this view).</source>
        <translation>„{words}“ ist vor dem Modell (und in dieser Ansicht) ausgeblendet.</translation>
    </message>
    <message>
        <source>The message is back in the view and the history.</source>
        <translation>Die Nachricht ist wieder in der Ansicht und im Verlauf.</translation>
    </message>
    <message>
        <source>The message is back, in a version of this conversation not shown now (switch versions with ‹ ›).</source>
        <translation>Die Nachricht ist wieder da, in einer Version dieses Gesprächs, die gerade nicht angezeigt wird (Versionen wechseln Sie mit ‹ ›).</translation>
    </message>
    <message>
        <source>There is no hidden message to bring back.</source>
        <translation>Es gibt keine ausgeblendete Nachricht zum Zurückholen.</translation>
    </message>
    <message>
        <source>show the message again</source>
        <translation>die Nachricht wieder zeigen</translation>
    </message>
    <message>
        <source>switch to that version</source>
        <translation>zu dieser Version wechseln</translation>
    </message>
    <message>
        <source>This session is read-only: nothing can be changed.</source>
        <translation>Diese Sitzung ist schreibgeschützt: Nichts kann geändert werden.</translation>
    </message>
    <message>
        <source>Could not {what}: {why}</source>
        <translation>Nicht möglich – {what}: {why}</translation>
    </message>
</context>
<context>
    <name>Crash</name>
    <message>
        <source>Chime could not use the disk: %1. Recent changes may not be saved; details are in %2.</source>
        <translation>Chime konnte nicht auf die Festplatte zugreifen: %1. Die letzten Änderungen sind möglicherweise nicht gespeichert; Einzelheiten stehen in %2.</translation>
    </message>
    <message>
        <source>Something unexpected went wrong; details are in %1.</source>
        <translation>Etwas Unerwartetes ist schiefgelaufen; Einzelheiten stehen in %1.</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>Rename session</source>
        <translation>Sitzung umbenennen</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>Titel:</translation>
    </message>
    <message>
        <source>Don&apos;t ask again</source>
        <translation>Nicht mehr fragen</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Export session</source>
        <translation>Sitzung exportieren</translation>
    </message>
    <message>
        <source>Quit Chime?</source>
        <translation>Chime beenden?</translation>
    </message>
    <message>
        <source>Quit and lose them</source>
        <translation>Beenden und verwerfen</translation>
    </message>
    <message>
        <source>Keep Chime open</source>
        <translation>Chime geöffnet lassen</translation>
    </message>
    <message>
        <source>Set this reminder?</source>
        <translation>Diese Erinnerung setzen?</translation>
    </message>
    <message>
        <source>“{prompt}” — {when}</source>
        <translation>„{prompt}“ — {when}</translation>
    </message>
    <message>
        <source>The model answered in words and set nothing; this is the reminder as Chime&apos;s offline assistant understood your message.</source>
        <translation>Das Modell hat nur in Worten geantwortet und nichts gesetzt; so hat Chimes Offline-Assistent Ihre Nachricht verstanden.</translation>
    </message>
    <message>
        <source>Set reminder</source>
        <translation>Erinnerung setzen</translation>
    </message>
    <message>
        <source>Restart Chime?</source>
        <translation>Chime neu starten?</translation>
    </message>
    <message>
        <source>Chime switches to %1 when it starts again. Restart it now? Your conversations and reminders are saved first, and the open ones open again.</source>
        <translation>Chime wechselt beim nächsten Start zu %1. Jetzt neu starten? Ihre Gespräche und Erinnerungen werden vorher gespeichert, und die geöffneten öffnen sich wieder.</translation>
    </message>
    <message>
        <source>Restart now</source>
        <translation>Jetzt neu starten</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>Attach files</source>
        <translation>Dateien anhängen</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.gif *.webp)</source>
        <translation>Bilder (*.png *.jpg *.jpeg *.gif *.webp)</translation>
    </message>
</context>
<context>
    <name>EditBar</name>
    <message>
        <source>Editing a message — Esc to cancel</source>
        <translation>Nachricht wird bearbeitet – Esc bricht ab</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel the edit</source>
        <translation>Die Bearbeitung abbrechen</translation>
    </message>
</context>
<context>
    <name>Failures</name>
    <message>
        <source>The server said: %1</source>
        <translation>Der Server meldete: %1</translation>
    </message>
    <message>
        <source>Check that the base URL points to an OpenAI-compatible API (it usually ends in /v1).</source>
        <translation>Prüfen Sie, ob die Basis-URL auf eine OpenAI-kompatible API zeigt (sie endet meist auf /v1).</translation>
    </message>
    <message>
        <source>The model endpoint at %1 did not answer for %2 seconds. Check that the server is running and not overloaded, then retry.</source>
        <translation>Der Modell-Endpunkt unter %1 hat %2 Sekunden lang nicht geantwortet. Prüfen Sie, ob der Server läuft und nicht überlastet ist, und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>The model endpoint at %1 stopped sending the answer for %2 seconds. Check that the server is running and not overloaded, then retry.</source>
        <translation>Der Modell-Endpunkt unter %1 hat %2 Sekunden lang nichts mehr von der Antwort geschickt. Prüfen Sie, ob der Server läuft und nicht überlastet ist, und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>Could not connect to the model endpoint at %1. Check that the server is running and that the base URL in Settings is right.</source>
        <translation>Keine Verbindung zum Modell-Endpunkt unter %1. Prüfen Sie, ob der Server läuft und die Basis-URL in den Einstellungen stimmt.</translation>
    </message>
    <message>
        <source>The base URL &apos;%1&apos; is not a web address this app can use. Enter one that starts with http:// or https:// in Settings, for example http://localhost:11434/v1.</source>
        <translation>Die Basis-URL „%1“ ist keine Webadresse, die diese App verwenden kann. Geben Sie in den Einstellungen eine ein, die mit http:// oder https:// beginnt, zum Beispiel http://localhost:11434/v1.</translation>
    </message>
    <message>
        <source>The connection to the model endpoint broke before the answer was complete. Retry; if it keeps happening, check the server.</source>
        <translation>Die Verbindung zum Modell-Endpunkt ist abgebrochen, bevor die Antwort vollständig war. Versuche es erneut; passiert es öfter, prüfe den Server.</translation>
    </message>
    <message>
        <source>The model endpoint closed the stream before the answer was complete. Retry; if it keeps happening, check the server.</source>
        <translation>Der Modell-Endpunkt hat den Stream geschlossen, bevor die Antwort vollständig war. Versuche es erneut; passiert es öfter, prüfe den Server.</translation>
    </message>
    <message>
        <source>The model endpoint at %1 accepted the request, then stopped answering: the server seems to have stopped or crashed. Restart it, then retry; its log says why.</source>
        <translation>Der Modell-Endpunkt unter %1 hat die Anfrage angenommen und dann nicht mehr geantwortet: Der Server scheint beendet oder abgestürzt zu sein. Starten Sie ihn neu und versuchen Sie es dann erneut; sein Protokoll sagt, warum.</translation>
    </message>
    <message>
        <source>The model endpoint sent a stream this app cannot read (%1).</source>
        <translation>Der Modell-Endpunkt hat einen Stream geschickt, den diese App nicht lesen kann (%1).</translation>
    </message>
    <message>
        <source>The model endpoint sent more than %1 bytes without finishing one piece of the answer.</source>
        <translation>Der Modell-Endpunkt hat mehr als %1 Byte geschickt, ohne ein Stück der Antwort abzuschließen.</translation>
    </message>
    <message>
        <source>The model endpoint&apos;s model list is not in the OpenAI format.</source>
        <translation>Die Modellliste des Modell-Endpunkts ist nicht im OpenAI-Format.</translation>
    </message>
    <message>
        <source>The model endpoint reported an error while answering.</source>
        <translation>Der Modell-Endpunkt hat beim Antworten einen Fehler gemeldet.</translation>
    </message>
    <message>
        <source>The endpoint requires an API key (401). Add the key in Settings.</source>
        <translation>Der Endpunkt verlangt einen API-Schlüssel (401). Trage den Schlüssel in den Einstellungen ein.</translation>
    </message>
    <message>
        <source>The endpoint rejected the API key (401). Check the key in Settings.</source>
        <translation>Der Endpunkt hat den API-Schlüssel abgelehnt (401). Prüfen Sie den Schlüssel in den Einstellungen.</translation>
    </message>
    <message>
        <source>The endpoint refused access with this API key (403). Check the key&apos;s permissions and the model in Settings.</source>
        <translation>Der Endpunkt verweigert mit diesem API-Schlüssel den Zugriff (403). Prüfen Sie die Berechtigungen des Schlüssels und das Modell in den Einstellungen.</translation>
    </message>
    <message>
        <source>The endpoint has no model named &apos;%1&apos;, or no chat API at this base URL (404). Check the model name and base URL in Settings.</source>
        <translation>Der Endpunkt hat kein Modell namens „%1“ oder keine Chat-API unter dieser Basis-URL (404). Prüfen Sie Modellnamen und Basis-URL in den Einstellungen.</translation>
    </message>
    <message>
        <source>The endpoint has no model list at this base URL (404). Check the base URL in Settings (it usually ends in /v1).</source>
        <translation>Der Endpunkt hat unter dieser Basis-URL keine Modellliste (404). Prüfen Sie die Basis-URL in den Einstellungen (sie endet meist auf /v1).</translation>
    </message>
    <message>
        <source>The endpoint is rate-limiting requests (429) and still refused after %1 retries. Wait a moment, then retry.</source>
        <translation>Der Endpunkt begrenzt die Anfragen (429) und hat auch nach %1 Wiederholungen abgelehnt. Warten Sie einen Moment und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>The endpoint is rate-limiting requests (429) and still refused. Wait a moment, then retry.</source>
        <translation>Der Endpunkt begrenzt die Anfragen (429) und hat erneut abgelehnt. Warten Sie einen Moment und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>The account behind this API key has no quota left (429). Check your plan or billing with the provider.</source>
        <translation>Das Konto hinter diesem API-Schlüssel hat kein Kontingent mehr (429). Prüfen Sie Ihren Tarif oder die Abrechnung beim Anbieter.</translation>
    </message>
    <message>
        <source>The model endpoint failed with a server error (%1) after %2 retries. Try again later, or check the server&apos;s logs.</source>
        <translation>Der Modell-Endpunkt ist nach %2 Wiederholungen mit einem Serverfehler (%1) gescheitert. Versuche es später erneut oder sieh in die Protokolle des Servers.</translation>
    </message>
    <message>
        <source>The model endpoint failed with a server error (%1). Try again later, or check the server&apos;s logs.</source>
        <translation>Der Modell-Endpunkt ist mit einem Serverfehler (%1) gescheitert. Versuche es später erneut oder sieh in die Protokolle des Servers.</translation>
    </message>
    <message>
        <source>The conversation is too long for this model&apos;s context (%1). Hide or edit earlier messages, start a new session, or choose a model with a bigger context; a local server can be given a bigger one (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192), then enter it in Settings.</source>
        <translation>Das Gespräch ist zu lang für den Kontext dieses Modells (%1). Blende frühere Nachrichten aus oder bearbeite sie, beginne eine neue Sitzung oder wähle ein Modell mit größerem Kontext; einem lokalen Server kann man einen größeren geben (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192) und ihn dann in den Einstellungen eintragen.</translation>
    </message>
    <message>
        <source>This model does not accept images (%1). Edit the message to remove the image, or choose a model that reads images.</source>
        <translation>Dieses Modell nimmt keine Bilder an (%1). Bearbeite die Nachricht und entferne das Bild, oder wähle ein Modell, das Bilder liest.</translation>
    </message>
    <message>
        <source>The endpoint refused the request (%1). Check that the model supports tool calls and that the settings are right.</source>
        <translation>Der Endpunkt hat die Anfrage abgelehnt (%1). Prüfen Sie, ob das Modell Werkzeugaufrufe unterstützt und die Einstellungen stimmen.</translation>
    </message>
    <message>
        <source>The request was cancelled because the model connection was closed (the settings changed).</source>
        <translation>Die Anfrage wurde abgebrochen, weil die Verbindung zum Modell geschlossen wurde (die Einstellungen haben sich geändert).</translation>
    </message>
    <message>
        <source>The model&apos;s answer ended without finishing.</source>
        <translation>Die Antwort des Modells endete, ohne abgeschlossen zu sein.</translation>
    </message>
    <message>
        <source>The offline assistant couldn&apos;t read the clock.</source>
        <translation>Der Offline-Assistent konnte die Uhr nicht lesen.</translation>
    </message>
    <message>
        <source>Internal error: %1</source>
        <translation>Interner Fehler: %1</translation>
    </message>
    <message>
        <source>as the server reports it</source>
        <translation>laut Server</translation>
    </message>
    <message>
        <source>as set in Settings</source>
        <translation>wie in den Einstellungen angegeben</translation>
    </message>
    <message>
        <source>assumed: the server does not report it</source>
        <translation>angenommen: Der Server nennt ihn nicht</translation>
    </message>
    <message>
        <source>The model endpoint accepted the request but sent no answer. Most often the conversation is longer than the model&apos;s context (the request is about %1 tokens; the context is %2 tokens, %3). Start a new session, or give the server a bigger context (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192) and enter it in Settings. If that is not it, the server&apos;s log says what went wrong.</source>
        <translation>Der Modell-Endpunkt hat die Anfrage angenommen, aber keine Antwort geschickt. Meist ist das Gespräch länger als der Kontext des Modells (die Anfrage hat etwa %1 Token; der Kontext %2 Token, %3). Beginne eine neue Sitzung oder gib dem Server einen größeren Kontext (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192) und trage ihn in den Einstellungen ein. Liegt es nicht daran, steht im Protokoll des Servers, was schiefging.</translation>
    </message>
    <message>
        <source>no answer in it</source>
        <translation>keine Antwort darin</translation>
    </message>
    <message>
        <source>no choices</source>
        <translation>keine „choices“</translation>
    </message>
    <message>
        <source>an event nested too deeply</source>
        <translation>ein zu tief verschachteltes Ereignis</translation>
    </message>
    <message>
        <source>an event that is not JSON: %1 at column %2</source>
        <translation>ein Ereignis, das kein JSON ist: %1 in Spalte %2</translation>
    </message>
    <message>
        <source>an event with a number out of range</source>
        <translation>ein Ereignis mit einer Zahl außerhalb des Bereichs</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>Find in this conversation</source>
        <translation>In diesem Gespräch suchen</translation>
    </message>
    <message>
        <source>Find in conversation</source>
        <translation>Im Gespräch suchen</translation>
    </message>
    <message>
        <source>Matches</source>
        <translation>Treffer</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>Vorheriger Treffer (Umschalt+Enter)</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>Nächster Treffer (Enter)</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>Schließen (Esc)</translation>
    </message>
</context>
<context>
    <name>FindFlow</name>
    <message>
        <source>No matches</source>
        <translation>Keine Treffer</translation>
    </message>
    <message>
        <source>{position} of {total}</source>
        <translation>{position} von {total}</translation>
    </message>
</context>
<context>
    <name>ImportFlow</name>
    <message>
        <source>Import cancelled: nothing was imported.</source>
        <translation>Import abgebrochen: Es wurde nichts importiert.</translation>
    </message>
    <message numerus="yes">
        <source>{name} was imported before: its %n conversation(s) are in the list already. Nothing was imported.</source>
        <translation>
            <numerusform>{name} wurde schon importiert: Das %n Gespräch daraus steht bereits in der Liste. Es wurde nichts importiert.</numerusform>
            <numerusform>{name} wurde schon importiert: Die %n Gespräche daraus stehen bereits in der Liste. Es wurde nichts importiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>{name} could not be imported ({reason}). Nothing was imported.</source>
        <translation>{name} konnte nicht importiert werden ({reason}). Es wurde nichts importiert.</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n conversation(s) from {name}.</source>
        <translation>
            <numerusform>%n Gespräch aus {name} importiert.</numerusform>
            <numerusform>%n Gespräche aus {name} importiert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n picture(s) or file(s) were not imported (the export holds only their names).</source>
        <translation>
            <numerusform>%n Bild oder Datei wurde nicht importiert (der Export enthält nur die Namen).</numerusform>
            <numerusform>%n Bilder oder Dateien wurden nicht importiert (der Export enthält nur ihre Namen).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n conversation(s) imported before were left out.</source>
        <translation>
            <numerusform>%n schon früher importiertes Gespräch wurde ausgelassen.</numerusform>
            <numerusform>%n schon früher importierte Gespräche wurden ausgelassen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message part(s) Chime cannot show were left out.</source>
        <translation>
            <numerusform>%n Nachrichtenteil, den Chime nicht anzeigen kann, wurde ausgelassen.</numerusform>
            <numerusform>%n Nachrichtenteile, die Chime nicht anzeigen kann, wurden ausgelassen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportProgress</name>
    <message>
        <source>Import conversations</source>
        <translation>Gespräche importieren</translation>
    </message>
    <message>
        <source>ChatGPT export or Chime export (*.zip *.json *.jsonl)</source>
        <translation>ChatGPT-Export oder Chime-Export (*.zip *.json *.jsonl)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Importing conversations</source>
        <translation>Gespräche werden importiert</translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation>{name} wird gelesen …</translation>
    </message>
    <message>
        <source>Import progress</source>
        <translation>Fortschritt des Imports</translation>
    </message>
    <message numerus="yes">
        <source>%n conversation(s) read</source>
        <translation>
            <numerusform>%n Gespräch gelesen</numerusform>
            <numerusform>%n Gespräche gelesen</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling… nothing is imported.</source>
        <translation>Wird abgebrochen … Es wird nichts importiert.</translation>
    </message>
</context>
<context>
    <name>KeyStore</name>
    <message>
        <source>The API key is kept in the system keyring.</source>
        <translation>Der API-Schlüssel wird im Schlüsselbund des Systems aufbewahrt.</translation>
    </message>
    <message>
        <source>No system keyring is available: the API key is kept in %1 (readable only by you).</source>
        <translation>Kein Schlüsselbund des Systems verfügbar: Der API-Schlüssel wird in %1 aufbewahrt (nur für Sie lesbar).</translation>
    </message>
</context>
<context>
    <name>LeaveWarning</name>
    <message>
        <source>in this conversation</source>
        <translation>in diesem Gespräch</translation>
    </message>
    <message>
        <source>in %1 conversations</source>
        <translation>in %1 Gesprächen</translation>
    </message>
    <message>
        <source>in another open conversation</source>
        <translation>in einem anderen geöffneten Gespräch</translation>
    </message>
    <message>
        <source>This conversation has 1 reminder. Deleting it stops it (Undo brings the conversation back with it); it is due %2.</source>
        <translation>Dieses Gespräch hat 1 Erinnerung. Löschen beendet sie („Rückgängig“ holt das Gespräch mit ihr zurück); sie ist %2 fällig.</translation>
    </message>
    <message>
        <source>This conversation has %1 reminders. Deleting it stops them (Undo brings the conversation back with them); the next is due %2.</source>
        <translation>Dieses Gespräch hat %1 Erinnerungen. Löschen beendet sie („Rückgängig“ holt das Gespräch mit ihnen zurück); die nächste ist %2 fällig.</translation>
    </message>
    <message>
        <source>Delete this conversation?</source>
        <translation>Dieses Gespräch löschen?</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>1 reminder %3 will wait until you start Chime again; it is due %2.</source>
        <translation>1 Erinnerung %3 wartet, bis Sie Chime wieder starten; sie ist %2 fällig.</translation>
    </message>
    <message>
        <source>%1 reminders %3 will wait until you start Chime again; the next is due %2.</source>
        <translation>%1 Erinnerungen %3 warten, bis Sie Chime wieder starten; die nächste ist %2 fällig.</translation>
    </message>
    <message>
        <source>Quit Chime?</source>
        <translation>Chime beenden?</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>1 reminder in this conversation will wait until you open it again; it is due %2.</source>
        <translation>1 Erinnerung in diesem Gespräch wartet, bis Sie es wieder öffnen; sie ist %2 fällig.</translation>
    </message>
    <message>
        <source>%1 reminders in this conversation will wait until you open it again; the next is due %2.</source>
        <translation>%1 Erinnerungen in diesem Gespräch warten, bis Sie es wieder öffnen; die nächste ist %2 fällig.</translation>
    </message>
    <message>
        <source>Close this conversation?</source>
        <translation>Dieses Gespräch schließen?</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>now (it is overdue)</source>
        <translation>jetzt (überfällig)</translation>
    </message>
    <message>
        <source>at %1</source>
        <translation>um %1</translation>
    </message>
    <message>
        <source>tomorrow at %1</source>
        <translation>morgen um %1</translation>
    </message>
    <message>
        <source>on %1 %2 %3 at %4</source>
        <translation>am %1 %2. %3 um %4</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Reminders</source>
        <translation>Erinnerungen</translation>
    </message>
    <message>
        <source>zone unknown</source>
        <translation>Zeitzone unbekannt</translation>
    </message>
    <message>
        <source>The system time zone, sampled for each turn</source>
        <translation>Die Zeitzone des Systems, bei jeder Runde neu gelesen</translation>
    </message>
    <message>
        <source>Session: </source>
        <translation>Sitzung: </translation>
    </message>
    <message>
        <source>⚠ Could not save to disk — recent messages may be lost if the app closes now.</source>
        <translation>⚠ Speichern auf die Festplatte fehlgeschlagen – die letzten Nachrichten gehen verloren, wenn die Anwendung jetzt beendet wird.</translation>
    </message>
    <message>
        <source>Click to open this file</source>
        <translation>Klicken, um diese Datei zu öffnen</translation>
    </message>
    <message>
        <source>Keyboard shortcuts — Chime</source>
        <translation>Tastenkürzel – Chime</translation>
    </message>
    <message>
        <source>Chime opens only web and e-mail links; not: {url}</source>
        <translation>Chime öffnet nur Web- und E-Mail-Links, nicht: {url}</translation>
    </message>
    <message>
        <source>Open link — Chime</source>
        <translation>Link öffnen – Chime</translation>
    </message>
    <message>
        <source>Open this link in your browser?</source>
        <translation>Diesen Link im Browser öffnen?</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Chime {version}

A chat app whose assistant can set reminders that come back as turns of the same conversation, while that conversation is open.

Qt {qt} (PySide6 {pyside}), Python {python}</source>
        <translation>Chime {version}

Eine Chat-Anwendung, deren Assistent Erinnerungen stellen kann, die als Runden desselben Gesprächs zurückkommen, solange dieses Gespräch geöffnet ist.

Qt {qt} (PySide6 {pyside}), Python {python}</translation>
    </message>
    <message>
        <source>(version unknown)</source>
        <translation>(Version unbekannt)</translation>
    </message>
    <message>
        <source>About Chime</source>
        <translation>Über Chime</translation>
    </message>
    <message>
        <source>This desktop shows no tray icons, so Chime shows its window instead.</source>
        <translation>Diese Arbeitsumgebung zeigt keine Symbole im Infobereich, darum zeigt Chime sein Fenster.</translation>
    </message>
</context>
<context>
    <name>McpPage</name>
    <message>
        <source>starts when a conversation uses it</source>
        <translation>startet, wenn ein Gespräch ihn nutzt</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>startet…</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>local</source>
        <translation>lokal</translation>
    </message>
    <message>
        <source>remote</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>(kept in the keyring)</source>
        <translation>(im Schlüsselbund gespeichert)</translation>
    </message>
    <message>
        <source>Command: %1</source>
        <translation>Befehl: %1</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>Ordner: %1</translation>
    </message>
    <message>
        <source>Address: %1</source>
        <translation>Adresse: %1</translation>
    </message>
    <message>
        <source>This server offers no tools.</source>
        <translation>Dieser Server bietet keine Werkzeuge an.</translation>
    </message>
    <message>
        <source>MCP servers (their tools can be offered to the model):</source>
        <translation>MCP-Server (ihre Werkzeuge können dem Modell angeboten werden):</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>New conversations</source>
        <translation>Neue Gespräche</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Show &amp;tools</source>
        <translation>Werkzeuge &amp;zeigen</translation>
    </message>
    <message>
        <source>Starts the server if needed and lists its tools</source>
        <translation>Startet den Server, falls nötig, und listet seine Werkzeuge auf</translation>
    </message>
    <message>
        <source>&amp;Offer to new conversations</source>
        <translation>Neuen Gesprächen &amp;anbieten</translation>
    </message>
    <message>
        <source>The server&apos;s settings and tools</source>
        <translation>Einstellungen und Werkzeuge des Servers</translation>
    </message>
    <message>
        <source>Add servers: paste their “mcpServers” JSON (as in a server&apos;s README):</source>
        <translation>Server hinzufügen: ihr „mcpServers“-JSON einfügen (wie in der README eines Servers):</translation>
    </message>
    <message>
        <source>mcpServers JSON</source>
        <translation>mcpServers-JSON</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Import a .json file…</source>
        <translation>.json-Datei &amp;importieren…</translation>
    </message>
    <message>
        <source>Tools that run without asking:</source>
        <translation>Werkzeuge, die ohne Nachfrage laufen:</translation>
    </message>
    <message>
        <source>Always allowed tools</source>
        <translation>Immer erlaubte Werkzeuge</translation>
    </message>
    <message>
        <source>Ask &amp;again before this tool runs</source>
        <translation>Vor diesem Werkzeug wieder &amp;fragen</translation>
    </message>
    <message>
        <source>Server “%1” replaces the one of that name.</source>
        <translation>Server „%1“ ersetzt den gleichnamigen.</translation>
    </message>
    <message>
        <source>The text names no servers.</source>
        <translation>Der Text nennt keine Server.</translation>
    </message>
    <message>
        <source>Added: %1.</source>
        <translation>Hinzugefügt: %1.</translation>
    </message>
    <message>
        <source>No servers yet: paste their JSON below.</source>
        <translation>Noch keine Server: Fügen Sie ihr JSON unten ein.</translation>
    </message>
    <message>
        <source>Its tools could not be listed: %1</source>
        <translation>Seine Werkzeuge konnten nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>Its tools, described as the server wrote them:</source>
        <translation>Seine Werkzeuge, so beschrieben, wie der Server es schrieb:</translation>
    </message>
</context>
<context>
    <name>McpSettingsFlow</name>
    <message>
        <source>Import MCP servers — Chime</source>
        <translation>MCP-Server importieren — Chime</translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON-Dateien (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>The file is larger than 1 MB.</source>
        <translation>Die Datei ist größer als 1 MB.</translation>
    </message>
    <message>
        <source>“%1” could not be read: %2</source>
        <translation>„%1“ konnte nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <source>Dismiss the message</source>
        <translation>Die Meldung schließen</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Model for this session</source>
        <translation>Modell für diese Sitzung</translation>
    </message>
    <message>
        <source>Choose the model that answers in this session</source>
        <translation>Das Modell wählen, das in dieser Sitzung antwortet</translation>
    </message>
    <message>
        <source>Answers this session: {label}. Choose another model (Ctrl+M).</source>
        <translation>Antwortet in dieser Sitzung: {label}. Ein anderes Modell wählen (Strg+M).</translation>
    </message>
    <message>
        <source>Offline assistant</source>
        <translation>Offline-Assistent</translation>
    </message>
    <message>
        <source>default model</source>
        <translation>Standardmodell</translation>
    </message>
    <message>
        <source>App setting: {label}</source>
        <translation>Einstellung der Anwendung: {label}</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Recent</source>
        <translation>Zuletzt verwendet</translation>
    </message>
    <message>
        <source>Connect a model endpoint in Settings…</source>
        <translation>Einen Modell-Endpunkt in den Einstellungen verbinden…</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>Modelle werden geladen…</translation>
    </message>
    <message>
        <source>The endpoint lists no models.</source>
        <translation>Der Endpunkt führt keine Modelle auf.</translation>
    </message>
</context>
<context>
    <name>Offline</name>
    <message>
        <source>Offline assistant</source>
        <translation>Offline-Assistent</translation>
    </message>
</context>
<context>
    <name>Organise</name>
    <message>
        <source>The pins and folders could not be saved: {reason}.</source>
        <translation>Die Anheftungen und Ordner konnten nicht gespeichert werden: {reason}.</translation>
    </message>
</context>
<context>
    <name>Presence</name>
    <message>
        <source>Reminder: %1</source>
        <translation>Erinnerung: %1</translation>
    </message>
    <message>
        <source>The answer is ready.</source>
        <translation>Die Antwort ist fertig.</translation>
    </message>
</context>
<context>
    <name>ProbeWait</name>
    <message>
        <source>Asking the server for its models…</source>
        <translation>Der Server wird nach seinen Modellen gefragt…</translation>
    </message>
    <message>
        <source>Asking the model for one word…</source>
        <translation>Das Modell wird um ein Wort gebeten…</translation>
    </message>
    <message>
        <source>The server is reading the prompt…</source>
        <translation>Der Server liest die Anfrage…</translation>
    </message>
    <message>
        <source>The model is answering…</source>
        <translation>Das Modell antwortet…</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>PromptExamples</name>
    <message>
        <source>Be brief</source>
        <translation>Kurz und bündig</translation>
    </message>
    <message>
        <source>Answer in as few words as will do: no preamble, no summary, no offer to help further.</source>
        <translation>Antworte mit so wenigen Worten wie nötig: keine Einleitung, keine Zusammenfassung, kein Angebot weiterer Hilfe.</translation>
    </message>
    <message>
        <source>Translator</source>
        <translation>Übersetzer</translation>
    </message>
    <message>
        <source>Translate what I write into English, or into German when it is English. Give only the translation, keeping its tone and formatting.</source>
        <translation>Übersetze, was ich schreibe, ins Englische, oder ins Deutsche, wenn es Englisch ist. Gib nur die Übersetzung aus und behalte Ton und Formatierung bei.</translation>
    </message>
    <message>
        <source>Code reviewer</source>
        <translation>Code-Review</translation>
    </message>
    <message>
        <source>Review the code I send: bugs first, then unclear names, missing tests and style, each with the lines it concerns and a concrete fix.</source>
        <translation>Prüfe den Code, den ich schicke: zuerst Fehler, dann unklare Namen, fehlende Tests und Stil, jeweils mit den betroffenen Zeilen und einer konkreten Korrektur.</translation>
    </message>
</context>
<context>
    <name>PromptLibraryDialog</name>
    <message>
        <source>Saved prompts</source>
        <translation>Gespeicherte Prompts</translation>
    </message>
    <message>
        <source>Instructions you reuse. Choose one in a conversation&apos;s Instructions, or type “/” in an empty message box to insert one.</source>
        <translation>Anweisungen, die Sie wiederverwenden. Wählen Sie eine in den Anweisungen eines Gesprächs, oder tippen Sie „/“ in ein leeres Nachrichtenfeld, um eine einzufügen.</translation>
    </message>
    <message>
        <source>Default for new conversations</source>
        <translation>Standard für neue Gespräche</translation>
    </message>
    <message>
        <source>New conversations start with:</source>
        <translation>Neue Gespräche beginnen mit:</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>Prompt text</source>
        <translation>Text des Prompts</translation>
    </message>
    <message>
        <source>&amp;Text:</source>
        <translation>&amp;Text:</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Temperature value</source>
        <translation>Wert der Temperatur</translation>
    </message>
    <message>
        <source>the conversation&apos;s own</source>
        <translation>das des Gesprächs</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>New prompt</source>
        <translation>Neuer Prompt</translation>
    </message>
    <message>
        <source>New prompt {n}</source>
        <translation>Neuer Prompt {n}</translation>
    </message>
    <message>
        <source>no saved prompt</source>
        <translation>kein gespeicherter Prompt</translation>
    </message>
    <message>
        <source>Each saved prompt needs a name.</source>
        <translation>Jeder gespeicherte Prompt braucht einen Namen.</translation>
    </message>
    <message>
        <source>Two saved prompts have the same name.</source>
        <translation>Zwei gespeicherte Prompts haben denselben Namen.</translation>
    </message>
</context>
<context>
    <name>PromptPicker</name>
    <message>
        <source>Saved prompts — Enter inserts, Esc closes</source>
        <translation>Gespeicherte Prompts – Eingabe fügt ein, Esc schließt</translation>
    </message>
    <message>
        <source>Saved prompts</source>
        <translation>Gespeicherte Prompts</translation>
    </message>
    <message>
        <source>No saved prompt matches “{query}”.</source>
        <translation>Kein gespeicherter Prompt passt zu „{query}“.</translation>
    </message>
    <message>
        <source>No saved prompts yet: add them in Settings.</source>
        <translation>Noch keine gespeicherten Prompts: Fügen Sie sie in den Einstellungen hinzu.</translation>
    </message>
</context>
<context>
    <name>Providers</name>
    <message>
        <source>Connected, but this model does not call tools: reminders will not work with it.</source>
        <translation>Verbunden, aber dieses Modell ruft keine Werkzeuge auf: Erinnerungen funktionieren damit nicht.</translation>
    </message>
    <message>
        <source>reported by the server</source>
        <translation>vom Server gemeldet</translation>
    </message>
    <message>
        <source>as set here</source>
        <translation>wie hier eingestellt</translation>
    </message>
    <message>
        <source>the server does not say; assumed</source>
        <translation>vom Server nicht gemeldet; angenommen</translation>
    </message>
    <message>
        <source>Connected to %1: the model writes its tool calls as text, which Chime reads, so reminders work.</source>
        <translation>Verbunden mit %1: Das Modell schreibt seine Werkzeugaufrufe als Text; Chime liest sie, Erinnerungen funktionieren also.</translation>
    </message>
    <message>
        <source>Connected: %1 model(s) available. Choose one to test it.</source>
        <translation>Verbunden: %1 Modell(e) verfügbar. Wählen Sie eines, um es zu testen.</translation>
    </message>
    <message>
        <source>Connected, but the endpoint has no model named “%1”.</source>
        <translation>Verbunden, aber der Endpunkt hat kein Modell namens „%1“.</translation>
    </message>
    <message>
        <source>Context: %1 tokens (%2).</source>
        <translation>Kontext: %1 Token (%2).</translation>
    </message>
    <message>
        <source>Connected to %1: the model streams answers and calls tools.</source>
        <translation>Verbunden mit %1: Das Modell streamt Antworten und ruft Werkzeuge auf.</translation>
    </message>
</context>
<context>
    <name>QuitQuestion</name>
    <message>
        <source>Some recent messages could not be saved ({count} unsaved changes): the disk may be full or not writable. If Chime quits now they are lost; while it stays open it keeps trying to save them.</source>
        <translation>Einige neue Nachrichten konnten nicht gespeichert werden ({count} ungespeicherte Änderungen): Der Datenträger ist vielleicht voll oder nicht beschreibbar. Wenn Chime jetzt beendet wird, gehen sie verloren; solange es geöffnet bleibt, versucht es weiter, sie zu speichern.</translation>
    </message>
    <message>
        <source>Chime stays open and keeps trying to save; quit again once the disk has room.</source>
        <translation>Chime bleibt geöffnet und versucht weiter zu speichern; beenden Sie es erneut, sobald wieder Platz auf dem Datenträger ist.</translation>
    </message>
    <message>
        <source>Some recent messages could not be saved ({count} unsaved changes): a conversation&apos;s folder was deleted or moved. If Chime quits now they are lost; export the conversation first (Session ▸ Export as JSONL) to keep it.</source>
        <translation>Einige neue Nachrichten konnten nicht gespeichert werden ({count} ungespeicherte Änderungen): Der Ordner eines Gesprächs wurde gelöscht oder verschoben. Wenn Chime jetzt beendet wird, gehen sie verloren; exportieren Sie das Gespräch vorher (Sitzung ▸ Als JSONL exportieren), um es zu behalten.</translation>
    </message>
    <message>
        <source>Chime stays open: export the conversation to keep what could not be saved.</source>
        <translation>Chime bleibt geöffnet: Exportieren Sie das Gespräch, um zu behalten, was nicht gespeichert werden konnte.</translation>
    </message>
</context>
<context>
    <name>RefusalWords</name>
    <message>
        <source>“%1” is %2: attachments are at most %3 for text and %4 for images.</source>
        <translation>„%1“ ist %2 groß: Anhänge sind höchstens %3 (Text) und %4 (Bilder) groß.</translation>
    </message>
    <message>
        <source>“%1” is %2: text files are at most %3.</source>
        <translation>„%1“ ist %2 groß: Textdateien sind höchstens %3 groß.</translation>
    </message>
    <message>
        <source>“%1” is neither text nor a PNG, JPEG, GIF or WebP image, so it cannot be attached.</source>
        <translation>„%1“ ist weder Text noch ein PNG-, JPEG-, GIF- oder WebP-Bild und kann deshalb nicht angehängt werden.</translation>
    </message>
    <message>
        <source>“%1” could not be saved (%2).</source>
        <translation>„%1“ konnte nicht gespeichert werden (%2).</translation>
    </message>
</context>
<context>
    <name>ReminderOffer</name>
    <message>
        <source>This session is read-only: nothing can be changed.</source>
        <translation>Diese Sitzung ist schreibgeschützt: Nichts kann geändert werden.</translation>
    </message>
    <message>
        <source>There is no reminder to set here.</source>
        <translation>Hier gibt es keine Erinnerung zu setzen.</translation>
    </message>
    <message>
        <source>Could not set the reminder: {why}</source>
        <translation>Die Erinnerung konnte nicht gesetzt werden: {why}</translation>
    </message>
</context>
<context>
    <name>RemindersPanel</name>
    <message>
        <source>once</source>
        <translation>einmalig</translation>
    </message>
    <message>
        <source>overdue</source>
        <translation>überfällig</translation>
    </message>
    <message>
        <source>in %1 s</source>
        <translation>in %1 s</translation>
    </message>
    <message>
        <source>• %1 — due %2</source>
        <translation>• %1 – fällig %2</translation>
    </message>
    <message>
        <source>Reminders</source>
        <translation>Erinnerungen</translation>
    </message>
    <message>
        <source>Active reminders</source>
        <translation>Aktive Erinnerungen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selected reminder</source>
        <translation>Die ausgewählte Erinnerung löschen</translation>
    </message>
    <message>
        <source>Sends “Delete reminder &lt;id&gt;” to the assistant, which deletes it</source>
        <translation>Sendet „Delete reminder &lt;id&gt;“ an den Assistenten, der sie löscht</translation>
    </message>
    <message>
        <source>Ask to delete</source>
        <translation>Löschen anfragen</translation>
    </message>
    <message>
        <source>Ask to delete the selected reminder</source>
        <translation>Das Löschen der ausgewählten Erinnerung anfragen</translation>
    </message>
    <message>
        <source>Puts the delete request into the message box</source>
        <translation>Schreibt die Löschanfrage ins Nachrichtenfeld</translation>
    </message>
    <message>
        <source>Reminders fire only while this session is open. Closed sessions catch up when reopened.</source>
        <translation>Erinnerungen lösen nur aus, solange diese Sitzung geöffnet ist. Geschlossene Sitzungen holen sie beim erneuten Öffnen nach.</translation>
    </message>
    <message>
        <source>Delete reminder</source>
        <translation>Erinnerung löschen</translation>
    </message>
    <message>
        <source>No active reminders.

Ask for one in the chat, for example:
“remind me in 10 minutes to stretch”
“every 30 minutes remind me to drink water”</source>
        <translation>Keine aktiven Erinnerungen.

Bitten Sie im Chat um eine, zum Beispiel:
„erinnere mich in 10 Minuten ans Dehnen“
„erinnere mich alle 30 Minuten ans Trinken“</translation>
    </message>
    <message>
        <source>No active reminders.

Recently delivered:
</source>
        <translation>Keine aktiven Erinnerungen.

Kürzlich zugestellt:
</translation>
    </message>
</context>
<context>
    <name>RowActions</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy this message as plain text (Ctrl+Shift+C)</source>
        <translation>Diese Nachricht als reinen Text kopieren (Strg+Umschalt+C)</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Bearbeiten</translation>
    </message>
    <message>
        <source>Edit this message and send it again; the earlier version stays (Up in an empty message box edits the last one)</source>
        <translation>Diese Nachricht bearbeiten und erneut senden; die frühere Version bleibt erhalten (Pfeil nach oben in einem leeren Nachrichtenfeld bearbeitet die letzte)</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>This answer was cut off (stopped, or at the model&apos;s length limit): ask the model to go on from where it stopped (Enter)</source>
        <translation>Diese Antwort wurde abgeschnitten (angehalten oder an der Längengrenze des Modells): das Modell dort weiterschreiben lassen, wo es aufgehört hat (Eingabetaste)</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Neu erzeugen</translation>
    </message>
    <message>
        <source>Answer this message again; the earlier answer stays (Ctrl+Alt+R for the last answer)</source>
        <translation>Diese Nachricht erneut beantworten; die frühere Antwort bleibt erhalten (Strg+Alt+R für die letzte Antwort)</translation>
    </message>
    <message>
        <source>Hide from the model</source>
        <translation>Vor dem Modell ausblenden</translation>
    </message>
    <message>
        <source>Leave this message and its answer out of the view and of what the model is sent (Undo in the message bar; a thin row keeps its place, with Show)</source>
        <translation>Diese Nachricht und ihre Antwort aus der Ansicht und aus dem, was das Modell erhält, herausnehmen („Rückgängig“ in der Meldungsleiste; eine schmale Zeile mit „Zeigen“ hält ihren Platz)</translation>
    </message>
</context>
<context>
    <name>RowFiles</name>
    <message>
        <source>(missing or damaged)</source>
        <translation>(fehlt oder beschädigt)</translation>
    </message>
    <message>
        <source>Open {name}</source>
        <translation>{name} öffnen</translation>
    </message>
</context>
<context>
    <name>RowLayouts</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copied ✓</source>
        <translation>Kopiert ✓</translation>
    </message>
    <message>
        <source>code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>Antwortet…</translation>
    </message>
    <message>
        <source>Queued — sent when the answer above is done</source>
        <translation>Eingereiht – wird gesendet, wenn die Antwort darüber fertig ist</translation>
    </message>
    <message>
        <source>{prompt} → {completion} tokens</source>
        <translation>{prompt} → {completion} Token</translation>
    </message>
    <message>
        <source>{rate} tok/s</source>
        <translation>{rate} Token/s</translation>
    </message>
    <message>
        <source>thought for {seconds} s</source>
        <translation>{seconds} s nachgedacht</translation>
    </message>
    <message>
        <source>first word after {seconds} s</source>
        <translation>erstes Wort nach {seconds} s</translation>
    </message>
    <message>
        <source>Previous version</source>
        <translation>Vorherige Version</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>Nächste Version</translation>
    </message>
    <message>
        <source>Reminder</source>
        <translation>Erinnerung</translation>
    </message>
    <message>
        <source>Something went wrong</source>
        <translation>Etwas ist schiefgelaufen</translation>
    </message>
    <message>
        <source>Retry (Enter)</source>
        <translation>Wiederholen (Eingabe)</translation>
    </message>
    <message>
        <source>Run this message again</source>
        <translation>Diese Nachricht erneut ausführen</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Bearbeiten</translation>
    </message>
    <message>
        <source>Put this message in the message box to change it and send it again</source>
        <translation>Diese Nachricht ins Nachrichtenfeld holen, um sie zu ändern und erneut zu senden</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Leave this message out of the view and of what the model is sent</source>
        <translation>Diese Nachricht aus der Ansicht und aus dem, was das Modell erhält, herausnehmen</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Zeigen</translation>
    </message>
    <message>
        <source>1 hidden message: “{words}” — left out of what the model sees</source>
        <translation>1 ausgeblendete Nachricht: „{words}“ – nicht in dem, was das Modell sieht</translation>
    </message>
    <message>
        <source>Bring this message and its answer back into the view and the model&apos;s history</source>
        <translation>Diese Nachricht und ihre Antwort zurück in die Ansicht und den Verlauf des Modells holen</translation>
    </message>
</context>
<context>
    <name>RowPainter</name>
    <message>
        <source>Copied ✓</source>
        <translation>Kopiert ✓</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
</context>
<context>
    <name>RowParts</name>
    <message>
        <source>Thinking…</source>
        <translation>Denkt nach…</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Thought</source>
        <translation>Gedanken</translation>
    </message>
    <message>
        <source>Thought for %1 s</source>
        <translation>%1 s nachgedacht</translation>
    </message>
    <message>
        <source>Hide what the model thought before it answered (Enter)</source>
        <translation>Ausblenden, was das Modell vor der Antwort gedacht hat (Eingabe)</translation>
    </message>
    <message>
        <source>Show what the model thought before it answered (Enter)</source>
        <translation>Zeigen, was das Modell vor der Antwort gedacht hat (Eingabe)</translation>
    </message>
    <message>
        <source>No reminder was set: this model answered in words.</source>
        <translation>Es wurde keine Erinnerung gesetzt: Dieses Modell hat nur in Worten geantwortet.</translation>
    </message>
    <message>
        <source>Reminder set: “%1”</source>
        <translation>Erinnerung gesetzt: „%1“</translation>
    </message>
    <message>
        <source>Set it</source>
        <translation>Setzen</translation>
    </message>
    <message>
        <source>Set the reminder “%1” as the offline assistant understood it</source>
        <translation>Die Erinnerung „%1“ so setzen, wie der Offline-Assistent sie verstanden hat</translation>
    </message>
</context>
<context>
    <name>SavedFiles</name>
    <message>
        <source>%1 could not be read: %2.</source>
        <translation>%1 konnte nicht gelesen werden: %2.</translation>
    </message>
    <message>
        <source>%1 is not valid: %2.</source>
        <translation>%1 ist ungültig: %2.</translation>
    </message>
    <message>
        <source>The default settings apply.</source>
        <translation>Es gelten die Standardeinstellungen.</translation>
    </message>
    <message>
        <source>It could not be set aside (%2).</source>
        <translation>Sie konnte nicht beiseitegelegt werden (%2).</translation>
    </message>
    <message>
        <source>It was set aside as %2.</source>
        <translation>Sie wurde als %2 beiseitegelegt.</translation>
    </message>
    <message>
        <source>It was left in place (too many set aside already).</source>
        <translation>Sie wurde nicht verschoben (es wurden schon zu viele beiseitegelegt).</translation>
    </message>
    <message>
        <source>No sessions were reopened (they are all in the list).</source>
        <translation>Es wurden keine Sitzungen wieder geöffnet (sie stehen alle in der Liste).</translation>
    </message>
    <message>
        <source>%1 is not a JSON object.</source>
        <translation>%1 ist kein JSON-Objekt.</translation>
    </message>
    <message>
        <source>%1 holds a window size Chime cannot read; the default size is used.</source>
        <translation>%1 enthält eine Fenstergröße, die Chime nicht lesen kann; die Standardgröße wird verwendet.</translation>
    </message>
</context>
<context>
    <name>SavedPromptsBox</name>
    <message>
        <source>Saved prompts</source>
        <translation>Gespeicherte Prompts</translation>
    </message>
    <message>
        <source>&amp;Manage…</source>
        <translation>&amp;Verwalten …</translation>
    </message>
    <message numerus="yes">
        <source>%n saved prompt(s).</source>
        <translation>
            <numerusform>%n gespeicherter Prompt.</numerusform>
            <numerusform>%n gespeicherte Prompts.</numerusform>
        </translation>
    </message>
    <message>
        <source>New conversations start with “{name}”.</source>
        <translation>Neue Gespräche beginnen mit „{name}“.</translation>
    </message>
</context>
<context>
    <name>SessionDelegate</name>
    <message>
        <source>read-only</source>
        <translation>schreibgeschützt</translation>
    </message>
    <message>
        <source>archived</source>
        <translation>archiviert</translation>
    </message>
    <message>
        <source>overdue · opens to deliver</source>
        <translation>überfällig · kommt beim Öffnen</translation>
    </message>
    <message>
        <source>Folder name</source>
        <translation>Ordnername</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
</context>
<context>
    <name>SessionListModel</name>
    <message>
        <source>Pinned</source>
        <translation>Angeheftet</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>Gestern</translation>
    </message>
    <message>
        <source>Previous 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Older</source>
        <translation>Älter</translation>
    </message>
    <message>
        <source>{title} (fork)</source>
        <translation>{title} (Abzweigung)</translation>
    </message>
    <message>
        <source>Group: {name}</source>
        <translation>Gruppe: {name}</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>angeheftet</translation>
    </message>
    <message>
        <source>archived</source>
        <translation>archiviert</translation>
    </message>
    <message numerus="yes">
        <source>%n active reminder(s)</source>
        <translation>
            <numerusform>%n aktive Erinnerung</numerusform>
            <numerusform>%n aktive Erinnerungen</numerusform>
        </translation>
    </message>
    <message>
        <source>open</source>
        <translation>geöffnet</translation>
    </message>
    <message>
        <source>unread reminder</source>
        <translation>ungelesene Erinnerung</translation>
    </message>
    <message>
        <source>a reminder is overdue: opening the conversation delivers it</source>
        <translation>eine Erinnerung ist überfällig: sie kommt, wenn das Gespräch geöffnet wird</translation>
    </message>
</context>
<context>
    <name>SessionListPanel</name>
    <message>
        <source>Search all sessions</source>
        <translation>Alle Sitzungen durchsuchen</translation>
    </message>
    <message>
        <source>Search sessions by title or message text</source>
        <translation>Sitzungen nach Titel oder Nachrichtentext durchsuchen</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <source>No conversation is archived.</source>
        <translation>Kein Gespräch ist archiviert.</translation>
    </message>
    <message>
        <source>Searching the messages of every session for “{text}”…</source>
        <translation>Die Nachrichten aller Sitzungen werden nach „{text}“ durchsucht…</translation>
    </message>
    <message>
        <source>No session matches “{text}”.

Titles and message text are searched.</source>
        <translation>Keine Sitzung passt zu „{text}“.

Durchsucht werden Titel und Nachrichtentexte.</translation>
    </message>
    <message>
        <source>← Back to the list</source>
        <translation>← Zurück zur Liste</translation>
    </message>
    <message>
        <source>Show the conversations that are not archived</source>
        <translation>Die nicht archivierten Gespräche zeigen</translation>
    </message>
    <message numerus="yes">
        <source>Archived (%n)</source>
        <translation>
            <numerusform>Archiviert (%n)</numerusform>
            <numerusform>Archiviert (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Show the archived conversations, to bring one back</source>
        <translation>Die archivierten Gespräche zeigen, um eines zurückzuholen</translation>
    </message>
</context>
<context>
    <name>SessionMenus</name>
    <message>
        <source>Rename folder</source>
        <translation>Ordner umbenennen</translation>
    </message>
    <message>
        <source>Remove folder (its conversations stay)</source>
        <translation>Ordner entfernen (seine Gespräche bleiben)</translation>
    </message>
    <message>
        <source>New folder</source>
        <translation>Neuer Ordner</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>Nicht mehr anheften</translation>
    </message>
    <message>
        <source>Pin to the top</source>
        <translation>Oben anheften</translation>
    </message>
    <message>
        <source>Restore from the archive</source>
        <translation>Aus dem Archiv zurückholen</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivieren</translation>
    </message>
    <message>
        <source>Rename here</source>
        <translation>Hier umbenennen</translation>
    </message>
    <message>
        <source>Move to folder</source>
        <translation>In Ordner verschieben</translation>
    </message>
    <message>
        <source>New folder…</source>
        <translation>Neuer Ordner …</translation>
    </message>
    <message>
        <source>Out of the folder</source>
        <translation>Aus dem Ordner nehmen</translation>
    </message>
</context>
<context>
    <name>SessionSettingsDialog</name>
    <message>
        <source>Session instructions</source>
        <translation>Anweisungen für die Sitzung</translation>
    </message>
    <message>
        <source>Instructions for this conversation only, added after Chime&apos;s own prompt (for example: “Answer in French” or “Be brief”).</source>
        <translation>Anweisungen nur für dieses Gespräch, angefügt nach Chimes eigenem Prompt (zum Beispiel: „Antworte auf Französisch“ oder „Fasse dich kurz“).</translation>
    </message>
    <message>
        <source>Use a saved prompt</source>
        <translation>Gespeicherten Prompt verwenden</translation>
    </message>
    <message>
        <source>Use a saved prompt…</source>
        <translation>Gespeicherten Prompt verwenden …</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>Anweisungen</translation>
    </message>
    <message>
        <source>No instructions: the model uses Chime&apos;s prompt only.</source>
        <translation>Keine Anweisungen: Das Modell nutzt nur Chimes Prompt.</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Lower is steadier, higher is more varied; unchecked: the endpoint&apos;s default</source>
        <translation>Niedriger ist beständiger, höher abwechslungsreicher; nicht angehakt: die Vorgabe des Endpunkts</translation>
    </message>
    <message>
        <source>Temperature value</source>
        <translation>Wert der Temperatur</translation>
    </message>
    <message>
        <source>Tools (MCP) this conversation offers the model</source>
        <translation>Werkzeuge (MCP), die dieses Gespräch dem Modell anbietet</translation>
    </message>
    <message>
        <source>No MCP servers are configured: add them in Settings → Tools (MCP).</source>
        <translation>Keine MCP-Server eingerichtet: Fügen Sie sie unter Einstellungen → Werkzeuge (MCP) hinzu.</translation>
    </message>
    <message>
        <source>{size} characters: at most {limit}.</source>
        <translation>{size} Zeichen: höchstens {limit}.</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Follow the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Settings — Chime</source>
        <translation>Einstellungen – Chime</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation>&amp;Allgemein</translation>
    </message>
    <message>
        <source>&amp;Window</source>
        <translation>F&amp;enster</translation>
    </message>
    <message>
        <source>T&amp;ools (MCP)</source>
        <translation>&amp;Werkzeuge (MCP)</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>Built-in offline assistant (no network)</source>
        <translation>Eingebauter Offline-Assistent (ohne Netzwerk)</translation>
    </message>
    <message>
        <source>OpenAI-compatible endpoint</source>
        <translation>OpenAI-kompatibler Endpunkt</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Load models</source>
        <translation>Modelle laden</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>optional for local servers</source>
        <translation>für lokale Server optional</translation>
    </message>
    <message>
        <source>Context length in tokens</source>
        <translation>Kontextlänge in Token</translation>
    </message>
    <message>
        <source>Ask the server</source>
        <translation>Server fragen</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Token</translation>
    </message>
    <message>
        <source>How many tokens the model&apos;s context holds. Ask the server: the size it reports, or the usual one of its kind when it does not say.</source>
        <translation>Wie viele Token der Kontext des Modells fasst. „Server fragen“: die Größe, die der Server meldet, oder die für seine Art übliche, wenn er keine nennt.</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Cancel test</source>
        <translation>Test abbrechen</translation>
    </message>
    <message>
        <source>&amp;Preset</source>
        <translation>&amp;Vorlage</translation>
    </message>
    <message>
        <source>&amp;Base URL</source>
        <translation>&amp;Basis-URL</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>&amp;Modell</translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation>API-&amp;Schlüssel</translation>
    </message>
    <message>
        <source>&amp;Context</source>
        <translation>&amp;Kontext</translation>
    </message>
    <message>
        <source>Let the model title a new conversation after its first answer</source>
        <translation>Das Modell ein neues Gespräch nach seiner ersten Antwort benennen lassen</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>Erscheinungsbild</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Farbschema</translation>
    </message>
    <message>
        <source>Text size in points</source>
        <translation>Schriftgröße in Punkt</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <source>Text &amp;size</source>
        <translation>Schrift&amp;größe</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>System (%1)</source>
        <translation>System (%1)</translation>
    </message>
    <message>
        <source>Applies when Chime starts again (it offers to restart)</source>
        <translation>Wirkt beim nächsten Start von Chime (Chime bietet einen Neustart an)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>S&amp;prache</translation>
    </message>
    <message>
        <source>Reminders in the background</source>
        <translation>Erinnerungen im Hintergrund</translation>
    </message>
    <message>
        <source>Keep Chime running in the tray when its window is closed</source>
        <translation>Chime im Infobereich weiterlaufen lassen, wenn das Fenster geschlossen wird</translation>
    </message>
    <message>
        <source>Start Chime in the tray when I log in</source>
        <translation>Chime bei der Anmeldung im Infobereich starten</translation>
    </message>
    <message>
        <source>Show a notification when a reminder arrives and the window is not active</source>
        <translation>Eine Benachrichtigung zeigen, wenn eine Erinnerung kommt und das Fenster nicht aktiv ist</translation>
    </message>
    <message>
        <source>Also when a long answer finishes in the background</source>
        <translation>Auch, wenn eine lange Antwort im Hintergrund fertig wird</translation>
    </message>
    <message>
        <source>This desktop shows no tray icons: closing the window quits Chime.</source>
        <translation>Diese Arbeitsumgebung zeigt keine Symbole im Infobereich: Schließen des Fensters beendet Chime.</translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) found.</source>
        <translation>
            <numerusform>%n Modell gefunden.</numerusform>
            <numerusform>%n Modelle gefunden.</numerusform>
        </translation>
    </message>
    <message>
        <source>required</source>
        <translation>erforderlich</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>Modelle werden geladen…</translation>
    </message>
    <message>
        <source>Test cancelled.</source>
        <translation>Test abgebrochen.</translation>
    </message>
</context>
<context>
    <name>SettingsFlow</name>
    <message>
        <source>Settings apply until Chime quits; they could not be saved: </source>
        <translation>Die Einstellungen gelten, bis Chime beendet wird; sie konnten nicht gespeichert werden: </translation>
    </message>
</context>
<context>
    <name>SidePanels</name>
    <message>
        <source>%1 unread</source>
        <translation>%1 ungelesen</translation>
    </message>
</context>
<context>
    <name>TimeFormat</name>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 Min.</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 Std. %2 Min.</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 Std.</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tagen</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>today %1</source>
        <translation>heute %1</translation>
    </message>
    <message>
        <source>tomorrow %1</source>
        <translation>morgen %1</translation>
    </message>
    <message>
        <source>yesterday %1</source>
        <translation>gestern %1</translation>
    </message>
    <message>
        <source>%1 %2 %3 %4</source>
        <comment>weekday day month time</comment>
        <translation>%1 %2. %3 %4</translation>
    </message>
    <message>
        <source>%1 %2 %3 %4</source>
        <comment>day month year time</comment>
        <translation>%1. %2 %3 %4</translation>
    </message>
    <message>
        <source>every day</source>
        <translation>täglich</translation>
    </message>
    <message>
        <source>every %1 days</source>
        <translation>alle %1 Tage</translation>
    </message>
    <message>
        <source>every %1 h</source>
        <translation>alle %1 Std.</translation>
    </message>
    <message>
        <source>every %1 min</source>
        <translation>alle %1 Min.</translation>
    </message>
    <message>
        <source>every %1 s</source>
        <translation>alle %1 s</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 T.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>day month</comment>
        <translation>%1. %2</translation>
    </message>
</context>
<context>
    <name>ToolApprovalDialog</name>
    <message>
        <source>Allow a tool? — Chime</source>
        <translation>Werkzeug erlauben? — Chime</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Argumente:</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>The tool&apos;s description, as its server wrote it:</source>
        <translation>Die Beschreibung des Werkzeugs, wie sein Server sie schrieb:</translation>
    </message>
    <message>
        <source>(The server gave no description.)</source>
        <translation>(Der Server gab keine Beschreibung an.)</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>The model wants to use the tool “{tool}” from the server “{server}”.</source>
        <translation>Das Modell möchte das Werkzeug „{tool}“ des Servers „{server}“ verwenden.</translation>
    </message>
    <message>
        <source>Conversation: {title}</source>
        <translation>Gespräch: {title}</translation>
    </message>
    <message>
        <source>Allow it to run?</source>
        <translation>Soll es ausgeführt werden?</translation>
    </message>
    <message>
        <source>&amp;Allow once</source>
        <translation>&amp;Einmal erlauben</translation>
    </message>
    <message>
        <source>Al&amp;ways allow this tool</source>
        <translation>Dieses Werkzeug &amp;immer erlauben</translation>
    </message>
    <message>
        <source>Later calls of this tool run without asking (revocable in Settings)</source>
        <translation>Spätere Aufrufe dieses Werkzeugs laufen ohne Nachfrage (in den Einstellungen widerrufbar)</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>&amp;Ablehnen</translation>
    </message>
</context>
<context>
    <name>TranscriptRows</name>
    <message>
        <source>Time context</source>
        <translation>Zeitkontext</translation>
    </message>
    <message>
        <source>The model sent an empty answer.</source>
        <translation>Das Modell hat eine leere Antwort gesendet.</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Argumente:</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>Ergebnis:</translation>
    </message>
    <message>
        <source>… (%1 more characters)</source>
        <translation>… (%1 weitere Zeichen)</translation>
    </message>
    <message>
        <source>Reminder · due %1</source>
        <translation>Erinnerung · fällig %1</translation>
    </message>
    <message>
        <source>Reminder</source>
        <translation>Erinnerung</translation>
    </message>
    <message>
        <source> · delivered %1 (late)</source>
        <translation> · zugestellt %1 (verspätet)</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>%1 · written as text</source>
        <translation>%1 · als Text geschrieben</translation>
    </message>
    <message>
        <source>This turn was interrupted (the app closed).</source>
        <translation>Diese Runde wurde unterbrochen (die Anwendung wurde beendet).</translation>
    </message>
</context>
<context>
    <name>TranscriptView</name>
    <message>
        <source>Transcript</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation>&amp;Alles auswählen</translation>
    </message>
    <message>
        <source>Start a conversation below.

Try “remind me in 10 minutes to stretch” — the reminder comes back here, in this conversation, while it is open.</source>
        <translation>Beginnen Sie unten ein Gespräch.

Probieren Sie „erinnere mich in 10 Minuten ans Dehnen“ – die Erinnerung kommt hierher zurück, in dieses Gespräch, solange es geöffnet ist.</translation>
    </message>
    <message>
        <source>Copy as &amp;Markdown</source>
        <translation>Als &amp;Markdown kopieren</translation>
    </message>
    <message>
        <source>&amp;Copy message</source>
        <translation>&amp;Nachricht kopieren</translation>
    </message>
    <message>
        <source>Copy code ({language})</source>
        <translation>Code kopieren ({language})</translation>
    </message>
    <message>
        <source>&amp;Open link…</source>
        <translation>Link ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Copy &amp;link address</source>
        <translation>&amp;Linkadresse kopieren</translation>
    </message>
    <message>
        <source>&amp;Open “{name}”</source>
        <translation>„{name}“ &amp;öffnen</translation>
    </message>
    <message>
        <source>Hide &amp;thinking</source>
        <translation>&amp;Gedanken ausblenden</translation>
    </message>
    <message>
        <source>Show &amp;thinking</source>
        <translation>&amp;Gedanken zeigen</translation>
    </message>
    <message>
        <source>Set the &amp;reminder…</source>
        <translation>&amp;Erinnerung setzen…</translation>
    </message>
    <message>
        <source>&amp;Edit the message…</source>
        <translation>Nachricht &amp;bearbeiten…</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>&amp;Show the hidden message</source>
        <translation>Ausgeblendete Nachricht &amp;zeigen</translation>
    </message>
    <message>
        <source>&amp;Previous version</source>
        <translation>V&amp;orherige Version</translation>
    </message>
    <message>
        <source>&amp;Next version</source>
        <translation>Nächs&amp;te Version</translation>
    </message>
</context>
<context>
    <name>TrayIcon</name>
    <message>
        <source>Show Chime</source>
        <translation>Chime zeigen</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Neues Gespräch</translation>
    </message>
    <message>
        <source>All reminders</source>
        <translation>Alle Erinnerungen</translation>
    </message>
    <message>
        <source>%1 (%2 unread)</source>
        <translation>%1 (%2 ungelesen)</translation>
    </message>
    <message>
        <source>Quit Chime</source>
        <translation>Chime beenden</translation>
    </message>
    <message numerus="yes">
        <source>Chime: %n unread</source>
        <translation>
            <numerusform>Chime: %n ungelesen</numerusform>
            <numerusform>Chime: %n ungelesen</numerusform>
        </translation>
    </message>
    <message>
        <source>Chime: reminders keep running</source>
        <translation>Chime: Erinnerungen laufen weiter</translation>
    </message>
</context>
<context>
    <name>WindowActions</name>
    <message>
        <source>Send message</source>
        <translation>Nachricht senden</translation>
    </message>
    <message>
        <source>New line in a message</source>
        <translation>Neue Zeile in einer Nachricht</translation>
    </message>
    <message>
        <source>Edit your last message</source>
        <translation>Die eigene letzte Nachricht bearbeiten</translation>
    </message>
    <message>
        <source>Up (in an empty message box)</source>
        <translation>Pfeil nach oben (in einem leeren Nachrichtenfeld)</translation>
    </message>
    <message>
        <source>Cancel an edit</source>
        <translation>Eine Bearbeitung abbrechen</translation>
    </message>
    <message>
        <source>Esc (while editing)</source>
        <translation>Esc (beim Bearbeiten)</translation>
    </message>
    <message>
        <source>Next / previous match</source>
        <translation>Nächster / vorheriger Treffer</translation>
    </message>
    <message>
        <source>Enter / Shift+Enter (in the find bar)</source>
        <translation>Enter / Umschalt+Enter (in der Suchleiste)</translation>
    </message>
    <message>
        <source>(in the transcript)</source>
        <translation>(im Verlauf)</translation>
    </message>
    <message>
        <source>Expand a tool call / retry an error row</source>
        <translation>Werkzeugaufruf aufklappen / Fehlerzeile wiederholen</translation>
    </message>
    <message>
        <source>Copy the selected text</source>
        <translation>Den ausgewählten Text kopieren</translation>
    </message>
    <message>
        <source>Select all loaded text</source>
        <translation>Den ganzen geladenen Text auswählen</translation>
    </message>
    <message>
        <source>Actions of the current message</source>
        <translation>Aktionen der aktuellen Nachricht</translation>
    </message>
</context>
<context>
    <name>Wording</name>
    <message>
        <source>The turn failed.</source>
        <translation>Die Runde ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>%1 — not done: %2</source>
        <translation>%1 — nicht erledigt: %2</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1, %2 · %3</source>
        <translation>%1, %2 · %3</translation>
    </message>
    <message>
        <source>%1 — %2 active</source>
        <translation>%1 — %2 aktiv</translation>
    </message>
    <message>
        <source>%1 · deleted</source>
        <translation>%1 · gelöscht</translation>
    </message>
    <message>
        <source>%1 · not found</source>
        <translation>%1 · nicht gefunden</translation>
    </message>
    <message>
        <source>Create reminder</source>
        <translation>Erinnerung erstellen</translation>
    </message>
    <message>
        <source>List reminders</source>
        <translation>Erinnerungen auflisten</translation>
    </message>
    <message>
        <source>Delete reminder</source>
        <translation>Erinnerung löschen</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>the request was malformed</source>
        <translation>die Anfrage war fehlerhaft</translation>
    </message>
    <message>
        <source>the reminder needs some text</source>
        <translation>die Erinnerung braucht einen Text</translation>
    </message>
    <message>
        <source>that time or delay isn&apos;t valid</source>
        <translation>diese Zeit oder Dauer ist ungültig</translation>
    </message>
    <message>
        <source>it can repeat at most every 5 minutes</source>
        <translation>sie kann sich höchstens alle 5 Minuten wiederholen</translation>
    </message>
    <message>
        <source>that time zone isn&apos;t known</source>
        <translation>diese Zeitzone ist unbekannt</translation>
    </message>
    <message>
        <source>that time has already passed</source>
        <translation>diese Zeit ist schon vorbei</translation>
    </message>
    <message>
        <source>that is past the year 9999</source>
        <translation>das liegt nach dem Jahr 9999</translation>
    </message>
    <message>
        <source>this conversation&apos;s reminder log is damaged</source>
        <translation>das Erinnerungsprotokoll dieses Gesprächs ist beschädigt</translation>
    </message>
    <message>
        <source>saving could not be confirmed</source>
        <translation>das Speichern ließ sich nicht bestätigen</translation>
    </message>
    <message>
        <source>something went wrong inside the reminder system</source>
        <translation>in der Erinnerungsverwaltung ist etwas schiefgelaufen</translation>
    </message>
    <message>
        <source>no such active reminder</source>
        <translation>keine solche aktive Erinnerung</translation>
    </message>
    <message>
        <source>it failed</source>
        <translation>es ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>it was refused</source>
        <translation>es wurde abgelehnt</translation>
    </message>
    <message>
        <source>waiting for your answer</source>
        <translation>wartet auf Ihre Antwort</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>läuft…</translation>
    </message>
    <message>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>denied: it did not run</source>
        <translation>abgelehnt: nicht ausgeführt</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>not finished: Chime stopped during the call</source>
        <translation>nicht beendet: Chime wurde während des Aufrufs beendet</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>Zeitüberschreitung</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
</TS>
