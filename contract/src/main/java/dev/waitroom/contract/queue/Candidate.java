package dev.waitroom.contract.queue;

/** A WAITING entry the coordinator may offer next: its id, the visitor (or account) holding it and its order key. */
public record Candidate(String entryId, String visitor, long orderKey) {}
