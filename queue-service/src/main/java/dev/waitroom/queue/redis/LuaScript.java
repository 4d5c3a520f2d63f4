package dev.waitroom.queue.redis;

/** A script as loaded by {@link QueueScripts#load}: its full source (libraries prepended) and the SHA it is called by. */
public record LuaScript(String name, String source, String sha, Kind kind) {

    /** How a script treats an event's keys, which decides how it is called. */
    public enum Kind {
        /** Reads an event's keys, declaring each before touching any. */
        READ(true, false, false),
        /** Changes the queue; a visitor or the coordinator is told it has happened, so it waits for replica acks. */
        CHANGE(true, true, false),
        /**
         * Changes the queue and may take the next sequence number, whose bucket concurrent calls may move past: a
         * missing bucket is declared again with the one after it.
         */
        CHANGE_TAKING_SEQUENCE(true, true, true),
        /** Given all of its keys by the caller; writes only last-seen, which no one is told has happened. */
        GIVEN_KEYS(false, false, false);

        private final boolean declaresKeys;
        private final boolean changesQueue;
        private final boolean growsSequence;

        Kind(boolean declaresKeys, boolean changesQueue, boolean growsSequence) {
            this.declaresKeys = declaresKeys;
            this.changesQueue = changesQueue;
            this.growsSequence = growsSequence;
        }

        boolean declaresKeys() {
            return declaresKeys;
        }

        boolean changesQueue() {
            return changesQueue;
        }

        boolean growsSequence() {
            return growsSequence;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
