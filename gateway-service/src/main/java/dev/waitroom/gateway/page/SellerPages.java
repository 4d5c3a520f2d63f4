package dev.waitroom.gateway.page;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.PageVersions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each event's waiting page as its seller designed it (docs/operating/the-sellers-page.md), rendered once per language
 * when its design's version changes, never per request: every {@code refresh} the small version index the coordinator
 * writes ({@link RedisKeys#PAGES}) is read off the request path, and only a design whose version this gateway does not
 * hold is fetched ({@link RedisKeys#page}) and rendered, on a worker thread. An event without a design of its own gets
 * the deployment's default page ({@link SellerPageProperties}); while Redis cannot be read the pages in force stay.
 */
@Component
public class SellerPages implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SellerPages.class);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Pattern COLOUR = Pattern.compile("#[0-9a-fA-F]{6}");

    private static final String CSP_HEAD = "default-src 'self'; script-src 'self'; style-src 'self'";

    private static final String CSP_TAIL =
            "; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private final ReactiveStringRedisTemplate redis;

    private final SellerPageProperties defaults;

    private final MessageBundles bundles;

    private final LanguageChoice languages;

    private final PageTemplate waiting = PageTemplate.load("waiting-room/waiting.html");

    private final EventPage fallback;

    private final Map<String, EventPage> byEvent = new ConcurrentHashMap<>();

    private volatile Disposable refreshing;

    private volatile boolean failing;

    SellerPages(ReactiveStringRedisTemplate redis, SellerPageProperties defaults) {
        this.redis = redis;
        this.defaults = defaults;
        this.bundles = MessageBundles.load(MessageBundles.LOCATION);
        this.languages = new LanguageChoice(bundles);
        this.fallback = render(null, null);
    }

    MessageBundles bundles() {
        return bundles;
    }

    LanguageChoice languages() {
        return languages;
    }

    /** The page in force for the event: its own design's, else the deployment's default. A map read, no more. */
    EventPage pageOf(String eventId) {
        EventPage page = byEvent.get(eventId);
        return page != null ? page : fallback;
    }

    /** The event's design as Redis holds it now, rendered (an operator's preview; not cached). */
    Mono<EventPage> current(EventId id) {
        return redis.opsForValue()
                .get(RedisKeys.page(id))
                .publishOn(Schedulers.boundedElastic())
                .map(json -> render(id, JSON.readValue(json, PageDesign.class)))
                .switchIfEmpty(Mono.fromCallable(() -> fallback));
    }

    /** Reads the version index once and renders what changed; the scheduled refresh calls it too. */
    public Mono<Void> refresh() {
        return redis.opsForValue()
                .get(RedisKeys.PAGES)
                .map(PageVersions::decode)
                .flatMapMany(index -> {
                    Set<String> listed = new TreeSet<>();
                    index.versions().keySet().forEach(id -> listed.add(id.value()));
                    byEvent.keySet().retainAll(listed);
                    return Flux.fromIterable(index.versions().entrySet()).filter(e -> {
                        EventPage held = byEvent.get(e.getKey().value());
                        return held == null || held.version() != e.getValue();
                    });
                })
                .concatMap(e -> redis.opsForValue()
                        .get(RedisKeys.page(e.getKey()))
                        .publishOn(Schedulers.boundedElastic())
                        .doOnNext(json -> install(e.getKey(), json)))
                .then()
                .doOnSuccess(done -> {
                    if (failing) {
                        failing = false;
                        log.info("Seller's pages read again");
                    }
                })
                .onErrorResume(ex -> {
                    if (!failing) {
                        failing = true;
                        log.warn("Seller's pages not read, the pages in force stay: {}", ex.toString());
                    }
                    return Mono.empty();
                });
    }

    private void install(EventId id, String json) {
        try {
            PageDesign design = JSON.readValue(json, PageDesign.class);
            byEvent.put(id.value(), render(id, design));
            log.info("Page of event {} version {} in force", id, design.version());
        } catch (RuntimeException ex) {
            log.warn("Page of event {} not rendered, the page in force stays: {}", id, ex.toString());
        }
    }

    /** The design (null: none) over the deployment's default, rendered for every language. */
    EventPage render(EventId id, PageDesign design) {
        PageDesign d = design != null ? design : new PageDesign(0, null, null, null, null, null, null, null);
        String brand = d.brandName() != null ? d.brandName() : defaults.brandName();
        String logo = d.logoUrl() != null ? d.logoUrl() : blankToNull(defaults.logoUrl());
        String alt = d.logoUrl() != null ? d.logoAlt() : defaults.logoAlt();
        Set<String> hosts = new TreeSet<>();
        if (logo != null && SellerMarkup.allowedImage(logo, defaults.imageHosts())) {
            hosts.add(SellerMarkup.hostOf(java.net.URI.create(logo)));
        } else {
            logo = null;
        }
        d.imageHosts().stream().filter(defaults.imageHosts()::contains).forEach(hosts::add);
        Map<String, String> colours = new TreeMap<>(defaults.colours());
        d.colours().forEach((name, value) -> {
            if (PageDesign.COLOURS.contains(name) && COLOUR.matcher(value).matches()) {
                colours.put(name, value);
            }
        });
        Map<String, Map<String, String>> texts = new HashMap<>();
        defaults.texts().forEach((tag, messages) -> texts.put(tag, new LinkedHashMap<>(messages)));
        d.texts()
                .forEach((tag, messages) ->
                        texts.computeIfAbsent(tag, t -> new LinkedHashMap<>()).putAll(messages));
        MessageBundles own = bundles.withTexts(texts);

        String style = "";
        String styleSource = "";
        if (!colours.isEmpty()) {
            StringBuilder css = new StringBuilder(":root{");
            colours.forEach((name, value) ->
                    css.append("--").append(name).append(':').append(value).append(';'));
            css.append('}');
            style = "\n  <style>" + css + "</style>";
            styleSource = " " + SellerMarkup.hashSource(css.toString());
        }
        String brandHtml = (logo == null
                        ? ""
                        : "<img class=\"logo\" src=\"" + SellerMarkup.escape(logo) + "\" alt=\""
                                + SellerMarkup.escape(alt == null ? "" : alt) + "\">")
                + SellerMarkup.escape(brand);
        Map<String, String[]> parts = null;
        if (d.template() != null) {
            parts = new HashMap<>();
            for (MessageBundles.Bundle language : own.all()) {
                Map<String, Object> variables = new HashMap<>();
                variables.put("brandName", brand);
                variables.put("logoUrl", logo == null ? "" : logo);
                variables.put("logoAlt", alt == null ? "" : alt);
                variables.put("eventId", id == null ? "" : id.value());
                variables.put("lang", language.tag());
                variables.put("dir", language.direction());
                String[] split;
                try {
                    split = SellerMarkup.render(d.template(), variables);
                } catch (RuntimeException ex) {
                    split = null;
                }
                if (split == null) {
                    log.warn("Template of event {} not usable, Waitroom's own frame stays", id);
                    parts = null;
                    break;
                }
                parts.put(language.tag(), split);
            }
        }
        PageTemplate.Frame frame = new PageTemplate.Frame(brandHtml, style, parts, false);
        Map<String, WaitingPageRoutes.StaticPage> pages = new LinkedHashMap<>();
        for (MessageBundles.Bundle language : own.all()) {
            pages.put(language.tag(), WaitingPageRoutes.StaticPage.of(waiting.render(language, own, frame)));
        }
        StringBuilder csp = new StringBuilder(CSP_HEAD).append(styleSource).append("; img-src 'self' data:");
        hosts.forEach(host -> csp.append(" https://").append(host));
        csp.append(CSP_TAIL);
        return new EventPage(d.version(), Map.copyOf(pages), csp.toString(), frame, own);
    }

    /** A preview of {@code page} in one language: no scripts run, so it joins nothing. */
    byte[] preview(EventPage page, MessageBundles.Bundle language) {
        MessageBundles.Bundle own = page.bundles().all().stream()
                .filter(b -> b.tag().equals(language.tag()))
                .findFirst()
                .orElse(page.bundles().english());
        return waiting.render(own, page.bundles(), page.frame().asPreview());
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    @Override
    public void start() {
        refreshing = Flux.interval(defaults.refresh(), defaults.refresh())
                .onBackpressureDrop()
                .concatMap(tick -> refresh(), 1)
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable d = refreshing;
        if (d != null) {
            d.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return refreshing != null && !refreshing.isDisposed();
    }

    /**
     * One event's page: the rendered bytes per language tag, its own CSP (its colours' style hash, its image hosts),
     * and what the preview renders from.
     */
    record EventPage(
            long version,
            Map<String, WaitingPageRoutes.StaticPage> pages,
            String csp,
            PageTemplate.Frame frame,
            MessageBundles bundles) {}
}
