"""Conversations as a kind of task: scripted or simulated users, per-turn judging.

* :mod:`.solver` — the inspect solver that holds the conversation;
* :mod:`.users` — the user side (script, or a model playing a persona in the ``user`` role);
* :mod:`.record` — what a conversation leaves in the sample, and the completeness guard;
* :mod:`.judging` — per-turn and whole-conversation judging on the shared judge;
* :mod:`.scores` — per-turn verdicts into per-conversation fields (first turn, phase means, ...).
"""

from trustmh.conversation.record import ConversationRecord, IncompleteConversation, Turn, conversation_of
from trustmh.conversation.solver import conversation

__all__ = ["ConversationRecord", "IncompleteConversation", "Turn", "conversation", "conversation_of"]
