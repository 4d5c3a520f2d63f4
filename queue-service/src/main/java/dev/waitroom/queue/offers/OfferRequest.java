package dev.waitroom.queue.offers;

import dev.waitroom.contract.queue.EntryId;
import java.time.Instant;

/** Offer this entry under this grant until the deadline. */
public record OfferRequest(EntryId entryId, String grantId, Instant expiresAt) {}
