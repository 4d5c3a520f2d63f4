package dev.waitroom.coordinator.page;

import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Writes every seller's page to Redis every {@code waitroom.page.publish-every} besides on each change, so a gateway
 * that missed a write, or a Redis that lost it, catches up; any coordinator instance writes the same from PostgreSQL.
 */
@Component
@EnableScheduling
class PagePublisher {

    private final SellerPages pages;

    PagePublisher(SellerPages pages) {
        this.pages = pages;
    }

    @Scheduled(fixedDelayString = "${waitroom.page.publish-every:5s}")
    void publish() {
        this.pages.publishQuietly();
    }
}
