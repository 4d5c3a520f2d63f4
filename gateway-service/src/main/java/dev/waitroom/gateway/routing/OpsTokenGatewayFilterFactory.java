package dev.waitroom.gateway.routing;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.contract.ops.OperatorCredentials;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.problem.ProblemResponses;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * {@code /admin/**} needs {@code Authorization: Bearer <token>} of a named operator or the plain ops token, current or
 * previous (route filter {@code OpsToken}, the gateway's counterpart of the web kit's ops check); a {@code viewer} may
 * only read (GET, HEAD): 403 {@code operator-forbidden} otherwise. The token is hashed once and compared with every
 * configured hash in constant time ({@link OperatorCredentials}), so a wrong token costs no more than a right one and
 * timing tells nothing. The upstream checks it again and audits the operator by name.
 */
@Component
public class OpsTokenGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

    private final OperatorCredentials operators;

    OpsTokenGatewayFilterFactory(SecretsProperties secrets) {
        super(Object.class);
        this.operators = secrets.operatorCredentials();
    }

    @Override
    public GatewayFilter apply(Object config) {
        return (exchange, chain) -> {
            Optional<Operator> operator = operators.fromAuthorization(
                    exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
            if (operator.isEmpty()) {
                exchange.getResponse()
                        .getHeaders()
                        .set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"waitroom-admin\"");
                return ProblemResponses.write(
                        exchange,
                        ProblemType.OPS_CREDENTIAL_REQUIRED,
                        "The ops API needs Authorization: Bearer with an operator's token.");
            }
            if (!operator.get().permits(exchange.getRequest().getMethod().name())) {
                return ProblemResponses.write(
                        exchange,
                        ProblemType.OPERATOR_FORBIDDEN,
                        "Operator " + operator.get().name() + " has the viewer role: it reads the ops API and"
                                + " changes nothing.");
            }
            return chain.filter(exchange);
        };
    }
}
