"""Date and time formats that differ from Django's own, by language (``FORMAT_MODULE_PATH``)."""
