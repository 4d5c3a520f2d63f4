package dev.waitroom.queue.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.queue.EntryId;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Configuration;
import org.springframework.format.FormatterRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The ids in the routes' paths ({@code {eventId}}, {@code {entryId}}) are bound as their types, parsed once before a
 * controller runs: a malformed one answers with the problem its type carries (web kit {@code ProblemHandler}). Plain
 * converters, not Spring's reflective fallback: the visitor routes parse an event id on every poll. The OpenAPI
 * description keeps them strings, as they are on the wire.
 */
@Configuration(proxyBeanMethods = false)
class PathIds implements WebMvcConfigurer {

    static {
        SpringDocUtils.getConfig()
                .replaceWithClass(EventId.class, String.class)
                .replaceWithClass(EntryId.class, String.class);
    }

    @Override
    public void addFormatters(FormatterRegistry registry) {
        registry.addConverter(String.class, EventId.class, EventId::new);
        registry.addConverter(String.class, EntryId.class, EntryId::new);
    }
}
