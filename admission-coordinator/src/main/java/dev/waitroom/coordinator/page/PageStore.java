package dev.waitroom.coordinator.page;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.PageVersions;
import java.util.Map;

/**
 * Where the gateways read the seller's pages from: each design under {@link dev.waitroom.contract.RedisKeys#page},
 * then the version index {@link dev.waitroom.contract.RedisKeys#PAGES} (written last, so a gateway that sees a version
 * finds its design).
 */
public interface PageStore {

    /** Replaces the designs and the index; throws when the store cannot be reached. */
    void write(Map<EventId, PageDesign> designs, PageVersions versions);
}
