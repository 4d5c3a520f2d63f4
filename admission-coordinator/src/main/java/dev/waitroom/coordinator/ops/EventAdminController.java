package dev.waitroom.coordinator.ops;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventLifecycle;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.event.EventDefaults;
import dev.waitroom.coordinator.event.EventListing;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.lanes.LaneSet;
import dev.waitroom.coordinator.lanes.Lanes;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.routes.Routes;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The ops API for events (docs/design/architecture.md#ops-api). The web kit has already authenticated the operator (and
 * refused a viewer's writes); every change is audited under the operator's name.
 */
@RestController
@RequestMapping("/admin/events")
class EventAdminController {

    private final EventManagement management;

    private final LiveView liveView;

    private final AccountScopeGuard accountScope;

    private final EventDefaults defaults;
    private final Lanes lanes;
    private final EventListing listing;

    EventAdminController(
            EventManagement management,
            LiveView liveView,
            AccountScopeGuard accountScope,
            EventDefaults defaults,
            Lanes lanes,
            EventListing listing) {
        this.listing = listing;
        this.management = management;
        this.liveView = liveView;
        this.accountScope = accountScope;
        this.defaults = defaults;
        this.lanes = lanes;
    }

    @PostMapping
    ResponseEntity<EventView> create(@RequestBody CreateBody body, Operator operator) {
        if (body == null || body.eventId() == null) {
            throw invalid("eventId is required");
        }
        EventId id = EventId.of(body.eventId());
        if (id.isWarmUp()) {
            throw new MalformedValueException(
                    ProblemType.INVALID_EVENT_ID,
                    "Event ids starting with " + EventId.WARM_UP_PREFIX + " are the services' own warm-up events.");
        }
        double rate = or(body.maxAdmissionsPerSecond(), this.defaults.maxAdmissionsPerSecond());
        this.accountScope.check(null, body.identityScope());
        EventConfig config = new EventConfig(
                body.name(),
                body.opensAt(),
                or(body.maxActiveSessions(), this.defaults.maxActiveSessions()),
                rate,
                or(body.batchMax(), (int) Math.max(1, Math.min(1000, Math.ceil(rate)))),
                or(seconds(body.offerTtlSeconds()), this.defaults.offerTtl()),
                or(seconds(body.sessionTtlSeconds()), this.defaults.sessionTtl()),
                or(seconds(body.sessionMaxSeconds()), this.defaults.sessionMax()),
                or(body.presaleOrdering(), PresaleOrdering.RANDOM),
                or(body.identityScope(), IdentityScope.BROWSER),
                or(body.expiredOfferPolicy(), ExpiredOfferPolicy.REQUEUE_ONCE),
                or(body.afterPurchase(), AfterPurchase.RELEASE),
                or(body.maxJoinsPerSecond(), 0.0),
                or(body.proofOfWorkDifficulty(), 0L));
        // the lanes are validated before anything is written, and created with the event or not at all
        LaneSet lanes = LaneSet.of(body.lanes());
        java.util.function.Consumer<EventId> alongside =
                lanes.isEmpty() ? e -> {} : e -> this.lanes.declareAtCreation(e, lanes, operator.name());
        EventLifecycle lifecycle = Boolean.TRUE.equals(body.draft()) ? EventLifecycle.DRAFT : EventLifecycle.PUBLISHED;
        Protection protect = body.protect() == null
                ? this.management.defaultProtection(id)
                : body.protect().protection();
        if (body.allow() != null) {
            protect = Routes.withAllow(
                    protect == null ? this.management.defaultProtection(id) : protect,
                    body.allow().rules());
        }
        Event created = this.management.create(id, config, protect, lifecycle, operator.name(), alongside);
        return ResponseEntity.created(URI.create("/admin/events/" + id.value())).body(EventView.of(created, null));
    }

    /** The query parameters of the list; any other is refused, so a misspelt filter is never silently ignored. */
    private static final java.util.Set<String> LIST_PARAMETERS = java.util.Set.of(
            "state", "phase", "mode", "prefix", "opensFrom", "opensBefore", "archived", "limit", "cursor");

    /**
     * The list of events (docs/operating/event-lifecycle.md#the-list): a compact summary each, in event id order, a
     * page at a time ({@code limit} 1..200, default 50; {@code cursor} from the page before). Archived events are left
     * out unless {@code archived=true} (only them), {@code archived=any} or {@code state=ARCHIVED} asks for them.
     */
    @GetMapping
    ResponseEntity<EventListing.Page> list(@RequestParam MultiValueMap<String, String> query) {
        for (Map.Entry<String, java.util.List<String>> p : query.entrySet()) {
            if (!LIST_PARAMETERS.contains(p.getKey())) {
                throw invalid("unknown query parameter " + p.getKey() + "; the list takes "
                        + String.join(", ", new java.util.TreeSet<>(LIST_PARAMETERS)));
            }
            if (p.getValue().size() != 1) {
                throw invalid("query parameter " + p.getKey() + " is given more than once");
            }
        }
        EventLifecycle state = query.getFirst("state") == null ? null : EventLifecycle.parse(query.getFirst("state"));
        String archived = query.getFirst("archived");
        java.util.Set<EventLifecycle> lifecycles;
        if (archived == null || archived.equals("false")) {
            if (state == EventLifecycle.ARCHIVED && archived != null) {
                throw invalid("state=ARCHIVED and archived=false contradict each other");
            }
            lifecycles = state != null ? java.util.Set.of(state) : EventListing.Filter.notArchived();
        } else if (archived.equals("true")) {
            if (state != null && state != EventLifecycle.ARCHIVED) {
                throw invalid("state=" + state + " and archived=true contradict each other");
            }
            lifecycles = java.util.Set.of(EventLifecycle.ARCHIVED);
        } else if (archived.equals("any")) {
            lifecycles = state != null ? java.util.Set.of(state) : java.util.EnumSet.allOf(EventLifecycle.class);
        } else {
            throw invalid("archived must be false (the default), true or any");
        }
        String phase = query.getFirst("phase");
        String mode = query.getFirst("mode");
        String cursor = query.getFirst("cursor");
        EventListing.Filter filter = new EventListing.Filter(
                lifecycles,
                phase == null ? null : EventPhase.parse(phase),
                mode == null ? null : OperatingMode.parse(mode),
                query.getFirst("prefix"),
                instant(query, "opensFrom"),
                instant(query, "opensBefore"),
                limit(query.getFirst("limit")),
                cursor == null ? null : EventListing.after(cursor));
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(this.listing.list(filter));
    }

    private static Instant instant(MultiValueMap<String, String> query, String name) {
        String value = query.getFirst(name);
        if (value == null) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(value).toInstant();
        } catch (java.time.format.DateTimeParseException ex) {
            throw invalid(name + " must be an ISO-8601 date and time with an offset, as 2027-01-15T10:00:00Z");
        }
    }

    private static int limit(String value) {
        if (value == null) {
            return EventListing.DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= EventListing.MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException ex) {
            // answered below
        }
        throw invalid("limit must be a whole number 1.." + EventListing.MAX_LIMIT);
    }

    /**
     * Publishes a draft: it goes live, its rules freeze, its paths enter the route table. A repeat changes nothing;
     * 409 {@code invalid-transition} for an archived event.
     */
    @PostMapping("/{eventId}/publish")
    EventView publish(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return EventView.of(this.management.publish(EventId.of(eventId), operator.name(), reason(body)), null);
    }

    /**
     * Archives an event whose sale has ended or never opened; a repeat changes nothing; 409 {@code invalid-transition}
     * for an OPEN sale.
     */
    @PostMapping("/{eventId}/archive")
    EventView archive(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return EventView.of(this.management.archive(EventId.of(eventId), operator.name(), reason(body)), null);
    }

    /** Deletes an event that never opened: 204; 409 {@code invalid-transition} otherwise. */
    @DeleteMapping("/{eventId}")
    ResponseEntity<Void> delete(
            @PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        this.management.delete(EventId.of(eventId), operator.name(), reason(body));
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{eventId}")
    ResponseEntity<EventView> get(@PathVariable String eventId) {
        Event event = this.management.get(EventId.of(eventId));
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .body(EventView.of(event, this.liveView.of(event)));
    }

    @PatchMapping("/{eventId}")
    EventView patch(@PathVariable String eventId, @RequestBody PatchBody body, Operator operator) {
        if (body == null) {
            throw invalid("a JSON body is required");
        }
        Event updated = this.management.reconfigure(
                EventId.of(eventId),
                c -> {
                    this.accountScope.check(c.identityScope(), or(body.identityScope(), c.identityScope()));
                    return reconfigured(body, c);
                },
                body.protect() == null
                        ? null
                        : new EventManagement.Protect(body.protect().protection()),
                body.allow() == null ? null : body.allow().rules(),
                operator.name());
        return EventView.of(updated, null);
    }

    private static EventConfig reconfigured(PatchBody body, EventConfig c) {
        return new EventConfig(
                or(body.name(), c.name()),
                body.opensAt() == null ? c.opensAt() : body.opensAt(),
                or(body.maxActiveSessions(), c.maxActiveSessions()),
                or(body.maxAdmissionsPerSecond(), c.maxAdmissionsPerSecond()),
                or(body.batchMax(), c.batchMax()),
                body.offerTtlSeconds() == null ? c.offerTtl() : seconds(body.offerTtlSeconds()),
                body.sessionTtlSeconds() == null ? c.sessionTtl() : seconds(body.sessionTtlSeconds()),
                body.sessionMaxSeconds() == null ? c.sessionMax() : seconds(body.sessionMaxSeconds()),
                or(body.presaleOrdering(), c.presaleOrdering()),
                or(body.identityScope(), c.identityScope()),
                or(body.expiredOfferPolicy(), c.expiredOfferPolicy()),
                or(body.afterPurchase(), c.afterPurchase()),
                or(body.maxJoinsPerSecond(), c.maxJoinsPerSecond()),
                or(body.proofOfWorkDifficulty(), c.proofOfWorkDifficulty()));
    }

    @PostMapping("/{eventId}/open")
    EventView open(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return EventView.of(
                this.management.open(EventId.of(eventId), operator.name(), reasonOr(body, "opened without a reason")),
                null);
    }

    @PostMapping("/{eventId}/end")
    EventView end(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return EventView.of(
                this.management.end(EventId.of(eventId), operator.name(), reasonOr(body, "ended without a reason")),
                null);
    }

    @PostMapping("/{eventId}/pause")
    EventView pause(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return mode(eventId, OperatingMode.PAUSED, body, operator);
    }

    @PostMapping("/{eventId}/resume")
    EventView resume(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return mode(eventId, OperatingMode.QUEUEING, body, operator);
    }

    @PostMapping("/{eventId}/sold-out")
    EventView soldOut(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return mode(eventId, OperatingMode.SOLD_OUT, body, operator);
    }

    /**
     * A new round of the sale after SOLD_OUT (docs/design/sale-rules/sold-out-pause-rounds.md): the next sale generation,
     * QUEUEING again, the round's announcement (the body's, or the default). 409 {@code invalid-transition} unless the
     * event is SOLD_OUT and has not ended.
     */
    @PostMapping("/{eventId}/rounds")
    EventView newRound(@PathVariable String eventId, @RequestBody(required = false) RoundBody body, Operator operator) {
        String reason = reason(body == null ? null : new ReasonBody(body.reason()));
        return EventView.of(
                this.management.newRound(
                        EventId.of(eventId), operator.name(), reason, body == null ? null : body.announcement()),
                null);
    }

    @PostMapping("/{eventId}/bypass")
    EventView bypassOn(
            @PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return mode(eventId, OperatingMode.BYPASS, body, operator);
    }

    @DeleteMapping("/{eventId}/bypass")
    EventView bypassOff(
            @PathVariable String eventId, @RequestBody(required = false) ReasonBody body, Operator operator) {
        return EventView.of(this.management.endBypass(EventId.of(eventId), operator.name(), reason(body)), null);
    }

    @PutMapping("/{eventId}/announcement")
    EventView announce(@PathVariable String eventId, @RequestBody AnnouncementBody body, Operator operator) {
        if (body == null) {
            throw invalid("a JSON body with \"text\" is required");
        }
        return EventView.of(this.management.announce(EventId.of(eventId), body.text(), operator.name()), null);
    }

    private EventView mode(String eventId, OperatingMode target, ReasonBody body, Operator operator) {
        return EventView.of(
                this.management.changeMode(EventId.of(eventId), target, operator.name(), reason(body)), null);
    }

    private static String reason(ReasonBody body) {
        if (!hasReason(body)) {
            throw invalid("a reason is required: every mode change is recorded with who, when and why");
        }
        return clip(body.reason());
    }

    /** Opening and ending are recorded with a default reason when ops give none. */
    private static String reasonOr(ReasonBody body, String fallback) {
        return hasReason(body) ? clip(body.reason()) : fallback;
    }

    private static boolean hasReason(ReasonBody body) {
        return body != null && body.reason() != null && !body.reason().isBlank();
    }

    private static String clip(String s) {
        if (s.length() > 500) {
            throw invalid("reasons are at most 500 characters");
        }
        return s.strip();
    }

    private static Duration seconds(Integer s) {
        return s == null ? null : Duration.ofSeconds(s);
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }

    private static CoordinatorException invalid(String message) {
        return new CoordinatorException(ProblemType.MALFORMED_REQUEST, message);
    }

    record CreateBody(
            String eventId,
            String name,
            Instant opensAt,
            Integer maxActiveSessions,
            Double maxAdmissionsPerSecond,
            Integer batchMax,
            Integer offerTtlSeconds,
            Integer sessionTtlSeconds,
            Integer sessionMaxSeconds,
            PresaleOrdering presaleOrdering,
            IdentityScope identityScope,
            ExpiredOfferPolicy expiredOfferPolicy,
            AfterPurchase afterPurchase,
            Double maxJoinsPerSecond,
            Long proofOfWorkDifficulty,
            ProtectBody protect,
            AllowBody allow,
            java.util.List<LaneSet.LaneBody> lanes,
            Boolean draft) {}

    /**
     * What an event protects (docs/integration/gateway-in-front.md); in a PATCH, {@code "paths": []} (no origin)
     * protects nothing any more.
     */
    record ProtectBody(String origin, java.util.List<String> paths, String host) {

        dev.waitroom.contract.routes.Protection protection() {
            if (this.origin == null && this.host == null && this.paths != null && this.paths.isEmpty()) {
                return null;
            }
            return dev.waitroom.coordinator.routes.Routes.parse(this.origin, this.paths, this.host);
        }

        static ProtectBody of(dev.waitroom.contract.routes.Protection p) {
            return p == null ? null : new ProtectBody(p.origin().toString(), p.patterns(), p.host());
        }
    }

    /**
     * The event's allow rules (docs/operating/allow-rules-and-passes.md): {@code paths} inside {@code protect.paths}
     * that are never queued; in a PATCH, {@code "paths": []} removes them all.
     */
    record AllowBody(java.util.List<String> paths) {

        java.util.List<dev.waitroom.contract.routes.ProtectedPath> rules() {
            if (this.paths == null) {
                throw new CoordinatorException(ProblemType.BAD_ALLOW_RULE, "allow.paths is required");
            }
            return Routes.parseAllow(this.paths);
        }

        static AllowBody of(dev.waitroom.contract.routes.Protection p) {
            return new AllowBody(p == null ? java.util.List.of() : p.allowPatterns());
        }
    }

    record PatchBody(
            String name,
            Instant opensAt,
            Integer maxActiveSessions,
            Double maxAdmissionsPerSecond,
            Integer batchMax,
            Integer offerTtlSeconds,
            Integer sessionTtlSeconds,
            Integer sessionMaxSeconds,
            PresaleOrdering presaleOrdering,
            IdentityScope identityScope,
            ExpiredOfferPolicy expiredOfferPolicy,
            AfterPurchase afterPurchase,
            Double maxJoinsPerSecond,
            Long proofOfWorkDifficulty,
            ProtectBody protect,
            AllowBody allow) {}

    record ReasonBody(String reason) {}

    record RoundBody(String reason, String announcement) {}

    record AnnouncementBody(String text) {}

    /** Config (docs/design/architecture.md#ops-api names), sale state, and the live view when asked for. */
    record EventView(
            String eventId,
            String name,
            Instant opensAt,
            int maxActiveSessions,
            double maxAdmissionsPerSecond,
            int batchMax,
            long offerTtlSeconds,
            long sessionTtlSeconds,
            long sessionMaxSeconds,
            String presaleOrdering,
            String identityScope,
            String expiredOfferPolicy,
            String afterPurchase,
            double maxJoinsPerSecond,
            long proofOfWorkDifficulty,
            ProtectBody protect,
            String phase,
            String mode,
            long saleGeneration,
            String commitment,
            String seed,
            String announcement,
            Long waiting,
            Long offered,
            Long active,
            Double admissionRate,
            Object health,
            Long oldestWaitSeconds,
            Long drift,
            LiveView.Live live,
            AllowBody allow,
            String state) {

        static EventView of(Event e, LiveView.Live live) {
            EventConfig c = e.config();
            return new EventView(
                    e.id().value(),
                    c.name(),
                    c.opensAt(),
                    c.maxActiveSessions(),
                    c.maxAdmissionsPerSecond(),
                    c.batchMax(),
                    c.offerTtl().toSeconds(),
                    c.sessionTtl().toSeconds(),
                    c.sessionMax().toSeconds(),
                    c.presaleOrdering().name(),
                    c.identityScope().name(),
                    c.expiredOfferPolicy().name(),
                    c.afterPurchase().name(),
                    c.maxJoinsPerSecond(),
                    c.proofOfWorkDifficulty(),
                    ProtectBody.of(e.protect()),
                    e.phase().name(),
                    e.mode().name(),
                    e.saleGeneration(),
                    e.commitment(),
                    e.revealedSeed(),
                    e.announcement(),
                    live == null ? null : live.waiting(),
                    live == null ? null : live.offered(),
                    live == null ? null : live.active(),
                    live == null ? null : live.admissionRate(),
                    live == null ? null : live.health(),
                    live == null ? null : live.oldestWaitSeconds(),
                    live == null ? null : live.drift(),
                    live,
                    AllowBody.of(e.protect()),
                    e.lifecycle().name());
        }
    }
}
