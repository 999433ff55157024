"""Statutory checks over recorded conversations: AI-not-human notices, break reminders for
minors, crisis referrals and therapy-scope statements (``docs/regulatory.md``).

Pure functions over a conversation (:class:`~.checks.Message` list), no judge and no I/O:
:func:`~.findings.conversation_findings` runs them all. The audit scorer stores their result in
each conversation's score metadata; ``trustmh report --profile`` turns it into evidence.
"""
