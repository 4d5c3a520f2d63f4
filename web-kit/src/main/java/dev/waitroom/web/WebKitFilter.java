package dev.waitroom.web;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The kit's filters run once per request; the request attribute that records it is named once, not concatenated
 * again on every request as {@link OncePerRequestFilter} does by default.
 */
abstract class WebKitFilter extends OncePerRequestFilter {

    private final String alreadyFiltered = getClass().getName() + ALREADY_FILTERED_SUFFIX;

    @Override
    protected final String getAlreadyFilteredAttributeName() {
        return alreadyFiltered;
    }
}
