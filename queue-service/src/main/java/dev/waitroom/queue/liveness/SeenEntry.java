package dev.waitroom.queue.liveness;

import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.tokens.VisitorId;

/** An entry the edge saw polling, with the visitor whose cookie came with its ticket. */
record SeenEntry(EntryId entryId, VisitorId visitorId) {}
