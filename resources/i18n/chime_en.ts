<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ImportFlow</name>
    <message numerus="yes">
        <source>{name} was imported before: its %n conversation(s) are in the list already. Nothing was imported.</source>
        <translation>
            <numerusform>{name} was imported before: its %n conversation is in the list already. Nothing was imported.</numerusform>
            <numerusform>{name} was imported before: its %n conversations are in the list already. Nothing was imported.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n conversation(s) from {name}.</source>
        <translation>
            <numerusform>Imported %n conversation from {name}.</numerusform>
            <numerusform>Imported %n conversations from {name}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n picture(s) or file(s) were not imported (the export holds only their names).</source>
        <translation>
            <numerusform>%n picture or file was not imported (the export holds only its name).</numerusform>
            <numerusform>%n pictures or files were not imported (the export holds only their names).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n conversation(s) imported before were left out.</source>
        <translation>
            <numerusform>%n conversation imported before was left out.</numerusform>
            <numerusform>%n conversations imported before were left out.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message part(s) Chime cannot show were left out.</source>
        <translation>
            <numerusform>%n message part Chime cannot show was left out.</numerusform>
            <numerusform>%n message parts Chime cannot show were left out.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportProgress</name>
    <message numerus="yes">
        <source>%n conversation(s) read</source>
        <translation>
            <numerusform>%n conversation read</numerusform>
            <numerusform>%n conversations read</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SavedPromptsBox</name>
    <message numerus="yes">
        <source>%n saved prompt(s).</source>
        <translation>
            <numerusform>%n saved prompt.</numerusform>
            <numerusform>%n saved prompts.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionListModel</name>
    <message numerus="yes">
        <source>%n active reminder(s)</source>
        <translation>
            <numerusform>%n active reminder</numerusform>
            <numerusform>%n active reminders</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionListPanel</name>
    <message numerus="yes">
        <source>Archived (%n)</source>
        <translation>
            <numerusform>Archived (%n)</numerusform>
            <numerusform>Archived (%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message numerus="yes">
        <source>%n model(s) found.</source>
        <translation>
            <numerusform>%n model found.</numerusform>
            <numerusform>%n models found.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrayIcon</name>
    <message numerus="yes">
        <source>Chime: %n unread</source>
        <translation>
            <numerusform>Chime: %n unread</numerusform>
            <numerusform>Chime: %n unread</numerusform>
        </translation>
    </message>
</context>
</TS>
