"""Scoreboards: LED panel, web page and terminal, fed by MQTT only (contracts.md §6).

subscriber  MQTT → model: the latest state, status and rulings of one table or all
payloads    what a payload must hold before a view sees it
model       what the views read: immutable snapshots, and a wait for the next one
led, font   the LED panel's frame, with built-in bitmap fonts; panel: where frames go
web, page   the live web page (server-sent events)
term        the terminal board; venue: all tables at once
app         `tenball scoreboard`: add_arguments() and main()
recorded    a match's MQTT traffic from the real engine, for tests, demos and benchmarks
"""
