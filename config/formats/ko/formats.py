"""Korean dates and times as Korean writes them: 오전/오후 before the time ("오후 3:53"),
never after it as Django's own Korean DATETIME_FORMAT has it ("3:53 오후").

Only these differ from ``django.conf.locale.ko.formats``; every other format is Django's.
"""

DATE_FORMAT = "Y년 n월 j일"
TIME_FORMAT = "A g:i"
DATETIME_FORMAT = "Y년 n월 j일 A g:i"
SHORT_DATE_FORMAT = "Y. n. j."
SHORT_DATETIME_FORMAT = "Y. n. j. A g:i"
