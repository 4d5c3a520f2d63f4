package dev.waitroom.gateway.accounts;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * A sign-in token as a request presents it: in {@code Authorization: Bearer}, else in the operator's cookie ({@code
 * cookie}: ambient, so its verdict is the queue-service's to answer). The token is never forwarded: {@link #remove}
 * takes both places out of the request's headers.
 */
record PresentedToken(String value, boolean cookie) {

    private static final String BEARER = "bearer ";

    /** The bearer token, else the {@code cookieName} cookie's value; null when neither is there. */
    static PresentedToken of(ServerHttpRequest request, String cookieName) {
        String authorization = request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization != null
                && authorization.length() > BEARER.length()
                && authorization
                        .substring(0, BEARER.length())
                        .toLowerCase(Locale.ROOT)
                        .equals(BEARER)) {
            return new PresentedToken(authorization.substring(BEARER.length()).trim(), false);
        }
        if (cookieName != null) {
            HttpCookie cookie = request.getCookies().getFirst(cookieName);
            if (cookie != null && !cookie.getValue().isEmpty()) {
                return new PresentedToken(cookie.getValue(), true);
            }
        }
        return null;
    }

    /** Removes {@code Authorization} and, when configured, the {@code cookieName} cookie, keeping every other cookie. */
    static void remove(HttpHeaders headers, String cookieName) {
        headers.remove(HttpHeaders.AUTHORIZATION);
        if (cookieName == null) {
            return;
        }
        List<String> cookies = headers.get(HttpHeaders.COOKIE);
        if (cookies != null) {
            String kept = without(cookies, cookieName);
            headers.remove(HttpHeaders.COOKIE);
            if (!kept.isEmpty()) {
                headers.set(HttpHeaders.COOKIE, kept);
            }
        }
    }

    private static String without(List<String> cookieHeaders, String name) {
        return cookieHeaders.stream()
                .flatMap(header -> List.of(header.split(";")).stream())
                .map(String::trim)
                .filter(pair -> !pair.isEmpty())
                .filter(pair -> {
                    int eq = pair.indexOf('=');
                    return !(eq < 0 ? pair : pair.substring(0, eq).trim()).equals(name);
                })
                .collect(Collectors.joining("; "));
    }
}
