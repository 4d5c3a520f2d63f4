package dev.waitroom.contract.queue;

/**
 * What an offer did to one entry. {@code state} is the entry's state now (an entry state name; null when there is no
 * such entry); {@code applied} is true when the entry is held by the offered grant, just now or already before:
 * OFFERED alone may belong to another grant. {@code applied} is boxed because the coordinator did not read it before
 * this record, so a reply without it stays readable.
 */
public record OfferResult(String entryId, String state, Boolean applied) {}
