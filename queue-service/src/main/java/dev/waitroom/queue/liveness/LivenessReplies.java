package dev.waitroom.queue.liveness;

import dev.waitroom.contract.queue.EntryId;
import java.util.List;

/** Decoder of the reply of liveness.lua. */
final class LivenessReplies {

    private LivenessReplies() {}

    /** The sequences of the entries that are not waiting for the visitor named. */
    static List<EntryId> notWaiting(List<String> r) {
        return r.stream().map(seq -> EntryId.ofSequence(Long.parseLong(seq))).toList();
    }
}
