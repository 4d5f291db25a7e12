<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
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
