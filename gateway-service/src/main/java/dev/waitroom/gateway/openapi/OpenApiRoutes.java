package dev.waitroom.gateway.openapi;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.OperatorCredentials;
import dev.waitroom.gateway.config.SecretsProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /v3/api-docs}: the gateway's OpenAPI document ({@link GatewayApiDocument}), built once at start and
 * served as the same bytes, only with the ops credential (the same check as route filter {@code OpsToken}; a viewer
 * may read it). Anonymous or a wrong token: 401 {@code ops-credential-required}. No Swagger UI is served: the JSON
 * opens in any OpenAPI viewer the operator runs locally (docs/reference/api.md).
 */
@Configuration(proxyBeanMethods = false)
class OpenApiRoutes {

    static final String API_DOCS = "/v3/api-docs";

    @Bean
    RouterFunction<ServerResponse> apiDocsRoute(SecretsProperties secrets) {
        OperatorCredentials operators = secrets.operatorCredentials();
        byte[] document = GatewayApiDocument.json();
        return RouterFunctions.route()
                .GET(API_DOCS, request -> {
                    if (operators
                            .fromAuthorization(request.headers().firstHeader(HttpHeaders.AUTHORIZATION))
                            .isEmpty()) {
                        ProblemType problem = ProblemType.OPS_CREDENTIAL_REQUIRED;
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put("type", problem.type().toString());
                        body.put("title", problem.title());
                        body.put("status", problem.status());
                        body.put("detail", "The API document needs Authorization: Bearer with an operator's token.");
                        body.put("instance", API_DOCS);
                        return ServerResponse.status(problem.status())
                                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"waitroom-admin\"")
                                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                                .cacheControl(CacheControl.noStore())
                                .bodyValue(body);
                    }
                    return ServerResponse.ok()
                            .contentType(MediaType.APPLICATION_JSON)
                            .cacheControl(CacheControl.noStore())
                            .bodyValue(document);
                })
                .build();
    }
}
