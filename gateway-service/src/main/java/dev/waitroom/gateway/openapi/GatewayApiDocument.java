package dev.waitroom.gateway.openapi;

import dev.waitroom.contract.ProblemType;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI 3.1 document of everything the gateway answers on its public port: the visitor routes, the public event
 * status, the page and its assets, and the ops API it forwards behind the ops credential (docs/reference/api.md).
 * The gateway's routes are SCG routes and router functions, not annotated controllers, so the document is written here
 * from {@link #OPERATIONS}, one entry per path and method; {@code OpenApiRouteTableTests} compares it with the route
 * table both ways. Every error is an RFC 9457 problem ({@code Problem}) whose {@code type} is one of the catalogue's
 * ({@link ProblemType}).
 */
final class GatewayApiDocument {

    /**
     * Who may call an operation: anyone, a visitor with a place, an admitted visitor, an operator, a shop holding the
     * event's integration credential.
     */
    enum Access {
        PUBLIC,
        VISITOR,
        ADMITTED,
        OPERATOR,
        INTEGRATION
    }

    /** One documented operation. {@code success} is the status of a normal answer. */
    record Operation(String method, String path, String tag, Access access, String success, String summary) {}

    static final List<Operation> OPERATIONS = List.of(
            op(
                    "GET",
                    "/actuator/health",
                    "health",
                    Access.PUBLIC,
                    "200",
                    "Readiness for load balancers: {\"status\":\"UP\"} without details, answered by the gateway."),
            op(
                    "GET",
                    "/events/{eventId}",
                    "page",
                    Access.PUBLIC,
                    "200",
                    "The waiting page (HTML), rendered once per language at start; cacheable, sets no cookie."),
            op(
                    "GET",
                    "/events/{eventId}/shop-ui",
                    "page",
                    Access.PUBLIC,
                    "200",
                    "The minimal shop page (HTML) an admitted visitor shops from."),
            op("GET", "/assets/{asset}", "page", Access.PUBLIC, "200", "The pages' scripts, styles and images."),
            op(
                    "GET",
                    "/events/{eventId}/status",
                    "events",
                    Access.PUBLIC,
                    "200",
                    "Public event status, the same for every visitor (queue-service; Cache-Control: public, max-age=1)."),
            op(
                    "GET",
                    "/events/{eventId}/queue/challenge",
                    "queue",
                    Access.PUBLIC,
                    "200",
                    "The event's join challenge (proof of work) when its difficulty is above 0, else 204."),
            op(
                    "POST",
                    "/events/{eventId}/queue",
                    "queue",
                    Access.VISITOR,
                    "201",
                    "Join the queue (queue-service): 201 with a new entry and receipt, 200 with the entry held already."),
            op(
                    "GET",
                    "/events/{eventId}/return-target",
                    "page",
                    Access.PUBLIC,
                    "200",
                    "Whether the waiting page may send an admitted buyer back to ?path= (a path the event protects): "
                            + "{\"target\"}, else 400 bad-path (docs/integration/gateway-in-front.md)."),
            op("DELETE", "/events/{eventId}/queue", "queue", Access.VISITOR, "200", "Leave the queue (queue-service)."),
            op(
                    "GET",
                    "/events/{eventId}/queue/status",
                    "queue",
                    Access.VISITOR,
                    "200",
                    "The visitor's place, estimate and offer; answered at the edge or forwarded to the queue-service."),
            op(
                    "POST",
                    "/events/{eventId}/admission/claim",
                    "admission",
                    Access.VISITOR,
                    "200",
                    "Claim an offer (coordinator): a shopping session and its admission token (the event's"
                            + " wr_at_{eventId} cookie). Send Idempotency-Key: a repeat with the same key, or with the session's"
                            + " token, returns the same session; the visitor cookie alone is 409 offer-claimed."),
            op(
                    "POST",
                    "/events/{eventId}/admission/pass",
                    "admission",
                    Access.VISITOR,
                    "200",
                    "Exchange a staff or partner pass (Waitroom-Pass: wrp_<id>_<secret>, never in the URL) for a shopping"
                            + " session that skips the queue and counts against the ceiling, answered as a claim"
                            + " (docs/operating/allow-rules-and-passes.md): 401 pass-invalid, pass-expired or"
                            + " pass-revoked, 403 pass-other-event, 409 pass-used-up, 503 at-ceiling with Retry-After."),
            op(
                    "POST",
                    "/events/{eventId}/code",
                    "queue",
                    Access.VISITOR,
                    "200",
                    "Redeem an access code ({\"code\"} in the body, never in the URL; coordinator): the visitor's waiting"
                            + " place moves to the code's lane, keeping its join order; {\"lane\",\"state\"}. 403"
                            + " code-invalid, 409 code-used-up, 410 code-expired or code-revoked"
                            + " (docs/operating/lanes-and-access-codes.md)."),
            op(
                    "POST",
                    "/events/{eventId}/shopping-session/renew",
                    "admission",
                    Access.ADMITTED,
                    "200",
                    "Renew the shopping session (coordinator), up to its absolute end."),
            op(
                    "POST",
                    "/events/{eventId}/shopping-session/leave",
                    "admission",
                    Access.ADMITTED,
                    "200",
                    "End the shopping session (coordinator)."),
            op(
                    "POST",
                    "/events/{eventId}/signals/purchase-completed",
                    "signals",
                    Access.INTEGRATION,
                    "200",
                    "The shop sold to a session ({\"sessionId\",\"orderId\"}): recorded once, and the session released"
                            + " when the event's afterPurchase is RELEASE (docs/integration/shop-signals.md)."),
            op(
                    "POST",
                    "/events/{eventId}/signals/sold-out",
                    "signals",
                    Access.INTEGRATION,
                    "200",
                    "No seat left: {\"category\"} marks one seat category sold out, {} the whole event (mode"
                            + " SOLD_OUT, outstanding offers withdrawn). Idempotent."),
            op(
                    "POST",
                    "/events/{eventId}/signals/session-release",
                    "signals",
                    Access.INTEGRATION,
                    "200",
                    "The shop ends a session ({\"sessionId\"}): its capacity returns to the queue once. Idempotent."),
            op(
                    "GET",
                    "/admin/events/{eventId}/lanes",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The event's lanes, their shares (general takes the rest) and their access codes' counts."),
            op(
                    "PUT",
                    "/admin/events/{eventId}/lanes",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Declare the lanes ({\"lanes\":[{\"name\",\"share\"}],\"reason\"}) while the rules are unpublished;"
                            + " 409 rule-frozen after (audited)."),
            op(
                    "POST",
                    "/admin/events/{eventId}/lanes/{lane}/codes",
                    "ops",
                    Access.OPERATOR,
                    "201",
                    "Issue access codes ({\"count\",\"usesPerCode\",\"expiresAt\",\"reason\"}); the codes are in this"
                            + " answer only (audited)."),
            op(
                    "DELETE",
                    "/admin/events/{eventId}/lanes/{lane}/codes",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Revoke one access code, named in the body ({\"code\",\"reason\"}; audited)."),
            op(
                    "DELETE",
                    "/admin/events/{eventId}/lanes/{lane}/codes/{batchId}",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Revoke every live code of a batch ({\"reason\"}; audited)."),
            op(
                    "GET",
                    "/admin/events/{eventId}/integration-credentials",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The event's integration credentials for shop signals, live and revoked, without secrets."),
            op(
                    "POST",
                    "/admin/events/{eventId}/integration-credentials",
                    "ops",
                    Access.OPERATOR,
                    "201",
                    "A new integration credential ({\"label\"} optional); its secret is in this answer only. Two live"
                            + " at most: 409 integration-credential-limit."),
            op(
                    "DELETE",
                    "/admin/events/{eventId}/integration-credentials/{credentialId}",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Revoke an integration credential: the next signal carrying it is refused (audited)."),
            op(
                    "GET",
                    "/admin/events/{eventId}/passes",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The event's staff and partner passes, with state and uses, without secrets."),
            op(
                    "POST",
                    "/admin/events/{eventId}/passes",
                    "ops",
                    Access.OPERATOR,
                    "201",
                    "Issue a pass ({\"holder\",\"expiresAt\",\"maxUses\" (default 1),\"reason\"}); the pass is in this"
                            + " answer only (audited)."),
            op(
                    "DELETE",
                    "/admin/events/{eventId}/passes/{passId}",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Revoke a pass ({\"reason\"} optional): no new session, its live sessions end (audited)."),
            op(
                    "GET",
                    "/events/{eventId}/shop/seats",
                    "shop",
                    Access.ADMITTED,
                    "200",
                    "Seats and availability (booking-service)."),
            op("POST", "/events/{eventId}/shop/holds", "shop", Access.ADMITTED, "201", "Hold seats (booking-service)."),
            op(
                    "GET",
                    "/events/{eventId}/shop/holds/{holdId}",
                    "shop",
                    Access.ADMITTED,
                    "200",
                    "A hold (booking-service)."),
            op(
                    "DELETE",
                    "/events/{eventId}/shop/holds/{holdId}",
                    "shop",
                    Access.ADMITTED,
                    "204",
                    "Release a hold (booking-service)."),
            op(
                    "POST",
                    "/events/{eventId}/shop/orders",
                    "shop",
                    Access.ADMITTED,
                    "201",
                    "Order the held seats (booking-service)."),
            op(
                    "GET",
                    "/events/{eventId}/shop/orders/{orderId}",
                    "shop",
                    Access.ADMITTED,
                    "200",
                    "An order (booking-service); the admission token may have ended after payment."),
            op(
                    "POST",
                    "/webhooks/payments",
                    "shop",
                    Access.PUBLIC,
                    "200",
                    "The payment provider's webhook (booking-service checks its signature)."),
            op(
                    "GET",
                    "/.well-known/jwks.json",
                    "keys",
                    Access.PUBLIC,
                    "200",
                    "The admission-token signing keys, public parts only (coordinator)."),
            op(
                    "GET",
                    "/.well-known/waitroom-admission-keys",
                    "keys",
                    Access.PUBLIC,
                    "200",
                    "The gateway's public keys (JWKS) for the Waitroom-Admission header origins verify"
                            + " (docs/integration/admission-header.md)."),
            op("POST", "/admin/events", "ops", Access.OPERATOR, "201", "Create an event (coordinator)."),
            op(
                    "GET",
                    "/admin/events",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "List events: filters, keyset pages (docs/operating/event-lifecycle.md#the-list)."),
            op("GET", "/admin/events/{eventId}", "ops", Access.OPERATOR, "200", "An event's configuration and state."),
            op("PATCH", "/admin/events/{eventId}", "ops", Access.OPERATOR, "200", "Change an event's configuration."),
            op(
                    "PUT",
                    "/admin/events/{eventId}/page",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Replace the event's seller's page: brand, logo, colours, texts, template (coordinator;"
                            + " docs/operating/the-sellers-page.md)."),
            op("GET", "/admin/events/{eventId}/page", "ops", Access.OPERATOR, "200", "The event's seller's page."),
            op(
                    "GET",
                    "/admin/events/{eventId}/page/preview",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The event's waiting page as its design renders now, without scripts (HTML; gateway)."),
            op(
                    "DELETE",
                    "/admin/events/{eventId}",
                    "ops",
                    Access.OPERATOR,
                    "204",
                    "Delete an event that never opened (audited in deleted_events)."),
            op(
                    "POST",
                    "/admin/events/{eventId}/publish",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Publish a draft: its rules freeze, it goes live (audited)."),
            op(
                    "POST",
                    "/admin/events/{eventId}/archive",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Archive an ended or never-opened event: hidden, records kept, queue keys dropped (audited)."),
            op("POST", "/admin/events/{eventId}/open", "ops", Access.OPERATOR, "200", "Open the sale."),
            op("POST", "/admin/events/{eventId}/end", "ops", Access.OPERATOR, "200", "End the sale."),
            op("POST", "/admin/events/{eventId}/pause", "ops", Access.OPERATOR, "200", "Pause admission."),
            op("POST", "/admin/events/{eventId}/resume", "ops", Access.OPERATOR, "200", "Resume admission."),
            op("POST", "/admin/events/{eventId}/sold-out", "ops", Access.OPERATOR, "200", "Mark the event sold out."),
            op("POST", "/admin/events/{eventId}/rounds", "ops", Access.OPERATOR, "200", "Start an admission round."),
            op(
                    "GET",
                    "/admin/events/{eventId}/regions",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The event's capacity ledger: each region's budget, its use and its gate's lease (docs/operating/regions.md)."),
            op(
                    "POST",
                    "/admin/events/{eventId}/regions/{region}/drain",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Drain a region: no new budget, it keeps only its live grants (audited)."),
            op(
                    "POST",
                    "/admin/events/{eventId}/regions/{region}/resume",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Resume a drained region (audited)."),
            op("POST", "/admin/events/{eventId}/bypass", "ops", Access.OPERATOR, "200", "Add bypass codes."),
            op("DELETE", "/admin/events/{eventId}/bypass", "ops", Access.OPERATOR, "200", "Remove bypass codes."),
            op(
                    "PUT",
                    "/admin/events/{eventId}/announcement",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Set the announcement shown on the page."),
            op(
                    "GET",
                    "/admin/events/{eventId}/schedule",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The event's closing time, planned windows and the schedule's audit."),
            op(
                    "PUT",
                    "/admin/events/{eventId}/schedule",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Replace the closing time and planned windows (audited; docs/operating/schedules-and-pauses.md)."),
            op(
                    "GET",
                    "/admin/events/{eventId}/inventory",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The event's inventory (booking-service)."),
            op(
                    "PUT",
                    "/admin/events/{eventId}/inventory",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "Load or replace the event's inventory (booking-service)."),
            op(
                    "GET",
                    "/admin/booking/faults",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The booking-service's injected faults (rehearsals)."),
            op("PUT", "/admin/booking/faults", "ops", Access.OPERATOR, "200", "Inject faults (rehearsals)."),
            op("DELETE", "/admin/booking/faults", "ops", Access.OPERATOR, "204", "Clear injected faults."),
            op(
                    "GET",
                    "/admin/keys",
                    "ops",
                    Access.OPERATOR,
                    "200",
                    "The admission-token signing keys and their state."),
            op("POST", "/admin/keys/rotate", "ops", Access.OPERATOR, "200", "Rotate the signing key."),
            op("POST", "/admin/keys/{keyId}/revoke", "ops", Access.OPERATOR, "200", "Revoke a signing key."),
            op("GET", OpenApiRoutes.API_DOCS, "ops", Access.OPERATOR, "200", "This document."));

    /** Members our problems add to RFC 9457's, each set by some problem of the catalogue. */
    private static final List<String[]> PROBLEM_EXTENSIONS = List.of(
            new String[] {"limit", "integer", "The limit that was reached (for example seats per session)."},
            new String[] {"taken", "integer", "How much of the limit is taken already."},
            new String[] {"signInUrl", "string", "Where the visitor signs in (sign-in-required)."},
            new String[] {"rule", "string", "The published rule that cannot change any more (rule-frozen)."},
            new String[] {"challenge", "object", "A fresh join challenge (the proof-of-work problems)."});

    private static final Pattern PATH_VARIABLE = Pattern.compile("\\{(\\w+)}");

    private GatewayApiDocument() {}

    private static Operation op(String method, String path, String tag, Access access, String success, String summary) {
        return new Operation(method, path, tag, access, success, summary);
    }

    /** The document as JSON bytes, built once by {@link OpenApiRoutes}. */
    static byte[] json() {
        return JsonMapper.builder().build().writeValueAsBytes(build());
    }

    static ObjectNode build() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode root = json.objectNode();
        root.put("openapi", "3.1.0");
        ObjectNode info = root.putObject("info");
        info.put("title", "Waitroom gateway");
        info.put("version", "1");
        info.put(
                "description",
                "Everything the gateway answers on its public port. Errors are RFC 9457 problems"
                        + " (application/problem+json) whose type is one of components.schemas.ProblemTypeUri.");
        ObjectNode paths = root.putObject("paths");
        for (Operation operation : OPERATIONS) {
            ObjectNode item = paths.has(operation.path())
                    ? (ObjectNode) paths.get(operation.path())
                    : paths.putObject(operation.path());
            ObjectNode node = item.putObject(operation.method().toLowerCase(Locale.ROOT));
            node.put("summary", operation.summary());
            node.putArray("tags").add(operation.tag());
            ArrayNode parameters = node.putArray("parameters");
            Matcher variables = PATH_VARIABLE.matcher(operation.path());
            while (variables.find()) {
                ObjectNode parameter = parameters.addObject();
                parameter.put("name", variables.group(1));
                parameter.put("in", "path");
                parameter.put("required", true);
                ObjectNode schema = parameter.putObject("schema");
                schema.put("type", "string");
                if (variables.group(1).equals("eventId")) {
                    schema.put("pattern", "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$");
                }
            }
            switch (operation.access()) {
                case OPERATOR -> node.putArray("security").addObject().putArray("ops");
                case ADMITTED -> {
                    ArrayNode security = node.putArray("security");
                    security.addObject().putArray("admissionCookie");
                    security.addObject().putArray("admissionBearer");
                }
                case VISITOR -> node.putArray("security").addObject().putArray("visitorCookie");
                case PUBLIC -> node.putArray("security").addObject();
                case INTEGRATION -> node.putArray("security").addObject().putArray("integrationCredential");
            }
            ObjectNode responses = node.putObject("responses");
            responses.putObject(operation.success()).put("description", "Success");
            responses.putObject("default").put("$ref", "#/components/responses/Problem");
        }
        ObjectNode components = root.putObject("components");
        ObjectNode schemes = components.putObject("securitySchemes");
        schemes.putObject("ops")
                .put("type", "http")
                .put("scheme", "bearer")
                .put(
                        "description",
                        "An operator's token or the ops token (docs/design/security/operators.md); a viewer"
                                + " only reads. Missing or wrong: 401 ops-credential-required.");
        schemes.putObject("integrationCredential")
                .put("type", "http")
                .put("scheme", "bearer")
                .put(
                        "description",
                        "The event's integration credential (wric_<id>_<secret>, from POST"
                                + " /admin/events/{eventId}/integration-credentials), for the shop signals only."
                                + " Missing or wrong: 401 integration-credential-required; another event's: 403"
                                + " integration-credential-forbidden.");
        schemes.putObject("visitorCookie")
                .put("type", "apiKey")
                .put("in", "cookie")
                .put("name", "__Host-wr_vid")
                .put("description", "The visitor cookie the gateway issues (wr_vid over plain http).");
        schemes.putObject("admissionCookie")
                .put("type", "apiKey")
                .put("in", "cookie")
                .put("name", "__Host-wr_at_{eventId}")
                .put(
                        "description",
                        "The event's admission token set at claim, the event's own name with Path=/ (wr_at_{eventId}"
                                + " over plain http; docs/integration/gateway-in-front.md#cookies).");
        schemes.putObject("admissionBearer")
                .put("type", "http")
                .put("scheme", "bearer")
                .put("bearerFormat", "JWT");
        components
                .putObject("responses")
                .putObject("Problem")
                .put("description", "An RFC 9457 problem from the catalogue")
                .putObject("content")
                .putObject("application/problem+json")
                .putObject("schema")
                .put("$ref", "#/components/schemas/Problem");
        ObjectNode schemas = components.putObject("schemas");
        ObjectNode problem = schemas.putObject("Problem");
        problem.put("type", "object");
        problem.putArray("required").add("type").add("title").add("status");
        ObjectNode properties = problem.putObject("properties");
        properties.putObject("type").put("$ref", "#/components/schemas/ProblemTypeUri");
        properties.putObject("title").put("type", "string");
        properties
                .putObject("status")
                .put("type", "integer")
                .put("minimum", 400)
                .put("maximum", 599);
        properties.putObject("detail").put("type", "string");
        properties.putObject("instance").put("type", "string").put("format", "uri-reference");
        for (String[] extension : PROBLEM_EXTENSIONS) {
            properties.putObject(extension[0]).put("type", extension[1]).put("description", extension[2]);
        }
        problem.put("additionalProperties", true);
        ObjectNode typeUri = schemas.putObject("ProblemTypeUri");
        typeUri.put("type", "string");
        typeUri.put("format", "uri");
        ArrayNode oneOf = typeUri.putArray("oneOf");
        for (ProblemType type : ProblemType.values()) {
            oneOf.addObject()
                    .put("const", type.type().toString())
                    .put("title", type.title())
                    .put("x-status", type.status());
        }
        return root;
    }
}
