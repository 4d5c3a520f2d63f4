package dev.waitroom.queue.admission;

import java.time.Instant;
import java.util.List;

/** JSON shapes of the coordinator's calls (docs/CONTRACTS.md). */
final class AdmissionBodies {

    private AdmissionBodies() {
    }

    record CandidateView(String entryId, String visitor, long orderKey) {
        static CandidateView of(Candidate c) {
            return new CandidateView(c.entryId().value(), c.visitor(), c.orderKey());
        }
    }

    record Candidates(List<CandidateView> entries) {
    }

    record OfferItem(String entryId, String grantId, Instant expiresAt) {
    }

    record OffersRequest(List<OfferItem> offers) {
    }

    /**
     * {@code state} is the entry's state now (null when unknown); {@code applied} is true when the entry is held by
     * the offered grant, just now or already before: OFFERED alone may belong to another grant.
     */
    record OfferResultView(String entryId, String state, boolean applied) {
        static OfferResultView of(OfferResult r) {
            return new OfferResultView(r.entryId().value(), r.state() == null ? null : r.state().name(), r.holdsGrant());
        }
    }

    record OffersResponse(List<OfferResultView> results) {
    }

    record TransitionRequest(String to, String grantId) {
    }

    record TransitionResponse(String entryId, String state) {
    }
}
