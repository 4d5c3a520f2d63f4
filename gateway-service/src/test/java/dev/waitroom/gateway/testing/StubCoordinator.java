package dev.waitroom.gateway.testing;

import static dev.waitroom.testsupport.StubReply.problem;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.testsupport.StubReply;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.testsupport.queue.FakeQueueEvent;
import dev.waitroom.testsupport.queue.FakeQueueService;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.ModeStatement;
import dev.waitroom.tokens.ModeStatementSigner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The admission-coordinator as far as the gateway sees it: the JWKS, claim (OFFERED -> ACTIVE in the queue model, the
 * session bound to the claiming browser's id, {@code X-Waitroom-Claiming-Visitor} or else the visitor, registry write,
 * then the token in a cookie of the event's path; a repeat is given the session again only with the activating claim's
 * {@code Idempotency-Key} or a token of the session, like the real one), renew and leave (which need a token of the
 * visitor's session, like the real one), and the admin API (echo).
 */
public final class StubCoordinator extends StubHttpServer {

    private volatile KeyRing ring = KeyRing.generate(Clock.systemUTC());

    private volatile AdmissionTokenIssuer issuer = AdmissionTokenIssuer.of(ring);

    private volatile boolean jwksUnavailable;

    private final FakeQueueService queue;

    private final SessionRegistryWriter registry;

    private final Map<String, String> sessionsByVisitor = new ConcurrentHashMap<>();

    private final Map<String, String> sessionsByToken = new ConcurrentHashMap<>();

    /** The one access code the stub accepts (docs/operating/lanes-and-access-codes.md). */
    public static final String GOOD_CODE = "GOODGO-ODGOOD-GOODGO-ODGOOD";

    /** The Idempotency-Key each session's activating claim carried. */
    private final Map<String, String> claimKeys = new ConcurrentHashMap<>();

    private volatile Duration sessionTtl = Duration.ofMinutes(10);

    private volatile Duration claimDelay = Duration.ZERO;

    private final Map<String, ClaimRefusal> claimRefusals = new ConcurrentHashMap<>();

    /**
     * How the coordinator refuses a claim while the event cannot admit (issue 17): paused, the offer is held and the
     * claim answers 503 admission-paused with Retry-After; sold out, the offer is withdrawn and the claim answers 409
     * sold-out.
     */
    public enum ClaimRefusal {
        ADMISSION_PAUSED,
        SOLD_OUT
    }

    StubCoordinator(String internalToken, FakeQueueService queue, SessionRegistryWriter registry) {
        super(internalToken);
        this.queue = queue;
        this.registry = registry;
    }

    /** Publishes a new signing key and signs with it from now on (the old key stays published). */
    public synchronized void rotateKeys() {
        ring = ring.publishNext().activateNext();
        issuer = AdmissionTokenIssuer.of(ring);
    }

    /**
     * The coordinator's signed statement of an event's mode, made with the key that signs its tokens, as its state push
     * carries it (shared-tokens {@code ModeStatement}).
     */
    public String signMode(String eventId, String mode, long saleGeneration, Instant now) {
        return ModeStatementSigner.of(ring).sign(ModeStatement.of(eventId, mode, saleGeneration, now));
    }

    /** While set, the JWKS answers 503. */
    public void jwksUnavailable(boolean unavailable) {
        this.jwksUnavailable = unavailable;
    }

    /** Makes claims answer only after this delay, as a hung (stopped) coordinator would. */
    public void claimDelay(Duration delay) {
        this.claimDelay = delay;
    }

    /** Claims for the event are refused this way from now on; null admits again. */
    public void refuseClaims(String eventId, ClaimRefusal refusal) {
        if (refusal == null) {
            claimRefusals.remove(eventId);
        } else {
            claimRefusals.put(eventId, refusal);
        }
    }

    /** A token for a session that is live in the registry. */
    public Issued admit(String eventId, String visitor, long generation) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Issued issued = issue(eventId, visitor, generation, now, now.plus(sessionTtl));
        registry.live(eventId, issued.sessionId(), generation, issued.expiresAt());
        return issued;
    }

    /** A correctly signed token with the given times; the registry is untouched. */
    public Issued issue(String eventId, String visitor, long generation, Instant issuedAt, Instant expiresAt) {
        String sessionId = UUID.randomUUID().toString();
        AdmissionClaims claims = new AdmissionClaims(
                eventId,
                generation,
                UUID.randomUUID().toString(),
                sessionId,
                visitor,
                issuedAt,
                expiresAt,
                UUID.randomUUID().toString());
        return new Issued(issuer.issue(claims), sessionId, expiresAt);
    }

    public record Issued(String token, String sessionId, Instant expiresAt) {}

    @Override
    protected StubReply handle(RecordedRequest request) {
        String path = request.path();
        if (path.equals("/.well-known/jwks.json") && request.method().equals("GET")) {
            if (jwksUnavailable) {
                return StubReply.json(503, Map.of("status", 503, "title", "Unavailable"));
            }
            return StubReply.json(200, JSON.readValue(ring.publicJwksJson(), Map.class));
        }
        if (path.startsWith("/admin/")) {
            return StubReply.json(200, Map.of("served", "coordinator", "path", path));
        }
        if (path.equals("/internal/edge-health") && request.method().equals("POST")) {
            return new StubReply(204, null, Map.of()); // recorded, read by OriginHealthTests
        }
        String[] s = segments(path);
        String visitor = request.header(Headers.VISITOR).orElse(null);
        if (s.length == 4 && s[0].equals("events") && s[2].equals("admission") && s[3].equals("claim")) {
            return claim(s[1], visitor, request.header(Headers.CLAIMING_VISITOR).orElse(visitor), request);
        }
        if (s.length == 4 && s[0].equals("events") && s[2].equals("admission") && s[3].equals("pass")) {
            return pass(s[1], visitor, request.header("Waitroom-Pass").orElse(null));
        }
        if (s.length == 3
                && s[0].equals("events")
                && s[2].equals("code")
                && request.method().equals("POST")) {
            // the coordinator checks the code against its hashes; here one code is good, any other is not
            return request.body().contains("\"" + GOOD_CODE + "\"")
                    ? StubReply.json(200, Map.of("lane", "presale", "state", "WAITING"))
                    : problem(ProblemType.CODE_INVALID);
        }
        if (s.length == 4 && s[0].equals("events") && s[2].equals("signals")) {
            // the coordinator checks the integration credential; here only where the request arrived is told
            return StubReply.json(200, Map.of("served", "coordinator", "signal", s[3], "eventId", s[1]));
        }
        if (s.length == 4 && s[0].equals("events") && s[2].equals("shopping-session")) {
            StubReply refused = tokenRefused(s[1], visitor, request);
            if (refused != null) {
                return refused;
            }
        }
        if (s.length == 4 && s[0].equals("events") && s[2].equals("shopping-session") && s[3].equals("renew")) {
            return renew(s[1], visitor);
        }
        if (s.length == 4 && s[0].equals("events") && s[2].equals("shopping-session") && s[3].equals("leave")) {
            String sessionId = visitor == null ? null : sessionsByVisitor.remove(s[1] + "/" + visitor);
            if (sessionId != null) {
                registry.end(s[1], sessionId);
            }
            return new StubReply(204, null, Map.of());
        }
        return StubReply.json(404, Map.of("status", 404, "title", "Not found"));
    }

    private static String tokenOf(RecordedRequest request) {
        return request.header("Authorization")
                .filter(a -> a.startsWith(Headers.BEARER_PREFIX))
                .map(a -> a.substring(Headers.BEARER_PREFIX.length()))
                .or(() -> request.header("Cookie").flatMap(StubCoordinator::admissionCookie))
                .orElse(null);
    }

    /** Renew and leave need a token of this visitor's session (Bearer or the wr_at cookie), else a 401 problem. */
    private StubReply tokenRefused(String eventId, String visitor, RecordedRequest request) {
        String token = tokenOf(request);
        if (token == null) {
            return problem(ProblemType.ADMISSION_TOKEN_REQUIRED);
        }
        String session = sessionsByToken.get(token);
        if (session == null || visitor == null || !session.equals(sessionsByVisitor.get(eventId + "/" + visitor))) {
            return problem(ProblemType.ADMISSION_TOKEN_INVALID);
        }
        return null;
    }

    private static java.util.Optional<String> admissionCookie(String cookieHeader) {
        for (String pair : cookieHeader.split(";")) {
            String p = pair.trim();
            if (p.startsWith("wr_at=")) {
                return java.util.Optional.of(p.substring("wr_at=".length()));
            }
        }
        return java.util.Optional.empty();
    }

    private StubReply renew(String eventId, String visitor) {
        String sessionId = visitor == null ? null : sessionsByVisitor.get(eventId + "/" + visitor);
        if (sessionId == null || !registry.isLive(eventId, sessionId)) {
            return problem(ProblemType.SESSION_ENDED);
        }
        long generation = queue.event(eventId).saleGeneration();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant expiresAt = now.plus(sessionTtl).plusSeconds(60);
        AdmissionClaims claims = new AdmissionClaims(
                eventId,
                generation,
                UUID.randomUUID().toString(),
                sessionId,
                visitor,
                now,
                expiresAt,
                UUID.randomUUID().toString());
        String token = issuer.issue(claims);
        sessionsByToken.put(token, sessionId);
        registry.live(eventId, sessionId, generation, expiresAt);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sessionId", sessionId);
        body.put("eventId", eventId);
        body.put("state", "ACTIVE");
        body.put("expiresAt", expiresAt.toString());
        body.put("absoluteExpiresAt", now.plus(Duration.ofMinutes(30)).toString());
        body.put("token", token);
        return new StubReply(200, body, Map.of("Set-Cookie", admissionCookie(eventId, token)));
    }

    /** The passes {@link #pass} accepts, per event; the real coordinator's checks are its own PassesTests. */
    private final Map<String, String> passes = new ConcurrentHashMap<>();

    /** Makes {@code pass} open a session of {@code eventId}. */
    public void acceptPass(String eventId, String pass) {
        passes.put(pass, eventId);
    }

    /** A pass exchanged for a session as the coordinator answers it: a claim's body and cookie, or 401 pass-invalid. */
    private StubReply pass(String eventId, String visitor, String pass) {
        if (visitor == null || pass == null || !eventId.equals(passes.get(pass))) {
            return problem(ProblemType.PASS_INVALID);
        }
        long generation = queue.event(eventId).saleGeneration();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Issued issued = issue(eventId, visitor, generation, now, now.plus(sessionTtl));
        registry.live(eventId, issued.sessionId(), generation, issued.expiresAt());
        sessionsByToken.put(issued.token(), issued.sessionId());
        sessionsByVisitor.put(eventId + "/" + visitor, issued.sessionId());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sessionId", issued.sessionId());
        body.put("eventId", eventId);
        body.put("state", "ACTIVE");
        body.put("expiresAt", issued.expiresAt().toString());
        body.put("absoluteExpiresAt", issued.expiresAt().toString());
        body.put("token", issued.token());
        return new StubReply(200, body, Map.of("Set-Cookie", admissionCookie(eventId, issued.token())));
    }

    private static String admissionCookie(String eventId, String token) {
        return "wr_at=" + token + "; Path=/events/" + eventId + "; HttpOnly; SameSite=Lax";
    }

    private StubReply claim(String eventId, String visitor, String claiming, RecordedRequest request) {
        if (!claimDelay.isZero()) {
            try {
                Thread.sleep(claimDelay.toMillis());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        ClaimRefusal refusal = claimRefusals.get(eventId);
        if (refusal == ClaimRefusal.SOLD_OUT) {
            return problem(ProblemType.SOLD_OUT);
        }
        if (refusal == ClaimRefusal.ADMISSION_PAUSED) {
            // the real coordinator says 10 s; 1 s keeps the pages under test quick
            StubReply paused = problem(ProblemType.ADMISSION_PAUSED);
            return new StubReply(paused.status(), paused.body(), Map.of("Retry-After", "1"));
        }
        FakeQueueEvent event = queue.event(eventId);
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String own = claiming == null ? null : sessionsByVisitor.get(eventId + "/" + claiming);
        String key = request.header(Headers.IDEMPOTENCY_KEY).orElse(null);
        Issued issued;
        if (own != null && registry.isLive(eventId, own)) {
            String token = tokenOf(request);
            boolean held = (key != null && key.equals(claimKeys.get(own)))
                    || (token != null && own.equals(sessionsByToken.get(token)));
            if (!held) {
                // the visitor id alone: the session belongs to the browser that claimed it
                return problem(ProblemType.OFFER_CLAIMED);
            }
            Instant expiresAt = now.plus(sessionTtl);
            String fresh = issuer.issue(new AdmissionClaims(
                    eventId,
                    event.saleGeneration(),
                    UUID.randomUUID().toString(),
                    own,
                    claiming,
                    now,
                    expiresAt,
                    UUID.randomUUID().toString()));
            issued = new Issued(fresh, own, expiresAt);
        } else {
            FakeQueueEntry entry = visitor == null ? null : event.entryOf(visitor);
            if (entry != null && entry.state() == FakeQueueEntry.State.ACTIVE) {
                return problem(ProblemType.OFFER_CLAIMED);
            }
            if (entry == null || entry.state() != FakeQueueEntry.State.OFFERED) {
                return problem(ProblemType.NO_OFFER);
            }
            // the offer is found by the visitor id; the session is bound to the claiming browser's id
            entry.claim();
            issued = issue(eventId, claiming, event.saleGeneration(), now, now.plus(sessionTtl));
            sessionsByVisitor.put(eventId + "/" + claiming, issued.sessionId());
            if (key != null) {
                claimKeys.put(issued.sessionId(), key);
            }
        }
        registry.live(eventId, issued.sessionId(), event.saleGeneration(), issued.expiresAt());
        sessionsByToken.put(issued.token(), issued.sessionId());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sessionId", issued.sessionId());
        body.put("eventId", eventId);
        body.put("state", "ACTIVE");
        body.put("expiresAt", issued.expiresAt().toString());
        body.put(
                "absoluteExpiresAt",
                issued.expiresAt().plus(Duration.ofMinutes(20)).toString());
        body.put("token", issued.token());
        return new StubReply(200, body, Map.of("Set-Cookie", admissionCookie(eventId, issued.token())));
    }
}
