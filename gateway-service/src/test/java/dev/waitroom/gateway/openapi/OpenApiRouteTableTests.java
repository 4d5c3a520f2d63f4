package dev.waitroom.gateway.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteDefinition;
import org.springframework.cloud.gateway.route.RouteDefinitionLocator;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The gateway's OpenAPI document against its route table, both ways, in the running gateway: every documented path and
 * method is answered by a router function or an SCG route (a documented path that does not route fails), every SCG route
 * (each of its methods) and every router-function route is documented (a route added without documentation fails).
 * And the document itself: served only with the ops credential (anonymous and a wrong token get the
 * ops-credential-required problem), the same bytes each time, every problem type of the catalogue in it.
 */
@GatewayIntegrationTest
class OpenApiRouteTableTests {

    /** A value for each path variable the document uses, well formed for the gateway's checks. */
    private static final Map<String, String> SAMPLES = Map.ofEntries(
            Map.entry("eventId", "e1"),
            Map.entry("holdId", "h1"),
            Map.entry("orderId", "o1"),
            Map.entry("keyId", "k1"),
            Map.entry("asset", "common.js"),
            Map.entry("region", "west"),
            Map.entry("credentialId", "0123456789abcdef"),
            Map.entry("passId", "0123456789abcdef"),
            Map.entry("lane", "presale"),
            Map.entry("batchId", "0123456789abcdef"));

    private static final Pattern VARIABLE = Pattern.compile("\\{(\\w+)}");

    /** How a router function built with RouterFunctions.route().GET(pattern, ...) prints its predicate. */
    private static final Pattern METHOD_AND_PATH = Pattern.compile("^\\(([A-Z]+) && (/\\S*)\\)$");

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @Autowired
    RouteLocator routes;

    @Autowired
    RouteDefinitionLocator definitions;

    private JsonNode document() {
        Browser.Reply reply =
                new Browser(port).get("/v3/api-docs", "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    private List<String[]> documentedOperations() {
        List<String[]> operations = new ArrayList<>();
        JsonNode paths = document().get("paths");
        for (String path : paths.propertyNames()) {
            for (String method : paths.get(path).propertyNames()) {
                operations.add(new String[] {method.toUpperCase(Locale.ROOT), path});
            }
        }
        return operations;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private List<RouterFunction<?>> routerFunctions() {
        return (List)
                context.getBeanProvider(RouterFunction.class).orderedStream().toList();
    }

    private static String concrete(String path) {
        Matcher variables = VARIABLE.matcher(path);
        StringBuilder out = new StringBuilder();
        while (variables.find()) {
            assertThat(SAMPLES)
                    .as("a sample value for {%s}", variables.group(1))
                    .containsKey(variables.group(1));
            variables.appendReplacement(out, SAMPLES.get(variables.group(1)));
        }
        variables.appendTail(out);
        return out.toString();
    }

    private static MockServerWebExchange exchange(String method, String path) {
        return MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.valueOf(method), path));
    }

    /** What answers the request in the gateway's order: router functions first, then the SCG routes in order. */
    private String routedBy(String method, String path) {
        for (RouterFunction<?> function : routerFunctions()) {
            ServerRequest request = ServerRequest.create(
                    exchange(method, path), HandlerStrategies.withDefaults().messageReaders());
            if (Boolean.TRUE.equals(function.route(request).hasElement().block())) {
                return "router-function";
            }
        }
        for (Route route : routes.getRoutes().collectList().block()) {
            if (Boolean.TRUE.equals(Mono.from(route.getPredicate().apply(exchange(method, path)))
                    .block())) {
                return route.getId();
            }
        }
        return null;
    }

