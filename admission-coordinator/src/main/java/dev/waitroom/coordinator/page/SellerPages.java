package dev.waitroom.coordinator.page;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.PageVersions;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.EventNotFoundException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each event's seller's page (docs/operating/the-sellers-page.md): checked by {@link PageRules}, stored in {@code
 * event_pages} with a version that one upsert increases (so concurrent writes get distinct versions and the last
 * wins), audited in the same transaction, then written to Redis for the gateways ({@link PageStore}).
 */
@Service
public class SellerPages {

    private static final Logger log = LoggerFactory.getLogger(SellerPages.class);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final TypeReference<Map<String, String>> COLOURS = new TypeReference<>() {};

    private static final TypeReference<Map<String, Map<String, String>>> TEXTS = new TypeReference<>() {};

    private static final String COLUMNS =
            "event_id, version, brand_name, logo_url, logo_alt, colours, texts, template, image_hosts";

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    private final EventManagement events;

    private final PageRules rules;

    private final PageStore store;

    SellerPages(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            EventManagement events,
            PageProperties properties,
            PageStore store) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.events = events;
        this.rules = PageRules.of(properties);
        this.store = store;
    }

    /** Checks and stores the event's page under the next version, audited; then publishes it. */
    public PageDesign put(EventId id, PageInput input, String actor, String reason) {
        PageDesign checked = this.rules.check(input);
        String why = reason == null
                ? "page changed"
                : TextFields.required(ProblemType.MALFORMED_REQUEST, "reason", reason, EventManagement.MAX_REASON);
        PageDesign stored = this.transactions.execute(status -> {
            Long previous = this.jdbc
                    .sql("select coalesce((select version from event_pages where event_id = :id), 0) from events"
                            + " where event_id = :id for update")
                    .param("id", id.value())
                    .query(Long.class)
                    .optional()
                    .orElseThrow(() -> new EventNotFoundException(id));
            long version = this.jdbc
                    .sql("""
                    insert into event_pages (event_id, version, brand_name, logo_url, logo_alt, colours, texts,
                        template, image_hosts, updated_by)
                    values (:id, 1, :brand, :logo, :alt, cast(:colours as jsonb), cast(:texts as jsonb), :template,
                        :hosts, :actor)
                    on conflict (event_id) do update set version = event_pages.version + 1,
                        brand_name = excluded.brand_name, logo_url = excluded.logo_url, logo_alt = excluded.logo_alt,
                        colours = excluded.colours, texts = excluded.texts, template = excluded.template,
                        image_hosts = excluded.image_hosts, updated_by = excluded.updated_by, updated_at = now()
                    returning version
                    """)
                    .param("id", id.value())
                    .param("brand", checked.brandName())
                    .param("logo", checked.logoUrl())
                    .param("alt", checked.logoAlt())
                    .param("colours", JSON.writeValueAsString(checked.colours()))
                    .param("texts", JSON.writeValueAsString(checked.texts()))
                    .param("template", checked.template())
                    .param("hosts", checked.imageHosts().toArray(String[]::new))
                    .param("actor", actor)
                    .query(Long.class)
                    .single();
            this.events.auditPage(id, previous, version, actor, why);
            return find(id).orElseThrow();
        });
        log.info("Page of event {} is version {}, by {}", id, stored.version(), actor);
        publishQuietly();
        return stored;
    }

    /** The event's page; empty when it has none (it shows the deployment's default). */
    public Optional<PageDesign> find(EventId id) {
        return this.jdbc
                .sql("select " + COLUMNS + " from event_pages where event_id = :id")
                .param("id", id.value())
                .query((rs, n) -> map(rs))
                .optional();
    }

    /** The page, or 404 {@code unknown-event} when the event does not exist. */
    public Optional<PageDesign> get(EventId id) {
        this.events.get(id);
        return find(id);
    }

    /** Every event's page and the version index, to Redis; a failure is logged and the next publication repairs it. */
    public void publishQuietly() {
        try {
            Map<EventId, PageDesign> all = new LinkedHashMap<>();
            this.jdbc
                    .sql("select " + COLUMNS + " from event_pages")
                    .query((rs, n) -> all.put(EventId.of(rs.getString("event_id")), map(rs)))
                    .list();
            Map<EventId, Long> versions = new LinkedHashMap<>();
            all.forEach((id, design) -> versions.put(id, design.version()));
            this.store.write(all, new PageVersions(versions));
        } catch (RuntimeException ex) {
            log.warn("Seller's pages not published: {}", ex.toString());
        }
    }

    private static PageDesign map(ResultSet rs) throws SQLException {
        String[] hosts = (String[]) rs.getArray("image_hosts").getArray();
        return new PageDesign(
                rs.getLong("version"),
                rs.getString("brand_name"),
                rs.getString("logo_url"),
                rs.getString("logo_alt"),
                JSON.readValue(rs.getString("colours"), COLOURS),
                JSON.readValue(rs.getString("texts"), TEXTS),
                rs.getString("template"),
                List.copyOf(Arrays.asList(hosts)));
    }
}
