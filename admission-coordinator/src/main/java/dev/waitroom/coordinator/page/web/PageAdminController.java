package dev.waitroom.coordinator.page.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.coordinator.page.PageInput;
import dev.waitroom.coordinator.page.SellerPages;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.util.List;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The seller's page of an event (docs/operating/the-sellers-page.md): {@code PUT} replaces it as a whole (a field left
 * out is the deployment's default again), checked before anything is stored and audited under the operator's name;
 * {@code GET} reads it, version 0 while the event has none. The rendered preview is the gateway's ({@code GET
 * /admin/events/{id}/page/preview}).
 */
@RestController
@RequestMapping("/admin/events/{eventId}/page")
class PageAdminController {

    private final SellerPages pages;

    PageAdminController(SellerPages pages) {
        this.pages = pages;
    }

    @PutMapping
    PageView put(@PathVariable String eventId, @RequestBody PageBody body, Operator operator) {
        if (body == null) {
            throw new CoordinatorException(ProblemType.MALFORMED_REQUEST, "a JSON body is required");
        }
        EventId id = EventId.of(eventId);
        PageDesign stored = this.pages.put(
                id,
                new PageInput(
                        body.brandName(),
                        body.logoUrl(),
                        body.logoAlt(),
                        body.colours(),
                        body.texts(),
                        body.template()),
                operator.name(),
                body.reason());
        return PageView.of(id, stored);
    }

    @GetMapping
    ResponseEntity<PageView> get(@PathVariable String eventId) {
        EventId id = EventId.of(eventId);
        PageDesign design = this.pages.get(id).orElse(new PageDesign(0, null, null, null, null, null, null, null));
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(PageView.of(id, design));
    }

    /** A PUT's body: every field optional; {@code reason} goes to the audit. */
    record PageBody(
            String brandName,
            String logoUrl,
            String logoAlt,
            Map<String, String> colours,
            Map<String, Map<String, Object>> texts,
            String template,
            String reason) {}

    /** The stored page; {@code imageHosts} are the hosts its images come from, which the page's CSP allows. */
    record PageView(
            String eventId,
            long version,
            String brandName,
            String logoUrl,
            String logoAlt,
            Map<String, String> colours,
            Map<String, Map<String, String>> texts,
            String template,
            List<String> imageHosts) {

        static PageView of(EventId id, PageDesign d) {
            return new PageView(
                    id.value(),
                    d.version(),
                    d.brandName(),
                    d.logoUrl(),
                    d.logoAlt(),
                    d.colours(),
                    d.texts(),
                    d.template(),
                    d.imageHosts());
        }
    }
}