    @Test
    void everyDocumentedPathAndMethodRoutesAndEveryRouteIsDocumented() {
        Map<String, Set<String>> methodsByRoute = new LinkedHashMap<>();
        List<String> notRouted = new ArrayList<>();
        for (String[] operation : documentedOperations()) {
            String routedBy = routedBy(operation[0], concrete(operation[1]));
            if (routedBy == null) {
                notRouted.add(operation[0] + " " + operation[1]);
            } else {
                methodsByRoute.computeIfAbsent(routedBy, id -> new TreeSet<>()).add(operation[0]);
            }
        }
        assertThat(notRouted).as("documented operations no route answers").isEmpty();

        List<String> undocumented = new ArrayList<>();
        for (RouteDefinition definition :
                definitions.getRouteDefinitions().collectList().block()) {
            Set<String> documented = methodsByRoute.getOrDefault(definition.getId(), Set.of());
            Set<String> methods = new TreeSet<>();
            definition.getPredicates().stream()
                    .filter(predicate -> predicate.getName().equals("Method"))
                    .flatMap(predicate -> predicate.getArgs().values().stream())
                    .flatMap(value -> List.of(value.split(",")).stream())
                    .map(String::trim)
                    .filter(method -> !method.equals("HEAD"))
                    .forEach(methods::add);
            if (methods.isEmpty() && documented.isEmpty()) {
                undocumented.add("route " + definition.getId() + " (any method)");
            }
            for (String method : methods) {
                if (!documented.contains(method)) {
                    undocumented.add("route " + definition.getId() + " " + method);
                }
            }
        }

        Set<String> documentedOperations = new HashSet<>();
        documentedOperations().forEach(operation -> documentedOperations.add(operation[0] + " " + operation[1]));
        List<String> functionRoutes = new ArrayList<>();
        int[] resources = {0};
        for (RouterFunction<?> function : routerFunctions()) {
            function.accept(new RouterFunctions.Visitor() {
                @Override
                public void startNested(RequestPredicate predicate) {
                    functionRoutes.add("nested " + predicate);
                }

                @Override
                public void endNested(RequestPredicate predicate) {}

                @Override
                public void route(RequestPredicate predicate, HandlerFunction<?> handler) {
                    functionRoutes.add(predicate.toString());
                }

                @Override
                public void resources(Function<ServerRequest, Mono<Resource>> lookup) {
                    resources[0]++;
                }

                @Override
                public void attributes(Map<String, Object> attributes) {}

                @Override
                public void unknown(RouterFunction<?> routerFunction) {
                    functionRoutes.add("unknown " + routerFunction);
                }
            });
        }
        assertThat(functionRoutes).as("the gateway's router-function routes").isNotEmpty();
        for (String route : functionRoutes) {
            Matcher matcher = METHOD_AND_PATH.matcher(route);
            if (!matcher.matches() || !documentedOperations.contains(matcher.group(1) + " " + matcher.group(2))) {
                undocumented.add("router function " + route);
            }
        }
        assertThat(resources[0])
                .as("the static assets are one resource lookup, documented as GET /assets/{asset}")
                .isEqualTo(1);
        assertThat(documentedOperations).contains("GET /assets/{asset}");
        assertThat(undocumented).as("routes the document does not describe").isEmpty();
    }

    @Test
    void theDocumentNeedsTheOpsCredential() {
        Browser browser = new Browser(port);
        browser.get("/v3/api-docs").assertProblem(401, "ops-credential-required");
        browser.get("/v3/api-docs", "Authorization", "Bearer not-the-token")
                .assertProblem(401, "ops-credential-required");
        Browser.Reply anonymous = browser.get("/v3/api-docs");
        assertThat(anonymous.header("WWW-Authenticate"))
                .hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
        assertThat(anonymous.body()).doesNotContain("openapi");
    }

    @Test
    void theDocumentIsOpenApi31WithEveryProblemTypeAndTheSameBytesEachTime() {
        Browser browser = new Browser(port);
        Browser.Reply first = browser.get("/v3/api-docs", "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN);
        Browser.Reply second = browser.get("/v3/api-docs", "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN);
        assertThat(second.body()).isEqualTo(first.body());
        JsonNode document = first.json();
        assertThat(document.get("openapi").asString()).isEqualTo("3.1.0");
        Set<String> types = new HashSet<>();
        document.get("components")
                .get("schemas")
                .get("ProblemTypeUri")
                .get("oneOf")
                .forEach(type -> types.add(type.get("const").asString()));
        for (ProblemType type : ProblemType.values()) {
            assertThat(types)
                    .as("problem type %s", type.slug())
                    .contains(type.type().toString());
        }
        JsonNode problem =
                document.get("components").get("schemas").get("Problem").get("properties");
        for (String member : List.of("type", "title", "status", "detail", "instance", "limit", "signInUrl", "rule")) {
            assertThat(problem.has(member)).as("problem member %s", member).isTrue();
        }
        document.get("paths")
                .forEach(item -> item.forEach(operation -> assertThat(operation
                                .get("responses")
                                .get("default")
                                .get("$ref")
                                .asString())
                        .isEqualTo("#/components/responses/Problem")));
    }
}
