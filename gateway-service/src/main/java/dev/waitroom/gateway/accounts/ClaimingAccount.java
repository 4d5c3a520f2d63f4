package dev.waitroom.gateway.accounts;

import java.util.Optional;
import org.springframework.web.server.ServerWebExchange;

/**
 * The verified account of a claim, handed from {@link AccountWebFilter}, which verifies the token, to {@link
 * ClaimAccountWebFilter}, which binds the claim to the account's place, as an exchange attribute: a claim without a
 * valid token carries none.
 */
record ClaimingAccount(String event, String account) {

    private static final String ATTRIBUTE = ClaimingAccount.class.getName();

    void putOn(ServerWebExchange exchange) {
        exchange.getAttributes().put(ATTRIBUTE, this);
    }

    static Optional<ClaimingAccount> of(ServerWebExchange exchange) {
        return Optional.ofNullable(exchange.getAttribute(ATTRIBUTE));
    }
}
