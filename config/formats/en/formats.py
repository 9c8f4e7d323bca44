"""English times on the 24-hour clock and short dates as ISO dates, as Knock's English pages have
always printed them ("15:53", "2026-12-04 15:53"); long dates are Django's ("Dec. 4, 2026")."""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "N j, Y, H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
